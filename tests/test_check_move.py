"""biriba.check_move: one call, a verdict for anything, never an exception for content."""

from __future__ import annotations

import json

import pytest

from biriba import (
    BIRIBA,
    BURACO,
    Deal,
    DrawStock,
    LayMeld,
    Meld,
    Move,
    RuleSet,
    Verdict,
    check_move,
)
from biriba.limits import MAX_JSON

from .helpers import position

#: Seat 0 to play, holding 9D 5H 7C 6D 2C, its team's meld 3D 4D 5D on the table.
DATA = position(hands={0: "9D 5H 7C 6D 2C"}, melds=(["3D 4D 5D"], []))


def test_a_legal_move() -> None:
    verdict = check_move(DATA, "discard 9d")
    assert verdict == Verdict(True, "discard 9D", None, verdict.reason, None)
    assert verdict.to_dict() == {
        "legal": True,
        "move": "discard 9D",
        "rule": None,
        "reason": "discard 9D is legal for seat 0",
        "error": None,
    }


def test_json_text_and_bytes_and_a_move_object() -> None:
    text = json.dumps(DATA)
    assert check_move(text, "add 0 6D").legal
    assert check_move(text.encode(), "add 0 6D").legal
    assert check_move(DATA, LayMeld(Meld.parse("5H 6H 7H"))).to_dict()["error"] == "illegal"


def test_an_illegal_move_names_its_rule() -> None:
    verdict = check_move(DATA, "discard KS")
    assert (verdict.legal, verdict.move, verdict.rule, verdict.error) == (
        False,
        "discard KS",
        "B4.1",
        "illegal",
    )
    assert "B4.1" in verdict.reason


def test_cards_that_form_no_meld_are_an_illegal_move() -> None:
    verdict = check_move(DATA, "meld 5H 7C 9D")
    assert (verdict.legal, verdict.move, verdict.error) == (False, None, "illegal")
    assert verdict.rule is not None and verdict.rule.startswith("B3")


@pytest.mark.parametrize(
    ("rules", "move", "text", "rule"),
    [
        # Two substitutes: a Buraco meld (Z3.4), none under Biriba (B3.3).
        (BIRIBA, "meld 3H 4H JK 2C", "meld 3H 4H JK 2C", "B3.3"),
        # A group: none where sequences only are allowed (V2).
        (RuleSet.named("biriba-sequences"), "meld 7H 7S 7C", "meld 7C 7H 7S", "V2"),
    ],
)
def test_a_meld_the_rules_refuse_is_still_read_as_a_move(
    rules: RuleSet, move: str, text: str, rule: str
) -> None:
    """verdict.move is the canonical text of any text that reads as a move (Move.parse
    reads one without a position), legal or not; None only for a text that is no move."""
    verdict = check_move(Deal.new(rules, seed=7).to_dict(), move)
    assert (verdict.legal, verdict.move, verdict.rule, verdict.error) == (
        False,
        text,
        rule,
        "illegal",
    )
    assert verdict.move == str(Move.parse(move))


def test_an_ambiguous_addition_lists_its_outcomes() -> None:
    data = position(hands={0: "2D 9H 7C"}, melds=(["3D 4D 5D"], []))
    verdict = check_move(data, "add 0 2D")
    assert (verdict.legal, verdict.error, verdict.rule) == (False, "ambiguous", "B3.12")
    assert len(verdict.outcomes) == 2
    assert all(check_move(data, text).legal for text in verdict.outcomes)
    assert verdict.to_dict()["outcomes"] == list(verdict.outcomes)


@pytest.mark.parametrize("move", ["fold", "", "add ² 5H", "discard", "meld " + "7H " * 10**5])
def test_text_that_is_no_move(move: str) -> None:
    verdict = check_move(DATA, move)
    assert (verdict.legal, verdict.move, verdict.rule, verdict.error) == (
        False,
        None,
        None,
        "notation",
    )
    assert len(verdict.reason) < 300


@pytest.mark.parametrize(
    ("bad", "rule"),
    [
        ("{", None),
        ("[1, 2]", None),
        ("null", None),
        ('"position"', None),
        ("[" * 5000 + "]" * 5000, None),
        (b"\xff\xfe", None),
        ({}, None),
        ({**DATA, "dealer": 9}, "B1.1"),
        ({**DATA, "stock": DATA["stock"][1:]}, "B1.2"),
        (" " * (MAX_JSON + 1), None),
    ],
)
def test_a_bad_position(bad: object, rule: str | None) -> None:
    # The move is read all the same (a move is read without a position, API.md).
    verdict = check_move(bad, "DRAW")  # type: ignore[arg-type]
    assert (verdict.legal, verdict.move, verdict.rule, verdict.error) == (
        False,
        "draw",
        rule,
        "position",
    )
    assert len(verdict.reason) < 300


@pytest.mark.parametrize(
    ("move", "text"),
    [
        (DrawStock(), "draw"),
        ("discard 9h", "discard 9H"),
        ("meld 3h 4h 5h", "meld 3H 4H 5H"),
        ("add 0 5H -> 4H 5H 6H 7H JK", "add 0 5H -> 4H 5H 6H 7H JK"),
        ("meld JK JK 2C", "meld 2C JK JK"),  # read as leniently as Move.parse (Z3.7)
        ("fold", None),
        ("meld 3H 4H 9H", None),  # no meld under any rule set
    ],
)
def test_a_bad_position_still_reads_the_move(move: str | Move, text: str | None) -> None:
    verdict = check_move({}, move)
    assert (verdict.legal, verdict.move, verdict.error) == (False, text, "position")


def test_a_bad_position_reads_the_move_under_the_rules_given() -> None:
    # Under rules given, a meld is read under them; two substitutes are no Biriba meld
    # (B3.3), but the text is still a move, read as Move.parse reads it.
    assert check_move({}, "meld 3H JK 2C 6H", rules=BURACO).move == "meld 3H JK 2C 6H"
    assert check_move({}, "meld 3H JK 2C 6H", rules=BIRIBA).move == "meld 3H JK 2C 6H"
    assert check_move({}, "meld 3H 4H 9H", rules=BIRIBA).move is None


def test_wrong_argument_types_raise_type_error() -> None:
    with pytest.raises(TypeError):
        check_move(None, "draw")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        check_move(DATA, 5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        check_move(DATA, "draw", rules="biriba")  # type: ignore[arg-type]


def test_the_position_is_left_unchanged() -> None:
    before = json.dumps(DATA)
    check_move(DATA, "discard 9D")
    check_move(DATA, "discard KS")
    assert json.dumps(DATA) == before
