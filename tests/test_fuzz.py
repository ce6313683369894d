"""Fuzzing every public entry point that reads input from elsewhere.

Structured mutations of valid positions, matches, records and rule sets (a part replaced by
a strange value, a key dropped, a list cut or doubled), and random text for every parser.
Whatever comes in, the library raises only its own errors (or TypeError), quotes at most a
short excerpt of the input, and ``check_move`` raises nothing at all. The quick profile
runs a few hundred examples; ``.ci/run`` runs four times as many (tests/conftest.py).
"""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from biriba import (
    BIRIBA,
    BURACO,
    BiribaError,
    Card,
    Deal,
    Match,
    Meld,
    Move,
    RuleSet,
    Verdict,
    check_move,
    parse_cards,
    records,
)
from biriba.bots import RandomBot, play_deal
from biriba.limits import EXCERPT

from .helpers import examples, played

#: A run of characters no valid input holds, long enough that a message quoting all of it
#: would show (the excerpt is at most ``EXCERPT`` characters).
MARKER = "Zq" * 150


def finished(seed: int) -> Deal:
    return play_deal(Deal.new(seed=seed), [RandomBot(seed + s) for s in range(4)])


DEALS = [
    played(1, 0, dealer=0),
    played(2, 1, dealer=0),
    played(3, 9, dealer=0),
    played(4, 60, dealer=0),
    finished(5),
]
DEALS += [played(6, 0, BURACO, dealer=0), played(7, 25, BURACO, dealer=0)]
POSITIONS = [d.to_dict() for d in DEALS]
MATCH = Match.new(seed=3)
play_deal(MATCH.deal, [RandomBot(s) for s in range(4)])
MATCH.next_deal()
MATCHES = [Match.new(seed=1).to_dict(), MATCH.to_dict()]
RECORDS = [records.record_deal(d).to_dict() for d in DEALS[:5]]
RECORDS.append(records.record_match(MATCH).to_dict())
RULE_SETS = [BIRIBA.to_dict(), BURACO.to_dict()]

strange_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 120),
    st.sampled_from([2**64, -1, 0.5, float("nan"), float("inf")]),
    st.builds(lambda sign: sign * 10**5000, st.sampled_from([1, -1])),  # no str() for it
    st.text(max_size=8),
    st.sampled_from(["7H", "JK", "²", "٣", "add ² 5H", "draw", "biriba", "", " ", MARKER]),
    st.just(MARKER * 20),
)
strange_values = st.recursive(
    strange_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=8,
) | st.builds(lambda n: [[[[["7H"]]]]] * n, st.integers(0, 3))


@st.composite
def mutations(draw: st.DrawFn, bases: list[dict[str, Any]]) -> Any:
    """A deep copy of one of ``bases`` with one to three parts changed."""
    data: Any = copy.deepcopy(draw(st.sampled_from(bases)))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.lists(st.integers(0, 10_000), min_size=1, max_size=5))
        kind = draw(st.sampled_from(["replace", "replace", "drop", "cut", "double"]))
        data = mutate(data, path, kind, draw(strange_values))
    return data


def mutate(data: Any, path: list[int], kind: str, value: Any) -> Any:
    """``data`` with the part at ``path`` changed by ``kind``."""
    if isinstance(data, dict) and data and len(path) > 1:
        key = sorted(data, key=str)[path[0] % len(data)]
        data[key] = mutate(data[key], path[1:], kind, value)
        return data
    if isinstance(data, list) and data and len(path) > 1:
        index = path[0] % len(data)
        data[index] = mutate(data[index], path[1:], kind, value)
        return data
    if kind == "drop" and isinstance(data, dict) and data:
        del data[sorted(data, key=str)[path[0] % len(data)]]
        return data
    if kind == "cut" and isinstance(data, list):
        return data[: path[0] % (len(data) + 1)]
    if kind == "double" and isinstance(data, list):
        return data + data
    if isinstance(data, dict) and data:
        data[sorted(data, key=str)[path[0] % len(data)]] = value
        return data
    return value


def as_json(data: Any) -> str | None:
    """``data`` as JSON text, or ``None`` where Python cannot write it (an integer of more
    than 4,300 digits)."""
    try:
        return json.dumps(data)
    except ValueError:
        return None


def short(error: BaseException) -> None:
    """The message quotes at most a short excerpt of the marker."""
    assert MARKER[: EXCERPT + 1] not in str(error), str(error)[:300]


def only_library_errors(call: Any, *args: Any) -> Any:
    """``call(*args)``, letting through only a library error or a TypeError, each with a
    short message."""
    try:
        return call(*args)
    except (BiribaError, TypeError) as error:
        short(error)
        return None


@settings(max_examples=examples(150))
@given(mutations(POSITIONS))
def test_positions(data: Any) -> None:
    deal = only_library_errors(Deal.from_dict, data)
    if deal is not None:  # whatever was accepted round-trips
        assert Deal.from_dict(deal.to_dict()).to_dict() == deal.to_dict()
    verdict = check_move(data, "draw") if isinstance(data, dict) else None
    assert verdict is None or isinstance(verdict, Verdict)
    if verdict is not None and verdict.error == "position":
        assert deal is None
    text = as_json(data)
    if text is not None:
        assert isinstance(check_move(text, "discard 7H"), Verdict)


@settings(max_examples=examples(60))
@given(mutations(MATCHES))
def test_matches(data: Any) -> None:
    match = only_library_errors(Match.from_dict, data)
    if match is not None:
        assert Match.from_dict(match.to_dict()).to_dict() == match.to_dict()


@settings(max_examples=examples(60))
@given(mutations(RECORDS))
def test_records(data: Any) -> None:
    record = only_library_errors(records.from_dict, data)
    if record is not None:
        only_library_errors(records.replay, record)
    text = as_json(data)
    if text is not None:
        only_library_errors(records.loads, text)


@settings(max_examples=examples(60))
@given(mutations(RULE_SETS))
def test_rule_sets(data: Any) -> None:
    rules = only_library_errors(RuleSet.from_dict, data)
    if rules is not None:
        assert RuleSet.from_dict(rules.to_dict()) == rules
        only_library_errors(Deal.new, rules)


texts = st.one_of(
    st.text(max_size=40),
    st.text(alphabet="adrwmelscptkozi ->0123456789²①٣AKQJTHDSC*x♥10JK", max_size=40),
    st.builds(lambda a, b: a + MARKER + b, st.text(max_size=10), st.text(max_size=10)),
    st.builds(lambda n: "meld " + "7H " * n, st.integers(0, 400)),
)
DEAL = played(3, 9, dealer=0)
POSITION_TEXT = json.dumps(DEAL.to_dict())


@settings(max_examples=examples(200))
@given(texts)
def test_text_parsers(text: str) -> None:
    for parse in (Card.parse, parse_cards, Meld.parse, Move.parse, RuleSet.named):
        only_library_errors(parse, text)
    before = DEAL.to_dict()
    for check in (DEAL.is_legal, DEAL.verify):
        only_library_errors(check, text)
    assert DEAL.to_dict() == before
    verdict = check_move(POSITION_TEXT, text)
    if verdict.move is not None:  # read as a move: the verdict is the deal's
        assert verdict.legal == DEAL.is_legal(verdict.move)
    assert MARKER[: EXCERPT + 1] not in verdict.reason
    only_library_errors(records.loads, text)
    assert isinstance(check_move(text, "draw"), Verdict)
