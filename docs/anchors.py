"""Checks, once the HTML pages are written, that every link inside the site reaches an
anchor that exists, and mends the source pages' ``[docs]`` links.

A small Sphinx extension (``conf.py`` loads it). ``sphinx.ext.viewcode`` gives each
module's source page one prefix for the anchors its ``[docs]`` links point to: that of the
first object of the module it meets. The API page documents most objects under
``biriba`` (``biriba.Deal``) and a few by their module (``biriba.position.Position``), so
the links to the latter pointed to anchors that do not exist (``api.html#biriba.Position``).
Such a link is pointed at the one anchor of its page that names the same object under its
module; any other link to a missing anchor is a warning, which ``sphinx-build -W`` makes
an error.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

#: A link inside the site with an anchor: a relative address (no scheme), then ``#``.
_LINK = re.compile(r'href="(?P<page>[^"#:?]*)#(?P<anchor>[^"]+)"')
#: An anchor of a page.
_ID = re.compile(r'\bid="([^"]+)"')


def _anchors(page: Path, known: dict[Path, set[str]]) -> set[str]:
    """The anchors of ``page`` (none if there is no such page), read once."""
    key = page.resolve()
    if key not in known:
        known[key] = set(_ID.findall(key.read_text(encoding="utf-8"))) if key.is_file() else set()
    return known[key]


def _mended(anchor: str, anchors: set[str]) -> str | None:
    """The anchor of the object ``anchor`` names with the package's prefix alone
    (``biriba.Position``), where the page documents it under its module
    (``biriba.position.Position``); ``None`` unless exactly one anchor fits."""
    package, _, name = anchor.partition(".")
    if not name:
        return None
    found = [a for a in anchors if a.startswith(package + ".") and a.endswith("." + name)]
    return found[0] if len(found) == 1 else None


def check_links(app: Sphinx, exception: BaseException | None) -> None:
    """Mend the source pages' links to missing anchors, and warn of any other."""
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir)
    known: dict[Path, set[str]] = {}
    for page in sorted(out.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        source_page = "_modules" in page.relative_to(out).parts

        def mend(link: re.Match[str], page: Path = page, source_page: bool = source_page) -> str:
            target = page.parent / link["page"] if link["page"] else page
            anchors = _anchors(target, known)
            anchor = link["anchor"]
            if anchor in anchors:
                return link[0]
            better = _mended(anchor, anchors) if source_page else None
            if better is not None:
                return f'href="{link["page"]}#{better}"'
            where = page.relative_to(out).as_posix()
            logger.warning(f"{where}: the link to {link['page']}#{anchor} reaches no anchor")
            return link[0]

        mended = _LINK.sub(mend, text)
        if mended != text:
            page.write_text(mended, encoding="utf-8")


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the check with Sphinx."""
    app.connect("build-finished", check_links)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
