"""Scoring a deal (B8): :class:`TeamScore`, :class:`DealScore` and :func:`~biriba.score_team`.

``deal.score()`` builds these from a deal; :func:`~biriba.score_team` scores one team from plain
facts for programs that keep their own table::

    >>> from biriba import Meld, parse_cards
    >>> s = score_team(
    ...     [Meld.parse("3H 4H 5H 6H 7H 8H 9H")], parse_cards("KS 4C"),
    ...     reserve_received=True, closed=True,
    ... )
    >>> s.melded, s.bonuses, s.hands, s.closing, s.reserve, s.total
    (45, 200, -15, 100, 0, 330)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import SupportsIndex

import attrs

from biriba.cards import Card, Suit
from biriba.limits import type_name, whole_number
from biriba.melds import Meld
from biriba.rules import BIRIBA, RuleSet, check_rules

__all__ = ["DealScore", "TeamScore", "score_team", "team_score", "team_score_unchecked"]


@attrs.frozen
class TeamScore:
    """One team's score for a deal, part by part (B8.2 to B8.7).

    Penalties are negative: ``reserve <= 0`` always, and ``hands <= 0`` wherever no card
    is worth less than nothing, as under every preset (``hands`` takes the cards' values
    off, so a rule set whose ``card_values`` or ``joker_value`` are negative can make it
    positive).
    """

    #: B8.2: the values of every card in the team's melds.
    melded: int
    #: B8.3: the biriba bonuses.
    bonuses: int
    #: B8.4: minus the values of the cards left in the partners' hands.
    hands: int
    #: B8.5: the closing bonus, for the team that closed.
    closing: int
    #: B8.6, B8.7: minus the penalty for a reserve never received, or received by the
    #: final discard and never activated.
    reserve: int

    @property
    def total(self) -> int:
        """The sum of the parts."""
        return self.melded + self.bonuses + self.hands + self.closing + self.reserve


@attrs.frozen
class DealScore:
    """The score of a deal: one :class:`TeamScore` per team, in team order."""

    #: The teams' scores; ``teams[t]`` is team ``t``.
    teams: tuple[TeamScore, ...]
    #: Whether the deal is over (the score is final).
    final: bool = False

    @property
    def totals(self) -> tuple[int, ...]:
        """Each team's total."""
        return tuple(t.total for t in self.teams)


def _checked_melds(melds: object, caller: str) -> tuple[Meld, ...]:
    """``melds`` as a tuple if it is an iterable of melds (not a text), else
    :class:`TypeError` naming ``caller``."""
    if isinstance(melds, str) or not isinstance(melds, Iterable):
        raise TypeError(f"{caller} expects melds, got {type(melds).__name__}")
    checked = tuple(melds)
    for meld in checked:
        if not isinstance(meld, Meld):
            raise TypeError(f"{caller} expects melds, got {type(meld).__name__}")
    return checked


def _check_flags(**flags: object) -> None:
    """:class:`TypeError` unless each of ``flags`` (by its argument's name) is a bool."""
    for name, flag in flags.items():
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be a bool, got {type_name(flag)}")


def _check_bonus_suit(bonus_suit: object) -> None:
    """:class:`TypeError` unless ``bonus_suit`` is a :class:`~biriba.Suit` or ``None``."""
    if bonus_suit is not None and not isinstance(bonus_suit, Suit):
        raise TypeError(f"bonus_suit must be a Suit or None, got {type(bonus_suit).__name__}")


def team_score(
    rules: RuleSet,
    melds: Iterable[Meld],
    left_in_hands: SupportsIndex,
    received: bool,
    unactivated: bool,
    closed: bool,
    bonus_suit: Suit | None = None,
) -> TeamScore:
    """One team's score by B8, from the parts a position holds.

    ``left_in_hands`` is the value of the cards the team's players still hold, the packet
    of an unactivated reserve left out (B8.4, B8.7); ``received`` whether the team
    received its reserve (B8.6); ``unactivated`` whether it received it by a final discard
    and the receiver's next turn never came (B8.7); ``closed`` whether it closed (B8.5);
    ``bonus_suit`` the deal's bonus suit under kózi (V1). Buraco's parts are the same
    (Z5.1): going out in ``closing``, the morto in ``reserve``. Each argument is checked
    (:class:`TypeError` for a wrong type; ``left_in_hands`` may be any integer type, such
    as NumPy's, but not a ``bool``); :func:`team_score_unchecked` is the same
    scorer for the engine, which passes what it made.
    """
    check_rules(rules)
    checked = _checked_melds(melds, "team_score")
    left = whole_number(left_in_hands, "left_in_hands")
    _check_flags(received=received, unactivated=unactivated, closed=closed)
    _check_bonus_suit(bonus_suit)
    return team_score_unchecked(rules, checked, left, received, unactivated, closed, bonus_suit)


def team_score_unchecked(
    rules: RuleSet,
    melds: Iterable[Meld],
    left_in_hands: int,
    received: bool,
    unactivated: bool,
    closed: bool,
    bonus_suit: Suit | None = None,
) -> TeamScore:
    """:func:`team_score` without a check of its arguments: the one scorer behind
    :meth:`Deal.score <biriba.Deal.score>`, :meth:`PlayerView.public_score
    <biriba.PlayerView.public_score>`, :func:`~biriba.score_team` and :func:`team_score`,
    for callers that pass values they made (anything else may give a wrong score or an
    error from inside)."""
    melded = bonuses = 0
    for meld in melds:
        melded += meld.points
        bonuses += meld.bonus_with(bonus_suit)
    if not received:
        reserve = -rules.reserve_penalty
    elif unactivated:
        reserve = -rules.unactivated_reserve_penalty
    else:
        reserve = 0
    return TeamScore(melded, bonuses, -left_in_hands, rules.closing_bonus if closed else 0, reserve)


def score_team(
    melds: Iterable[Meld],
    hands: Iterable[Card],
    *,
    reserve_received: bool,
    reserve_unactivated: bool = False,
    closed: bool = False,
    rules: RuleSet = BIRIBA,
    bonus_suit: Suit | None = None,
) -> TeamScore:
    """Score one team from its melds and the cards left in its players' hands (B8).

    ``reserve_received`` says whether the team received its reserve (B8.6);
    ``reserve_unactivated`` that it received it by a final discard and the deal ended
    before the receiver's next turn (B8.7): leave that packet's cards out of ``hands``,
    the 100 replaces them. ``closed`` gives the closing bonus (B8.5). ``bonus_suit`` is
    the deal's bonus suit under kózi (V1).
    """
    check_rules(rules)
    _check_bonus_suit(bonus_suit)
    checked = _checked_melds(melds, "score_team")
    cards = tuple(hands)
    for card in cards:
        if not isinstance(card, Card):
            raise TypeError(f"score_team expects cards in hands, got {type(card).__name__}")
    _check_flags(
        reserve_received=reserve_received, reserve_unactivated=reserve_unactivated, closed=closed
    )
    left = rules.cards_value(cards)
    return team_score_unchecked(
        rules,
        checked,
        left,
        received=reserve_received,
        unactivated=reserve_unactivated,
        closed=closed,
        bonus_suit=bonus_suit,
    )
