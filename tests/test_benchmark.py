"""The benchmark script runs (it reaches into the engine's caches, so it could rot).

Only that it runs and reports every measure is checked here; speed is never asserted
in a test (see docs/performance.rst for the figures).
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "run.py"


def test_the_benchmark_runs_quickly_and_reports_every_measure(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--quick", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "random deals / s" in done.stdout
    results = json.loads(out.read_text())
    for key in ("random_deals_per_s", "copy_per_s", "score_per_s", "play_undo_per_s"):
        assert results[key] > 0, key
    for size in (12, 20, 30):
        cold, regenerated, cached = results[f"legal_moves_per_s_{size}_cards"]
        assert min(cold, regenerated, cached) > 0
    assert results["moves_per_deal"] > 50
    encoding = results["encoding"]
    assert min(encoding.values()) > 0
    assert results["random_deals_per_s_no_gc"] > 0
    assert results["gc_share_of_random_deals"] < 1
    assert results["random_buraco_deals_per_s"] > 0
    if importlib.util.find_spec("pyspiel") is None:
        assert results["adapters"] is None  # biriba[openspiel] is not installed
        assert "open_spiel_gin_rummy_games_per_s" not in results
    else:
        assert results["adapters"]["open_spiel_ratio"] > 0
        # OpenSpiel's gin rummy measured in the same run: every figure also per gin game.
        gin = results["open_spiel_gin_rummy_games_per_s"]
        assert gin > 0
        assert len(results["ratio_to_open_spiel_rounds"]) == results["rounds"]
        assert "per gin game" in done.stdout
        ratios = results["per_gin_game"]
        assert ratios["random_deals_per_s"] == results["random_deals_per_s"] / gin
        assert ratios["copy_per_s"] == results["copy_per_s"] / gin


def test_the_reference_can_be_left_out_and_is_refused_when_missing(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--quick", "--no-openspiel", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "OpenSpiel gin rummy" in done.stdout
    assert "open_spiel_gin_rummy_games_per_s" not in json.loads(out.read_text())
    if importlib.util.find_spec("pyspiel") is None:
        done = subprocess.run(
            [sys.executable, str(SCRIPT), "--quick", "--openspiel", "--out", str(out)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 2
        assert "needs the open_spiel package" in done.stderr
