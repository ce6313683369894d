"""Cards, notation and the pack (B1)."""

from __future__ import annotations

import copy
import pickle
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from biriba import (
    BIRIBA,
    BURACO,
    JOKER,
    Card,
    Meld,
    Move,
    NotationError,
    Rank,
    Suit,
    format_cards,
    full_pack,
    parse_cards,
)

ALL_CARDS = [Card.from_index(i) for i in range(53)]


def test_B1_1_four_players_in_two_partnerships_partners_opposite() -> None:
    assert BIRIBA.players == 4
    assert BIRIBA.teams == 2
    assert [BIRIBA.team_of(s) for s in range(4)] == [0, 1, 0, 1]


def test_B1_2_pack_is_two_decks_and_four_jokers() -> None:
    pack = full_pack(BIRIBA)
    assert len(pack) == 108
    counts = Counter(pack)
    assert counts[JOKER] == 4
    assert all(counts[c] == 2 for c in ALL_CARDS if not c.is_joker)
    assert len(counts) == 53


def test_B1_2_identical_cards_are_equal_and_the_same_object() -> None:
    pack = full_pack()
    first, second = (c for c in pack if str(c) == "7H")
    assert first == second
    assert first is second
    assert Card(Rank.SEVEN, Suit.HEARTS) is Card.parse("7h")
    assert Card(None, None) is JOKER
    assert hash(first) == hash(Card.parse("7♥"))


def test_B1_2_full_pack_is_in_a_fixed_order() -> None:
    assert full_pack() == full_pack(BIRIBA)
    assert format_cards(full_pack()[:3]) == "AC 2C 3C"
    assert full_pack()[-1] is JOKER
    assert len(full_pack(BURACO)) == 106


def test_B1_3_jokers_and_twos_are_substitutes() -> None:
    # A two in a group is a substitute, and so is a joker; neither can be a second one.
    assert Meld.parse("7H 7S 2C").substitute == Card.parse("2C")
    assert Meld.parse("7H 7S JK").substitute is JOKER
    assert BIRIBA.twos_wild and BIRIBA.jokers == 4
    with pytest.raises(NotationError):
        Card.parse("2X")


def test_B1_4_no_bonus_suit_red_threes_ordinary_no_entry_minimum() -> None:
    assert BIRIBA.bonus_suit_bonus is None
    assert BIRIBA.entry_minimum == 0
    assert Card.parse("3H").points == 5 and Card.parse("3D").points == 5
    threes = Meld.parse("3H 3D 3H")
    assert threes.points == 15 and threes.bonus == 0


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("7H", "7H"),
        ("7h", "7H"),
        ("th", "TH"),
        ("10H", "TH"),
        ("10♠", "TS"),
        ("7♥", "7H"),
        ("A♦", "AD"),
        ("k♣", "KC"),
        ("JK", "JK"),
        ("jk", "JK"),
        ("*", "JK"),
        (" QS ", "QS"),
    ],
)
def test_card_text_forms(text: str, canonical: str) -> None:
    assert str(Card.parse(text)) == canonical


@pytest.mark.parametrize("text", ["", "1H", "11H", "7X", "H7", "JOKER", "7HH", "1", "ZZ", "7 H"])
def test_card_parse_rejects_bad_text(text: str) -> None:
    with pytest.raises(NotationError, match="is not a card"):
        Card.parse(text)


def test_card_wrong_types() -> None:
    with pytest.raises(TypeError):
        Card.parse(7)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Card(7, "H")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        parse_cards(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        format_cards(["7H"])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        full_pack("biriba")  # type: ignore[arg-type]


def test_a_card_of_huge_or_long_parts_is_refused_in_a_short_message() -> None:
    # API.md: no input however large makes the library raise anything else, and a
    # message quotes at most a short excerpt (was: ValueError formatting the int, and a
    # TypeError quoting all of a long text).
    for rank, suit in [
        (10**5000, Suit.HEARTS),
        (Rank.ACE, 10**5000),
        ("x" * 100_000, Suit.HEARTS),
        (Rank.ACE, "y" * 100_000),
    ]:
        with pytest.raises(TypeError) as info:
            Card(rank, suit)  # type: ignore[arg-type]
        assert len(str(info.value)) < 250
    with pytest.raises(NotationError) as refused:
        Card.from_index(10**5000)
    assert "an integer of 5001 digits" in str(refused.value) and len(str(refused.value)) < 100


def test_card_is_immutable_and_copies_to_itself() -> None:
    card = Card.parse("7H")
    with pytest.raises(AttributeError):
        card.rank = Rank.ACE
    with pytest.raises(AttributeError):
        card.index = 3
    with pytest.raises(AttributeError):
        del card.index
    assert card.index == 2 * 13 + 7 - 1
    assert copy.copy(card) is card
    assert copy.deepcopy(card) is card
    assert pickle.loads(pickle.dumps(card)) is card


def test_card_attributes() -> None:
    card = Card.parse("QS")
    assert card.rank is Rank.QUEEN and card.suit is Suit.SPADES and not card.is_joker
    assert JOKER.rank is None and JOKER.suit is None and JOKER.is_joker
    assert repr(card) == "Card.parse('QS')"
    assert sorted([JOKER, Card.parse("AS"), Card.parse("KC")]) == list(parse_cards("KC AS JK"))


def test_B8_1_card_values() -> None:
    values = {str(c): c.points for c in ALL_CARDS}
    assert values["JK"] == 20
    assert values["AH"] == 15
    assert values["2C"] == 10
    assert all(values[r + "S"] == 10 for r in "89TJQK")
    assert all(values[r + "D"] == 5 for r in "34567")


def test_parse_and_format_cards() -> None:
    cards = parse_cards("7H, 8H  jk")
    assert cards == (Card.parse("7H"), Card.parse("8H"), JOKER)
    assert format_cards(cards) == "7H 8H JK"
    assert parse_cards("") == ()
    with pytest.raises(NotationError, match="'8X'"):
        parse_cards("7H 8X")


@given(st.sampled_from(ALL_CARDS))
def test_every_card_notation_round_trips(card: Card) -> None:
    assert Card.parse(str(card)) is card
    assert Card.parse(str(card).lower()) is card
    if not card.is_joker:
        assert card.rank is not None and card.suit is not None
        assert Card.parse(card.rank.letter + card.suit.symbol) is card
    assert Card.from_index(card.index) is card


@given(st.text(max_size=8))
def test_random_text_never_crashes_card_parse(text: str) -> None:
    try:
        card = Card.parse(text)
    except NotationError:
        return
    assert isinstance(card, Card)


def test_suits_and_ranks_print_as_in_the_notation() -> None:
    # A bonus suit or a card's rank printed reads as the notation writes it, not as the
    # enum's number (which int() still gives).
    card = Card.parse("TH")
    assert (str(card.suit), str(card.rank)) == ("H", "T")
    assert f"{Suit.CLUBS} {Rank.ACE} {Rank.KING}" == "C A K"
    assert [str(s) for s in Suit] == ["C", "D", "H", "S"]
    assert "".join(str(r) for r in Rank) == "A23456789TJQK"
    assert (int(Suit.HEARTS), int(Rank.TEN), f"{Rank.TEN:d}") == (2, 10, "10")
    assert all(Suit.parse(str(s)) is s for s in Suit)


def test_a_suit_is_read_alike_alone_and_in_a_card() -> None:
    """A suit alone (``kozi ♡``, V1) is read as in a card (``7♡``): Suit.parse knew only
    the black symbols, while Card.parse read the white ones too."""
    for letter, black, white in zip("CDHS", "♣♦♥♠", "♧♢♡♤", strict=True):
        suit = Suit.parse(letter)
        for word in (letter, letter.lower(), black, white):
            assert Suit.parse(word) is suit and Card.parse("7" + word).suit is suit
        assert Move.parse(f"kozi {white}") == Move.parse(f"kozi {letter}")
    for word in ("", "X", "♥♥", "HH", "♡ H", "1"):
        with pytest.raises(NotationError, match="is not a suit"):
            Suit.parse(word)
