"""Positions: to_dict / from_dict, their checks, and bad input everywhere."""

from __future__ import annotations

import copy
import enum
import json
import random
import re
from typing import Any

import pytest

from biriba import (
    BIRIBA,
    BiribaError,
    Deal,
    IllegalMoveError,
    InvalidPositionError,
    Match,
    NotationError,
    Phase,
    team_of,
)

from .helpers import deal_at, position


def mid_turn_deal() -> Deal:
    deal = Deal.new(seed=3)
    rng = random.Random(3)
    while deal.phase is not Phase.PLAY or len(deal.history) < 30:
        deal.play(rng.choice(deal.legal_moves()))
    return deal


def test_position_has_the_fixed_keys() -> None:
    data = Deal.new(seed=1).to_dict()
    for key in (
        "rules",
        "dealer",
        "to_move",
        "phase",
        "hands",
        "stock",
        "discard",
        "reserves",
        "melds",
        "reserve_received",
        "passes",
        "pile_card",
        "unactivated",
        "closed_by",
    ):
        assert key in data
    assert data["rules"] == "biriba" and data["phase"] == "draw"
    assert data["unactivated"] == [None, None] and data["closed_by"] is None


def test_round_trip_in_the_middle_of_a_turn_keeps_the_pile_card() -> None:
    deal = deal_at(hands={0: "9D KS 5C"}, phase="draw", discard="KS")
    deal.play("take")
    data = json.loads(json.dumps(deal.to_dict()))
    assert data["pile_card"] == "KS"
    again = Deal.from_dict(data)
    assert not again.is_legal("discard KS")
    assert again.legal_moves() == deal.legal_moves()


def test_optional_keys_default() -> None:
    data = position(hands={0: "9D KS 5C"}, phase="draw")
    for key in ("pile_card", "unactivated", "closed_by"):
        del data[key]
    deal = Deal.from_dict(data)
    assert deal.pile_card is None and deal.closed_by is None


def test_same_future_after_a_round_trip() -> None:
    deal = mid_turn_deal()
    again = Deal.from_dict(deal.to_dict())
    rng1, rng2 = random.Random(9), random.Random(9)
    while not deal.is_over:
        move = rng1.choice(deal.legal_moves())
        assert rng2.choice(again.legal_moves()) == move
        deal.play(move)
        again.play(move)
    assert again.score() == deal.score()


def broken(change: Any) -> dict[str, Any]:
    data = Deal.new(seed=1).to_dict()
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "message", "rule"),
    [
        (lambda d: d.pop("hands"), "missing key", None),
        (lambda d: d.update(rules="chess"), "no rule set named", None),
        (lambda d: d.update(dealer=4), "dealer is 4, out of range 0..3 \\(B1.1\\)$", "B1.1"),
        (lambda d: d.update(to_move=None), "to_move is null exactly", None),
        (lambda d: d.update(phase="lunch"), "phase must be", None),
        (lambda d: d["hands"][0].append("7H"), "B1.2\\): too many: 7H$", "B1.2"),
        (lambda d: d["hands"][0].extend(["JK", "JK"]), "too many: JK \\(2 copies\\)$", "B1.2"),
        (lambda d: d["hands"][0].pop(), "B1.2\\): missing: [2-9TJQKA][CDHS]$", "B1.2"),
        (lambda d: d["hands"][0].__setitem__(0, "7X"), "hands\\[0\\]\\[0\\]", None),
        (lambda d: d["hands"][0].__setitem__(0, 7), "a card is written as a string", None),
        (lambda d: d.update(hands=d["hands"][:3]), "hands must have 4 entries", None),
        (lambda d: d["melds"][0].append("3H 4H JK JK"), "B3.3", "B3.3"),
        (lambda d: d.update(reserve_received=[True, False]), "reserve packet", "B5.1"),
        (lambda d: d.update(passes=2), "passes happen only with the stock empty", "B4.4"),
        (lambda d: d.update(pile_card="7H"), "pile_card is set only in the play phase", "B4.2"),
        (lambda d: d.update(closed_by=1), "closed_by is set but the deal is not over", "B7.1"),
        (lambda d: d.update(unactivated=[1, None]), "not in team 0", "B1.1"),
        (lambda d: d["reserves"][0].pop(), "reserves\\[0\\] has 10 cards", "B2.3"),
        (lambda d: d.update(phase="over", to_move=None), "needs pass_limit passes", "B7.1"),
        (lambda d: d.update(reserve_received="no"), "must be a list", None),
    ],
)
def test_from_dict_refuses_bad_positions(change: Any, message: str, rule: str | None) -> None:
    with pytest.raises(InvalidPositionError, match=message) as info:
        Deal.from_dict(broken(change))
    assert info.value.rule == rule  # the rule broken, None for malformed data


def test_from_dict_refuses_a_position_with_no_legal_move() -> None:
    data = position(hands={0: "KS"}, phase="play")
    with pytest.raises(InvalidPositionError, match=r"B4\.5") as info:
        Deal.from_dict(data)
    assert info.value.rule == "B4.5"


def test_from_dict_types() -> None:
    with pytest.raises(TypeError):
        Deal.from_dict("{}")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Deal.from_dict(Deal.new(seed=1).to_dict(), rules="biriba")  # type: ignore[arg-type]


def test_from_dict_does_not_change_its_input() -> None:
    data = Deal.new(seed=2).to_dict()
    kept = copy.deepcopy(data)
    Deal.from_dict(data)
    assert data == kept


def test_bad_input_to_the_deal() -> None:
    deal = Deal.new(seed=1)
    before = deal.to_dict()
    with pytest.raises(TypeError):
        deal.play(42)  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        deal.play("jump")
    with pytest.raises(
        IllegalMoveError, match=r"^illegal move 'meld \.\.\.': '5H JK 7H JK' is not a meld"
    ):
        deal.play("meld 5H JK 7H JK")
    with pytest.raises(TypeError):
        deal.hand("0")  # type: ignore[arg-type]
    with pytest.raises(BiribaError, match="seat 4 is out of range"):
        deal.hand(4)
    with pytest.raises(BiribaError, match="team 2 is out of range"):
        deal.melds(2)
    with pytest.raises(BiribaError, match="nothing to undo"):
        deal.undo()
    with pytest.raises(TypeError):
        Deal.new(seed=1.5)  # type: ignore[arg-type]
    with pytest.raises(BiribaError, match="seat 9"):
        Deal.new(dealer=9)
    with pytest.raises(TypeError):
        Deal()
    assert deal.to_dict() == before
    assert not deal.is_legal("discard 7H")


def test_team_of() -> None:
    assert [team_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert Deal.new(seed=1).team_of(3) == 1
    with pytest.raises(BiribaError):
        team_of(4)


def test_over_deal_refuses_every_move() -> None:
    deal = deal_at(hands={0: "5C"}, phase="draw", stock="", passes=3)
    deal.play("pass")
    with pytest.raises(IllegalMoveError, match=r"B7\.1"):
        deal.play("pass")
    assert Deal.from_dict(deal.to_dict()).is_over


def test_a_pickled_deal_comes_back_equal_and_shares_the_engine() -> None:
    import pickle

    from biriba.engine import engine_for

    deal = Deal.new(seed=3)
    deal.play("draw")
    again = pickle.loads(pickle.dumps(deal))
    assert again.to_dict() == deal.to_dict() and again.history == deal.history
    assert again.legal_moves() == deal.legal_moves()
    again.undo()
    assert again.to_dict() == Deal.new(seed=3).to_dict()
    assert pickle.loads(pickle.dumps(engine_for(deal.rules))) is engine_for(deal.rules)


def test_B1_2_a_hand_of_hundreds_of_cards_keeps_its_size() -> None:
    """The largest pack (16 decks, 64 jokers) lets one hand hold hundreds of cards: its
    size, and the other seat's, read right after dealing from data, after a draw, after
    a discard, after undo and after a round trip (a position keeps the sizes packed in
    one number, :data:`biriba.position.SIZE_BITS` bits a seat)."""
    from biriba.position import _SIZE_MASK, SIZE_BITS
    from biriba.rules import MAX_PACK

    assert 1 << SIZE_BITS > MAX_PACK and _SIZE_MASK == (1 << SIZE_BITS) - 1
    rules = BIRIBA.evolve(decks=16, jokers=64, players=2)
    cards = [f"{rank}{suit}" for suit in "CD" for rank in "23456789TJQKA"][:19]
    held = " ".join(card for card in cards for _ in range(16))  # 304 cards
    deal = deal_at(hands={0: held}, rules=rules, phase="draw", to_move=0, dealer=1)
    other = len(deal.hand(1))
    assert (deal.hand_size(0), deal.hand_size(1)) == (304, other)
    deal.play("draw")
    assert (deal.hand_size(0), deal.hand_size(1)) == (305, other) == (len(deal.hand(0)), other)
    deal.play("discard 2C")
    assert (deal.hand_size(0), deal.hand_size(1)) == (304, other)
    assert deal.view(1).hand_sizes == (304, other)
    again = Deal.from_dict(deal.to_dict())
    assert (again.hand_size(0), again.hand_size(1)) == (304, other)
    deal.undo()
    assert deal.hand_size(0) == 305


def test_B1_2_a_message_lists_a_few_cards_of_a_pack_far_off() -> None:
    # API.md: a message stays short. Fifty stocks' worth of cards: six named, the rest
    # counted.
    data = Deal.new(seed=1).to_dict()
    data["stock"] *= 50
    with pytest.raises(InvalidPositionError) as info:
        Deal.from_dict(data)
    message = str(info.value)
    assert info.value.rule == "B1.2"
    assert re.search(
        r"\(B1\.2\): too many: (\S+ \(\d+ copies\), ){5}\S+ \(\d+ copies\) and \d+ more$", message
    )
    assert len(message) < 200


def test_every_rule_a_position_breaks_is_cited_in_its_message() -> None:
    data = Deal.new(seed=1).to_dict()
    for key, value, rule in (("to_move", 9, "B1.1"), ("passes", 7, "B4.4")):
        with pytest.raises(InvalidPositionError) as info:
            Deal.from_dict({**data, key: value})
        assert info.value.rule == rule and f"({rule})" in str(info.value)


def test_a_rule_id_is_cited_whole() -> None:
    # The message cites the rule, unless it already does: as a whole id (B3.12 is no B3.1).
    from biriba.position_data import _fail

    assert str(_fail("it mentions B3.12", "B3.1")).endswith("it mentions B3.12 (B3.1)")
    assert str(_fail("it cites it (B3.1)", "B3.1")).endswith("it cites it (B3.1)")
    assert str(_fail("no rule here", None)).endswith("no rule here")


def test_whole_numbers_of_an_int_type_read_as_plain_ints() -> None:
    """A position's or a match's numbers given as an int type (an IntEnum's members,
    which is_int accepts) are kept as plain ints: the dealer stayed the enum member, in
    ``deal.dealer`` and in ``to_dict()``."""

    class Seat(enum.IntEnum):
        NORTH = 0
        EAST = 1

    data = Deal.new(seed=1, dealer=1).to_dict()
    deal = Deal.from_dict({**data, "dealer": Seat.EAST, "passes": Seat.NORTH})
    assert type(deal.dealer) is int and deal.to_dict() == data
    assert all(type(deal.to_dict()[key]) is int for key in ("dealer", "to_move", "passes"))
    match = Match.new(seed=1).to_dict()
    read = Match.from_dict({**match, "totals": [Seat.EAST, Seat.NORTH]})
    assert all(type(total) is int for total in read.totals) and read.totals == (1, 0)
