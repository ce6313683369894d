"""Measure the search bots against GreedyBot over single deals: OpenSpiel's ISMCTS through
the ``python_biriba`` adapter (needs ``pip install biriba[openspiel]``), and the library's
MonteCarloBot. Prints each summary: win rates with 95% (Wilson) intervals.

Run ``python benchmarks/strength_search.py [--deals N] [--workers N] [--only ismcts|montecarlo]``.
With the defaults (400 deals each, 100 simulations per ISMCTS decision) each measurement
took about 50 minutes on the development machine (2 cores shared with other work); 400
deals keep every 95% interval within ±5 points.
"""

from __future__ import annotations

import argparse
import time
from functools import partial

from biriba.bots import GreedyBot, MonteCarloBot
from biriba.simulate import simulate


def main(argv: list[str] | None = None) -> int:
    """Run the measurements and print their summaries."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--seed", default="search")
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--only", choices=["ismcts", "montecarlo"], default=None)
    args = parser.parse_args(argv)
    if args.only in (None, "ismcts"):
        from biriba.openspiel import ISMCTSPlayer

        start = time.perf_counter()
        player = partial(ISMCTSPlayer, simulations=args.simulations)
        player.__name__ = "ISMCTS"  # type: ignore[attr-defined]
        found = simulate(
            [player, GreedyBot], deals=args.deals, seed=args.seed, workers=args.workers
        )
        print(
            f"ISMCTS ({args.simulations} simulations) against GreedyBot, single deals "
            f"({time.perf_counter() - start:.0f} s)"
        )
        print(found.summary(), end="\n\n", flush=True)
    if args.only in (None, "montecarlo"):
        start = time.perf_counter()
        found = simulate(
            [MonteCarloBot, GreedyBot], deals=args.deals, seed=args.seed, workers=args.workers
        )
        print(
            f"MonteCarloBot against GreedyBot, single deals ({time.perf_counter() - start:.0f} s)"
        )
        print(found.summary(), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
