"""``run.py``'s rounds of random deals, for a profiler, with the collector's work by generation.

``run.py`` times its random deals in rounds of 60, each from emptied caches. This script
plays the same rounds of one game (seeds ``60 * round`` on, the collector on), with no
reference and no other measure around them, so that a profiler run over the whole
process sees those deals and little else::

    $ python benchmarks/rounds.py --rounds 12
    $ perf record -F 2000 -o /tmp/perf.data python benchmarks/rounds.py --rounds 12
    $ perf report -i /tmp/perf.data --no-children --sort symbol

It prints the deals per second (processor time, as ``run.py``) and the garbage
collector's collections during the deals, by generation, timed with ``gc.callbacks``:
how many, their milliseconds and their share of the deals' time. Like ``run.py``, it
asks for a full collection before each round, outside the deals' time; those are
printed apart, because a profile of the process counts them with the rest
(``--no-collect`` leaves them out, as a program that plays on would: full collections
then fall inside the rounds). ``--census`` also counts, at each collection of the
youngest generation, what it is about to visit, by type.

``--replay`` plays each round twice, the second time at once and with the caches the
first left (every suit, rank, meld and addition already met), and prints how much faster
the second playing is: what meeting them the first time costs, as a share of the deals'
time. ``--keep melds``, ``--keep parts`` and ``--keep all`` keep that much of the
caches from one round to the next, as a program that plays deal after deal would.
"""

from __future__ import annotations

import argparse
import gc
import time
from collections import Counter
from typing import Any

from run import clear_caches, clock, random_deals  # benchmarks/run.py, beside this script

import biriba
from biriba import BiribaError, RuleSet, enumeration

#: ``run.py``'s round: this many deals from emptied caches.
ROUND = 60

#: What ``--keep`` may keep from one round to the next: nothing (as ``run.py``), the rule
#: set's table of melds (each meld with the additions it has worked out), the cached
#: parts (a suit's or a rank's melds and their moves), or every cache.
KEEPS = ("nothing", "melds", "parts", "all")


def empty_caches(keep: str) -> None:
    """Empty the caches before a round as ``run.py`` does, then put back what ``keep``
    (one of :data:`KEEPS`) names: every other cache is emptied, those added later too."""
    if keep == "all":
        return
    plans = list(enumeration._PLANS.values())
    parts = [dict(plan.cache) if keep == "parts" else {} for plan in plans]
    melds = [dict(plan.lays) if keep == "melds" else {} for plan in plans]
    clear_caches()
    for plan, kept_parts, kept_melds in zip(plans, parts, melds, strict=True):
        plan.cache.update(kept_parts)
        plan.lays.update(kept_melds)


def kind_of(thing: object) -> str:
    """What the census calls an object: its type's name, and for a tuple the type of its
    first item too (``tuple of bytes``: a position's hands)."""
    if type(thing) is tuple:
        # The items through the collector's own walk (last to first), which skips the
        # empty slots of a tuple still being filled, as the compiled build's tuples are
        # at a collection within their making (indexing one crashes the interpreter).
        items = gc.get_referents(thing)
        return f"tuple of {type(items[-1]).__name__}" if items else "empty tuple"
    return type(thing).__name__


class CollectorLog:
    """The collector's collections by generation while it is attached (``gc.callbacks``):
    ``counts[g]`` collections of generation ``g`` taking ``seconds[g]`` in all (wall
    clock: a collection is too short for the processor clock's resolution).

    With ``census``, each collection of the youngest generation first counts the objects
    it is about to visit by :func:`kind_of`, into :attr:`census` (which slows the deals:
    their times then say nothing)."""

    def __init__(self, census: bool = False) -> None:
        """An empty log, not attached."""
        self.counts = [0, 0, 0]
        self.seconds = [0.0, 0.0, 0.0]
        self.census: Counter[str] | None = Counter() if census else None
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        """The callback: ``phase`` is ``"start"`` or ``"stop"``, ``info`` names the
        generation."""
        if phase == "start":
            if self.census is not None and info["generation"] == 0:
                self.census.update(map(kind_of, gc.get_objects(generation=0)))
            self._started = time.perf_counter()
            return
        generation = info["generation"]
        self.counts[generation] += 1
        self.seconds[generation] += time.perf_counter() - self._started


def play_rounds(
    rules: RuleSet,
    rounds: int,
    deals: int,
    collect: bool = True,
    census: bool = False,
    keep: str = "nothing",
) -> tuple[float, float, CollectorLog]:
    """Play ``rounds`` rounds of ``deals`` random deals as ``run.py`` does (each from
    emptied caches but what ``keep`` names, seeds ``deals * round`` on, after a full
    collection unless ``collect`` is false); gives the processor seconds the deals took,
    the wall seconds of the full collections before the rounds (``run.py`` makes them
    outside its timing; a profile of the process sees them), and the log of the
    collections made while the deals ran (with ``census``, what the youngest generation
    held at each of its collections)."""
    log = CollectorLog(census)
    seconds = between = 0.0
    for r in range(rounds):
        if collect:
            between += full_collection()
        empty_caches(keep)
        gc.callbacks.append(log)
        try:
            start = clock()
            random_deals(deals, rules, r * deals, clear=False)
            seconds += clock() - start
        finally:
            gc.callbacks.remove(log)
    return seconds, between, log


def full_collection() -> float:
    """A full collection, as ``run.py`` makes before each run of deals: its wall seconds."""
    start = time.perf_counter()
    gc.collect()
    return time.perf_counter() - start


def replayed_rounds(
    rules: RuleSet, rounds: int, deals: int
) -> tuple[float, float, CollectorLog, CollectorLog]:
    """The processor seconds of ``run.py``'s rounds (as :func:`play_rounds`), and of the
    same rounds each played again at once with the caches its first playing left: every
    suit, rank, meld and addition the second playing meets was met already, so that the
    two differ by what meeting them the first time costs (the caches' work, and the
    objects made for it), the rest of a deal being the same. Each playing follows a full
    collection; the collections made during each are logged apart (first, then
    again)."""
    first = again = 0.0
    first_log, again_log = CollectorLog(), CollectorLog()
    for r in range(rounds):
        for clear, log in ((True, first_log), (False, again_log)):
            full_collection()
            gc.callbacks.append(log)
            try:
                start = clock()
                random_deals(deals, rules, r * deals, clear=clear)
                spent = clock() - start
            finally:
                gc.callbacks.remove(log)
            if clear:
                first += spent
            else:
                again += spent
    return first, again, first_log, again_log


def collections_line(log: CollectorLog, seconds: float) -> str:
    """The collections of ``log`` by generation, and their share of ``seconds``."""
    counts = ", ".join(f"{log.counts[g]:,} of generation {g}" for g in range(3))
    return f"{counts} ({sum(log.seconds) / seconds:.1%} of the time)"


def main() -> None:
    """Parse the arguments, play the rounds, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="biriba", help="a preset's name (default biriba)")
    parser.add_argument("--rounds", type=int, default=9, help="rounds to play (default 9)")
    parser.add_argument("--deals", type=int, default=ROUND, help=f"deals a round (default {ROUND})")
    parser.add_argument(
        "--no-collect",
        action="store_true",
        help="no full collection before each round (as a program that plays on would)",
    )
    parser.add_argument(
        "--census",
        action="store_true",
        help="count what each collection of the youngest generation visits (slow)",
    )
    parser.add_argument(
        "--replay",
        action="store_true",
        help="play each round again with the caches it left, and compare (what first "
        "meetings cost)",
    )
    parser.add_argument(
        "--keep",
        choices=KEEPS,
        default="nothing",
        help="what to keep of the caches from one round to the next (default nothing, as run.py)",
    )
    args = parser.parse_args()
    try:
        rules = RuleSet.named(args.rules)
    except BiribaError as error:
        parser.error(str(error))
    if args.rounds < 1 or args.deals < 1:
        parser.error("--rounds and --deals take a positive number")
    if args.replay and (args.census or args.no_collect or args.keep != "nothing"):
        parser.error("--replay collects before each playing, keeps nothing, takes no census")
    build = "compiled" if biriba.compiled else "pure-Python"
    if args.replay:
        first, again, first_log, again_log = replayed_rounds(rules, args.rounds, args.deals)
        played = args.rounds * args.deals
        print(
            f"{rules.name} ({build} build): {played} random deals in {args.rounds} rounds, "
            f"{played / first:,.0f} deals / s; each round played again with the caches it "
            f"left, {played / again:,.0f} deals / s, {first / again:.2f} times as fast: "
            f"meeting suits, ranks, melds and additions for the first time is "
            f"{1 - again / first:.0%} of the deals' time"
        )
        print(f"  collections, first playing: {collections_line(first_log, first)}")
        print(f"  collections, played again: {collections_line(again_log, again)}")
        return
    seconds, between, log = play_rounds(
        rules, args.rounds, args.deals, not args.no_collect, args.census, args.keep
    )
    played = args.rounds * args.deals
    print(
        f"{rules.name} ({build} build): {played} random deals in {args.rounds} rounds, "
        f"{played / seconds:,.0f} deals / s"
        + ("" if args.keep == "nothing" else f", keeping {args.keep} of the caches")
    )
    for generation in range(3):
        count = log.counts[generation]
        spent = log.seconds[generation]
        mean = f", {spent / count * 1e6:,.0f} us each" if count else ""
        print(
            f"  collections of generation {generation}: {count:,}, {spent * 1e3:,.1f} ms "
            f"({spent / seconds:.1%} of the deals' time){mean}"
        )
    if not args.no_collect:
        print(
            f"  full collections before the rounds, outside the deals' time: {args.rounds}, "
            f"{between * 1e3:,.1f} ms"
        )
    if log.census is not None:
        collections = max(log.counts[0], 1)
        total = sum(log.census.values())
        print(
            f"  the youngest generation at its collections: {total / collections:,.0f} "
            "objects each (the census slowed the deals: their times above say nothing)"
        )
        for kind, count in log.census.most_common(12):
            print(f"    {kind:28} {count / collections:8,.1f}  {count / total:6.1%}")


if __name__ == "__main__":
    main()
