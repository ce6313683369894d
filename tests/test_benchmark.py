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
    if importlib.util.find_spec("pyspiel") is None:
        assert results["adapters"] is None  # biriba[openspiel] is not installed
    else:
        assert results["adapters"]["open_spiel_ratio"] > 0
