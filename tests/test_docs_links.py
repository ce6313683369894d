"""The documentation's link check (docs/anchors.py), which the Sphinx build runs."""

from __future__ import annotations

import logging
from pathlib import Path
from types import SimpleNamespace

import pytest

from .helpers import load_module

pytest.importorskip("sphinx")

ANCHORS = Path(__file__).resolve().parent.parent / "docs" / "anchors.py"


def test_source_links_are_mended_and_other_broken_links_reported(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    anchors = load_module(ANCHORS, "docs_anchors")
    (tmp_path / "_modules" / "biriba").mkdir(parents=True)
    (tmp_path / "api.html").write_text(
        '<dt id="biriba.Deal"></dt><dt id="biriba.position.Position"></dt>'
        '<dt id="biriba.position.Position.of"></dt>',
        encoding="utf-8",
    )
    source = tmp_path / "_modules" / "biriba" / "position.html"
    # viewcode's back-links: one to an object documented under its module, with the
    # package's prefix (mended), one right already, one to nothing at all (reported).
    source.write_text(
        '<a href="../../api.html#biriba.Position">[docs]</a>'
        '<a href="../../api.html#biriba.Position.of">[docs]</a>'
        '<a href="../../api.html#biriba.Deal">[docs]</a>',
        encoding="utf-8",
    )
    page = tmp_path / "guide.html"
    page.write_text('<a href="api.html#biriba.Nothing">x</a><a href="#top">top</a>', "utf-8")
    app = SimpleNamespace(builder=SimpleNamespace(format="html"), outdir=str(tmp_path))
    with caplog.at_level(logging.WARNING):
        anchors.check_links(app, None)
    assert source.read_text(encoding="utf-8") == (
        '<a href="../../api.html#biriba.position.Position">[docs]</a>'
        '<a href="../../api.html#biriba.position.Position.of">[docs]</a>'
        '<a href="../../api.html#biriba.Deal">[docs]</a>'
    )
    # Outside the source pages nothing is guessed: both broken links are reported.
    assert "guide.html: the link to api.html#biriba.Nothing reaches no anchor" in caplog.text
    assert "guide.html: the link to #top reaches no anchor" in caplog.text
    assert "position.html" not in caplog.text
