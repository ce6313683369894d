"""The benchmark script runs (it reaches into the engine's caches, so it could rot).

Only that it runs and reports every measure is checked here; speed is never asserted
in a test (see docs/performance.rst for the figures).
"""

from __future__ import annotations

import gc
import importlib.util
import json
import random
import shutil
import statistics
from pathlib import Path
from typing import Any

import pytest

import biriba
from biriba import BIRIBA, BURACO, Deal, RuleSet, enumeration
from biriba.position import size_of

from .helpers import run_script, run_script_refused

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "run.py"
LONG_RUN = SCRIPT.with_name("long_run.py")
COMPARE = SCRIPT.with_name("compare.py")
INSTRUCTIONS = SCRIPT.with_name("instructions.py")
ROUNDS = SCRIPT.with_name("rounds.py")


def test_the_benchmark_runs_quickly_and_reports_every_measure(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    stdout = run_script(SCRIPT, "--quick", "--out", str(out))
    assert "random deals / s" in stdout
    results = json.loads(out.read_text())
    # The build that ran, in the header and the results: the one the tests import.
    assert results["compiled"] is biriba.compiled
    build = "compiled build" if biriba.compiled else "pure-Python build"
    assert stdout.startswith(f"biriba benchmark ({build})")
    for key in ("random_deals_per_s", "copy_per_s", "score_per_s", "play_undo_per_s"):
        assert results[key] > 0, key
    for size in (12, 20, 30):
        cold, regenerated, cached = results[f"legal_moves_per_s_{size}_cards"]
        assert min(cold, regenerated, cached) > 0
    assert results["moves_per_deal"] > 50
    encoding = results["encoding"]
    assert min(encoding.values()) > 0
    assert results["random_deals_per_s_no_gc"] > 0
    assert results["gc_share_of_random_deals"] == statistics.median(results["gc_share_rounds"])
    assert len(results["gc_share_rounds"]) == results["rounds"]
    assert results["random_buraco_deals_per_s"] > 0
    assert results["random_buraco_deals_per_s_no_gc"] > 0
    assert results["buraco_gc_share"] == statistics.median(results["buraco_gc_share_rounds"])
    # Issue 11's figure, the median of the rounds' ratios, with their spread printed.
    buraco = results["buraco_to_biriba_rounds"]
    assert len(buraco) == results["rounds"]
    assert results["buraco_to_biriba_deals"] == statistics.median(buraco)
    assert f"{min(buraco):.2f} to {max(buraco):.2f}" in stdout
    if importlib.util.find_spec("pyspiel") is None:
        assert results["adapters"] is None  # biriba[openspiel] is not installed
        assert "open_spiel_gin_rummy_games_per_s" not in results
    else:
        assert results["adapters"]["open_spiel_ratio"] > 0
        # OpenSpiel's gin rummy measured in the same run: every figure also per gin game.
        gin = results["open_spiel_gin_rummy_games_per_s"]
        assert gin > 0
        assert len(results["ratio_to_open_spiel_rounds"]) == results["rounds"]
        assert "per gin game" in stdout
        ratios = results["per_gin_game"]
        assert ratios["random_deals_per_s"] == results["ratio_to_open_spiel"]
        assert ratios["copy_per_s"] == results["copy_per_s"] / gin


def test_no_run_of_a_round_replays_the_deals_of_another(monkeypatch: pytest.MonkeyPatch) -> None:
    # The tables a process keeps are not emptied between runs: a run replaying the seeds
    # of the run before it would meet its melds again and go faster. Each round's deals
    # with the collector on and off are other deals; the collector's share compares
    # moves per second, not deals.
    spec = importlib.util.spec_from_file_location("benchmark_run", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    runs: list[tuple[str, bool, int]] = []

    def fake_deals(count: int, rules: RuleSet = BIRIBA, first_seed: int = 0) -> tuple[float, float]:
        runs.append((rules.name, gc.isenabled(), first_seed))
        collected = gc.isenabled()
        # Biriba with the collector: 10 deals a second of 100 moves; without: 20 of 60.
        # Buraco: 8 of 120 with it, 12 of 100 without.
        if rules.name == "buraco":
            return (8.0, 120.0) if collected else (12.0, 100.0)
        return (10.0, 100.0) if collected else (20.0, 60.0)

    monkeypatch.setattr(module, "random_deals", fake_deals)
    results = module.paired_rounds(4, 3, None)
    # Both games are measured by the same steps: the collected run first in even
    # rounds, the uncollected one first in odd rounds, so that neither game meets tables
    # warmed by more deals of its own than the other.
    assert [(name, on) for name, on, _ in runs[:4]] == [
        ("biriba", True),
        ("biriba", False),
        ("buraco", True),
        ("buraco", False),
    ]
    assert [(name, on) for name, on, _ in runs[4:8]] == [
        ("biriba", False),
        ("biriba", True),
        ("buraco", False),
        ("buraco", True),
    ]
    assert len(runs) == 16
    for r in range(4):
        by_run = {(name, on): seed for name, on, seed in runs[4 * r : 4 * r + 4]}
        for game in ("biriba", "buraco"):
            on = set(range(by_run[game, True], by_run[game, True] + 3))
            off = set(range(by_run[game, False], by_run[game, False] + 3))
            assert not on & off  # no deal played both with and without the collector
        assert by_run["biriba", True] == by_run["buraco", True] == 3 * r
    # 1 - (10 * 100) / (20 * 60) per round, in moves per second; Buraco's likewise.
    assert results["gc_share_rounds"] == [pytest.approx(1 - 1000 / 1200)] * 4
    assert results["buraco_gc_share_rounds"] == [pytest.approx(1 - 960 / 1200)] * 4
    assert results["buraco_gc_share"] == pytest.approx(1 - 960 / 1200)
    assert results["random_buraco_deals_per_s_no_gc"] == 12.0
    # The ratio compares the collected runs of both games.
    assert results["buraco_to_biriba_rounds"] == [pytest.approx(0.8)] * 4
    assert gc.isenabled()


@pytest.fixture
def valgrind() -> None:
    if shutil.which("valgrind") is None:
        pytest.skip(
            "NO VALGRIND: the instruction counts were not measured (.ci/run installs "
            "valgrind with apt-get)"
        )


@pytest.mark.usefixtures("valgrind")
def test_the_instruction_counts_read_each_run_of_the_rounds_apart(tmp_path: Path) -> None:
    out = tmp_path / "instructions.json"
    stdout = run_script(INSTRUCTIONS, "--quick", "--out", str(out), timeout=300)
    results = json.loads(out.read_text())
    ((tree, figures),) = results["trees"].items()
    assert Path(tree) == SCRIPT.parent.parent
    # run.py's rounds, in its order: each game on and off, turn about.
    runs = figures["runs"]
    assert [(r["rules"], r["collected"], r["first_seed"]) for r in runs] == [
        ("biriba", True, 0),
        ("biriba", False, 1_000_000),
        ("buraco", True, 0),
        ("buraco", False, 1_000_000),
        ("biriba", False, 1_000_002),
        ("biriba", True, 2),
        ("buraco", False, 1_000_002),
        ("buraco", True, 2),
    ]
    # Each count is one run's alone: two deals take millions of instructions, where
    # starting Python and importing the library take hundreds of millions.
    for r in runs:
        assert 1e6 < r["instructions"] < 2e8, r
        assert r["moves_per_deal"] > 50
    for game in ("biriba", "buraco"):
        on = [r["instructions"] for r in runs if r["rules"] == game and r["collected"]]
        assert figures[game]["rounds"] == on
        assert figures[game]["instructions_per_deal"] == sum(on) / 4
    ratios = figures["buraco_to_biriba_rounds"]
    assert ratios == [
        a / b for a, b in zip(figures["biriba"]["rounds"], figures["buraco"]["rounds"], strict=True)
    ]
    assert figures["buraco_to_biriba"] == statistics.median(ratios)
    assert f"{figures['buraco_to_biriba']:.3f} (median of rounds" in stdout


@pytest.mark.usefixtures("valgrind")
def test_two_trees_counted_at_once_are_compared(tmp_path: Path) -> None:
    out = tmp_path / "instructions.json"
    root = str(SCRIPT.parent.parent)
    stdout = run_script(
        INSTRUCTIONS, "--quick", "--tree", root, "--tree", root, "--out", str(out), timeout=300
    )
    compared = json.loads(out.read_text())["second_over_first"]
    # The same library twice: the same instructions, but for where the system lays out
    # each process's memory (cards hash by identity, so dictionaries probe differently).
    assert compared["biriba"] == pytest.approx(1, abs=0.01)
    assert compared["buraco"] == pytest.approx(1, abs=0.01)
    assert "the second tree's instructions over the first's" in stdout
    refused = run_script_refused(INSTRUCTIONS, "--tree", str(tmp_path))
    assert "holds no src/biriba" in refused


def test_the_reference_can_be_left_out_and_is_refused_when_missing(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    stdout = run_script(SCRIPT, "--quick", "--no-openspiel", "--out", str(out))
    assert "OpenSpiel gin rummy" in stdout
    assert "open_spiel_gin_rummy_games_per_s" not in json.loads(out.read_text())
    if importlib.util.find_spec("pyspiel") is None:
        refused = run_script_refused(SCRIPT, "--quick", "--openspiel", "--out", str(out))
        assert "needs the open_spiel package" in refused


def test_the_search_benchmark_reports_every_collector_setting(tmp_path: Path) -> None:
    out = tmp_path / "search.json"
    small = ["--quick", "--nodes", "2000", "--iterations", "300", "--no-openspiel"]
    stdout = run_script(SCRIPT.parent / "search.py", *small, "--out", str(out))
    results = json.loads(out.read_text())
    settings = results["settings"]
    assert list(settings) == ["default", "threshold", "freeze", "freeze+threshold", "disabled"]
    for name, values in settings.items():
        assert values["iterations_per_s"] > 0, name
        assert name in stdout
    # The collector is really set: disabled never collects, the default does.
    assert settings["disabled"]["collections"] == [0, 0, 0]
    assert settings["disabled"]["collector_share"] == 0
    assert settings["default"]["collections"][0] > 0
    assert settings["default"]["collections"][0] > settings["threshold"]["collections"][0]
    # benchmarks/table.py writes its table into the page's search block.
    page = tmp_path / "page.rst"
    page.write_text(".. search-start\n\nstale table\n\n.. search-end\n")
    table = SCRIPT.parent / "table.py"
    run_script(table, str(out), "--write", str(page), timeout=60)
    text = page.read_text()
    assert "stale table" not in text
    assert f"{settings['threshold']['iterations_per_s']:,.0f}" in text
    assert "``freeze+threshold``" in text


def test_the_table_of_figures_is_written_into_the_page(tmp_path: Path) -> None:
    results = tmp_path / "results.json"
    page = tmp_path / "page.rst"
    page.write_text("Before\n\n.. figures-start\n\nold table\n\n.. figures-end\n\nAfter\n")
    table = SCRIPT.parent / "table.py"
    run_script(SCRIPT, "--quick", "--no-openspiel", "--out", str(results))
    run_script(table, str(results), str(results), "--write", str(page))
    text = page.read_text()
    assert "old table" not in text
    assert text.startswith("Before\n\n.. figures-start\n")
    assert text.endswith(".. figures-end\n\nAfter\n")
    figure = f"{json.loads(results.read_text())['copy_per_s']:,.0f}"
    assert "``copy()`` / s" in text
    assert figure in text
    assert "OpenSpiel was not installed" in text


@pytest.mark.parametrize("rules", [BIRIBA, BURACO], ids=lambda r: r.name)
def test_playing_makes_no_reference_cycles(rules: RuleSet) -> None:
    # The performance page's advice on the garbage collector rests on this: everything
    # the library makes while deals are played, copied, undone, scored, written and read
    # is freed by reference counting, so a search may disable the collector for its part.
    gc.collect()
    gc.disable()
    try:
        for seed in range(6):
            deal = Deal.new(rules, seed=seed)
            rng = random.Random(seed)
            while not deal.is_over:
                deal.play(rng.choice(deal.legal_moves()))
                if not deal.is_over and rng.random() < 0.1:
                    copy = deal.copy()
                    copy.play_unchecked(rng.choice(copy.legal_moves()))
                    copy.undo()
            deal.score()
            deal.view(0).legal_moves()
            Deal.from_dict(deal.to_dict())
        found = gc.collect()
    finally:
        gc.enable()
    assert found == 0


@pytest.mark.parametrize("rules", [BIRIBA, BURACO], ids=lambda r: r.name)
def test_hands_are_bytes_the_collector_never_visits(rules: RuleSet) -> None:
    # Every move makes a new hand; as bytes (one a card) it is no container, so the
    # collector neither counts it towards its next run nor visits it (the performance
    # page: a tuple of 53 ints was both, a tenth of random deals' time in the collector).
    seen = []
    deal = Deal.new(rules, seed=4)
    rng = random.Random(4)
    while not deal.is_over:
        seen.append(deal.position)
        deal.play(rng.choice(deal.legal_moves()))
    seen.append(deal.position)
    seen.append(Deal.from_dict(deal.to_dict()).position)
    seen.append(deal.copy().position)
    seen.append(Deal.new(rules, seed=4).view(1).sample(random.Random(1)).position)
    for position in seen:
        for counts in (*position.hands, *position.known):
            assert type(counts) is bytes and len(counts) == 53  # never tracked by gc
        sizes = [size_of(position.sizes, seat) for seat in range(len(position.hands))]
        assert type(position.sizes) is int  # never tracked by gc either
        assert [sum(hand) for hand in position.hands] == sizes


def test_the_long_run_benchmark_times_the_same_deals_both_ways(tmp_path: Path) -> None:
    out = tmp_path / "long.json"
    stdout = run_script(LONG_RUN, "--quick", "--rules", "buraco", "--runs", "2", "--out", str(out))
    assert "long run / run.py's way" in stdout
    results = json.loads(out.read_text())
    assert results["rules"] == "buraco" and results["deals"] == 60
    assert stdout.startswith(f"buraco ({'compiled' if biriba.compiled else 'pure-Python'} build): ")
    assert results["compiled"] is biriba.compiled
    assert len(results["runs"]) == 2
    for row in results["runs"]:
        assert row["long_run_deals_per_s"] > 0 and row["run_py_deals_per_s"] > 0
    ratios = sorted(r["long_run_deals_per_s"] / r["run_py_deals_per_s"] for r in results["runs"])
    assert results["median_ratio"] == pytest.approx((ratios[0] + ratios[1]) / 2)
    # Python's own thresholds unless asked (run in a process of its own, the suite's
    # settings aside, so read from the script's own report).
    assert results["gc_thresholds"][0] != 50_000


def test_the_long_run_benchmark_raises_the_collectors_thresholds_when_asked(
    tmp_path: Path,
) -> None:
    out = tmp_path / "long.json"
    stdout = run_script(LONG_RUN, "--quick", "--runs", "1", "--threshold", "--out", str(out))
    assert "the collector's thresholds (50000, 20, 100)" in stdout
    assert json.loads(out.read_text())["gc_thresholds"] == [50_000, 20, 100]


def test_the_long_run_benchmark_refuses_an_unknown_rule_set() -> None:
    refused = run_script_refused(LONG_RUN, "--quick", "--rules", "nope")
    assert "no rule set named 'nope'" in refused


def test_the_rounds_script_plays_run_py_rounds_and_reports_the_collector() -> None:
    stdout = run_script(ROUNDS, "--rules", "buraco", "--rounds", "2", "--deals", "3")
    lines = stdout.splitlines()
    assert lines[0].startswith("buraco (") and "6 random deals in 2 rounds" in lines[0]
    for generation in range(3):
        assert f"collections of generation {generation}: " in lines[1 + generation]
    assert "full collections before the rounds, outside the deals' time: 2," in lines[4]
    # Without the full collection before each round, none is counted apart.
    quiet = run_script(ROUNDS, "--rounds", "1", "--deals", "2", "--no-collect")
    assert quiet.startswith("biriba (") and "full collections before" not in quiet
    # The census of the youngest generation: positions among what it visits (a deal
    # keeps each of its positions for undo).
    census = run_script(ROUNDS, "--rounds", "1", "--deals", "4", "--census")
    assert "the youngest generation at its collections: " in census
    assert any(line.split()[:1] == ["Position"] for line in census.splitlines())


def test_the_rounds_script_replays_each_round_with_the_caches_it_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stdout = run_script(ROUNDS, "--rounds", "1", "--deals", "2", "--replay")
    assert stdout.startswith("biriba (") and "2 random deals in 1 rounds" in stdout
    assert "each round played again with the caches it left" in stdout
    assert "times as fast" in stdout and "of the deals' time" in stdout
    lines = stdout.splitlines()
    assert lines[1].startswith("  collections, first playing: ") and "of generation 2" in lines[1]
    assert lines[2].startswith("  collections, played again: ")
    # The premise of the comparison: the second playing meets nothing new, so that no
    # part of a suit or rank is enumerated again, while the first (from emptied caches)
    # enumerates them.
    monkeypatch.syspath_prepend(str(ROUNDS.parent))
    spec = importlib.util.spec_from_file_location("benchmark_rounds_replay", ROUNDS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    # (The parts counted in the rule set's cache, not by wrapping the function that
    # stores them: the compiled build calls it directly, past the module's name.)
    calls: list[bool] = []
    real_deals = module.random_deals

    def noting_deals(count: int, rules: RuleSet, first: int, *, clear: bool = True) -> Any:
        before = len(enumeration._PLANS[rules].cache) if rules in enumeration._PLANS else 0
        result = real_deals(count, rules, first, clear=clear)
        calls.append(clear)
        after = len(enumeration._PLANS[rules].cache)
        # Emptied caches: parts enumerated (all that the cache holds); kept: none new.
        assert after > 0 if clear else after == before
        return result

    monkeypatch.setattr(module, "random_deals", noting_deals)
    first, again, first_log, again_log = module.replayed_rounds(BIRIBA, 2, 2)
    assert calls == [True, False, True, False]
    assert first > 0 and again > 0
    assert first_log is not again_log and gc.callbacks.count(first_log) == 0


def test_the_rounds_script_refuses_bad_arguments() -> None:
    assert "no rule set named 'nope'" in run_script_refused(ROUNDS, "--rules", "nope")
    assert "positive number" in run_script_refused(ROUNDS, "--rounds", "0")
    for other in (["--census"], ["--no-collect"], ["--keep", "all"]):
        refused = run_script_refused(ROUNDS, "--replay", *other)
        assert "--replay collects before each playing, keeps nothing, takes no census" in refused
    assert "invalid choice" in run_script_refused(ROUNDS, "--keep", "some")


def test_the_rounds_script_keeps_what_it_is_told_between_rounds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stdout = run_script(ROUNDS, "--rounds", "2", "--deals", "2", "--keep", "melds")
    assert "4 random deals in 2 rounds" in stdout and "keeping melds of the caches" in stdout
    monkeypatch.syspath_prepend(str(ROUNDS.parent))
    spec = importlib.util.spec_from_file_location("benchmark_rounds_keep", ROUNDS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for first, (keep, parts_kept, melds_kept) in enumerate(
        (
            ("nothing", False, False),
            ("melds", False, True),
            ("parts", True, False),
            ("all", True, True),
        )
    ):
        module.random_deals(2, BIRIBA, 10 * first, clear=True)  # new deals: both filled
        plan = enumeration._PLANS[BIRIBA]
        assert plan.cache and plan.lays
        module.empty_caches(keep)
        assert (bool(plan.cache), bool(plan.lays)) == (parts_kept, melds_kept), keep


def test_the_rounds_script_logs_each_collection_by_generation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.syspath_prepend(str(ROUNDS.parent))  # it imports run.py beside it
    spec = importlib.util.spec_from_file_location("benchmark_rounds", ROUNDS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    log = module.CollectorLog()
    was_enabled = gc.isenabled()
    gc.disable()  # only the collections asked for below
    gc.callbacks.append(log)
    try:
        gc.collect(0)
        gc.collect(2)
        gc.collect(2)
    finally:
        gc.callbacks.remove(log)
        if was_enabled:
            gc.enable()
    assert log.counts == [1, 0, 2]
    assert log.seconds[0] > 0 and log.seconds[1] == 0 and log.seconds[2] > 0
    assert log.census is None
    assert module.kind_of((b"", 1)) == "tuple of bytes" and module.kind_of(()) == "empty tuple"
    assert module.kind_of(BIRIBA) == "RuleSet"


def test_compare_times_two_trees_in_pairs(tmp_path: Path) -> None:
    # The repository's own tree against itself: each pair's two times, their ratio, and
    # the median of the ratios, printed and in the JSON.
    out = tmp_path / "compare.json"
    root = str(SCRIPT.parent.parent)
    stdout = run_script(
        COMPARE, root, root, "--quick", "--pairs", "3", "--rules", "buraco", "--out", str(out)
    )
    results = json.loads(out.read_text())
    assert results["rules"] == "buraco" and results["deals_per_process"] == 10
    pairs = results["pairs"]
    assert len(pairs) == 3 and all(old > 0 and new > 0 for old, new in pairs)
    median = statistics.median(new / old for old, new in pairs)
    assert results["median_new_over_old"] == pytest.approx(median)
    assert "3 pairs run at once" in stdout
    assert f"median {median:.3f}" in stdout


def test_compare_refuses_what_is_no_tree_or_no_preset(tmp_path: Path) -> None:
    root = str(SCRIPT.parent.parent)
    refused = run_script_refused(COMPARE, root, str(tmp_path), "--quick")
    assert "holds no src/biriba" in refused
    refused = run_script_refused(COMPARE, root, root, "--quick", "--rules", "nope")
    assert "no preset rule set named 'nope'" in refused
