"""Sphinx configuration for the biriba documentation."""

from __future__ import annotations

import doctest
import sys
from pathlib import Path

# The Pictures page's pictures are drawn when the docs are built (docs/pictures.py); the
# links of the pages written are checked (docs/anchors.py).
sys.path.insert(0, str(Path(__file__).parent))

project = "biriba"
author = "The biriba developers"
copyright = "2026, The biriba developers"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.viewcode",
    "pictures",
    "anchors",
]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
# Defaults as written in the source (rules=BIRIBA), not as the repr of their value (a
# RuleSet repr runs to a thousand characters).
autodoc_preserve_defaults = True
autodoc_default_options = {"members": True, "show-inheritance": True}
# Every cross-reference must resolve (sphinx-build -W turns a broken one into an error),
# except to the standard library, which the offline build cannot link to.
nitpicky = True
nitpick_ignore_regex = [(r"py:class", r"(collections\.abc|enum|os|random|concurrent\.futures)\..*")]
exclude_patterns = ["_build", "_generated"]
html_extra_path = ["_generated/extra"]

try:
    import furo  # noqa: F401

    html_theme = "furo"
except ImportError:  # pragma: no cover - the docs extra brings furo
    html_theme = "alabaster"
html_title = "biriba"

# `sphinx-build -b doctest docs` runs the examples of these pages and of the docstrings
# autodoc shows, with the flags pytest uses (pyproject.toml) and the names a docstring's
# module has at hand.
doctest_default_flags = (
    doctest.ELLIPSIS
    | doctest.NORMALIZE_WHITESPACE
    | doctest.IGNORE_EXCEPTION_DETAIL
    | doctest.DONT_ACCEPT_TRUE_FOR_1
)
doctest_global_setup = """
from biriba import *
from biriba.bots import GreedyBot, MonteCarloBot, RandomBot
from biriba.simulate import simulate
"""
