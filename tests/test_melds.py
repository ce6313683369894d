"""Melds: validation, notation, extension and enumeration (B3, B8.1 to B8.3)."""

from __future__ import annotations

import contextlib
import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from biriba import (
    BIRIBA,
    BURACO,
    JOKER,
    BiribaError,
    Card,
    Deal,
    InvalidMeldError,
    Meld,
    MeldKind,
    NotationError,
    RuleSet,
    enumerate_melds,
    full_pack,
    parse_cards,
)
from biriba.cards import counts_of
from biriba.melds import fits_in_one_place

from .helpers import examples

C = Card.parse


def M(text: str) -> Meld:
    return Meld.parse(text)


def outcomes(meld: str, card: str) -> set[str]:
    return {str(m) for m in M(meld).extensions(C(card))}


def invalid(text: str, rule: str) -> None:
    with pytest.raises(InvalidMeldError, match=rule.replace(".", r"\.")):
        Meld.parse(text)


# ---------------------------------------------------------------- B3.1
def test_B3_1_new_meld_has_at_least_three_cards() -> None:
    invalid("7H 7S", "B3.1")
    invalid("7H", "B3.1")
    assert len(M("7H 7S 7C")) == 3


def test_B3_1_group_of_one_rank_with_free_suits_and_identical_copies() -> None:
    group = M("7H 7H 7S")
    assert group.kind is MeldKind.GROUP
    assert group.rank == 7
    assert str(group) == "7H 7H 7S"


def test_B3_1_sequence_is_consecutive_ranks_of_one_suit() -> None:
    seq = M("4S 5S 6S 7S")
    assert seq.kind is MeldKind.SEQUENCE and seq.low == 4 and seq.high == 7
    invalid("4S 5H 6S", "B3.1")  # two suits
    invalid("4S 6S 7S", "B3.1")  # a gap with no substitute
    invalid("6S 5S 4S", "B3.1")  # table order is low to high
    invalid("4S 5S 7H", "B3.1")


@pytest.mark.parametrize("text", ["KS QS JS", "AS KS QS", "KH AH 3H", "JK KS QS"])
def test_B3_1_cards_out_of_order_are_refused_by_B3_1_even_beside_an_ace(text: str) -> None:
    """Cards out of order are refused for their order (B3.1), though read from the first
    natural they would also run past an ace (B3.2): the reason names what is wrong."""
    with pytest.raises(InvalidMeldError) as caught:
        Meld.parse(text)
    assert caught.value.rule == "B3.1"
    assert "consecutive ranks written low to high" in str(caught.value)


# ---------------------------------------------------------------- B3.2
def test_B3_2_ace_low_or_high_never_both_no_wrap() -> None:
    assert M("AH 2H 3H").low == 1
    assert M("QH KH AH").high == 14
    invalid("KH AH 2H", "B3.2")
    invalid("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", "B3.2")


def test_B3_2_at_most_thirteen_cards() -> None:
    full = M("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH")
    assert len(full) == 13
    assert full.extensions(C("AH")) == ()


def test_B3_2_nothing_below_a_low_ace_or_above_a_high_ace() -> None:
    invalid("JK AH 2H 3H", "B3.2")
    invalid("QH KH AH JK", "B3.2")
    assert outcomes("AH 2H 3H", "JK") == {"AH 2H 3H JK"}
    assert outcomes("QH KH AH", "JK") == {"JK QH KH AH"}
    assert outcomes("AH 2H 3H", "AH") == set()
    assert outcomes("QH KH AH", "JH") == {"JH QH KH AH"}


# ---------------------------------------------------------------- B3.3
def test_B3_3_at_most_one_substitute() -> None:
    invalid("5H JK 7H JK", "B3.3")
    invalid("7H 7S JK 2C", "B3.3")
    invalid("3H 2S 5H 2C", "B3.3")
    assert outcomes("5H 6H JK", "2C") == set()
    assert M("5H 6H JK").substitute is JOKER


def test_B3_3_meld_always_has_two_naturals() -> None:
    invalid("7H JK 2C", "B3.3")
    with pytest.raises(InvalidMeldError):
        Meld.parse("JK 2S 3H")


# ---------------------------------------------------------------- B3.4
def test_B3_4_substitute_stands_for_the_group_rank_or_one_sequence_rank() -> None:
    group = M("9C 9D JK")
    assert group.rank == 9 and group.substitute is JOKER
    gap = M("3H 4H JK 6H")
    assert gap.substitute_positions == (2,) and gap.low == 3
    low_end = M("JK 3H 4H")
    assert low_end.low == 2 and low_end.substitute_positions == (0,)
    high_end = M("3H 4H JK")
    assert high_end.high == 5


# ---------------------------------------------------------------- B3.5
def test_B3_5_no_groups_of_twos_or_jokers() -> None:
    invalid("2C 2D 2H", "B3.5")
    invalid("JK JK JK", "B3.5")
    invalid("2S 2S 2D 2D", "B3.5")


# ---------------------------------------------------------------- B3.6
def test_B3_6_two_of_the_suit_at_rank_two_is_natural() -> None:
    assert M("2H 3H 4H").is_clean
    assert M("AH 2H 3H").is_clean
    dirty = M("3H 4H 2H")
    assert not dirty.is_clean and dirty.substitute == C("2H")
    assert not M("2S 3H 4H").is_clean  # a two of another suit is a substitute
    # 2H 2H 3H: the first two stands for the ace, the second is natural
    both = M("2H 2H 3H")
    assert both.substitute_positions == (0,) and both.low == 1


def test_B3_6_a_two_in_a_group_is_a_substitute() -> None:
    assert M("5H 5S 2H").substitute == C("2H")


# ---------------------------------------------------------------- B3.7
def test_B3_7_seven_cards_make_a_biriba_clean_or_dirty() -> None:
    assert not M("3H 4H 5H 6H 7H 8H").is_biriba
    clean = M("3H 4H 5H 6H 7H 8H 9H")
    assert clean.is_biriba and clean.is_clean
    dirty = M("3H 4H 5H JK 7H 8H 9H")
    assert dirty.is_biriba and not dirty.is_clean
    group = M("KC KC KD KH KS KS JK")
    assert group.is_biriba and not group.is_clean


# ---------------------------------------------------------------- B3.8
def test_B3_8_melds_grow_only_by_adding_cards_never_split_or_joined() -> None:
    meld = M("4C 5C 6C")
    for card in (C("7C"), C("3C")):
        (result,) = meld.extensions(card)
        assert Counter(result.cards) == Counter(meld.cards) + Counter([card])
        assert result.cards[0] == C("3C") or result.cards[:3] == meld.cards
    # A card that does not belong cannot be added: nothing is split or rearranged.
    assert meld.extensions(C("9C")) == ()
    assert meld.extensions(C("5H")) == ()


# ---------------------------------------------------------------- B3.9
def test_B3_9_natural_displaces_substitute_to_either_end() -> None:
    assert outcomes("4H 5H JK 7H", "6H") == {"JK 4H 5H 6H 7H", "4H 5H 6H 7H JK"}
    assert outcomes("4H 5H 6H 7H JK", "8H") == {"JK 4H 5H 6H 7H 8H", "4H 5H 6H 7H 8H JK"}


def test_B3_9_displaced_two_landing_at_rank_two_becomes_natural() -> None:
    results = {str(m): m for m in M("2H 4H 5H").extensions(C("3H"))}
    assert set(results) == {"2H 3H 4H 5H", "3H 4H 5H 2H"}
    assert results["2H 3H 4H 5H"].is_clean
    assert not results["3H 4H 5H 2H"].is_clean


def test_B3_9_no_room_at_either_end_blocks_the_natural() -> None:
    full = M("AH 2H 3H 4H 5H 6H JK 8H 9H TH JH QH KH")
    assert full.extensions(C("7H")) == ()
    # With room at one end only, the substitute goes there.
    assert outcomes("AH 2H JK 4H", "3H") == {"AH 2H 3H 4H JK"}


def test_B3_9_substitute_never_moves_otherwise() -> None:
    assert outcomes("4H JK 6H", "7H") == {"4H JK 6H 7H"}
    assert outcomes("4H JK 6H", "3H") == {"3H 4H JK 6H"}


# ---------------------------------------------------------------- B3.10
def test_B3_10_no_second_substitute_even_to_make_a_two_natural() -> None:
    # 2H stands for 3H; a joker at the low end would make the two natural, but only by
    # bringing in a second substitute.
    assert outcomes("2H 4H 5H", "JK") == set()
    assert outcomes("3H 4H 5H", "JK") == {"JK 3H 4H 5H", "3H 4H 5H JK"}
    assert outcomes("7H 7S JK", "2D") == set()
    # A substitute added in another's place, that one moving to rank 2 as a natural two,
    # would also be a second substitute for a moment.
    assert outcomes("3D 2D 5D", "2C") == set()


# ---------------------------------------------------------------- B3.11
def test_B3_11_added_substitute_goes_low_or_high() -> None:
    assert outcomes("5D 6D 7D", "JK") == {"JK 5D 6D 7D", "5D 6D 7D JK"}
    assert outcomes("AD 2D 3D", "2S") == {"AD 2D 3D 2S"}
    assert outcomes("QD KD AD", "2S") == {"2S QD KD AD"}
    assert outcomes("8C 8D 8H", "JK") == {"8C 8D 8H JK"}


# ---------------------------------------------------------------- B3.12
def test_B3_12_each_place_of_one_card_is_a_different_addition() -> None:
    assert outcomes("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS", "AS") == {
        "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    }
    assert outcomes("3H 4H 5H", "2H") == {"2H 3H 4H 5H", "3H 4H 5H 2H"}
    assert outcomes("3H 4H JK", "2H") == {"2H 3H 4H JK"}
    assert outcomes("7H 7S 7C", "7D") == {"7C 7D 7H 7S"}


# ---------------------------------------------------------------- B8
def test_B8_1_card_values_in_melds() -> None:
    assert M("AH 2H 3H").points == 30
    assert M("8S 9S TS JS QS KS").points == 60
    assert M("5C 5D JK").points == 30


def test_B8_2_substitute_counts_its_own_value() -> None:
    assert M("5C 5D JK").points == 5 + 5 + 20
    assert M("5C 5D 2S").points == 5 + 5 + 10
    assert M("3H 4H 2H").points == 20


def test_B8_3_biriba_bonuses() -> None:
    assert M("3H 4H 5H 6H 7H 8H 9H").bonus == 200
    assert M("3H 4H 5H JK 7H 8H 9H").bonus == 100
    assert M("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH").bonus == 1000
    assert M("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH JK").bonus == 500
    assert M("KC KC KD KH KS KS KD").bonus == 300
    assert M("KC KC KD KH KS KS JK").bonus == 150
    assert M("3H 4H 5H 6H 7H 8H").bonus == 0


def test_B8_8_worked_example_bonus_and_card_values() -> None:
    meld = M("3H 4H 5H 6H 7H 8H")
    (result,) = meld.extensions(C("9H"))
    assert result.is_biriba and result.is_clean
    assert result.bonus == 200 and result.points == 45


# ---------------------------------------------------------------- notation and errors
def test_group_canonical_order_naturals_by_suit_then_substitute() -> None:
    assert str(M("7S JK 7H 7C")) == "7C 7H 7S JK"
    assert M("7S JK 7H") == M("JK 7H 7S")
    assert hash(M("7S JK 7H")) == hash(M("JK 7H 7S"))


def test_meld_errors_and_types() -> None:
    with pytest.raises(NotationError):
        Meld.parse("3H 4H 5X")
    with pytest.raises(TypeError):
        Meld.parse(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Meld.from_cards("3H 4H 5H")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Meld.from_cards([C("3H")], rules="biriba")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        M("3H 4H 5H").extensions("6H")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"build a Meld with Meld\.parse"):
        Meld()
    with pytest.raises(TypeError, match=r"build a Meld with Meld\.parse"):
        Meld("3H 4H 5H")
    invalid("3H 3H 3H 3H", "B1.2")
    meld = M("3H 4H 5H")
    with pytest.raises(AttributeError):
        meld.cards = ()  # type: ignore[misc]


def test_buraco_rules_in_melds() -> None:
    # Z3.4: more than one substitute is allowed, but such a meld is never a canastra.
    many = Meld.parse("3H JK 5H JK 7H 8H 9H", BURACO)
    assert not many.is_biriba
    # Z3.3: a sequence ending with an ace is closed; one starting with an ace grows.
    assert Meld.parse("QH KH AH", BURACO).extensions(C("JH")) == ()
    assert len(Meld.parse("AH 2H 3H", BURACO).extensions(C("4H"))) == 1


# ---------------------------------------------------------------- properties
PACK = full_pack()


@st.composite
def hands(draw: st.DrawFn, max_size: int) -> tuple[Card, ...]:
    indices = draw(
        st.lists(st.integers(0, len(PACK) - 1), unique=True, min_size=0, max_size=max_size)
    )
    return tuple(PACK[i] for i in indices)


def brute_force_melds(hand: tuple[Card, ...]) -> set[Meld]:
    found: set[Meld] = set()
    for size in range(3, len(hand) + 1):
        for combo in set(itertools.combinations(sorted(hand), size)):
            for order in set(itertools.permutations(combo)):
                with contextlib.suppress(InvalidMeldError):
                    found.add(Meld.from_cards(order))
    return found


@given(hands(max_size=6))
def test_enumerator_agrees_with_brute_force(hand: tuple[Card, ...]) -> None:
    listed = enumerate_melds(hand)
    assert len(listed) == len(set(listed))
    assert set(listed) == brute_force_melds(hand)


@given(st.sampled_from(["3H 4H 5H", "AD 2D 3D", "JK 5S 6S", "9C 9C 2D"]), hands(max_size=4))
def test_enumerator_agrees_with_brute_force_around_a_meld(
    base: str, extra: tuple[Card, ...]
) -> None:
    hand = parse_cards(base) + extra
    assume(all(Counter(hand)[c] <= (4 if c.is_joker else 2) for c in hand))
    listed = enumerate_melds(hand)
    assert len(listed) == len(set(listed))
    assert set(listed) == brute_force_melds(hand)


def test_enumerator_on_a_large_hand_lists_valid_distinct_melds() -> None:
    hand = PACK[:26] + PACK[52:60] + PACK[104:108]
    listed = enumerate_melds(hand)
    assert len(listed) == len(set(listed))
    for meld in listed:
        assert Meld.from_cards(meld.cards) == meld
        assert not Counter(meld.cards) - Counter(hand)


@st.composite
def melds(draw: st.DrawFn) -> Meld:
    hand = draw(hands(max_size=9))
    options = enumerate_melds(hand)
    if not options:
        return M("3H 4H 5H")
    return draw(st.sampled_from(options))


@given(melds())
def test_meld_str_round_trips(meld: Meld) -> None:
    assert Meld.parse(str(meld)) == meld
    assert str(Meld.parse(str(meld))) == str(meld)


@given(melds(), st.sampled_from([Card.from_index(i) for i in range(53)]))
def test_every_extension_validates_and_holds_old_cards_plus_one(meld: Meld, card: Card) -> None:
    results = meld.extensions(card)
    assert len(results) == len(set(results))
    for result in results:
        assert Meld.from_cards(result.cards) == result
        assert Counter(result.cards) == Counter(meld.cards) + Counter([card])
        assert result.kind is meld.kind
        assert len(result.substitutes) <= 1


@given(st.text(alphabet="23456789TJQKAHDSCjk *10♥♠ ", max_size=30))
def test_random_text_never_crashes_meld_parse(text: str) -> None:
    try:
        meld = Meld.parse(text)
    except (NotationError, InvalidMeldError):
        return
    assert isinstance(meld, Meld)


@given(st.text(max_size=20))
def test_arbitrary_text_never_crashes_meld_parse(text: str) -> None:
    with contextlib.suppress(NotationError, InvalidMeldError):
        Meld.parse(text)


def test_biriba_rules_are_default() -> None:
    assert M("3H 4H 5H").rules is BIRIBA


@given(hands(max_size=30))
def test_fast_sequence_enumeration_matches_the_general_one(hand: tuple[Card, ...]) -> None:
    from biriba.enumeration import _enumerate_sequences, melds_from_counts

    counts = [0] * 53
    for card in hand:
        counts[card.index] += 1
    wilds = tuple(sorted((i, counts[i]) for i in (1, 14, 27, 40, 52) if counts[i]))
    sub_cap = min(1, sum(c for _, c in wilds))
    general: list[Meld] = []
    _enumerate_sequences(bytes(counts), BIRIBA, wilds, sub_cap, general)
    # Without groups, melds_from_counts lists exactly the sequences, by the fast path.
    sequences_only = attrs.evolve(BIRIBA, groups=False)
    fast = melds_from_counts(tuple(counts), sequences_only)
    assert [str(m) for m in fast] == [str(m) for m in general]


def remembered_hopeless(plan: Any, substitutes: int, suit: int, ranks: tuple[int, ...]) -> bool:
    """Whether ``plan`` remembers that a suit holding ``ranks`` can make no sequence with
    at most ``substitutes`` substitutes (0 or 1): where the build keeps it, by the row's
    bytes in pure Python (``no_runs``), by its bits compiled (no runs in ``bit_windows``)."""
    if plan.bit_windows:
        return bool(plan.bit_windows[substitutes][suit][sum(1 << (r - 1) for r in ranks)] == ())
    row = bytes(1 if r in ranks else 0 for r in range(1, 14))
    return row in plan.no_runs[substitutes][suit]


def test_B3_2_a_suit_that_can_hold_no_sequence_is_remembered_not_cached() -> None:
    """A suit whose ranks in hand can make no sequence (B3.2: three consecutive ranks, or
    two at most one apart with a substitute, B3.3) is remembered by its row of ranks, for
    the number of substitutes it could take, and never looked up in the cache of parts
    again; the melds listed are the same the first time and the next."""
    from biriba import enumeration

    plan = enumeration._PLANS.get(BIRIBA) or enumeration._plan_for(BIRIBA)
    enumeration.clear_tables()
    hearts = 2
    # Hearts 3, 7 and J: no run without a substitute; with one, 3 and 7 are still four
    # ranks apart. Clubs 4 5 6 make a run.
    plain = parse_cards("3H 7H JH 4C 5C 6C 9S")
    assert [str(m) for m in enumerate_melds(plain, BIRIBA)] == ["4C 5C 6C"]
    assert remembered_hopeless(plan, 0, hearts, (3, 7, 11))
    assert not remembered_hopeless(plan, 1, hearts, (3, 7, 11))
    assert len(plan.cache) == 1  # the clubs' run only: no rank has a group, no other suit a run
    cached = dict(plan.cache)
    assert [str(m) for m in enumerate_melds(plain, BIRIBA)] == ["4C 5C 6C"]
    assert plan.cache == cached  # the hearts were not looked for again

    wild = parse_cards("3H 7H JH 4C 5C 6C JK")
    listed = [str(m) for m in enumerate_melds(wild, BIRIBA)]
    assert not any("H" in m for m in listed)
    assert remembered_hopeless(plan, 1, hearts, (3, 7, 11))
    # 3H 5H with a substitute: a run of three with 4 missing, so not remembered.
    near = parse_cards("3H 5H JK")
    assert [str(m) for m in enumerate_melds(near, BIRIBA)] == ["3H JK 5H"]
    assert not remembered_hopeless(plan, 1, hearts, (3, 5))
    enumeration.clear_tables()
    # Emptied, but for the rows of fewer than two ranks, which no sequence fits (B3.3).
    few = {bytes(13)} | {bytes(1 if r == k else 0 for r in range(13)) for k in range(13)}
    assert all(rows == few for by_suit in plan.no_runs for rows in by_suit)
    if enumeration._INDEXED_READS:
        # Compiled, no row is remembered: the rows of fewer ranks are found again, once.
        assert all(
            slot is None for by_suit in plan.bit_windows for rows in by_suit for slot in rows
        )
    else:  # pure Python keeps no table by bits
        assert plan.bit_windows == ()


def test_B3_3_a_suit_of_fewer_than_two_ranks_is_never_looked_up() -> None:
    """A suit holding one rank or none can make no sequence (B3.3: at least two naturals):
    its row is known from the start, so that a hand's such suits are skipped without a
    key or a look-up in the cache of parts, with or without substitutes."""
    from biriba import enumeration

    plan = enumeration._PLANS.get(BIRIBA) or enumeration._plan_for(BIRIBA)
    enumeration.clear_tables()
    hand = parse_cards("7H 9C JK KS 4D")
    assert enumerate_melds(hand, BIRIBA) == ()
    assert not plan.cache


def test_B3_3_a_cached_suit_or_rank_serves_only_hands_with_the_same_substitutes() -> None:
    """The cache of parts keys a suit's sequences and a rank's groups by the substitutes
    in hand too (B3.3, B3.4: a substitute makes other melds): hands of the same naturals
    and other substitutes, enumerated one after the other from a warm cache, list what
    each lists from an empty one, and no two of them list the same."""
    from biriba import enumeration

    naturals = "4C 5C 7C 9H 9D 9S 9S QH KH"
    hands = [
        parse_cards(f"{naturals} {extra}".strip()) for extra in ("", "2S", "2D", "JK", "2S JK")
    ]
    cold = []
    for hand in hands:
        enumeration.clear_caches()
        cold.append([str(meld) for meld in enumerate_melds(hand, BIRIBA)])
    enumeration.clear_caches()
    warm = [[str(meld) for meld in enumerate_melds(hand, BIRIBA)] for hand in hands]
    assert warm == cold
    assert len({tuple(melds) for melds in warm}) == len(hands)
    assert "5C 2S 7C" not in warm[0]
    assert {"5C 2S 7C", "9D 9H 9S 2S", "QH KH 2S"} <= set(warm[1])
    assert {"5C JK 7C", "9D 9H 9S JK", "QH KH JK"} <= set(warm[3])


@given(
    st.integers(0, (1 << 13) - 1),
    st.integers(0, 1),
    st.booleans(),
    st.sampled_from([(True, 3, 14, 14), (False, 3, 13, 14), (True, 4, 7, 13), (False, 3, 3, 13)]),
)
def test_B3_2_windows_of_a_suit_are_every_run_with_at_most_one_rank_missing(
    bits: int, sub_cap: int, drop_two: bool, limits: tuple[bool, int, int, int]
) -> None:
    """The runs of ranks the cached sequence enumerator fills (``_row_windows``, cached by
    the ranks in hand) are every run of ``min_len`` to ``max_len`` ranks from the lowest
    rank (the ace, where it may stand low, else 2) to ``highest`` (14: the ace, high) that
    misses at most ``sub_cap`` ranks (B3.2, B3.3), by lowest rank then highest, with the
    rank a substitute fills. A two that is a substitute even at rank 2 (V7) fills none."""
    from biriba.enumeration import _row_windows

    ace_low, min_len, max_len, highest = limits
    lowest = 1 if ace_low else 2
    present = bytes((bits >> r) & 1 for r in range(13))  # present[r - 1]: rank r held

    def held(rank: int) -> bool:
        if rank == 14:
            return bool(present[0])
        if rank == 2 and drop_two:
            return False
        return bool(present[rank - 1])

    expected = []
    for low in range(lowest, highest + 1):
        for high in range(low + min_len - 1, min(highest, low + max_len - 1) + 1):
            missing = [r for r in range(low, high + 1) if not held(r)]
            if len(missing) <= sub_cap:
                expected.append((low, high, missing[0] if missing else 0))
    found = _row_windows(present, sub_cap, drop_two, ace_low, min_len, max_len, lowest, highest)
    assert list(found) == expected


@given(st.lists(st.integers(0, 8), min_size=53, max_size=53))
def test_B3_1_a_hands_rank_totals_are_its_four_suits_counts_added(counts: list[int]) -> None:
    """The cards of each rank, all suits together (``_rank_totals``, which tells the group
    enumerator which ranks can make a group, B3.1): the four suits' counts of the rank
    added, whatever the jokers' count, for hands of up to four decks (8 copies a card)."""
    from biriba.enumeration import _rank_totals

    raw = bytes(counts)
    expected = bytes(sum(raw[suit * 13 + rank] for suit in range(4)) for rank in range(13))
    assert _rank_totals(raw) == expected


@given(st.lists(st.integers(0, 8), min_size=53, max_size=53), st.integers(0, 40))
def test_B3_1_the_compiled_builds_ranks_for_a_group_are_the_pure_builds(
    counts: list[int], need: int
) -> None:
    """The ranks with ``need`` cards or more, all suits together (where a group of B3.1
    may be), as each build finds them: the compiled build by reading the bytes by index
    (``_hand_bits``, which gives the cards held as bits too), pure Python from
    ``_rank_totals`` and a translation table (``_at_least``, for needs of 2 and more);
    both against the counts added here."""
    from biriba.enumeration import _at_least, _flagged, _hand_bits, _masked, _rank_totals

    raw = bytes(counts)
    expected = tuple(
        rank for rank in range(13) if sum(raw[suit * 13 + rank] for suit in range(4)) >= need
    )
    enough, present = _hand_bits(raw, need)
    assert _masked(enough) == expected
    # The cards held, as bits: each suit's row of ranks (the key of its sequences).
    assert present == sum(1 << i for i in range(52) if raw[i])
    if need >= 2:
        assert _flagged(_rank_totals(raw).translate(_at_least(need))) == expected


def reference_extensions(meld: Meld, card: Card) -> set[Meld]:
    """B3.8 to B3.12 by brute force: every way of inserting the card, and of putting the
    natural of a substitute's rank in its place with that substitute at either end, that
    validates and keeps every other card's rank (so nothing moves but what B3.9 moves)."""
    cards = list(meld.cards)
    found: set[Meld] = set()
    if meld.kind is MeldKind.GROUP:
        with contextlib.suppress(InvalidMeldError):
            found.add(Meld.from_cards([*cards, card]))
        return found
    assert meld.low is not None
    # Each arrangement with the rank its first card must stand at: the old cards keep
    # their ranks, so it is one below the old low when the arrangement grows at the front.
    arrangements = [([card, *cards], meld.low - 1), ([*cards, card], meld.low)]
    for pos in meld.substitute_positions:
        # B3.9 moves a substitute only for the natural card of the rank it stands for;
        # a substitute put in its place would be a second one for a moment (B3.10).
        stands_for = meld.low + pos
        if card.suit is not meld.suit or card.rank != (1 if stands_for == 14 else stands_for):
            continue
        rest = [*cards[:pos], card, *cards[pos + 1 :]]
        arrangements += [([cards[pos], *rest], meld.low - 1), ([*rest, cards[pos]], meld.low)]
    for arrangement, expected_low in arrangements:
        try:
            result = Meld.from_cards(arrangement)
        except InvalidMeldError:
            continue
        if result.kind is MeldKind.SEQUENCE and result.low == expected_low:
            found.add(result)
    return found


@settings(max_examples=examples(400))
@given(melds(), st.sampled_from([Card.from_index(i) for i in range(53)]))
def test_extensions_agree_with_a_brute_force_reference(meld: Meld, card: Card) -> None:
    assert set(meld.extensions(card)) == reference_extensions(meld, card)


#: Rule sets whose enumeration takes other paths: no wild twos (the joker alone), twos
#: always wild, no groups, more substitutes (the general enumerator), longer minimum,
#: capped new melds, no high or no low ace, short sequences.
VARIANTS = [
    BIRIBA.evolve(name="no-wild-twos", twos_wild=False),
    BIRIBA.evolve(name="no-wild-twos-free", twos_wild=False, max_substitutes=None),
    BIRIBA.evolve(name="twos-always-wild", twos_always_wild=True),
    BIRIBA.evolve(name="no-groups", groups=False),
    BIRIBA.evolve(name="two-subs", max_substitutes=2),
    BIRIBA.evolve(name="free-subs", max_substitutes=None),
    BIRIBA.evolve(name="four-min", min_meld=4),
    BIRIBA.evolve(name="capped", max_new_meld=4),
    BIRIBA.evolve(name="ace-low-only", ace_high=False),
    BIRIBA.evolve(name="ace-high-only", ace_low=False),
    BIRIBA.evolve(name="short", max_sequence=4),
    BURACO,
]


def brute_force_melds_under(hand: tuple[Card, ...], rules: RuleSet) -> set[Meld]:
    """Every meld of ``hand`` under ``rules`` by trying every ordered subset (B3.1 to B3.6;
    Z3.2's cap on a new meld)."""
    found: set[Meld] = set()
    top = len(hand) if rules.max_new_meld is None else min(len(hand), rules.max_new_meld)
    for size in range(rules.min_meld, top + 1):
        for combo in set(itertools.combinations(sorted(hand), size)):
            for order in set(itertools.permutations(combo)):
                with contextlib.suppress(InvalidMeldError):
                    found.add(Meld.from_cards(order, rules))
    return found


@settings(max_examples=examples(30))
@example(VARIANTS[1], [4, 17], 4)  # more jokers than a single-wild key once allowed
@given(
    st.sampled_from(VARIANTS),
    st.lists(st.integers(0, 107), unique=True, max_size=6),
    st.integers(0, 4),
)
def test_enumerator_agrees_with_brute_force_under_every_variant(
    rules: RuleSet, indices: list[int], jokers: int
) -> None:
    pack = full_pack(rules)
    # Jokers are rare in a random draw: put some first; six cards at most, so that the
    # brute force stays quick.
    joker_cards = [c for c in pack if c.is_joker][:jokers]
    hand = (tuple(joker_cards) + tuple(pack[i % len(pack)] for i in indices))[:6]
    assume(all(n <= pack.count(c) for c, n in Counter(hand).items()))
    listed = enumerate_melds(hand, rules)
    assert len(listed) == len(set(listed))
    assert all(meld.rules is rules for meld in listed)
    assert set(listed) == brute_force_melds_under(hand, rules)


def test_B1_2_groups_of_many_decks_are_each_listed_once() -> None:
    """With nine decks a hand holds up to nine copies of a card (B1.2): every group of
    5C x a, 5D x b and the joker is listed once, and is the meld its cards make. (The
    enumerator names each group by its copies per suit: eight copies of 5C and one of 5D
    once had the name of two 5Ds.)"""
    rules = BIRIBA.evolve(name="nine-decks", decks=9)
    hand = parse_cards("5C " * 8 + "5D 5D JK")
    listed = enumerate_melds(hand, rules)
    assert len(listed) == len(set(listed))
    assert all(Meld.from_cards(meld.cards, rules) == meld for meld in listed)
    expected = set()
    for a in range(9):
        for b in range(3):
            for joker in ((), parse_cards("JK")):
                cards = parse_cards("5C " * a + "5D " * b) + joker
                if a + b >= 2 and len(cards) >= rules.min_meld:
                    expected.add(Meld.from_cards(cards, rules))
    assert set(listed) == expected


def test_B1_2_enumerate_melds_refuses_more_copies_than_the_pack() -> None:
    with pytest.raises(BiribaError, match=r"B1\.2: the hand holds 3 copies of 5H") as info:
        enumerate_melds(parse_cards("5H 5H 5H 6H"))
    assert info.value.rule == "B1.2"  # err.rule names it, as the message does
    with pytest.raises(BiribaError, match=r"B1\.2: the hand holds 5 copies of JK"):
        enumerate_melds([JOKER] * 5, BIRIBA.evolve(name="free", max_substitutes=None))
    # Buraco's pack holds two jokers.
    with pytest.raises(BiribaError, match="the pack only 2"):
        enumerate_melds(parse_cards("JK JK JK 5H 6H"), BURACO)
    assert enumerate_melds(parse_cards("5H 5H 6H")) == ()


def test_the_part_cache_empties_when_full_and_gives_the_same_melds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from biriba import enumeration

    hands = [PACK[i : i + 9] for i in range(0, 99, 3)]
    expected = [enumerate_melds(hand) for hand in hands]
    monkeypatch.setattr(enumeration, "_PART_CACHE_LIMIT", 4)
    monkeypatch.delitem(enumeration._PLANS, BIRIBA)  # a fresh, empty cache
    enumeration.clear_caches()  # (which also forgets the plan last used)
    for _ in range(2):
        assert [enumerate_melds(hand) for hand in hands] == expected
        assert 0 < len(enumeration._PLANS[BIRIBA].cache) <= 4


def test_the_meld_table_empties_with_the_part_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every meld of the table keeps what was worked out from it (its extensions, which
    # keep theirs): chains the table's own count does not see. Emptied with the part
    # cache, the table lets every meld no deal holds go, so a long run's memory is bounded.
    from biriba import enumeration

    monkeypatch.setattr(enumeration, "_PART_CACHE_LIMIT", 6)
    enumerate_melds(PACK[:9])  # (the plan of the process, to be set aside)
    monkeypatch.delitem(enumeration._PLANS, BIRIBA)  # a fresh, empty cache
    # (the plan last used is found again by identity: the process's own once this is over)
    recent = enumeration._RECENT_PLAN[0]
    enumeration._RECENT_PLAN[0] = (None, None)
    try:
        _fill_and_empty_the_part_cache(enumeration)
    finally:
        enumeration._RECENT_PLAN[0] = recent


def _fill_and_empty_the_part_cache(enumeration: Any) -> None:
    """Hands one after the other until the (small) part cache is full and emptied: the
    table of melds then holds none of the melds it held before."""
    old_table: list[object] = []
    cached = 0
    for i in range(0, 99, 3):
        enumerate_melds(PACK[i : i + 9])
        plan = enumeration._PLANS[BIRIBA]
        if len(plan.cache) < cached:  # full, it was emptied before this hand's parts
            break
        cached = len(plan.cache)
        old_table = list(plan.lays.values())  # (kept alive: no object's id is reused)
    else:
        pytest.fail("the part cache never filled")
    assert cached >= 6 and old_table
    # The table holds none from before (only melds of the hand's parts made since).
    assert len(plan.lays) < len(old_table)
    assert not any(lay is old for lay in plan.lays.values() for old in old_table)
    assert len(plan.cache) < 6


def test_the_engines_answers_go_when_the_meld_table_is_emptied(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The look-ahead's answers hold melds (in their situations): kept, they would keep the
    # melds the table let go, and all that hangs from them. They are emptied at the next
    # look-ahead that starts with none under way, and only then.
    from biriba import enumeration
    from biriba.engine import engine_for

    engine = engine_for(BIRIBA)
    deal, rng, seed = Deal.new(seed=5), random.Random(5), 6
    while not engine._finish_cache:
        if deal.is_over:
            deal, rng, seed = Deal.new(seed=seed), random.Random(seed), seed + 1
        deal.play(rng.choice(deal.legal_moves()))
    emptied = enumeration.times_emptied()
    monkeypatch.setattr(enumeration, "_PART_CACHE_LIMIT", 0)  # full: a new part empties it
    for start in range(0, 90):
        enumerate_melds(PACK[start : start + 12])
        if enumeration.times_emptied() > emptied:
            break
    assert enumeration.times_emptied() > emptied
    assert engine._finish_cache  # kept until a look-ahead starts
    engine._search.holding[b"melds of the table let go"] = []  # V3's exact search's
    engine._searching += 1  # one under way: its cache is not emptied under it
    engine._enter_search()
    engine._searching -= 2
    assert engine._finish_cache and engine._search.holding
    engine._enter_search()
    engine._searching -= 1
    assert not engine._finish_cache and not engine._search.holding
    monkeypatch.setattr(enumeration, "_PART_CACHE_LIMIT", 50_000)
    while not engine._finish_cache:  # answers again, the table not emptied since
        if deal.is_over:
            deal, rng, seed = Deal.new(seed=seed), random.Random(seed), seed + 1
        deal.play(rng.choice(deal.legal_moves()))
    kept = dict(engine._finish_cache)
    engine._enter_search()
    engine._searching -= 1
    assert engine._finish_cache == kept


@pytest.mark.parametrize(
    "text",
    [
        "3H 4H 5H",
        "4H 5H JK 7H",
        "AH 2H 3H",
        "QS KS AS",
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
        "JK 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
        "7C 7D 7S",
        "9H 9S JK",
    ],
)
def test_B3_12_extension_refusal_agrees_with_extensions(text: str) -> None:
    """For every card, ``extension_refusal`` is None exactly when ``extensions`` is not
    empty, and otherwise names a rule of the reference (B3.8 to B3.12, B1.2, B3.2, B3.3)."""
    from biriba import RULE_IDS

    for rules in (BIRIBA, BIRIBA.evolve(name="two-substitutes", max_substitutes=2)):
        meld = Meld.parse(text, rules)
        for index in range(53):
            card = Card.from_index(index)
            refusal = meld.extension_refusal(card)
            assert (refusal is None) == bool(meld.extensions(card)), (text, str(card))
            if refusal is not None:
                assert refusal[0] in RULE_IDS and refusal[1]


@given(hands(max_size=30))
def test_Z3_4_sequences_with_several_substitutes_are_listed_once_each(
    hand: tuple[Card, ...],
) -> None:
    """Under rules allowing several substitutes (Z3.4), the cached enumerator lists the
    sequences with one at most and the general one those with two or more: together
    exactly what the general enumerator alone lists."""
    from biriba import BURACO
    from biriba.enumeration import _enumerate_sequences, melds_from_counts

    counts = [0] * 53
    for card in hand:
        counts[card.index] += 1
    if counts[52] > 2:
        counts[52] = 2  # Buraco's pack has two jokers (Z1.2)
    wilds = tuple(sorted((i, counts[i]) for i in (1, 14, 27, 40, 52) if counts[i]))
    sub_cap = sum(c for _, c in wilds)
    general: list[Meld] = []
    rules = attrs.evolve(BURACO, groups=False, wild_melds=False)
    _enumerate_sequences(bytes(counts), rules, wilds, sub_cap, general)
    listed = melds_from_counts(tuple(counts), rules)
    assert len(listed) == len(set(listed))
    assert set(listed) == set(general)


def test_Z3_4_a_sequence_with_as_many_substitutes_as_naturals_takes_no_other_substitute() -> None:
    # JK 4H 2C 6H: two substitutes beside two naturals, the most Z3.4 allows for five
    # cards. A further substitute would outnumber the naturals; the suit's own two still
    # fits below as a natural (rank 2), and a natural may take a substitute's place (B3.9).
    meld = Meld.parse("JK 4H 2C 6H", BURACO)
    listed = set(meld.candidate_indices())
    for text in ("JK", "2C", "2D", "2S"):
        card = C(text)
        assert card.index not in listed
        assert meld.extensions(card) == ()
        assert meld.extension_refusal(card) is not None
    assert {str(m) for m in meld.extensions(C("2H"))} == {"2H JK 4H 2C 6H"}
    assert {str(m) for m in meld.extensions(C("5H"))} == {"2C JK 4H 5H 6H", "JK 4H 5H 6H 2C"}
    assert {C("2H").index, C("5H").index, C("7H").index} <= listed


def test_Z3_3_a_sequence_closed_by_a_high_ace_lists_no_card_to_add() -> None:
    meld = Meld.parse("QS KS AS", BURACO)
    assert meld.candidate_indices() == ()
    assert all(meld.extensions_of_index(i) == () for i in range(53))
    assert meld.extension_refusal(C("JS")) == (
        "Z3.3",
        "QS KS AS ends with an ace and is closed to every addition",
    )


_CANDIDATE_RULES = (
    *(RuleSet.named(name) for name in RuleSet.preset_names()),
    BIRIBA.evolve(max_substitutes=None),
    BIRIBA.evolve(max_substitutes=2, twos_always_wild=True),
    BURACO.evolve(ace_low=False, twos_always_wild=True),
    BIRIBA.evolve(high_ace_closes_meld=True, max_substitutes=3),
)


def grown_meld(rules: RuleSet, hand: tuple[Card, ...], picks: list[int]) -> Meld:
    """A meld of ``hand`` (``picks[0]`` chooses it), grown by a few of its extensions
    (the later picks), so as to reach the substitute limits; the example is dropped
    when the hand holds no meld."""
    jokers = [c for c in hand if c.is_joker][: rules.jokers]
    hand = tuple(c for c in hand if not c.is_joker) + tuple(jokers)
    options = enumerate_melds(hand, rules)
    assume(options)
    meld = options[picks[0] % len(options)] if picks else options[0]
    for pick in picks[1:]:
        grown = [m for i in range(53) for m in meld.extensions_of_index(i)]
        if not grown:
            break
        meld = grown[pick % len(grown)]
    return meld


def grown_melds(test: Callable[[RuleSet, tuple[Card, ...], list[int]], None]) -> Any:
    """``test`` run on 150 examples of :func:`grown_meld`: a rule set, a hand, and the
    picks."""
    examples = given(
        st.sampled_from(_CANDIDATE_RULES),
        hands(max_size=10),
        st.lists(st.integers(0, 10_000), max_size=4),
    )
    return settings(max_examples=150)(examples(test))


def test_B3_3_melds_of_one_shape_under_two_rule_sets_keep_each_its_own_candidates() -> None:
    """The candidates of a meld's shape are kept per rule set: ``5H JK 7H`` holds the one
    substitute B3.3 allows, so that under Biriba no substitute is a candidate, and under
    a variant allowing two (V7) every substitute is, whichever is asked first and however
    the two alternate."""
    from biriba import melds

    two = BIRIBA.evolve(name="two-substitutes", max_substitutes=2)
    melds.clear_tables()
    for rules in (BIRIBA, two, BIRIBA, two):
        listed = Meld.parse("5H JK 7H", rules).candidate_indices()
        wild = [i for i in listed if rules.wild[i]]
        assert wild == ([] if rules is BIRIBA else list(rules.wild_indices)), rules.name
        assert C("4H").index in listed and C("8H").index in listed


@grown_melds
def test_B3_8_candidate_indices_hold_every_card_that_extends_a_meld(
    rules: RuleSet, hand: tuple[Card, ...], picks: list[int]
) -> None:
    # A meld of the hand, grown by a few of its extensions (to reach the substitute
    # limits): every card with an extension is among its candidates, a superset that
    # the move generator relies on (B3.8 to B3.12, Z3.3, Z3.4, V7).
    meld = grown_meld(rules, hand, picks)
    listed = set(meld.candidate_indices())
    for index in range(53):
        if meld.extensions_of_index(index):
            assert index in listed, (str(meld), str(Card.from_index(index)))


@grown_melds
def test_B3_8_natural_candidate_indices_are_the_candidates_less_the_substitutes(
    rules: RuleSet, hand: tuple[Card, ...], picks: list[int]
) -> None:
    # A hand without substitutes is offered additions from natural_candidate_indices
    # only: it must be candidate_indices in the same order, less every substitute's
    # index (B1.3, Z1.2), whichever of the two is asked first.
    meld = grown_meld(rules, hand, picks)
    fresh = Meld.from_cards(meld.cards, rules)
    natural = fresh.natural_candidate_indices()
    assert natural == tuple(i for i in meld.candidate_indices() if not rules.wild[i])
    assert fresh.candidate_indices() == meld.candidate_indices()
    for index in range(53):
        if meld.extensions_of_index(index) and not rules.wild[index]:
            assert index in natural, (str(meld), str(Card.from_index(index)))


@grown_melds
def test_B3_8_a_group_or_wild_meld_says_whether_a_card_fits_without_making_the_result(
    rules: RuleSet, hand: tuple[Card, ...], picks: list[int]
) -> None:
    # The move generator lists a group's additions from fits_in_one_place and makes the
    # resulting meld only when the move is played: the two must agree on every card
    # (B1.2, B3.1, B3.10, B3.12, Z3.4, Z3.7, V7), and a sequence must be left to
    # extensions(), where a card may have two places.
    meld = grown_meld(rules, hand, picks)
    for index in range(53):
        fits = fits_in_one_place(meld, index)
        results = meld.extensions_of_index(index)
        if meld.kind is MeldKind.SEQUENCE:
            assert fits is None
        else:
            assert fits is (len(results) == 1), (str(meld), str(Card.from_index(index)))
            assert len(results) <= 1
            refusal = meld.extension_refusal(Card.from_index(index))
            assert (refusal is None) is fits


def test_B1_2_and_Z3_7_fits_in_one_place_refuses_what_extensions_refuse() -> None:
    full = Meld.parse("7H 7H 7S", BIRIBA)  # both 7H of two decks already in it (B1.2)
    assert fits_in_one_place(full, C("7H").index) is False
    assert fits_in_one_place(full, C("7S").index) is True
    assert fits_in_one_place(full, C("8S").index) is False  # B3.12: one rank
    wild = Meld.parse("JK JK 2C", BURACO)  # wild_melds (Z3.7)
    assert fits_in_one_place(wild, C("2H").index) is True
    assert fits_in_one_place(wild, C("7H").index) is False  # Z3.7: substitutes only
    assert fits_in_one_place(Meld.parse("5H 6H 7H"), C("8H").index) is None


@pytest.mark.parametrize("rules", [BIRIBA, BURACO], ids=lambda r: r.name)
def test_clear_tables_empties_what_a_process_keeps_and_changes_no_meld(rules: RuleSet) -> None:
    """``enumeration.clear_tables`` (for measuring a first call in a fresh process) empties
    the part cache, the tables of melds and every table kept for the process; the melds
    enumerated afterwards are the same, in the same order."""
    from biriba import enumeration, melds

    hand = parse_cards("2C 3C 4C 6C 7C 2D JK 5H 5S 5D 9H 9H TH")
    before = enumerate_melds(hand, rules)
    for meld in before:
        meld.candidate_indices()
    tables = (enumeration._sub_multisets,)
    assert all(table.cache_info().currsize for table in tables)
    assert melds._CANDIDATE_TABLES[rules]
    plans = enumeration._PLANS.values()

    def kept_by_plans() -> tuple[int, int, int]:
        """The runs of ranks of rows, the sets of naturals and the choices of substitutes
        the plans keep."""
        return (
            sum(len(t) for plan in plans for by_suit in plan.row_windows for t in by_suit)
            + sum(
                slot is not None
                for plan in plans
                for by_suit in plan.bit_windows
                for rows in by_suit
                for slot in rows
            ),
            sum(len(t) for plan in plans for t in plan.naturals),
            sum(len(plan.choices) for plan in plans),
        )

    assert all(kept_by_plans())
    enumeration.clear_tables()
    assert [table.cache_info().currsize for table in tables] == [0] * len(tables)
    assert not melds._CANDIDATE_TABLES
    assert melds._RECENT_CANDIDATES == [(None, None)]
    assert kept_by_plans() == (0, 0, 0)
    assert all(not plan.cache and not plan.lays and not plan.substitutes for plan in plans)
    assert all(not plan.by_code for plan in plans)
    if enumeration._INDEXED_READS:  # (pure Python finds the ranks without this table)
        assert all(ranks is None for ranks in enumeration._MASKED)
    # The rows known to hold no sequence are back to those of fewer than two ranks (B3.3).
    few = {bytes(13)} | {bytes(1 if r == k else 0 for r in range(13)) for k in range(13)}
    assert all(rows == few for plan in plans for by_suit in plan.no_runs for rows in by_suit)
    assert [str(meld) for meld in enumerate_melds(hand, rules)] == [str(m) for m in before]


@pytest.mark.parametrize("name", ["biriba", "buraco", "biriba-kozi", "biriba-sequences"])
def test_B3_1_a_part_knows_the_length_of_its_longest_meld(name: str) -> None:
    """Each cached part of a hand's melds (per rank, per suit) records the number of cards
    of its longest meld, which the move generator compares with the cards the hand may
    spare without a look-ahead (B4.5): the figure the enumerators give is the one its
    melds have, for every part random hands meet."""
    from biriba import enumeration

    rules = RuleSet.named(name)
    rng = random.Random(5)
    pack = list(full_pack(rules))
    checked = 0
    for _ in range(300):
        hand = rng.sample(pack, rng.randrange(3, 20))
        counts = counts_of(hand)
        for part in enumeration.parts_and_substitutes(counts, rules)[0]:
            assert part.longest == max(len(lay.meld.cards) for lay in part.lays)
            checked += 1
    assert checked > 100


def test_B1_2_melds_from_counts_checks_the_counts() -> None:
    from biriba.enumeration import melds_from_counts, melds_from_counts_unchecked

    hand = counts_of(parse_cards("3H 4H 5H 5C 5D JK"))
    assert melds_from_counts(hand, BIRIBA) == melds_from_counts_unchecked(hand, BIRIBA)
    assert melds_from_counts(list(hand), BIRIBA) == melds_from_counts(hand, BIRIBA)

    class Array:  # sized and iterable, not a Sequence (as a NumPy array)
        def __len__(self) -> int:
            return 53

        def __iter__(self) -> Iterator[int]:
            return iter(hand)

    assert melds_from_counts(Array(), BIRIBA) == melds_from_counts(hand, BIRIBA)  # type: ignore[arg-type]
    for counts, error, said in (
        ([1, 2], BiribaError, "counts are 53"),  # was an IndexError
        (b"x" * 100_000, BiribaError, "got 100,000"),
        ([-1] * 53, BiribaError, "at least 0"),  # was a ValueError from bytes()
        ([10**5000] + [0] * 52, BiribaError, "B1.2: the hand holds an integer of 5001 digits"),
        ([3] + [0] * 52, BiribaError, "B1.2"),
        ("x" * 53, TypeError, "a sequence of 53 ints"),
        ([1.0] * 53, TypeError, "must be an int|int object expected"),  # (compiled: its own)
    ):
        with pytest.raises(error, match=said):
            melds_from_counts(counts, BIRIBA)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="RuleSet"):
        melds_from_counts(hand, None)  # type: ignore[arg-type]
