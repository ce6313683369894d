"""A search-shaped benchmark: the engine's work in a tree search while a large tree is alive.

A search keeps a large graph of objects alive (here a tree of 100,000 nodes, each holding a
position, the move that led to it and the moves left to try, as a Monte Carlo tree search
would), and Python's garbage collector keeps visiting it. This script builds such a tree
from real deals, then times search iterations: copy a deal taken from the middle of a real
deal, play ``--plies`` random legal moves with ``play_unchecked``, add a node for the
first move's position to the tree (the tree grows as a search's does) and undo every move.

Each collector setting runs in a process of its own, which builds the same tree, sets
the collector and times ``--iterations`` iterations in one go, as a long search would run;
the settings take turns (``--rounds`` processes each, the order rotating from round to
round, so that the machine's drift falls on all alike):

* ``default``: Python's own thresholds;
* ``threshold``: ``gc.set_threshold(50_000, 20, 100)`` once the tree is built: far fewer
  collections of the young objects, and of the whole heap;
* ``freeze``: ``gc.freeze()`` once the tree is built, so that the collector no longer
  visits what existed then;
* ``freeze+threshold``: both;
* ``disabled``: ``gc.disable()``, the bound (a program may only do this if it makes no
  reference cycles, or collects them itself).

Times are the processor time of the process (see benchmarks/run.py's ``clock``). It
prints iterations per second, the share of time spent inside collections (timed with
``gc.callbacks``) and each setting's speed relative to ``disabled`` (the median of the
rounds' ratios) and, when ``open_spiel`` is installed, iterations per OpenSpiel gin rummy
game, the games measured between the rounds. Run ``python benchmarks/search.py`` (two to
four minutes; ``--quick`` for a few seconds); it writes ``benchmarks/results-search.json``.
See docs/performance.rst for the figures and the advice.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from run import GinReference, clock, cpu_name  # benchmarks/run.py, beside this script

import biriba
from biriba import Deal, Move
from biriba.position import Position

HERE = Path(__file__).parent


class Node:
    """A search tree's node: the move that led here, the position it reached, the moves not
    yet tried there, and visit statistics."""

    __slots__ = ("children", "move", "parent", "position", "total", "untried", "visits")

    def __init__(self, parent: Node | None, move: Move | None, position: Position | None) -> None:
        self.parent = parent
        self.move = move
        self.position = position
        self.children: list[Node] = []
        self.untried: list[Move] = []
        self.visits = 0
        self.total = 0.0
        if parent is not None:
            parent.children.append(self)


def build_tree(nodes: int) -> tuple[Node, list[Node]]:
    """A tree of ``nodes`` nodes from random deals (one branch per deal under the root), and
    every node of it. Each node holds the moves left to try at its position."""
    root = Node(None, None, None)
    every = [root]
    seed = 200_000
    while len(every) < nodes:
        deal = Deal.new(seed=seed, dealer=seed % 4)
        rng = random.Random(seed)
        seed += 1
        node = root
        while not deal.is_over and len(every) < nodes:
            moves = deal.legal_moves()
            move = rng.choice(moves)
            deal.play_unchecked(move)
            node = Node(node, move, deal.position)
            node.untried = [m for m in moves if m is not move]
            every.append(node)
    return root, every


def start_deals(count: int) -> list[Deal]:
    """Deals stopped at a random point of random play: the positions the search starts from."""
    out: list[Deal] = []
    seed = 300_000
    while len(out) < count:
        deal = Deal.new(seed=seed, dealer=seed % 4)
        rng = random.Random(seed)
        seed += 1
        for _ in range(rng.randrange(10, 200)):
            if deal.is_over:
                break
            deal.play_unchecked(rng.choice(deal.legal_moves()))
        if not deal.is_over:
            out.append(deal)
    return out


class CollectorClock:
    """Time spent inside the garbage collector's collections, through ``gc.callbacks``."""

    def __init__(self) -> None:
        self.spent = 0.0
        self.collections = [0, 0, 0]
        self._start = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = clock()
        else:
            self.spent += clock() - self._start
            self.collections[info["generation"]] += 1

    def __enter__(self) -> CollectorClock:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self)


def iterations(
    deals: list[Deal], tree: list[Node], count: int, plies: int, seed: int
) -> tuple[float, float, list[int]]:
    """Run ``count`` search iterations; return (iterations per second, share of the time
    spent in collections, collections by generation)."""
    rng = random.Random(seed)
    with CollectorClock() as collector:
        start = clock()
        for _ in range(count):
            deal = rng.choice(deals).copy()
            played = 0
            for _ply in range(plies):
                if deal.is_over:
                    break
                moves = deal.legal_moves()
                move = rng.choice(moves)
                deal.play_unchecked(move)
                played += 1
                if played == 1:
                    node = Node(rng.choice(tree), move, deal.position)
                    node.untried = list(deal.legal_moves())
                    tree.append(node)
            for _ply in range(played):
                deal.undo()
        elapsed = clock() - start
    return count / elapsed, collector.spent / elapsed, collector.collections


SETTINGS = ("default", "threshold", "freeze", "freeze+threshold", "disabled")


def apply_setting(name: str) -> None:
    """Set the collector as the setting ``name`` says (once the tree is built)."""
    if name in ("freeze", "freeze+threshold"):
        gc.freeze()
    if name in ("threshold", "freeze+threshold"):
        gc.set_threshold(50_000, 20, 100)
    if name == "disabled":
        gc.disable()


def one_setting(name: str, nodes: int, count: int, plies: int) -> dict[str, Any]:
    """Build the tree, set the collector, time ``count`` iterations: this process's part."""
    deals = start_deals(300)
    _root, tree = build_tree(nodes)
    for deal in deals:  # the start positions' move lists, as a search would have them
        deal.legal_moves()
    apply_setting(name)
    speed, share, counts = iterations(deals, tree, count, plies, 1)
    return {
        "setting": name,
        "iterations_per_s": speed,
        "collector_share": share,
        "collections": counts,
        "tree_nodes_at_end": len(tree),
    }


def search_benchmark(
    nodes: int, rounds: int, count: int, plies: int, gin: GinReference | None = None
) -> dict[str, Any]:
    """Each setting in a process of its own (built the same way, so each starts from the
    same state), ``rounds`` times in rotating order; OpenSpiel's gin rummy, when ``gin``
    is given, in this process after each round for as long as the default's iterations."""
    speeds: dict[str, list[float]] = {name: [] for name in SETTINGS}
    shares: dict[str, list[float]] = {name: [] for name in SETTINGS}
    collections: dict[str, list[int]] = {name: [0, 0, 0] for name in SETTINGS}
    reference = []
    for r in range(rounds):
        order = SETTINGS[r % len(SETTINGS) :] + SETTINGS[: r % len(SETTINGS)]
        for name in order:
            command = [
                sys.executable,
                str(Path(__file__).resolve()),
                "--one",
                name,
                "--nodes",
                str(nodes),
                "--iterations",
                str(count),
                "--plies",
                str(plies),
            ]
            done = subprocess.run(command, capture_output=True, text=True, check=True)
            part = json.loads(done.stdout)
            speeds[name].append(part["iterations_per_s"])
            shares[name].append(part["collector_share"])
            collections[name] = [
                a + b for a, b in zip(collections[name], part["collections"], strict=True)
            ]
        if gin is not None:
            reference.append(gin.games_per_second(count / speeds["default"][-1]))
    out: dict[str, Any] = {
        "nodes": nodes,
        "rounds": rounds,
        "iterations": count,
        "plies": plies,
        "settings": {},
    }
    for name in SETTINGS:
        out["settings"][name] = {
            "iterations_per_s": statistics.median(speeds[name]),
            "collector_share": statistics.median(shares[name]),
            "to_disabled": statistics.median(
                s / d for s, d in zip(speeds[name], speeds["disabled"], strict=True)
            ),
            "to_default": statistics.median(
                s / d for s, d in zip(speeds[name], speeds["default"], strict=True)
            ),
            "collections": collections[name],
        }
    if reference:
        gin_rate = statistics.median(reference)
        out["open_spiel_gin_rummy_games_per_s"] = gin_rate
        for values in out["settings"].values():
            values["per_gin_game"] = values["iterations_per_s"] / gin_rate
    return out


def print_table(results: dict[str, Any]) -> None:
    """The results as a small table."""
    print(
        f"search benchmark: a tree of {results['nodes']:,} nodes, {results['iterations']:,} "
        f"iterations of {results['plies']} plies, each setting in {results['rounds']} "
        f"processes, Python {results['python']} on {results['cpu']}"
        f" ({'compiled' if results['compiled'] else 'pure-Python'} build)"
    )
    gin = results.get("open_spiel_gin_rummy_games_per_s")
    head = f"  {'collector':<18} {'iterations/s':>13} {'in gc':>7} {'to disabled':>12}"
    print(head + (f" {'per gin game':>13}" if gin else ""))
    for name, values in results["settings"].items():
        line = (
            f"  {name:<18} {values['iterations_per_s']:>13,.0f} "
            f"{values['collector_share']:>7.1%} {values['to_disabled']:>12.2f}"
        )
        print(line + (f" {values['per_gin_game']:>13.1f}" if gin else ""))
    if gin:
        print(f"  OpenSpiel gin rummy games / s (C++ evaluate_bots): {gin:,.0f}")


def main(argv: list[str] | None = None) -> int:
    """Run the search benchmark, print it and write its JSON results."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a few seconds, a small tree")
    parser.add_argument("--nodes", type=int, default=None, help="tree size (100,000)")
    parser.add_argument("--plies", type=int, default=8, help="moves played per iteration")
    parser.add_argument("--rounds", type=int, default=None, help="processes per setting (3)")
    parser.add_argument("--iterations", type=int, default=None, help="per process (20,000)")
    parser.add_argument("--one", choices=SETTINGS, help=argparse.SUPPRESS)
    parser.add_argument("--out", default=str(HERE / "results-search.json"), help="JSON file")
    parser.add_argument(
        "--openspiel",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="measure OpenSpiel's gin rummy between the rounds (when installed)",
    )
    args = parser.parse_args(argv)
    gin = GinReference.load() if args.openspiel is not False else None
    if args.openspiel and gin is None:
        parser.error("--openspiel needs the open_spiel package (pip install open_spiel)")
    nodes = args.nodes or (5_000 if args.quick else 100_000)
    count = args.iterations or (1_000 if args.quick else 20_000)
    if args.one:
        print(json.dumps(one_setting(args.one, nodes, count, args.plies)))
        return 0
    rounds = args.rounds or (1 if args.quick else 3)
    results = search_benchmark(nodes, rounds, count, args.plies, gin)
    results["python"] = sys.version.split()[0]
    results["cpu"] = cpu_name()
    results["compiled"] = biriba.compiled
    results["command"] = " ".join(["python", "benchmarks/search.py", *(argv or sys.argv[1:])])
    print_table(results)
    Path(args.out).write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
