"""The exceptions the library raises on bad input.

Every error derives from :class:`BiribaError`, itself a :class:`ValueError`, so a caller
that only wants to know "was that input acceptable?" can catch one class. Passing an
object of the wrong type raises :class:`TypeError` instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (for the types alone: the moves' module raises these errors)
    from biriba.moves import AddToMeld

__all__ = [
    "AmbiguousMoveError",
    "BiribaError",
    "IllegalMoveError",
    "InvalidMeldError",
    "InvalidPositionError",
    "NotationError",
    "RecordError",
]


class BiribaError(ValueError):
    """Base class of every error the library raises on bad input.

    :attr:`rule` is the id of the rule the error enforces (``"B4.2"``, see the rules
    reference), or ``None`` where no rule applies (a malformed input).
    """

    #: The id of the rule the error enforces, or ``None`` for a malformed input.
    rule: str | None

    def __init__(self, message: str = "", *, rule: str | None = None) -> None:
        super().__init__(message)
        self.rule = rule


class NotationError(BiribaError):
    """Text that is not a card, a list of cards, a meld, a move or a position."""


class InvalidMeldError(BiribaError):
    """Cards that do not form a meld under the rule set; the message names the rule."""


class IllegalMoveError(BiribaError):
    """A move that is not legal in the position; the message and :attr:`~BiribaError.rule` name the
    rule that forbids it (``B4.3``).

    The position is left exactly as it was.
    """


class AmbiguousMoveError(IllegalMoveError):
    """A short move text that fits several moves (``add 0 5H`` where the card has a choice).

    :attr:`outcomes` lists the full moves the text could mean.
    """

    #: The full moves (``add 0 5H -> ...``) the short text could mean, each legal.
    outcomes: tuple[AddToMeld, ...]

    def __init__(
        self, message: str, outcomes: tuple[AddToMeld, ...] = (), *, rule: str | None = "B3.12"
    ) -> None:
        super().__init__(message, rule=rule)
        self.outcomes = outcomes


class InvalidPositionError(BiribaError):
    """A position (dict or JSON) that is malformed or impossible."""


class RecordError(BiribaError):
    """A game record that is malformed or does not replay.

    For a move that does not replay, :attr:`index` is its place in the deal's moves (from
    0), :attr:`move` its text and :attr:`deal_index` the deal's place in a match record.
    """

    #: The place of the move that does not replay in its deal's moves, from 0.
    index: int | None
    #: The text of that move.
    move: str | None
    #: The place of its deal in a match record, from 0.
    deal_index: int | None

    def __init__(
        self,
        message: str,
        *,
        index: int | None = None,
        move: str | None = None,
        deal_index: int | None = None,
        rule: str | None = None,
    ) -> None:
        super().__init__(message, rule=rule)
        self.index = index
        self.move = move
        self.deal_index = deal_index
