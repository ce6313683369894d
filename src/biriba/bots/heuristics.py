"""The greedy heuristic shared by :class:`~biriba.bots.GreedyBot` and the search bot."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Protocol, runtime_checkable

from biriba.cards import CARDS, Card, Counts, cards_of, counts_of
from biriba.deal import Deal, Phase, PlayerView
from biriba.engine import engine_for
from biriba.enumeration import check_copies, melds_from_counts_unchecked
from biriba.errors import BiribaError
from biriba.limits import check_count
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
from biriba.position import size_of
from biriba.rules import RuleSet

__all__ = ["Table", "discard_danger", "greedy_choice", "pile_use", "table_of", "take_melds"]


@runtime_checkable
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


class _DealTable:
    """The heuristic's inputs read straight off a deal (for rollouts inside a search).

    The hand stays as the position's counts: the heuristic mostly needs its size or its
    counts, and the cards themselves are listed only when asked for."""

    __slots__ = (
        "_hand",
        "counts",
        "discard_pile",
        "melds",
        "phase",
        "reserve_received",
        "reserves_left",
        "rules",
        "seat",
        "size",
        "team",
    )

    def __init__(self, deal: Deal) -> None:
        position = deal.position
        seat = position.to_move
        if seat is None:
            ended = engine_for(deal.rules).ending_rule(position.closed_by is not None)
            raise BiribaError(
                f"the deal is over ({ended}): nobody is to move, and no table to read",
                rule=ended,
            )
        rules = deal.rules
        self.rules = rules
        self.seat = seat
        self.team = seat % rules.teams
        self.phase = position.phase
        self.counts = position.hands[seat]
        self.size = size_of(position.sizes, seat)
        self.discard_pile = position.pile
        self.melds = position.melds
        self.reserve_received = position.received
        self.reserves_left = len(position.reserves)
        self._hand: tuple[Card, ...] | None = None

    @property
    def hand(self) -> tuple[Card, ...]:
        """The cards in hand, sorted."""
        hand = self._hand
        if hand is None:
            hand = self._hand = cards_of(self.counts)
        return hand


def table_of(deal: Deal) -> Table:
    """The heuristic's view of the player to move in ``deal``: only what that seat sees.
    :class:`~biriba.BiribaError` once the deal is over (nobody is to move)."""
    if not isinstance(deal, Deal):
        raise TypeError(f"table_of expects a Deal, got {type(deal).__name__}")
    return _DealTable(deal)


def _check_table(view: object, name: str) -> Table:
    """``view`` if the heuristic can read it (a :class:`~biriba.PlayerView`, a
    :func:`table_of`, or anything with every attribute of :class:`Table`), else
    :class:`TypeError` naming the function ``name``. A table of another kind must also
    hold a :class:`~biriba.RuleSet` and, in its hand and discard pile together, no more
    copies of a card than the pack (B1.2: :class:`~biriba.BiribaError`): a view and a
    deal's table are so already."""
    kind = type(view)
    if kind is PlayerView or kind is _DealTable:
        return view  # type: ignore[return-value]  # (checked just above)
    if not isinstance(view, Table):
        raise TypeError(f"{name} expects a PlayerView (or table_of(deal)), got {kind.__name__}")
    rules = view.rules
    if not isinstance(rules, RuleSet):
        raise TypeError(f"{name}: the table's rules are a RuleSet, got {type(rules).__name__}")
    check_copies(
        counts_of((*view.hand, *view.discard_pile)),
        rules,
        f"the table given to {name} (its hand and discard pile)",
    )
    return view


def _hand_counts(view: Table) -> Counts:
    """The 53 counts of the hand (a deal's table holds them already)."""
    return view.counts if isinstance(view, _DealTable) else counts_of(view.hand)


def _hand_size(view: Table) -> int:
    """The number of cards in hand."""
    return view.size if isinstance(view, _DealTable) else len(view.hand)


def _fits(index: int, melds: Sequence[Meld]) -> bool:
    """Whether the card of ``index`` can be added to one of ``melds``.

    :meth:`Meld.candidate_indices <biriba.Meld.candidate_indices>` (a superset, kept on
    the meld) answers most cards before the extensions are worked out."""
    for meld in melds:
        if index in meld.candidate_indices() and meld.extensions_of_index(index):
            return True
    return False


def pile_use(view: Table, enough: int | None = None) -> int:
    """How many pile cards would go to the table this turn: natural cards the team's melds
    take, or cards of a new clean meld made with the hand. The heuristic plays each of
    those, so a take it judges useful always puts cards on the table.

    With ``enough``, the count stops once it reaches ``enough``: the answer is then at
    least ``enough`` (all a threshold needs), not the whole count.

    A pile card that fits the team's melds counts every copy of it in the pile; any other
    counts as many copies as the clean melds of hand and pile use beyond the hand's own
    copies, summed over those melds (at most its copies in the pile)."""
    view = _check_table(view, "pile_use")
    if enough is not None:
        enough = check_count(enough, "enough", 0)  # (any integer type)
    return _pile_use(view, enough)


def _pile_use(view: Table, enough: int | None) -> int:
    """:func:`pile_use` of a table known good (the heuristic's own calls)."""
    pile = view.discard_pile
    if not pile:
        return 0
    rules = view.rules
    wild = rules.wild
    mine = view.melds[view.team]
    held = _hand_counts(view)
    counts = list(held)
    copies: dict[int, int] = {}
    for card in pile:
        index = card.index
        counts[index] += 1
        copies[index] = copies.get(index, 0) + 1
    use = 0
    left: dict[int, int] = {}  # pile cards not counted yet: copies that may still count
    for index, k in copies.items():
        if not wild[index] and _fits(index, mine):
            use += k
        else:
            left[index] = k
    if not left or (enough is not None and use >= enough):
        return use
    # A clean meld holding one of those cards is a group of its rank or a sequence of its
    # suit: the enumeration needs only the naturals of those ranks and suits.
    ranks = {CARDS[i].rank for i in left}
    suits = {CARDS[i].suit for i in left}
    for index, card in enumerate(CARDS):
        if counts[index] and card.suit not in suits and (wild[index] or card.rank not in ranks):
            counts[index] = 0
    for meld in melds_from_counts_unchecked(tuple(counts), rules):
        if not meld.is_clean:
            continue
        in_meld: dict[int, int] = {}
        for card in meld.cards:
            index = card.index
            if index in left:
                in_meld[index] = in_meld.get(index, 0) + 1
        for index, n in in_meld.items():
            fresh = n - held[index]
            k = left[index]
            if fresh > 0 and k:
                taken = fresh if fresh < k else k
                left[index] = k - taken
                use += taken
        if enough is not None and use >= enough:
            return use
    return use


def take_melds(view: Table) -> bool:
    """Whether, after taking the pile, the player could legally lay a meld or add a
    natural card (B4.5 included), so that the take puts cards on the table."""
    return _take_melds(_check_table(view, "take_melds"))


def _take_melds(view: Table) -> bool:
    """:func:`take_melds` of a table known good (the heuristic's own calls)."""
    rules = view.rules
    pile = view.discard_pile
    if not pile:
        return False
    engine = engine_for(rules)
    team = view.team
    before = engine.hidden_situation(
        _hand_counts(view),
        view.melds[team],
        view.reserve_received[team],
        view.reserves_left,
        None,
    )
    moves = engine.play_moves(engine.after_take(before, pile), _hand_size(view) + len(pile))
    return any(
        isinstance(m, LayMeld) or (isinstance(m, AddToMeld) and not rules.is_wild(m.card))
        for m in moves
    )


def _worth_taking(view: Table) -> bool:
    """Whether the heuristic takes the pile: some of it goes to the table at once
    (:func:`pile_use`), at least a quarter of a pile of more than four cards, and the
    take can legally put cards on the table (:func:`take_melds`)."""
    enough = max(1, (len(view.discard_pile) + 3) // 4)
    return _pile_use(view, enough) >= enough and _take_melds(view)


def _draw_phase(view: Table, moves: Sequence[Move]) -> Move:
    """Take the pile only when some of it goes to the table at once: a take that melds
    nothing could be answered by another, and the deal would never end. After such a take
    the heuristic always lays a meld or adds a natural card (both have a positive value),
    so every take of its puts cards on the table and every deal it plays ends."""
    names = [m for m in moves if isinstance(m, NameSuit)]
    if names:  # V1: name the suit the hand holds most of
        held = Counter(c.suit for c in view.hand)
        return max(names, key=lambda m: (held[m.suit], -m.suit))
    for move in moves:
        if isinstance(move, TakeDiscard):
            if _worth_taking(view):
                return move
            break
    for move in moves:
        if isinstance(move, DrawStock):
            return move
    for move in moves:
        if isinstance(move, Pass):
            return move
    return moves[0]


def _meld_value(move: LayMeld | AddToMeld, view: Table, hand_size: int) -> float:
    """How much the heuristic likes laying or adding ``move`` (more than 0: it plays it)."""
    if type(move) is LayMeld:
        meld = move.meld
        size = len(meld.cards)
        value = 10 + 3 * size + meld.points / 10
        if not meld.is_clean and not meld.is_biriba:
            value -= 14  # keep substitutes for where they count
        if size == hand_size:
            value += 100  # empties the hand into the reserve
        return value
    assert type(move) is AddToMeld
    old = view.melds[view.team][move.index]
    card = move.card
    result = move.result or old.extensions_of_index(card.index)[0]
    value = 9 + (result.bonus - old.bonus) / 10 + (2 if len(result.cards) >= 5 else 0)
    if view.rules.wild[card.index] and card in result.substitutes:
        completes = result.is_biriba and not old.is_biriba
        value += 10 if completes else -16
    if result.is_clean:
        value += 2
    if hand_size == 1:
        value += 100
    return value


class _Dangers:
    """What discarding each card of one hand would give away (:func:`discard_danger`),
    with what the cards share worked out once: the rank counts and the cards of the hand,
    the melds of both teams."""

    __slots__ = ("_counts", "_mine", "_rules", "_theirs")

    def __init__(self, view: Table, counts: Counts) -> None:
        rules = view.rules
        self._rules = rules
        self._theirs = view.melds[(view.seat + 1) % rules.players % rules.teams]
        self._mine = view.melds[view.team]
        self._counts = counts

    def of(self, card: Card) -> float:
        """The danger of discarding ``card``, one of the hand's cards."""
        rules = self._rules
        index = card.index
        wild = rules.wild[index]
        danger = 0.0
        if wild:
            danger += 60
        if _fits(index, self._theirs):
            danger += 30
        if self._pair(card):
            danger += 12
        if wild or self._near(card):
            danger += 5
        if _fits(index, self._mine):
            danger += 20  # better added than thrown away
        return danger - rules.values[index] / 2

    def _pair(self, card: Card) -> bool:
        """Whether another card of ``card``'s rank (a joker: another joker) stays in
        hand once ``card`` leaves it."""
        counts = self._counts
        rank = card.rank
        if rank is None:
            same = counts[card.index]
        else:
            same = counts[rank - 1] + counts[rank + 12] + counts[rank + 25] + counts[rank + 38]
        return same > (1 if counts[card.index] else 0)

    def _near(self, card: Card) -> bool:
        """Whether the hand holds a card of ``card``'s suit within two ranks of it (a
        near-sequence), of another rank."""
        rank = card.rank
        if rank is None:
            return False
        counts = self._counts
        base = card.index - rank  # the suit's index less one: suit * 13 - 1
        for other in (rank - 2, rank - 1, rank + 1, rank + 2):
            if 1 <= other <= 13 and counts[base + other]:
                return True
        return False


def discard_danger(card: Card, view: Table, hand: Iterable[Card] | None = None) -> float:
    """How much discarding ``card`` would help the others, less half its value (B8.1): a
    substitute most, then a card the next team's melds take, a card of a rank the hand
    holds twice, a card next to another of its suit, a card the own melds take.

    ``hand`` is the hand the card leaves (``view.hand`` by default): its cards, or a
    ``collections.Counter`` of them."""
    if not isinstance(card, Card):
        raise TypeError(f"discard_danger expects a Card, got {type(card).__name__}")
    view = _check_table(view, "discard_danger")
    if hand is None:
        counts = _hand_counts(view)
    else:
        counts = counts_of(hand.elements() if isinstance(hand, Counter) else hand)
    return _Dangers(view, counts).of(card)


def greedy_choice(view: Table, moves: Sequence[Move], rng: random.Random) -> Move:
    """The greedy heuristic's move among ``moves`` (the legal moves of ``view``, at least
    one)."""
    # (Every step of a greedy rollout comes here: the common types are known at once.)
    view = _check_table(view, "greedy_choice")
    if type(moves) is not tuple and (isinstance(moves, str) or not isinstance(moves, Sequence)):
        raise TypeError(f"moves is a sequence of moves, got {type(moves).__name__}")
    if not moves:
        raise BiribaError("greedy_choice has no move to choose from: moves is empty")
    if type(rng) is not random.Random and not (
        callable(getattr(rng, "random", None)) and callable(getattr(rng, "choice", None))
    ):
        raise TypeError(
            f"rng must be a random.Random (or the random module), got {type(rng).__name__}"
        )
    if len(moves) == 1:
        return moves[0]
    if view.phase is Phase.DRAW:
        return _draw_phase(view, moves)
    hand_size = _hand_size(view)
    if hand_size == 1:
        for move in moves:
            if type(move) is Discard:
                return move  # the last card: the reserve (B5.4) or the close (B6.1)
    best: Move | None = None
    best_value = 0.0
    discards: list[Discard] = []
    for move in moves:
        kind = type(move)
        if kind is LayMeld or kind is AddToMeld:
            assert isinstance(move, LayMeld | AddToMeld)
            value = _meld_value(move, view, hand_size) + rng.random() * 0.01
            if value > best_value:
                best, best_value = move, value
        elif kind is Discard:
            assert isinstance(move, Discard)
            discards.append(move)
    if best is not None:
        return best
    if discards:
        of = _Dangers(view, _hand_counts(view)).of
        return min(discards, key=lambda d: of(d.card) + rng.random() * 0.01)
    return rng.choice(list(moves))
