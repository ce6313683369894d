"""The heuristic's shortcuts against their definitions, and the Monte Carlo search's
pruning: what the bots decide, never how fast (speed is measured by benchmarks/bots.py)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from biriba import BIRIBA, BURACO, BiribaError, Card, Deal, Move, PlayerView, RuleSet
from biriba.bots import Bot, GreedyBot, MonteCarloBot, play_deal
from biriba.bots import heuristics as h
from biriba.enumeration import melds_from_counts

from .helpers import position


def positions(rules: RuleSet, deals: int) -> Iterator[tuple[Deal, PlayerView]]:
    """Every position of ``deals`` deals, one move in five random, the rest greedy."""
    for i in range(deals):
        deal = Deal.new(rules, seed=f"search/{i}", dealer=i % rules.players)
        rng = random.Random(i)
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            view = deal.view(seat)
            yield deal, view
            moves = view.legal_moves()
            if rng.random() < 0.2:
                deal.play(rng.choice(moves))
            else:
                deal.play(h.greedy_choice(view, moves, rng))


def pile_use_by_definition(view: PlayerView) -> int:
    """The pile cards that go to the table, marked one by one: each natural card the
    team's melds take, then, meld by meld, the pile cards a clean meld of hand and pile
    needs beyond the hand's own copies."""
    mine = view.melds[view.team]
    pile = view.discard_pile
    used = {
        i
        for i, c in enumerate(pile)
        if not view.rules.is_wild(c) and any(m.extensions(c) for m in mine)
    }
    counts = [0] * 53
    for card in (*view.hand, *pile):
        counts[card.index] += 1
    in_hand = Counter(view.hand)
    for meld in melds_from_counts(tuple(counts), view.rules):
        fresh = Counter(meld.cards) - in_hand
        if meld.is_clean and fresh:
            for i, card in enumerate(pile):
                if fresh[card] and i not in used:
                    used.add(i)
                    fresh[card] -= 1
    return len(used)


def danger_by_definition(card: Card, view: PlayerView) -> float:
    """What discarding ``card`` gives away, from the rest of the hand card by card."""
    rules = view.rules
    next_team = (view.seat + 1) % rules.players % rules.teams
    rest = list((Counter(view.hand) - Counter([card])).elements())
    near = any(
        c.suit == card.suit
        and c.rank is not None
        and card.rank is not None
        and c.rank != card.rank
        and abs(c.rank - card.rank) <= 2
        for c in rest
    )
    danger = 0.0
    if rules.is_wild(card):
        danger += 60
    if any(m.extensions(card) for m in view.melds[next_team]):
        danger += 30
    if any(c.rank == card.rank for c in rest):
        danger += 12
    if rules.is_wild(card) or near:
        danger += 5
    if any(m.extensions(card) for m in view.melds[view.team]):
        danger += 20
    return danger - rules.card_value(card) / 2


@pytest.mark.parametrize("rules", [BIRIBA, BURACO], ids=lambda r: r.name)
def test_pile_use_and_discard_danger_follow_their_definitions(rules: RuleSet) -> None:
    piles = dangers = 0
    for _, view in positions(rules, 4):
        if view.discard_pile:
            expected = pile_use_by_definition(view)
            assert h.pile_use(view) == expected
            # With a threshold the count may stop early, never short of the threshold.
            for enough in (1, 3):
                assert (h.pile_use(view, enough) >= enough) == (expected >= enough)
            piles += expected > 0
        held = Counter(view.hand)
        for card in held:
            danger = danger_by_definition(card, view)
            assert h.discard_danger(card, view) == danger
            # The hand given as its cards or as a Counter of them, as in earlier versions.
            assert h.discard_danger(card, view, view.hand) == danger
            assert h.discard_danger(card, view, held) == danger
            dangers += 1
    assert piles > 20 and dangers > 1000  # the positions exercised both


@pytest.mark.parametrize("rules", [BIRIBA, BURACO], ids=lambda r: r.name)
def test_a_deal_s_table_gives_the_heuristic_what_the_view_gives(rules: RuleSet) -> None:
    for deal, view in positions(rules, 3):
        moves = view.legal_moves()
        seed = len(deal.history)
        table_rng, view_rng = random.Random(seed), random.Random(seed)
        assert h.greedy_choice(h.table_of(deal), moves, table_rng) == h.greedy_choice(
            view, moves, view_rng
        )
        assert table_rng.random() == view_rng.random()  # the same draws from the generator


def decisions(bot: MonteCarloBot, deal: Deal, count: int) -> list[Move]:
    """The bot's choices at the next ``count`` positions of ``deal`` with a choice."""
    chosen: list[Move] = []
    deal = deal.copy()
    greedy = GreedyBot(seed=0)
    while len(chosen) < count and not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        view = deal.view(seat)
        if len(view.legal_moves()) > 1:
            move = bot.choose(view)
            assert deal.is_legal(move)
            chosen.append(move)
        deal.play(greedy.choose(view))
    return chosen


@pytest.mark.parametrize("prune", [1.0, None])
def test_monte_carlo_bot_is_deterministic_with_a_seed(prune: float | None) -> None:
    deal = Deal.new(seed=12)
    first = decisions(MonteCarloBot(seed=4, iterations=3, horizon=20, prune=prune), deal, 8)
    again = decisions(MonteCarloBot(seed=4, iterations=3, horizon=20, prune=prune), deal, 8)
    assert first == again and len(first) == 8


def test_monte_carlo_bot_plays_whole_deals_of_legal_moves() -> None:
    for rules in (BIRIBA, BURACO):
        bots: list[Bot] = [MonteCarloBot(seed=1, iterations=2, horizon=10), GreedyBot(seed=2)] * 2
        assert play_deal(Deal.new(rules, seed=6), bots).is_over  # play() checks each move


class Scripted(MonteCarloBot):
    """A search whose rollouts score each candidate by a script, counting the rollouts."""

    def __init__(self, outcomes: dict[str, list[int]], **kwargs: float | None) -> None:
        super().__init__(seed=0, iterations=8, **kwargs)  # type: ignore[arg-type]
        self.outcomes = outcomes
        self.played: Counter[str] = Counter()

    def _rollout(self, world: Deal, team: int, rng: random.Random) -> int:
        move = str(world.history[-1])
        k = self.played[move]
        self.played[move] += 1
        return self.outcomes[move][k % len(self.outcomes[move])]


def discard_view() -> PlayerView:
    """A discard among three cards whose candidates the search compares."""
    deal = Deal.from_dict(position(hands={0: "4C 8D KS"}))
    return deal.view(0)


def test_the_search_drops_a_candidate_clearly_behind_and_keeps_a_close_one() -> None:
    view = discard_view()
    outcomes = {
        "discard 4C": [50, 40, 60, 50],  # the leader
        "discard 8D": [-100, -90, -110, -100],  # clearly behind: dropped at once
        "discard KS": [70, 10, 40, 60],  # close behind: searched to the end
    }
    bot = Scripted(outcomes, prune=1.0)
    assert str(bot.choose(view)) == "discard 4C"
    assert bot.played == {"discard 4C": 8, "discard 8D": 2, "discard KS": 8}
    every = Scripted(outcomes, prune=None)
    assert str(every.choose(view)) == "discard 4C"
    assert every.played == {"discard 4C": 8, "discard 8D": 8, "discard KS": 8}


def test_the_search_ends_when_one_candidate_is_left() -> None:
    view = discard_view()
    outcomes = {
        "discard 4C": [-100, -110],
        "discard 8D": [30, 40],  # the leader: both others fall clearly behind
        "discard KS": [-5, 0],
    }
    bot = Scripted(outcomes, prune=1.0)
    assert str(bot.choose(view)) == "discard 8D"
    assert bot.played == {"discard 4C": 2, "discard 8D": 2, "discard KS": 2}


@pytest.mark.parametrize("prune", ["1", True])
def test_prune_of_the_wrong_type_raises_type_error(prune: object) -> None:
    with pytest.raises(TypeError, match="prune"):
        MonteCarloBot(prune=prune)  # type: ignore[arg-type]


def test_a_negative_prune_raises_biriba_error() -> None:
    with pytest.raises(BiribaError, match="prune"):
        MonteCarloBot(prune=-0.5)
