"""Benchmark the engine: random deals, legal moves, copy, play+undo, score, positions; the
encoding for learning, and the OpenSpiel adapter against the library's own loop.

Standard library timing only. Run ``python benchmarks/run.py`` (about 20 seconds; ``--quick``
for a few seconds); it prints a table and writes ``benchmarks/results.json``.

When ``open_spiel`` is installed (``--no-openspiel`` leaves it out), OpenSpiel's gin rummy
is played in the same run by its C++ ``evaluate_bots`` with uniform random bots, in short
rounds alternating with the library's random deals, and every figure is also given per gin
rummy game: how many fit in the time one gin game takes.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import biriba
from biriba import BIRIBA, BURACO, Deal, Meld, Phase, PlayerView, RuleSet, engine, enumeration
from biriba.encoding import codec_for, observe, observe_sparse

HERE = Path(__file__).parent
T = TypeVar("T")

#: The clock of every figure: this process's processor time, so that the time other
#: programs take of a shared machine is not counted. Only the timings of single
#: ``legal_moves()`` calls (cold, in play) read the wall clock, ``time.perf_counter``:
#: reading the processor time costs about a microsecond.
clock = time.process_time


def cpu_name() -> str:
    """The processor's model name, as the system reports it."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def clear_caches() -> None:
    """Forget every cached move list and meld list (the melds of new deals start cold)."""
    engine.clear_caches()
    for plan in enumeration._PLANS.values():
        plan.cache.clear()


def random_deals(
    count: int, rules: RuleSet = BIRIBA, first_seed: int = 0, *, clear: bool = True
) -> tuple[float, float]:
    """Deals per second and moves per deal under uniform random play, checked ``play``: the
    deals of seeds ``first_seed`` to ``first_seed + count - 1``, from emptied caches
    (unless ``clear`` is false: with the caches as they are)."""
    if clear:
        clear_caches()
    moves = 0
    start = clock()
    for i in range(first_seed, first_seed + count):
        deal = Deal.new(rules, seed=i, dealer=i % rules.players)
        rng = random.Random(i)
        while not deal.is_over:
            deal.play(rng.choice(deal.legal_moves()))
            moves += 1
    elapsed = clock() - start
    return count / elapsed, moves / count


def without_collector(function: Callable[[], T]) -> T:
    """``function()`` with Python's garbage collector disabled, enabled again afterwards."""
    gc.disable()
    try:
        return function()
    finally:
        gc.enable()


class GinReference:
    """OpenSpiel's gin rummy played by its C++ ``evaluate_bots`` with two uniform random
    bots (``pyspiel.make_uniform_random_bot``), one seed per game: the reference every
    figure is divided by. Build it with :meth:`load`, which gives ``None`` when
    ``open_spiel`` is not installed."""

    def __init__(self, pyspiel: Any) -> None:
        self._pyspiel = pyspiel
        self._game = pyspiel.load_game("gin_rummy")
        self._seed = 0

    @classmethod
    def load(cls) -> GinReference | None:
        """The reference, or ``None`` without ``open_spiel``."""
        try:
            import pyspiel
        except ImportError:
            return None
        return cls(pyspiel)

    def games_per_second(self, seconds: float) -> float:
        """Games per second over whole games played for at least ``seconds``."""
        evaluate, bot = self._pyspiel.evaluate_bots, self._pyspiel.make_uniform_random_bot
        games = 0
        start = clock()
        while True:
            seed = self._seed
            self._seed += 1
            evaluate(self._game.new_initial_state(), [bot(p, seed) for p in (0, 1)], seed)
            games += 1
            elapsed = clock() - start
            if elapsed >= seconds:
                return games / elapsed


#: Where the seeds of the Biriba deals played with the collector disabled start, beside
#: each round's own: other deals than the collected run's, so that neither run of a round
#: replays deals whose melds the other has just met (the tables a process keeps, such as
#: the runs of ranks a suit can fill, are not emptied between runs: replaying the same
#: seeds made the second run about 2% faster).
UNCOLLECTED_SEEDS = 1_000_000


def _collected_and_not(
    rules: RuleSet, deals: int, seed: int, collected_first: bool
) -> tuple[float, float, float, float]:
    """One round of one game: ``deals`` random deals from ``seed`` with the collector on,
    and as many other deals (from ``seed + UNCOLLECTED_SEEDS``) with it disabled, the
    collected run first when ``collected_first``. Gives the collected run's deals per
    second and moves per deal, the uncollected run's deals per second, and the
    collector's share of the time, in moves per second."""

    def collected() -> tuple[float, float]:
        return random_deals(deals, rules, seed)

    def uncollected() -> tuple[float, float]:
        return without_collector(lambda: random_deals(deals, rules, seed + UNCOLLECTED_SEEDS))

    gc.collect()
    if collected_first:
        speed, count = collected()
        gc.collect()
        free, free_count = uncollected()
    else:
        free, free_count = uncollected()
        gc.collect()
        speed, count = collected()
    return speed, count, free, 1 - (speed * count) / (free * free_count)


def paired_rounds(rounds: int, deals: int, gin: GinReference | None) -> dict[str, Any]:
    """Random deals timed in ``rounds`` short rounds of ``deals`` deals each (new seeds every
    round), each round followed by as long a run of the OpenSpiel reference and by the
    same for Buraco. Each game plays its deals twice a round, with the garbage collector
    on and on other deals with it disabled, the two runs taking turns to go first: both
    games are measured by the same steps, so that neither meets more warmed tables than
    the other. Alternating short rounds lets the machine's drift fall on every measure
    alike: the ratios are the medians of each round's ratio. The collector's share
    compares moves per second, the two runs playing other deals.
    """
    biriba: list[float] = []
    no_gc: list[float] = []
    shares: list[float] = []
    buraco: list[float] = []
    buraco_no_gc: list[float] = []
    buraco_shares: list[float] = []
    reference: list[float] = []
    moves = buraco_moves = 0.0
    for r in range(rounds):
        seed = r * deals
        speed, count, free, share = _collected_and_not(BIRIBA, deals, seed, r % 2 == 0)
        biriba.append(speed)
        no_gc.append(free)
        shares.append(share)
        moves += count / rounds
        if gin is not None:
            reference.append(gin.games_per_second(deals / speed))
        other, count, other_free, share = _collected_and_not(BURACO, deals, seed, r % 2 == 0)
        buraco.append(other)
        buraco_no_gc.append(other_free)
        buraco_shares.append(share)
        buraco_moves += count / rounds
    # Each round's Buraco deals per second over its Biriba ones: one round's figure moves
    # by a tenth with the machine's load, the median of nine by about 0.02.
    buraco_ratios = [o / s for o, s in zip(buraco, biriba, strict=True)]
    out: dict[str, Any] = {
        "random_deals_per_s": statistics.median(biriba),
        "moves_per_deal": moves,
        "random_deals_per_s_no_gc": statistics.median(no_gc),
        "gc_share_of_random_deals": statistics.median(shares),
        "gc_share_rounds": shares,
        "random_buraco_deals_per_s": statistics.median(buraco),
        "random_buraco_deals_per_s_no_gc": statistics.median(buraco_no_gc),
        "buraco_gc_share": statistics.median(buraco_shares),
        "buraco_gc_share_rounds": buraco_shares,
        "buraco_moves_per_deal": buraco_moves,
        "buraco_to_biriba_deals": statistics.median(buraco_ratios),
        "buraco_to_biriba_rounds": buraco_ratios,
        "rounds": rounds,
        "deals_per_round": deals,
    }
    if reference:
        ratios = [s / g for s, g in zip(biriba, reference, strict=True)]
        out["open_spiel_gin_rummy_games_per_s"] = statistics.median(reference)
        out["ratio_to_open_spiel"] = statistics.median(ratios)
        out["ratio_to_open_spiel_rounds"] = ratios
    return out


def in_play_rates(count: int) -> dict[str, tuple[float, int]]:
    """``legal_moves()`` per second at play-phase positions as random playouts meet them
    (the first call at each position, with the library's caches as play leaves them),
    by hand size: 11 to 13, 19 to 21 and 28 to 32 cards. Each value is (rate, samples).
    ``main`` runs it with the garbage collector disabled."""
    buckets = {"12": (11, 13), "20": (19, 21), "30": (28, 32)}
    spent = dict.fromkeys(buckets, 0.0)
    seen = dict.fromkeys(buckets, 0)
    for i in range(count):
        deal = Deal.new(seed=70_000 + i, dealer=i % 4)
        rng = random.Random(i)
        while not deal.is_over:
            start = time.perf_counter()
            moves = deal.legal_moves()
            elapsed = time.perf_counter() - start
            seat = deal.to_move
            if deal.phase is Phase.PLAY and seat is not None:
                size = deal.hand_size(seat)
                for name, (low, high) in buckets.items():
                    if low <= size <= high:
                        spent[name] += elapsed
                        seen[name] += 1
            # Take the pile now and then, so that some hands grow large.
            take = [m for m in moves if str(m) == "take" and len(deal.discard_pile) > 2]
            deal.play(take[0] if take and rng.random() < 0.5 else rng.choice(moves))
    return {
        name: (seen[name] / spent[name] if spent[name] else 0.0, seen[name]) for name in buckets
    }


def sample_positions(count: int, seed: int = 1) -> list[dict[str, Any]]:
    """Positions of every phase, sampled from random play."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    i = 0
    while len(out) < count:
        deal = Deal.new(seed=10_000 + i, dealer=i % 4)
        i += 1
        while not deal.is_over:
            if rng.random() < 0.05:
                out.append(deal.to_dict())
            deal.play(rng.choice(deal.legal_moves()))
    return out[:count]


def play_positions(hand_size: int, count: int) -> list[dict[str, Any]]:
    """Play-phase positions whose player to move holds ``hand_size`` cards."""
    out: list[dict[str, Any]] = []
    i = 0
    while len(out) < count and i < 40 * count:
        deal = Deal.new(seed=50_000 + i, dealer=i % 4)
        rng = random.Random(i)
        i += 1
        for _ in range(600):
            if deal.is_over:
                break
            seat = deal.to_move
            if deal.phase is Phase.PLAY and seat is not None and deal.hand_size(seat) == hand_size:
                out.append(deal.to_dict())
                break
            moves = deal.legal_moves()
            # Take the pile whenever possible and meld little, so that hands grow.
            take = [m for m in moves if str(m) == "take" and len(deal.discard_pile) > 1]
            quiet = [m for m in moves if str(m).startswith(("draw", "discard", "pass"))]
            deal.play(take[0] if take else rng.choice(quiet or moves))
    return out


def rate(function: Callable[[], object], repeat: int) -> float:
    """Calls per second of ``function`` over ``repeat`` calls."""
    start = clock()
    for _ in range(repeat):
        function()
    return repeat / (clock() - start)


def legal_moves_rates(positions: list[dict[str, Any]]) -> tuple[float, float, float]:
    """``legal_moves()`` per second over ``positions``: (cold, regenerated, cached).

    Cold: every cache emptied before each call, and the tables a process keeps once made
    (``enumeration.clear_tables``), so nothing about the position is known: the cost of
    a first call in a fresh process.
    Regenerated: the whole list made again by the engine (the deal's remembered list is
    not used), from the library's caches of melds by suit and by rank as earlier calls
    left them. Cached: the deal's list of its current position, as a second call gets it.
    """
    cold_time = 0.0
    for data in positions:
        deal = Deal.from_dict(data)
        # from_dict checks that a legal move exists, which warms the caches: give the
        # position fresh meld objects and clear the global caches, so nothing is cached.
        fresh = tuple(tuple(Meld.parse(str(m)) for m in ms) for ms in deal.position.melds)
        position = deal.position._replace(melds=fresh)
        rules_engine = engine.engine_for(deal.rules)
        clear_caches()
        enumeration.clear_tables()
        start = time.perf_counter()
        rules_engine.legal_moves(position)
        cold_time += time.perf_counter() - start
    deals = [Deal.from_dict(d) for d in positions]
    for deal in deals:
        deal.legal_moves()
    rounds = 20
    pairs = [(engine.engine_for(deal.rules), deal.position) for deal in deals]
    start = clock()
    for _ in range(rounds):
        for rules_engine, position in pairs:
            rules_engine.legal_moves(position)
    regenerated = rounds * len(deals) / (clock() - start)
    rounds = 50
    start = clock()
    for _ in range(rounds):
        for deal in deals:
            deal.legal_moves()
    cached = rounds * len(deals) / (clock() - start)
    return len(positions) / cold_time, regenerated, cached


def mid_deal_views(count: int) -> list[PlayerView]:
    """The view of the seat to move after 120 moves of random play (mid-deal: melds on
    the table, a discard pile, known cards)."""
    views = []
    for i in range(count):
        deal = Deal.new(seed=90_000 + i, dealer=i % 4)
        rng = random.Random(i)
        for _ in range(120):
            if deal.is_over:
                break
            deal.play(rng.choice(deal.legal_moves()))
        if deal.to_move is not None:
            views.append(deal.view(deal.to_move))
    return views


def encoding_times(count: int, repeat: int) -> dict[str, float]:
    """Microseconds per call of the encoding (biriba.encoding) on mid-deal views: the
    observation, full and compact, and the legal ids of the seat to move. Each is the best
    of ``repeat`` rounds over every view, as ``timeit`` advises: the other rounds only add
    what other programs took of the processor."""
    views = mid_deal_views(count)
    codec = codec_for(BIRIBA)
    for view in views:
        view.legal_moves()  # listed once: the codec's own cost is timed

    def best(function: Callable[[PlayerView], object]) -> float:
        rounds = []
        for _ in range(repeat):
            start = clock()
            for view in views:
                function(view)
            rounds.append((clock() - start) / len(views) * 1e6)
        return min(rounds)

    return {
        "observe_full_us": best(observe),
        "observe_compact_us": best(lambda v: observe(v, compact=True)),
        "observe_sparse_us": best(observe_sparse),
        "legal_ids_us": best(codec.legal_ids),
    }


def _chance(outcomes: list[tuple[int, float]], rng: random.Random) -> int:
    """An outcome drawn by its probability."""
    point = rng.random()
    for action, probability in outcomes:
        point -= probability
        if point < 0:
            return action
    return outcomes[-1][0]


def adapter_costs(count: int, rounds: int) -> dict[str, float] | None:
    """Microseconds per move of uniform random deals played through the library (checked
    ``play``), through OpenSpiel's state API of ``python_biriba`` (dealing by its chance
    nodes included), and through that API with an observation tensor of the seat to move
    at every move; the same deals, run in turn ``rounds`` times in this process. ``None``
    when biriba[openspiel] is not installed."""
    try:
        import pyspiel

        from biriba import openspiel  # noqa: F401  (registers python_biriba)
    except ImportError:
        return None
    game = pyspiel.load_game("python_biriba")

    def library() -> int:
        moves = 0
        for i in range(count):
            deal = Deal.new(seed=i)
            rng = random.Random(i)
            while not deal.is_over:
                deal.play(rng.choice(deal.legal_moves()))
                moves += 1
        return moves

    def spiel(tensor: bool) -> int:
        moves = 0
        for i in range(count):
            state = game.new_initial_state()
            rng = random.Random(i)
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(_chance(state.chance_outcomes(), rng))
                    continue
                if tensor:
                    state.observation_tensor(state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
                moves += 1
        return moves

    runs: dict[str, Callable[[], int]] = {
        "library_us_per_move": library,
        "open_spiel_us_per_move": lambda: spiel(False),
        "open_spiel_tensor_us_per_move": lambda: spiel(True),
    }
    spent = dict.fromkeys(runs, 0.0)
    moves = dict.fromkeys(runs, 0)
    for _ in range(rounds):
        for name, run in runs.items():
            clear_caches()  # each run starts from the same cold caches
            start = clock()
            moves[name] += run()
            spent[name] += clock() - start
    out = {name: spent[name] / moves[name] * 1e6 for name in runs}
    out["open_spiel_ratio"] = out["open_spiel_us_per_move"] / out["library_us_per_move"]
    out["open_spiel_tensor_ratio"] = (
        out["open_spiel_tensor_us_per_move"] / out["library_us_per_move"]
    )
    return out


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark, print the table and write the JSON results."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a few seconds, fewer samples")
    parser.add_argument("--out", default=str(HERE / "results.json"), help="the JSON file")
    parser.add_argument(
        "--openspiel",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="measure OpenSpiel's gin rummy beside the deals and give every figure as a "
        "ratio to its games per second (the default when open_spiel is installed)",
    )
    args = parser.parse_args(argv)
    gin = GinReference.load() if args.openspiel is not False else None
    if args.openspiel and gin is None:
        parser.error("--openspiel needs the open_spiel package (pip install open_spiel)")
    scale = 0.1 if args.quick else 1.0
    results: dict[str, Any] = {
        "python": sys.version.split()[0],
        "compiled": biriba.compiled,
        "cpu": cpu_name(),
        "platform": platform.platform(),
        "command": " ".join(["python", "benchmarks/run.py", *(argv or sys.argv[1:])]),
    }
    results.update(paired_rounds(3 if args.quick else 9, 8 if args.quick else 60, gin))
    deals_per_s = results["random_deals_per_s"]

    sampled = sample_positions(max(20, int(300 * scale)))
    results["legal_moves_per_s_all_phases"] = legal_moves_rates(sampled)
    for size in (12, 20, 30):
        positions = play_positions(size, max(5, int(40 * scale)))
        if positions:
            results[f"legal_moves_per_s_{size}_cards"] = legal_moves_rates(positions)
            results[f"positions_{size}_cards"] = len(positions)

    # With the collector off: one full collection (about 30 ms once the earlier measures
    # have filled the caches) falling into one of the few dozen calls of 20 cards made
    # their mean ten times slower. The collector's share is in the random deals' rows.
    results["legal_moves_in_play"] = without_collector(
        lambda: in_play_rates(max(10, int(150 * scale)))
    )

    deals = [Deal.from_dict(d) for d in sampled]
    repeat = max(1000, int(20_000 * scale))
    results["copy_per_s"] = rate(lambda: deals[7].copy(), repeat)
    results["score_per_s"] = rate(lambda: deals[7].score(), repeat)
    results["to_dict_per_s"] = rate(lambda: deals[7].to_dict(), repeat // 5)
    data = sampled[7]
    results["from_dict_per_s"] = rate(lambda: Deal.from_dict(data), repeat // 20)
    live = [d for d in deals if not d.is_over]
    pairs = [(d, d.legal_moves()[0]) for d in live]

    def play_undo() -> None:
        for deal, move in pairs:
            deal.play(move)
            deal.undo()

    results["play_undo_per_s"] = rate(play_undo, max(10, repeat // 200)) * len(pairs)
    results["encoding"] = encoding_times(max(10, int(40 * scale)), max(5, int(50 * scale)))
    results["adapters"] = adapter_costs(max(2, int(20 * scale)), 1 if args.quick else 3)
    spiel = results.get("open_spiel_gin_rummy_games_per_s")

    def per_gin(per_second: float) -> str:
        """How many fit in the time of one gin rummy game."""
        if not spiel:
            return ""
        ratio = per_second / spiel
        return f"{ratio:,.2f}" if ratio < 100 else f"{ratio:,.0f}"

    per_gin_game: dict[str, Any] = {}
    rows: list[tuple[str, str, str]] = [
        (
            "random deals / s (checked play)",
            f"{deals_per_s:,.0f}",
            f"{results['ratio_to_open_spiel']:.2f}" if spiel else "",  # the rounds' median
        ),
        (
            "  the same, garbage collector disabled",
            f"{results['random_deals_per_s_no_gc']:,.0f}",
            per_gin(results["random_deals_per_s_no_gc"]),
        ),
        ("  share of the time in the collector", f"{results['gc_share_of_random_deals']:.0%}", ""),
        ("moves per deal", f"{results['moves_per_deal']:,.0f}", ""),
        (
            "random buraco deals / s (checked play)",
            f"{results['random_buraco_deals_per_s']:,.0f}",
            per_gin(results["random_buraco_deals_per_s"]),
        ),
        (
            "  the same, garbage collector disabled",
            f"{results['random_buraco_deals_per_s_no_gc']:,.0f}",
            per_gin(results["random_buraco_deals_per_s_no_gc"]),
        ),
        ("  share of the time in the collector", f"{results['buraco_gc_share']:.0%}", ""),
        ("buraco moves per deal", f"{results['buraco_moves_per_deal']:,.0f}", ""),
        (
            "buraco deals / biriba deals (median of rounds)",
            f"{results['buraco_to_biriba_deals']:.2f}",
            f"{min(results['buraco_to_biriba_rounds']):.2f} to "
            f"{max(results['buraco_to_biriba_rounds']):.2f}",
        ),
        ("legal_moves / s: cold / regenerated / cached", "", ""),
    ]
    for key in (
        "random_deals_per_s",
        "random_deals_per_s_no_gc",
        "random_buraco_deals_per_s",
        "random_buraco_deals_per_s_no_gc",
    ):
        per_gin_game[key] = results[key]
    for key, label in (
        ("legal_moves_per_s_all_phases", "  all phases"),
        ("legal_moves_per_s_12_cards", "  12 cards"),
        ("legal_moves_per_s_20_cards", "  20 cards"),
        ("legal_moves_per_s_30_cards", "  30 cards"),
    ):
        if key in results:
            cold, regenerated, cached = results[key]
            rows.append(
                (
                    label,
                    f"{cold:,.0f} / {regenerated:,.0f} / {cached:,.0f}",
                    " / ".join(per_gin(x) for x in (cold, regenerated, cached)) if spiel else "",
                )
            )
            per_gin_game[key] = results[key]
    for name, (speed, samples) in results["legal_moves_in_play"].items():
        if samples:  # random play seldom grows a hand to 30 cards
            rows.append(
                (f"legal_moves / s in play, about {name} cards", f"{speed:,.0f}", per_gin(speed))
            )
            per_gin_game[f"legal_moves_in_play_{name}"] = speed
    for key, label in (
        ("copy_per_s", "copy() / s"),
        ("play_undo_per_s", "play() + undo() / s"),
        ("score_per_s", "score() / s"),
        ("to_dict_per_s", "to_dict() / s"),
        ("from_dict_per_s", "from_dict() / s"),
    ):
        rows.append((label, f"{results[key]:,.0f}", per_gin(results[key])))
        per_gin_game[key] = results[key]
    encoding = results["encoding"]
    rows.append(("mid-deal observation, full / compact (us)", "", ""))
    full, compact = encoding["observe_full_us"], encoding["observe_compact_us"]
    rows.append(
        (
            "  observe()",
            f"{full:.1f} / {compact:.1f}",
            f"{per_gin(1e6 / full)} / {per_gin(1e6 / compact)}" if spiel else "",
        )
    )
    rows.append(
        (
            "  observe_sparse(), full",
            f"{encoding['observe_sparse_us']:.1f}",
            per_gin(1e6 / encoding["observe_sparse_us"]),
        )
    )
    rows.append(
        (
            "legal ids of a view (us)",
            f"{encoding['legal_ids_us']:.1f}",
            per_gin(1e6 / encoding["legal_ids_us"]),
        )
    )
    for key, value in encoding.items():
        per_gin_game[key.replace("_us", "_per_s")] = 1e6 / value
    adapters = results["adapters"]
    if adapters:
        library, state_api = adapters["library_us_per_move"], adapters["open_spiel_us_per_move"]
        tensor = adapters["open_spiel_tensor_us_per_move"]
        rows.append(("us per move: library / python_biriba", "", ""))
        rows.append(
            (
                "  state API",
                f"{library:.0f} / {state_api:.0f} ({adapters['open_spiel_ratio']:.2f}x)",
                f"{per_gin(1e6 / library)} / {per_gin(1e6 / state_api)}" if spiel else "",
            )
        )
        rows.append(
            (
                "  state API + observation tensor",
                f"{library:.0f} / {tensor:.0f} ({adapters['open_spiel_tensor_ratio']:.2f}x)",
                f"{per_gin(1e6 / library)} / {per_gin(1e6 / tensor)}" if spiel else "",
            )
        )
        per_gin_game["library_moves_per_s"] = 1e6 / library
        per_gin_game["python_biriba_moves_per_s"] = 1e6 / state_api
        per_gin_game["python_biriba_tensor_moves_per_s"] = 1e6 / tensor
    else:
        rows.append(("python_biriba (biriba[openspiel])", "not installed", ""))
    if spiel:
        rows.append(("OpenSpiel gin rummy games / s (C++ evaluate_bots)", f"{spiel:,.0f}", "1"))
        rounds = results["ratio_to_open_spiel_rounds"]
        rows.append(
            (
                "deals / gin games (median of rounds)",
                f"{results['ratio_to_open_spiel']:.2f}",
                f"{min(rounds):.2f} to {max(rounds):.2f}",
            )
        )
        results["per_gin_game"] = {
            key: [x / spiel for x in value] if isinstance(value, tuple | list) else value / spiel
            for key, value in per_gin_game.items()
        }
        # Deals per gin game: the median of the rounds' ratios, as printed.
        results["per_gin_game"]["random_deals_per_s"] = results["ratio_to_open_spiel"]
    else:
        rows.append(("OpenSpiel gin rummy", "not measured", ""))
    build = "compiled build" if results["compiled"] else "pure-Python build"
    print(f"biriba benchmark ({build}): Python {results['python']} on {results['cpu']}")
    width = max(len(r[0]) for r in rows)
    if spiel:
        print(f"  {'':<{width}}  {'figure':>26}  {'per gin game':>22}")
    for label, value, ratio in rows:
        print(f"  {label:<{width}}  {value:>26}  {ratio:>22}".rstrip())
    Path(args.out).write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
