"""Rule sets: presets, lookup by name, variants and their checks."""

from __future__ import annotations

import pytest

from biriba import BIRIBA, BURACO, BiribaError, RuleSet


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
