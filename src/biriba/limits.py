"""The size limits on input, checked before any work, and the short excerpt of an input
that an error message quotes.

A program that checks moves sent from elsewhere must not let one request cost it seconds
or megabytes. So every text the library reads is measured first, and refused at once
when it is larger than any valid input could be:

* a card, a meld or a move as text: at most :data:`MAX_TEXT` characters (a 13-card meld
  with its arrow is about 60); a list of cards as text: at most
  :data:`MAX_CARDS_TEXT` (:data:`MAX_CARDS` cards, so that every list a position may
  hold, the largest pack included, reads back);
* a position, a match or a record as JSON text: at most :data:`MAX_JSON` characters,
  with lists and objects nested at most :data:`MAX_DEPTH` deep (a record needs 6);
* a list of cards in a position: at most :data:`MAX_CARDS` (more than any pack);
* a record's deal: at most :data:`MAX_MOVES` moves;
* the melds of one part of a hand, as the legal moves list them: at most
  :data:`MAX_LISTED_MELDS` (a rule set of many decks or of many substitutes in a meld
  makes millions of a large hand); and the melds the look-ahead of one list of moves
  lists, and the states it meets: at most :data:`MAX_SEARCH_MELDS` and
  :data:`MAX_SEARCH_STATES` (an entry minimum's search, V3);
* a match's totals and a score's parts, in a match's data or a record: at most
  :data:`MAX_POINTS` either way (:func:`is_points`).

An error message quotes at most :data:`EXCERPT` characters of the input
(:func:`excerpt`)::

    >>> excerpt("7H " * 1000)
    "'7H 7H 7H 7H ... 7H 7H 7...' (3000 characters)"
    >>> excerpt(10**5000)
    'an integer of 5001 digits'
"""

from __future__ import annotations

import json
import math
import numbers
import operator
import reprlib
from typing import Any, Final, TypeGuard

from biriba.errors import BiribaError, NotationError

__all__ = [
    "EXCERPT",
    "MAX_CARDS",
    "MAX_CARDS_TEXT",
    "MAX_DEALS",
    "MAX_DEPTH",
    "MAX_JSON",
    "MAX_LISTED_MELDS",
    "MAX_MOVES",
    "MAX_POINTS",
    "MAX_SEARCH_MELDS",
    "MAX_SEARCH_STATES",
    "MAX_SEED_DIGITS",
    "MAX_TEXT",
    "check_count",
    "check_real",
    "check_seed",
    "check_text",
    "excerpt",
    "is_int",
    "is_points",
    "is_text",
    "parse_json",
    "reason_of",
    "too_deep",
    "type_name",
    "whole_number",
]

#: The longest card, cards, meld or move text read, in characters.
MAX_TEXT: Final = 1_000
#: The longest position, match or record read as JSON text, in characters.
MAX_JSON: Final = 10_000_000
#: The deepest nesting of brackets in such JSON text.
MAX_DEPTH: Final = 32
#: The most decimal digits of an int seed: a seed is written out in records and in the
#: seeds of a match's deals (``f"{seed}/{i}"``), and Python writes no int of more than
#: 4,300 digits.
MAX_SEED_DIGITS: Final = 1_000
#: The most deals a match read as data may have played, and the most games one
#: simulation plays: far beyond any real match or run.
MAX_DEALS: Final = 1_000_000_000
#: The most cards a list of cards in a position may hold.
MAX_CARDS: Final = 5_000
#: The longest list of cards read as text (``parse_cards``), in characters: room for
#: :data:`MAX_CARDS` cards as ``format_cards`` writes them, two characters and a space
#: each (the largest pack a rule set may hold, 896 cards, takes 2,687).
MAX_CARDS_TEXT: Final = 3 * MAX_CARDS
#: The most moves one deal of a record may hold.
MAX_MOVES: Final = 100_000
#: The most melds of one part of a hand the meld enumerator lists (one rank's groups, the
#: sequences of two substitutes or more, the melds of substitutes only), and the most
#: choices of substitutes it works out for one size. Under a rule set of many decks,
#: jokers or substitutes in a meld, a large hand lays millions: a hand of 50 cards under
#: ``max_substitutes=6`` gave 4.5 million legal moves, 1.5 GB and 18 seconds, one of
#: 838 cards of 16 decks 2.3 GB and 25 seconds. Past this many, listing the moves raises
#: a :class:`~biriba.BiribaError` (an :class:`~biriba.InvalidPositionError` when the
#: position is read as data) instead. A rank held many times in more than three decks
#: has its groups counted before any is made, and refused at once (64 aces of 16 decks:
#: 0.2 seconds, where listing them took 2). A whole pack in one hand lays 135,227 melds
#: in all under ``buraco``, 112,988 of them sequences of two substitutes or more.
MAX_LISTED_MELDS: Final = 300_000
#: The most melds one search of the look-ahead lists, over all the hands it meets (the
#: entry minimum's search, V3, and B4.5's, which seldom lists any; an opening turn's
#: search counts the melds it follows, those holding the card it decides). One search
#: is the
#: list of an opening turn's moves, or the check of one move (``play``, ``is_legal``),
#: counted apart for each thread; the answers the engine keeps from earlier searches
#: are not counted again, so a position near the bound may be refused from an empty
#: cache and listed after searches that met its states. A large hand
#: under a high minimum and many substitutes can meet millions: 40 cards of four decks
#: and 16 jokers under a minimum of 150 listed 67 million in 171 seconds (searching
#: move by move; it is now refused after 3.3). Past this
#: many, listing the moves raises a :class:`~biriba.BiribaError` (an
#: :class:`~biriba.InvalidPositionError` when the position is read as data) instead. The
#: worst of 20 random deals with a minimum of 150 lists 33,000 under ``biriba`` and
#: 52,000 under ``buraco`` (223,000 when its search went move by move, Z3.2).
MAX_SEARCH_MELDS: Final = 2_000_000
#: The most states one search of the look-ahead works out (a hand and its team's melds,
#: or the cards an opening turn's search has still to decide),
#: counted as :data:`MAX_SEARCH_MELDS` is. A crafted hand under a high minimum can meet
#: many: every substitute with AC to JC under a minimum of 200 meets 31,000 (3
#: seconds; searched move by move, it met more than 500,000 and was refused).
#: Past this many, listing the moves raises a :class:`~biriba.BiribaError`, as past
#: :data:`MAX_SEARCH_MELDS`. The worst of 20 random deals with a minimum of 150 meets
#: 20,000 under ``biriba``, 30,000 under ``buraco`` (74,000 move by move). Deals of
#: ``RandomBot`` and ``GreedyBot``, who take the pile and come to hold 30 cards, stay
#: within: 10 deals under each of 150, 200 and 250 met 339,000 states and listed
#: 980,000 melds at most, under 250.
MAX_SEARCH_STATES: Final = 500_000
#: The largest total or score part, either way, that a match's data or a record may hold:
#: far beyond any real match (a deal scores some thousands), and written out in full.
MAX_POINTS: Final = 10**15
#: The most characters of an input an error message quotes.
EXCERPT: Final = 80


class _ShortRepr(reprlib.Repr):
    """:mod:`reprlib`'s short ``repr``, with huge integers described by their size."""

    def repr_int(self, x: int, level: int) -> str:
        return excerpt(x)


_SHORT = _ShortRepr()
_SHORT.maxstring = EXCERPT
_SHORT.maxother = EXCERPT
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = _SHORT.maxset = 6
_SHORT.maxlevel = 3
#: Digits of an integer written out in full; a longer one is described by its size.
_INT_DIGITS: Final = 40


def excerpt(value: object) -> str:
    """A short text for ``value`` in an error message: its ``repr`` when short, else
    its first :data:`EXCERPT` characters and its length (or an integer's number of
    digits). Works on any object, however large (an integer of 5,000 digits included)."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        digits = _digits(value)
        return repr(value) if digits <= _INT_DIGITS else f"an integer of {digits} digits"
    if isinstance(value, str):
        if len(value) <= EXCERPT:
            shown = repr(value)
            if len(shown) <= EXCERPT + 2:
                return shown
        return f"{repr(value[:EXCERPT])[: EXCERPT + 1]}...' ({len(value)} characters)"
    try:
        shown = _SHORT.repr(value)
    except Exception:  # an object whose repr fails: name its type only
        return f"a {type(value).__name__}"
    return shown if len(shown) <= EXCERPT else shown[: EXCERPT - 3] + "..."


def _digits(value: int) -> int:
    """The number of decimal digits of ``value`` (without its sign), cheaply."""
    size = abs(value)
    if size < 10**_INT_DIGITS:
        return len(str(size))
    # From the bits: 2**(b-1) <= size < 2**b gives the digits to within one, settled by
    # one power of ten (10**4000 - 1 has 4,000 digits, 10**4000 has 4,001).
    digits = int(size.bit_length() * 0.30103) + 1
    return digits - 1 if size < 10 ** (digits - 1) else digits


def type_name(value: object) -> str:
    """The name of ``value``'s type for a message: ``str``, ``int``, and for a type of
    another library its module too (``numpy.bool``, whose own name is ``bool``)."""
    kind = type(value)
    module = kind.__module__
    return kind.__qualname__ if module == "builtins" else f"{module}.{kind.__qualname__}"


def reason_of(error: Exception) -> str:
    """Why a file could not be read or written, in short: an :class:`OSError`'s
    ``strerror`` (its ``str`` would quote the whole path), else the start of the message
    (a path with a NUL, a file already closed). Records and the replay page say it."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error)[:EXCERPT]


def is_text(value: str) -> bool:
    """Whether UTF-8 can write ``value`` (a lone surrogate, as ``"\\ud800"``, has no
    UTF-8 form: a file or a page could not hold it)."""
    try:
        value.encode()
    except UnicodeEncodeError:
        return False
    return True


def check_seed(seed: object, what: str = "seed") -> int | str | None:
    """``seed`` if it is a seed: ``None``, a str that is text (``random.Random`` seeds
    with its UTF-8 bytes: a lone surrogate, as ``"\\ud800"``, has none), or an int of at
    most :data:`MAX_SEED_DIGITS` digits; else :class:`TypeError` (another type) or
    :class:`~biriba.BiribaError` (too long an int, a str that is no text)."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | str)):
        raise TypeError(f"{what} must be an int, a str or None, got {type(seed).__name__}")
    if isinstance(seed, int) and _digits(seed) > MAX_SEED_DIGITS:
        raise BiribaError(f"{what} has at most {MAX_SEED_DIGITS:,} digits, got {excerpt(seed)}")
    if isinstance(seed, str) and not is_text(seed):
        raise BiribaError(
            f"{what} {excerpt(seed)} is no text: it holds a lone surrogate, which has no UTF-8 form"
        )
    return seed


def check_count(value: object, name: str, least: int = 1) -> int:
    """``value`` (the argument ``name``) as an ``int`` if it is a whole number (an ``int``
    or any integer type, such as NumPy's, but not a ``bool``) of at least ``least``;
    else :class:`TypeError` or :class:`~biriba.BiribaError`."""
    number = whole_number(value, name)
    if number < least:
        raise BiribaError(f"{name} must be at least {least}, got {excerpt(number)}")
    return number


def is_int(value: object) -> TypeGuard[int]:
    """Whether ``value`` is an ``int`` and not a ``bool`` (which Python counts as one, and
    JSON does not): how the readers of the library's data tell a number from ``true``."""
    return isinstance(value, int) and not isinstance(value, bool)


def whole_number(value: object, name: str) -> int:
    """``value`` (the argument ``name``) as an ``int`` if it is a whole number: an ``int``
    or any integer type (one with ``__index__``, such as NumPy's), but not a ``bool``;
    else :class:`TypeError`. :func:`check_count` and the codec's check of an action id
    both start with it."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an int, got bool")
    try:
        return operator.index(value)  # type: ignore[arg-type]  # any type, checked here
    except TypeError:
        raise TypeError(f"{name} must be an int, got {type(value).__name__}") from None


def check_real(value: object, name: str, least: float, *, above: bool = False) -> float:
    """``value`` (the argument ``name``) as a ``float`` if it is a finite real number (an
    ``int``, a ``float`` or any real type, but not a ``bool``) of at least ``least``, or
    more than ``least`` where ``above``; else :class:`TypeError` or
    :class:`~biriba.BiribaError` (infinity, NaN and an int too large for a float
    included)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}")
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not math.isfinite(number) or not (number > least if above else number >= least):
        bound = "more than" if above else "at least"
        raise BiribaError(f"{name} must be a finite number {bound} {least}, got {excerpt(value)}")
    return number


def is_points(value: object) -> bool:
    """Whether ``value`` may be a total or a score's part read from data: an ``int`` (not
    a ``bool``) from ``-MAX_POINTS`` to ``MAX_POINTS``."""
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and -MAX_POINTS <= value <= MAX_POINTS
    )


def check_text(text: str, what: str, most: int = MAX_TEXT) -> None:
    """Raise :class:`~biriba.NotationError` if ``text`` (a ``what``: card, meld, move)
    is longer than ``most`` characters (:data:`MAX_TEXT`, or :data:`MAX_CARDS_TEXT` for
    a list of cards)."""
    if len(text) > most:
        raise NotationError(f"{excerpt(text)} is not a {what}: longer than {most} characters")


def parse_json(text: str | bytes, what: str, error: type[BiribaError]) -> Any:
    """Read JSON ``text`` (a ``what``: position, record) after checking its size
    (:data:`MAX_JSON`) and nesting depth (:data:`MAX_DEPTH`), raising ``error`` for text
    that is too large, too deep or not JSON. A byte order mark at the start is passed
    over."""
    if isinstance(text, bytes | bytearray):
        if len(text) > 4 * MAX_JSON:
            raise error(f"a {what} is at most {MAX_JSON} characters of JSON; got {len(text)} bytes")
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as problem:
            raise error(f"a {what} is JSON text in UTF-8: {problem.reason}") from None
    if not isinstance(text, str):
        raise TypeError(f"a {what} as JSON is a str or bytes, got {type(text).__name__}")
    # A byte order mark, which some editors write at the start of a UTF-8 file, is passed
    # over (RFC 8259, 8.1: a parser may ignore one).
    text = text.removeprefix("\ufeff")
    if len(text) > MAX_JSON:
        raise error(f"a {what} is at most {MAX_JSON} characters of JSON; got {len(text)}")
    try:
        data = json.loads(text)
    except RecursionError:  # the parser's own guard, long before the stack is at risk
        raise error(f"a {what} nests brackets at most {MAX_DEPTH} deep") from None
    except ValueError as problem:
        # The parser's message names a place, never the text itself.
        raise error(f"a {what} is JSON, and this is not: {str(problem)[:EXCERPT]}") from None
    if too_deep(data):
        raise error(f"a {what} nests brackets at most {MAX_DEPTH} deep")
    return data


def too_deep(data: object) -> bool:
    """Whether lists and dicts in ``data`` nest more than :data:`MAX_DEPTH` deep (found
    without recursion, stopping at the first place too deep)."""
    level: list[object] = [data]
    for _ in range(MAX_DEPTH):
        inner: list[object] = []
        for item in level:
            if isinstance(item, dict):
                inner.extend(item.values())
            elif isinstance(item, list | tuple):
                inner.extend(item)
        if not inner:
            return False
        level = inner
    return any(isinstance(item, dict | list | tuple) for item in level)
