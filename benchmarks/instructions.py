"""``run.py``'s rounds of random deals counted in instructions, which do not drift.

On the shared two-core machine the clock of one ``run.py`` run moves by a tenth and more
(its rounds' Buraco-to-Biriba ratios spread from 0.5 to 1.2 in one run), more than most
changes to the engine. The instructions a program executes do not move: ``valgrind
--tool=callgrind`` counts the same total for the same program, inputs and environment,
whatever else the machine does. This script plays ``run.py``'s rounds
(:func:`run.paired_rounds`: each game's deals with the garbage collector on and other deals
with it off, round after round, without the gin rummy reference) under callgrind, told to
write its counts each time the program reads the processor clock
(``--dump-before=time_process_time``). ``run.py``'s ``random_deals`` reads it only at the
start and at the end of each run of deals, so each run's instructions are read apart from
everything around it (emptying the caches, collecting between runs).

Run ``python benchmarks/instructions.py`` (about six minutes for the nine rounds of 60
deals; ``--quick`` for a few seconds). With ``--tree`` once or twice (directories holding
``src/biriba``, such as a ``git worktree`` of another commit; both measured at once, one
on each core), the library of each tree is measured with this checkout's ``run.py``; with
two, it also prints the second tree's instructions over the first's. It prints, for each
tree, each game's instructions per deal with the collector on and off, the collector's
share of them (in instructions per move, as ``run.py`` compares moves per second) and the
Buraco-to-Biriba ratio as ``run.py`` gives it (the median of the rounds' ratios of deals
per instruction) beside the ratio of the sums; it writes them into
``benchmarks/results-instructions.json``. Needs valgrind (``apt-get install valgrind``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from compare import _tree  # benchmarks/compare.py, beside this script

HERE = Path(__file__).parent
ROOT = HERE.parent

#: What each measured process runs: ``run.py``'s rounds of deals (``run.py`` taken from
#: beside this script, the library from the tree on ``PYTHONPATH``), each call of its
#: ``random_deals`` written down in order, then printed as JSON. The record is made
#: outside the clock readings that delimit a run, so it is counted in no run.
CHILD = """
import gc, json, runpy, sys
run = runpy.run_path(sys.argv[1], run_name="instructions")
paired_rounds = run["paired_rounds"]
played = []
deals_of = run["random_deals"]

def recorded(count, rules, first_seed=0):
    speed, moves = deals_of(count, rules, first_seed)
    played.append([rules.name, gc.isenabled(), first_seed, moves])
    return speed, moves

paired_rounds.__globals__["random_deals"] = recorded
paired_rounds(int(sys.argv[2]), int(sys.argv[3]), None)
print(json.dumps(played))
"""

#: The C function behind ``time.process_time`` in CPython, before which callgrind dumps.
CLOCK_FUNCTION = "time_process_time"


def _start(tree: Path, rounds: int, deals: int, out: Path) -> subprocess.Popen[str]:
    """Start one process playing the rounds with the library of ``tree`` under callgrind,
    its dumps written to ``out``, ``out.1``, ``out.2``, and so on."""
    env = dict(os.environ, PYTHONPATH=str(tree / "src"), PYTHONHASHSEED="0")
    command = [
        "valgrind",
        "--tool=callgrind",
        f"--dump-before={CLOCK_FUNCTION}",
        f"--callgrind-out-file={out}",
        sys.executable,
        "-c",
        CHILD,
        str(HERE / "run.py"),
        str(rounds),
        str(deals),
    ]
    return subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def dump_total(path: Path) -> int:
    """The instructions a callgrind dump counts (its ``summary:`` or ``totals:`` line)."""
    found = re.search(r"^(?:summary|totals):\s+(\d+)", path.read_text(), re.MULTILINE)
    if found is None:
        raise SystemExit(f"no total in the callgrind dump {path}")
    return int(found.group(1))


def runs_of(process: subprocess.Popen[str], out: Path) -> list[dict[str, Any]]:
    """The runs of deals a started process played, in order, once it has ended: each
    with its game, whether the collector was on, its first seed, its moves per deal and
    its instructions (the dump written at the clock reading that ended it)."""
    stdout, stderr = process.communicate()
    if process.returncode != 0:
        raise SystemExit(f"a measured process failed (exit {process.returncode}):\n{stderr}")
    played = json.loads(stdout)
    # Two clock readings a run and no other: a reading more would shift every run read.
    if (
        not Path(f"{out}.{2 * len(played)}").is_file()
        or Path(f"{out}.{2 * len(played) + 1}").exists()
    ):
        raise SystemExit("the process read the clock other than at the edges of its runs")
    # The first reading starts the first run (its dump holds what came before); each run
    # ends at the next reading, whose dump holds the run alone.
    runs = []
    for k, (rules, collected, seed, moves) in enumerate(played):
        instructions = dump_total(Path(f"{out}.{2 * k + 2}"))
        runs.append(
            {
                "rules": rules,
                "collected": collected,
                "first_seed": seed,
                "moves_per_deal": moves,
                "instructions": instructions,
            }
        )
    return runs


def summary(runs: list[dict[str, Any]], deals: int) -> dict[str, Any]:
    """The figures of one tree's runs: by game, instructions per deal with the collector
    on and off and the collector's share; the Buraco-to-Biriba ratio of each round."""

    def of(rules: str, collected: bool) -> list[dict[str, Any]]:
        return [r for r in runs if r["rules"] == rules and r["collected"] is collected]

    out: dict[str, Any] = {}
    for game in ("biriba", "buraco"):
        on, off = of(game, True), of(game, False)
        # Instructions per move, on against off, round by round (run.py's moves per second).
        shares = [
            1
            - (b["instructions"] / b["moves_per_deal"]) / (a["instructions"] / a["moves_per_deal"])
            for a, b in zip(on, off, strict=True)
        ]
        out[game] = {
            "instructions_per_deal": sum(r["instructions"] for r in on) / (len(on) * deals),
            "instructions_per_deal_no_gc": sum(r["instructions"] for r in off) / (len(off) * deals),
            "gc_share": statistics.median(shares),
            "rounds": [r["instructions"] for r in on],
        }
    # Buraco's deals per instruction over Biriba's, round by round, as run.py's ratio.
    ratios = [a / b for a, b in zip(out["biriba"]["rounds"], out["buraco"]["rounds"], strict=True)]
    out["buraco_to_biriba_rounds"] = ratios
    out["buraco_to_biriba"] = statistics.median(ratios)
    out["buraco_to_biriba_of_sums"] = sum(out["biriba"]["rounds"]) / sum(out["buraco"]["rounds"])
    return out


def report(tree: Path, figures: dict[str, Any]) -> None:
    """Print one tree's figures."""
    print(f"{tree}")
    for game in ("biriba", "buraco"):
        f = figures[game]
        print(
            f"  {game}: {f['instructions_per_deal'] / 1e6:,.2f} million instructions a deal, "
            f"{f['instructions_per_deal_no_gc'] / 1e6:,.2f} with the collector off; "
            f"the collector {f['gc_share']:.1%}"
        )
    ratios = figures["buraco_to_biriba_rounds"]
    print(
        f"  buraco deals / biriba deals: {figures['buraco_to_biriba']:.3f} (median of rounds, "
        f"{min(ratios):.3f} to {max(ratios):.3f}); {figures['buraco_to_biriba_of_sums']:.3f} "
        "of the sums"
    )


def main(argv: list[str] | None = None) -> int:
    """Count the rounds' instructions for each tree, print the figures and write the JSON."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--tree",
        type=_tree,
        action="append",
        help="a tree to measure (at most two; default: this checkout)",
    )
    parser.add_argument("--quick", action="store_true", help="a few seconds, fewer deals")
    parser.add_argument(
        "--out", default=str(HERE / "results-instructions.json"), help="the JSON file"
    )
    args = parser.parse_args(argv)
    trees: list[Path] = args.tree or [ROOT]
    if len(trees) > 2:
        parser.error("at most two trees")
    if shutil.which("valgrind") is None:
        parser.error("needs valgrind (apt-get install valgrind)")
    rounds, deals = (2, 2) if args.quick else (9, 60)
    results: dict[str, Any] = {
        "python": sys.version.split()[0],
        "rounds": rounds,
        "deals_per_round": deals,
        "trees": {},
    }
    with tempfile.TemporaryDirectory() as scratch:
        outs = [Path(scratch) / f"tree{i}.out" for i in range(len(trees))]
        running = [_start(tree, rounds, deals, out) for tree, out in zip(trees, outs, strict=True)]
        for tree, process, out in zip(trees, running, outs, strict=True):
            runs = runs_of(process, out)
            figures = summary(runs, deals)
            figures["runs"] = runs
            results["trees"][str(tree)] = figures
            report(tree, figures)
    if len(trees) == 2:
        first, second = (results["trees"][str(t)] for t in trees)
        results["second_over_first"] = {}
        for game in ("biriba", "buraco"):
            ratio = sum(second[game]["rounds"]) / sum(first[game]["rounds"])
            results["second_over_first"][game] = ratio
            print(f"{game}: the second tree's instructions over the first's {ratio:.4f}")
    Path(args.out).write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
