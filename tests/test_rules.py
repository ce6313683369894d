"""Rule sets: presets, lookup by name, variants and their checks."""

from __future__ import annotations

import random

import pytest

from biriba import BIRIBA, BURACO, BiribaError, Deal, RuleSet


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
        BIRIBA.evolve(name="bad", players="4")
    assert hash(BIRIBA) == hash(BIRIBA.evolve())


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
        BIRIBA.evolve(name="big", **{field: value})
    assert evolved.value.rule == "B1.2"


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
        BIRIBA.evolve(name="stuck", **changes)
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
