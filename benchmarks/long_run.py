"""Random deals per second in a long run, beside ``run.py``'s figure for the same deals.

``run.py`` plays its random deals in rounds of 60 from emptied caches, so that every
round starts cold and the figure never depends on what ran before it. A program that
plays deal after deal keeps the engine's caches (they are bounded) and meets again the
suits and ranks of earlier hands, so it runs faster than that figure. This script
measures by how much: the same deals timed both ways, in the same process, one right
after the other.

Each run takes deals not met before (seeds ``100_000 * run`` on), plays ``--warm`` other
deals to fill the caches as a long program would, times the deals with the caches kept,
then times them again as ``run.py`` does (rounds of 60, each from emptied caches). Both
are uniform random play with checked ``play``, the garbage collector on.

Run ``python benchmarks/long_run.py`` (about a minute; ``--quick`` for a few seconds,
``--rules buraco`` for Buraco). ``--threshold`` runs it all with the garbage collector's
thresholds raised as the performance page advises for a search
(``gc.set_threshold(50_000, 20, 100)``): a long run's caches hold a few hundred thousand
objects, which each of the collector's full collections visits.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import statistics
from collections.abc import Callable
from pathlib import Path

from run import clear_caches, clock, cpu_name  # benchmarks/run.py, beside this script

import biriba
from biriba import BiribaError, Deal, RuleSet

#: ``run.py``'s round: this many deals from emptied caches.
ROUND = 60

#: The collector's thresholds of ``--threshold``: those the performance page advises for a
#: search (fewer, larger collections of the young objects; full collections rare).
RAISED_THRESHOLDS = (50_000, 20, 100)


def play_deals(rules: RuleSet, first_seed: int, count: int) -> None:
    """Play the deals of seeds ``first_seed`` to ``first_seed + count - 1`` to the end by
    uniform random moves, as ``run.py`` does, without touching the caches."""
    for seed in range(first_seed, first_seed + count):
        deal = Deal.new(rules, seed=seed, dealer=seed % rules.players)
        rng = random.Random(seed)
        while not deal.is_over:
            deal.play(rng.choice(deal.legal_moves()))


def timed(function: Callable[..., object], *args: object) -> float:
    """The processor seconds ``function(*args)`` takes."""
    start = clock()
    function(*args)
    return clock() - start


def one_run(rules: RuleSet, first_seed: int, deals: int, warm: int) -> tuple[float, float]:
    """``(long run, run.py's way)``: deals per second of the same ``deals`` deals from
    ``first_seed``, first with the caches kept after ``warm`` other deals, then in rounds
    of :data:`ROUND` from emptied caches."""
    clear_caches()
    play_deals(rules, first_seed + 10 * deals, warm)
    kept = deals / timed(play_deals, rules, first_seed, deals)
    cold_time = 0.0
    for start in range(first_seed, first_seed + deals, ROUND):
        clear_caches()
        cold_time += timed(play_deals, rules, start, min(ROUND, first_seed + deals - start))
    return kept, deals / cold_time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="biriba", help="a preset's name (default biriba)")
    parser.add_argument("--deals", type=int, default=540, help="deals timed each way")
    parser.add_argument("--warm", type=int, default=2000, help="deals played first")
    parser.add_argument("--runs", type=int, default=3, help="runs, each on new deals")
    parser.add_argument("--quick", action="store_true", help="a few seconds: 60 deals, 60 warm")
    parser.add_argument("--out", type=Path, help="also write the figures as JSON here")
    parser.add_argument(
        "--threshold",
        action="store_true",
        help="raise the garbage collector's thresholds to "
        f"{RAISED_THRESHOLDS} for the whole run (default: Python's own)",
    )
    args = parser.parse_args()
    try:
        rules = RuleSet.named(args.rules)
    except BiribaError as error:
        parser.error(str(error))
    deals, warm = (ROUND, ROUND) if args.quick else (args.deals, args.warm)
    if deals < 1 or warm < 0 or args.runs < 1:
        parser.error("--deals and --runs must be positive, --warm not negative")
    if args.threshold:
        gc.set_threshold(*RAISED_THRESHOLDS)
    thresholds = gc.get_threshold()
    build = "compiled" if biriba.compiled else "pure-Python"
    print(
        f"{rules.name} ({build} build): {deals} random deals timed each way, after "
        f"{warm} other deals; the collector's thresholds {thresholds}; "
        f"Python {platform.python_version()} on {cpu_name()}"
    )
    rows = []
    for run in range(1, args.runs + 1):
        kept, cold = one_run(rules, 100_000 * run, deals, warm)
        rows.append({"long_run_deals_per_s": kept, "run_py_deals_per_s": cold})
        print(
            f"  run {run}: long run {kept:.0f} deals/s, run.py's way {cold:.0f} deals/s, "
            f"ratio {kept / cold:.3f}",
            flush=True,
        )
    ratio = statistics.median(r["long_run_deals_per_s"] / r["run_py_deals_per_s"] for r in rows)
    print(f"long run / run.py's way: {ratio:.3f} (median of {len(rows)} runs)")
    if args.out is not None:
        results = {
            "rules": rules.name,
            "compiled": biriba.compiled,
            "deals": deals,
            "warm": warm,
            "gc_thresholds": list(thresholds),
            "runs": rows,
        }
        results["median_ratio"] = ratio
        args.out.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
