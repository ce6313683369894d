"""The package's build backend: setuptools' own, which also builds the compiled wheel when
the environment asks for it with ``BIRIBA_COMPILE=1`` (``setup.py`` does the compiling;
``docs/compiled.rst`` tells how to use it).

The pure build needs nothing but setuptools. Only a compiled wheel asks the build front
end (pip, ``python -m build``) for mypy, whose mypyc compiles the modules, and for the
runtime dependencies that mypy reads while it checks them. An sdist, and an editable
install, are always of the pure sources.
"""

from __future__ import annotations

import os
from typing import Any

from setuptools import build_meta
from setuptools.build_meta import (
    build_editable,
    build_sdist,
    build_wheel,
    get_requires_for_build_editable,
    get_requires_for_build_sdist,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

__all__ = [
    "build_editable",
    "build_sdist",
    "build_wheel",
    "get_requires_for_build_editable",
    "get_requires_for_build_sdist",
    "get_requires_for_build_wheel",
    "prepare_metadata_for_build_editable",
    "prepare_metadata_for_build_wheel",
]

#: What the compiled build needs beyond setuptools: mypyc, in the version the sources are
#: tested with (each mypyc release compiles some constructs differently), and the runtime
#: dependencies that mypy reads while it checks the modules it compiles.
COMPILE_REQUIRES = ["mypy>=2.4,<2.5", "attrs>=23.1"]


def compiling() -> bool:
    """Whether the environment asks for the compiled build: ``BIRIBA_COMPILE`` set to
    anything but nothing or ``0``."""
    return os.environ.get("BIRIBA_COMPILE", "") not in ("", "0")


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    """setuptools' requirements, and those of :data:`COMPILE_REQUIRES` for a compiled
    build."""
    found = list(build_meta.get_requires_for_build_wheel(config_settings))
    return found + COMPILE_REQUIRES if compiling() else found
