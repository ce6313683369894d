"""The documentation's gallery shows every example script with its output (.ci/run
checks that each script still prints exactly that output)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p.stem for p in (ROOT / "examples").glob("*.py"))


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_example_is_in_the_gallery_with_its_output(name: str) -> None:
    gallery = (ROOT / "docs" / "gallery.rst").read_text()
    assert f".. literalinclude:: ../examples/{name}.py" in gallery
    assert f".. literalinclude:: gallery/{name}.txt" in gallery
    assert (ROOT / "docs" / "gallery" / f"{name}.txt").read_text().strip()
