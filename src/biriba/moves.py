"""Moves: the small immutable steps a turn is made of (B4.1).

A turn is a draw (:class:`DrawStock`) or a take of the whole pile (:class:`TakeDiscard`),
or, with the stock empty, a :class:`Pass`; then any number of :class:`LayMeld` and
:class:`AddToMeld`; then a :class:`Discard`. Two moves belong to some rule sets only:
:class:`Redraw` (Z2.2, Buraco's first turn) and :class:`NameSuit` (V1, kózi after a joker
up-card). Every move has a text form that
:meth:`Move.parse <biriba.Move.parse>` reads back without needing a position::

    >>> str(Move.parse("discard 7h"))
    'discard 7H'
    >>> Move.parse("add 0 5H -> 4H 5H 6H 7H JK").result
    Meld.parse('4H 5H 6H 7H JK')
    >>> Move.parse("meld 3H 4H JK") == LayMeld(Meld.parse("3H 4H JK"))
    True

Two moves are equal when their texts are: a meld laid or made by an addition is compared
by its cards in table order, whatever rule set it was read under, so that the text of a
move of any rule set reads back to an equal move.
"""

from __future__ import annotations

import re
from typing import ClassVar, Final

import attrs

from biriba.cards import Card, Suit, ascii_lower
from biriba.errors import InvalidMeldError, NotationError
from biriba.limits import check_text, excerpt, is_int, whole_number
from biriba.melds import Meld
from biriba.rules import BIRIBA, MAX_DECKS, MAX_JOKERS, RuleSet, check_rules

#: The highest meld index an :class:`AddToMeld` may name: its text writes the index in
#: four digits at most, so that every move's text reads back (a team has a few dozen
#: melds at most).
MAX_MELD_INDEX: Final = 9_999

#: The longest first word a refusal of an unknown move names apart from the text's
#: excerpt (``'fold 7H' is not a move: it starts with 'fold'``).
_NAMED_WORD: Final = 20

__all__ = [
    "MOVE_CLASSES",
    "AddToMeld",
    "Discard",
    "DrawStock",
    "LayMeld",
    "Move",
    "NameSuit",
    "Pass",
    "Redraw",
    "TakeDiscard",
    "as_library_move",
]


@attrs.frozen(repr=False)
class Move:
    """Base class of every move; build one from text with :meth:`Move.parse <biriba.Move.parse>`."""

    keyword: ClassVar[str] = ""

    @staticmethod
    def parse(text: str, rules: RuleSet | None = None) -> Move:
        """Read a move: ``draw``, ``take``, ``pass``, ``discard 7H``, ``meld 3H 4H JK``,
        ``add 0 5H``, ``add 0 5H -> 4H 5H 6H 7H JK``, ``redraw`` or ``kozi H``.

        The melds of ``meld`` and of the result after ``->`` are read under ``rules``.
        Without ``rules``, under :data:`~biriba.BIRIBA`, or, for cards that only some
        rule set makes a meld of (two substitutes, Z3.4; substitutes alone, Z3.7; a
        group of twos where twos are not wild), under the most lenient reading that
        accepts them: the text of any legal move of any rule set reads back to an
        equal move (moves compare by their texts). ``deal.play(text)`` reads under the
        deal's own rules.

        Raises :class:`~biriba.NotationError` on text that is not a move, and
        :class:`~biriba.InvalidMeldError` when the cards of ``meld`` or of the result
        after ``->`` do not form a meld (without ``rules``, the reason Biriba gives).
        """
        if not isinstance(text, str):
            raise TypeError(f"Move.parse expects a str, got {type(text).__name__}")
        if rules is not None:
            check_rules(rules)
        check_text(text, "move")
        words = text.replace("->", " -> ").split()
        if not words:
            raise NotationError(f"{excerpt(text)} is not a move: write {_HEADS}")
        head = ascii_lower(words[0])
        rest = words[1:]
        if head in _BARE:
            if rest:
                raise NotationError(
                    f"{excerpt(text)} is not a move: {head!r} takes nothing after it"
                )
            return _BARE[head]
        if head == "discard":
            if len(rest) != 1:
                raise NotationError(f"{excerpt(text)} is not a move: write 'discard' and one card")
            return Discard(Card.parse(rest[0]))
        if head == "meld":
            if not rest:
                raise NotationError(f"{excerpt(text)} is not a move: write 'meld' and its cards")
            return LayMeld(_read_meld(" ".join(rest), rules))
        if head == "add":
            return _parse_add(text, rest, rules)
        if head in ("kozi", "kózi"):
            if len(rest) != 1:
                raise NotationError(f"{excerpt(text)} is not a move: write 'kozi' and one suit")
            return NameSuit(Suit.parse(rest[0]))
        # The first word is named when it is short and not the whole text (a long one is
        # in the text's excerpt already: quoting it again would quote the input twice).
        first = words[0]
        named = len(words) > 1 and len(first) <= _NAMED_WORD
        starts = f"it starts with {excerpt(first)}; " if named else ""
        raise NotationError(f"{excerpt(text)} is not a move: {starts}write {_HEADS}")

    def __attrs_post_init__(self) -> None:
        refuse_base_move(self)

    def __repr__(self) -> str:
        if type(self).__str__ is object.__str__:
            # A subclass of Move alone, none of the library's moves: it has no text, and
            # object's str() would come back here.
            return f"<{type(self).__name__}: no move of the library>"
        return f"Move.parse({str(self)!r})"


@attrs.frozen(repr=False)
class DrawStock(Move):
    """Draw the top card of the stock (B4.1). Text: ``draw``."""

    keyword: ClassVar[str] = "draw"

    def __str__(self) -> str:
        return "draw"


@attrs.frozen(repr=False)
class TakeDiscard(Move):
    """Take the whole discard pile into the hand (B4.1, B4.2). Text: ``take``."""

    keyword: ClassVar[str] = "take"

    def __str__(self) -> str:
        return "take"


@attrs.frozen(repr=False)
class Pass(Move):
    """Pass, with the stock empty: no meld, no discard (B4.4). Text: ``pass``."""

    keyword: ClassVar[str] = "pass"

    def __str__(self) -> str:
        return "pass"


@attrs.frozen(repr=False)
class Redraw(Move):
    """Buraco's first turn only (Z2.2): put the card just drawn face up on the discard
    pile and draw the next card of the stock. Text: ``redraw``."""

    keyword: ClassVar[str] = "redraw"

    def __str__(self) -> str:
        return "redraw"


def _check_suit(instance: object, attribute: attrs.Attribute[Suit], value: Suit) -> None:
    if not isinstance(value, Suit):
        raise TypeError(f"{attribute.name} must be a Suit, got {type(value).__name__}")


@attrs.frozen(repr=False)
class NameSuit(Move):
    """Kózi (V1): the first player takes the joker up-card into the hand and names the
    bonus suit, before drawing. Text: ``kozi H``."""

    keyword: ClassVar[str] = "kozi"
    #: The suit named.
    suit: Suit = attrs.field(validator=_check_suit)

    def __str__(self) -> str:
        return f"kozi {self.suit.letter}"


def _check_meld(instance: object, attribute: attrs.Attribute[Meld], value: Meld) -> None:
    if not isinstance(value, Meld):
        raise TypeError(f"{attribute.name} must be a Meld, got {type(value).__name__}")


def _check_card(instance: object, attribute: attrs.Attribute[Card], value: Card) -> None:
    if not isinstance(value, Card):
        raise TypeError(f"{attribute.name} must be a Card, got {type(value).__name__}")


def _plain_int(value: int) -> int:
    """A whole number of any integer type but ``bool`` (an ``IntEnum`` member such as
    ``Suit.HEARTS``, NumPy's integers) as a plain ``int``, as seats and teams are read
    (:func:`~biriba.limits.whole_number`), so that the move's text names the number and
    reads back; anything else as it is, for the validator to refuse (a ``bool``
    included)."""
    if type(value) is int or isinstance(value, bool):
        return value
    try:
        return whole_number(value, "index")
    except TypeError:
        return value


def _check_index(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if not is_int(value):
        raise TypeError(f"{attribute.name} must be an int, got {type(value).__name__}")
    if not 0 <= value <= MAX_MELD_INDEX:
        raise NotationError(
            f"a meld index is from 0 to {MAX_MELD_INDEX} (its text has at most "
            f"{len(str(MAX_MELD_INDEX))} digits), "
            f"got {excerpt(value)}"
        )


def _check_result(instance: object, attribute: attrs.Attribute[Meld | None], value: object) -> None:
    if value is not None and not isinstance(value, Meld):
        raise TypeError(f"result must be a Meld or None, got {type(value).__name__}")


@attrs.frozen(repr=False, eq=False)
class LayMeld(Move):
    """Lay a new meld from the hand (B3.1, B4.1). Text: ``meld 3H 4H JK``.

    Equal to another when their texts are: the melds' cards in table order, whatever
    rule sets the melds were read under."""

    keyword: ClassVar[str] = "meld"
    #: The meld laid.
    meld: Meld = attrs.field(validator=_check_meld)

    def __str__(self) -> str:
        return f"meld {self.meld}"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LayMeld):
            return NotImplemented
        return self.meld.cards == other.meld.cards

    def __hash__(self) -> int:
        return hash(self.meld)  # a meld's hash is its cards'


@attrs.frozen(repr=False, eq=False)
class AddToMeld(Move):
    """Add one card to one of the partnership's melds (B3.8, B3.12).

    ``index`` is the meld's place in ``deal.melds(team)``. Where the card has a choice of
    places (B3.9 to B3.12), ``result`` is the meld it makes; otherwise it is ``None``.
    Text: ``add 0 5H`` or ``add 0 5H -> 4H 5H 6H 7H JK``. Equal to another when their
    texts are (the results compared by their cards in table order).
    """

    keyword: ClassVar[str] = "add"
    #: The meld's index in ``deal.melds(team)``.
    index: int = attrs.field(converter=_plain_int, validator=_check_index)
    #: The card added.
    card: Card = attrs.field(validator=_check_card)
    #: The resulting meld where the card has a choice, else ``None``.
    result: Meld | None = attrs.field(default=None, validator=_check_result)

    def __str__(self) -> str:
        if self.result is None:
            return f"add {self.index} {self.card}"
        return f"add {self.index} {self.card} -> {self.result}"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AddToMeld):
            return NotImplemented
        if self.index != other.index or self.card != other.card:
            return False
        mine, theirs = self.result, other.result
        if mine is None or theirs is None:
            return mine is theirs
        return mine.cards == theirs.cards

    def __hash__(self) -> int:
        return hash((self.index, self.card, self.result))  # a meld's hash is its cards'


@attrs.frozen(repr=False)
class Discard(Move):
    """Discard one card face up, ending the turn (B4.1). Text: ``discard 7H``."""

    keyword: ClassVar[str] = "discard"
    #: The card discarded.
    card: Card = attrs.field(validator=_check_card)

    def __str__(self) -> str:
        return f"discard {self.card}"


#: The move classes of the library, the ones the engine tells moves apart by.
MOVE_CLASSES: Final = (Discard, DrawStock, LayMeld, AddToMeld, TakeDiscard, Pass, Redraw, NameSuit)


def refuse_base_move(move: Move) -> None:
    """Raise :class:`TypeError` if ``move`` is an instance of :class:`Move` itself, the
    base class, or of a subclass of it that is none of the library's move classes
    (:data:`MOVE_CLASSES`) nor derives from one: no move (its text is undefined)."""
    if not isinstance(move, MOVE_CLASSES):
        what = "Move is" if type(move) is Move else f"{type(move).__name__} derives from"
        raise TypeError(
            f"{what} the base class of the moves, no move: build one with Move.parse or a "
            "move class (DrawStock, TakeDiscard, Pass, Discard, LayMeld, AddToMeld, Redraw, "
            "NameSuit), or derive from one of those"
        )


_BARE: dict[str, Move] = {
    "draw": DrawStock(),
    "take": TakeDiscard(),
    "pass": Pass(),
    "redraw": Redraw(),
}
_HEADS: Final = "draw, take, pass, discard, meld, add, redraw or kozi"
#: A meld's index in a move's text: ASCII digits only (``str.isdigit`` also accepts ``²``),
#: four at most (:data:`MAX_MELD_INDEX`).
_INDEX: Final = re.compile(rf"[0-9]{{1,{len(str(MAX_MELD_INDEX))}}}")


def _parse_add(text: str, rest: list[str], rules: RuleSet | None) -> AddToMeld:
    result: Meld | None = None
    if "->" in rest:
        cut = rest.index("->")
        after = rest[cut + 1 :]
        rest = rest[:cut]
        if not after:
            raise NotationError(
                f"{excerpt(text)} is not a move: write the resulting meld after '->'"
            )
        result = _read_meld(" ".join(after), rules)
    if len(rest) != 2 or not _INDEX.fullmatch(rest[0]):
        raise NotationError(
            f"{excerpt(text)} is not a move: write 'add', the meld's index and one card, "
            f"as in 'add 0 5H' or 'add 0 5H -> 4H 5H 6H 7H JK'"
        )
    return AddToMeld(int(rest[0]), Card.parse(rest[1]), result)


#: The readings :meth:`Move.parse` tries, in order, for a meld given without a rule set
#: that Biriba refuses: the most lenient rule set with wild twos (every number of
#: substitutes, melds of substitutes only, the largest pack), then the same with natural
#: twos (a group of twos). Every meld some rule set accepts is a meld under one of them.
_LENIENT: Final = BIRIBA.evolve(
    name="any-meld",
    decks=MAX_DECKS,
    jokers=MAX_JOKERS,
    max_substitutes=None,
    wild_melds=True,
)
_READINGS: Final = (_LENIENT, _LENIENT.evolve(name="any-meld-natural-twos", twos_wild=False))


def _read_meld(text: str, rules: RuleSet | None) -> Meld:
    """The meld ``text`` writes, read under ``rules``, or, without, as
    :meth:`Move.parse` says: under Biriba, else under the first of :data:`_READINGS`
    that reads it (where both do, they lay its cards in the same order); Biriba's
    refusal if none does."""
    if rules is not None:
        return Meld.parse(text, rules)
    try:
        return Meld.parse(text, BIRIBA)
    except InvalidMeldError as error:
        refused = error
    for reading in _READINGS:
        try:
            return Meld.parse(text, reading)
        except InvalidMeldError:
            continue
    raise refused


def as_library_move(move: object) -> Move:
    """``move``, an instance of a subclass of one of the library's move classes, as the
    move of that class itself with the same fields (the engine tells moves apart by
    their exact class; a move of the class itself comes back as an equal copy). Raises
    :class:`TypeError` for anything else."""
    for cls in MOVE_CLASSES:
        if isinstance(move, cls):
            return cls(**{field.name: getattr(move, field.name) for field in attrs.fields(cls)})
    raise TypeError(
        f"a move is an instance of one of the library's move classes (or of a subclass of "
        f"one), got {type(move).__name__}"
    )
