"""Bad input anywhere gets a BiribaError (or a TypeError) and changes nothing."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from biriba import (
    BiribaError,
    Deal,
    IllegalMoveError,
    InvalidPositionError,
    Match,
    Move,
    NotationError,
    Phase,
    RecordError,
    RuleSet,
    check_move,
    parse_cards,
    records,
)

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


def test_a_long_text_that_is_no_move_is_quoted_once() -> None:
    # API.md: a message quotes at most a short excerpt of the input. A text of one long
    # word was quoted twice, as the text and as its first word.
    for text in ("x" * 999, "y" * 90 + " meld", "z" * 30 + " 7H"):
        with pytest.raises(NotationError) as info:
            Move.parse(text)
        message = str(info.value)
        assert "it starts with" not in message and len(message) < 200
    with pytest.raises(NotationError, match=r"'fold 7H' is not a move: it starts with 'fold';"):
        Move.parse("fold 7H")
    # A text of spaces alone is quoted as it was sent, not as the empty text.
    with pytest.raises(NotationError, match=r"^'   ' is not a move: write draw,"):
        Move.parse("   ")


def test_a_long_move_text_is_quoted_once_by_play_and_by_replay() -> None:
    """API.md: a message quotes at most a short excerpt of the input. ``play`` quoted a
    long ``meld`` text and then its cards again (231 characters, two excerpts), and
    ``records.replay`` quoted the move once more on top (358 characters, three)."""
    text = "meld " + "7H " * 60
    deal = Deal.new(seed=7)
    deal.play("draw")
    before = deal.to_dict()
    with pytest.raises(IllegalMoveError) as info:
        deal.play(text)
    message = str(info.value)
    # One excerpt of about 80 characters holds at most 27 cards (and B1.2 names 7H).
    assert message.count("7H") <= 28 and len(message) < 200, message
    assert info.value.rule == "B1.2" and "the pack holds only 2 of 7H" in message
    assert message.startswith("illegal move 'meld ...': '7H 7H 7H")
    assert deal.to_dict() == before
    # An addition's cards that form no meld: the move is named by its words before them.
    with pytest.raises(IllegalMoveError) as info:
        deal.play("add 0 5H -> 4H 9H 6H")
    assert str(info.value).startswith("illegal move 'add 0 5H -> ...': '4H 9H 6H' is not a meld")
    assert check_move(before, "add 0 5H -> 4H 9H 6H").reason == str(info.value)
    data = records.record_deal(deal).to_dict()
    data["moves"].append(text)
    with pytest.raises(RecordError) as replayed:
        records.replay(records.from_dict(data))
    message = str(replayed.value)
    assert message.startswith("move 1 does not replay: illegal move 'meld ...': '7H 7H")
    assert message.count("7H") <= 28 and len(message) < 250, message
    assert replayed.value.index == 1 and replayed.value.rule == "B1.2"


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


# ------------------------------------------------ inputs found by fuzzing the public API


def test_a_rule_set_built_in_code_is_checked_as_one_read_as_data() -> None:
    """RuleSet(...) and evolve(...) refuse what RuleSet.from_dict refuses: an unknown
    choice, a pair of the wrong length, a number past 10**9 (which could not even be
    printed past 4,300 digits), and a list or a str where a tuple or an enum member
    belongs (a list made the rule set unhashable, a str was never the member)."""
    import pytest

    from biriba import BIRIBA, PileRestriction, RuleSet

    # A str is never a member of the enum, whatever it says: TypeError, the wrong type.
    with pytest.raises(TypeError, match=r"pile_restriction must be a PileRestriction"):
        BIRIBA.evolve(name="x", pile_restriction="x")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"pile_restriction must be a PileRestriction"):
        BIRIBA.evolve(name="x", pile_restriction="no-discard-back")  # type: ignore[arg-type]
    with pytest.raises(BiribaError, match=r"pile_restriction must be 'no-discard-back' or"):
        RuleSet.from_dict({"name": "x", "pile_restriction": "x"})  # data: a value error
    with pytest.raises(BiribaError, match=r"sequence_bonus must be a list of two whole"):
        BIRIBA.evolve(name="x", sequence_bonus=(1,))  # type: ignore[arg-type]
    with pytest.raises(BiribaError, match=r"target must be a whole number, at most"):
        BIRIBA.evolve(name="x", target=10**5000)
    with pytest.raises(TypeError, match=r"card_values must be a tuple of whole numbers"):
        BIRIBA.evolve(name="x", card_values=[0] * 14)  # type: ignore[arg-type]
    with pytest.raises(BiribaError):
        RuleSet(name="x" * 81)
    # A value of another type is a TypeError, in every field (API.md's errors), where
    # "yes" for a bool and "1" for a number were BiribaError.
    for field, wrong in [
        ("groups", "yes"),
        ("groups", 1),
        ("max_substitutes", "1"),
        ("max_substitutes", True),
        ("players", "4"),
        ("target", 1.5),
        ("sequence_bonus", (1, "2")),
        ("name", 7),
    ]:
        with pytest.raises(TypeError, match=rf"RuleSet\.{field} must be"):
            BIRIBA.evolve(**{field: wrong})  # type: ignore[arg-type]
    kept = BIRIBA.evolve(name="x", pile_restriction=PileRestriction.NO_TAKE_WITH_ONE_CARD)
    assert RuleSet.from_dict(kept.to_dict()) == kept
    for name in RuleSet.preset_names():
        preset = RuleSet.named(name)
        assert preset.evolve() == preset


def test_B1_1_a_seat_out_of_range_has_no_team() -> None:
    import pytest

    from biriba import BIRIBA, team_of

    assert [BIRIBA.team_of(s) for s in range(4)] == [0, 1, 0, 1]
    for seat in (-1, 4, 99):
        with pytest.raises(BiribaError, match=r"out of range 0\.\.3 \(B1\.1\)") as refused:
            BIRIBA.team_of(seat)
        assert refused.value.rule == "B1.1"
    with pytest.raises(TypeError):
        BIRIBA.team_of("1")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rules must be a RuleSet"):
        team_of(1, "biriba")  # type: ignore[arg-type]


def test_B1_1_a_seat_or_index_of_any_integer_type_but_bool_counts_as_its_number() -> None:
    """``Suit.HEARTS`` is the int 2 to Python: given for a meld's index or a dealer it
    is read as 2 and kept as a plain int, so that the move's text names the number and
    reads back (it wrote ``add H 5H``). A bool is still refused."""
    from biriba import BIRIBA, AddToMeld, Card, Suit, full_pack, team_of

    five = Card.parse("5H")
    move = AddToMeld(Suit.HEARTS, five)
    assert type(move.index) is int and str(move) == "add 2 5H"
    assert Move.parse(str(move)) == move == AddToMeld(2, five)
    deal = Deal.new(seed=1, dealer=Suit.HEARTS)
    assert type(deal.dealer) is int and deal.to_dict() == Deal.new(seed=1, dealer=2).to_dict()
    assert deal.hand(Suit.HEARTS) == deal.hand(2)
    with pytest.raises(TypeError, match="must be an int, got bool"):
        AddToMeld(True, five)
    # A bool is refused wherever a seat, a team or a card's index is given, in both builds
    # (compiled, a parameter declared int took True as 1).
    for call in (
        lambda: Deal.new(seed=1, dealer=True),
        lambda: Deal.from_pack(full_pack(BIRIBA), dealer=False),
        lambda: deal.hand(True),
        lambda: deal.hand_size(True),
        lambda: deal.known_cards(True),
        lambda: deal.view(True),
        lambda: deal.team_of(True),
        lambda: team_of(True),
        lambda: deal.melds(False),
        lambda: deal.reserve_received(True),
        lambda: deal.reserve_unactivated(True),
        lambda: Card.from_index(True),
    ):
        with pytest.raises(TypeError, match="must be an int, got bool"):
            call()
    assert deal.view(Suit.HEARTS).seat == 2 and type(deal.view(Suit.HEARTS).seat) is int

    class Index:
        """An integer type that is no int, as NumPy's are."""

        def __index__(self) -> int:
            return 2

    assert AddToMeld(Index(), five) == move  # type: ignore[arg-type]
    assert type(AddToMeld(Index(), five).index) is int  # type: ignore[arg-type]
    assert deal.hand(Index()) == deal.hand(2) and Card.from_index(Index()) == Card.from_index(2)
    assert Card.from_index(Suit.HEARTS) == Card.from_index(2)


def test_seeds_and_deal_counts_past_any_real_value_are_refused() -> None:
    """An int seed of more than 1,000 digits could not be written out (records, a
    match's deal seeds), nor a count of deals played past 10**9."""
    import pytest

    with pytest.raises(BiribaError, match=r"seed has at most 1,000 digits"):
        Deal.new(seed=10**5000)
    assert Deal.new(seed=10**900).seed == 10**900
    data = Match.new(seed=1).to_dict()
    for key, value in (("seed", 10**5000), ("deals_played", 10**5000), ("deals_played", -1)):
        with pytest.raises(BiribaError, match="invalid match"):
            Match.from_dict({**data, key: value})


def test_the_base_move_class_is_no_move() -> None:
    """Move() itself is refused at once with a TypeError (its text recursed forever)."""
    import pytest

    from biriba import Move, check_move

    with pytest.raises(TypeError, match="base class of the moves"):
        Move()
    before = BASE.to_dict()
    with pytest.raises(TypeError):
        BASE.copy().play(Move.__new__(Move))  # a Move made without its constructor
    assert BASE.to_dict() == before
    with pytest.raises(TypeError):
        check_move(before, Move.__new__(Move))


def test_a_subclass_of_the_base_move_class_alone_is_no_move() -> None:
    """A class derived from Move alone, none of the library's moves, is refused as Move
    is: built, with a TypeError; made without its constructor and played, checked or
    written, with a TypeError too (its text recursed forever, RecursionError). A
    subclass of one of the library's move classes plays as that move."""
    import pytest

    from biriba import DrawStock, Move, check_move

    class Weird(Move):
        pass

    class Draw(DrawStock):
        pass

    with pytest.raises(TypeError, match="Weird derives from the base class of the moves"):
        Weird()
    made = Move.__new__(Weird)
    assert repr(made) == str(made) == "<Weird: no move of the library>"
    before = BASE.to_dict()
    deal = BASE.copy()
    for call in (deal.play, deal.is_legal, deal.verify, lambda m: check_move(before, m)):
        with pytest.raises(TypeError, match="Weird derives from"):
            call(made)
    assert deal.to_dict() == before
    deal.play(Draw())
    after = BASE.copy()
    after.play("draw")
    assert deal.to_dict() == after.to_dict()


def test_B1_1_and_B1_2_a_view_built_by_hand_is_checked() -> None:
    """A PlayerView changed with attrs.evolve into something no deal gives is refused
    with a library error (it escaped as AttributeError, AssertionError, IndexError)."""
    import random

    import attrs
    import pytest

    view = BASE.view(0)
    with pytest.raises(TypeError, match="rules must be a RuleSet"):
        attrs.evolve(view, rules="biriba")  # type: ignore[arg-type]
    with pytest.raises(BiribaError, match=r"hand_sizes has one entry per seat \(4\)") as short:
        attrs.evolve(view, hand_sizes=(1,))
    assert short.value.rule == "B1.1"
    with pytest.raises(BiribaError):
        attrs.evolve(view, seat=7)
    wrong = attrs.evolve(view, stock_size=5)
    with pytest.raises(BiribaError, match=r"do not add up to the pack \(B1\.2\)") as counted:
        wrong.sample(random.Random(1))
    assert counted.value.rule == "B1.2"
    assert view.sample(random.Random(1)).view(0).to_dict() == view.to_dict()
    # A hand of more copies of a card than a count of the engine holds (255): its moves
    # are refused with B1.2 (it escaped as the ValueError of bytes()).
    seat = BASE.to_move
    assert seat is not None
    mover = BASE.view(seat)
    huge = attrs.evolve(mover, hand=parse_cards("AS") * 300)
    with pytest.raises(BiribaError, match="300 copies of AS, more than any pack") as copies:
        huge.legal_moves()
    assert copies.value.rule == "B1.2"


def test_a_view_built_by_hand_with_fields_of_the_wrong_type_is_refused() -> None:
    """A PlayerView whose fields are not of the types a deal gives them is refused when
    built (a str phase, a meld's text, a seat out of range, a str count escaped as
    AttributeError or IndexError, or made a sample no deal could be)."""
    import attrs
    import pytest

    view = BASE.view(0)
    melds = (("3H 4H 5H",), view.melds[1])
    changes: dict[str, Any]
    for changes in (
        {"phase": "play"},
        {"melds": melds},
        {"passes": "0"},
        {"stock_size": 5.0},
        {"hand": (*view.hand, "7H")},
        {"discard_pile": ("7H",)},
        {"hand": (*view.hand, None)},
        {"pile_card": "7H"},
        {"reserve_received": (1, 0)},
        {"bonus_suit": "H"},
    ):
        # (The compiled build refuses some of them before the view's own check does,
        # with the message of the field's declared type.)
        with pytest.raises(TypeError, match=r"a PlayerView's|object expected"):
            attrs.evolve(view, **changes)
    for changes in (
        {"to_move": 7},
        {"dealer": -1},
        {"stock_size": -1},
        {"unactivated": (5, None)},
        {"to_move": None},
    ):
        with pytest.raises(BiribaError):
            attrs.evolve(view, **changes)
    with pytest.raises(TypeError, match=r"a dealer must be an int|int object expected"):
        attrs.evolve(view, dealer=None)  # type: ignore[arg-type]
    assert attrs.evolve(view) == view


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key of ``data`` and, in each list, its first item, down to the leaves."""
    found: list[tuple[Any, ...]] = []
    items = list(data.items()) if isinstance(data, dict) else []
    if isinstance(data, list) and data:
        items = [(0, data[0])]
    for key, value in items:
        found.append((*prefix, key))
        found += _paths(value, (*prefix, key))
    return found


def _deep(levels: int, of_dicts: bool) -> Any:
    value: Any = []
    for _ in range(levels):
        value = {"a": value} if of_dicts else [value]
    return value


@pytest.mark.parametrize("name", ["biriba", "biriba-kozi", "buraco"])
def test_values_however_deep_long_or_large_raise_only_library_errors(name: str) -> None:
    """API.md: no input, however large, deep or strange, raises anything but the
    library's errors or TypeError, and a message quotes a short excerpt of it. Every key
    of a position and of a match (lists by their first item), set in turn to a value
    nested 3,000 deep, a 5,000-digit integer or a text of 5,000 characters (a suit's
    letter and spaces): a RecursionError escaped for a deep phase or bonus_suit, a
    ValueError for a huge bonus_suit, and a message quoted a long bonus_suit whole."""
    deal = Deal.new(RuleSet.named(name), seed=1)
    for _ in range(30):
        deal.play(deal.legal_moves()[-1])
    values = (_deep(3000, False), _deep(3000, True), 10**5000, "H" + " " * 5000)
    for data, read in (
        (deal.to_dict(), Deal.from_dict),
        (Match.new(RuleSet.named(name), seed=1).to_dict(), Match.from_dict),
    ):
        for path in _paths(data):
            for value in values:
                changed = copy.deepcopy(data)
                place = changed
                for key in path[:-1]:
                    place = place[key]
                place[path[-1]] = value
                try:
                    read(changed)
                except (BiribaError, TypeError) as error:
                    assert len(str(error)) < 400, (path, str(error)[:100])
                if read is Deal.from_dict:
                    verdict = check_move(changed, "draw")
                    assert len(verdict.reason) < 400
    nested: Any = ()
    for _ in range(3000):
        nested = (nested,)
    with pytest.raises(BiribaError, match="fields are named by text"):
        RuleSet.from_dict({**RuleSet.named(name).to_dict(), nested: 1})
    # A phase given as the enum itself reads as its text.
    data = deal.to_dict()
    assert Deal.from_dict({**data, "phase": Phase(data["phase"])}).to_dict() == data


def test_B9_1_a_match_whose_totals_are_not_one_integer_per_team_cites_B9_1() -> None:
    data = Match.new(seed=1).to_dict()
    for totals in ([0], [0, "1"], "00", [0, 10**40]):
        with pytest.raises(InvalidPositionError, match=r"\(B9\.1\)") as refused:
            Match.from_dict({**data, "totals": totals})
        assert refused.value.rule == "B9.1"
