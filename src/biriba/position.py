"""The position: the whole state of a deal at one moment, as one immutable value.

A :class:`Position` holds everything the rules look at: the hands (as card counts), what
is publicly known of them, the melds, the stock, the discard pile, the reserves and their
state, whose turn it is and where in the turn. It never changes: a move makes a new one
(:meth:`Engine.apply <biriba.engine.Engine.apply>`), so a :class:`~biriba.Deal` is a cursor
over positions, its undo a stack of earlier positions, and a copy shares them.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Final, NamedTuple

from biriba.cards import Card, Counts, Indices, Suit
from biriba.melds import Meld
from biriba.rules import MAX_PACK

__all__ = ["SIZE_BITS", "Phase", "Position", "packed_sizes", "resized", "size_of", "sizes_of"]


class Phase(enum.Enum):
    """Where the player to move stands in the turn (B4.1)."""

    #: The start of a turn: draw, take the pile, or (stock empty) pass.
    DRAW = "draw"
    #: After the draw: meld, add, and finally discard.
    PLAY = "play"
    #: The deal is over (B7.1).
    OVER = "over"


class Position(NamedTuple):
    """One moment of a deal. Seats are indexed by seat, teams by team.

    Built by the engine (dealing, applying a move) and by reading a position's data
    (:mod:`biriba.position_data`); everything else reads it.
    """

    #: The dealer's seat (B2.1).
    dealer: int
    #: The seat to act; once the deal is over, the seat that acted last (or closed).
    seat: int
    #: Where the seat to act stands in its turn.
    phase: Phase
    #: Each seat's hand as 53 card counts, one byte each (indexed by :attr:`Card.index
    #: <biriba.Card.index>`).
    hands: tuple[Counts, ...]
    #: Each seat's number of cards (the sums of :attr:`hands`), kept because every
    #: legal-move call reads it: one number, :data:`SIZE_BITS` bits a seat, read by
    #: :func:`size_of`.
    #: (A number rather than a tuple, which the garbage collector would visit with every
    #: position a deal keeps.)
    sizes: int
    #: By seat, the counts of the cards publicly known to be in that hand: taken with the
    #: discard pile and not melded or discarded since.
    known: tuple[Counts, ...]
    #: Each team's melds, in the order they were laid.
    melds: tuple[tuple[Meld, ...], ...]
    #: The stock, bottom to top, as card indices (``biriba.cards.cards_at`` reads
    #: them): the last is the next card drawn.
    stock: Indices
    #: The discard pile, bottom to top: the last card is the top.
    pile: tuple[Card, ...]
    #: The reserve packets not yet received, the next one to be given first (B5.1).
    reserves: tuple[tuple[Card, ...], ...]
    #: Whether each team has received its reserve, activated or not (B5.1).
    received: tuple[bool, ...]
    #: By team, the seat that received the reserve by its final discard and has not had
    #: its next turn yet (B5.4, B8.7), else ``None``.
    unactivated: tuple[int | None, ...]
    #: Passes in a row so far (B4.4).
    passes: int
    #: The card taken this turn from a one-card pile, barred from the discard (B4.2).
    pile_card: Card | None
    #: The seat that closed (B6.1) or went out (Z4.2), else ``None``.
    closed_by: int | None
    #: Z2.2: the card the first player drew on the deal's first draw, while the
    #: :class:`~biriba.Redraw` is still open (right after that draw), else ``None``.
    redraw: Card | None
    #: Z4.3: whether the deal's last turn is to be played or is being played, the stock
    #: and the mortos being gone. Once the deal is over, whether it ended that way.
    last_turn: bool
    #: V1: the bonus suit (kózi), ``None`` without kózi or while a joker up-card waits
    #: to be taken and the suit named (:class:`~biriba.NameSuit`).
    bonus_suit: Suit | None
    #: V3: whether the team to move had no meld when this turn began, so that its melds
    #: on the table were all laid this turn and count towards the entry minimum.
    opening: bool

    @classmethod
    def of(
        cls,
        *,
        dealer: int,
        seat: int,
        phase: Phase,
        hands: tuple[Counts, ...],
        known: tuple[Counts, ...],
        melds: tuple[tuple[Meld, ...], ...],
        stock: Indices,
        pile: tuple[Card, ...],
        reserves: tuple[tuple[Card, ...], ...],
        received: tuple[bool, ...],
        unactivated: tuple[int | None, ...],
        passes: int,
        pile_card: Card | None,
        closed_by: int | None,
        redraw: Card | None,
        last_turn: bool,
        bonus_suit: Suit | None,
        opening: bool,
    ) -> Position:
        """A position from its fields by name, :attr:`sizes` worked out from
        :attr:`hands`: how reading a position's data and sampling a view build one. (A
        move makes the next position from the fields that change, sizes included, in
        :meth:`Engine.apply <biriba.engine.Engine.apply>`; dealing makes the first from
        its fields in order, the sizes counted from the cards dealt, in
        :meth:`Engine.first_position <biriba.engine.Engine.first_position>`.)"""
        return cls(
            dealer,
            seat,
            phase,
            hands,
            sizes_of(hands),
            known,
            melds,
            stock,
            pile,
            reserves,
            received,
            unactivated,
            passes,
            pile_card,
            closed_by,
            redraw,
            last_turn,
            bonus_suit,
            opening,
        )

    @property
    def to_move(self) -> int | None:
        """The seat to act, ``None`` once the deal is over."""
        return None if self.phase is Phase.OVER else self.seat


#: The bits of one seat's number of cards in :attr:`Position.sizes`: enough for every card
#: of the largest pack a rule set may ask for (``biriba.rules.MAX_PACK``, 896 cards: ten
#: bits), so that six seats' sizes still fit in one machine word.
SIZE_BITS: Final = MAX_PACK.bit_length()
_SIZE_MASK: Final = (1 << SIZE_BITS) - 1


def size_of(sizes: int, seat: int) -> int:
    """``seat``'s number of cards, read from a position's :attr:`~Position.sizes`."""
    return (sizes >> (seat * SIZE_BITS)) & _SIZE_MASK


def resized(sizes: int, seat: int, change: int) -> int:
    """A position's :attr:`~Position.sizes` with ``seat``'s number of cards changed by
    ``change`` (negative for cards leaving the hand)."""
    return sizes + (change << (seat * SIZE_BITS))


def sizes_of(hands: tuple[Counts, ...]) -> int:
    """The :attr:`~Position.sizes` of ``hands``, each hand's 53 card counts."""
    return packed_sizes([sum(hand) for hand in hands])


def packed_sizes(numbers: Iterable[int]) -> int:
    """The :attr:`~Position.sizes` of hands of ``numbers`` cards, seat by seat."""
    sizes = 0
    for seat, number in enumerate(numbers):
        sizes = resized(sizes, seat, number)
    return sizes
