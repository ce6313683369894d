"""Collection settings for the doctests of the package: the adapter modules need their
optional extras, so they are left out (with the reason printed) when those are missing."""

from __future__ import annotations

import importlib.util

#: Each adapter module and the package its extra brings.
_EXTRAS = {
    "src/biriba/openspiel.py": ("pyspiel", "biriba[openspiel]"),
    "src/biriba/pettingzoo.py": ("pettingzoo", "biriba[pettingzoo]"),
}

collect_ignore = [
    path for path, (module, _) in _EXTRAS.items() if importlib.util.find_spec(module) is None
]


def pytest_report_header() -> list[str]:
    """Say which adapter modules are not collected, and why."""
    return [
        f"not collected: {path} ({extra} is not installed)"
        for path, (module, extra) in _EXTRAS.items()
        if path in collect_ignore
    ]
