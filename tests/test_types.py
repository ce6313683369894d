"""A wrong type gets a TypeError (or a BiribaError), never an error from inside."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from biriba import (
    BIRIBA,
    AddToMeld,
    BiribaError,
    Card,
    Deal,
    Discard,
    LayMeld,
    Match,
    Meld,
    Move,
    RuleSet,
    enumerate_melds,
    format_cards,
    full_pack,
    parse_cards,
    records,
    score_team,
    team_of,
)
from biriba.simulate import simulate

DEAL = Deal.new(seed=1)


def bad(value: object) -> Any:
    """A value of the wrong type, passed on as if it were right."""
    return value


MELD = Meld.parse("3H 4H 5H")

CALLS: list[tuple[str, Callable[[], Any]]] = [
    ("Card.parse", lambda: Card.parse(bad(7))),
    ("Card.from_index", lambda: Card.from_index(bad("3"))),
    ("Card()", lambda: Card(bad("7"), bad("H"))),
    ("parse_cards", lambda: parse_cards(bad(["7H"]))),
    ("format_cards", lambda: format_cards(bad("7H"))),
    ("full_pack", lambda: full_pack(bad("biriba"))),
    ("RuleSet.named", lambda: RuleSet.named(bad(3))),
    ("RuleSet.evolve", lambda: BIRIBA.evolve(players=bad("4"))),
    ("Meld.parse", lambda: Meld.parse(bad(["3H"]))),
    ("Meld.parse rules", lambda: Meld.parse("3H 4H 5H", bad("biriba"))),
    ("Meld.from_cards", lambda: Meld.from_cards(bad([3, 4, 5]))),
    ("Meld.extensions", lambda: MELD.extensions(bad("6H"))),
    ("enumerate_melds", lambda: enumerate_melds(bad("7H 8H 9H"))),
    ("Move.parse", lambda: Move.parse(bad(None))),
    ("Move.parse rules", lambda: Move.parse("draw", rules=bad("biriba"))),
    ("LayMeld", lambda: LayMeld(bad("3H 4H 5H"))),
    ("AddToMeld index", lambda: AddToMeld(bad("0"), Card.parse("6H"))),
    ("AddToMeld card", lambda: AddToMeld(0, bad("6H"))),
    ("Discard", lambda: Discard(bad("7H"))),
    ("Deal.new rules", lambda: Deal.new(bad("biriba"))),
    ("Deal.new seed", lambda: Deal.new(seed=bad([1]))),
    ("Deal.new dealer", lambda: Deal.new(dealer=bad("0"))),
    ("deal.play", lambda: DEAL.copy().play(bad(None))),
    ("deal.is_legal", lambda: DEAL.is_legal(bad(3.5))),
    ("deal.verify", lambda: DEAL.verify(bad(b"draw"))),
    ("deal.hand", lambda: DEAL.hand(bad(None))),
    ("deal.melds", lambda: DEAL.melds(bad("0"))),
    ("deal.reserve_received", lambda: DEAL.reserve_received(bad(1.0))),
    ("deal.view", lambda: DEAL.view(bad("0"))),
    ("Deal.from_dict", lambda: Deal.from_dict(bad([]))),
    ("team_of", lambda: team_of(bad("1"))),
    ("view.sample", lambda: DEAL.view(1).sample(bad(42))),
    ("Match.new", lambda: Match.new(seed=bad(2.5))),
    ("Match.from_dict", lambda: Match.from_dict(bad("{}"))),
    ("records.loads", lambda: records.loads(bad(5))),
    ("records.replay", lambda: records.replay(bad("{}"))),
    ("records.record_deal", lambda: records.record_deal(bad(None))),
    ("score_team", lambda: score_team([MELD], bad(["7H"]), reserve_received=True)),
    ("simulate", lambda: simulate(bad([3, 4]), deals=1, workers=1)),
]


@pytest.mark.parametrize("call", [c for _, c in CALLS], ids=[name for name, _ in CALLS])
def test_wrong_types_raise_type_or_library_errors(call: Callable[[], Any]) -> None:
    with pytest.raises((TypeError, BiribaError)):
        call()
