"""Bots: players that get a :class:`~biriba.PlayerView` and return a legal move.

Every bot follows the :class:`Bot` protocol and is seeded, so a game between bots is
reproducible (unless a bot searches for a time rather than a number of samples:
``MonteCarloBot(time_limit=...)`` plays what the machine's speed allows)::

    >>> from biriba import Deal
    >>> from biriba.bots import GreedyBot, RandomBot, play_deal
    >>> deal = Deal.new(seed=3)
    >>> play_deal(deal, [GreedyBot(seed=1), RandomBot(seed=2)] * 2).is_over
    True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from biriba.bots.heuristics import (
    discard_danger,
    greedy_choice,
    pile_use,
    table_of,
    take_melds,
)
from biriba.deal import Deal, Phase, PlayerView
from biriba.engine import engine_for
from biriba.errors import BiribaError
from biriba.limits import check_count, check_real, check_seed, excerpt
from biriba.moves import Discard, Move, TakeDiscard

__all__ = ["Bot", "GreedyBot", "MonteCarloBot", "RandomBot", "moves_to_choose", "play_deal"]


@runtime_checkable
class Bot(Protocol):
    """A player: given what its seat may know, it returns one of the legal moves."""

    def choose(self, view: PlayerView) -> Move:
        """Return a move from ``view.legal_moves()``."""
        ...


class RandomBot:
    """Picks uniformly among the legal moves, with its own ``random.Random(seed)``."""

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(check_seed(seed))

    def choose(self, view: PlayerView) -> Move:
        """A legal move chosen uniformly at random."""
        return self.rng.choice(moves_to_choose(view, "RandomBot"))

    def __repr__(self) -> str:
        return "RandomBot()"


class GreedyBot:
    """A sensible heuristic player.

    It takes the pile when the pile's cards fit its melds or hand, melds and adds toward
    biribas, keeps substitutes for where they complete or extend a biriba, discards what
    helps the next player least (never a substitute, never a card that fits the next
    team's melds, preferring high loose cards), and goes for the reserve and closes (goes
    out under Buraco) whenever it can, whatever the score. Ties are broken by its seeded
    generator.
    """

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(check_seed(seed))

    def choose(self, view: PlayerView) -> Move:
        """The heuristic's move for ``view``."""
        return greedy_choice(view, moves_to_choose(view, "GreedyBot"), self.rng)

    def __repr__(self) -> str:
        return "GreedyBot()"


class MonteCarloBot:
    """Search over sampled deals: for each candidate move, sample deals consistent with the
    view (:meth:`~biriba.PlayerView.sample`), play the move and then the rest of the deal (or
    ``horizon`` moves) with the greedy heuristic for every seat, and keep the move whose
    outcome (own team's score minus the other team's) is best on average.

    It searches two decisions: the start of a turn (draw, take or pass; a take only when
    some of the pile can be melded at once) and the discard (the ``candidates`` discards
    the heuristic likes best). Melds and additions follow the heuristic, and a forced
    move is played at once. The budget is ``iterations`` sampled deals per decision, or
    ``time_limit`` seconds per decision if given (then how many samples a decision gets,
    and so the move, depends on the machine and its load: a game is reproducible only
    with ``iterations``).

    Every candidate is played out in the same sampled deals, so two candidates compare
    sample by sample. From the second sample on, a candidate is dropped once the leader's
    mean lead over it exceeds ``prune`` standard errors of those paired differences: it
    is clearly worse, and the samples left go to the candidates still close. The search
    ends when one candidate is left. ``horizon=60, prune=None`` is the search of earlier
    versions: every candidate in every sample, played twice as far, over twice the time
    for the same strength (see :doc:`/bots`).
    """

    def __init__(
        self,
        seed: int | str | None = None,
        *,
        iterations: int = 10,
        candidates: int = 3,
        horizon: int = 30,
        time_limit: float | None = None,
        prune: float | None = 2.0,
    ) -> None:
        iterations = check_count(iterations, "iterations")
        candidates = check_count(candidates, "candidates")
        horizon = check_count(horizon, "horizon")
        if time_limit is not None:
            time_limit = check_real(time_limit, "time_limit (seconds)", 0, above=True)
        if prune is not None:
            prune = check_real(prune, "prune (None never prunes)", 0)
        self.rng = random.Random(check_seed(seed))
        self.iterations = iterations
        self.candidates = candidates
        self.horizon = horizon
        self.time_limit = time_limit
        self.prune = prune

    def _candidates(self, view: PlayerView, moves: tuple[Move, ...]) -> list[Move]:
        """The moves worth a search: the draw-phase choice, and the best few discards.

        Melds and additions follow the heuristic: it lays and adds whenever that pays.
        """
        greedy = greedy_choice(view, moves, random.Random(0))
        if view.phase is Phase.DRAW:
            # Never a take that melds nothing: takes answered by takes need not end a deal.
            useful = pile_use(view, 1) >= 1 and take_melds(view)
            return [greedy] + [
                m for m in moves if m != greedy and (useful or not isinstance(m, TakeDiscard))
            ]
        if not isinstance(greedy, Discard) or len(view.hand) == 1:
            return [greedy]
        discards = [m for m in moves if isinstance(m, Discard)]
        discards.sort(key=lambda d: discard_danger(d.card, view))
        chosen: list[Move] = [*discards[: self.candidates]]
        return chosen

    def _rollout(self, world: Deal, team: int, rng: random.Random) -> int:
        for _ in range(self.horizon):
            if world.is_over:
                break
            world.play_unchecked(greedy_choice(table_of(world), world.legal_moves(), rng))
        score = world.score().teams
        mine = score[team].total
        theirs = max(s.total for i, s in enumerate(score) if i != team)
        return mine - theirs

    def choose(self, view: PlayerView) -> Move:
        """The candidate with the best average outcome over the sampled deals."""
        moves = moves_to_choose(view, "MonteCarloBot")
        if len(moves) == 1:
            return moves[0]
        candidates = self._candidates(view, moves)
        if len(candidates) == 1:
            return candidates[0]
        # outcomes[j][k]: candidate j's outcome in the k-th sampled deal.
        outcomes: list[list[int]] = [[] for _ in candidates]
        alive = list(range(len(candidates)))
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        team = view.team
        done = 0
        while True:
            world = view.sample(self.rng)
            for j in alive:
                trial = world.copy()
                trial.play_unchecked(candidates[j])
                outcomes[j].append(self._rollout(trial, team, self.rng))
            done += 1
            if self.prune is not None and done >= 2:
                alive = _survivors(alive, outcomes, self.prune)
                if len(alive) == 1:
                    break
            if deadline is not None:
                if time.perf_counter() >= deadline:
                    break
            elif done >= self.iterations:
                break
        # Every candidate alive has been played in every sample: compare the sums.
        return candidates[max(alive, key=lambda j: sum(outcomes[j]))]

    def __repr__(self) -> str:
        budget = (
            f"iterations={excerpt(self.iterations)}"
            if self.time_limit is None
            else f"time_limit={self.time_limit}"
        )
        return (
            f"MonteCarloBot({budget}, candidates={excerpt(self.candidates)}, "
            f"horizon={excerpt(self.horizon)}, prune={self.prune})"
        )


def _survivors(alive: list[int], outcomes: list[list[int]], prune: float) -> list[int]:
    """The candidates of ``alive`` left once those clearly behind the leader are dropped.

    The leader has the best sum of outcomes (the first of equals). Another candidate is
    dropped when the mean of its paired shortfalls (the leader's outcome less its own,
    sample by sample) exceeds ``prune`` times their standard error (sample variance).
    """
    lead = max(alive, key=lambda j: sum(outcomes[j]))
    best = outcomes[lead]
    n = len(best)
    kept = []
    for j in alive:
        if j != lead:
            gaps = [a - b for a, b in zip(best, outcomes[j], strict=True)]
            mean = sum(gaps) / n
            variance = sum((g - mean) ** 2 for g in gaps) / (n - 1)
            if mean > prune * math.sqrt(variance / n):
                continue
        kept.append(j)
    return kept


def moves_to_choose(view: object, bot: str | None = None) -> tuple[Move, ...]:
    """The legal moves a bot chooses among in ``view``, checked: :class:`TypeError`
    unless ``view`` is a :class:`~biriba.PlayerView`, and a :class:`~biriba.BiribaError`
    when its seat has no move to choose: the deal over (``err.rule`` the rule that ended
    it: B7.1, Z4.2, Z4.3), another seat to move (B4.1), or a view built by hand that
    leaves the seat to move no legal move, as no deal does (B4.5). ``bot``, the bot's
    class's name, names it in the messages. Every bot of the library starts its
    ``choose`` with it; a bot of your own may too."""
    if bot is not None and not isinstance(bot, str):
        raise TypeError(f"bot is a bot's name, a str, got {type(bot).__name__}")
    who = f"{bot[:60]}.choose" if bot else "choose"
    if not isinstance(view, PlayerView):
        raise TypeError(f"{who} expects a PlayerView (deal.view(seat)), got {type(view).__name__}")
    moves = view.legal_moves()
    if moves:
        return moves
    if view.to_move is None:
        ended = engine_for(view.rules).ending_rule(view.closed_by is not None)
        raise BiribaError(
            f"{who}: the deal is over ({ended}), there is no move to choose", rule=ended
        )
    if view.to_move == view.seat:
        raise BiribaError(
            f"{who}: the view leaves seat {view.seat}, to move, no legal move, which no "
            f"deal does (B4.5; a view built by hand?)",
            rule="B4.5",
        )
    raise BiribaError(
        f"{who}: seat {view.seat} is not to move (seat {view.to_move} is, B4.1); a bot "
        f"chooses for the seat to move, from its view",
        rule="B4.1",
    )


def play_deal(deal: Deal, bots: Sequence[Bot], *, max_moves: int = 20_000) -> Deal:
    """Play ``deal`` to its end, seat ``s`` played by ``bots[s]``; return the deal.

    Each bot gets ``deal.view(seat)`` and its move is checked with ``deal.play``. The rules
    do not forbid players from taking the pile turn after turn without ever melding, which
    never ends a deal: after ``max_moves`` moves a :class:`~biriba.BiribaError` says so.
    The arguments are checked before any move is played; on an error while playing (that
    one, a bot's illegal move, a bot's own exception) the deal keeps the moves played
    before it, to be scored as it stands or taken back with ``undo``.
    """
    if not isinstance(deal, Deal):
        raise TypeError(f"play_deal expects a Deal, got {type(deal).__name__}")
    if not isinstance(bots, Sequence) or isinstance(bots, str):
        raise TypeError(f"bots is a list of bots, one per seat, got {type(bots).__name__}")
    if len(bots) != deal.rules.players:
        raise BiribaError(f"play_deal needs {deal.rules.players} bots, got {len(bots)}")
    for index, bot in enumerate(bots):
        if not callable(getattr(bot, "choose", None)):
            raise TypeError(
                f"bots[{index}] is not a bot: a bot has a choose(view) method, "
                f"got {type(bot).__name__}"
            )
    max_moves = check_count(max_moves, "max_moves")
    for _ in range(max_moves):
        seat = deal.to_move
        if seat is None:  # the deal is over
            return deal
        deal.play(bots[seat].choose(deal.view(seat)))
    if deal.is_over:
        return deal
    raise BiribaError(f"the deal did not end within {max_moves} moves (the bots never meld)")
