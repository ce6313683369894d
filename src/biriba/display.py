"""The hook through which cards, melds, deals and player views show themselves as pictures.

Jupyter shows an object as a picture when it has a ``_repr_svg_`` method.
:class:`~biriba.Card`, :class:`~biriba.Meld`, :class:`~biriba.Deal` and
:class:`~biriba.PlayerView` have one, but they live in layers below :mod:`biriba.svg`, which
draws them, and a module imports only from the layers above it (docs/internals.rst). So
their ``_repr_svg_`` asks this module, which imports nothing, and :mod:`biriba.svg`
installs its drawing function here when it is imported. Importing any part of the
package imports it, because the package's ``__init__`` does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

__all__ = ["install", "picture"]

#: The installed drawing function (at most one).
_DRAWER: Final[list[Callable[[object], str]]] = []


def install(draw: Callable[[object], str]) -> None:
    """Make ``draw`` the function that draws values as SVG (:mod:`biriba.svg` calls it)."""
    _DRAWER[:] = [draw]


def picture(value: object) -> str | None:
    """The SVG picture of ``value``, or ``None`` while no drawing function is installed
    (Jupyter then falls back to the text form)."""
    return _DRAWER[0](value) if _DRAWER else None
