"""Positions that no play can reach are refused, each with the rule it breaks, though
every field may be valid on its own."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from biriba import BIRIBA, BURACO, Deal, InvalidPositionError, RuleSet

from .helpers import position

BIRIBA_7 = "3H 4H 5H 6H 7H 8H 9H"


def refused(data: dict[str, Any], rule: str) -> None:
    with pytest.raises(InvalidPositionError) as caught:
        Deal.from_dict(data)
    assert caught.value.rule == rule, str(caught.value)


def test_B4_2_a_pile_card_with_cards_on_the_pile() -> None:
    # Taking a one-card pile empties it; it stays empty until the turn's discard.
    good = position(hands={0: "7C 8C 9D KS"}, pile_card="KS")
    Deal.from_dict(good)
    refused(position(hands={0: "7C 8C 9D KS"}, pile_card="KS", discard="5D"), "B4.2")


def test_B4_2_a_pile_card_neither_in_the_hand_nor_in_the_teams_melds() -> None:
    # The card taken stays in the hand until it is melded; the turn's discard, which
    # would be the only other way out of the hand, ends the turn and clears pile_card.
    Deal.from_dict(position(hands={0: "7C 8C 9D KS"}, pile_card="KS"))
    melded = position(hands={0: "7C 8C"}, melds=(["JS QS KS"], []), pile_card="KS")
    Deal.from_dict(melded)
    refused(position(hands={0: "7C 8C 9D KS"}, pile_card="JK"), "B4.2")
    # A meld of the other team does not hold the mover's card.
    refused(position(hands={0: "7C 8C"}, melds=([], ["JS QS KS"]), pile_card="KS"), "B4.2")


def test_B4_4_a_deal_over_by_passes_with_cards_in_the_stock() -> None:
    over: dict[str, Any] = dict(to_move=None, phase="over", passes=4)
    Deal.from_dict(position(hands={0: "7C 8C"}, stock_size=0, **over))
    refused(position(hands={0: "7C 8C"}, stock_size=41, **over), "B4.4")


def test_B4_4_a_close_with_passes() -> None:
    closed: dict[str, Any] = dict(
        hands={0: ""},
        to_move=None,
        phase="over",
        closed_by=0,
        received=(True, False),
        melds=([BIRIBA_7], []),
        stock_size=0,
    )
    Deal.from_dict(position(**closed))
    refused(position(passes=2, **closed), "B4.4")


def test_B5_4_an_unactivated_receiver_holds_exactly_the_packet() -> None:
    waiting: dict[str, Any] = dict(
        to_move=1, phase="draw", received=(True, False), melds=([BIRIBA_7], [])
    )
    packet = "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC"
    Deal.from_dict(position(hands={0: packet}, unactivated=(0, None), **waiting))
    refused(position(hands={0: "2C 3C 4C"}, unactivated=(0, None), **waiting), "B5.4")


def test_B5_2_a_reserve_received_with_no_biriba_on_the_table() -> None:
    refused(
        position(hands={0: "7C 8C 9D"}, received=(True, False), melds=(["3H 4H 5H"], [])), "B5.2"
    )
    # Under a rule set whose reserve needs no biriba (V4), the same position is fine.
    rules = BIRIBA.evolve(name="reserve-without-biriba", reserve_needs_biriba=False)
    data = position(
        hands={0: "7C 8C 9D"}, received=(True, False), melds=(["3H 4H 5H"], []), rules=rules
    )
    Deal.from_dict(data, rules)


def test_B6_1_a_close_with_no_biriba_on_the_table() -> None:
    rules = BIRIBA.evolve(name="reserve-without-biriba", reserve_needs_biriba=False)
    data = position(
        hands={0: ""},
        to_move=None,
        phase="over",
        closed_by=0,
        received=(True, False),
        melds=(["3H 4H 5H"], []),
        rules=rules,
    )
    with pytest.raises(InvalidPositionError) as caught:
        Deal.from_dict(data, rules)
    assert caught.value.rule == "B6.1"


@pytest.mark.parametrize("rules", [BURACO, BIRIBA.evolve(name="no-up-card", up_card=False)])
def test_Z2_1_a_full_stock_without_an_up_card_is_the_deal_as_dealt(rules: RuleSet) -> None:
    """Dealt with no up-card, the pile starts empty (Z2.1), so the first move is a draw:
    with the stock full and every packet there, nothing has been played. B2.3 is the
    deal of a Biriba rule set without an up-card."""
    rule = "Z2.1" if rules is BURACO else "B2.3"
    deal = Deal.new(rules, seed=3, dealer=2)
    dealt = deal.to_dict()
    Deal.from_dict(dealt)
    moved = copy.deepcopy(dealt)
    moved["hands"][1] += moved["hands"][0][:8]  # hands of 3, 19, 11 and 11 cards
    del moved["hands"][0][:8]
    refused(moved, rule)
    wrong_seat = copy.deepcopy(dealt)
    wrong_seat["to_move"] = 0  # the dealer is 2: seat 3 plays first (B2.4)
    refused(wrong_seat, rule)
    discarded = copy.deepcopy(dealt)
    discarded["discard"] = [discarded["hands"][3].pop()]
    refused(discarded, rule)
    # The first draw leaves the stock short of full: a position like any other.
    deal.play("draw")
    Deal.from_dict(deal.to_dict())
