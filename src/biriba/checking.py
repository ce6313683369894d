"""Checking a move sent from elsewhere: :func:`~biriba.check_move`, the one call a validating app
needs, and its answer, :class:`~biriba.Verdict`.

A game server receives a position (a dict, or JSON text, in the format of
:meth:`Deal.to_dict <biriba.Deal.to_dict>`) and a move's text from a player, and must
answer whether the move is legal and, if not, why. :func:`~biriba.check_move` never raises for
bad content: a position that is malformed or impossible, a text that is no move, a move
the rules refuse each give a verdict saying so, with the rule's id::

    >>> from biriba import Deal
    >>> deal = Deal.new(seed=7)
    >>> check_move(deal.to_dict(), "draw").legal
    True
    >>> verdict = check_move(deal.to_dict(), "discard 5C")
    >>> verdict.legal, verdict.error, verdict.rule
    (False, 'illegal', 'B4.1')
    >>> check_move("{}", "draw").to_dict()["error"]
    'position'
    >>> check_move(deal.to_dict(), "fold").to_dict()  # doctest: +NORMALIZE_WHITESPACE
    {'legal': False, 'move': None, 'rule': None,
     'reason': "'fold' is not a move: ...", 'error': 'notation'}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import attrs

from biriba.deal import Deal, meld_refused
from biriba.errors import (
    AmbiguousMoveError,
    BiribaError,
    IllegalMoveError,
    InvalidMeldError,
    InvalidPositionError,
    NotationError,
)
from biriba.limits import parse_json
from biriba.moves import Move, refuse_base_move
from biriba.rules import RuleSet, check_rules

__all__ = ["ERRORS", "Verdict", "check_move"]

#: The values of :attr:`Verdict.error`, beside ``None`` for a legal move.
ERRORS: Final = ("notation", "position", "illegal", "ambiguous")


@attrs.frozen
class Verdict:
    """The answer of :func:`~biriba.check_move`: whether the move is legal and, if not, why."""

    #: Whether the move is legal in the position.
    legal: bool
    #: The move's canonical text (``discard 7H``), or ``None`` where it could not be read
    #: as a move (bad notation, cards that form no meld). Beside a bad position, the text
    #: is read as :meth:`Move.parse <biriba.Move.parse>` reads it without a position
    #: (under the ``rules`` given to :func:`check_move`, if any).
    move: str | None
    #: The id of the rule that refuses the move or the position (``"B4.2"``), or ``None``
    #: (a legal move, or input merely malformed).
    rule: str | None
    #: One sentence saying what was found.
    reason: str
    #: ``None`` for a legal move, else what went wrong: ``"notation"`` (the text is no
    #: move), ``"position"`` (the position is malformed or impossible), ``"illegal"`` (the
    #: rules refuse the move) or ``"ambiguous"`` (a short addition with a choice of
    #: places, B3.12: :attr:`outcomes` lists the full moves).
    error: str | None
    #: For an ambiguous move, the texts of the legal full moves it could mean.
    outcomes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The verdict as JSON-ready data: ``legal``, ``move``, ``rule``, ``reason`` and
        ``error``, and ``outcomes`` for an ambiguous move."""
        data: dict[str, Any] = {
            "legal": self.legal,
            "move": self.move,
            "rule": self.rule,
            "reason": self.reason,
            "error": self.error,
        }
        if self.outcomes:
            data["outcomes"] = list(self.outcomes)
        return data


def check_move(
    position: Mapping[str, Any] | str | bytes, move: Move | str, *, rules: RuleSet | None = None
) -> Verdict:
    """Whether ``move`` is legal in ``position``, and if not, why.

    ``position`` is a position as a dict or as JSON text, a ``str`` or UTF-8 ``bytes``
    (see :doc:`/positions`; JSON text is checked against the size limits of
    :mod:`biriba.limits` first), ``move`` a
    move's text (or a :class:`~biriba.Move`). Bad content never raises: it gives a
    :class:`~biriba.Verdict` whose :attr:`~Verdict.error` says what is wrong. Arguments of the
    wrong type raise :class:`TypeError`. ``rules``, when given, is the rule set the
    position must be of (needed only for a rule set that is not a preset and that the
    position names without its data).
    """
    if not isinstance(position, Mapping | str | bytes):
        raise TypeError(f"a position is a dict or JSON text, got {type(position).__name__}")
    if not isinstance(move, Move | str):
        raise TypeError(f"a move is its text or a Move, got {type(move).__name__}")
    if isinstance(move, Move):
        refuse_base_move(move)
    if rules is not None:
        check_rules(rules)
    try:
        data = position
        if isinstance(data, str | bytes):
            data = parse_json(data, "position", InvalidPositionError)
            if not isinstance(data, Mapping):
                raise InvalidPositionError(
                    f"invalid position: a position is a JSON object, got {_json_kind(data)}"
                )
        deal = Deal.from_dict(data, rules)
    except BiribaError as error:
        return Verdict(False, _move_text(move, rules), error.rule, str(error), "position")
    try:
        parsed = Move.parse(move, deal.rules) if isinstance(move, str) else move
    except InvalidMeldError as error:  # cards that form no meld: the rules refuse the move
        # The text is still a move, read without a position (Move.parse's reading).
        text = _move_text(move, None)
        assert isinstance(move, str)  # (a Move holds melds already made)
        return Verdict(False, text, error.rule, str(meld_refused(move, error)), "illegal")
    except NotationError as error:
        return Verdict(False, None, None, str(error), "notation")
    try:
        deal.verify(parsed)
    except AmbiguousMoveError as error:
        outcomes = tuple(str(m) for m in error.outcomes)
        return Verdict(False, str(parsed), error.rule, str(error), "ambiguous", outcomes)
    except IllegalMoveError as error:  # with its rule
        return Verdict(False, str(parsed), error.rule, str(error), "illegal")
    except BiribaError as error:  # the move's look-ahead past the library's bounds
        return Verdict(False, str(parsed), error.rule, str(error), "position")
    seat = deal.to_move
    return Verdict(True, str(parsed), None, f"{parsed} is legal for seat {seat}", None)


def _move_text(move: Move | str, rules: RuleSet | None) -> str | None:
    """The canonical text of ``move`` read without a position (a move is read so, API.md:
    :meth:`Move.parse <biriba.Move.parse>`): under ``rules`` when given and its melds are
    melds under them, else in its most lenient reading; ``None`` only for a text that is
    no move at all."""
    if isinstance(move, Move):
        return str(move)
    for reading in (rules, None) if rules is not None else (None,):
        try:
            return str(Move.parse(move, reading))
        except BiribaError:
            continue
    return None


def _json_kind(value: object) -> str:
    """The JSON name of ``value``'s kind (array, string, number...)."""
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return "a number"
