"""The legal-move generator: an internal module of the deal engine.

One :class:`Engine` per rule set lists the legal moves of a player from what the rules
make them depend on: the hand (as card counts), the partnership's melds, whether it has
received its reserve, the packet it would receive, and the card B4.2 bars. Deals and
player views share it, so both list exactly the same moves.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import compress
from typing import Final

from biriba.cards import Card
from biriba.enumeration import meld_parts, melds_from_counts
from biriba.melds import Meld
from biriba.moves import AddToMeld, Discard, DrawStock, LayMeld, Move, Pass, TakeDiscard
from biriba.rules import PileRestriction, RuleSet

CARDS: Final = tuple(Card.from_index(i) for i in range(53))
EMPTY_COUNTS: Final = (0,) * 53
_DRAW: Final = DrawStock()
_TAKE: Final = TakeDiscard()
_PASS: Final = Pass()
_DRAW_OR_TAKE: Final[tuple[Move, ...]] = (_DRAW, _TAKE)
_DRAW_ONLY: Final[tuple[Move, ...]] = (_DRAW,)
_TAKE_OR_PASS: Final[tuple[Move, ...]] = (_TAKE, _PASS)
_PASS_ONLY: Final[tuple[Move, ...]] = (_PASS,)


def counts_of(cards: Iterable[Card]) -> tuple[int, ...]:
    """The 53 counts of ``cards``, indexed by :attr:`Card.index <biriba.Card.index>`."""
    counts = [0] * 53
    for card in cards:
        counts[card.index] += 1
    return tuple(counts)


def cards_of(counts: tuple[int, ...]) -> tuple[Card, ...]:
    """The cards of 53 counts, in the library's sort order."""
    out: list[Card] = []
    for i, n in enumerate(counts):
        if n:
            out.extend((CARDS[i],) * n)
    return tuple(out)


def has_biriba(melds: tuple[Meld, ...]) -> bool:
    """Whether a partnership's melds include a biriba (B3.7)."""
    return any(m.is_biriba for m in melds)


def _minus(counts: tuple[int, ...], cards: Iterable[Card]) -> tuple[int, ...]:
    """``counts`` less ``cards``."""
    out = list(counts)
    for card in cards:
        out[card.index] -= 1
    return tuple(out)


# A play-phase situation, as far as the legal moves of the player to move depend on it:
# the hand's counts, the partnership's melds, whether it has received its reserve, the
# packet it would receive (None once received, or with none left), and the card B4.2
# bars from the discard.
Key = tuple[tuple[int, ...], tuple[Meld, ...], bool, "tuple[Card, ...] | None", "Card | None"]


#: How many look-ahead answers the engine keeps. Small on purpose: a large cache makes
#: Python's garbage collector slow everything down. (There is no cache of whole move
#: lists: most positions of a playout are new, so it cost more than it saved; each deal
#: remembers the list of its current position.)
_CACHE_LIMIT: Final = 4096


class Engine:
    """The legal-move generator for one rule set, with its caches."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.keep = rules.keep_after_melding
        self.reserve_needs_biriba = rules.reserve_needs_biriba
        self.close_needs_biriba = rules.close_needs_biriba
        self.keep2 = max(2, rules.keep_after_melding)
        #: The value of each card index (B8.1), for scoring hands held as counts.
        self.values = (*tuple(rules.card_values[i % 13 + 1] for i in range(52)), rules.joker_value)
        self.finish_cache: dict[Key, bool] = {}

    # ------------------------------------------------------------ the last card
    def last_card_discard_ok(
        self, melds: tuple[Meld, ...], received: bool, packet: tuple[Card, ...] | None
    ) -> bool:
        """Whether discarding the last card is allowed: B5.4 reserve, B6.1 close, or V7."""
        biriba = has_biriba(melds)
        if packet is not None and (biriba or not self.reserve_needs_biriba):
            return True
        if received and (biriba or not self.close_needs_biriba):
            return True
        return self.keep <= 1

    def can_receive(self, melds: tuple[Meld, ...], packet: tuple[Card, ...] | None) -> bool:
        """Whether emptying the hand now receives the reserve (B5.2)."""
        return packet is not None and (not self.reserve_needs_biriba or has_biriba(melds))

    # ------------------------------------------------------------ melding options
    def options(self, key: Key) -> Iterator[tuple[tuple[Card, ...], tuple[Meld, ...]]]:
        """Every meld and addition of the cards in hand, before any check of what follows,
        as ``(cards leaving the hand, the team's melds after)``."""
        counts, melds, _, _, _ = key
        for meld in melds_from_counts(counts, self.rules):
            yield meld.cards, (*melds, meld)
        for i, card, result, _ in _additions(counts, melds):
            yield (card,), (*melds[:i], result, *melds[i + 1 :])

    def after_ok(
        self, key: Key, size: int, removed: tuple[Card, ...], new_melds: tuple[Meld, ...]
    ) -> bool:
        """Whether the turn can still end legally after ``removed`` leaves the hand (B4.5).

        The hand may empty only by receiving the reserve (B4.3, B5.2, B5.3).
        """
        counts, _, received, packet, pile_card = key
        left = size - len(removed)
        if left <= 0:
            if not self.can_receive(new_melds, packet):
                return False
            assert packet is not None
            return self.can_finish((counts_of(packet), new_melds, True, None, pile_card))
        if left >= self.keep2 and (
            pile_card is None or counts[pile_card.index] - removed.count(pile_card) < left
        ):
            return True
        return self.can_finish((_minus(counts, removed), new_melds, received, packet, pile_card))

    # ------------------------------------------------------------ look-ahead (B4.5)
    def can_finish(self, key: Key) -> bool:
        """Whether the player can still end the turn legally from ``key`` (B4.5)."""
        counts, melds, received, packet, pile_card = key
        size = sum(counts)
        barred = counts[pile_card.index] if pile_card is not None else 0
        if size >= self.keep2 and barred < size:
            return True
        if size == 1 and not barred and self.last_card_discard_ok(melds, received, packet):
            return True
        found = self.finish_cache.get(key)
        if found is None:
            if len(self.finish_cache) > _CACHE_LIMIT:
                self.finish_cache.clear()
            found = any(
                self.after_ok(key, size, removed, after) for removed, after in self.options(key)
            )
            self.finish_cache[key] = found
        return found

    # ------------------------------------------------------------ the draw phase
    def take_ok(
        self,
        hand: tuple[int, ...],
        size: int,
        pile: Sequence[Card],
        melds: tuple[Meld, ...],
        received: bool,
        packet: tuple[Card, ...] | None,
    ) -> bool:
        """Whether the player may take the discard pile (B4.1, B4.2, B4.5; Z4.4)."""
        if not pile:
            return False
        restriction = self.rules.pile_restriction
        if restriction is PileRestriction.NO_TAKE_WITH_ONE_CARD and len(pile) == 1 and size == 1:
            return False
        pile_card = (
            pile[0] if len(pile) == 1 and restriction is PileRestriction.NO_DISCARD_BACK else None
        )
        if (pile_card is None or hand[pile_card.index] < size) and (size + len(pile) >= self.keep2):
            return True  # a card other than the barred one can go, leaving one or more
        counts = list(hand)
        for card in pile:
            counts[card.index] += 1
        return self.can_finish((tuple(counts), melds, received, packet, pile_card))

    def draw_moves(
        self,
        hand: tuple[int, ...],
        size: int,
        pile: Sequence[Card],
        melds: tuple[Meld, ...],
        received: bool,
        packet: tuple[Card, ...] | None,
        stock_open: bool,
    ) -> tuple[Move, ...]:
        """The legal moves of the draw phase (B4.1, B4.4)."""
        take = self.take_ok(hand, size, pile, melds, received, packet)
        if stock_open:
            return _DRAW_OR_TAKE if take else _DRAW_ONLY
        return _TAKE_OR_PASS if take else _PASS_ONLY

    # ------------------------------------------------------------ legal moves
    def play_moves(self, key: Key, size: int) -> MoveList:
        """The legal moves of the play phase, ``size`` being the number of cards in hand."""
        counts, melds, received, packet, pile_card = key
        moves: list[Move] = []
        after_ok = self.after_ok
        # Cards may leave the hand without a look-ahead while at least two stay, one of
        # them not the card B4.2 bars from the discard: the turn can then always end
        # (B4.5). ``spare`` is how many may leave so; only longer melds need after_ok.
        barred = counts[pile_card.index] if pile_card is not None else 0
        keep2 = self.keep2
        spare = size - (keep2 if keep2 > barred else barred + 1)
        for part in meld_parts(counts, self.rules):
            lays = part.lay_moves()
            if part.longest <= spare:
                moves += lays
                continue
            for lay in lays:
                meld = lay.meld
                if len(meld.cards) <= spare or after_ok(key, size, meld.cards, (*melds, meld)):
                    moves.append(lay)
        for i, card, result, choice in _additions(counts, melds):
            if spare > 0 or after_ok(key, size, (card,), (*melds[:i], result, *melds[i + 1 :])):
                moves.append(_add(i, card, result if choice else None))
        if size == 1:
            last_ok = self.last_card_discard_ok(melds, received, packet)
        else:
            last_ok = size >= self.keep
        if last_ok:
            discards = compress(DISCARDS, counts)
            if pile_card is None:
                moves += discards
            else:
                barred_discard = DISCARDS[pile_card.index]
                moves += [d for d in discards if d is not barred_discard]
        return MoveList(tuple(moves))


def _additions(
    counts: tuple[int, ...], melds: tuple[Meld, ...]
) -> Iterator[tuple[int, Card, Meld, bool]]:
    """Every addition of a card in hand to one of the melds (B3.8 to B3.12), before any
    check of what follows: ``(meld index, card, resulting meld, whether the card has a
    choice of places)``."""
    for i, meld in enumerate(melds):
        for idx in meld.candidate_indices():
            if counts[idx]:
                card = CARDS[idx]
                results = meld.extensions(card)
                choice = len(results) > 1
                for result in results:
                    yield i, card, result, choice


class MoveList:
    """A tuple of legal moves, with the set of them built when first needed."""

    __slots__ = ("_set", "moves")

    def __init__(self, moves: tuple[Move, ...]) -> None:
        self.moves = moves
        self._set: frozenset[Move] | None = None

    def __contains__(self, move: Move) -> bool:
        for listed in self.moves:
            if listed is move:
                return True
        found = self._set
        if found is None:
            found = self._set = frozenset(self.moves)
        return move in found


def _lay(meld: Meld) -> LayMeld:
    """``LayMeld(meld)`` for a meld known to be valid, without the checks."""
    move = _new(LayMeld)
    _set_lay_meld(move, meld)
    return move


def _add(index: int, card: Card, result: Meld | None) -> AddToMeld:
    """``AddToMeld(index, card, result)`` for values known to be valid, without the checks."""
    move = _new(AddToMeld)
    _set_add_index(move, index)
    _set_add_card(move, card)
    _set_add_result(move, result)
    return move


# The slots' own setters, for _lay and _add: about half the cost of object.__setattr__.
_new: Final = object.__new__
_set_lay_meld: Final = LayMeld.__dict__["meld"].__set__
_set_add_index: Final = AddToMeld.__dict__["index"].__set__
_set_add_card: Final = AddToMeld.__dict__["card"].__set__
_set_add_result: Final = AddToMeld.__dict__["result"].__set__


DISCARDS: Final = tuple(Discard(c) for c in CARDS)


ENGINES: dict[RuleSet, Engine] = {}


def engine_for(rules: RuleSet) -> Engine:
    engine = ENGINES.get(rules)
    if engine is None:
        engine = ENGINES[rules] = Engine(rules)
    return engine
