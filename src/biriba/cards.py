"""Cards: suits, ranks, the interned :class:`Card` values, their notation and the pack.

A card is written rank then suit: ``A 2 3 4 5 6 7 8 9 T J Q K`` and ``C D H S``, so
``7H``, ``TH``, ``AS``; a joker is ``JK`` (B1.2, B1.3). There is exactly one :class:`Card`
object per distinct card: the two 7♥ of the pack are the same object, so equality,
hashing and copying are as cheap as they can be.
"""

from __future__ import annotations

import enum
import string
from collections.abc import Iterable
from typing import Final, Self, SupportsIndex

from biriba.display import picture
from biriba.errors import BiribaError, NotationError
from biriba.limits import MAX_CARDS_TEXT, check_text, excerpt, whole_number
from biriba.native import is_compiled

__all__ = [
    "CARDS",
    "DEFAULT_CARD_VALUES",
    "DEFAULT_JOKER_VALUE",
    "DISTINCT_CARDS",
    "EMPTY_COUNTS",
    "JOKER",
    "JOKER_INDEX",
    "Card",
    "Counts",
    "Indices",
    "Rank",
    "Suit",
    "cards_at",
    "cards_of",
    "counts_of",
    "format_cards",
    "indices_of",
    "parse_cards",
]


#: ASCII's letters to capitals, and to small letters, and no other character: the
#: notation's letters are ASCII's, and ``str.upper`` would also turn U+017F (a long s)
#: into ``S``, or ``str.lower`` U+212A (the Kelvin sign) into ``k``.
_TO_CAPITALS: Final = str.maketrans(string.ascii_lowercase, string.ascii_uppercase)
_TO_SMALL: Final = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def ascii_upper(text: str) -> str:
    """``text`` with ASCII's small letters as capitals, every other character as it is."""
    return text.translate(_TO_CAPITALS)


def ascii_lower(text: str) -> str:
    """``text`` with ASCII's capitals as small letters, every other character as it is."""
    return text.translate(_TO_SMALL)


class Suit(enum.IntEnum):
    """The four suits, in the library's sort order C D H S."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """The one-letter notation of the suit: ``C``, ``D``, ``H`` or ``S``."""
        return "CDHS"[self.value]

    @property
    def symbol(self) -> str:
        """The suit's symbol: ``♣``, ``♦``, ``♥`` or ``♠``."""
        return "♣♦♥♠"[self.value]

    def __str__(self) -> str:
        """The suit's letter, as in the notation: ``str(Suit.HEARTS)`` is ``H`` (the
        number is ``int(suit)``)."""
        return "CDHS"[self.value]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit: ``C``, ``D``, ``H`` or ``S`` (any case) or its symbol, black or
        white (``♥`` or ``♡``), as :meth:`Card.parse` reads a card's suit.

        Raises :class:`NotationError` on anything else.
        """
        if not isinstance(text, str):
            raise TypeError(f"Suit.parse expects a str, got {type(text).__name__}")
        found = _SUIT_WORDS.get(ascii_upper(text.strip()))
        if found is not None:
            return cls(found)
        raise NotationError(f"{text[:20]!r} is not a suit: write C, D, H or S (or ♣ ♦ ♥ ♠)")


class Rank(enum.IntEnum):
    """The thirteen ranks, ace low in value order (an ace may still stand high, B3.2)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def letter(self) -> str:
        """The one-character notation of the rank: ``A 2 … 9 T J Q K``."""
        return _RANK_LETTERS[self.value]

    def __str__(self) -> str:
        """The rank's character, as in the notation: ``str(Rank.TEN)`` is ``T`` (the
        number is ``int(rank)``)."""
        return _RANK_LETTERS[self.value]


_RANK_LETTERS: Final = " A23456789TJQK"

#: The card values of B8.1 (Z1.3), indexed by rank (1 = ace .. 13 = king; index 0
#: unused): ace 15, two 10, three to seven 5, eight to king 10. The presets' values and
#: :attr:`Card.points`; a rule set may value cards otherwise
#: (:meth:`RuleSet.card_value <biriba.RuleSet.card_value>`), and the library reads values
#: from the rule set.
DEFAULT_CARD_VALUES: Final = (0, 15, 10, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10)
#: The joker's value by B8.1.
DEFAULT_JOKER_VALUE: Final = 20

#: The index of the joker in per-card count arrays: naturals are 0..51.
JOKER_INDEX: Final = 52
#: How many distinct cards there are (52 naturals and the joker).
DISTINCT_CARDS: Final = 53


class Card:
    """One playing card, compared by value (B1.2).

    Build one with ``Card(Rank.SEVEN, Suit.HEARTS)``, ``Card.joker()`` or
    :meth:`Card.parse`. There is one object per distinct card::

        >>> Card.parse("7♥") is Card(Rank.SEVEN, Suit.HEARTS)
        True
        >>> str(Card.parse("10h")), str(Card.parse("*"))
        ('TH', 'JK')

    A joker has neither rank nor suit.
    """

    __slots__ = {
        "_points": None,
        "_str": None,
        "index": (
            "A small integer naming the card: ``suit * 13 + rank - 1``, 52 for the joker. "
            "It is also the library's sort order: clubs, diamonds, hearts, spades, ace to "
            "king within a suit, then the joker."
        ),
        "rank": "The card's :class:`Rank`, ``None`` for the joker.",
        "suit": "The card's :class:`Suit`, ``None`` for the joker.",
    }

    rank: Rank | None
    suit: Suit | None
    index: int
    _points: int
    _str: str

    def __new__(cls, rank: Rank | None, suit: Suit | None) -> Self:
        """Return the one :class:`Card` for ``rank`` and ``suit`` (both ``None``: the joker)."""
        if len(_MADE) < DISTINCT_CARDS:
            # Only while this module makes the 53 cards, in index order (below); made here
            # because a compiled build can create a card nowhere else.
            card = object.__new__(cls)
            object.__setattr__(card, "rank", rank)
            object.__setattr__(card, "suit", suit)
            object.__setattr__(card, "index", len(_MADE))
            if rank is None or suit is None:
                object.__setattr__(card, "_points", DEFAULT_JOKER_VALUE)
                object.__setattr__(card, "_str", "JK")
            else:
                object.__setattr__(card, "_points", DEFAULT_CARD_VALUES[rank])
                object.__setattr__(card, "_str", rank.letter + suit.letter)
            _MADE.append(card)
            return card
        if rank is None and suit is None:
            return _INTERNED[JOKER_INDEX]  # type: ignore[return-value]
        if not isinstance(rank, Rank) or not isinstance(suit, Suit):
            raise TypeError(
                f"Card needs a Rank and a Suit (or None, None for a joker), "
                f"got {excerpt(rank)} and {excerpt(suit)}"
            )
        return _INTERNED[suit * 13 + rank - 1]  # type: ignore[return-value]

    @classmethod
    def joker(cls) -> Card:
        """Return the joker."""
        return _INTERNED[JOKER_INDEX]

    @classmethod
    def from_index(cls, index: SupportsIndex) -> Card:
        """Return the card with the given :attr:`index` (0..52): an ``int`` or any integer
        type, but not a ``bool``."""
        number = whole_number(index, "a card index")
        if not 0 <= number < DISTINCT_CARDS:
            raise NotationError(f"card index {excerpt(number)} is out of range 0..52")
        return _INTERNED[number]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card: ``7H``, ``th``, ``10H``, ``7♥``, ``10♠``, ``JK`` or ``*``.

        Raises :class:`NotationError` on anything else.
        """
        if not isinstance(text, str):
            raise TypeError(f"Card.parse expects a str, got {type(text).__name__}")
        card = _PARSE_TABLE.get(ascii_upper(text.strip())) if len(text) <= _LONGEST_CARD else None
        if card is None:
            raise NotationError(
                f"{excerpt(text)} is not a card: write rank (A 2-9 T J Q K, or 10) then suit "
                f"(C D H S or ♣ ♦ ♥ ♠), or JK / * for a joker"
            )
        return card

    @property
    def is_joker(self) -> bool:
        """Whether this card is a joker."""
        return self.index == JOKER_INDEX

    @property
    def points(self) -> int:
        """The card's default value by B8.1: joker 20, ace 15, two 10, eight to king 10,
        else 5. A rule set may value cards otherwise: the library itself always asks
        :meth:`RuleSet.card_value <biriba.RuleSet.card_value>`."""
        return self._points

    def __str__(self) -> str:
        return self._str

    def __repr__(self) -> str:
        return f"Card.parse({self._str!r})"

    def _repr_svg_(self) -> str | None:
        """The picture a notebook shows (:mod:`biriba.svg`)."""
        return picture(self)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Card is immutable")

    # Equality and hashing are the identity's: there is one object per distinct card
    # (pickling and copying keep it so), which makes equality as fast as Python allows.
    # The hash is written out because a compiled Card would otherwise have none.

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self.index < other.index
        return NotImplemented

    def __le__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self.index <= other.index
        return NotImplemented

    def __gt__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self.index > other.index
        return NotImplemented

    def __ge__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self.index >= other.index
        return NotImplemented

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self.index,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self


#: The cards as they are made, once each, in index order.
_MADE: Final[list[Card]] = []


def _make_cards() -> tuple[Card, ...]:
    """Make the 53 cards, in index order (:meth:`Card.__new__` makes them while fewer exist)."""
    for suit in Suit:
        for rank in Rank:
            Card(rank, suit)
    Card(None, None)
    return tuple(_MADE)


_INTERNED: Final = _make_cards()

if not is_compiled(_make_cards):
    # The pure build hashes a card by its identity, in C: quicker than Card.__hash__, which
    # the compiled build needs (a compiled Card would have no hash).
    Card.__hash__ = object.__hash__  # type: ignore[method-assign]

#: The joker.
JOKER: Final = _INTERNED[JOKER_INDEX]
#: The 53 distinct cards, by :attr:`Card.index`.
CARDS: Final = _INTERNED

#: A multiset of cards as 53 counts indexed by :attr:`Card.index`, one byte a card (how
#: the engine holds hands: a pack holds at most 16 copies of a card, and bytes are no
#: container that Python's garbage collector would count or visit, as a tuple of ints is).
Counts = bytes
#: The counts of no card.
EMPTY_COUNTS: Final[Counts] = bytes(DISTINCT_CARDS)


def counts_of(cards: Iterable[Card]) -> Counts:
    """The 53 counts of ``cards``, indexed by :attr:`Card.index`."""
    counts = [0] * DISTINCT_CARDS
    for card in cards:
        counts[card.index] += 1
    try:
        return bytes(counts)
    except ValueError:  # a count past 255 (a hand built by hand): no pack holds that many
        index = max(range(DISTINCT_CARDS), key=counts.__getitem__)
        raise BiribaError(
            f"B1.2: {counts[index]:,} copies of {_INTERNED[index]}, more than any pack holds",
            rule="B1.2",
        ) from None


#: Cards in an order of their own (a stock, bottom to top) as their :attr:`Card.index`, one
#: byte a card: bytes, which the garbage collector neither counts nor visits, where a
#: tuple of cards would be both for every position a deal keeps.
Indices = bytes


def indices_of(cards: Iterable[Card]) -> Indices:
    """The :attr:`Card.index` of each of ``cards``, in their order."""
    return bytes([card.index for card in cards])


def cards_at(indices: Indices) -> tuple[Card, ...]:
    """The cards of ``indices`` (:func:`indices_of`), in their order."""
    return tuple([_INTERNED[i] for i in indices])


def cards_of(counts: Counts) -> tuple[Card, ...]:
    """The cards of 53 counts, in the library's sort order."""
    out: list[Card] = []
    for i, n in enumerate(counts):
        if n:
            out.extend((_INTERNED[i],) * n)
    return tuple(out)


#: How a suit may be written, with its number: its letter, its symbol, or the symbol's
#: white form (``♡``), as :meth:`Suit.parse` and :meth:`Card.parse` both read it.
_SUIT_WORDS: Final = {
    "C": 0, "D": 1, "H": 2, "S": 3, "♣": 0, "♦": 1, "♥": 2, "♠": 3, "♧": 0, "♢": 1, "♡": 2, "♤": 3
}  # fmt: skip


def _build_parse_table() -> dict[str, Card]:
    table: dict[str, Card] = {"JK": JOKER, "*": JOKER}
    for card in _INTERNED[:JOKER_INDEX]:
        assert card.rank is not None and card.suit is not None
        rank_forms = [card.rank.letter]
        if card.rank is Rank.TEN:
            rank_forms.append("10")
        suit_forms = [s for s, v in _SUIT_WORDS.items() if v == card.suit]
        for r in rank_forms:
            for s in suit_forms:
                table[r + s] = card
    return table


_PARSE_TABLE: Final = _build_parse_table()
#: The longest text read as one card, white space around it included.
_LONGEST_CARD: Final = 16


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read cards separated by white space or commas: ``parse_cards("7H 8H JK")``.

    Raises :class:`NotationError` naming the first word that is not a card.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_cards expects a str, got {type(text).__name__}")
    check_text(text, "list of cards", MAX_CARDS_TEXT)
    return tuple(Card.parse(word) for word in text.replace(",", " ").split())


def format_cards(cards: Iterable[Card]) -> str:
    """Write cards in canonical notation, separated by single spaces."""
    out = []
    for card in cards:
        if not isinstance(card, Card):
            raise TypeError(f"format_cards expects cards, got {type(card).__name__}")
        out.append(card._str)
    return " ".join(out)
