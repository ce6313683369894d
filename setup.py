"""Builds the compiled wheel when ``BIRIBA_COMPILE=1`` is set: mypyc compiles the modules
that ``src/biriba/native.py`` lists into C extensions, which the wheel carries beside the
Python sources. Otherwise, and for an sdist or an editable install, everything is pure
Python, exactly as pyproject.toml describes it (buildsystem/biriba_build.py is the build
backend; docs/compiled.rst tells how to use it).
"""

from __future__ import annotations

import ast
import os
import sys
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).parent


def compiled_modules() -> list[str]:
    """The paths of the modules to compile, from ``COMPILED_MODULES`` in native.py (read,
    not imported: the package is not importable while it builds)."""
    tree = ast.parse((HERE / "src" / "biriba" / "native.py").read_text())
    for node in tree.body:
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and node.target.id == "COMPILED_MODULES"
            and node.value is not None
        ):
            names = ast.literal_eval(node.value)
            return [f"src/biriba/{name}.py" for name in names]
    raise RuntimeError("src/biriba/native.py defines no COMPILED_MODULES")


#: The commands that build extensions (not those that only gather metadata or an sdist,
#: which run before mypy is installed).
BUILDING = {"bdist_wheel", "build_ext"}


def main() -> None:
    """Run setuptools, with mypyc's extensions when compiling."""
    if os.environ.get("BIRIBA_COMPILE", "") not in ("", "0") and BUILDING & set(sys.argv[1:]):
        from mypyc.build import mypycify

        setup(ext_modules=mypycify(compiled_modules(), opt_level="3", group_name="biriba"))
    else:
        setup()


if __name__ == "__main__":
    main()
