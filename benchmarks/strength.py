"""Measure the bots' strength: GreedyBot against RandomBot over matches, and the Monte
Carlo bot against GreedyBot over deals. Prints the summaries (a few minutes on 2 cores).

Run ``python benchmarks/strength.py [--matches N] [--deals N] [--workers N]``.
"""

from __future__ import annotations

import argparse
import time

from biriba.bots import GreedyBot, MonteCarloBot, RandomBot
from biriba.simulate import simulate


def main(argv: list[str] | None = None) -> int:
    """Run both measurements and print their summaries."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--seed", default="strength")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    greedy = simulate(
        [GreedyBot, RandomBot], matches=args.matches, seed=args.seed, workers=args.workers
    )
    print(f"GreedyBot against RandomBot, matches to 5000 ({time.perf_counter() - start:.0f} s)")
    print(greedy.summary(), end="\n\n", flush=True)
    start = time.perf_counter()
    search = simulate(
        [MonteCarloBot, GreedyBot], deals=args.deals, seed=args.seed, workers=args.workers
    )
    print(f"MonteCarloBot against GreedyBot, single deals ({time.perf_counter() - start:.0f} s)")
    print(search.summary())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
