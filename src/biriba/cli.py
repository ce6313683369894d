"""The ``biriba`` command line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

__all__ = ["main"]


def _demo(args: argparse.Namespace) -> int:
    from biriba.demo import run_demo

    run_demo(seed=args.seed, out=sys.stdout)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit code."""
    parser = argparse.ArgumentParser(prog="biriba", description=__doc__)
    sub = parser.add_subparsers(dest="command")
    demo = sub.add_parser("demo", help="play a seeded demo and print it")
    demo.add_argument("--seed", type=int, default=2026, help="the seed (default 2026)")
    demo.set_defaults(func=_demo)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        result: int = args.func(args)
    except BrokenPipeError:  # the output was cut short (``| head``): not an error
        sys.stderr.close()
        return 0
    return result
