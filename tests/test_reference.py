"""The engine's legal moves against an independent reference (``tests/reference.py``).

At every position of seeded random deals, under every preset and under variants of
each part V option the presets leave out, the effects of ``legal_moves()`` (what each
move lays, adds, discards or draws) must be those the reference works out from the
rules alone; and an addition is in its short form exactly where the reference finds one
place for the card (B3.12, API.md). The deals are played two ways: uniform random
choices, and a policy that melds and takes the pile most of the time, so that reserves
and mortos are received, deals are closed and hands empty into packets.

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

from .helpers import EXAMPLES_SCALE
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
    label = rule_set_id(rules)
    barring = rules.to_dict()["pile_restriction"] == "no-discard-back"
    rng = random.Random(seed)
    deal = Deal.new(rules, seed=seed, dealer=seed % rules.players)
    opening, pile_card = False, None
    compared = 0
    while not deal.is_over:
        data: dict[str, Any] = deal.to_dict()
        seat = deal.to_move
        assert seat is not None
        team = rules.team_of(seat)
        if deal.phase is Phase.DRAW:
            opening, pile_card = not data["melds"][team], None
        else:
            assert data.get("pile_card") == pile_card, (seed, deal.history)
            if rules.entry_minimum:
                assert data["opening"] == opening, (seed, deal.history)
        moves = deal.legal_moves()
        engine = {effect_of(deal, m): str(m) for m in moves}
        assert len(engine) == len(moves), f"two moves with one effect: {moves}"
        expected = reference.legal_effects(data, opening, pile_card)
        found = set(engine)
        assert found == expected, (
            f"{label}, seed {seed}, after {' '.join(map(str, deal.history))!r}: "
            f"the engine alone lists {sorted(engine[e] for e in found - expected)}, "
            f"the reference alone {sorted(map(str, expected - found))}"
        )
        melds = [tuple(text.split()) for text in data["melds"][team]]
        for move in moves:
            if isinstance(move, AddToMeld):
                places = len(reference.additions(melds[move.index], str(move.card)))
                assert (move.result is None) == (places == 1), f"{label}, seed {seed}: {move}"
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


def test_a_reference_that_forgets_a_rule_is_caught() -> None:
    """The comparison can fail: a reference that forgets B4.2 (the card taken from a
    one-card pile may not be discarded) disagrees with the engine within a few deals."""

    class Forgetful(Reference):
        def discards(self, turn: Turn) -> list[str]:
            return super().discards(turn._replace(pile_card=None))

    with pytest.raises(AssertionError, match="the reference alone"):
        for seed in range(20):
            compare_deal(Forgetful(BIRIBA), seed, melding=True)
