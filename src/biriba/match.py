"""The match (B9): a series of deals whose scores add up until a team passes the target.

>>> match = Match.new(seed=3)
>>> match.deal.dealer == match.dealer
True
>>> match.totals
(0, 0)
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from typing import Any

import attrs

from biriba.deal import Deal
from biriba.engine import engine_for
from biriba.errors import BiribaError, InvalidPositionError
from biriba.limits import MAX_DEALS, MAX_POINTS, check_seed, excerpt, is_int, is_points
from biriba.rules import (
    BIRIBA,
    RuleSet,
    check_rules,
    cited,
    rules_from_data,
    rules_to_data,
    same_rules,
)
from biriba.scoring import DealScore, TeamScore

__all__ = ["Match"]


class Match:
    """A match: deals played one after another, scores added to running totals (B9).

    Build one with :meth:`new` or :meth:`from_dict`. :attr:`deal` is the deal in
    progress; once it is over, :meth:`next_deal` adds its score to :attr:`totals` and,
    unless the match has ended, deals the next deal with the next dealer (B2.1).
    """

    __slots__ = (
        "_deal",
        "_dealer",
        "_deals_played",
        "_finished",
        "_scores",
        "_seed",
        "_start",
        "_totals",
        "_winner",
        "rules",
    )

    #: The rule set of every deal of the match.
    rules: RuleSet
    _seed: int | str | None
    _totals: tuple[int, ...]
    _scores: tuple[DealScore, ...]
    _winner: int | None
    _deals_played: int
    _dealer: int
    _deal: Deal
    _finished: tuple[Deal, ...]
    _start: dict[str, Any] | None

    def __init__(self) -> None:
        raise TypeError("build a Match with Match.new(...) or Match.from_dict(...)")

    @classmethod
    def new(cls, rules: RuleSet = BIRIBA, *, seed: int | str | None = None) -> Match:
        """Draw the first dealer from the match's seed (B2.1) and deal the first deal.

        Deal ``i`` (from 0) is shuffled with the seed ``f"{seed}/{i}"``, so the same match
        seed always gives the same match. Without a seed one is drawn and kept.
        """
        check_rules(rules)
        check_seed(seed, "a match's seed")  # its deals' seeds are text: f"{seed}/{i}"
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        dealer = random.Random(f"{seed}/dealer").randrange(rules.players)
        match = object.__new__(cls)
        match.rules = rules
        match._seed = seed
        match._totals = (0,) * rules.teams
        match._scores = ()
        match._winner = None
        match._deals_played = 0
        match._dealer = dealer
        match._deal = Deal.new(rules, seed=match._deal_seed(0), dealer=dealer)
        match._finished = ()
        match._start = None
        return match

    def _deal_seed(self, index: int) -> str | None:
        return None if self._seed is None else f"{self._seed}/{index}"

    # ------------------------------------------------------------------ reading
    @property
    def seed(self) -> int | str | None:
        """The match's seed (``None`` for a match resumed without one)."""
        return self._seed

    @property
    def deal(self) -> Deal:
        """The deal in progress (the last deal, once the match is over)."""
        return self._deal

    @property
    def dealer(self) -> int:
        """The dealer of the deal in progress."""
        return self._dealer

    @property
    def totals(self) -> tuple[int, ...]:
        """Each team's running total of the finished deals (B9.1)."""
        return self._totals

    @property
    def scores(self) -> tuple[DealScore, ...]:
        """The :class:`~biriba.DealScore` of each finished deal, in order."""
        return self._scores

    @property
    def deals_played(self) -> int:
        """How many deals have been finished and added to the totals."""
        return self._deals_played

    @property
    def start(self) -> dict[str, Any] | None:
        """Where a match resumed by :meth:`from_dict` took up: ``{"totals": [...],
        "deals_played": n}`` as they were then, with ``"scores"`` (the finished deals'
        scores, as :meth:`to_dict` writes them) when it was resumed with them (its first
        deal's position is that deal's :attr:`Deal.start <biriba.Deal.start>`); ``None``
        for a match built by :meth:`new`. With the deals since, it is what a record of the
        match needs."""
        return None if self._start is None else copy.deepcopy(self._start)

    @property
    def finished_deals(self) -> tuple[Deal, ...]:
        """The deals finished since the match was built (not those before a resume)."""
        return self._finished

    @property
    def is_over(self) -> bool:
        """Whether the match has ended (B9.2)."""
        return self._winner is not None

    @property
    def winner(self) -> int | None:
        """The winning team, or ``None`` while the match goes on."""
        return self._winner

    # ------------------------------------------------------------------ playing
    def next_deal(self) -> None:
        """Add the finished deal's score to the totals; unless that ends the match (B9.2),
        deal the next deal with the next dealer (B2.1).

        Raises :class:`~biriba.BiribaError` if the deal in progress is not over or the
        match is, or if a total would pass :data:`~biriba.limits.MAX_POINTS` either way
        (only totals read from data start near it); the match is then unchanged.
        """
        if self.is_over:
            rule = cited(self.rules, "B9.2")
            raise BiribaError(f"the match is over ({rule}): there is no next deal", rule=rule)
        if not self._deal.is_over:
            # The rules that end a deal: closing or the passes (B7.1); under Buraco going
            # out (Z4.2) or the last turn (Z4.3).
            engine = engine_for(self.rules)
            ends = list(dict.fromkeys((engine.ending_rule(True), engine.ending_rule(False))))
            raise BiribaError(
                f"the deal in progress is not over yet ({', '.join(ends)}): finish it first",
                rule=ends[0],
            )
        score = self._deal.score()
        totals = tuple(t + s.total for t, s in zip(self._totals, score.teams, strict=True))
        if not all(is_points(total) for total in totals):
            # Totals read from data may start anywhere up to MAX_POINTS: a match whose
            # totals play would take past it could no longer be written or read.
            raise BiribaError(
                f"the totals would reach {excerpt(list(totals))}, past the "
                f"{MAX_POINTS:,} either way a match's data holds (biriba.limits.MAX_POINTS): "
                f"this match cannot go on"
            )
        self._totals = totals
        self._scores = (*self._scores, score)
        self._finished = (*self._finished, self._deal)
        self._deals_played += 1
        self._winner = _winner(self._totals, self.rules)
        if self._winner is None:
            self._dealer = (self._dealer + 1) % self.rules.players
            self._deal = Deal.new(
                self.rules, seed=self._deal_seed(self._deals_played), dealer=self._dealer
            )

    def _replace_deal(self, deal: Deal) -> None:
        """Put ``deal`` in place of the deal in progress: the same deal, played on, or
        (for a match without a seed, whose deals are shuffled from fresh entropy) a deal
        by the same dealer shuffled otherwise, as a record of the match gives it."""
        assert deal.dealer == self._dealer
        assert self._seed is None or deal.seed == self._deal.seed
        self._deal = deal

    # ------------------------------------------------------------------ positions
    def to_dict(self) -> dict[str, Any]:
        """The match as JSON-ready data: ``rules``, ``totals``, ``dealer``, ``deal`` (a
        position), and ``seed``, ``deals_played``, ``scores`` (for each finished deal,
        each team's score part by part: ``melded``, ``bonuses``, ``hands``, ``closing``,
        ``reserve``; left out when they do not account for the totals: a match resumed
        from data without them, or from totals other than zero) and ``winner``."""
        data = {
            "rules": rules_to_data(self.rules),
            "totals": list(self._totals),
            "dealer": self._dealer,
            "deal": self._deal.to_dict(),
            "seed": self._seed,
            "deals_played": self._deals_played,
            "scores": _scores_data(self._scores),
            "winner": self._winner,
        }
        added = _added(self._scores, self.rules.teams)
        if len(self._scores) != self._deals_played or added != self._totals:
            del data["scores"]  # resumed without them, or from other totals (B9.1)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], rules: RuleSet | None = None) -> Match:
        """Resume a match from :meth:`to_dict`'s data, checked like a position.

        The four keys ``rules``, ``totals``, ``dealer`` and ``deal`` are enough; without a
        ``seed`` the later deals are shuffled from fresh entropy; with ``scores``, one
        per finished deal, :attr:`scores` gives them back (they must add up to the
        totals, B9.1). Totals that end the match (B9.2) read as a match over, its
        ``deal`` the last one, over and counted in them (as :meth:`to_dict` writes a
        match that ended); otherwise a ``deal`` that is over is not counted yet, and
        :meth:`next_deal` adds it. Raises :class:`~biriba.InvalidPositionError` naming
        the problem.
        """
        if not isinstance(data, Mapping):
            raise TypeError(f"a match is a dict, got {type(data).__name__}")
        for key in ("rules", "totals", "dealer", "deal"):
            if key not in data:
                raise InvalidPositionError(f"invalid match: missing key {key!r}")
        deal_data = data["deal"]
        if not isinstance(deal_data, Mapping):
            raise InvalidPositionError("invalid match: deal must be a position (a dict)")
        deal = Deal.from_dict(deal_data, rules)
        given, rules = rules, deal.rules
        if not _names(data["rules"], deal_data.get("rules"), rules, given):
            raise InvalidPositionError("invalid match: the deal's rules differ from the match's")
        totals = data["totals"]
        if (
            not isinstance(totals, list | tuple)
            or len(totals) != rules.teams
            or not all(is_points(t) for t in totals)
        ):
            raise InvalidPositionError(
                f"invalid match: totals must be {rules.teams} integers, one per team (B9.1), "
                f"each at most {MAX_POINTS:,} either way, got {excerpt(totals)}",
                rule="B9.1",
            )
        dealer = data["dealer"]
        if not is_int(dealer) or dealer != deal.dealer:
            raise InvalidPositionError(
                f"invalid match: dealer {excerpt(data['dealer'])} is not the deal's dealer "
                f"{deal.dealer}",
                rule="B2.1",
            )
        seed = data.get("seed")
        try:
            check_seed(seed)
        except (TypeError, BiribaError) as error:
            raise InvalidPositionError(f"invalid match: {error}") from None
        played = data.get("deals_played", 0)
        if not is_int(played) or not 0 <= played <= MAX_DEALS:
            raise InvalidPositionError(
                f"invalid match: deals_played must be from 0 to {MAX_DEALS:,}, "
                f"got {excerpt(played)}"
            )
        # B9.2: totals that end the match end it whatever the count of deals played says
        # (totals come from complete deals, B9.1): its deal is then the last one, over and
        # counted in them; a deal that is over in a match that goes on is not counted yet
        # (next_deal() adds it).
        winner = _winner(tuple(totals), rules)
        given = data.get("winner")
        if given is not None and not is_int(given):
            # (False and 0.0 would equal the team 0.)
            raise InvalidPositionError(
                f"invalid match: winner must be a team number or null, got {excerpt(given)}"
            )
        if given is not None and given != winner:
            raise InvalidPositionError(
                f"invalid match: winner {excerpt(data.get('winner'))} does not follow from the "
                f"totals ({cited(rules, 'B9.2')})",
                rule=cited(rules, "B9.2"),
            )
        if winner is not None and not deal.is_over:
            raise InvalidPositionError(
                f"invalid match: the totals {excerpt(list(totals))} end the match "
                f"({cited(rules, 'B9.2')}), so no deal can be in progress",
                rule=cited(rules, "B9.2"),
            )
        match = object.__new__(cls)
        match.rules = rules
        match._seed = seed
        totals = tuple([int(t) for t in totals])  # plain ints (not an IntEnum's members)
        match._totals = totals
        match._scores = _read_scores(data.get("scores"), played, totals, rules)
        match._deals_played = int(played)
        match._winner = winner
        match._dealer = deal.dealer
        match._deal = deal
        match._finished = ()
        match._start = {"totals": list(totals), "deals_played": played}
        if match._scores:
            match._start["scores"] = _scores_data(match._scores)
        return match

    def __repr__(self) -> str:
        state = f"winner={self._winner}" if self.is_over else f"deal {self._deals_played + 1}"
        return f"<Match {self.rules.name} totals={list(self._totals)} {state}>"


def _names(named: object, deal_named: object, rules: RuleSet, given: RuleSet | None) -> bool:
    """Whether a match's ``rules`` value ``named`` names ``rules``, the rule set its deal
    was read under (named there as ``deal_named``; ``given``, the rule set passed to
    :meth:`Match.from_dict`, if any): written the same way, or in the other form (a
    preset's name, its dict, an alias), since loading accepts both. A name stands for
    ``given`` when it is ``given``'s, as in a position."""
    if named == deal_named or (
        given is not None and isinstance(named, str) and named == given.name
    ):
        return True
    try:
        return same_rules(rules_from_data(named), rules)
    except BiribaError as error:
        raise InvalidPositionError(f"invalid match: rules: {error}", rule=error.rule) from None


def _scores_data(scores: tuple[DealScore, ...]) -> list[list[dict[str, int]]]:
    """Finished deals' scores as a match's data writes them: by deal, each team's parts."""
    return [[attrs.asdict(t) for t in s.teams] for s in scores]


def _read_scores(
    raw: object, played: int, totals: tuple[int, ...], rules: RuleSet
) -> tuple[DealScore, ...]:
    """The per-deal scores of a match's data (``None``: not given), checked: one per
    finished deal, each team's parts integers, adding up to the totals (B9.1)."""
    if raw is None:
        return ()
    if not isinstance(raw, list | tuple) or len(raw) != played:
        raise InvalidPositionError(
            f"invalid match: scores must list the score of each of the {played} finished deals"
        )
    parts = [f.name for f in attrs.fields(TeamScore)]
    scores = []
    for i, deal in enumerate(raw):
        if not isinstance(deal, list | tuple) or len(deal) != rules.teams:
            raise InvalidPositionError(f"invalid match: scores[{i}] must list {rules.teams} teams")
        teams = []
        for team in deal:
            if not isinstance(team, Mapping) or set(team) != set(parts):
                raise InvalidPositionError(
                    f"invalid match: scores[{i}] gives each team {', '.join(parts)}"
                )
            values = [team[p] for p in parts]
            if not all(is_points(v) for v in values):
                raise InvalidPositionError(
                    f"invalid match: scores[{i}] holds integers only, each at most "
                    f"{MAX_POINTS:,} either way"
                )
            teams.append(TeamScore(*values))
        scores.append(DealScore(tuple(teams), final=True))
    added = _added(scores, rules.teams)
    if scores and added != totals:
        raise InvalidPositionError(
            f"invalid match: the deals' scores add up to {excerpt(list(added))}, not to the "
            f"totals {excerpt(list(totals))} (B9.1)",
            rule="B9.1",
        )
    return tuple(scores)


def _added(scores: tuple[DealScore, ...] | list[DealScore], teams: int) -> tuple[int, ...]:
    """Each of the ``teams`` teams' deal scores added up (B9.1)."""
    return tuple(sum(s.teams[t].total for s in scores) for t in range(teams))


def _winner(totals: tuple[int, ...], rules: RuleSet) -> int | None:
    """The winning team if the match ends with these totals (B9.2), else ``None``."""
    best = max(totals)
    passed = best > rules.target if rules.target_strict else best >= rules.target
    if not passed or totals.count(best) > 1:
        return None  # below the target, or equal at the top: another deal (B9.2)
    return totals.index(best)
