"""Building explicit positions for rule tests."""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

import pytest

from biriba import BIRIBA, Card, Deal, IllegalMoveError, RuleSet, full_pack, parse_cards

#: The hypothesis profile in force (tests/conftest.py): ``quick`` unless the environment
#: variable ``BIRIBA_HYPOTHESIS_PROFILE`` says ``ci``.
PROFILE = os.environ.get("BIRIBA_HYPOTHESIS_PROFILE", "quick")
#: Each profile's number of examples, as a multiple of the quick profile's.
SCALES = {"quick": 1, "ci": 4}
if PROFILE not in SCALES:
    raise RuntimeError(f"BIRIBA_HYPOTHESIS_PROFILE is 'quick' or 'ci', not {PROFILE!r}")
#: How many times the quick profile's examples the profile in force tries.
EXAMPLES_SCALE = SCALES[PROFILE]


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
