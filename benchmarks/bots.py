"""Measure the bots' speed and the search's strength, each as a same-run comparison.

1. A GreedyBot step against a RandomBot step: over the positions of real deals (GreedyBot
   at every seat), a step is what a simulation does, ``bot.choose(deal.view(seat))`` and
   ``deal.play(move)`` (undone after). Both bots step through the same positions, pass
   after pass in turn, and the fastest pass of each counts. The same for a rollout's step
   inside the search (``deal.legal_moves()``, the heuristic on ``table_of(deal)``,
   ``play_unchecked``) against a random playout's step.
2. MonteCarloBot's time per decision, its defaults against the search of earlier versions
   (``horizon=60, prune=None``), over the same decisions of real deals, one after the
   other at each.
3. Their strength against GreedyBot over the same single deals, with 95% (Wilson)
   intervals.

Run ``python benchmarks/bots.py`` (about 20 minutes on 2 busy cores; ``--quick`` for a
few seconds, ``--no-strength`` for the speed alone).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from run import cpu_name  # benchmarks/run.py, beside this script

from biriba import Deal, Move, PlayerView
from biriba.bots import Bot, GreedyBot, MonteCarloBot, RandomBot
from biriba.bots.heuristics import greedy_choice, table_of
from biriba.simulate import simulate


def monte_carlo_before(seed: str) -> MonteCarloBot:
    """The search of earlier versions: every candidate in every sample, playouts of 60
    moves (``horizon=60, prune=None``)."""
    return MonteCarloBot(seed, horizon=60, prune=None)


def greedy_positions(deals: int, seed: str = "steps") -> list[Deal]:
    """Every position of ``deals`` deals played by GreedyBot at every seat, as deals."""
    found = []
    for i in range(deals):
        deal = Deal.new(seed=f"{seed}/{i}", dealer=i % 4)
        bots = [GreedyBot(seed=f"{seed}/{i}/{s}") for s in range(4)]
        while not deal.is_over:
            found.append(deal.copy())
            seat = deal.to_move
            assert seat is not None
            deal.play(bots[seat].choose(deal.view(seat)))
    return found


def _bot_pass(bot: Bot, positions: list[Deal]) -> float:
    """Seconds for one step of ``bot`` at each position, as a simulation steps."""
    start = time.perf_counter()
    for deal in positions:
        seat = deal.to_move
        assert seat is not None
        deal.play(bot.choose(deal.view(seat)))
        deal.undo()
    return time.perf_counter() - start


def _rollout_pass(choose: Callable[[Deal, random.Random], Move], positions: list[Deal]) -> float:
    """Seconds for one rollout step at each position: list, choose, play unchecked. Each
    step plays on a copy, which has not listed its moves yet, as in a rollout."""
    rng = random.Random(0)
    start = time.perf_counter()
    for deal in positions:
        trial = deal.copy()
        trial.play_unchecked(choose(trial, rng))
    return time.perf_counter() - start


def _random_rollout(deal: Deal, rng: random.Random) -> Move:
    return rng.choice(deal.legal_moves())


def _greedy_rollout(deal: Deal, rng: random.Random) -> Move:
    return greedy_choice(table_of(deal), deal.legal_moves(), rng)


def step_costs(deals: int, rounds: int) -> dict[str, float]:
    """Microseconds per step of each bot and their ratios (see the module's text)."""
    positions = greedy_positions(deals)
    passes: dict[str, list[float]] = {}
    runs: dict[str, Callable[[], float]] = {
        "random": lambda: _bot_pass(RandomBot(seed=0), positions),
        "greedy": lambda: _bot_pass(GreedyBot(seed=0), positions),
        "random_rollout": lambda: _rollout_pass(_random_rollout, positions),
        "greedy_rollout": lambda: _rollout_pass(_greedy_rollout, positions),
    }
    for run in runs.values():  # warm the caches of every kind of step
        run()
    for _ in range(rounds):
        for name, run in runs.items():
            passes.setdefault(name, []).append(run())
    out = {f"{name}_us": min(spent) / len(positions) * 1e6 for name, spent in passes.items()}
    out["positions"] = len(positions)
    out["greedy_to_random"] = out["greedy_us"] / out["random_us"]
    out["greedy_to_random_rollout"] = out["greedy_rollout_us"] / out["random_rollout_us"]
    return out


def decision_views(deals: int, every: int, seed: str = "decisions") -> list[tuple[Deal, int]]:
    """Each ``every``-th position of ``deals`` GreedyBot deals with a choice of moves, as
    (deal, seat to move): a fresh view is made for each bot."""
    found = []
    for i in range(deals):
        deal = Deal.new(seed=f"{seed}/{i}", dealer=i % 4)
        bots = [GreedyBot(seed=f"{seed}/{i}/{s}") for s in range(4)]
        k = 0
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            view = deal.view(seat)
            if len(view.legal_moves()) > 1:
                if k % every == 0:
                    found.append((deal.copy(), seat))
                k += 1
            deal.play(bots[seat].choose(view))
    return found


def decision_times(deals: int, every: int) -> dict[str, float]:
    """MonteCarloBot's milliseconds per decision: the defaults and the earlier search, in turn
    at each decision (first one, then the other), and how often they chose alike."""
    decisions = decision_views(deals, every)
    bots: dict[str, MonteCarloBot] = {
        "before": monte_carlo_before("time"),
        "now": MonteCarloBot("time"),
    }
    spent = dict.fromkeys(bots, 0.0)
    alike = 0
    for k, (deal, seat) in enumerate(decisions):
        order = list(bots) if k % 2 == 0 else list(reversed(bots))
        chosen: dict[str, Move] = {}
        for name in order:
            view: PlayerView = deal.view(seat)
            start = time.perf_counter()
            chosen[name] = bots[name].choose(view)
            spent[name] += time.perf_counter() - start
        alike += chosen["before"] == chosen["now"]
    out = {f"{name}_ms": total / len(decisions) * 1e3 for name, total in spent.items()}
    out["decisions"] = len(decisions)
    out["alike"] = alike / len(decisions)
    out["now_to_before"] = out["now_ms"] / out["before_ms"]
    return out


def strength(deals: int, workers: int | None, seed: str) -> dict[str, Any]:
    """Each search's wins against GreedyBot over the same ``deals`` single deals."""
    out: dict[str, Any] = {}
    for name, bot in (("before", monte_carlo_before), ("now", MonteCarloBot)):
        start = time.perf_counter()
        result = simulate([bot, GreedyBot], deals=deals, seed=seed, workers=workers)
        low, high = result.confidence_interval(0)
        out[name] = {
            "wins": result.wins[0],
            "ties": result.ties,
            "deals": result.games,
            "win_rate": result.win_rate(0),
            "interval": [low, high],
            "mean_score": result.mean_score(0),
            "greedy_mean_score": result.mean_score(1),
            "seconds": time.perf_counter() - start,
        }
    return out


def main(argv: list[str] | None = None) -> int:
    """Run the measurements and print them."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a few seconds, few samples")
    parser.add_argument("--no-strength", action="store_true", help="the speed alone")
    parser.add_argument("--deals", type=int, default=None, help="deals per strength run")
    parser.add_argument("--workers", type=int, default=None, help="processes (strength)")
    parser.add_argument("--seed", default="bots", help="the strength runs' seed")
    parser.add_argument("--out", default=None, help="write the figures to this JSON file")
    args = parser.parse_args(argv)
    quick = args.quick
    results: dict[str, Any] = {
        "python": sys.version.split()[0],
        "cpu": cpu_name(),
        "platform": platform.platform(),
    }
    print(f"biriba bots benchmark: Python {results['python']} on {results['cpu']}", flush=True)

    steps = step_costs(2 if quick else 30, 1 if quick else 5)
    results["steps"] = steps
    print(f"  step, over {steps['positions']:,.0f} positions of GreedyBot deals (us):")
    print(
        f"    simulation: random {steps['random_us']:.1f}, greedy {steps['greedy_us']:.1f}"
        f"  -> greedy / random {steps['greedy_to_random']:.2f}"
    )
    print(
        f"    rollout:    random {steps['random_rollout_us']:.1f}, "
        f"greedy {steps['greedy_rollout_us']:.1f}"
        f"  -> greedy / random {steps['greedy_to_random_rollout']:.2f}",
        flush=True,
    )

    times = decision_times(1 if quick else 12, 6 if quick else 3)
    results["decisions"] = times
    print(f"  MonteCarloBot, {times['decisions']:,.0f} decisions of GreedyBot deals (ms each):")
    print(
        f"    earlier {times['before_ms']:.1f}, defaults {times['now_ms']:.1f}"
        f"  -> defaults / earlier {times['now_to_before']:.2f} "
        f"(same move at {times['alike']:.0%})",
        flush=True,
    )

    if not args.no_strength:
        deals = args.deals or (2 if quick else 400)
        workers = 1 if quick and args.workers is None else args.workers
        found = strength(deals, workers, args.seed)
        results["strength"] = found
        print(f"  against GreedyBot, {deals} single deals (seed {args.seed!r}):")
        for name, label in (("before", "earlier"), ("now", "defaults")):
            row = found[name]
            low, high = row["interval"]
            print(
                f"    {label:<10} wins {row['wins']:>4} ({row['win_rate']:.1%}, "
                f"95% interval {low:.1%} - {high:.1%}), {row['seconds']:.0f} s",
                flush=True,
            )
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
