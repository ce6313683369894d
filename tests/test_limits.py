"""Input from elsewhere: odd digits, huge integers, deep nesting, very long texts, files
and paths. Each gets a library error (or a TypeError) quoting at most a short excerpt,
refused before any real work."""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import biriba
from biriba import (
    BIRIBA,
    BURACO,
    BiribaError,
    Card,
    Deal,
    IllegalMoveError,
    InvalidMeldError,
    InvalidPositionError,
    Match,
    Meld,
    Move,
    NotationError,
    RecordError,
    RuleSet,
    check_move,
    enumerate_melds,
    enumeration,
    format_cards,
    full_pack,
    parse_cards,
    records,
)
from biriba.bots import GreedyBot, RandomBot, play_deal
from biriba.cards import CARDS
from biriba.limits import EXCERPT, MAX_CARDS_TEXT, MAX_DEPTH, MAX_TEXT, excerpt, is_int
from biriba.rules import MAX_DECKS, MAX_JOKERS
from biriba.simulate import simulate

from .helpers import deal_at, examples, position

HUGE = 10**5000  # str() of it raises ValueError: more than 4,300 digits


def quotes_at_most_an_excerpt(message: str, text: str) -> bool:
    """Whether ``message`` holds no run of more than ``EXCERPT`` characters of ``text``."""
    window = EXCERPT + 1
    return all(text[i : i + window] not in message for i in range(0, len(text) - window, 7))


@pytest.mark.parametrize("text", ["add ² 5H", "add ① 9D", "add 0² 9D", "add ٣ 9D", "add ３ 9D"])
def test_a_meld_index_is_ascii_digits(text: str) -> None:
    with pytest.raises(NotationError, match="meld's index"):
        Move.parse(text)
    deal = deal_at(hands={0: "9D 5H 7C"}, melds=(["3D 4D 5D"], []))
    for check in (deal.is_legal, deal.verify, deal.play):
        with pytest.raises(NotationError):
            check(text)


def test_an_index_of_too_many_digits_is_not_read() -> None:
    with pytest.raises(NotationError):
        Move.parse("add " + "9" * 4400 + " 9D")


def test_huge_integers_in_a_position_are_refused_with_a_short_message() -> None:
    for key in ("dealer", "to_move", "passes"):
        data = position(hands={0: "9D 5H 7C"})
        data[key] = HUGE
        with pytest.raises(InvalidPositionError, match="an integer of 5001 digits"):
            Deal.from_dict(data)
        data[key] = -HUGE
        with pytest.raises(InvalidPositionError):
            Deal.from_dict(data)


def test_huge_integers_elsewhere() -> None:
    with pytest.raises(BiribaError, match="5001 digits"):
        Deal.new(dealer=HUGE)
    with pytest.raises(BiribaError):
        Deal.new().hand(-HUGE)
    with pytest.raises(BiribaError):
        BIRIBA.evolve(players=-HUGE)
    for players in (HUGE, HUGE + 1):  # too many to deal to, or to split into two teams
        with pytest.raises(BiribaError, match="an integer of 50"):
            BIRIBA.evolve(players=players)
    with pytest.raises(BiribaError, match="5001 digits"):
        Match.new(seed=HUGE)
    with pytest.raises(BiribaError, match="5001 digits"):
        simulate(["random", "random"], deals=1, seed=HUGE, workers=1)
    match = Match.new(seed=1).to_dict()
    match["totals"] = [HUGE]
    with pytest.raises(InvalidPositionError, match="5001 digits"):
        Match.from_dict(match)


def test_is_int_tells_a_number_from_true_and_from_a_float() -> None:
    assert is_int(0) and is_int(-(10**40))
    assert not any(is_int(v) for v in (True, False, 0.0, 1.0, "1", None))


def test_excerpt_is_short_for_anything() -> None:
    assert excerpt(HUGE) == "an integer of 5001 digits"
    assert excerpt(12) == "12"
    for value in [
        "x" * 10**6,
        ["7H"] * 10**5,
        {"a": "b" * 10**5},
        b"z" * 10**5,
        "\U0001f600" * 500,
    ]:
        assert len(excerpt(value)) <= EXCERPT + 40


def test_deep_json_is_refused_without_recursion() -> None:
    with pytest.raises(RecordError, match="nests"):
        records.loads("[" * 10000 + "]" * 10000)
    with pytest.raises(RecordError, match=f"at most {MAX_DEPTH} deep"):
        records.loads("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    with pytest.raises(RecordError):
        records.loads("{" * 100000)


def test_a_long_move_is_refused_at_once_with_a_short_message() -> None:
    deal = Deal.new(seed=3)
    deal.play("draw")
    text = "meld " + "7H " * 10**6
    started = time.perf_counter()
    with pytest.raises(BiribaError) as caught:
        deal.verify(text)
    assert time.perf_counter() - started < 0.2  # 1.5 to 3 s before: a cheap denial of service
    assert len(str(caught.value)) < 300
    assert f"longer than {MAX_TEXT} characters" in str(caught.value)


@pytest.mark.parametrize(
    "parse", [Card.parse, parse_cards, Meld.parse, Move.parse], ids=lambda f: f.__qualname__
)
def test_every_text_parser_quotes_an_excerpt(parse: object) -> None:
    text = "Q" * 500 + "".join(chr(0x100 + i) for i in range(300))
    with pytest.raises(NotationError) as caught:
        parse(text)  # type: ignore[operator]
    assert quotes_at_most_an_excerpt(str(caught.value), text)


def test_the_largest_pack_written_as_text_reads_back() -> None:
    """API.md: ``format_cards`` writes cards that ``parse_cards`` reads back. A list of
    cards was held to the 1,000 characters of a move's text, so the stock of a rule set
    of 8 decks or more (over 1,000 characters) could not be read back."""
    largest = BIRIBA.evolve(name="largest", decks=MAX_DECKS, jokers=MAX_JOKERS)
    pack = full_pack(largest)
    text = format_cards(pack)
    assert len(text) > MAX_TEXT and parse_cards(text) == pack
    assert (
        parse_cards(format_cards(Deal.new(largest, seed=1).stock))
        == Deal.new(largest, seed=1).stock
    )
    with pytest.raises(NotationError, match=f"longer than {MAX_CARDS_TEXT} characters"):
        parse_cards("7H " * (MAX_CARDS_TEXT // 3 + 1))


def test_a_long_text_within_the_limit_is_quoted_short() -> None:
    deal = Deal.new(seed=3)
    deal.play("draw")
    text = "meld " + " ".join(["7H"] * 300)
    with pytest.raises(IllegalMoveError) as caught:
        deal.verify(text)
    assert quotes_at_most_an_excerpt(str(caught.value), text)


def test_a_huge_pile_card_gives_a_short_message() -> None:
    data = position(hands={0: "9D 5H 7C"})
    data["pile_card"] = "7H" * 500_000
    with pytest.raises(InvalidPositionError) as caught:
        Deal.from_dict(data)
    assert len(str(caught.value)) < 400


def test_a_list_of_a_million_cards_is_refused_by_its_length() -> None:
    data = position(hands={0: "9D 5H 7C"})
    data["stock"] = ["nonsense"] * 10**6
    with pytest.raises(InvalidPositionError, match="at most"):
        Deal.from_dict(data)


def test_records_load_and_dump_with_a_path_or_a_file(tmp_path: Path) -> None:
    deal = Deal.new(seed=2)
    deal.play("draw")
    record = records.record_deal(deal)
    path = tmp_path / "deal.json"
    records.dump(record, path)
    assert records.load(path) == record
    records.dump(record, str(path))
    assert records.load(str(path)) == record
    with path.open() as text_file:
        assert records.load(text_file) == record
    with path.open("rb") as binary_file:
        assert records.load(binary_file) == record
    out = io.StringIO()
    records.dump(record, out)
    assert records.loads(out.getvalue()) == record


def test_records_load_and_dump_errors(tmp_path: Path) -> None:
    record = records.record_deal(Deal.new(seed=2))
    with pytest.raises(RecordError, match="cannot read"):
        records.load(tmp_path / "missing.json")
    with pytest.raises(RecordError, match="cannot write"):
        records.dump(record, tmp_path / "no" / "such" / "folder.json")
    bad = tmp_path / "latin1.json"
    bad.write_bytes(b'{"format": "\xff"}')
    with pytest.raises(RecordError, match="UTF-8"):
        records.load(bad)
    with pytest.raises(TypeError):
        records.load(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        records.dump(record, 42)  # type: ignore[arg-type]


def test_a_record_with_too_many_moves_is_refused_before_replaying() -> None:
    data = records.record_deal(Deal.new(seed=2)).to_dict()
    data["moves"] = ["draw"] * 200_001
    with pytest.raises(RecordError, match="at most"):
        records.from_dict(data)


def test_the_match_keeps_its_per_deal_scores_on_a_round_trip() -> None:
    match = Match.new(seed=11)
    while match.deals_played < 2 and not match.is_over:
        play_deal(match.deal, [GreedyBot(seat) for seat in range(4)])
        match.next_deal()
    back = Match.from_dict(match.to_dict())
    assert back.scores == match.scores
    assert len(back.scores) == 2
    assert back.to_dict() == match.to_dict()


def test_per_deal_scores_must_add_up_to_the_totals() -> None:
    match = Match.new(seed=11)
    play_deal(match.deal, [GreedyBot(seat) for seat in range(4)])
    match.next_deal()
    data = match.to_dict()
    data["totals"] = [data["totals"][0] + 5, data["totals"][1]]
    with pytest.raises(InvalidPositionError) as caught:
        Match.from_dict(data)
    assert caught.value.rule == "B9.1"
    data = match.to_dict()
    data["scores"] = []
    with pytest.raises(InvalidPositionError, match="each of the 1 finished"):
        Match.from_dict(data)


def test_a_seed_that_is_no_text_is_refused_everywhere_a_seed_is_taken() -> None:
    # A lone surrogate has no UTF-8 form, and random.Random seeds with a str's UTF-8 bytes:
    # it raised UnicodeEncodeError from inside (JSON and the command line's arguments can
    # carry one).
    lone = "\ud800"
    for call in (
        lambda: Deal.new(seed=lone),
        lambda: Match.new(seed=lone),
        lambda: RandomBot(lone),
        lambda: simulate(["random", "random"], deals=1, seed=lone, workers=1),
    ):
        with pytest.raises(BiribaError, match="no text: it holds a lone surrogate"):
            call()
    record = records.dumps(records.record_deal(Deal.new(seed=3))).replace(
        '"seed": 3', '"seed": "\\ud800"'
    )
    assert "\\ud800" in record
    with pytest.raises(BiribaError, match="seed"):
        records.replay(records.loads(record))
    assert Deal.new(seed="é, ß and 7♥").to_dict() == Deal.new(seed="é, ß and 7♥").to_dict()


def test_a_rule_set_name_that_is_no_text_is_refused() -> None:
    # A lone surrogate in a rule set's name was accepted, and writing a record's replay
    # page or playing in the terminal under that rule set raised UnicodeEncodeError.
    with pytest.raises(BiribaError, match="UTF-8 can write"):
        BIRIBA.evolve(name="my\ud800rules")
    with pytest.raises(BiribaError, match="UTF-8 can write"):
        RuleSet.from_dict({"name": "my\ud800rules"})
    with pytest.raises(BiribaError, match="UTF-8 can write"):
        RuleSet.from_dict({**BIRIBA.evolve(name="mine").to_dict(), "name": "\udfff"})
    named = BIRIBA.evolve(name="é, ß and 7♥")  # any text UTF-8 writes
    assert RuleSet.from_dict(named.to_dict()) == named


def test_the_rule_sets_card_methods_refuse_what_is_no_card_with_a_type_error() -> None:
    # They raised AttributeError from inside (``None.index``), or, given a str, read
    # str.index (copies gave the decks' count).
    ace = Card.parse("AH")
    calls: list[Callable[[], object]] = [
        lambda: BIRIBA.card_value(None),  # type: ignore[arg-type]
        lambda: BIRIBA.card_value("AH"),  # type: ignore[arg-type]
        lambda: BIRIBA.is_wild(7),  # type: ignore[arg-type]
        lambda: BIRIBA.copies(Meld.parse("3H 4H 5H")),  # type: ignore[arg-type]
        lambda: BIRIBA.copies("AH"),  # type: ignore[arg-type]
        lambda: BIRIBA.cards_value([ace, None]),  # type: ignore[list-item]
        lambda: BIRIBA.cards_value("AH KH"),  # type: ignore[arg-type]
        lambda: BIRIBA.cards_value(5),  # type: ignore[arg-type]
        lambda: BIRIBA.cards_value(x for x in [ace, 3]),  # type: ignore[misc]
    ]
    for call in calls:
        with pytest.raises(TypeError, match=r"RuleSet\.\w+ takes"):
            call()
    assert (BIRIBA.card_value(ace), BIRIBA.copies(ace), BIRIBA.is_wild(ace)) == (15, 2, False)
    assert BIRIBA.cards_value(x for x in [ace, ace]) == 30


@pytest.mark.parametrize("text", ["7\u017f", "T\u017f"])  # a long s: upper() gives S
def test_a_card_is_written_in_ascii_letters_not_letters_that_fold_into_them(text: str) -> None:
    with pytest.raises(NotationError):
        Card.parse(text)
    with pytest.raises(NotationError):
        Move.parse(f"discard {text}")
    assert Card.parse("7s") == Card.parse("7S") == Card.parse("7♠")


def test_a_move_is_written_in_ascii_letters_not_letters_that_fold_into_them() -> None:
    for text in ("ta\u212ae", "kozi \u017f", "\u212aozi h"):  # the Kelvin sign: lower() gives k
        with pytest.raises(NotationError):
            Move.parse(text)
    assert str(Move.parse("TAKE")) == "take"


def test_an_integer_of_thousands_of_digits_is_counted_exactly() -> None:
    # (estimated from its bits, which were one digit off below a power of ten)
    assert excerpt(10**4000 - 1) == "an integer of 4000 digits"
    assert excerpt(10**4000) == "an integer of 4001 digits"
    assert excerpt(-(2**20000)) == "an integer of 6021 digits"


def test_a_type_of_another_library_is_named_with_its_module() -> None:
    from biriba.limits import type_name

    class Flag:  # as numpy.bool, whose own name is "bool"
        pass

    assert type_name(True) == "bool" and type_name("x") == "str"
    assert type_name(Flag()) == f"{__name__}.{Flag.__qualname__}"


def _one_large_hand(rules: RuleSet, size: int) -> dict[str, object]:
    """A position of ``rules`` in which seat 0, to discard, holds ``size`` cards and the
    other seats 11 each, the reserves untouched."""
    pack = [str(card) for card in full_pack(rules)]
    others = [pack[i * 11 : (i + 1) * 11] for i in range(1, rules.players)]
    rest = pack[rules.players * 11 :] + pack[:11]
    packets = [rest[i * 11 : (i + 1) * 11] for i in range(rules.reserve_count)]
    rest = rest[11 * rules.reserve_count :]
    hand, stock = rest[:size], rest[size:]
    return {
        "rules": rules.to_dict(),
        "dealer": rules.players - 1,
        "to_move": 0,
        "phase": "play",
        "hands": [hand, *others],
        "stock": stock,
        "discard": [],
        "reserves": packets,
        "melds": [[] for _ in range(rules.teams)],
        "reserve_received": [False] * rules.teams,
        "passes": 0,
    }


def test_a_hand_that_lays_millions_of_melds_is_refused_not_listed() -> None:
    """Six substitutes to a meld (V7) and no limit on a new meld's length: a hand of 50
    cards lays millions of sequences (4.5 million legal moves, 1.5 GB, 18 s before). The
    enumerator stops past MAX_LISTED_MELDS of one part, with a BiribaError; read as a
    position, the position is refused; check_move says so in its verdict."""
    six = BIRIBA.evolve(name="six", max_substitutes=6)
    data = _one_large_hand(six, 50)
    with pytest.raises(InvalidPositionError, match="more than 300,000 sequences of two"):
        Deal.from_dict(data)
    verdict = check_move(data, "discard 5D")
    assert (verdict.legal, verdict.error) == (False, "position")
    assert "MAX_LISTED_MELDS" in verdict.reason
    hand = parse_cards(" ".join(data["hands"][0]))  # type: ignore[index]
    with pytest.raises(BiribaError, match=r"more than 300,000 .*under the rule set 'six'"):
        enumerate_melds(hand, six)
    # Two substitutes to a meld: the same hand is listed.
    two = _one_large_hand(BIRIBA.evolve(name="two", max_substitutes=2), 50)
    assert check_move(two, "discard 5D").legal


@pytest.mark.parametrize("name", RuleSet.preset_names())
def test_a_whole_pack_in_one_hand_is_within_the_limit_under_every_preset(name: str) -> None:
    """The bound on the melds listed never cuts a preset's hand: the whole pack in one
    hand lays at most 135,227 melds, each part within MAX_LISTED_MELDS. (135,227 is what
    the enumerator lists for buraco's pack, the most of any preset, measured; 112,988 of
    them are sequences of two substitutes or more.)"""
    rules = RuleSet.named(name)
    melds = enumerate_melds(full_pack(rules), rules)
    assert 10_000 < len(melds) <= 135_227
    assert len(melds) == len(set(melds))


def test_groups_of_a_rank_held_many_times_are_bounded_too() -> None:
    """Sixteen decks (B1.2's most): a hand of the 64 aces and five kinds of substitute
    lays half a million groups of aces, past MAX_LISTED_MELDS: refused. Under Buraco, a
    new meld has at most six cards (Z3.2), and the same hand's groups are few: listed."""
    big = BIRIBA.evolve(name="sixteen", decks=16, jokers=64)
    hand = parse_cards("AC AD AH AS " * 16 + "2C 2D 2H 2S JK")
    with pytest.raises(BiribaError, match="more than 300,000 groups of As"):
        enumerate_melds(hand, big)
    buraco = BURACO.evolve(name="sixteen", decks=16, jokers=64)
    groups = enumerate_melds(hand, buraco)
    assert groups and all(len(meld) <= 6 for meld in groups)


@settings(max_examples=examples(150), deadline=None)
@given(
    decks=st.integers(2, 4),
    min_meld=st.integers(3, 5),
    jokers=st.integers(0, 8),
    max_substitutes=st.sampled_from([1, 2, 3, None]),
    max_new_meld=st.sampled_from([None, 4, 6, 9]),
    buraco=st.booleans(),
    data=st.data(),
)
def test_groups_counted_before_listing_are_the_groups_listed(
    decks: int,
    min_meld: int,
    jokers: int,
    max_substitutes: int | None,
    max_new_meld: int | None,
    buraco: bool,
    data: st.DataObject,
) -> None:
    """The count that refuses a rank's groups before they are made (a rank held many
    times in many decks) is exactly how many the enumerator lists, for any hand and rule
    set: the refusal comes where listing them would have come to it."""
    assume(max_new_meld is None or max_new_meld >= min_meld)  # (B3.1, Z3.2)
    rules = (BURACO if buraco else BIRIBA).evolve(
        name="counted",
        decks=decks,
        min_meld=min_meld,
        jokers=jokers,
        max_substitutes=max_substitutes,
        max_new_meld=max_new_meld,
    )
    counts = bytes(
        data.draw(st.integers(0, min(rules.copies(card), 6)), label=str(card)) for card in CARDS
    )
    plan = enumeration._PLANS.get(rules) or enumeration._plan_for(rules)
    wild_key = enumeration._wild_key(counts, plan)
    sub_cap = plan.held(wild_key)[1]
    choices = plan.sub_choices(wild_key, sub_cap)
    for c in range(13):
        if rules.wild[c + 13]:
            continue  # a rank of substitutes has no groups (B3.5)
        per_suit = counts[c:52:13]
        lays, _ = enumeration._groups_of_rank(c, per_suit, plan, wild_key, sub_cap)
        counted = enumeration._group_count(
            plan.natural_sets(c, per_suit), choices, plan.substitute_bounds(sub_cap)
        )
        assert counted == len(lays)


def test_V3_an_entry_minimum_search_past_its_bound_is_refused_not_run_for_minutes() -> None:
    """Forty cards of four decks and 16 jokers, no limit on substitutes, a minimum of 150
    (V3): the look-ahead of the first play listed 67 million melds in 171 seconds. Past
    MAX_SEARCH_MELDS it stops with a BiribaError, the deal unchanged. (Read as data, the
    position is refused as any position whose moves are past a bound: above.)"""
    rules = BIRIBA.evolve(
        name="v3", entry_minimum=150, max_substitutes=None, decks=4, jokers=16, hand_size=40
    )
    deal = Deal.new(rules, seed=1)
    deal.play("draw")
    before = deal.to_dict()
    with pytest.raises(BiribaError, match=r"more than 2,000,000 melds \(the entry minimum of 150"):
        deal.legal_moves()
    assert deal.to_dict() == before


@pytest.mark.skipif(
    biriba.compiled, reason="the compiled build reads its bounds as constants of its own"
)
def test_V3_an_entry_minimum_search_meeting_too_many_states_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A crafted hand (every substitute, AC to JC) under a minimum of 200 (V3) meets about
    31,000 states, each listing few melds (3.6 seconds; going move by move, it met about
    a million): past MAX_SEARCH_STATES a search stops with a BiribaError, the deal
    unchanged, and the engine's count of searches under way back at none. Here the bound
    is lowered to 2,000 states, which this hand passes, so that the test takes a
    moment."""
    from biriba import engine

    monkeypatch.setattr(engine, "MAX_SEARCH_STATES", 2_000)
    rules = BIRIBA.evolve(name="minimum-200", entry_minimum=200)
    hand = "JK JK JK JK 2C 2C 2D 2D 2H 2H 2S 2S AC 3C 4C 5C 6C 7C 8C 9C TC JC"
    with pytest.raises(InvalidPositionError, match="meets more than 2,000 states"):
        Deal.from_dict(position(rules=rules, hands={0: hand}), rules)
    assert engine.engine_for(rules)._searching == 0
    # Within the bound, the same kind of search answers: a minimum of 50 is reachable.
    easier = BIRIBA.evolve(name="minimum-50", entry_minimum=50)
    deal = Deal.from_dict(position(rules=easier, hands={0: hand}), easier)
    assert deal.legal_moves()


def test_B1_2_an_endless_iterable_of_cards_is_read_no_further_than_a_pack() -> None:
    """Meld.from_cards and enumerate_melds read at most the pack's cards and more is
    refused (B1.2): an endless iterable ran out of memory or never ended."""
    import itertools

    seven = Card.parse("7H")
    with pytest.raises(InvalidMeldError, match="more cards than the pack's 108") as meld:
        Meld.from_cards(itertools.repeat(seven))
    assert meld.value.rule == "B1.2"
    with pytest.raises(BiribaError, match="more cards than the pack's 108") as hand:
        enumerate_melds(itertools.repeat(seven))
    assert hand.value.rule == "B1.2"


@pytest.mark.skipif(
    biriba.compiled, reason="the compiled build reads its bounds as constants of its own"
)
def test_V3_a_search_in_one_thread_counts_nothing_of_another_s(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bounds hold for each search: one thread's search under way (here near the
    bound) adds nothing to another thread's count, which starts from none. (The count
    of searches under way is the engine's, shared: with it alone, the second thread's
    search was never counted from its start, and ordinary positions were refused.)"""
    import threading

    from biriba import engine

    monkeypatch.setattr(engine, "MAX_SEARCH_STATES", 2_000)
    rules = BIRIBA.evolve(name="minimum-50", entry_minimum=50)
    data = position(rules=rules, hands={0: "JK JK 2C 2D AC 3C 4C 5C 6C 7C 8C 9C TC JC"})
    own = engine.engine_for(rules)
    own._enter_search()  # a search under way in this thread, near the bound
    own._search.local.states = 1_999
    results: list[object] = []
    try:
        worker = threading.Thread(
            target=lambda: results.append(len(Deal.from_dict(data, rules).legal_moves()))
        )
        worker.start()
        worker.join()
    finally:
        own._leave_search()
    assert results and isinstance(results[0], int) and results[0] > 0
    assert own._searching == 0
