"""A small round-robin tournament between bots: the library's random and greedy ones.

Run it with ``python examples/tournament.py``; ``--deals N`` plays more deals per pairing.
"""

from __future__ import annotations

import argparse
import itertools

from biriba.simulate import simulate


def main(argv: list[str] | None = None) -> None:
    """Play every pairing of the bots named in the list, a few deals each."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=4, help="deals per pairing (at least 1)")
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error(f"--deals must be at least 1, got {args.deals}")
    names = ["random", "greedy"]
    points = dict.fromkeys(names, 0.0)
    for first, second in itertools.combinations(names, 2):
        result = simulate([first, second], deals=args.deals, seed="tournament", workers=1)
        print(f"{first} against {second}: {result.wins[0]} - {result.wins[1]}")
        points[first] += result.wins[0] + result.ties / 2
        points[second] += result.wins[1] + result.ties / 2
    for name, score in sorted(points.items(), key=lambda item: -item[1]):
        print(f"  {name:<8} {score:g}")


if __name__ == "__main__":
    main()
