"""Bad input anywhere gets a BiribaError (or a TypeError) and changes nothing."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from biriba import BiribaError, Deal, Match, records

from .helpers import examples

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 120) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=8,
)

BASE = Deal.new(seed=5)
BASE_POSITION = BASE.to_dict()


def mutate(data: Any, path: list[int], value: Any) -> Any:
    """Replace one part of ``data``, chosen by ``path``, with ``value``."""
    if not path or not isinstance(data, dict | list) or not data:
        return value
    if isinstance(data, dict):
        keys = sorted(data)
        key = keys[path[0] % len(keys)]
        data[key] = mutate(data[key], path[1:], value)
    else:
        index = path[0] % len(data)
        data[index] = mutate(data[index], path[1:], value)
    return data


@settings(max_examples=examples(300))
@given(st.lists(st.integers(0, 200), min_size=1, max_size=4), json_values)
def test_from_dict_on_mutated_positions_raises_only_library_errors(
    path: list[int], value: Any
) -> None:
    data = mutate(copy.deepcopy(BASE_POSITION), path, value)
    try:
        deal = Deal.from_dict(data)
    except (BiribaError, TypeError):
        return
    assert deal.to_dict()["rules"] == "biriba"


@settings(max_examples=examples(200))
@given(st.lists(st.integers(0, 200), min_size=1, max_size=4), json_values)
def test_match_from_dict_on_mutated_data_raises_only_library_errors(
    path: list[int], value: Any
) -> None:
    data = mutate(Match.new(seed=1).to_dict(), path, value)
    try:
        match = Match.from_dict(data)
    except (BiribaError, TypeError):
        return
    assert match.deal.rules.name == "biriba"


@settings(max_examples=examples(300))
@given(st.text(alphabet="adrwmelscpt ->0123456789AKQJTHDSC*x", max_size=30))
def test_play_of_random_text_raises_only_library_errors_and_changes_nothing(text: str) -> None:
    deal = Deal.new(seed=5)
    deal.play("draw")
    before = deal.to_dict()
    try:
        deal.play(text)
    except BiribaError:
        assert deal.to_dict() == before
        return
    assert len(deal.history) == 2  # the text was a legal move, and it was played


RECORD = records.dumps(records.record_deal(BASE))


@settings(max_examples=examples(200))
@given(st.lists(st.integers(0, 200), min_size=1, max_size=4), json_values)
def test_mutated_records_raise_only_record_errors(path: list[int], value: Any) -> None:
    data = mutate(json.loads(RECORD), path, value)
    try:
        replayed = records.replay(records.loads(json.dumps(data)))
    except BiribaError:
        return
    assert isinstance(replayed, Deal | Match)
