"""The engine's legal moves against an independent reference (``tests/reference.py``).

At every position of seeded random deals, under every preset and under variants of
each part V option the presets leave out, the effects of ``legal_moves()`` (what each
move lays, adds, discards or draws) must be those the reference works out from the
rules alone; and an addition is in its short form exactly where the reference finds one
place for the card (B3.12, API.md). The deals are played two ways: uniform random
choices, and a policy that melds and takes the pile most of the time, so that reserves
and mortos are received, deals are closed and hands empty into packets. A list of
positions that random deals seldom reach (a reserve not yet activated, a full sequence,
a joker up-card, the morto becoming the stock, the last turn, going out, ...) is
compared too, with a few random continuations of each.

The reference follows its own account of the turn (the opening team of V3, the card a
one-card pile bars by B4.2) and the test checks the position's ``opening`` and
``pile_card`` against it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from biriba import (
    BIRIBA,
    BURACO,
    AddToMeld,
    Deal,
    Discard,
    DrawStock,
    LayMeld,
    Move,
    NameSuit,
    Pass,
    Phase,
    Redraw,
    RuleSet,
    TakeDiscard,
)

from .helpers import EXAMPLES_SCALE, position
from .reference import Effect, Reference, Turn

#: Every preset, then a variant for each option the presets leave out.
RULE_SETS = [RuleSet.named(name) for name in RuleSet.preset_names()] + [
    BIRIBA.evolve(entry_minimum=50),  # V3
    BURACO.evolve(entry_minimum=75),  # V3 under Z
    BIRIBA.evolve(reserve_needs_biriba=False),  # V4
    BIRIBA.evolve(max_substitutes=2),  # V7
    BIRIBA.evolve(keep_after_melding=1),  # V7
    BIRIBA.evolve(twos_always_wild=True),  # V7
    BURACO.evolve(twos_always_wild=True),  # V7 under Z
    BURACO.evolve(wild_melds=not BURACO.wild_melds),  # Z3.7 switched
    BIRIBA.evolve(entry_minimum=100),  # V3: opening turns of several melds
]

#: The deals each rule set plays per policy (more in CI's hypothesis profile).
DEALS = EXAMPLES_SCALE


def rule_set_id(rules: RuleSet) -> str:
    """A test id: the preset's name, or its name and what differs from the preset."""
    preset = RuleSet.named(rules.name)
    changed = {k: v for k, v in rules.to_dict().items() if preset.to_dict()[k] != v}
    return rules.name + "".join(f"-{k}={v}" for k, v in changed.items())


def effect_of(deal: Deal, move: Move) -> Effect:
    """What ``move`` does, as :mod:`tests.reference` names it (an addition's result read
    from a copy of the deal that plays it)."""
    if isinstance(move, DrawStock):
        return ("draw",)
    if isinstance(move, TakeDiscard):
        return ("take",)
    if isinstance(move, Pass):
        return ("pass",)
    if isinstance(move, Redraw):
        return ("redraw",)
    if isinstance(move, NameSuit):
        return ("kozi", str(move).split()[1])
    if isinstance(move, LayMeld):
        return ("meld", tuple(map(str, move.meld.cards)))
    if isinstance(move, Discard):
        return ("discard", str(move.card))
    assert isinstance(move, AddToMeld), move
    after = deal.copy()
    after.play(move)
    team = deal.rules.team_of(deal.to_move or 0)
    result = tuple(map(str, after.melds(team)[move.index].cards))
    if move.result is not None:
        assert tuple(map(str, move.result.cards)) == result, move
    return ("add", move.index, str(move.card), result)


def choose(rng: random.Random, moves: tuple[Move, ...], phase: Phase, melding: bool) -> Move:
    """A uniform random move, or with ``melding`` a meld or an addition nine times in
    ten where there is one, and taking the pile half the time where it may be taken."""
    if melding:
        wanted: tuple[type, ...] = (LayMeld, AddToMeld) if phase is Phase.PLAY else (TakeDiscard,)
        chance = 0.9 if phase is Phase.PLAY else 0.5
        preferred = [m for m in moves if isinstance(m, wanted)]
        if preferred and rng.random() < chance:
            return rng.choice(preferred)
    return rng.choice(moves)


def compare_deal(reference: Reference, seed: int, melding: bool) -> int:
    """Play the deal of ``seed`` under the reference's rule set and compare every
    position with the reference; the number of positions compared."""
    rules = reference.rules
    deal = Deal.new(rules, seed=seed, dealer=seed % rules.players)
    return compare_play(reference, deal, random.Random(seed), melding, f"seed {seed}")


def compare_play(
    reference: Reference,
    deal: Deal,
    rng: random.Random,
    melding: bool,
    origin: str,
    most: int | None = None,
) -> int:
    """From the position of ``deal`` on, compare every position with the reference and
    play a move chosen by :func:`choose`, until the deal ends (or after ``most``
    moves); the number of positions compared. ``origin`` names the start in messages."""
    rules = reference.rules
    label = f"{rule_set_id(rules)}, {origin}"
    barring = rules.to_dict()["pile_restriction"] == "no-discard-back"
    start = deal.to_dict()
    opening, pile_card = bool(start.get("opening")), start.get("pile_card")
    compared = 0
    while not deal.is_over and (most is None or compared < most):
        data: dict[str, Any] = deal.to_dict()
        seat = deal.to_move
        assert seat is not None
        team = rules.team_of(seat)
        if deal.phase is Phase.DRAW:
            opening, pile_card = not data["melds"][team], None
        else:
            assert data.get("pile_card") == pile_card, (label, deal.history)
            if rules.entry_minimum:
                assert data["opening"] == opening, (label, deal.history)
        moves = deal.legal_moves()
        engine = {effect_of(deal, m): str(m) for m in moves}
        assert len(engine) == len(moves), f"two moves with one effect: {moves}"
        expected = reference.legal_effects(data, opening, pile_card)
        found = set(engine)
        assert found == expected, (
            f"{label}, after {' '.join(map(str, deal.history))!r}: "
            f"the engine alone lists {sorted(engine[e] for e in found - expected)}, "
            f"the reference alone {sorted(map(str, expected - found))}"
        )
        melds = [tuple(text.split()) for text in data["melds"][team]]
        for move in moves:
            if isinstance(move, AddToMeld):
                places = len(reference.additions(melds[move.index], str(move.card)))
                assert (move.result is None) == (places == 1), f"{label}: {move}"
        compared += 1
        move = choose(rng, moves, deal.phase, melding)
        if isinstance(move, TakeDiscard) and len(data["discard"]) == 1 and barring:
            pile_card = data["discard"][0]  # B4.2
        deal.play(move)
    return compared


@pytest.mark.parametrize("melding", [False, True], ids=["uniform", "melding"])
@pytest.mark.parametrize("rules", RULE_SETS, ids=rule_set_id)
def test_legal_moves_agree_with_an_independent_reference(rules: RuleSet, melding: bool) -> None:
    """B3 to B6, Z2 to Z4 and every part V option the presets hold: the same legal moves
    as a reference written from the rules alone, at every position of whole deals."""
    first = 1000 * RULE_SETS.index(rules) + 500 * melding
    assert (
        sum(compare_deal(Reference(rules), seed, melding) for seed in range(first, first + DEALS))
        > 50
    )


def test_B4_2_a_reference_that_forgets_the_barred_card_is_caught() -> None:
    """The comparison can fail: a reference that forgets B4.2 (the card taken from a
    one-card pile may not be discarded) disagrees with the engine within a few deals."""

    class Forgetful(Reference):
        def discards(self, turn: Turn) -> list[str]:
            return super().discards(turn._replace(pile_card=None))

    with pytest.raises(AssertionError, match="the reference alone"):
        for seed in range(20):
            compare_deal(Forgetful(BIRIBA), seed, melding=True)


KOZI = RuleSet.named("biriba-kozi")
MINIMUM = BIRIBA.evolve(entry_minimum=50)
KEEP_ONE = BIRIBA.evolve(keep_after_melding=1)
CANASTRA = "3D 4D 5D 6D 7D 8D 9D"

#: Positions that random deals seldom reach, each as ``(name, rule set, what
#: tests.helpers.position builds it from)``.
RARE: list[tuple[str, RuleSet, dict[str, Any]]] = [
    (
        "B5.3-the-hand-empties-into-the-reserve-by-melding",
        BIRIBA,
        {"hands": {0: "8H 9H TH"}, "melds": (["2H 3H 4H 5H 6H 7H"], [])},
    ),
    (
        "B6.1-the-last-card-closes",
        BIRIBA,
        {"hands": {0: "KS"}, "melds": (["JK 9C TC JC QC KC AC"], []), "received": (True, False)},
    ),
    (
        "B5.4-a-reserve-not-yet-activated",
        BIRIBA,
        {
            "hands": {1: "5D 6D 7D QS"},
            "to_move": 1,
            "phase": "draw",
            "discard": "9S",
            "melds": (["JK 9C TC JC QC KC AC"], []),
            "received": (True, False),
            "unactivated": (0, None),
        },
    ),
    ("B4.2-the-barred-card", BIRIBA, {"hands": {0: "7H 7H 9C KD"}, "pile_card": "7H"}),
    (
        "B3.9-a-full-sequence-takes-no-natural-for-its-substitute",
        BIRIBA,
        {"hands": {0: "KH 5C 6C"}, "melds": (["AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH JK"], [])},
    ),
    (
        "V1-a-joker-up-card",
        KOZI,
        {"phase": "draw", "discard": "JK", "bonus_suit": None, "stock_size": 41},
    ),
    (
        "V3-an-opening-turn",
        MINIMUM,
        {"hands": {0: "KH KD KC JK 5S 6S 7S 9D"}, "opening": True},
    ),
    ("V7-a-last-card-with-nothing-to-receive", KEEP_ONE, {"hands": {0: "5S"}}),
    (
        "Z4.3-the-morto-becomes-the-stock",
        BURACO,
        {"hands": {0: "5C 6C KS"}, "phase": "draw", "stock": "QH"},
    ),
    (
        "Z4.3-the-last-turn",
        BURACO,
        {
            "hands": {1: "5C 6C 7C"},
            "to_move": 1,
            "phase": "draw",
            "stock": "",
            "discard": "KS",
            "melds": ([], [CANASTRA]),
            "received": (True, True),
            "last_turn": True,
        },
    ),
    (
        "Z4.4-one-card-and-a-one-card-pile",
        BURACO,
        {"hands": {0: "KS"}, "phase": "draw", "discard": "QD"},
    ),
    (
        "Z3.7-a-wild-meld-on-the-table",
        BURACO,
        {"hands": {0: "2H 2S JK 5C 6C 9D"}, "melds": (["JK 2C 2D"], [])},
    ),
    (
        "Z3.3-a-closed-sequence",
        BURACO,
        {"hands": {0: "JH JK 2C 5S 6S 9D"}, "melds": (["QH KH AH"], [])},
    ),
    (
        "Z4.2-going-out",
        BURACO,
        {"hands": {0: "KS"}, "melds": ([CANASTRA], []), "received": (True, False)},
    ),
]


@pytest.mark.parametrize(("rules", "built"), [r[1:] for r in RARE], ids=[r[0] for r in RARE])
def test_rare_positions_agree_with_the_reference(rules: RuleSet, built: dict[str, Any]) -> None:
    """The same comparison from positions random deals seldom reach, and along a few
    random continuations of each."""
    start = Deal.from_dict(position(rules=rules, **built))
    for seed in range(4 * EXAMPLES_SCALE):
        compared = compare_play(
            Reference(rules), start.copy(), random.Random(seed), seed % 2 == 1, f"seed {seed}", 25
        )
        assert compared >= 1  # the rare position itself, at least
