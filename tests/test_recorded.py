"""Recorded data replayed on every run: a reference deal and exhaustive move counts.

``tests/data/regenerate.py`` wrote these files; any change of behaviour shows up here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from biriba import Deal

from .data.regenerate import perft

DATA = Path(__file__).parent / "data"
PERFT = json.loads((DATA / "perft.json").read_text())


def test_reference_deal_replays_move_for_move() -> None:
    record = json.loads((DATA / "reference_deal.json").read_text())
    deal = Deal.new(seed=record["seed"], dealer=record["dealer"])
    for index, text in enumerate(record["moves"]):
        assert not deal.is_over, f"the deal ended before move {index}"
        deal.play(text)
    assert deal.is_over
    assert deal.closed_by == record["closed_by"]
    score = deal.score()
    for team, expected in zip(score.teams, record["score"], strict=True):
        assert team.melded == expected["melded"]
        assert team.bonuses == expected["bonuses"]
        assert team.hands == expected["hands"]
        assert team.closing == expected["closing"]
        assert team.reserve == expected["reserve"]
        assert team.total == expected["total"]


@pytest.mark.parametrize("entry", PERFT, ids=[e["source"] for e in PERFT])
def test_perft(entry: dict[str, Any]) -> None:
    deal = Deal.from_dict(entry["position"])
    assert perft(deal, 1) == entry["depth1"]
    assert perft(deal, 2) == entry["depth2"]
    assert deal.to_dict() == entry["position"]  # perft undoes every move it plays
