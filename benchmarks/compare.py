"""Two source trees' random deals timed at the same time, one on each processor core.

On a shared machine the clock drifts by several percent from one minute to the next, more
than most changes between two commits. Timing the two trees one after the other lets that
drift fall on one of them; timing them at the same time lets it fall on both alike. Each
*pair* starts two processes together, one per tree, each pinned to its own core where the
system allows it; the next pair swaps the cores, so that a faster core favours neither.
Each process plays the deals of ``run.py``'s random-deal rounds (rounds of 60 from emptied
caches, uniform random play with checked ``play``, its processor time) with the library of
its tree.

Run ``python benchmarks/compare.py OLD_TREE NEW_TREE`` (each a directory holding
``src/biriba``, such as a ``git worktree`` of another commit; ``--rules buraco`` for
Buraco). It prints each pair's time of the new tree over the old one, and their median:
below 1 the new tree is faster. Two cores are needed for the pairs to run at once.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from run import cpu_name  # benchmarks/run.py, beside this script

from biriba import RuleSet

HERE = Path(__file__).parent

#: What each process runs: the deals of ``run.py``'s rounds, timed by the processor clock.
#: It uses only what every version of the library has (``Deal``, ``RuleSet.named``), and
#: empties the caches through whichever of them the tree has.
CHILD = """
import os, random, sys, time
core = int(sys.argv[4])
if core >= 0 and hasattr(os, "sched_setaffinity"):
    os.sched_setaffinity(0, {core})
# A different layout of memory in every process: objects of random number and sizes kept
# alive before the library is imported, so that where its objects fall is no property
# of the tree (two copies of one commit otherwise differ by 1 to 2%, every time).
pad = random.Random(int(sys.argv[5]))
kept = [bytes(pad.randrange(1, 512)) for _ in range(pad.randrange(0, 4096))]
kept += [[None] * pad.randrange(0, 64) for _ in range(pad.randrange(0, 2048))]
from biriba import Deal, RuleSet
from biriba import engine, enumeration

def clear():
    for module in (engine, enumeration):
        if hasattr(module, "clear_caches"):
            module.clear_caches()

rules = RuleSet.named(sys.argv[1])
rounds, deals = int(sys.argv[2]), int(sys.argv[3])
total = 0.0
for r in range(rounds):
    clear()
    start = time.process_time()
    for i in range(r * deals, (r + 1) * deals):
        deal = Deal.new(rules, seed=i, dealer=i % rules.players)
        rng = random.Random(i)
        while not deal.is_over:
            deal.play(rng.choice(deal.legal_moves()))
    total += time.process_time() - start
print(total)
"""


def _tree(path: str) -> Path:
    """``path`` as a source tree holding ``src/biriba``, or an argparse error."""
    tree = Path(path).resolve()
    if not (tree / "src" / "biriba" / "__init__.py").is_file():
        raise argparse.ArgumentTypeError(f"{path} holds no src/biriba")
    return tree


def _preset(name: str) -> str:
    """``name`` if it names a preset rule set, or an argparse error."""
    if name not in RuleSet.preset_names():
        raise argparse.ArgumentTypeError(f"no preset rule set named {name!r}")
    return name


def _start(
    tree: Path, rules: str, rounds: int, deals: int, core: int, layout: int
) -> subprocess.Popen[str]:
    """Start one process playing the deals with the library of ``tree`` on ``core``, its
    memory laid out by the seed ``layout``."""
    env = dict(os.environ, PYTHONPATH=str(tree / "src"), PYTHONHASHSEED="0")
    command = [sys.executable, "-c", CHILD, rules, str(rounds), str(deals), str(core), str(layout)]
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)


def _seconds(process: subprocess.Popen[str]) -> float:
    """The processor seconds a started process reports, once it has ended."""
    out, _ = process.communicate()
    if process.returncode != 0:
        raise SystemExit(f"a timing process failed (exit {process.returncode})")
    return float(out)


def pairs(
    old: Path, new: Path, rules: str, count: int, rounds: int, deals: int
) -> list[tuple[float, float]]:
    """``count`` pairs of (old tree's seconds, new tree's seconds), each pair timed at once,
    the cores swapped from one pair to the next (no pinning with fewer than two cores)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 0
    out = []
    for p in range(count):
        old_core, new_core = (p % 2, 1 - p % 2) if cores >= 2 else (-1, -1)
        running = (
            _start(old, rules, rounds, deals, old_core, 2 * p),
            _start(new, rules, rounds, deals, new_core, 2 * p + 1),
        )
        out.append((_seconds(running[0]), _seconds(running[1])))
    return out


def main(argv: list[str] | None = None) -> int:
    """Time the pairs, print each pair's ratio and the median, and write the JSON results."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("old", type=_tree, help="the tree to compare against")
    parser.add_argument("new", type=_tree, help="the tree measured")
    parser.add_argument(
        "--rules", type=_preset, default="biriba", help="a preset's name (default biriba)"
    )
    parser.add_argument("--pairs", type=int, default=8, help="pairs of runs (default 8)")
    parser.add_argument("--quick", action="store_true", help="a few seconds, fewer samples")
    parser.add_argument("--out", default=str(HERE / "results-compare.json"), help="JSON file")
    args = parser.parse_args(argv)
    if args.pairs < 1:
        parser.error("--pairs must be at least 1")
    rounds, deals = (1, 10) if args.quick else (9, 60)
    timed = pairs(args.old, args.new, args.rules, args.pairs, rounds, deals)
    ratios = [new / old for old, new in timed]
    print(f"{args.rules}: new / old processor time, {len(timed)} pairs run at once")
    for (old, new), ratio in zip(timed, ratios, strict=True):
        print(f"  {old:8.3f} s  {new:8.3f} s  {ratio:.3f}")
    median = statistics.median(ratios)
    print(f"median {median:.3f} (below 1: the new tree is faster)")
    results: dict[str, Any] = {
        "python": sys.version.split()[0],
        "cpu": cpu_name(),
        "rules": args.rules,
        "old": str(args.old),
        "new": str(args.new),
        "deals_per_process": rounds * deals,
        "pairs": [list(pair) for pair in timed],
        "median_new_over_old": median,
    }
    Path(args.out).write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
