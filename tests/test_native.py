"""The build that runs, pure Python or compiled (src/biriba/native.py; docs/compiled.rst).
CI runs the whole suite on both, with ``BIRIBA_EXPECT_COMPILED`` set to say which one it
installed."""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
from pathlib import Path

import pytest

import biriba
from biriba import cards, native

EXTENSIONS = tuple(importlib.machinery.EXTENSION_SUFFIXES)
ROOT = Path(__file__).resolve().parents[1]


def module_file(name: str) -> str:
    path = importlib.import_module(f"biriba.{name}").__file__
    assert path is not None
    return path


def test_compiled_says_whether_the_listed_modules_are_extensions() -> None:
    extensions = tuple(n for n in native.COMPILED_MODULES if module_file(n).endswith(EXTENSIONS))
    assert native.compiled_modules() == extensions
    assert biriba.compiled is (extensions == native.COMPILED_MODULES)
    assert biriba.compiled or not extensions, f"only some modules compiled: {extensions}"


def test_a_module_knows_whether_its_functions_are_compiled() -> None:
    assert native.is_compiled(len)
    assert not native.is_compiled(module_file)
    assert native.is_compiled(cards.counts_of) is biriba.compiled


def test_each_compiled_module_has_its_python_source_beside_it() -> None:
    for name in native.COMPILED_MODULES:
        assert Path(module_file(name)).with_name(f"{name}.py").is_file(), name


def test_the_build_is_the_one_the_environment_expects() -> None:
    expected = os.environ.get("BIRIBA_EXPECT_COMPILED")
    if expected is None:
        pytest.skip("BIRIBA_EXPECT_COMPILED is not set: either build may run")
    if expected == "1":
        for name in native.COMPILED_MODULES:
            assert module_file(name).endswith(EXTENSIONS), f"biriba.{name} is not compiled"
        assert biriba.compiled
    else:
        assert native.compiled_modules() == ()
        assert not biriba.compiled


def test_setup_py_compiles_exactly_the_listed_modules() -> None:
    setup_path = ROOT / "setup.py"
    if not setup_path.is_file():
        pytest.skip("no setup.py beside the tests")
    spec = importlib.util.spec_from_file_location("biriba_setup", setup_path)
    assert spec is not None and spec.loader is not None
    setup = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(setup)
    paths = setup.compiled_modules()
    assert paths == [f"src/biriba/{name}.py" for name in native.COMPILED_MODULES]
    assert all((ROOT / path).is_file() for path in paths)


def test_the_compiled_builds_page_names_every_compiled_module() -> None:
    """docs/compiled.rst lists the modules BIRIBA_COMPILE=1 compiles: it left out
    ``making`` when that module joined them."""
    page = ROOT / "docs" / "compiled.rst"
    if not page.is_file():
        pytest.skip("no docs beside the tests")
    text = " ".join(page.read_text(encoding="utf-8").split())
    start = text.index(":data:`biriba.native.COMPILED_MODULES` lists:")
    listed = text[start : text.index(".", start + 40)]
    names = tuple(name for name in listed.split("``")[1::2])
    assert names == native.COMPILED_MODULES
