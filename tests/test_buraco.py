"""One test (or more) per rule of RULES.md part Z (Buraco), each built from an explicit
position, which also goes through ``to_dict``/``from_dict`` unchanged."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from biriba import (
    BIRIBA,
    BURACO,
    BiribaError,
    Card,
    Deal,
    Discard,
    IllegalMoveError,
    InvalidMeldError,
    InvalidPositionError,
    LayMeld,
    Match,
    Meld,
    MeldKind,
    Phase,
    RuleSet,
    check_move,
    enumerate_melds,
    full_pack,
    parse_cards,
)
from biriba.engine import Engine
from biriba.melds import under_rules

from .helpers import deal_at, position, rejects, texts
from .reference import Reference

C = Card.parse
DATA = Path(__file__).parent / "data"
BURACO_2 = RuleSet.named("buraco-2")
BURACO_6 = RuleSet.named("buraco-6")
#: Six players in three pairs, with Buraco's two mortos (Z1.1, Z2.1).
THREE_PAIRS = BURACO.evolve(name="buraco-3x2", players=6, teams=3)
REAL = "3H 4H 5H 6H 7H 8H 9H"  # a real (clean) canastra
DIRTY = "3S 4S 5S JK 7S 8S 9S"  # a dirty canastra: the joker is 6S
FOUR = "4H 5H 6H 7H"  # no canastra


def kept(deal: Deal) -> Deal:
    """``deal``, once its position has gone through JSON, ``to_dict`` and ``from_dict``
    and come back the same, with the same legal moves."""
    data = deal.to_dict()
    again = Deal.from_dict(json.loads(json.dumps(data)))
    assert again.to_dict() == data
    assert texts(again) == texts(deal)
    assert again.score() == deal.score()
    if deal.to_move is not None:  # the player to move sees the same moves
        assert set(deal.view(deal.to_move).legal_moves()) == set(deal.legal_moves())
    return deal


def at(**kwargs: Any) -> Deal:
    """A Buraco deal at the explicit position ``position(**kwargs)`` (round-tripped)."""
    kwargs.setdefault("rules", BURACO)
    return kept(deal_at(**kwargs))


def first_turn(**kwargs: Any) -> Deal:
    """The deal's first position, seat 0 to draw: 11 cards in each hand, both mortos set
    aside, a full stock and an empty pile (Z2.1)."""
    kwargs.setdefault("hands", {0: "3C 4C 5C 9D 9D JH QS KS 6D 7S 8H"})
    deal = at(phase="draw", **kwargs)
    assert len(deal.stock) == 106 - 44 - 22 and deal.discard_pile == ()
    return deal


def finish_turn(deal: Deal) -> None:
    """The player to move draws and discards the first card it may."""
    deal.play("draw")
    deal.play(next(m for m in sorted(texts(deal)) if m.startswith("discard")))


# ---------------------------------------------------------------- Z1 players and cards
def test_Z1_1_two_to_six_players_in_teams_that_alternate() -> None:
    assert (BURACO.players, BURACO.teams) == (4, 2)
    assert (BURACO_2.players, BURACO_2.teams, BURACO_2.players_per_team) == (2, 2, 1)
    assert (BURACO_6.players, BURACO_6.teams, BURACO_6.players_per_team) == (6, 2, 3)
    assert [BURACO.team_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert [BURACO_6.team_of(s) for s in range(6)] == [0, 1, 0, 1, 0, 1]
    assert [THREE_PAIRS.team_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]
    for players in range(2, 7):  # each playing alone
        alone = BURACO.evolve(name=f"buraco-{players}-alone", players=players, teams=players)
        deal = Deal.new(alone, seed=players)
        assert [deal.hand_size(s) for s in range(players)] == [11] * players
        assert deal.team_of(players - 1) == players - 1
    # Seat 3 plays for team 0 with three pairs: it adds to team 0's meld.
    deal = at(
        rules=THREE_PAIRS,
        hands={3: "8C KS QD"},
        to_move=3,
        melds=(["5C 6C 7C"], ["9H TH JH"], []),
    )
    deal.play("add 0 8C")
    assert str(deal.melds(0)[0]) == "5C 6C 7C 8C"
    assert str(deal.melds(1)[0]) == "9H TH JH"


def test_Z1_2_the_pack_is_106_cards_and_twos_and_jokers_are_substitutes() -> None:
    for rules in (BURACO, BURACO_2, BURACO_6, THREE_PAIRS):
        pack = Counter(full_pack(rules))
        assert sum(pack.values()) == 106
        assert pack[C("JK")] == 2
        assert all(n == 2 for card, n in pack.items() if not card.is_joker)
        assert sum(pack.values()) == 106
    assert all(BURACO.is_wild(c) for c in parse_cards("JK 2C 2D 2H 2S"))
    assert not any(BURACO.is_wild(c) for c in parse_cards("AC 3D KH"))
    # A two and a joker each stand in for a card in a deal.
    deal = at(hands={0: "5C 2D 7C 9H JK JH KS"})
    deal.play("meld 5C 2D 7C")
    deal.play("meld 9H JK JH")
    assert [m.substitutes for m in deal.melds(0)] == [(C("2D"),), (C("JK"),)]
    # A third joker is not in the pack.
    data = position(rules=BURACO, hands={0: "JK JK KS"})
    data["stock"][0] = "JK"
    with pytest.raises(InvalidPositionError, match=r"Z1\.2") as info:
        Deal.from_dict(data)
    assert info.value.rule == "Z1.2"
    # Part Z restates B1.2's pack and B3.1's melds: a Buraco rule set cites Z1.2 and Z3.2.
    for text, rule in (("7C 7C 7C", "Z1.2"), ("3C 4D 5C", "Z3.2"), ("3C 4C", "Z3.2")):
        with pytest.raises(InvalidMeldError) as meld_info:
            Meld.parse(text, BURACO)
        assert meld_info.value.rule == rule and f"{rule}:" in str(meld_info.value)
        with pytest.raises(InvalidMeldError) as meld_info:
            Meld.parse(text, BIRIBA)
        assert meld_info.value.rule == {"Z1.2": "B1.2", "Z3.2": "B3.1"}[rule]


def test_Z1_3_card_values_as_in_B8_1() -> None:
    deal = at(hands={0: "JK AS 2C 8D KD 3H 7S", 2: "4C 9C"}, melds=(["TC JC QC"], []))
    score = deal.score().teams[0]
    assert score.hands == -(20 + 15 + 10 + 10 + 10 + 5 + 5) - (5 + 10)
    assert score.melded == 30
    values = {"JK": 20, "A": 15, "2": 10, "3": 5, "7": 5, "8": 10, "K": 10}
    for text, value in values.items():
        card = C(text if text == "JK" else text + "H")
        assert BURACO.card_value(card) == value


# ---------------------------------------------------------------- Z2 dealing
def test_Z2_1_eleven_each_two_mortos_no_up_card() -> None:
    deal = Deal.new(BURACO, seed=11, dealer=2)
    pack = list(full_pack(BURACO))
    random.Random(11).shuffle(pack)
    for seat in range(4):  # one at a time, starting with the seat after the dealer
        assert list(deal.hand(seat)) == sorted(pack[(seat - 3) % 4 : 44 : 4])
    assert deal.reserves == (tuple(pack[44:55]), tuple(pack[55:66]))
    assert deal.discard_pile == ()  # no up-card
    assert deal.stock == tuple(pack[66:][::-1])  # the rest is the stock
    assert deal.to_move == 3 and deal.phase is Phase.DRAW
    assert texts(deal) == {"draw"}
    kept(deal)
    rejects(deal, "take", "B4.1")  # an empty pile cannot be taken
    # Always exactly two mortos, whatever the number of players or teams.
    for rules in (BURACO_2, BURACO_6, THREE_PAIRS):
        other = Deal.new(rules, seed=3)
        assert [len(p) for p in other.reserves] == [11, 11]
        assert len(other.stock) == 106 - 11 * rules.players - 22
        assert other.discard_pile == ()
    # An explicit first position: the first player can only draw.
    start = first_turn()
    assert texts(start) == {"draw"}
    rejects(start, "take", "B4.1")


def test_Z2_2_redraw_once_right_after_the_first_draw() -> None:
    deal = first_turn()
    rejects(deal, "redraw", "Z2.2")  # not before the draw
    top, after = deal.stock[-1], deal.stock[-2]
    hand = Counter(deal.hand(0))
    deal.play("draw")
    assert "redraw" in texts(deal)
    assert kept(deal).to_dict()["redraw"] == str(top)
    deal.play("redraw")
    assert deal.discard_pile == (top,)  # the card laid off starts the pile
    assert Counter(deal.hand(0)) == hand + Counter([after])  # the next card in hand
    assert deal.to_move == 0 and deal.phase is Phase.PLAY  # the turn goes on
    assert kept(deal).to_dict()["redraw"] is None
    assert "redraw" not in texts(deal)
    rejects(deal, "redraw", "Z2.2")  # only once
    deal.play("meld 3C 4C 5C")
    deal.play("discard 9D")
    assert deal.to_move == 1
    deal.play("draw")  # not the deal's first draw
    assert "redraw" not in texts(kept(deal))
    rejects(deal, "redraw", "Z2.2")


def test_Z2_2_a_position_opens_the_redraw_only_right_after_the_first_draw() -> None:
    deal = first_turn()
    deal.play("draw")
    data = deal.to_dict()
    assert Deal.from_dict(data).is_legal("redraw")
    later = position(
        rules=BURACO,
        hands={1: "3C 4C 5C 9D 9D JH QS KS 6D 7S 8H KD"},
        to_move=1,
        discard="KC",
        redraw="KD",
    )
    assert len(later["stock"]) < len(data["stock"])
    with pytest.raises(InvalidPositionError, match=r"Z2\.2") as info:
        Deal.from_dict(later)  # a later turn claiming the redraw is open
    assert info.value.rule == "Z2.2"
    later["redraw"] = None
    assert "redraw" not in texts(Deal.from_dict(later))
    # A full stock less one card is not enough: the second player's first draw, after
    # the first took the pile, is no deal's first draw (the position reader asks what
    # the engine asks).
    rules = BIRIBA.evolve(name="biriba-redraw", first_turn_redraw=True)
    took = Deal.new(rules, seed=4)
    took.play("take")
    took.play(next(m for m in took.legal_moves() if isinstance(m, Discard)))
    took.play("draw")
    assert not took.is_legal("redraw")
    claimed = took.to_dict()
    claimed["redraw"] = claimed["hands"][took.to_move][0]
    with pytest.raises(InvalidPositionError, match=r"Z2\.2") as info:
        Deal.from_dict(claimed)
    assert info.value.rule == "Z2.2"


def test_Z2_2_a_first_draw_that_brings_a_morto_leaves_the_redraw_open_in_a_position() -> None:
    # A stock that the first draw exhausts (Z4.3): the next morto becomes the stock, and
    # the redraw is still open. The position says so, and reads back with it.
    rules = BURACO.evolve(name="buraco-short-stock", stock_end_remaining=39)
    deal = Deal.new(rules, seed=1)
    assert len(deal.to_dict()["stock"]) == 40 and len(deal.to_dict()["reserves"]) == 2
    deal.play("draw")
    data = deal.to_dict()
    assert len(data["stock"]) == 39 + rules.reserve_size and len(data["reserves"]) == 1
    assert data["redraw"] is not None and "redraw" in texts(deal)
    read = Deal.from_dict(json.loads(json.dumps(data)))
    assert read.to_dict() == data
    assert texts(read) == texts(deal)
    assert check_move(data, "redraw").legal
    deal.play("redraw")
    read.play("redraw")
    assert read.to_dict() == deal.to_dict()
    # The next player's draw is no first draw.
    later = Deal.from_dict(data)
    later.play(next(m for m in later.legal_moves() if isinstance(m, Discard)))
    later.play("draw")
    assert "redraw" not in texts(later)
    claimed = later.to_dict()
    claimed["redraw"] = claimed["hands"][later.to_move][0]
    with pytest.raises(InvalidPositionError, match=r"Z2\.2") as info:
        Deal.from_dict(claimed)
    assert info.value.rule == "Z2.2"


def test_Z2_2_no_redraw_after_a_meld_or_on_a_later_first_draw() -> None:
    deal = first_turn()
    deal.play("draw")
    deal.play("meld 3C 4C 5C")
    assert "redraw" not in texts(kept(deal))
    rejects(deal, "redraw", "Z2.2")
    # Seat 1's first draw, after seat 0's turn, is not the deal's first draw.
    later = at(hands={1: "3C 4C 5C 9D 9D JH QS KS 6D 7S 8H"}, to_move=1, phase="draw", discard="KD")
    later.play("draw")
    assert "redraw" not in texts(later)
    rejects(later, "redraw", "Z2.2")
    # Biriba has no redraw.
    biriba = Deal.new(BIRIBA, seed=1)
    biriba.play("draw")
    assert "redraw" not in texts(biriba)
    assert "redraw" not in biriba.to_dict()
    rejects(biriba, "redraw", "Z2.2")


# ---------------------------------------------------------------- Z3 melds
def test_Z3_1_draw_or_take_then_meld_then_discard() -> None:
    deal = at(hands={0: "3C 4C 5C 9D KS"}, phase="draw", discard="8S 8D")
    assert texts(deal) == {"draw", "take"}
    rejects(deal, "discard KS", "B4.1")
    rejects(deal, "meld 3C 4C 5C", "B4.1")
    taken = deal.copy()
    deal.play("draw")
    rejects(deal, "take", "B4.1")
    deal.play("meld 3C 4C 5C")
    deal.play("discard KS")
    assert deal.to_move == 1 and deal.phase is Phase.DRAW
    assert deal.discard_pile == parse_cards("8S 8D KS")
    taken.play("take")  # the whole pile
    assert taken.discard_pile == ()
    assert Counter(taken.hand(0)) == Counter(parse_cards("3C 4C 5C 9D KS 8S 8D"))


def test_Z3_2_a_new_meld_has_3_to_6_cards_and_grows_past_6_by_additions() -> None:
    deal = at(hands={0: "3C 4C 5C 6C 7C 8C 9C KS QS"})
    rejects(deal, "meld 3C 4C", "Z3.2")
    rejects(deal, "meld 3C 4C 5C 6C 7C 8C 9C", "Z3.2")
    laid = [m for m in deal.legal_moves() if isinstance(m, LayMeld)]
    assert max(len(m.meld) for m in laid) == 6
    assert "meld 3C 4C 5C 6C 7C 8C" in texts(deal)
    deal.play("meld 3C 4C 5C 6C 7C 8C")
    deal.play("add 0 9C")  # additions grow it past 6
    assert len(deal.melds(0)[0]) == 7 and deal.melds(0)[0].is_biriba
    kept(deal)
    # Groups: free suits, identical copies, laid at most 6, grown to 7 and 8.
    group = at(hands={0: "7C 7C 7D 7D 7H 7H 7S 7S KS QS"})
    assert "meld 7C 7D 7H" in texts(group)
    assert "meld 7C 7C 7H" in texts(group)
    assert "meld 7C 7C 7D 7D 7H 7H" in texts(group)
    rejects(group, "meld 7C 7C 7D 7D 7H 7H 7S", "Z3.2")
    group.play("meld 7C 7C 7D 7D 7H 7H")
    group.play("add 0 7S")
    group.play("add 0 7S")
    assert str(group.melds(0)[0]) == "7C 7C 7D 7D 7H 7H 7S 7S"
    rejects(kept(group), "meld KS QS", "Z3.2")
    # A sequence is of one suit.
    mixed = at(hands={0: "3C 4D 5C KS QS"})
    rejects(mixed, "meld 3C 4D 5C", "Z3.2")


def test_Z3_3_a_low_ace_sequence_grows_a_high_ace_closes_it() -> None:
    low = at(hands={0: "4H 5H KS QS"}, melds=(["AH 2H 3H"], []))
    low.play("add 0 4H")
    assert str(low.melds(0)[0]) == "AH 2H 3H 4H"
    high = at(hands={0: "JH JK 2C AH KS QS"}, melds=(["QH KH AH"], []))
    assert not any(m.startswith("add") for m in texts(high))
    rejects(high, "add 0 JH", "Z3.3")
    rejects(high, "add 0 JK", "Z3.3")
    rejects(high, "add 0 2C", "Z3.3")
    # A substitute standing for the ace closes the sequence too, even to the ace itself.
    joker_ace = at(hands={0: "JH AH 2C KS QS"}, melds=(["QH KH JK"], []))
    assert joker_ace.melds(0)[0].high == 14
    assert not any(m.startswith("add") for m in texts(joker_ace))
    for card in ("JH", "AH", "2C"):
        rejects(joker_ace, f"add 0 {card}", "Z3.3")
    # A closed sequence takes not even the natural a substitute in it stands for.
    middle = at(hands={0: "KH TH KS QS"}, melds=(["JH QH JK AH"], []))
    rejects(middle, "add 0 KH", "Z3.3")
    rejects(middle, "add 0 TH", "Z3.3")
    # Closing it by an addition: the ace, or a substitute placed as the ace.
    closing = at(hands={0: "AH JK TH 9H KS QS"}, melds=(["JH QH KH"], []))
    assert "add 0 JK -> JH QH KH JK" in texts(closing)
    assert "add 0 JK -> JK JH QH KH" in texts(closing)
    by_joker = closing.copy()
    by_joker.play("add 0 JK -> JH QH KH JK")
    rejects(kept(by_joker), "add 0 TH", "Z3.3")
    closing.play("add 0 AH")
    rejects(kept(closing), "add 0 TH", "Z3.3")
    rejects(closing, "add 0 JK", "Z3.3")


def test_Z3_4_canastras_real_and_dirty_substitutes_never_outnumber_naturals() -> None:
    real, dirty = Meld.parse(REAL, BURACO), Meld.parse(DIRTY, BURACO)
    assert real.is_biriba and real.is_clean
    assert dirty.is_biriba and not dirty.is_clean and dirty.substitutes == (C("JK"),)
    six = Meld.parse("3H 4H 5H 6H 7H 8H", BURACO)
    assert not six.is_biriba
    # Two substitutes are allowed, as many as the naturals; more are refused.
    deal = at(hands={0: "5H JK 7H 2C 9H 2D 2S KS QS"})
    rejects(deal, "meld JK 5H 2C", "Z3.4")
    groups = at(hands={0: "7C 7D JK 2C 2D KS QS"})
    assert "meld 7C 7D 2C JK" in texts(groups)  # as many substitutes as naturals
    rejects(groups, "meld 7C 2C JK", "Z3.4")
    groups.play("meld 7C 7D 2C JK")
    rejects(kept(groups), "add 0 2D", "Z3.4")
    deal.play("meld 5H JK 7H 2C")  # two naturals, two substitutes
    assert deal.melds(0)[0].substitutes == (C("JK"), C("2C"))
    rejects(kept(deal), "add 0 2D", "Z3.4")  # a third substitute beside two naturals
    deal.play("add 0 9H")
    deal.play("add 0 2D -> 5H JK 7H 2C 9H 2D")  # three and three
    rejects(kept(deal), "add 0 2S", "Z3.4")
    meld = deal.melds(0)[0]
    assert str(meld) == "5H JK 7H 2C 9H 2D" and len(meld.substitutes) == 3
    # Two or more substitutes: never a canastra, however long.
    long = at(
        hands={0: "KS QS"},
        melds=(["3H JK 5H 2C 7H 8H 9H TH JH QH KH AH"], []),
        received=(True, False),
    )
    meld = long.melds(0)[0]
    assert len(meld) == 12 and len(meld.substitutes) == 2
    assert not meld.is_biriba and meld.bonus == 0
    assert long.score().teams[0].bonuses == 0


def test_Z3_4_a_meld_becomes_a_canastra_at_seven_cards() -> None:
    deal = at(hands={0: "9H 9S KS QS"}, melds=(["3H 4H 5H 6H 7H 8H", "3S 4S 5S JK 7S 8S"], []))
    assert not any(m.is_biriba for m in deal.melds(0))
    deal.play("add 0 9H")
    deal.play("add 1 9S")
    real, dirty = deal.melds(0)
    assert real.is_biriba and real.is_clean and real.bonus == 200
    assert dirty.is_biriba and not dirty.is_clean and dirty.bonus == 100


def test_Z3_5_the_two_moving_to_its_own_place_makes_the_canastra_real() -> None:
    deal = at(hands={0: "6H TH JH KS QS"}, melds=(["3H 4H 5H 2H 7H 8H 9H"], []))
    before = deal.melds(0)[0]
    assert before.is_biriba and not before.is_clean and before.bonus == 100
    assert "add 0 6H -> 2H 3H 4H 5H 6H 7H 8H 9H" in texts(deal)
    assert "add 0 6H -> 3H 4H 5H 6H 7H 8H 9H 2H" in texts(deal)
    deal.play("add 0 6H -> 2H 3H 4H 5H 6H 7H 8H 9H")
    deal.play("add 0 TH")
    deal.play("add 0 JH")
    after = kept(deal).melds(0)[0]
    assert str(after) == "2H 3H 4H 5H 6H 7H 8H 9H TH JH"
    assert after.is_clean and after.bonus == 200
    assert deal.score().teams[0].bonuses == 200
    # With two substitutes it is no canastra; the two going home leaves one: dirty.
    two_subs = at(hands={0: "6H KS QS"}, melds=(["3H 4H JK 2H 7H 8H 9H"], []))
    assert not two_subs.melds(0)[0].is_biriba
    two_subs.play("add 0 6H -> 2H 3H 4H JK 6H 7H 8H 9H")
    meld = kept(two_subs).melds(0)[0]
    assert meld.substitutes == (C("JK"),) and meld.is_biriba and meld.bonus == 100
    # A two of another suit moves to an end and stays a substitute.
    other = at(hands={0: "6H KS QS"}, melds=(["3H 4H 5H 2C 7H 8H 9H"], []))
    other.play("add 0 6H -> 2C 3H 4H 5H 6H 7H 8H 9H")
    assert not other.melds(0)[0].is_clean and other.melds(0)[0].bonus == 100


def test_Z3_6_adds_only_to_the_team_s_melds() -> None:
    deal = at(hands={0: "6H 8C KS QD"}, melds=(["5C 6C 7C"], ["3H 4H 5H"]))
    rejects(deal, "add 1 6H", "Z3.6")
    assert "add 0 6H" not in texts(deal)
    deal.play("add 0 8C")  # the team's own meld
    # Either teammate adds to any of the team's melds.
    partner = at(hands={2: "8C 3C KS QD"}, to_move=2, melds=(["5C 6C 7C"], ["3H 4H 5H"]))
    partner.play("add 0 8C")
    assert str(partner.melds(0)[0]) == "5C 6C 7C 8C"
    # With three pairs the other teams' melds are out of reach too.
    three = at(
        rules=THREE_PAIRS,
        hands={1: "6H 8C KS QD"},
        to_move=1,
        melds=(["5C 6C 7C"], [], ["3H 4H 5H"]),
    )
    rejects(three, "add 0 8C", "Z3.6")
    assert not any(m.startswith("add") for m in texts(three))


def test_Z3_7_wild_melds_of_substitutes_only() -> None:
    deal = at(hands={0: "JK 2C 2D 2H 2S 2S JK 5H KS QS"})
    assert "meld 2C 2D JK" in texts(deal)
    assert "meld 2C 2D 2H" in texts(deal)  # every two a substitute
    rejects(deal, "meld JK 2C", "Z3.2")  # at least 3 cards
    rejects(deal, "meld 2C 2D 2H 2S 2S JK JK", "Z3.2")  # at most 6 when new
    deal.play("meld 2C 2D 2H 2S 2S JK")
    meld = deal.melds(0)[0]
    assert meld.kind is MeldKind.WILD and not meld.is_biriba and meld.bonus == 0
    rejects(kept(deal), "add 0 5H", "Z3.7")  # only substitutes may be added
    deal.play("add 0 JK")  # a seventh card: a wild canastra
    meld = kept(deal).melds(0)[0]
    assert meld.kind is MeldKind.WILD and meld.is_biriba and meld.bonus == 1000
    assert len(meld.substitutes) == 7
    assert deal.score().teams[0].bonuses == 1000


def test_Z3_7_a_wild_canastra_is_neither_real_nor_dirty() -> None:
    deal = at(hands={0: "KS QS"}, melds=(["2C 2C 2D 2D 2H 2H JK", REAL, DIRTY], []))
    wild, real, dirty = deal.melds(0)
    assert wild.bonus == 1000 and real.bonus == 200 and dirty.bonus == 100
    assert wild.bonus not in (real.bonus, dirty.bonus)
    shown = [line for line in str(deal).splitlines() if "2C 2C 2D" in line]
    assert len(shown) == 1 and "dirty" not in shown[0] and "clean" not in shown[0]


# ---------------------------------------------------------------- Z4 the morto and the end
def test_Z4_1_a_hand_emptied_by_melding_takes_the_morto_at_once() -> None:
    deal = at(hands={0: "8H 9H"}, melds=([FOUR], []))  # no canastra needed
    morto, other = deal.reserves
    deal.play("add 0 8H")
    deal.play("add 0 9H")
    assert deal.reserve_received(0) and not deal.reserve_received(1)
    assert deal.hand(0) == tuple(sorted(morto)) and deal.reserves == (other,)
    assert deal.to_move == 0 and deal.phase is Phase.PLAY  # the turn goes on
    assert deal.reserve_unactivated(0) is None
    assert any(m.startswith("discard") for m in texts(kept(deal)))


def test_Z4_1_a_hand_emptied_by_the_discard_takes_the_morto_activated_next_turn() -> None:
    deal = at(hands={0: "KS"}, melds=([FOUR], []))
    morto = deal.reserves[0]
    deal.play("discard KS")
    assert deal.reserve_received(0) and deal.reserve_unactivated(0) == 0
    assert deal.hand(0) == tuple(sorted(morto))
    assert deal.to_move == 1 and deal.phase is Phase.DRAW  # the turn ends
    assert kept(deal).to_dict()["unactivated"] == [0, None]
    for _ in range(3):
        finish_turn(deal)
    assert deal.to_move == 0 and deal.reserve_unactivated(0) is None
    assert texts(deal) <= {"draw", "take"}


def test_Z4_1_each_team_takes_at_most_one_morto() -> None:
    """A second emptying by melding would be going out by melding, which Z4.2 forbids."""
    deal = at(hands={0: "TH JH"}, melds=([REAL], []), received=(True, False))
    assert len(deal.reserves) == 1  # the other team's
    deal.play("add 0 TH")
    rejects(deal, "add 0 JH", "Z4.2")
    assert "already taken its morto" in _refusal(deal, "add 0 JH")
    assert len(deal.reserves) == 1


def _refusal(deal: Deal, move: str) -> str:
    """The message of the refusal of ``move``."""
    try:
        deal.verify(move)
    except IllegalMoveError as error:
        return str(error)
    raise AssertionError(f"{move} is legal")


def test_Z4_1_three_teams_two_mortos_the_first_teams_take_them() -> None:
    # Team 0 has taken a morto; team 1 takes the last one; team 2 then has none to take.
    deal = at(
        rules=THREE_PAIRS,
        hands={1: "8H 9H", 2: "5C 6C 7C KS QS"},
        to_move=1,
        melds=([], [FOUR], []),
        received=(True, False, False),
    )
    last = deal.reserves[0]
    deal.play("add 0 8H")
    deal.play("add 0 9H")
    assert deal.reserve_received(1) and deal.hand(1) == tuple(sorted(last))
    assert deal.reserves == ()
    deal.play(next(m for m in sorted(texts(deal)) if m.startswith("discard")))
    deal.play("draw")
    assert deal.to_move == 2 and deal.hand_size(2) == 6
    kept(deal)


def test_Z4_1_a_team_left_without_a_morto_may_not_empty_its_hand() -> None:
    deal = at(
        rules=THREE_PAIRS,
        hands={2: "5C 6C 7C"},
        to_move=2,
        received=(True, True, False),
    )
    assert deal.reserves == ()
    rejects(deal, "meld 5C 6C 7C", "Z4.1")
    assert "no morto is left" in _refusal(deal, "meld 5C 6C 7C")
    # Nor may it meld down to a last card it could never discard.
    trap = at(rules=THREE_PAIRS, hands={2: "5C 6C 7C KS"}, to_move=2, received=(True, True, False))
    rejects(trap, "meld 5C 6C 7C", "B4.5")
    # With a morto left for it, the same meld takes it.
    free = at(rules=THREE_PAIRS, hands={2: "5C 6C 7C"}, to_move=2, received=(True, False, False))
    free.play("meld 5C 6C 7C")
    assert free.reserve_received(2)


def test_Z4_1_no_morto_left_once_the_last_became_the_stock() -> None:
    # Team 0 took the first morto, the second became the stock (Z4.3): team 1 has none.
    deal = at(
        hands={1: "5C 6C 7C"}, to_move=1, received=(True, False), reserves_left=0, stock_size=11
    )
    assert deal.reserves == ()
    rejects(deal, "meld 5C 6C 7C", "Z4.1")
    assert "no morto is left" in _refusal(deal, "meld 5C 6C 7C")
    # The team that took its morto goes on as usual.
    took = at(
        hands={0: "5C 6C 7C KS"},
        melds=([REAL], []),
        received=(True, False),
        reserves_left=0,
        stock_size=11,
    )
    took.play("meld 5C 6C 7C")
    took.play("discard KS")
    assert took.is_over and took.closed_by == 0


def test_Z4_2_going_out_by_discard_with_the_morto_and_a_canastra() -> None:
    for canastra in (REAL, DIRTY, "2C 2C 2D 2D 2H 2H JK"):
        deal = at(hands={0: "KS", 2: "AS JK"}, melds=([canastra], []), received=(True, False))
        deal.play("discard KS")
        assert deal.is_over and deal.closed_by == 0 and deal.legal_moves() == ()
        score = kept(deal).score().teams[0]
        assert score.closing == 100
        assert score.hands == -(15 + 20)


def test_Z4_2_an_unactivated_morto_counts_for_the_partner_going_out() -> None:
    deal = at(
        hands={2: "KS"},
        to_move=2,
        melds=([REAL], []),
        received=(True, False),
        unactivated=(0, None),
    )
    deal.play("discard KS")
    assert deal.is_over and deal.closed_by == 2


def test_Z4_2_no_going_out_without_a_canastra_or_by_melding() -> None:
    for melds in ([FOUR], ["3H JK 5H 2C 7H 8H 9H"]):  # the second has two substitutes
        deal = at(hands={0: "5C 6C 7C KS"}, melds=(melds, []), received=(True, False))
        rejects(deal, "meld 5C 6C 7C", "B4.5")  # KS could never be discarded
    with_canastra = at(hands={0: "5C 6C 7C KS"}, melds=([REAL], []), received=(True, False))
    with_canastra.play("meld 5C 6C 7C")
    with_canastra.play("discard KS")
    assert with_canastra.is_over
    by_melding = at(hands={0: "TC TD TS"}, melds=([REAL], []), received=(True, False))
    assert "meld TC TD TS" not in texts(by_melding)
    rejects(by_melding, "meld TC TD TS", "Z4.2")
    # Without the morto taken, the last discard takes it and the deal goes on.
    not_yet = at(hands={0: "KS"}, melds=([REAL], []))
    not_yet.play("discard KS")
    assert not not_yet.is_over and not_yet.reserve_received(0) and not_yet.closed_by is None


def test_Z4_2_positions_cite_going_out() -> None:
    # A position read from data cites Z4.2, not Biriba's B6.1 and B7.1: who may go out,
    # and going out ends the deal at once.
    impossible = [
        position(  # the morto not taken
            rules=BURACO, hands={0: ""}, phase="over", to_move=None, closed_by=0, melds=([REAL], [])
        ),
        position(  # no canastra
            rules=BURACO,
            hands={0: ""},
            phase="over",
            to_move=None,
            closed_by=0,
            melds=([FOUR], []),
            received=(True, False),
        ),
        position(  # gone out, yet the deal goes on
            rules=BURACO, hands={0: "KS"}, closed_by=2, melds=([REAL], []), received=(True, False)
        ),
    ]
    for data in impossible:
        with pytest.raises(InvalidPositionError, match=r"\(Z4\.2\)") as info:
            Deal.from_dict(data)
        assert info.value.rule == "Z4.2"
    # Once a player went out, every move is refused by the rule that ended the deal.
    deal = at(hands={0: "KS"}, melds=([REAL], []), received=(True, False))
    deal.play("discard KS")
    assert deal.is_over
    rejects(deal, "draw", "Z4.2")


def test_Z4_3_the_morto_becomes_the_stock() -> None:
    deal = at(hands={0: "5C 6C KS"}, phase="draw", stock="QH")
    first, second = deal.reserves
    deal.play("draw")
    assert C("QH") in deal.hand(0)
    assert deal.stock == first  # in the order listed: the last card on top
    assert deal.reserves == (second,)
    assert kept(deal).last_turn is False and deal.to_dict()["last_turn"] is False
    deal.play("discard KS")
    hand = Counter(deal.hand(1))
    deal.play("draw")  # the next player draws the morto's last card
    assert Counter(deal.hand(1)) == hand + Counter([first[-1]])
    assert deal.stock == first[:-1]
    # The second morto still goes to the first team that earns one.
    earns = at(hands={0: "8H 9H"}, melds=([FOUR], []), stock="TH", phase="draw")
    morto_1, morto_2 = earns.reserves
    earns.play("draw")
    assert earns.stock == morto_1
    for card in ("8H", "9H", "TH"):
        earns.play(f"add 0 {card}")
    assert earns.reserve_received(0) and earns.hand(0) == tuple(sorted(morto_2))
    assert earns.stock == morto_1 and earns.reserves == ()
    # Team 1 ends without a morto: it pays 100; the morto in the stock counts for nobody.
    assert earns.score().teams[1].reserve == -100


def test_Z4_3_with_no_morto_left_the_next_player_takes_or_passes_then_the_deal_ends() -> None:
    deal = at(hands={0: "5C 6C KS"}, phase="draw", stock="QH", received=(True, True))
    assert deal.reserves == ()
    deal.play("draw")
    assert deal.stock == () and not deal.last_turn  # the drawer finishes as usual
    # (The pile was empty, as only a position given by hand has it mid-deal: the
    # position reads back all the same, not in the last turn.)
    assert not kept(deal).last_turn and deal.to_dict()["last_turn"] is False
    deal.play("discard KS")
    assert deal.to_move == 1 and kept(deal).last_turn
    assert deal.to_dict()["last_turn"] is True
    assert texts(deal) == {"take", "pass"}
    rejects(deal, "draw", "Z4.3")
    passing = deal.copy()
    passing.play("pass")  # ends the deal, with no going-out bonus
    assert passing.is_over and passing.closed_by is None and passing.to_move is None
    assert all(t.closing == 0 for t in kept(passing).score().teams)
    deal.play("take")
    assert deal.last_turn and kept(deal).to_dict()["last_turn"] is True
    deal.play(next(m for m in sorted(texts(deal)) if m.startswith("discard")))
    assert deal.is_over and deal.closed_by is None  # after that turn the deal ends
    assert all(t.closing == 0 for t in kept(deal).score().teams)


def test_Z4_3_the_last_player_may_go_out() -> None:
    deal = at(
        hands={1: "5C 6C 7C"},
        to_move=1,
        phase="draw",
        stock="",
        discard="KS",
        melds=([], [REAL]),
        received=(True, True),
    )
    assert deal.last_turn and texts(deal) == {"take", "pass"}
    deal.play("take")
    deal.play("meld 5C 6C 7C")
    deal.play("discard KS")
    assert deal.is_over and deal.closed_by == 1
    assert deal.score().teams[1].closing == 100


def test_Z4_3_pass_is_the_only_move_when_taking_is_not_allowed() -> None:
    empty = at(hands={1: "5C 6C"}, to_move=1, phase="draw", stock="", received=(True, True))
    assert texts(empty) == {"pass"}
    one = at(
        hands={1: "5C"}, to_move=1, phase="draw", stock="", discard="KS", received=(True, True)
    )
    assert texts(one) == {"pass"}  # Z4.4
    rejects(one, "take", "Z4.4")
    one.play("pass")
    assert one.is_over


def test_Z4_3_last_turn_in_positions_is_checked() -> None:
    data = position(
        rules=BURACO,
        hands={1: "5C 6C"},
        to_move=1,
        phase="draw",
        stock="",
        discard="KS",
        received=(True, True),
    )
    assert Deal.from_dict(data).to_dict()["last_turn"] is True  # derived
    data["last_turn"] = False
    with pytest.raises(InvalidPositionError, match=r"Z4\.3") as info:
        Deal.from_dict(data)
    assert info.value.rule == "Z4.3"
    left = position(rules=BURACO, hands={1: "5C 6C"}, to_move=1, phase="draw", stock="")
    with pytest.raises(InvalidPositionError, match=r"Z4\.3") as info:
        Deal.from_dict(left)  # a morto left would be the stock
    assert info.value.rule == "Z4.3"


def refused_by(data: dict[str, Any], rule: str) -> None:
    with pytest.raises(InvalidPositionError) as info:
        Deal.from_dict(data)
    assert info.value.rule == rule, str(info.value)


def test_Z4_3_last_turn_in_the_play_phase_only_once_the_last_player_took_the_pile() -> None:
    # The pile is empty in the play phase once the mover took it (a turn ends with a
    # discard): with no stock and no morto, that turn is the last; the player who drew
    # the last card, the pile still there, finishes an ordinary turn (it was accepted
    # with last_turn true, and its discard then ended the deal). A position given by
    # hand may have an empty pile in the draw phase, so a play phase with no pile, no
    # stock and no morto may also follow a draw of the stock's last card: last_turn
    # false is then read as given (it was refused, so such a deal, a card drawn, could
    # not read back its own position).
    drew_last: dict[str, Any] = dict(
        rules=BURACO, hands={1: "5C 6C"}, to_move=1, stock="", discard="KS QD"
    )
    drew_last.update(received=(True, True))
    assert Deal.from_dict(position(**drew_last)).to_dict()["last_turn"] is False
    refused_by(position(**drew_last, last_turn=True), "Z4.3")
    took: dict[str, Any] = dict(
        rules=BURACO, hands={1: "5C 6C KS QD"}, to_move=1, stock="", received=(True, True)
    )
    assert Deal.from_dict(position(**took)).to_dict()["last_turn"] is True
    drew = Deal.from_dict(position(**took, last_turn=False))
    assert not drew.last_turn and drew.to_dict()["last_turn"] is False
    drew.play("discard QD")  # not the last turn: the next player's is
    assert drew.to_move == 2 and drew.last_turn and not drew.is_over


def test_Z4_3_a_morto_that_became_the_stock_leaves_a_stock_of_one_packet_at_most() -> None:
    # A morto received by nobody is gone only into the stock, once the stock was empty:
    # the stock then holds at most the packet's 11 cards (a stock of 50 was accepted).
    became: dict[str, Any] = dict(
        rules=BURACO, hands={0: "5C 6C"}, received=(True, False), reserves_left=0
    )
    Deal.from_dict(position(**became, stock_size=11))
    refused_by(position(**became, stock_size=12), "Z4.3")
    refused_by(position(**became, stock_size=50), "Z4.3")


def test_Z4_3_no_pass_before_the_deal_s_end() -> None:
    # With no stock and no morto a pass ends the deal (Z4.3): a deal going on has had none
    # (passes 2 were accepted).
    waiting: dict[str, Any] = dict(
        rules=BURACO, hands={1: "5C 6C"}, to_move=1, phase="draw", stock=""
    )
    waiting.update(discard="KS", received=(True, True))
    Deal.from_dict(position(**waiting))
    refused_by(position(**waiting, passes=1), "Z4.3")
    refused_by(position(**waiting, passes=2), "Z4.3")


def test_Z4_3_positions_cite_the_last_turn_for_passes() -> None:
    # Passes belong to the deal's last turn (Z4.3, which replaces B4.4 in buraco).
    for data, why in (
        (
            position(rules=BURACO, hands={0: "KS 5C"}, phase="draw", passes=1, discard="QD"),
            "only with the stock empty",
        ),
        (
            position(rules=BURACO, hands={0: "KS 5C"}, phase="draw", passes=9, discard="QD"),
            "passes",
        ),
    ):
        with pytest.raises(InvalidPositionError, match=why) as info:
            Deal.from_dict(data)
        assert info.value.rule == "Z4.3"
    # A deal ended by its last turn refuses every move by Z4.3.
    deal = at(hands={0: "5C 6C KS"}, phase="draw", stock="QH", received=(True, True))
    deal.play("draw")
    deal.play("discard KS")
    deal.play("pass")
    assert deal.is_over
    rejects(deal, "take", "Z4.3")


def test_Z4_4_a_single_card_may_not_take_a_one_card_pile() -> None:
    deal = at(hands={0: "KS"}, phase="draw", discard="QD")
    assert texts(deal) == {"draw"}
    rejects(deal, "take", "Z4.4")
    two_cards = at(hands={0: "KS"}, phase="draw", discard="QD JD")
    assert "take" in texts(two_cards)
    two_held = at(hands={0: "KS 5C"}, phase="draw", discard="QD")
    assert "take" in texts(two_held)


def test_Z4_4_the_card_taken_from_a_one_card_pile_may_be_discarded() -> None:
    deal = at(hands={0: "KS 5C"}, phase="draw", discard="KS")
    deal.play("take")
    assert deal.pile_card is None and kept(deal).to_dict()["pile_card"] is None
    assert "discard KS" in texts(deal)  # B4.2 does not apply
    deal.play("discard KS")
    assert deal.discard_pile == (C("KS"),)


def test_Z4_4_a_position_naming_a_card_barred_from_the_discard_is_refused() -> None:
    # pile_card is B4.2's ban, which buraco has not: a position setting it is no position
    # of the game (read, it would bar the discard of that card).
    data = position(rules=BURACO, hands={0: "KS 5C KS"}, pile_card="KS")
    with pytest.raises(InvalidPositionError, match="no ban on discarding") as info:
        Deal.from_dict(data)
    assert info.value.rule == "Z4.4"


def test_Z4_5_the_wait_and_the_100_instead_of_the_morto_s_cards() -> None:
    deal = at(hands={0: "KS", 2: "AS 4C"}, melds=([FOUR], []))
    deal.play("discard KS")  # the morto is taken, and waits for seat 0's next turn
    assert deal.reserve_unactivated(0) == 0 and deal.reserve_received(0)
    score = kept(deal).score().teams[0]
    assert score.reserve == -100
    assert score.hands == -(15 + 5)  # the morto's cards give way to the 100
    # The next players play their turns; seat 0's morto still waits.
    finish_turn(deal)
    assert deal.to_move == 2 and deal.reserve_unactivated(0) == 0
    # Once seat 0's turn begins, the morto is activated and its cards count.
    for _ in range(2):
        finish_turn(deal)
    assert deal.to_move == 0 and deal.reserve_unactivated(0) is None
    score = kept(deal).score().teams[0]
    assert score.reserve == 0
    assert score.hands == -sum(BURACO.card_value(c) for s in (0, 2) for c in deal.hand(s))


def test_Z4_5_a_partner_going_out_during_the_wait() -> None:
    morto = "AS 4C 9D 5D 6D 7D 8D TC JC QC KC"  # seat 0's hand: the morto, untouched
    deal = at(
        hands={2: "KS", 0: morto},
        to_move=2,
        melds=([REAL], []),
        received=(True, False),
        unactivated=(0, None),
    )
    deal.play("discard KS")
    score = kept(deal).score().teams[0]
    assert deal.is_over and score.closing == 100
    assert score.reserve == -100 and score.hands == 0  # seat 0's hand is its morto
    # Had seat 0's next turn come, the same cards would count instead of the 100.
    activated = at(
        hands={2: "KS", 0: morto},
        to_move=2,
        melds=([REAL], []),
        received=(True, False),
    )
    activated.play("discard KS")
    score = activated.score().teams[0]
    assert score.reserve == 0
    assert score.hands == -sum(BURACO.card_value(c) for c in parse_cards(morto))


def test_Z4_5_the_other_team_goes_out_during_the_wait() -> None:
    deal = at(
        hands={0: "KS", 1: "KD", 2: "AS 4C"},
        melds=([FOUR], ["3S 4S 5S 6S 7S 8S 9S", "9D TD JD"]),
        received=(False, True),
        stock="QD",
    )
    deal.play("discard KS")  # seat 0 takes the last morto and waits
    assert deal.reserve_unactivated(0) == 0
    deal.play("draw")
    deal.play("add 1 QD")
    deal.play("discard KD")  # seat 1 goes out before seat 0's next turn
    assert deal.is_over and deal.closed_by == 1
    ours, theirs = kept(deal).score().teams
    assert ours.reserve == -100 and ours.hands == -(15 + 5)
    assert theirs.closing == 100 and theirs.reserve == 0


# ---------------------------------------------------------------- Z5 scoring and match
def test_Z5_1_canastra_bonuses() -> None:
    deal = at(
        hands={0: "5H 9D", 2: "6S"},
        melds=(
            [
                REAL,
                "AC 2D 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",  # dirty, 13 cards: 100
                "KD KD KH KH KS KS JK",  # dirty group
                "2C 2C 2H 2H 2S 2S JK",  # wild canastra
                "4S 5S 6S 7S 8S 9S",  # no canastra
            ],
            ["QC QD QD QH QH QS QS"],  # real group
        ),
    )
    teams = deal.score().teams
    assert teams[0].bonuses == 200 + 100 + 1100 + 1000
    assert teams[1].bonuses == 1200
    assert teams[0].melded == 45 + (15 + 10 + 5 * 5 + 10 * 6) + (60 + 20) + (60 + 20) + 40
    assert teams[1].melded == 70
    assert teams[0].hands == -(5 + 10 + 5)


def test_Z5_1_a_real_thirteen_card_sequence_scores_200() -> None:
    deal = at(hands={0: "KS QS"}, melds=(["AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD"], []))
    assert deal.melds(0)[0].is_clean
    assert deal.score().teams[0].bonuses == 200


def test_Z5_1_going_out_hands_and_the_morto() -> None:
    deal = at(
        hands={0: "KS", 2: "AS 4C", 1: "AH", 3: "JK"},
        melds=(["AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD", "3H JK 5H 2C 7H 8H 9H"], []),
        received=(True, False),
        stock_size=40,
    )
    deal.play("discard KS")
    ours, theirs = kept(deal).score().teams
    assert ours.melded == 110 + 65
    assert ours.bonuses == 200  # the meld with two substitutes is no canastra
    assert ours.hands == -(15 + 5)
    assert ours.closing == 100 and ours.reserve == 0
    assert ours.total == 110 + 65 + 200 - 20 + 100
    # The other team never took its morto: minus 100, and the morto set aside counts
    # for nobody.
    assert theirs.reserve == -100 and theirs.hands == -(15 + 20) and theirs.closing == 0
    assert theirs.total == -135


def over_buraco_deal(rules: RuleSet = BURACO) -> Deal:
    """A Buraco deal team 0 has just ended by going out."""
    deal = at(rules=rules, hands={0: "KS"}, melds=([REAL], []), received=(True, False))
    deal.play("discard KS")
    assert deal.is_over
    return deal


def over_buraco_deal_both_gain() -> Deal:
    """A Buraco deal team 0 has just ended by going out, in which both teams score more
    than 100."""
    deal = at(
        hands={0: "KS", 1: "4C", 3: "5C"},
        melds=([REAL], ["3S 4S 5S 6S 7S 8S 9S", "TC JC QC KC AC"]),
        received=(True, True),
    )
    deal.play("discard KS")
    assert deal.is_over and min(deal.score().totals) > 100
    return deal


def resumed(totals: list[int], rules: RuleSet = BURACO, deal: Deal | None = None) -> Match:
    """A match under ``rules`` at ``totals``, whose deal in progress team 0 just ended
    (``deal``, or :func:`over_buraco_deal`)."""
    deal = deal or over_buraco_deal(rules)
    data = deal.to_dict()
    return Match.from_dict(
        {"rules": data["rules"], "totals": totals, "dealer": deal.dealer, "deal": data}
    )


def test_Z5_2_the_match_ends_once_a_team_reaches_2000() -> None:
    assert BURACO.target == 2000 and not BURACO.target_strict
    gained = over_buraco_deal().score().totals
    exact = resumed([2000 - gained[0], 0])
    exact.next_deal()
    assert exact.totals[0] == 2000 and exact.is_over and exact.winner == 0
    short = resumed([1999 - gained[0], 0])
    short.next_deal()
    assert short.totals[0] == 1999 and not short.is_over and short.winner is None


def test_Z5_2_higher_total_wins_and_equal_totals_play_on() -> None:
    # Both teams below 2000 before the deal (totals at 2000 would have ended the match,
    # B9.2), both at or above it after.
    gained = over_buraco_deal_both_gain().score().totals
    equal = resumed([2100 - gained[0], 2100 - gained[1]], deal=over_buraco_deal_both_gain())
    equal.next_deal()
    assert equal.totals == (2100, 2100) and not equal.is_over
    higher = resumed([2050 - gained[0], 2100 - gained[1]], deal=over_buraco_deal_both_gain())
    higher.next_deal()
    assert higher.is_over and higher.winner == 1


def test_Z5_2_the_target_is_agreed_before_the_match() -> None:
    rules = BURACO.evolve(name="buraco-3000", target=3000)
    gained = over_buraco_deal(rules).score().totals
    below = resumed([2999 - gained[0], 0], rules)
    below.next_deal()
    assert below.totals[0] == 2999 and not below.is_over
    reached = resumed([3000 - gained[0], 0], rules)
    reached.next_deal()
    assert reached.is_over and reached.winner == 0


def test_Z1_1_buraco_is_for_two_to_six_players() -> None:
    for players in (1, 7):
        with pytest.raises(BiribaError) as info:
            BURACO.evolve(players=players, teams=players)
        assert info.value.rule == "Z1.1"


def test_Z1_1_a_seat_out_of_range_cites_Z1_1() -> None:
    """Under Buraco the players and their seats are Z1.1's (B1.1 restated): a seat, team
    or dealer out of range cites Z1.1, in a deal, a position read and a view."""
    deal = Deal.new(BURACO, seed=1)
    for call in (lambda: deal.hand(4), lambda: deal.view(9), lambda: deal.melds(2)):
        with pytest.raises(BiribaError) as caught:
            call()
        assert caught.value.rule == "Z1.1"
        assert "(Z1.1)" in str(caught.value)
    with pytest.raises(BiribaError) as caught:
        BURACO.team_of(4)
    assert caught.value.rule == "Z1.1"
    data = deal.to_dict()
    data["dealer"] = 9
    with pytest.raises(InvalidPositionError) as refused:
        Deal.from_dict(data)
    assert refused.value.rule == "Z1.1"
    # Biriba's own seats stay B1.1's.
    with pytest.raises(BiribaError) as caught:
        Deal.new(seed=1).hand(4)
    assert caught.value.rule == "B1.1"


def test_B4_5_a_buraco_trap_names_no_rule_buraco_drops() -> None:
    """B4.5 under Buraco: with its morto taken and no canastra, the team may neither go
    out (Z4.2) nor empty a hand by melding (Z4.1), so ``meld 3H 4H 5H`` from 3H 4H 5H
    6H traps the player; the refusal says why by B4.3, not by B4.2, which Z4.4
    replaces in Buraco (Biriba's own refusal names both)."""
    deal = deal_at(rules=BURACO, hands={0: "3H 4H 5H 6H"}, received=(True, False), reserves_left=1)
    assert texts(deal) == {"discard 3H", "discard 4H", "discard 5H", "discard 6H"}
    with pytest.raises(IllegalMoveError) as refused:
        deal.play("meld 3H 4H 5H")
    assert refused.value.rule == "B4.5"
    assert "(B4.3)" in str(refused.value) and "B4.2" not in str(refused.value)
    biriba = deal_at(
        hands={0: "3H 4H 5H 9C 9C"},
        received=(True, False),
        reserves_left=1,
        melds=(["KC KC KD KD KH KH KS"], []),
        pile_card="9C",
        known=[["9C"], [], [], []],
    )
    with pytest.raises(IllegalMoveError) as refused:
        biriba.play("meld 3H 4H 5H")  # 9C 9C left: B4.2 bars both
    assert refused.value.rule == "B4.5"
    assert "(B4.2, B4.3)" in str(refused.value)


def _grown_by_the_reference(reference: Reference, meld: Meld) -> bool:
    """Whether a new meld of six of ``meld``'s cards grows into ``meld`` by additions of
    its other cards, one at a time, as :mod:`tests.reference` works them out."""
    goal = tuple(map(str, meld.cards))
    cards = Counter(goal)
    frontier: list[tuple[str, ...]] = [
        start for start in reference.new_melds(cards) if len(start) == 6
    ]
    seen = set(frontier)
    while frontier:
        current = frontier.pop()
        for card in cards - Counter(current):
            for grown in reference.additions(current, card):
                if grown == goal:
                    return True
                if grown not in seen:
                    seen.add(grown)
                    frontier.append(grown)
    return False


def test_Z3_2_an_opening_turn_ends_with_a_meld_past_6_cards_only_grown_from_6() -> None:
    """Z3.2, Z3.3, Z3.4, B3.9, B3.12, V3: the entry minimum's search of an opening turn
    lets the turn end with a meld of more than six cards exactly where a new meld of six
    of its cards grows into it by additions (``Engine._buildable``). Its answer for every
    such meld of random hands of hearts and substitutes is the reference's
    (tests/reference.py), which grows every new meld of six of the meld's cards by its
    own additions. Among them: a sequence closed by a high ace, grown to it with the ace
    last (Z3.3); and 3H JK 2C 6H JK 2D 9H TH, which no turn builds: a new meld of six
    of its places holds more substitutes than naturals or leaves a gap that only a
    substitute could fill, and substitutes are added only at an end (B3.11)."""
    rules = BURACO.evolve(name="buraco-150", entry_minimum=150)
    engine = Engine(rules)
    reference = Reference(rules)
    unbounded = rules.evolve(name="buraco-any-length", max_new_meld=None)
    examples = {
        "8H 9H TH JH QH KH AH": True,
        "8H 9H TH JH QH KH JK": True,  # the joker as the ace, added last
        "3H JK 2C 6H JK 2D 9H TH": False,
        "JK 2C 5H 6H 7H 8H 2D JK": True,
    }
    for text, expected in examples.items():
        meld = under_rules(Meld.parse(text, unbounded), rules)
        assert _grown_by_the_reference(reference, meld) is expected, text
        assert engine._buildable(meld) is expected, text
    rng = random.Random(3)
    hearts = [f"{rank}H" for rank in "A3456789TJQK"]
    wild = ["2C", "2D", "2H", "2S", "JK", "JK"]
    answers: Counter[bool] = Counter()
    for _ in range(12):
        hand = rng.sample(hearts, rng.randint(4, 9)) + rng.sample(wild, rng.randint(1, 4))
        melds = [m for m in enumerate_melds(parse_cards(" ".join(hand)), unbounded) if len(m) > 6]
        for meld in rng.sample(melds, min(6, len(melds))):
            meld = under_rules(meld, rules)
            expected = _grown_by_the_reference(reference, meld)
            assert engine._buildable(meld) is expected, meld
            answers[expected] += 1
    assert answers[True] >= 20 and answers[False] >= 1, answers


def test_V3_a_minimum_of_150_does_not_stop_a_buraco_deal() -> None:
    """V3, Z3.2: under ``buraco-6`` with a minimum of 150, the opening turn of a hand of
    18 cards, five of them twos, has its 66 moves listed at once. The
    look-ahead that went move by move (a new meld has at most six cards, so the exact
    search of an opening turn was not used) met more than 500,000 states and raised,
    after about 20 s, so the position could not even be loaded. The same moves are found
    by the reference (tests/reference.py), in about eleven minutes."""
    data = json.loads((DATA / "buraco6_minimum_150.json").read_text(encoding="utf-8"))
    deal = Deal.from_dict(data)
    assert deal.position.opening and len(deal.hand(2)) == 18
    moves = texts(deal)
    assert len(moves) == 66
    assert all(move.startswith(("meld", "discard")) for move in moves)
