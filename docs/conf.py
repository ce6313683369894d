"""Sphinx configuration for the biriba documentation."""

from __future__ import annotations

project = "biriba"
author = "The biriba developers"
copyright = "2026, The biriba developers"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": True}
nitpicky = False
exclude_patterns = ["_build"]

try:
    import furo  # noqa: F401

    html_theme = "furo"
except ImportError:  # pragma: no cover - the docs extra brings furo
    html_theme = "alabaster"
html_title = "biriba"
