"""Simulation: many deals or matches between bots, in parallel through any executor.

    >>> from biriba.bots import GreedyBot, RandomBot
    >>> result = simulate([GreedyBot, RandomBot], deals=4, seed=1, workers=1)
    >>> result.games, result.names
    (4, ('GreedyBot', 'RandomBot'))
    >>> result.wins[0] + result.wins[1] + result.ties == 4
    True

There is one bot per team: two under ``biriba``, three under a rule set of three teams
(``biriba-3``, ``biriba-6``). Game ``i`` is shuffled with the seed ``f"{seed}/{i}"`` and the
bots move round the teams from one game to the next (bot ``b`` plays team ``(b + i) %
teams``), so the results are the same for a given seed whatever the number of
workers or the executor. Any :class:`concurrent.futures.Executor` works: a process pool
(the default), a thread pool, or a cluster's executor such as Dask's
``client.get_executor()``; the bots must then be picklable (classes and module-level
functions are).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import math
import pickle
import signal
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Final

import attrs

from biriba.bots import Bot, GreedyBot, MonteCarloBot, RandomBot, play_deal
from biriba.deal import Deal
from biriba.errors import BiribaError
from biriba.limits import MAX_DEALS, check_count, check_real, check_seed, excerpt
from biriba.match import Match
from biriba.rules import BIRIBA, RuleSet, check_rules

__all__ = ["BOTS", "MAX_WORKERS", "BotFactory", "GameResult", "SimulationResult", "simulate"]

#: A bot factory: called with a seed, it returns a fresh bot.
BotFactory = Callable[[str], Bot]

#: The bots known by name (the command line's ``--bots``).
BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "montecarlo": MonteCarloBot,
}


@attrs.frozen
class GameResult:
    """One game: each bot's score (its team's total) and the winning bot, if any."""

    #: The game's number.
    index: int
    #: Each bot's score: its team's total.
    scores: tuple[int, ...]
    #: The bot with the highest score, ``None`` when the highest is shared.
    winner: int | None
    #: The deals played.
    deals: int


@attrs.frozen
class SimulationResult:
    """The outcome of a simulation between bots, one per team."""

    #: The bots' names, in the order they were given.
    names: tuple[str, ...]
    #: Every game's result, in game order.
    results: tuple[GameResult, ...]
    #: ``"deals"`` or ``"matches"``.
    kind: str

    @property
    def games(self) -> int:
        """How many games were played."""
        return len(self.results)

    @property
    def wins(self) -> tuple[int, ...]:
        """Games won by each bot."""
        return tuple(
            sum(1 for r in self.results if r.winner == bot) for bot in range(len(self.names))
        )

    @property
    def ties(self) -> int:
        """Games no bot won (the highest score shared)."""
        return sum(1 for r in self.results if r.winner is None)

    def _check_bot(self, bot: object) -> int:
        """``bot`` if it is a place in :attr:`names`, else :class:`TypeError` or
        :class:`~biriba.BiribaError`."""
        bot = check_count(bot, "a bot's place in names", 0)  # (any integer type)
        if not 0 <= bot < len(self.names):
            raise BiribaError(
                f"bot {excerpt(bot)} is out of range 0..{len(self.names) - 1} (its place in names)"
            )
        return bot

    def win_rate(self, bot: int) -> float:
        """The share of games ``bot`` (its place in :attr:`names`) won."""
        bot = self._check_bot(bot)
        return self.wins[bot] / self.games if self.games else 0.0

    def confidence_interval(self, bot: int, z: float = 1.96) -> tuple[float, float]:
        """The Wilson score interval of ``bot``'s win rate (95% by default; ``z`` a finite
        number above 0)."""
        bot = self._check_bot(bot)
        z = check_real(z, "z", 0, above=True)
        n = self.games
        if not n:
            return (0.0, 1.0)
        p = self.win_rate(bot)
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        # Rounding must not put the rate itself outside its interval (p = 0 or 1).
        return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))

    def mean_score(self, bot: int) -> float:
        """``bot``'s average score per game."""
        bot = self._check_bot(bot)
        if not self.games:
            return 0.0
        return sum(r.scores[bot] for r in self.results) / self.games

    def summary(self) -> str:
        """A plain-text table of the results."""
        unit = "deal" if self.kind == "deals" else "match"
        plural = "" if self.games == 1 else "s" if unit == "deal" else "es"
        lines = [f"{self.games} {unit}{plural}, {self.ties} tied", ""]
        # A bot named twice (random for two teams, as the command line's default for
        # three) is told apart by its place among the names, from 1.
        labels = [
            name if self.names.count(name) == 1 else f"{name} #{i + 1}"
            for i, name in enumerate(self.names)
        ]
        width = max(14, *(len(label) + 2 for label in labels))
        lines.append(
            f"{'bot':<{width}}{'wins':>7}{'win rate':>10}{'95% interval':>18}{'mean score':>12}"
        )
        for i, name in enumerate(labels):
            low, high = self.confidence_interval(i)
            lines.append(
                f"{name:<{width}}{self.wins[i]:>7}{self.win_rate(i):>10.1%}"
                f"{f'{low:.1%} - {high:.1%}':>18}{self.mean_score(i):>12.1f}"
            )
        return "\n".join(lines)


def _ignore_interrupts() -> None:
    """In a worker process: leave Ctrl-C to the parent, which stops the pool (the workers
    would otherwise each print a traceback). A worker begins with Ctrl-C held back
    (:func:`_interrupts_held`); one that came meanwhile is dropped here."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if _CAN_HOLD:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


#: Whether Ctrl-C can be held back for a moment (POSIX, not Windows).
_CAN_HOLD: Final = hasattr(signal, "pthread_sigmask")


@contextlib.contextmanager
def _interrupts_held() -> Iterator[None]:
    """Hold Ctrl-C back while the pool starts its workers and takes the games: the workers
    are made holding it back too, until :func:`_ignore_interrupts` ignores it, and one
    that reaches this process meanwhile comes when the pool is up. (Caught while the
    workers were being started, a Ctrl-C could leave a worker's traceback, an error
    about a thread not started, or a pool that never stopped.)"""
    if not _CAN_HOLD:
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _name(bot: BotFactory) -> str:
    """The name a factory is reported under: its own, or a :func:`functools.partial`'s
    function's with the arguments given (``MonteCarloBot(iterations=5)``)."""
    if isinstance(bot, functools.partial):
        given = [excerpt(a) for a in bot.args]
        given += [f"{k[:40]}={excerpt(v)}" for k, v in bot.keywords.items()]
        if not given:
            return _name(bot.func)
        return f"{_name(bot.func)}({', '.join(given)})"
    return str(getattr(bot, "__name__", type(bot).__name__))


#: How many bots of a list of the wrong length :func:`simulate` looks at for an unknown
#: name, which it names before the count (the list may be of any length).
_NAMES_CHECKED: Final = 64


def _resolve(bot: str | BotFactory) -> BotFactory:
    if isinstance(bot, str):
        try:
            return BOTS[bot.lower()]
        except KeyError:
            raise BiribaError(f"no bot named {excerpt(bot)}; known: {', '.join(BOTS)}") from None
    if not callable(bot):
        raise TypeError(f"a bot is a name or a factory taking a seed, got {excerpt(bot)}")
    return bot


def _play_game(
    task: tuple[int, str, tuple[BotFactory, ...], RuleSet, str, int | None],
) -> GameResult:
    index, seed, factories, rules, kind, max_deals = task
    game_seed = f"{seed}/{index}"
    teams = rules.teams
    # The bots move round the teams from one game to the next: bot b plays team
    # (b + index) % teams.
    team_of_bot = tuple((bot + index) % teams for bot in range(teams))
    bot_of_team = {team: bot for bot, team in enumerate(team_of_bot)}
    seats = [
        factories[bot_of_team[rules.team_of(s)]](f"{game_seed}/{s}") for s in range(rules.players)
    ]
    if kind == "deals":
        deal = play_deal(Deal.new(rules, seed=game_seed, dealer=index % rules.players), seats)
        totals = deal.score().totals
        played = 1
    else:
        match = Match.new(rules, seed=game_seed)
        played = 0
        while not match.is_over and (max_deals is None or played < max_deals):
            play_deal(match.deal, seats)
            match.next_deal()
            played += 1
        totals = match.totals
    scores = tuple(totals[team] for team in team_of_bot)
    best = max(scores)
    winner = scores.index(best) if scores.count(best) == 1 else None
    return GameResult(index, scores, winner, played)


#: The most worker processes :func:`simulate` starts (a process each: more than a machine
#: has cores only makes them wait).
MAX_WORKERS: Final = 256


def simulate(
    bots: Sequence[str | BotFactory],
    *,
    deals: int | None = None,
    matches: int | None = None,
    seed: int | str = 0,
    rules: RuleSet = BIRIBA,
    executor: Executor | None = None,
    workers: int | None = None,
    max_deals_per_match: int | None = 200,
    progress: Callable[[int, int], None] | None = None,
) -> SimulationResult:
    """Play ``deals`` deals or ``matches`` matches between bots and report the results.

    ``bots`` holds one bot per team of ``rules`` (two under ``biriba`` and ``buraco``),
    each a name from :data:`BOTS` or a factory called with a seed (a bot class works).
    With ``executor=None`` a process pool of ``workers`` processes is used (``workers=1``
    plays in this process). ``progress(done, total)`` is called after each game.
    """
    if (deals is None) == (matches is None):
        raise BiribaError("give exactly one of deals= and matches=")
    kind = "deals" if deals is not None else "matches"
    count = deals if deals is not None else matches
    count = check_count(count, kind)
    if count > MAX_DEALS:
        raise BiribaError(f"{kind} must be at most {MAX_DEALS:,}, got {excerpt(count)}")
    check_rules(rules)
    if seed is None:  # (each game's seed is made from it)
        raise TypeError("seed must be an int or a str, got NoneType")
    check_seed(seed)
    if workers is not None:
        workers = check_count(workers, "workers")
        if workers > MAX_WORKERS:
            raise BiribaError(f"workers must be at most {MAX_WORKERS}, got {excerpt(workers)}")
    if executor is not None and not isinstance(executor, Executor):
        raise TypeError(
            f"executor must be a concurrent.futures.Executor, got {type(executor).__name__}"
        )
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be a function or None, got {type(progress).__name__}")
    if max_deals_per_match is not None:
        check_count(max_deals_per_match, "max_deals_per_match")
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise TypeError(f"bots is a list of bots, one per team, got {type(bots).__name__}")
    if len(bots) != rules.teams:
        # An unknown name among the first bots is said as such, before the count.
        for bot in itertools.islice(bots, _NAMES_CHECKED):
            _resolve(bot)
        raise BiribaError(
            f"simulate plays one bot per team: {rules.teams} under {rules.name!r}, got {len(bots)}"
        )
    factories = tuple(_resolve(b) for b in bots)
    if (executor is None and workers != 1) or isinstance(executor, ProcessPoolExecutor):
        # A process pool sends the bots to its processes by pickling them: a lambda or a
        # local function cannot go, which the pool would say only once it had started.
        try:
            pickle.dumps(factories)
        except Exception as error:
            raise TypeError(
                f"the bots must be picklable to play in worker processes ({error}); give a "
                f"module-level function, a class or a functools.partial, or workers=1"
            ) from None
    tasks = [(i, str(seed), factories, rules, kind, max_deals_per_match) for i in range(count)]
    results: list[GameResult] = []

    def collect(found: Iterator[GameResult]) -> None:
        for result in found:
            results.append(result)
            if progress is not None:
                progress(len(results), count)

    if executor is not None:
        collect(executor.map(_play_game, tasks))
    elif workers == 1:
        collect(_play_game(t) for t in tasks)
    else:
        pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts)
        try:
            # Small chunks: on Ctrl-C the workers finish only the games they hold.
            with _interrupts_held():
                played = pool.map(_play_game, tasks, chunksize=max(1, min(count // 32, 4)))
            collect(played)
        except BaseException:  # Ctrl-C or an error: drop the games not started
            pool.shutdown(wait=True, cancel_futures=True)
            raise
        pool.shutdown()
    return SimulationResult(tuple(_name(f) for f in factories), tuple(results), kind)
