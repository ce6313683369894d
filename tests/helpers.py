"""Building explicit positions for rule tests."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from biriba import (
    BIRIBA,
    AddToMeld,
    Card,
    Deal,
    Discard,
    DrawStock,
    IllegalMoveError,
    InvalidMeldError,
    LayMeld,
    Meld,
    Move,
    NameSuit,
    Pass,
    Redraw,
    RuleSet,
    Suit,
    TakeDiscard,
    full_pack,
    parse_cards,
)

#: The hypothesis profile in force (tests/conftest.py): ``quick`` unless the environment
#: variable ``BIRIBA_HYPOTHESIS_PROFILE`` says ``ci``.
PROFILE = os.environ.get("BIRIBA_HYPOTHESIS_PROFILE", "quick")
#: Each profile's number of examples, as a multiple of the quick profile's.
SCALES = {"quick": 1, "ci": 4}
if PROFILE not in SCALES:
    raise RuntimeError(f"BIRIBA_HYPOTHESIS_PROFILE is 'quick' or 'ci', not {PROFILE!r}")
#: How many times the quick profile's examples the profile in force tries.
EXAMPLES_SCALE = SCALES[PROFILE]


class IntLike:
    """An integer type of another library (as NumPy's): an int by ``__index__`` only,
    which every argument the library reads as a whole number accepts."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


def examples(n: int) -> int:
    """The number of hypothesis examples for a test that tries ``n`` in the quick profile."""
    return n * EXAMPLES_SCALE


def position(
    *,
    hands: dict[int, str] | None = None,
    melds: tuple[list[str], ...] | None = None,
    discard: str = "",
    to_move: int | None = 0,
    phase: str = "play",
    stock: str | None = None,
    stock_size: int | None = None,
    received: tuple[bool, ...] | None = None,
    passes: int = 0,
    pile_card: str | None = None,
    unactivated: tuple[int | None, ...] | None = None,
    closed_by: int | None = None,
    dealer: int = 3,
    rules: RuleSet = BIRIBA,
    reserves_left: int | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A position dict: the cards named go where they are named, the rest of the pack
    fills the reserves not yet received (``reserves_left`` of them, when given), then the
    other hands (to 11 cards, or to what is left), then the stock (``stock_size`` cards of
    it at most; the rest tops up hands). ``extra`` keys are added as they are."""
    hands = hands or {}
    teams = rules.teams
    melds = melds if melds is not None else tuple([] for _ in range(teams))
    received = received if received is not None else (False,) * teams
    unactivated = unactivated if unactivated is not None else (None,) * teams
    used: Counter[Card] = Counter()
    hand_cards = {s: list(parse_cards(h)) for s, h in hands.items()}
    for cards in hand_cards.values():
        used.update(cards)
    for team in melds:
        for text in team:
            used.update(parse_cards(text))
    pile = list(parse_cards(discard))
    used.update(pile)
    explicit_stock = list(parse_cards(stock)) if stock is not None else None
    if explicit_stock is not None:
        used.update(explicit_stock)
    rest = list((Counter(full_pack(rules)) - used).elements())
    rest.sort()
    packets = []
    if reserves_left is None:
        reserves_left = rules.reserve_count - sum(received)
    for _ in range(reserves_left):
        packets.append(rest[: rules.reserve_size])
        rest = rest[rules.reserve_size :]
    if explicit_stock is None:
        if stock_size is None:
            stock_size = max(0, len(rest) - 11 * (rules.players - len(hands)))
        explicit_stock = rest[:stock_size]
        rest = rest[stock_size:]
    others = [s for s in range(rules.players) if s not in hand_cards]
    for i, seat in enumerate(others):
        share = len(rest) // (len(others) - i)
        hand_cards[seat] = rest[:share]
        rest = rest[share:]
    if rest:
        explicit_stock = explicit_stock + rest
    return {
        "rules": rules.name if rules.is_preset else rules.to_dict(),
        "dealer": dealer,
        "to_move": to_move,
        "phase": phase,
        "hands": [[str(c) for c in hand_cards[s]] for s in range(rules.players)],
        "stock": [str(c) for c in explicit_stock],
        "discard": [str(c) for c in pile],
        "reserves": [[str(c) for c in p] for p in packets],
        "melds": [list(team) for team in melds],
        "reserve_received": list(received),
        "passes": passes,
        "pile_card": pile_card,
        "unactivated": list(unactivated),
        "closed_by": closed_by,
        **extra,
    }


def played(seed: int, moves: int, rules: RuleSet = BIRIBA, dealer: int | None = None) -> Deal:
    """A deal of ``rules`` shuffled with ``seed`` after ``moves`` uniformly random moves
    (fewer if it ends first); the dealer is ``dealer``, else ``seed`` modulo the players."""
    deal = Deal.new(rules, seed=seed, dealer=seed % rules.players if dealer is None else dealer)
    rng = random.Random(seed)
    for _ in range(moves):
        if deal.is_over:
            break
        deal.play(rng.choice(deal.legal_moves()))
    return deal


def deal_at(**kwargs: Any) -> Deal:
    """``Deal.from_dict(position(**kwargs))``."""
    return Deal.from_dict(position(**kwargs))


def texts(deal: Deal) -> set[str]:
    """The legal moves as text."""
    return {str(m) for m in deal.legal_moves()}


def rejects(deal: Deal, move: str, rule: str, rule_id: str | None = None) -> None:
    """``move`` is refused citing ``rule``, with ``err.rule`` that rule (or ``rule_id``
    where the message cites a second rule beside the one that forbids), and the deal
    is unchanged."""
    before = deal.to_dict()
    with pytest.raises(IllegalMoveError, match=rule.replace(".", r"\.")) as info:
        deal.play(move)
    assert info.value.rule == (rule_id or rule)
    assert deal.to_dict() == before


#: Every distinct card, by index.
ALL_CARDS = tuple(Card.from_index(i) for i in range(53))


def cards_in_play(deal: Deal) -> Counter[Card]:
    """Every card of the deal, wherever it is: hands, stock, pile, reserves, melds."""
    seen: Counter[Card] = Counter()
    for seat in range(deal.rules.players):
        seen.update(deal.hand(seat))
    seen.update(deal.stock)
    seen.update(deal.discard_pile)
    for packet in deal.reserves:
        seen.update(packet)
    for team in range(deal.rules.teams):
        for meld in deal.melds(team):
            seen.update(meld.cards)
    return seen


def candidate_moves(deal: Deal, rng: random.Random, per_meld: int | None = None) -> list[Move]:
    """Moves of every kind, most of them illegal, in the forms legal_moves would use: the
    keyword moves, a discard of every card, an addition of each card in hand (or of
    ``per_meld`` of them) to each of the team's melds and to one that does not exist,
    and random melds from the hand."""
    out: list[Move] = [DrawStock(), TakeDiscard(), Pass(), Redraw()]
    out += [NameSuit(s) for s in Suit]
    out += [Discard(c) for c in ALL_CARDS]
    seat = deal.to_move
    if seat is None:
        return out
    hand = list(deal.hand(seat))
    melds = deal.melds(deal.team_of(seat))
    for index in range(len(melds) + 1):
        cards = set(hand) if per_meld is None else set(rng.sample(hand, min(per_meld, len(hand))))
        for card in cards | {rng.choice(ALL_CARDS)}:
            if index < len(melds):
                results = melds[index].extensions(card)
                if len(results) > 1:
                    out += [AddToMeld(index, card, r) for r in results]
                    continue
            out.append(AddToMeld(index, card))
    for _ in range(20 if per_meld is None else 8):
        if len(hand) < 3:
            break
        chosen = rng.sample(hand, rng.randint(3, min(7, len(hand))))
        with contextlib.suppress(InvalidMeldError):
            out.append(LayMeld(Meld.from_cards(chosen, deal.rules)))
    return out


def _run_script(
    script: Path, args: tuple[str, ...], timeout: int
) -> subprocess.CompletedProcess[str]:
    """``python script *args`` run to the end, its output captured."""
    return subprocess.run(
        [sys.executable, str(script), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def run_script_refused(script: Path, *args: str, timeout: int = 120) -> str:
    """Run ``python script *args``, expecting it to refuse its arguments: the test fails
    unless it exits with 2 (argparse's usage error); returns its standard error."""
    done = _run_script(script, args, timeout)
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    return done.stderr


def run_script(script: Path, *args: str, timeout: int = 120) -> str:
    """Run ``python script *args`` and return what it printed; the test fails, showing
    the script's standard error, if it exits with anything but 0."""
    done = _run_script(script, args, timeout)
    assert done.returncode == 0, done.stderr
    return done.stdout


def pettingzoo_adapter() -> Any:
    """``biriba.pettingzoo``, or the test skipped where the extra is not installed."""
    pytest.importorskip("pettingzoo", reason="biriba[pettingzoo] is not installed")
    from biriba import pettingzoo

    return pettingzoo


def openspiel_adapter() -> tuple[Any, Any]:
    """``(pyspiel, biriba.openspiel)``, or the test skipped where the extra is not
    installed."""
    pyspiel = pytest.importorskip("pyspiel", reason="biriba[openspiel] is not installed")
    from biriba import openspiel

    return pyspiel, openspiel


def load_module(path: Path, name: str) -> ModuleType:
    """The module of the file ``path`` (a script, a docs extension), imported as ``name``."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
