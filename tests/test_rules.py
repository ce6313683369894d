"""Rule sets: presets, lookup by name, variants and their checks."""

from __future__ import annotations

import random
import re
import typing
from collections.abc import Callable

import attrs
import pytest

from biriba import (
    BIRIBA,
    BURACO,
    BiribaError,
    Deal,
    InvalidMeldError,
    Match,
    Meld,
    RuleSet,
    parse_cards,
)
from biriba.rules import RuleSetChanges


def test_presets_by_name() -> None:
    names = RuleSet.preset_names()
    assert names[0] == "biriba" and "buraco" in names
    for name in names:
        assert RuleSet.named(name).name == name
    assert RuleSet.named("BIRIBA ") is BIRIBA and BIRIBA.name == "biriba"
    assert RuleSet.named("buraco") is BURACO
    assert RuleSet.named("kozi") is RuleSet.named("biriba-kozi")
    with pytest.raises(BiribaError, match="known: biriba, "):
        RuleSet.named("canasta")


def test_B1_1_and_B1_2_in_the_rule_set() -> None:
    assert BIRIBA.pack_size == 108 and BURACO.pack_size == 106  # B1.2, Z1.2
    assert BIRIBA.players_per_team == 2
    assert BIRIBA.team_of(2) == 0 and BIRIBA.team_of(3) == 1


def test_variants_are_checked_when_built() -> None:
    three = BIRIBA.evolve(name="three", players=3, teams=3, reserve_count=3)  # V6
    assert three.players_per_team == 1
    with pytest.raises(BiribaError, match=r"equal teams \(B1\.1"):
        BIRIBA.evolve(name="odd", players=3)
    with pytest.raises(BiribaError, match=r"cannot deal \d+ \(B2\.3\)"):
        BIRIBA.evolve(name="big", hand_size=30)
    with pytest.raises(BiribaError, match=r"B3\.2"):
        BIRIBA.evolve(name="no-ace", ace_low=False, ace_high=False)
    with pytest.raises(TypeError):
        BIRIBA.evolve(name="bad", players="4")  # type: ignore[arg-type]
    assert hash(BIRIBA) == hash(BIRIBA.evolve())


@pytest.mark.parametrize("rules", [BIRIBA, BURACO])
def test_B1_1_a_rule_set_has_two_teams_or_more(rules: RuleSet) -> None:
    """B1.1, Z1.1, V6: players play in two partnerships, or alone or in teams (two to six
    players): one team alone would have nobody to play against, and is refused."""
    for players in (2, 4):
        with pytest.raises(BiribaError, match=r"two teams or more") as info:
            rules.evolve(players=players, teams=1)
        assert info.value.rule == ("Z1.1" if rules.family == "buraco" else "B1.1")
    assert rules.evolve(name="two-alone", players=2, teams=2).teams == 2


def test_B2_3_a_rule_set_leaves_a_stock_to_draw_from() -> None:
    """B2.3 with B4.4 and Z4.3: a pack that the hands, the packets and the up-card use up
    leaves the first player nothing to draw, and under Buraco a morto that should already
    be the stock: refused when the rule set is built (with V7, a stock must hold more
    than the cards at which it ends). One card left is enough."""
    for rules, changes in (
        (BURACO, {"decks": 1, "reserve_size": 5}),  # 54 cards: 44 dealt, 10 in mortos
        (BIRIBA, {"hand_size": 21, "reserve_size": 12, "up_card": False}),  # 84 + 24
        (BIRIBA, {"hand_size": 21, "stock_end_remaining": 1}),  # 1 left, ending at 1
    ):
        with pytest.raises(BiribaError, match=r"leaves no stock to draw from") as info:
            rules.evolve(**changes)  # type: ignore[arg-type]
        assert info.value.rule == "B2.3"
    # 107 of 108 dealt (84 in hands, 22 in reserves, the up-card): one card to draw.
    deal = Deal.new(BIRIBA.evolve(name="one-left", hand_size=21), seed=1)
    assert len(deal.stock) == 1
    deal.play("draw")
    assert len(deal.stock) == 0


def test_B3_2_a_sequence_has_at_most_13_cards_under_every_rule_set() -> None:
    """B3.2: never two aces in one sequence, so at most 13 cards: a rule set asking for
    longer sequences is refused when built, and A to K then A again is no meld."""
    with pytest.raises(BiribaError, match=r"max_sequence must be at most 13") as info:
        BIRIBA.evolve(name="long", max_sequence=14)
    assert info.value.rule == "B3.2"
    with pytest.raises(InvalidMeldError, match=r"B3\.2"):
        Meld.parse("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", BURACO)
    assert len(Meld.parse("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH")) == 13


@pytest.mark.parametrize(
    ("field", "value"), [("decks", 17), ("decks", 10**7), ("jokers", 65), ("jokers", 10**9)]
)
def test_B1_2_a_pack_has_at_most_16_decks_and_64_jokers(field: str, value: int) -> None:
    """A rule set read from elsewhere cannot ask for a pack of millions of cards: built,
    evolved or read as data, it is refused at once, citing B1.2."""
    data = BIRIBA.evolve(name="big").to_dict()
    data[field] = value
    with pytest.raises(BiribaError, match=r"at most \d+, got .*\(B1\.2") as built:
        RuleSet.from_dict(data)
    assert built.value.rule == "B1.2"
    with pytest.raises(BiribaError) as evolved:
        BIRIBA.evolve(name="big", **{field: value})  # type: ignore[arg-type]
    assert evolved.value.rule == "B1.2"


@pytest.mark.parametrize(
    ("field", "value", "biriba_rule", "buraco_rule"),
    [
        ("players", 0, "B1.1", "Z1.1"),
        ("teams", 0, "B1.1", "Z1.1"),
        ("jokers", -1, "B1.2", "Z1.2"),
        ("decks", 99, "B1.2", "Z1.2"),
        ("hand_size", 0, "B2.3", "Z2.1"),
        ("keep_after_melding", 0, "B4.3", "V7"),
        ("pass_limit", 0, "B4.4", "B4.4"),
        ("max_substitutes", -1, "B3.3", "Z3.4"),
        ("stock_end_remaining", -1, "V7", "V7"),
        ("entry_minimum", -5, "V3", "V3"),
        ("bonus_suit_bonus", [200], "V1", "V1"),
        ("card_values", [0] * 13, "B8.1", "Z1.3"),
        ("target", 0, "B9.2", "Z5.2"),
    ],
)
def test_a_bad_value_of_a_rule_set_cites_the_rule_of_its_field(
    field: str, value: object, biriba_rule: str, buraco_rule: str
) -> None:
    """Built in code or read as data, a value no rule allows is refused with the rule
    its field is about in the rule set's game (part V for an option only a variant
    has), as ``err.rule`` and in the message."""
    for rules, rule in ((BIRIBA, biriba_rule), (BURACO, buraco_rule)):
        data = rules.evolve(name="changed").to_dict()
        data[field] = value
        with pytest.raises(BiribaError) as read:
            RuleSet.from_dict(data)
        assert read.value.rule == rule, str(read.value)
        assert f"({rule}" in str(read.value)
        given = tuple(value) if isinstance(value, list) else value
        with pytest.raises(BiribaError) as built:
            rules.evolve(name="changed", **{field: given})  # type: ignore[arg-type]
        assert built.value.rule == rule, str(built.value)


@pytest.mark.parametrize("value", [65, 10**9])
def test_B4_4_passes_in_a_row_are_bounded(value: int) -> None:
    """A rule set read from elsewhere cannot let a deal whose stock is gone go round
    almost for ever: more than 64 passes in a row is refused, citing B4.4."""
    data = BIRIBA.evolve(name="patient").to_dict()
    data["pass_limit"] = value
    with pytest.raises(BiribaError, match=r"pass_limit must be at most 64, got .*\(B4\.4") as read:
        RuleSet.from_dict(data)
    assert read.value.rule == "B4.4"
    with pytest.raises(BiribaError) as evolved:
        BIRIBA.evolve(pass_limit=value)
    assert evolved.value.rule == "B4.4"
    data["pass_limit"] = 10**12  # past any number a rule set holds
    with pytest.raises(BiribaError, match=r"pass_limit must be a whole number, at most 1000000000"):
        RuleSet.from_dict(data)
    patient = BIRIBA.evolve(name="patient", pass_limit=64)
    assert RuleSet.from_dict(patient.to_dict()) == patient


def test_B1_2_the_largest_pack_deals() -> None:
    largest = BIRIBA.evolve(name="largest", decks=16, jokers=64)
    assert largest.pack_size == 16 * 52 + 64
    assert RuleSet.from_dict(largest.to_dict()) == largest
    assert Deal.new(largest, seed=3).legal_moves()


@pytest.mark.parametrize(
    "changes",
    [
        {"keep_after_melding": 13},  # 11 dealt and one drawn: 12 cards
        {"keep_after_melding": 10**9},
        {"reserve_size": 0},  # an empty packet and one card drawn cannot keep 2
        {"reserve_size": 5, "keep_after_melding": 7},
    ],
)
def test_B4_3_a_rule_set_that_could_never_discard_is_refused(changes: dict[str, int]) -> None:
    """B4.3 with B4.5: a rule set under which a hand could never discard (more cards kept
    after melding than a turn can begin with) would stop its deals with no legal move; it
    is refused when built and when read."""
    with pytest.raises(BiribaError) as built:
        BIRIBA.evolve(name="stuck", **changes)  # type: ignore[arg-type]
    assert built.value.rule == "B4.3"
    data = {**BIRIBA.evolve(name="stuck").to_dict(), **changes}
    with pytest.raises(BiribaError):
        RuleSet.from_dict(data)


def test_B4_3_the_most_cards_kept_still_lets_every_deal_go_on() -> None:
    """Twelve cards kept (11 dealt and one drawn): every turn can only discard, and random
    deals run to their end with a legal move at every step."""
    rules = BIRIBA.evolve(name="keep-12", keep_after_melding=12)
    for seed in range(3):
        deal = Deal.new(rules, seed=seed)
        rng = random.Random(seed)
        while not deal.is_over:
            moves = deal.legal_moves()
            assert moves
            deal.play(rng.choice(moves))


def test_B8_1_a_hands_value_is_the_sum_of_its_cards_values() -> None:
    from biriba import parse_cards
    from biriba.cards import counts_of

    hand = counts_of(parse_cards("JK AS 2H 8C 3D 3D"))
    assert BIRIBA.counts_value(hand) == 20 + 15 + 10 + 10 + 5 + 5  # B8.1
    assert BURACO.counts_value(hand) == 20 + 15 + 10 + 10 + 5 + 5  # Z1.3
    cheap = BIRIBA.evolve(joker_value=50, card_values=(0, 1, *(2,) * 12))
    assert cheap.counts_value(hand) == 50 + 1 + 2 + 2 + 2 + 2
    assert BIRIBA.counts_value(counts_of(())) == 0
    cards = parse_cards("JK AS 2H 8C 3D 3D")
    assert BIRIBA.cards_value(cards) == 20 + 15 + 10 + 10 + 5 + 5
    assert cheap.cards_value(cards) == cheap.counts_value(hand) == 59
    assert cheap.cards_value(iter(cards)) == 59  # any iterable, read once
    assert cheap.cards_value(()) == 0


@pytest.mark.parametrize("size", [1, 2])
def test_B3_1_a_meld_has_at_least_three_cards_in_every_rule_set(size: int) -> None:
    """min_meld below 3 once let the engine list ``meld 2H 2D``, which the meld reader
    refuses (B3.5): a rule set may ask for longer melds, never shorter."""
    with pytest.raises(BiribaError, match=r"min_meld must be at least 3.*\(B3\.1") as built:
        BIRIBA.evolve(name="short", min_meld=size)
    assert built.value.rule == "B3.1"
    data = BIRIBA.evolve(name="short").to_dict()
    data["min_meld"] = size
    with pytest.raises(BiribaError) as read:
        RuleSet.from_dict(data)
    assert read.value.rule == "B3.1"
    assert BIRIBA.evolve(name="long", min_meld=4).min_meld == 4


@pytest.mark.parametrize(
    ("changes", "rule"),
    [
        ({"max_new_meld": 2}, "Z3.2"),  # below min_meld: no new meld could be laid
        ({"max_new_meld": -5}, "Z3.2"),
        ({"max_sequence": 2}, "B3.1"),  # no sequence could be laid
        ({"min_meld": 14}, "B3.1"),
        ({"twos_wild": False, "twos_always_wild": True}, "V7"),
        ({"reserve_penalty": -100}, "B8.6"),  # a reserve part above 0
        ({"unactivated_reserve_penalty": -1}, "B8.7"),
    ],
)
def test_a_rule_set_that_contradicts_itself_or_the_scores_is_refused(
    changes: dict[str, object], rule: str
) -> None:
    """Options that leave no meld to lay, a two substitute everywhere without twos being
    substitutes, or reserve penalties that would add points (a score's reserve part is at
    most 0) are refused when built, and so when read (they were accepted and played).
    Card values may be negative (a card worth less than nothing, V3's tests use one)."""
    with pytest.raises(BiribaError) as info:
        BIRIBA.evolve(name="odd", **changes)  # type: ignore[arg-type]
    assert info.value.rule == rule, str(info.value)
    assert rule in re.findall(r"[BZV]\d+(?:\.\d+)?", str(info.value))  # cited, whole
    data = {**BIRIBA.evolve(name="odd").to_dict(), **changes}
    with pytest.raises(BiribaError):
        RuleSet.from_dict(data)
    # The limits themselves are allowed.
    assert BIRIBA.evolve(name="ok", max_new_meld=3, max_sequence=3, reserve_penalty=0)


def test_the_typed_changes_of_evolve_are_every_field_with_its_type() -> None:
    """RuleSetChanges, what type checkers read of evolve's keywords, names every field
    a rule set is built with, with the field's own type, and nothing else."""
    fields = {f.name for f in attrs.fields(RuleSet) if f.init}
    assert set(RuleSetChanges.__annotations__) == fields
    assert not RuleSetChanges.__required_keys__
    changes = typing.get_type_hints(RuleSetChanges)
    built = typing.get_type_hints(RuleSet)
    assert {name: changes[name] for name in fields} == {name: built[name] for name in fields}
    # Given as typed changes, they build the rule set.
    typed: RuleSetChanges = {"name": "short", "target": 3000, "groups": False}
    assert BIRIBA.evolve(**typed) == BIRIBA.evolve(name="short", target=3000, groups=False)


def test_evolve_names_a_field_that_does_not_exist() -> None:
    with pytest.raises(TypeError, match=r"RuleSet\.evolve: a rule set has no field 'kozi'"):
        BIRIBA.evolve(kozi=True)  # type: ignore[call-arg]
    assert BIRIBA.evolve(groups=False).groups is False


@pytest.mark.parametrize(
    "call",
    [
        lambda: Deal.new("buraco"),  # type: ignore[arg-type]
        lambda: Match.new("buraco"),  # type: ignore[arg-type]
        lambda: Meld.from_cards(parse_cards("3H 4H 5H"), "buraco"),  # type: ignore[arg-type]
    ],
)
def test_a_rule_set_given_by_its_name_says_how_to_find_it(call: Callable[[], object]) -> None:
    with pytest.raises(
        TypeError, match=r"got str \(a preset by its name: RuleSet\.named\('buraco'\)\)"
    ):
        call()
