"""The match (B2.1, B9)."""

from __future__ import annotations

import random

import pytest

from biriba import BIRIBA, BURACO, BiribaError, Deal, InvalidPositionError, Match
from biriba.rules import cited

from .helpers import position


def finish(deal: Deal, seed: int = 0) -> None:
    rng = random.Random(seed)
    while not deal.is_over:
        deal.play(rng.choice(deal.legal_moves()))


def over_deal() -> Deal:
    """A deal that team 0 just closed with a clean biriba."""
    deal = Deal.from_dict(
        position(
            hands={0: "KS"},
            melds=(["3H 4H 5H 6H 7H 8H 9H"], []),
            received=(True, False),
        )
    )
    deal.play("discard KS")
    assert deal.is_over
    return deal


def test_B2_1_first_dealer_drawn_from_the_match_seed_then_rotates() -> None:
    dealers = {Match.new(seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}  # drawn, not fixed
    assert Match.new(seed=9).dealer == Match.new(seed=9).dealer
    match = Match.new(seed=9)
    first = match.dealer
    for k in range(1, 4):
        finish(match.deal, k)
        match.next_deal()
        assert match.dealer == (first + k) % 4
        assert match.deal.dealer == match.dealer
        assert match.deal.to_move == (match.dealer + 1) % 4


def test_B2_1_same_seed_same_match() -> None:
    a, b = Match.new(seed="x"), Match.new(seed="x")
    assert a.deal.to_dict() == b.deal.to_dict()
    finish(a.deal)
    finish(b.deal)
    a.next_deal()
    b.next_deal()
    assert a.deal.to_dict() == b.deal.to_dict()


def test_B9_1_scores_add_to_the_running_totals() -> None:
    match = Match.new(seed=4)
    finish(match.deal)
    expected = match.deal.score().totals
    match.next_deal()
    assert match.totals == expected
    assert match.scores[0].totals == expected
    finish(match.deal, 1)
    second = match.deal.score().totals
    match.next_deal()
    assert match.totals == tuple(a + b for a, b in zip(expected, second, strict=True))


def resumed(totals: list[int]) -> Match:
    deal = over_deal()
    return Match.from_dict(
        {"rules": "biriba", "totals": totals, "dealer": deal.dealer, "deal": deal.to_dict()}
    )


def test_B9_2_match_ends_strictly_above_5000() -> None:
    gained = over_deal().score().totals  # team 0 gains 45 + 200 - 0 + 100 ...
    match = resumed([5000 - gained[0], 0])
    match.next_deal()
    assert match.totals[0] == 5000
    assert not match.is_over and match.winner is None  # exactly 5000 is not enough
    match2 = resumed([5001 - gained[0], 0])
    match2.next_deal()
    assert match2.is_over and match2.winner == 0


def over_deal_both_gain() -> Deal:
    """A deal that team 0 just closed, in which both teams score more than 100."""
    deal = Deal.from_dict(
        position(
            hands={0: "KS", 1: "4C", 3: "5C"},
            melds=(["3H 4H 5H 6H 7H 8H 9H"], ["3S 4S 5S 6S 7S 8S 9S", "TC JC QC KC AC"]),
            received=(True, True),
        )
    )
    deal.play("discard KS")
    assert deal.is_over
    return deal


def resumed_before(deal: Deal, after: list[int]) -> Match:
    """A match resumed with ``deal`` over and not counted yet, from the totals that it
    brings to ``after``: both at most 5000, so that the match went on until this deal."""
    gained = deal.score().totals
    totals = [a - g for a, g in zip(after, gained, strict=True)]
    assert max(totals) <= 5000
    return Match.from_dict(
        {"rules": "biriba", "totals": totals, "dealer": deal.dealer, "deal": deal.to_dict()}
    )


def test_B9_2_higher_total_wins_and_equal_totals_play_on() -> None:
    assert min(over_deal_both_gain().score().totals) > 100
    higher = resumed_before(over_deal_both_gain(), [5150, 5100])
    higher.next_deal()
    assert higher.winner == 0  # both above the target: the higher total wins
    both_above = resumed_before(over_deal_both_gain(), [5100, 5150])
    both_above.next_deal()
    assert both_above.winner == 1
    tied = resumed_before(over_deal_both_gain(), [5150, 5150])
    tied.next_deal()
    assert not tied.is_over and tied.winner is None
    assert not tied.deal.is_over  # another deal is played


def test_B9_2_a_match_over_has_no_deal_in_progress() -> None:
    """B9.2: totals that end the match after the deals played leave no deal to play, so
    a match's data pairing them with a deal in progress is refused (and a tie above the
    target, which plays on, is not); a match that ended reads back over."""
    data = Match.new(seed=1).to_dict()
    del data["scores"]
    data["totals"], data["deals_played"] = [6000, 0], 3
    with pytest.raises(InvalidPositionError, match=r"no deal can be in progress") as info:
        Match.from_dict(data)
    assert info.value.rule == "B9.2"
    data["totals"] = [6000, 6000]  # tied: another deal is played
    assert not Match.from_dict(data).is_over
    # Totals come from complete deals (B9.1), whatever deals_played says: these ended
    # the match after one of them.
    data["totals"], data["deals_played"] = [6000, 0], 0
    with pytest.raises(InvalidPositionError, match=r"no deal can be in progress") as info:
        Match.from_dict(data)
    assert info.value.rule == "B9.2"
    gained = over_deal().score().totals
    done = resumed([5001 - gained[0], 0])
    done.next_deal()
    assert done.is_over
    again = Match.from_dict(done.to_dict())
    assert again.is_over and again.winner == 0 and again.deal.is_over


def test_B9_2_a_match_over_resumed_from_four_keys_is_over() -> None:
    """B9.2: the four keys of a match that ended (its totals counting its last deal, which
    is over) read back as that match, over: its last deal is not counted again."""
    gained = over_deal().score().totals
    done = resumed([5001 - gained[0], 0])
    done.next_deal()
    data = done.to_dict()
    again = Match.from_dict({k: data[k] for k in ("rules", "totals", "dealer", "deal")})
    assert again.is_over and again.winner == 0
    assert again.totals == done.totals == (5001, gained[1])
    with pytest.raises(BiribaError, match="the match is over"):
        again.next_deal()
    # A match whose deal is over before next_deal(): not counted yet, in both forms.
    waiting = resumed([4000, 0])
    data = waiting.to_dict()
    for kept in (data, {k: data[k] for k in ("rules", "totals", "dealer", "deal")}):
        back = Match.from_dict(kept)
        assert not back.is_over and back.totals == (4000, 0)
        back.next_deal()
        assert back.totals == (4000 + gained[0], gained[1])


def test_next_deal_errors() -> None:
    match = Match.new(seed=1)
    with pytest.raises(BiribaError, match="not over"):
        match.next_deal()
    gained = over_deal().score().totals
    done = resumed([5001 - gained[0], 0])
    done.next_deal()
    with pytest.raises(BiribaError, match="the match is over"):
        done.next_deal()


def test_B9_2_a_winner_that_only_equals_the_team_is_refused() -> None:
    # False and 0.0 equal 0 in Python, not in JSON: the winner read back must be the
    # team's number itself.
    gained = over_deal().score().totals
    done = resumed([5001 - gained[0], 0])
    done.next_deal()
    data = done.to_dict()
    assert data["winner"] == 0 and Match.from_dict(data).winner == 0
    for wrong in (False, 0.0):
        with pytest.raises(InvalidPositionError, match="winner must be a team number or null"):
            Match.from_dict({**data, "winner": wrong})


def test_match_to_dict_and_from_dict() -> None:
    match = Match.new(seed=5)
    finish(match.deal)
    match.next_deal()
    data = match.to_dict()
    again = Match.from_dict(data)
    assert again.to_dict()["totals"] == data["totals"]
    assert again.deal.to_dict() == match.deal.to_dict()
    finish(match.deal, 3)
    finish(again.deal, 3)
    match.next_deal()
    again.next_deal()
    assert again.deal.to_dict() == match.deal.to_dict()  # the seed carries the future
    four = {k: data[k] for k in ("rules", "totals", "dealer", "deal")}
    assert Match.from_dict(four).totals == match.scores[0].totals


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("deal"), "missing key 'deal'"),
        (lambda d: d.update(totals=[1]), r"totals must be 2 integers, one per team \(B9\.1\)"),
        (
            lambda d: d.update(deals_played=1, winner=0),
            r"does not follow from the totals \(B9\.2\)",
        ),
        (lambda d: d.update(dealer=(d["dealer"] + 1) % 4), "is not the deal's dealer"),
        (lambda d: d.update(rules="buraco"), "rules differ"),
        (lambda d: d.update(rules="biriba-kozi"), "rules differ"),
        (lambda d: d.update(rules=BIRIBA.evolve(groups=False).to_dict()), "rules differ"),
        (lambda d: d.update(rules="no such rules"), "invalid match: rules: no rule set named"),
        (lambda d: d.update(rules=7), "invalid match: rules: rules must be"),
        (lambda d: d["deal"]["hands"][0].append("7H"), "too many: 7H$"),
        # Numbers no match holds, which repr() and records could not write out.
        (lambda d: d.update(totals=[10**5000, 0]), "each at most 1,000,000,000,000,000"),
        (lambda d: d.update(dealer=float(d["dealer"])), "is not the deal's dealer"),
        (lambda d: d.update(dealer=bool(d["dealer"])), "is not the deal's dealer"),
    ],
)
def test_match_from_dict_refuses_bad_data(change: object, message: str) -> None:
    data = Match.new(seed=2).to_dict()
    change(data)  # type: ignore[operator]
    with pytest.raises(InvalidPositionError, match=message):
        Match.from_dict(data)


@pytest.mark.parametrize(
    "named",
    ["BIRIBA", BIRIBA.to_dict(), {"name": "biriba"}],
    ids=["name in capitals", "the preset's dict", "a dict of the name alone"],
)
def test_match_from_dict_reads_its_rules_named_either_way(named: object) -> None:
    # API.md: wherever a match names its rules, loading accepts a preset's name or a
    # rule set's dict; the match and its deal may name the same rules in either form.
    data = Match.new(seed=2).to_dict()
    assert data["deal"]["rules"] == "biriba"
    data["rules"] = named
    match = Match.from_dict(data)
    assert match.rules == BIRIBA
    assert match.to_dict()["rules"] == "biriba"


def test_match_from_dict_reads_a_variant_named_by_its_dict_beside_a_given_rule_set() -> None:
    variant = BIRIBA.evolve(groups=False, name="house")
    data = Match.new(variant, seed=2).to_dict()
    assert data["rules"] == variant.to_dict()
    data["deal"]["rules"] = "house"  # the deal names it, the match gives its data
    assert Match.from_dict(data, variant).rules == variant
    data["rules"] = "house"
    data["deal"]["rules"] = variant.to_dict()
    assert Match.from_dict(data, variant).rules == variant


def test_match_types() -> None:
    with pytest.raises(TypeError):
        Match.new("biriba")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Match.from_dict([])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Match()
    assert Match.new(BIRIBA, seed=1).rules is BIRIBA


def test_B9_1_a_match_resumed_from_its_totals_saves_and_loads_back() -> None:
    # A match resumed from elsewhere with totals of its own: the scores of the deals
    # played since do not add up to the totals, so they are left out of its data, which
    # loads back (it was refused, the scores not adding up to the totals, B9.1).
    start = Match.new(seed=7).to_dict()
    four = {"rules": "biriba", "totals": [100, -20], "dealer": start["dealer"]}
    match = Match.from_dict({**four, "deal": start["deal"]})
    finish(match.deal, 1)
    match.next_deal()
    score = match.scores[0]
    assert match.totals == (100 + score.teams[0].total, -20 + score.teams[1].total)
    data = match.to_dict()
    assert "scores" not in data and data["deals_played"] == 1
    again = Match.from_dict(data)
    assert again.totals == match.totals and again.to_dict() == data
    # From zero totals the scores account for them, and are kept.
    fresh = Match.from_dict({**four, "totals": [0, 0], "deal": start["deal"]})
    finish(fresh.deal, 1)
    fresh.next_deal()
    assert fresh.to_dict()["scores"] and Match.from_dict(fresh.to_dict()).scores == fresh.scores
    assert Match.new(seed=7).to_dict()["scores"] == []


def test_Z5_2_a_buraco_match_cites_its_own_rules() -> None:
    """Z5.2 restates B9.2 for Buraco (the match ends once a team reaches the target,
    2000 being enough), and a Buraco deal ends by going out (Z4.2) or its last turn
    (Z4.3), not by B7.1: a Buraco match's refusals cite those, in the message and as
    err.rule, where Biriba's cite B9.2 and B7.1."""
    assert cited(BURACO, "B9.2") == "Z5.2" and cited(BIRIBA, "B9.2") == "B9.2"
    for rules, ends, first in ((BURACO, "Z4.2, Z4.3", "Z4.2"), (BIRIBA, "B7.1", "B7.1")):
        with pytest.raises(BiribaError) as info:
            Match.new(rules, seed=1).next_deal()  # its first deal has just begun
        assert info.value.rule == first
        assert f"the deal in progress is not over yet ({ends})" in str(info.value)
    data = Match.new(BURACO, seed=1).to_dict()
    four = {k: data[k] for k in ("rules", "totals", "dealer", "deal")}
    four["totals"] = [2500, 0]  # ends the match: no deal can be in progress
    with pytest.raises(InvalidPositionError, match=r"end the match \(Z5\.2\)") as refused:
        Match.from_dict(four)
    assert refused.value.rule == "Z5.2"
    deal = Deal.new(BURACO, seed=2, dealer=four["dealer"])
    rng = random.Random(2)
    while not deal.is_over:
        deal.play(rng.choice(deal.legal_moves()))
    four["deal"], four["totals"] = deal.to_dict(), [2000, 0]  # 2000 is enough (Z5.2)
    over = Match.from_dict(four)
    assert over.is_over and over.winner == 0
    with pytest.raises(BiribaError, match=r"the match is over \(Z5\.2\)") as info:
        over.next_deal()
    assert info.value.rule == "Z5.2"
    wrong = {**over.to_dict(), "winner": 1}
    with pytest.raises(InvalidPositionError, match=r"does not follow") as refused:
        Match.from_dict(wrong)
    assert refused.value.rule == "Z5.2"


def test_totals_that_play_would_take_past_the_bound_stop_the_match_unchanged() -> None:
    """Totals read from data may start at 10**15 either way (MAX_POINTS); the deal that
    would take one past it is not added: next_deal raises a BiribaError and the match
    stays as it was, still written and read back (it could not be, past the bound)."""
    from biriba.bots import RandomBot, play_deal
    from biriba.limits import MAX_POINTS

    data = Match.new(seed=1).to_dict()
    data["totals"] = [-MAX_POINTS, -MAX_POINTS]
    match = Match.from_dict(data)
    play_deal(match.deal, [RandomBot(seed=s) for s in range(4)])
    assert min(s.total for s in match.deal.score().teams) < 0  # a team loses points
    before = match.to_dict()
    with pytest.raises(BiribaError, match="past the 1,000,000,000,000,000 either way"):
        match.next_deal()
    assert match.to_dict() == before
    assert Match.from_dict(before).totals == (-MAX_POINTS, -MAX_POINTS)
