"""Which build of the library runs: its pure-Python sources, or the compiled build whose
hottest modules mypyc made into C extensions (``docs/compiled.rst``). Both builds behave
the same; the compiled one is faster.

``biriba.compiled`` says which build was imported::

    >>> import biriba
    >>> biriba.compiled in (True, False)
    True

The package's build (``setup.py``) compiles :data:`COMPILED_MODULES` when asked to, and
reads the list from here.
"""

from __future__ import annotations

import sys
import types
from typing import Final

__all__ = ["COMPILED_MODULES", "compiled_modules", "is_compiled"]

#: The modules of ``biriba`` that the compiled build compiles, by name.
COMPILED_MODULES: Final = (
    "cards",
    "melds",
    "making",
    "enumeration",
    "position",
    "scoring",
    "engine",
    "deal",
)


def is_compiled(function: object) -> bool:
    """Whether ``function``, a function defined in a module of the library, was compiled
    (mypyc makes a compiled module's functions built-in functions). A module calls it on
    one of its own functions where the two builds need different code."""
    return not isinstance(function, types.FunctionType)


def compiled_modules() -> tuple[str, ...]:
    """The names in :data:`COMPILED_MODULES` of the modules imported as C extensions (their
    file is a shared library, not Python source); empty for the pure-Python build."""
    found = []
    for name in COMPILED_MODULES:
        module = sys.modules.get(f"biriba.{name}")
        path = getattr(module, "__file__", None) or ""
        if not path.endswith((".py", ".pyc")) and path:
            found.append(name)
    return tuple(found)
