"""Random playouts under hypothesis, checking the engine's invariants after every move."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from biriba import (
    Deal,
    Move,
    Phase,
    RuleSet,
    full_pack,
)

from .helpers import candidate_moves, cards_in_play, examples

PRESETS = RuleSet.preset_names()


def _examples(name: str, biriba: int) -> int:
    """``biriba`` examples for the default rule set, a sixth of them (one at least) for
    each other preset."""
    return examples(biriba) if name == "biriba" else max(1, examples(biriba) // 6)


def check_position(deal: Deal, rng: random.Random, deep: bool) -> None:
    assert cards_in_play(deal) == Counter(full_pack(deal.rules))  # every card exactly once
    moves = deal.legal_moves()
    assert len(moves) == len(set(moves))
    assert (len(moves) == 0) == deal.is_over
    legal = set(moves)
    if deal.to_move is not None:  # the player's view offers exactly the same moves
        assert deal.view(deal.to_move).legal_moves() == moves
    for move in candidate_moves(deal, rng):
        assert deal.is_legal(move) == (move in legal), str(move)
    for move in moves:
        assert deal.is_legal(str(move))
        assert Move.parse(str(move), deal.rules) == move
    data = deal.to_dict()
    assert json.loads(json.dumps(data)) == data
    again = Deal.from_dict(data)
    assert again.to_dict() == data
    assert again.legal_moves() == moves
    if deep:
        # Two different moves never lead to the same position.
        outcomes = set()
        for move in moves:
            child = deal.copy()
            child.play(move)
            outcomes.add(json.dumps(child.to_dict(), sort_keys=True))
        assert len(outcomes) == len(moves)


@pytest.mark.parametrize("name", PRESETS)
def test_random_playout_invariants(name: str) -> None:
    rules = RuleSet.named(name)

    @settings(max_examples=_examples(name, 12))
    @given(st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
    def deals(seed: int, choices: int) -> None:
        random_playout(rules, seed, choices)

    deals()


def random_playout(rules: RuleSet, seed: int, choices: int) -> None:
    """A random deal of ``rules``, each position checked (every 15th deeply), each move
    undone and played again."""
    deal = Deal.new(rules, seed=seed, dealer=seed % rules.players)
    rng = random.Random(choices)
    ply = 0
    while not deal.is_over:
        check_position(deal, rng, deep=ply % 15 == 0)
        before = deal.to_dict()
        move = rng.choice(deal.legal_moves())
        deal.play(move)
        assert deal.history[-1] == move
        assert deal.undo() == move
        assert deal.to_dict() == before
        deal.play(move)
        ply += 1
    check_position(deal, rng, deep=True)
    score = deal.score()
    assert score.final
    for team in score.teams:
        assert team.hands <= 0 and team.reserve <= 0
        assert team.total == team.melded + team.bonuses + team.hands + team.closing + team.reserve


def _seeded_deals(name: str, biriba: int, check: Callable[[RuleSet, int], None]) -> None:
    """``check(rules, seed)`` of the preset ``name`` for hypothesis's seeds, ``biriba``
    examples for the default rule set (:func:`_examples`)."""
    rules = RuleSet.named(name)

    @settings(max_examples=_examples(name, biriba))
    @given(st.integers(0, 2**32 - 1))
    def deals(seed: int) -> None:
        check(rules, seed)

    deals()


@pytest.mark.parametrize("name", PRESETS)
def test_undo_all_the_way_restores_the_deal(name: str) -> None:
    _seeded_deals(name, 25, undo_all_the_way)


def undo_all_the_way(rules: RuleSet, seed: int) -> None:
    """A random deal of ``rules`` played to its end, then undone move by move back to its
    start, each position exactly as it was."""
    deal = Deal.new(rules, seed=seed)
    start = deal.to_dict()
    rng = random.Random(seed)
    snapshots = []
    while not deal.is_over:
        snapshots.append(deal.to_dict())
        deal.play(rng.choice(deal.legal_moves()))
    copy = deal.copy()
    while deal.history:
        deal.undo()
        assert deal.to_dict() == snapshots.pop()
    assert deal.to_dict() == start
    assert copy.is_over  # the copy is independent of the undone original


@pytest.mark.parametrize("name", PRESETS)
def test_a_copy_is_independent(name: str) -> None:
    _seeded_deals(name, 25, copy_independent)


def copy_independent(rules: RuleSet, seed: int) -> None:
    """A copy of a deal 40 moves in stays as it was while the deal plays on."""
    deal = Deal.new(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(40):
        if deal.is_over:
            break
        deal.play(rng.choice(deal.legal_moves()))
    twin = deal.copy()
    before = twin.to_dict()
    while not deal.is_over:
        deal.play(rng.choice(deal.legal_moves()))
    assert twin.to_dict() == before
    assert twin.history == deal.history[: len(twin.history)]


def test_every_deal_of_a_few_hundred_seeds_ends() -> None:
    for seed in range(40):
        deal = Deal.new(seed=seed, dealer=seed % 4)
        rng = random.Random(seed)
        for _ in range(2000):
            if deal.is_over:
                break
            deal.play(rng.choice(deal.legal_moves()))
        assert deal.is_over
        assert deal.phase is Phase.OVER


@settings(max_examples=examples(10))
@given(st.integers(0, 2**32 - 1))
def test_greedy_playout_invariants(seed: int) -> None:
    """Greedy bots close most deals and take many reserves, which random play seldom
    does: the same invariants hold along their games."""
    from biriba.bots import GreedyBot

    deal = Deal.new(seed=seed, dealer=seed % 4)
    bots = [GreedyBot(seed=s) for s in range(4)]
    rng = random.Random(seed)
    ply = 0
    while not deal.is_over:
        if ply % 3 == 0:
            check_position(deal, rng, deep=ply % 30 == 0)
        seat = deal.to_move
        assert seat is not None
        before = deal.to_dict()
        move = bots[seat].choose(deal.view(seat))
        deal.play(move)
        assert deal.undo() == move and deal.to_dict() == before
        deal.play(move)
        ply += 1
    check_position(deal, rng, deep=True)
