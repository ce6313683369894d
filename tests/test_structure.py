"""The library's modules form layers (docs/internals.rst): each imports only from the
layers before it, never inside a function (but for the command line, which imports its
subcommands when they run), and no module writes another class's private attributes."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[1] / "src" / "biriba"

#: The layers, first to last, as docs/internals.rst lists them.
LAYERS = [
    ["errors", "display", "version", "native"],
    ["limits"],
    ["cards"],
    ["rules"],
    ["melds"],
    ["moves"],
    ["making"],
    ["enumeration"],
    ["position"],
    ["scoring"],
    ["engine"],
    ["position_data"],
    ["deal"],
    ["match"],
    ["records"],
    ["checking"],
    ["encoding"],
    ["svg"],
    ["replay_page"],
    ["bots.heuristics"],
    ["bots"],
    ["simulate"],
    ["openspiel", "pettingzoo"],
    ["demo", "terminal"],
    ["cli"],
    ["__main__"],
]
RANK = {name: i for i, layer in enumerate(LAYERS) for name in layer}


def module_name(path: Path) -> str:
    parts = path.relative_to(SOURCE).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


@functools.cache
def modules() -> dict[str, ast.Module]:
    """Every module's syntax tree, parsed once for all the tests (they only read them)."""
    found = {}
    for path in sorted(SOURCE.rglob("*.py")):
        name = module_name(path)
        if name:  # the package's __init__ gathers the public names: above every layer
            found[name] = ast.parse(path.read_text(), str(path))
    return found


def imported(node: ast.stmt) -> list[str]:
    """The biriba modules an import statement names, without the ``biriba.`` prefix."""
    names: list[str] = []
    if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("biriba"):
        base = node.module.removeprefix("biriba").removeprefix(".")
        if base:
            names.append(base)
        else:  # from biriba import records
            names += [alias.name for alias in node.names]
    elif isinstance(node, ast.Import):
        names += [
            a.name.removeprefix("biriba.") for a in node.names if a.name.startswith("biriba.")
        ]
    return names


def test_every_module_has_a_layer() -> None:
    assert set(modules()) == set(RANK)


@pytest.mark.parametrize("name", sorted(RANK))
def test_a_module_imports_only_from_earlier_layers(name: str) -> None:
    tree = modules()[name]
    for node in tree.body:
        for target in imported(node):
            assert RANK[target] < RANK[name], f"{name} imports {target}"


@pytest.mark.parametrize("name", sorted(RANK))
def test_no_import_inside_a_function(name: str) -> None:
    if name in ("cli", "__main__"):
        pytest.skip("the command line imports its subcommands when they run")
    for node in ast.walk(modules()[name]):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inner in ast.walk(node):
                if isinstance(inner, ast.stmt):
                    assert not imported(inner), f"{name}.{node.name} imports {imported(inner)}"


@pytest.mark.parametrize("name", sorted(RANK))
def test_no_private_attribute_written_from_outside(name: str) -> None:
    """``obj._x = ...`` only on ``self``/``cls``, or on a name in the module's own slots."""
    tree = modules()[name]
    own: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id == "__slots__":
                    own.update(ast.literal_eval(node.value))
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            if (
                isinstance(target, ast.Attribute)
                and target.attr.startswith("_")
                and not target.attr.startswith("__")
                and not (isinstance(target.value, ast.Name) and target.value.id in ("self", "cls"))
            ):
                assert target.attr in own, f"{name} line {target.lineno} writes .{target.attr}"
