"""The greedy heuristic shared by :class:`~biriba.bots.GreedyBot` and the search bot."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Protocol

import attrs

from biriba.cards import Card, counts_of
from biriba.deal import Deal, Phase
from biriba.engine import engine_for
from biriba.enumeration import melds_from_counts
from biriba.melds import Meld
from biriba.moves import (
    AddToMeld,
    Discard,
    DrawStock,
    LayMeld,
    Move,
    NameSuit,
    Pass,
    TakeDiscard,
)
from biriba.rules import RuleSet

__all__ = ["Table", "discard_danger", "greedy_choice", "pile_use", "table_of", "take_melds"]


class Table(Protocol):
    """What the heuristic reads: a :class:`~biriba.PlayerView` has all of it."""

    @property
    def rules(self) -> RuleSet: ...
    @property
    def seat(self) -> int: ...
    @property
    def team(self) -> int: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def hand(self) -> tuple[Card, ...]: ...
    @property
    def discard_pile(self) -> tuple[Card, ...]: ...
    @property
    def melds(self) -> tuple[tuple[Meld, ...], ...]: ...
    @property
    def reserve_received(self) -> tuple[bool, ...]: ...
    @property
    def reserves_left(self) -> int: ...


@attrs.frozen
class _DealTable:
    """The heuristic's inputs read straight off a deal (for rollouts inside a search)."""

    rules: RuleSet
    seat: int
    team: int
    phase: Phase
    hand: tuple[Card, ...]
    discard_pile: tuple[Card, ...]
    melds: tuple[tuple[Meld, ...], ...]
    reserve_received: tuple[bool, ...]
    reserves_left: int


def table_of(deal: Deal) -> Table:
    """The heuristic's view of the player to move in ``deal``: only what that seat sees."""
    seat = deal.to_move
    assert seat is not None
    rules = deal.rules
    return _DealTable(
        rules,
        seat,
        seat % rules.teams,
        deal.phase,
        deal.hand(seat),
        deal.discard_pile,
        tuple(deal.melds(t) for t in range(rules.teams)),
        tuple(deal.reserve_received(t) for t in range(rules.teams)),
        len(deal.reserves),
    )


def _fits_melds(card: Card, melds: Sequence[Meld]) -> bool:
    return any(m.extensions(card) for m in melds)


def _fits_hand(card: Card, hand: Sequence[Card], rules: RuleSet) -> bool:
    """Whether ``card`` makes a pair of a rank or a near-sequence with the hand."""
    if rules.is_wild(card):
        return True
    for other in hand:
        if other.rank == card.rank:
            return True
        if (
            other.suit == card.suit
            and other.rank is not None
            and card.rank is not None
            and abs(other.rank - card.rank) <= 2
        ):
            return True
    return False


def pile_use(view: Table) -> int:
    """How many pile cards would go to the table this turn: natural cards the team's melds
    take, or cards of a new clean meld made with the hand. The heuristic plays each of
    those, so a take it judges useful always puts cards on the table."""
    mine = view.melds[view.team]
    pile = view.discard_pile
    used = {i for i, c in enumerate(pile) if not view.rules.is_wild(c) and _fits_melds(c, mine)}
    counts = [0] * 53
    for card in (*view.hand, *pile):
        counts[card.index] += 1
    in_hand = Counter(view.hand)
    for meld in melds_from_counts(tuple(counts), view.rules):
        if meld.is_clean and Counter(meld.cards) - in_hand:
            fresh = Counter(meld.cards) - in_hand
            for i, card in enumerate(pile):
                if fresh[card] and i not in used:
                    used.add(i)
                    fresh[card] -= 1
    return len(used)


def take_melds(view: Table) -> bool:
    """Whether, after taking the pile, the player could legally lay a meld or add a
    natural card (B4.5 included), so that the take puts cards on the table."""
    rules = view.rules
    pile = view.discard_pile
    if not pile:
        return False
    engine = engine_for(rules)
    team = view.team
    before = engine.hidden_situation(
        counts_of(view.hand),
        view.melds[team],
        view.reserve_received[team],
        view.reserves_left,
        None,
    )
    moves = engine.play_moves(engine.after_take(before, pile), len(view.hand) + len(pile))
    return any(
        isinstance(m, LayMeld) or (isinstance(m, AddToMeld) and not rules.is_wild(m.card))
        for m in moves
    )


def _draw_phase(view: Table, moves: Sequence[Move]) -> Move:
    """Take the pile only when some of it goes to the table at once: a take that melds
    nothing could be answered by another, and the deal would never end. After such a take
    the heuristic always lays a meld or adds a natural card (both have a positive value),
    so every take of its puts cards on the table and every deal it plays ends."""
    names = [m for m in moves if isinstance(m, NameSuit)]
    if names:  # V1: name the suit the hand holds most of
        held = Counter(c.suit for c in view.hand)
        return max(names, key=lambda m: (held[m.suit], -m.suit))
    can_take = any(isinstance(m, TakeDiscard) for m in moves)
    if can_take:
        pile = view.discard_pile
        use = pile_use(view)
        if use >= 1 and (len(pile) <= 4 or use * 4 >= len(pile)) and take_melds(view):
            return next(m for m in moves if isinstance(m, TakeDiscard))
    for move in moves:
        if isinstance(move, DrawStock):
            return move
    for move in moves:
        if isinstance(move, Pass):
            return move
    return moves[0]


def _meld_value(move: Move, view: Table) -> float:
    hand_size = len(view.hand)
    mine = view.melds[view.team]
    if isinstance(move, LayMeld):
        meld = move.meld
        value = 10 + 3 * len(meld) + meld.points / 10
        if not meld.is_clean and not meld.is_biriba:
            value -= 14  # keep substitutes for where they count
        if len(meld) == hand_size:
            value += 100  # empties the hand into the reserve
        return value
    if isinstance(move, AddToMeld):
        old = mine[move.index]
        result = move.result or old.extensions(move.card)[0]
        value = 9 + (result.bonus - old.bonus) / 10 + (2 if len(result) >= 5 else 0)
        if view.rules.is_wild(move.card) and move.card in result.substitutes:
            completes = result.is_biriba and not old.is_biriba
            value += 10 if completes else -16
        if result.is_clean:
            value += 2
        if hand_size == 1:
            value += 100
        return value
    return -1.0


def discard_danger(card: Card, view: Table, hand: Counter[Card]) -> float:
    players = view.rules.players
    teams = view.rules.teams
    next_team = (view.seat + 1) % players % teams
    danger = 0.0
    if view.rules.is_wild(card):
        danger += 60
    if _fits_melds(card, view.melds[next_team]):
        danger += 30
    rest = list((hand - Counter([card])).elements())
    if any(c.rank == card.rank for c in rest):
        danger += 12
    if _fits_hand(card, [c for c in rest if c.rank != card.rank], view.rules):
        danger += 5
    if _fits_melds(card, view.melds[view.team]):
        danger += 20  # better added than thrown away
    return danger - view.rules.card_value(card) / 2


def greedy_choice(view: Table, moves: Sequence[Move], rng: random.Random) -> Move:
    """The greedy heuristic's move among ``moves`` (the legal moves of ``view``)."""
    if len(moves) == 1:
        return moves[0]
    if view.phase is Phase.DRAW:
        return _draw_phase(view, moves)
    discards = [m for m in moves if isinstance(m, Discard)]
    if len(view.hand) == 1 and discards:
        return discards[0]  # the last card: the reserve (B5.4) or the close (B6.1)
    best: Move | None = None
    best_value = 0.0
    for move in moves:
        if isinstance(move, LayMeld | AddToMeld):
            value = _meld_value(move, view) + rng.random() * 0.01
            if value > best_value:
                best, best_value = move, value
    if best is not None:
        return best
    if discards:
        hand = Counter(view.hand)
        return min(discards, key=lambda d: discard_danger(d.card, view, hand) + rng.random() * 0.01)
    return rng.choice(list(moves))
