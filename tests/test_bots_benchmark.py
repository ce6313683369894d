"""benchmarks/bots.py runs and reports every figure; speed is never asserted in a test
(the figures are in docs/bots.rst)."""

from __future__ import annotations

import json
from pathlib import Path

from .helpers import run_script

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "bots.py"


def test_the_bots_benchmark_runs_quickly_and_reports_every_figure(tmp_path: Path) -> None:
    out = tmp_path / "bots.json"
    stdout = run_script(SCRIPT, "--quick", "--out", str(out), timeout=300)
    assert "greedy / random" in stdout and "95% interval" in stdout
    results = json.loads(out.read_text())
    steps = results["steps"]
    for key in ("random_us", "greedy_us", "random_rollout_us", "greedy_rollout_us"):
        assert steps[key] > 0, key
    assert steps["positions"] > 100
    decisions = results["decisions"]
    assert decisions["before_ms"] > 0 and decisions["now_ms"] > 0
    assert 0 <= decisions["alike"] <= 1
    for name in ("before", "now"):
        found = results["strength"][name]
        low, high = found["interval"]
        assert found["deals"] == 2
        assert 0 <= low <= found["win_rate"] <= high <= 1
