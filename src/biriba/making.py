"""The move generator's makers of moves: a :class:`~biriba.LayMeld` or an
:class:`~biriba.AddToMeld` from values already known to be valid, without the checks of
their constructors.

The move classes are ``attrs`` classes, which the compiled build leaves to the
interpreter (:mod:`biriba.native`); their makers live here, in a module that it
compiles, so that a compiled move generator calls them as compiled code: a call of a
function of an uncompiled module goes through the interpreter, which made each move
cost as much again.
"""

from __future__ import annotations

from typing import Final

from biriba.cards import Card
from biriba.melds import Meld
from biriba.moves import AddToMeld, LayMeld

__all__ = ["add_unchecked", "lay_unchecked"]


def lay_unchecked(meld: Meld) -> LayMeld:
    """``LayMeld(meld)`` without the type check, for a move generator that knows ``meld``
    is a :class:`~biriba.Meld`."""
    move: LayMeld = _new(LayMeld)
    _set_lay_meld(move, meld)
    return move


def add_unchecked(index: int, card: Card, result: Meld | None) -> AddToMeld:
    """``AddToMeld(index, card, result)`` without the checks, for a move generator that
    knows the values are valid."""
    move: AddToMeld = _new(AddToMeld)
    _set_add_index(move, index)
    _set_add_card(move, card)
    _set_add_result(move, result)
    return move


# The slots' own setters: about half the cost of object.__setattr__, on the hottest path.
_new: Final = object.__new__
_set_lay_meld: Final = LayMeld.__dict__["meld"].__set__
_set_add_index: Final = AddToMeld.__dict__["index"].__set__
_set_add_card: Final = AddToMeld.__dict__["card"].__set__
_set_add_result: Final = AddToMeld.__dict__["result"].__set__
