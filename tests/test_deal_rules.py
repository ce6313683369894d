"""One test (or more) per rule of B2 to B8, each built from an explicit position."""

from __future__ import annotations

import random

import pytest

from biriba import (
    BIRIBA,
    AddToMeld,
    Card,
    Deal,
    Discard,
    LayMeld,
    Meld,
    Move,
    Phase,
    RuleSet,
    full_pack,
    parse_cards,
)

from .helpers import IntLike, deal_at, position, rejects, texts

C = Card.parse
BIRIBA_7 = "3H 4H 5H 6H 7H 8H 9H"  # a clean sequence biriba
SIX = "2H 3H 4H 5H 6H 7H"  # one card short of a biriba
SPADES_7 = "3S 4S 5S 6S 7S 8S 9S"  # a biriba beside SIX (a team that received has one, B5.2)
#: A rule set where the reserve needs no biriba (V4), so that a team may have received it
#: and still have none: under B5.2 that position cannot happen.
NO_BIRIBA_NEEDED = BIRIBA.evolve(name="reserve-without-biriba", reserve_needs_biriba=False)


# ---------------------------------------------------------------- B1 the game
def test_B1_4_no_bonus_suit_and_no_entry_minimum_in_play() -> None:
    """No minimum for a first meld: a team with nothing on the table lays three cards
    worth 15. No bonus suit: a clean seven-card hearts sequence scores the 200 of B8.3,
    where kózi (V1) with hearts as the bonus suit would score 400."""
    deal = deal_at(hands={0: "3C 4C 5C KS QS"})
    assert not deal.melds(0)
    assert "meld 3C 4C 5C" in texts(deal)
    deal.play("meld 3C 4C 5C")
    scored = deal_at(hands={0: "KS QS"}, melds=([BIRIBA_7], []))
    assert scored.score().teams[0].bonuses == 200
    from biriba import BIRIBA_KOZI

    kozi = Deal.from_dict(
        position(hands={0: "KS QS"}, melds=([BIRIBA_7], []), rules=BIRIBA_KOZI, bonus_suit="H"),
        BIRIBA_KOZI,
    )
    assert kozi.score().teams[0].bonuses == 400


# ---------------------------------------------------------------- B2 dealing
def test_B2_1_deal_is_dealt_by_the_given_dealer() -> None:
    for dealer in range(4):
        deal = Deal.new(seed=5, dealer=dealer)
        assert deal.dealer == dealer
        assert deal.to_move == (dealer + 1) % 4


def test_B2_2_shuffle_is_seeded_and_never_global() -> None:
    state = random.getstate()
    first = Deal.new(seed=42).to_dict()
    assert random.getstate() == state
    assert Deal.new(seed=42).to_dict() == first
    assert Deal.new(seed=43).to_dict() != first
    assert Deal.new(seed="a string seed").to_dict() == Deal.new(seed="a string seed").to_dict()


def test_B2_2_the_shuffle_is_random_shuffle_written_out() -> None:
    """Deal.new shuffles with the library's own copy of Python's shuffle: the same order as
    random.Random(seed).shuffle for every length and seed (so seeds keep their deals)."""
    from biriba.deal import shuffle

    for length in (0, 1, 2, 3, 7, 52, 108, 109, 130):
        for seed in [*range(40), 2026, 2**63 - 1, "a string seed"]:
            ours = list(range(length))
            shuffle(ours, random.Random(seed))
            python = list(range(length))
            random.Random(seed).shuffle(python)
            assert ours == python, (length, seed)


def test_B2_3_eleven_each_one_at_a_time_two_reserves_up_card_41_stock() -> None:
    deal = Deal.new(seed=11, dealer=2)
    pack = list(full_pack(BIRIBA))
    random.Random(11).shuffle(pack)
    for seat in range(4):
        # One at a time starting with the seat after the dealer (seat 3).
        expected = sorted(pack[(seat - 3) % 4 : 44 : 4])
        assert list(deal.hand(seat)) == expected
    assert deal.reserves == (tuple(pack[44:55]), tuple(pack[55:66]))
    assert deal.discard_pile == (pack[66],)
    assert len(deal.stock) == 41
    assert deal.stock[-1] == pack[67]  # the top of the stock is the next card of the pack


@pytest.mark.parametrize("name", RuleSet.preset_names())
def test_B2_3_the_first_position_is_the_one_its_fields_give_by_name(name: str) -> None:
    """Dealing makes the first position from its fields in order, its hand sizes counted
    from the cards dealt: each field holds what B2 deals (nothing known, melded, passed,
    received or closed yet; the seat after the dealer to draw), and the position is the
    one ``Position.of`` makes from the fields by name, the sizes worked out from the
    hands' counts."""
    from biriba.cards import EMPTY_COUNTS, counts_of
    from biriba.position import Position, size_of

    rules = RuleSet.named(name)
    teams = rules.teams
    for dealer in range(rules.players):
        deal = Deal.new(rules, seed=dealer, dealer=dealer)
        position = deal.position
        assert (position.dealer, position.seat, position.phase) == (
            dealer,
            (dealer + 1) % rules.players,
            Phase.DRAW,
        )
        assert position.hands == tuple(counts_of(deal.hand(s)) for s in range(rules.players))
        assert [size_of(position.sizes, s) for s in range(rules.players)] == [
            rules.hand_size
        ] * rules.players
        assert position.known == (EMPTY_COUNTS,) * rules.players
        assert position.melds == ((),) * teams
        assert position.pile == deal.discard_pile
        assert position.reserves == deal.reserves
        assert (position.received, position.unactivated) == ((False,) * teams, (None,) * teams)
        assert (position.passes, position.pile_card, position.closed_by) == (0, None, None)
        assert (position.redraw, position.last_turn) == (None, False)
        bonus = deal.discard_pile[0].suit if rules.bonus_suit_bonus is not None else None
        assert position.bonus_suit == bonus
        assert position.opening is bool(rules.entry_minimum)
        fields = {f: getattr(position, f) for f in Position._fields if f != "sizes"}
        assert Position.of(**fields) == position


def test_B2_4_seat_after_the_dealer_plays_first() -> None:
    deal = Deal.new(seed=1, dealer=3)
    assert deal.to_move == 0
    assert deal.phase is Phase.DRAW


# ---------------------------------------------------------------- B3 in a deal
def test_B3_8_adds_only_to_own_partnership_melds() -> None:
    deal = deal_at(
        hands={0: "6H KS QD"},
        melds=(["7C 7D 7S"], ["3H 4H 5H"]),
    )
    # Seat 0 (team 0) has meld 0 = 7C 7D 7S; team 1's 3H 4H 5H is out of reach.
    assert "add 0 6H" not in texts(deal)
    rejects(deal, "add 1 6H", "B3.8")
    rejects(deal, "add 0 6H", "B3.12")


def test_B3_8_a_partner_adds_to_the_melds_the_other_partner_laid() -> None:
    """Either partner's melds (B3.8): seat 2 adds to the meld seat 0 laid; a card that
    fits only the other partnership's meld is offered nowhere."""
    deal = deal_at(hands={2: "7H 6H KS QS"}, to_move=2, melds=(["7C 7D 7S"], ["3H 4H 5H"]))
    assert "add 0 7H" in texts(deal)
    assert not any(isinstance(m, AddToMeld) and m.card == C("6H") for m in deal.legal_moves())
    deal.play("add 0 7H")
    assert deal.melds(0)[0] == Meld.parse("7C 7D 7H 7S")
    assert deal.melds(1) == (Meld.parse("3H 4H 5H"),)


# ---------------------------------------------------------------- B4 the turn
def test_B4_1_draw_then_meld_then_discard() -> None:
    deal = deal_at(hands={0: "3C 4C 5C 9D KS"}, phase="draw", discard="8S")
    assert texts(deal) == {"draw", "take"}
    rejects(deal, "discard KS", "B4.1")
    deal.play("draw")
    assert deal.phase is Phase.PLAY
    assert "meld 3C 4C 5C" in texts(deal)
    rejects(deal, "draw", "B4.1")
    deal.play("meld 3C 4C 5C")
    deal.play("discard KS")
    assert deal.to_move == 1
    assert deal.to_dict()["phase"] == "draw"
    assert deal.discard_pile[-1] == C("KS")


def test_B4_1_an_empty_pile_cannot_be_taken() -> None:
    deal = deal_at(hands={0: "3C 4C 5C 9D KS"}, phase="draw", discard="")
    assert texts(deal) == {"draw"}
    rejects(deal, "take", "B4.1")


def test_B4_1_the_pile_is_open_and_taken_whole() -> None:
    deal = deal_at(hands={0: "3C 9D"}, phase="draw", discard="8S 8S 4D")
    assert deal.discard_pile == parse_cards("8S 8S 4D")
    deal.play("take")
    assert deal.hand(0) == parse_cards("3C 4D 9D 8S 8S")
    assert deal.discard_pile == ()


def test_B4_2_one_card_pile_card_may_not_be_discarded_that_turn() -> None:
    deal = deal_at(hands={0: "9D KS 5C"}, phase="draw", discard="KS")
    deal.play("take")
    assert deal.pile_card == C("KS")
    rejects(deal, "discard KS", "B4.2")  # the card taken, or its identical twin
    assert "discard KS" not in texts(deal)
    deal.play("discard 9D")
    assert deal.to_move == 1


def test_B4_2_a_larger_pile_or_a_drawn_card_may_be_discarded() -> None:
    deal = deal_at(hands={0: "9D 5C"}, phase="draw", discard="KS KD")
    deal.play("take")
    assert "discard KS" in texts(deal)
    drawn = deal_at(hands={0: "9D 5C"}, phase="draw", stock="QC QD QH", discard="2C")
    drawn.play("draw")
    assert "discard QH" in texts(drawn)


def test_B4_2_ban_lasts_after_a_reserve_received_by_melding() -> None:
    data = position(hands={0: "8H 9H"}, melds=([SIX], []), phase="draw", discard="TH")
    # Put the other ten of hearts into the top reserve packet, swapping it with a card
    # of the stock, so that the packet brings the barred card back into the hand.
    packet, stock = data["reserves"][0], data["stock"]
    place = stock.index("TH") if "TH" in stock else None
    if "TH" not in packet:
        assert place is not None
        stock[place], packet[0] = packet[0], "TH"
    deal = Deal.from_dict(data)
    deal.play("take")
    deal.play("add 0 8H")
    deal.play("add 0 9H")
    deal.play("add 0 TH")  # empties the hand: the reserve is received by melding (B5.3)
    assert deal.reserve_received(0) and deal.phase is Phase.PLAY
    assert C("TH") in deal.hand(0)
    assert deal.pile_card == C("TH")
    assert "discard TH" not in texts(deal)
    rejects(deal, "discard TH", "B4.2")


def test_B4_3_melding_down_to_one_card_is_illegal_without_a_way_to_end() -> None:
    # After 5C 6C 7C the last card KS could be discarded only to receive or close: no
    # biriba, so the meld is illegal (the count is taken at the end of the melding).
    deal = deal_at(hands={0: "5C 6C 7C KS"})
    assert "meld 5C 6C 7C" not in texts(deal)
    rejects(deal, "meld 5C 6C 7C", "B4.5")
    assert texts(deal) == {"discard 5C", "discard 6C", "discard 7C", "discard KS"}


def test_B4_3_a_turn_may_pass_through_one_card() -> None:
    deal = deal_at(hands={0: "8H 9H"}, melds=([SIX], []))
    assert "add 0 8H" in texts(deal)
    deal.play("add 0 8H")
    assert len(deal.hand(0)) == 1
    deal.play("add 0 9H")  # empties the hand: receives the reserve (B5.3)
    assert deal.reserve_received(0) and len(deal.hand(0)) == 11


def test_B4_3_count_taken_at_end_of_melding_two_cards_left_is_fine() -> None:
    deal = deal_at(hands={0: "5C 6C 7C KS QS"})
    deal.play("meld 5C 6C 7C")
    assert texts(deal) == {"discard KS", "discard QS"}


def test_B4_4_stock_empty_take_or_pass_and_four_passes_end() -> None:
    deal = deal_at(hands={0: "5C 6C"}, phase="draw", stock="", discard="KD 4S")
    assert texts(deal) == {"take", "pass"}
    rejects(deal, "draw", "B4.4")
    for expected_passes in (1, 2, 3):
        deal.play("pass")
        assert deal.passes == expected_passes and not deal.is_over
    deal.play("pass")
    assert deal.is_over and deal.to_move is None
    assert deal.legal_moves() == ()


def test_B4_4_a_pass_ends_the_turn_with_no_meld_and_no_discard() -> None:
    deal = deal_at(hands={0: "5C 6C 7C"}, phase="draw", stock="", discard="KD 4S")
    hand, pile, melds = deal.hand(0), deal.discard_pile, deal.melds(0)
    deal.play("pass")
    assert deal.to_move == 1 and deal.phase is Phase.DRAW
    assert (deal.hand(0), deal.discard_pile, deal.melds(0)) == (hand, pile, melds)


def test_B4_4_pass_only_with_stock_empty_and_pile_never_recycled() -> None:
    deal = deal_at(hands={0: "5C 6C"}, phase="draw", stock="QH", discard="KD 4S")
    rejects(deal, "pass", "B4.4")
    deal.play("draw")
    deal.play("discard QH")
    assert deal.stock == ()
    assert len(deal.discard_pile) == 3
    assert "draw" not in texts(deal)


def test_B4_4_take_resets_the_run_of_passes() -> None:
    deal = deal_at(hands={1: "5C 6C"}, to_move=1, phase="draw", stock="", discard="KD", passes=2)
    deal.play("take")
    assert deal.passes == 0


def test_B4_5_taking_a_one_card_pile_into_a_trap_is_illegal() -> None:
    # Seat 0 holds only KS; the pile is KS. After the take every card is the barred one
    # and nothing can be melded: the take is illegal.
    deal = deal_at(hands={0: "KS"}, phase="draw", discard="KS")
    assert texts(deal) == {"draw"}
    rejects(deal, "take", "B4.5")


def test_B4_5_a_meld_leaving_the_barred_card_last_is_illegal() -> None:
    deal = deal_at(hands={0: "5C 6C 7C"}, phase="draw", discard="KS")
    deal.play("take")
    assert "meld 5C 6C 7C" not in texts(deal)
    rejects(deal, "meld 5C 6C 7C", "B4.5")


def test_B4_5_an_addition_leaving_an_undiscardable_card_is_illegal() -> None:
    deal = deal_at(hands={0: "8C 9D"}, melds=(["5C 6C 7C"], []))
    assert "add 0 8C" not in texts(deal)
    rejects(deal, "add 0 8C", "B4.5")


def test_B4_5_every_position_not_over_has_a_legal_move() -> None:
    deal = deal_at(hands={0: "KS"}, phase="draw", discard="KS", stock="")
    assert texts(deal) == {"pass"}


# ---------------------------------------------------------------- B5 the reserve
def test_B5_1_first_team_gets_the_top_packet_the_other_team_the_other() -> None:
    deal = deal_at(hands={1: "8H 9H"}, to_move=1, melds=([], [SIX]))
    top, other = deal.reserves
    deal.play("add 0 8H")
    deal.play("add 0 9H")
    assert deal.reserve_received(1) and not deal.reserve_received(0)
    assert deal.hand(1) == tuple(sorted(top))
    assert deal.reserves == (other,)


def test_B5_2_reserve_only_with_a_biriba_and_not_yet_received() -> None:
    no_biriba = deal_at(hands={0: "8H 9H"}, melds=(["4H 5H 6H 7H"], []))
    assert "add 0 8H" not in texts(no_biriba)
    rejects(no_biriba, "add 0 8H", "B4.5")
    already = deal_at(hands={0: "8H 9H"}, melds=([SIX, SPADES_7], []), received=(True, False))
    deal = already.copy()
    deal.play("add 0 8H")
    rejects(deal, "add 0 9H", "B4.3")  # emptying by melding needs a reserve to receive
    assert texts(deal) == {"discard 9H"}  # ... but the last card may close (B6.1)


def test_B5_2_a_biriba_completed_by_the_emptying_meld_counts() -> None:
    deal = deal_at(hands={0: "9H"}, melds=(["3H 4H 5H 6H 7H 8H"], []), phase="play")
    assert "add 0 9H" in texts(deal)
    deal.play("add 0 9H")
    assert deal.reserve_received(0)


def test_B5_3_emptying_by_melding_takes_the_packet_and_the_turn_goes_on() -> None:
    deal = deal_at(hands={0: "TC TD TS"}, melds=([BIRIBA_7], []))
    packet = deal.reserves[0]
    deal.play("meld TC TD TS")
    assert deal.phase is Phase.PLAY and deal.to_move == 0
    assert sorted(deal.hand(0)) == sorted(packet)
    assert all(str(m).startswith(("discard", "meld", "add")) for m in deal.legal_moves())
    assert any(isinstance(m, Discard) for m in deal.legal_moves())


def test_B5_4_emptying_by_discard_receives_now_but_ends_the_turn() -> None:
    deal = deal_at(hands={0: "KS"}, melds=([BIRIBA_7], []))
    packet = deal.reserves[0]
    deal.play("discard KS")
    assert deal.reserve_received(0)
    assert deal.reserve_unactivated(0) == 0
    assert deal.to_move == 1 and deal.phase is Phase.DRAW
    assert sorted(deal.hand(0)) == sorted(packet)
    for _ in range(3):  # seats 1, 2, 3 play a turn each
        deal.play("draw")
        deal.play(next(m for m in deal.legal_moves() if isinstance(m, Discard)))
    # Seat 0's next turn begins: the packet is activated, and the turn starts with a draw.
    assert deal.to_move == 0 and deal.reserve_unactivated(0) is None
    assert texts(deal) <= {"draw", "take"}


def test_B5_4_the_packet_is_activated_even_if_that_turn_is_a_pass() -> None:
    """The stock is empty: seat 0 receives by its final discard, the others pass, and
    seat 0's next turn, a pass, begins all the same: the packet is activated (B5.4), so
    the deal ending with that pass scores its cards as a hand (B8.7 does not apply)."""
    deal = deal_at(hands={0: "KS"}, melds=([BIRIBA_7], []), stock_size=0, discard="QC QD")
    packet, partner = deal.reserves[0], deal.hand(2)
    deal.play("discard KS")
    assert deal.reserve_unactivated(0) == 0
    for _ in range(3):  # seats 1, 2 and 3 pass
        deal.play("pass")
    assert deal.to_move == 0 and deal.reserve_unactivated(0) is None
    deal.play("pass")  # the fourth pass in a row ends the deal (B4.4)
    assert deal.is_over
    ours = deal.score().teams[0]
    assert ours.reserve == 0
    assert ours.hands == -sum(c.points for c in (*packet, *partner))


def test_B5_5_the_partner_cannot_receive_a_second_reserve() -> None:
    deal = deal_at(
        hands={2: "8H 9H"}, to_move=2, melds=([SIX, SPADES_7], []), received=(True, False)
    )
    deal.play("add 0 8H")
    # B4.3 forbids emptying the hand by melding, as B5.5 leaves no reserve to receive.
    rejects(deal, "add 0 9H", "B5.5", rule_id="B4.3")
    deal.play("discard 9H")  # a close, not a second reserve
    assert deal.is_over and deal.closed_by == 2
    assert len(deal.reserves) == 1


# ---------------------------------------------------------------- B6 closing
def test_B6_1_close_by_discarding_the_last_card_with_reserve_and_biriba() -> None:
    deal = deal_at(hands={0: "KS"}, melds=([BIRIBA_7], []), received=(True, False))
    assert "discard KS" in texts(deal)
    deal.play("discard KS")
    assert deal.is_over and deal.closed_by == 0


def test_B6_1_no_close_without_a_biriba() -> None:
    no_biriba = deal_at(
        hands={0: "5C 6C 7C KS"},
        melds=(["3H 4H 5H"], []),
        received=(True, False),
        rules=NO_BIRIBA_NEEDED,
    )
    rejects(no_biriba, "meld 5C 6C 7C", "B4.5")  # KS could then never be discarded
    with_biriba = deal_at(hands={0: "5C 6C 7C KS"}, melds=([BIRIBA_7], []), received=(True, False))
    with_biriba.play("meld 5C 6C 7C")
    with_biriba.play("discard KS")
    assert with_biriba.is_over and with_biriba.closed_by == 0


def test_B6_1_an_unactivated_reserve_counts_as_received() -> None:
    deal = deal_at(
        hands={2: "KS"},
        to_move=2,
        melds=([BIRIBA_7], []),
        received=(True, False),
        unactivated=(0, None),
    )
    deal.play("discard KS")
    assert deal.is_over and deal.closed_by == 2


def test_B6_1_never_close_by_melding_the_last_card() -> None:
    deal = deal_at(hands={0: "TC TD TS"}, melds=([BIRIBA_7], []), received=(True, False))
    assert "meld TC TD TS" not in texts(deal)
    rejects(deal, "meld TC TD TS", "B4.3")


def test_B6_2_closing_ends_the_deal_and_partner_cards_count_against() -> None:
    deal = deal_at(hands={0: "KS", 2: "AS JK"}, melds=([BIRIBA_7], []), received=(True, False))
    deal.play("discard KS")
    assert deal.is_over and deal.legal_moves() == ()
    score = deal.score().teams[0]
    assert score.hands == -(15 + 20)
    assert score.closing == 100


# ---------------------------------------------------------------- B7 the end
def test_B7_1_four_passes_end_without_a_closing_bonus() -> None:
    deal = deal_at(hands={0: "5C"}, phase="draw", stock="", passes=3)
    deal.play("pass")
    assert deal.is_over and deal.closed_by is None
    assert all(t.closing == 0 for t in deal.score().teams)


# ---------------------------------------------------------------- B8 scoring
def test_B8_1_card_values_count_in_the_deal_score() -> None:
    deal = deal_at(hands={0: "JK AS 2C 8D 3H", 2: "4C 9C"}, stock_size=30)
    assert deal.score().teams[0].hands == -(20 + 15 + 10 + 10 + 5) - (5 + 10)


def test_B8_2_melded_cards_count_substitutes_at_their_own_value() -> None:
    deal = deal_at(hands={0: "KS QS"}, melds=(["5C 5D JK", "3H 4H 2H"], []))
    assert deal.score().teams[0].melded == 30 + 20


def test_B8_3_biriba_bonuses_count_with_card_values() -> None:
    deal = deal_at(
        hands={0: "KS QS"},
        melds=([BIRIBA_7, "KC KC KD KH KD 2S KS"], []),
    )
    score = deal.score().teams[0]
    assert score.bonuses == 200 + 150
    assert score.melded == 45 + 70


def test_B8_4_cards_left_in_both_partners_hands_count_against() -> None:
    deal = deal_at(hands={0: "KS QS", 2: "3C 4C", 1: "AS", 3: "AD"}, stock_size=0)
    teams = deal.score().teams
    assert teams[0].hands == -(10 + 10 + 5 + 5)
    assert teams[1].hands == -(15 + 15)


def test_B8_5_closing_team_gets_100() -> None:
    deal = deal_at(hands={0: "KS"}, melds=([BIRIBA_7], []), received=(True, False))
    deal.play("discard KS")
    teams = deal.score().teams
    assert teams[0].closing == 100 and teams[1].closing == 0


def test_B8_6_never_received_reserve_costs_100_and_the_packet_is_not_counted() -> None:
    deal = deal_at(hands={0: "KS QS", 2: "3C 4C", 1: "AS", 3: "AD"}, stock_size=0)
    teams = deal.score().teams
    assert teams[0].reserve == -100 and teams[1].reserve == -100
    assert teams[0].hands == -30  # the packets' cards count nowhere


def test_B8_7_unactivated_reserve_pays_100_instead_of_its_cards() -> None:
    deal = deal_at(hands={0: "KS"}, melds=([BIRIBA_7], []))
    deal.play("discard KS")  # seat 0 receives its packet by the final discard
    assert deal.reserve_unactivated(0) == 0
    deal.play("draw")
    # Seat 1 plays; the deal has not ended: seat 0's packet is still unactivated.
    score = deal.score().teams[0]
    assert score.reserve == -100
    partner = sum(c.points for c in deal.hand(2))
    assert score.hands == -partner  # the packet in seat 0's hand is left out


def test_B8_7_the_deal_ends_before_the_receivers_next_turn() -> None:
    """Seat 0 receives its packet by its final discard; seat 1 closes before seat 0
    plays again: the packet was never activated, so the team pays 100 and the packet's
    cards count nowhere (B8.7)."""
    deal = deal_at(
        hands={0: "KS", 1: "KD", 2: "AS 4C"},
        melds=([BIRIBA_7], [SPADES_7, "9D TD JD"]),
        received=(False, True),
        stock="QD",
    )
    deal.play("discard KS")  # received, not yet activated
    assert deal.reserve_unactivated(0) == 0
    deal.play("draw")
    deal.play("add 1 QD")
    deal.play("discard KD")  # seat 1 closes (B6.1)
    assert deal.is_over and deal.closed_by == 1
    ours, theirs = deal.score().teams
    assert ours.reserve == -100
    assert ours.hands == -(15 + 5)  # the partner's AS 4C; the packet left out
    assert theirs.closing == 100 and theirs.reserve == 0


def test_B8_7_activated_reserve_cards_count_like_any_others() -> None:
    deal = deal_at(hands={0: "KS QS"}, melds=([BIRIBA_7], []), received=(True, False))
    score = deal.score().teams[0]
    assert score.reserve == 0
    assert score.hands == -(20 + sum(c.points for c in deal.hand(2)))


def test_B8_8_worked_example() -> None:
    deal = deal_at(
        hands={0: "9H KS QD"},
        melds=(["3H 4H 5H 6H 7H 8H"], []),
        phase="draw",
        stock="4C 4C",
    )
    deal.play("draw")
    deal.play("add 0 9H")
    meld = deal.melds(0)[0]
    assert meld == Meld.parse(BIRIBA_7)
    assert meld.is_biriba and meld.is_clean and meld.bonus == 200 and meld.points == 45
    assert not deal.reserve_received(0)  # the biriba alone does not give the reserve


# ---------------------------------------------------------------- moves with a choice
def test_add_with_a_choice_is_listed_in_full_and_short_form_is_ambiguous() -> None:
    from biriba import AmbiguousMoveError

    deal = deal_at(hands={0: "6H KS QS"}, melds=(["4H 5H JK 7H"], []))
    adds = sorted(str(m) for m in deal.legal_moves() if isinstance(m, AddToMeld))
    assert adds == ["add 0 6H -> 4H 5H 6H 7H JK", "add 0 6H -> JK 4H 5H 6H 7H"]
    with pytest.raises(AmbiguousMoveError) as info:
        deal.play("add 0 6H")
    assert len(info.value.outcomes) == 2
    deal.play("add 0 6H -> JK 4H 5H 6H 7H")
    assert str(deal.melds(0)[0]) == "JK 4H 5H 6H 7H"


def test_short_form_where_there_is_no_choice() -> None:
    deal = deal_at(hands={0: "8H KS QS"}, melds=(["4H 5H JK 7H"], []))
    assert "add 0 8H" in texts(deal)
    # Each legal addition has one text: the full form is refused where there is no choice.
    rejects(deal, "add 0 8H -> 4H 5H JK 7H 8H", "B3.12")
    deal.play(Move.parse("add 0 8H"))
    assert str(deal.melds(0)[0]) == "4H 5H JK 7H 8H"


# ---------------------------------------------------------------- variants in a deal
def test_V4_reserve_without_a_biriba() -> None:
    from biriba import BIRIBA

    rules = BIRIBA.evolve(name="no-biriba-reserve", reserve_needs_biriba=False)
    data = position(hands={0: "8H 9H"}, melds=(["4H 5H 6H 7H"], []))
    data["rules"] = rules.name
    deal = Deal.from_dict(data, rules)
    deal.play("add 0 8H")
    deal.play("add 0 9H")  # empties the hand: the reserve comes without a biriba (V4)
    assert deal.reserve_received(0)


def test_V7_one_card_kept_closes_only_as_B6_1_allows() -> None:
    """Under keep_after_melding=1 (V7) the last card may always be discarded; with the
    reserve received it closes only when the team has a biriba (B6.1), else the deal goes
    on and the player draws next turn."""

    rules = NO_BIRIBA_NEEDED.evolve(name="keep-one", keep_after_melding=1)
    for melds, closes in (([SIX], False), ([BIRIBA_7], True)):
        data = position(hands={0: "KS"}, melds=(melds, []), received=(True, False), rules=rules)
        deal = Deal.from_dict(data, rules)
        assert "discard KS" in texts(deal)
        deal.play("discard KS")
        assert deal.is_over is closes
        assert deal.closed_by == (0 if closes else None)
        if not closes:
            assert deal.to_move == 1 and deal.hand_size(0) == 0


def test_V7_an_empty_hand_draws_as_usual_next_turn() -> None:
    """Under keep_after_melding=1 (V7) a turn may end with an empty hand: that player's
    next turn starts with a draw like any other."""
    rules = NO_BIRIBA_NEEDED.evolve(name="keep-one", keep_after_melding=1)
    data = position(hands={0: "KS"}, melds=([SIX], []), received=(True, False), rules=rules)
    deal = Deal.from_dict(data, rules)
    deal.play("discard KS")
    assert deal.hand_size(0) == 0 and not deal.is_over
    for _ in range(3):
        deal.play("draw")
        deal.play(next(m for m in deal.legal_moves() if isinstance(m, Discard)))
    assert deal.to_move == 0 and texts(deal) == {"draw", "take"}
    top = deal.stock[-1]
    deal.play("draw")
    assert deal.hand(0) == (top,)


def test_V2_sequences_only() -> None:
    from biriba import BIRIBA

    rules = BIRIBA.evolve(name="sequences-only", groups=False)
    deal = Deal.new(rules, seed=3)
    for _ in range(5000):
        if deal.is_over:
            break
        moves = deal.legal_moves()
        assert not any(isinstance(m, LayMeld) and m.meld.kind.value == "group" for m in moves)
        deal.play(moves[0])
    assert deal.is_over


def test_V2_a_hand_of_three_of_a_rank_lays_no_group() -> None:
    """Under groups=False (V2) three sevens are no meld: not offered, refused with V2
    when played, and Meld.parse refuses them too; their sequence is still offered."""
    from biriba import InvalidMeldError

    rules = BIRIBA.evolve(name="sequences-only", groups=False)
    deal = Deal.from_dict(position(hands={0: "7C 7H 7S 8S 9S KD"}, rules=rules), rules)
    assert not any(isinstance(m, LayMeld) for m in deal.legal_moves() if "7C" in str(m))
    assert "meld 7S 8S 9S" in texts(deal)
    rejects(deal, "meld 7C 7H 7S", "V2")
    with pytest.raises(InvalidMeldError) as info:
        Meld.parse("7C 7H 7S", rules)
    assert info.value.rule == "V2"


def test_V2_under_buraco_sequences_only_keeps_the_wild_melds_unless_they_go_too() -> None:
    """V2 takes the groups away; under a Buraco rule set the melds of substitutes alone
    (Z3.7) are no group and stay, unless ``wild_melds`` is turned off as well (a choice
    RULES.md leaves open, documented on the rule sets page)."""
    from biriba import BURACO, InvalidMeldError, MeldKind

    hand = {0: "2C 2D JK 7C 7H 7S 8S 9S KD"}
    rules = BURACO.evolve(name="buraco-sequences", groups=False)
    deal = Deal.from_dict(position(hands=hand, rules=rules), rules)
    assert "meld 2C 2D JK" in texts(deal) and "meld 7S 8S 9S" in texts(deal)
    rejects(deal, "meld 7C 7H 7S", "V2")
    assert Meld.parse("2C 2D JK", rules).kind is MeldKind.WILD
    neither = rules.evolve(name="buraco-sequences-only", wild_melds=False)
    deal = Deal.from_dict(position(hands=hand, rules=neither), neither)
    assert "meld 7S 8S 9S" in texts(deal)
    assert not any(
        isinstance(m, LayMeld) and m.meld.kind is not MeldKind.SEQUENCE for m in deal.legal_moves()
    )
    with pytest.raises(InvalidMeldError):
        Meld.parse("2C 2D JK", neither)


def test_move_text_with_an_arrow_written_without_spaces() -> None:
    move = Move.parse("add 0 6H->JK 4H 5H 6H 7H")
    assert str(move) == "add 0 6H -> JK 4H 5H 6H 7H"


def test_score_team_matches_the_deal_score_part_by_part() -> None:
    from biriba import score_team

    deal = deal_at(hands={0: "KS"}, melds=([BIRIBA_7, "5C 5D JK"], []), received=(True, False))
    deal.play("discard KS")  # seat 0 closes
    for team in (0, 1):
        seats = (team, team + 2)
        hands = [c for s in seats for c in deal.hand(s)]
        expected = deal.score().teams[team]
        got = score_team(
            deal.melds(team),
            hands,
            reserve_received=deal.reserve_received(team),
            closed=deal.closed_by is not None and deal.closed_by % 2 == team,
        )
        assert got == expected
    unactivated = score_team([], [], reserve_received=True, reserve_unactivated=True)
    assert unactivated.reserve == -100 and unactivated.total == -100  # B8.7
    never = score_team([], parse_cards("AS"), reserve_received=False)
    assert never.reserve == -100 and never.hands == -15  # B8.6, B8.4
    with pytest.raises(TypeError):
        score_team(["3H 4H 5H"], [], reserve_received=True)  # type: ignore[list-item]
    # (the compiled build's own check of the annotation answers first there)
    with pytest.raises(TypeError, match=r"reserve_received must be a bool|bool object expected"):
        score_team([], [], reserve_received="yes")  # type: ignore[arg-type]


def test_team_score_checks_its_arguments_and_scores_as_the_deal() -> None:
    from biriba.scoring import team_score, team_score_unchecked

    deal = deal_at(hands={0: "KS"}, melds=([BIRIBA_7, "5C 5D JK"], []), received=(True, False))
    melds = deal.melds(0)
    parts = (BIRIBA, melds, 15, True, False, True)
    assert team_score(*parts) == team_score_unchecked(*parts)
    # Any integer type counts as an int (NumPy's, here one with __index__), a bool not.
    assert team_score(BIRIBA, melds, IntLike(15), True, False, True) == team_score(*parts)
    for wrong in (
        (BIRIBA, melds, True, True, False, False),
        (BIRIBA, "abc", 5, True, False, False),  # was an AttributeError from inside
        (BIRIBA, ["3H 4H 5H"], 5, True, False, False),
        ("biriba", melds, 5, True, False, False),
        (BIRIBA, melds, "5", True, False, False),
        (BIRIBA, melds, 5, 1, False, False),
        (BIRIBA, melds, 5, True, False, None),
    ):
        with pytest.raises(TypeError):
            team_score(*wrong)
    with pytest.raises(TypeError, match=r"bonus_suit|Suit or None object expected"):
        team_score(*parts, bonus_suit="H")  # type: ignore[arg-type]
