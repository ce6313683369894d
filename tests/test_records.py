"""Game records: JSON round trips, replay with error reports, and the shipped schemas."""

from __future__ import annotations

import codecs
import gzip
import io
import json
import random
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from referencing import Registry, Resource

from biriba import BIRIBA, BURACO, BiribaError, Deal, Match, RecordError, RuleSet, records

from .helpers import position


def finished_deal(seed: int = 4) -> Deal:
    deal = Deal.new(seed=seed)
    rng = random.Random(seed)
    while not deal.is_over:
        deal.play(rng.choice(deal.legal_moves()))
    return deal


def short_match() -> Match:
    match = Match.new(BIRIBA, seed=21)
    rng = random.Random(0)
    for _ in range(2):
        while not match.deal.is_over:
            match.deal.play(rng.choice(match.deal.legal_moves()))
        match.next_deal()
    for _ in range(10):
        match.deal.play(rng.choice(match.deal.legal_moves()))
    return match


def validator(name: str) -> jsonschema.protocols.Validator:
    position = records.schema("position")
    registry: Registry[Any] = Registry().with_resource(
        "https://biriba.readthedocs.io/schemas/position.schema.json",
        Resource.from_contents(position),
    )
    schema = records.schema(name)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, registry=registry)


def test_schema_names_are_checked() -> None:
    with pytest.raises(TypeError):
        records.schema(None)  # type: ignore[arg-type]
    with pytest.raises(BiribaError, match="no schema named") as error:
        records.schema("x" * 5000)
    assert len(str(error.value)) < 300  # an excerpt, not the whole name


def test_a_version_that_only_equals_1_is_no_version() -> None:
    # True and 1.0 equal 1 in Python. Loading refuses both, as it refuses a float or a
    # bool wherever its data holds a number; the schema refuses True (JSON Schema counts
    # 1.0 as an integer).
    for version in (True, 1.0):
        data = records.record_deal(Deal.new(seed=1)).to_dict()
        data["version"] = version
        with pytest.raises(RecordError, match="version"):
            records.from_dict(data)
        errors = list(jsonschema.Draft202012Validator(records.schema("record")).iter_errors(data))
        assert bool(errors) is (version is True)


def test_rules_named_in_another_case_or_form_are_the_same_rules() -> None:
    # A rule set read from a file that names a preset in another case holds the preset's
    # rules under that name: positions and records of the preset load under it.
    upper = RuleSet.from_dict({"name": "BURACO"})
    assert upper != BURACO and upper.name == "BURACO"
    deal = Deal.new(BURACO, seed=3)
    deal.play("draw")
    again = Deal.from_dict(deal.to_dict(), upper)
    assert again.rules is upper and again.legal_moves() == deal.legal_moves()
    record = records.record_deal(deal)
    assert records.replay(record, upper).to_dict()["melds"] == deal.to_dict()["melds"]
    with pytest.raises(RecordError, match="not 'biriba'"):
        records.replay(record, BIRIBA)


def test_the_record_schema_stands_alone() -> None:
    # A validator given records.schema("record") alone resolves a deal's start (a
    # position) without a registry, and checks it as a position.
    schema = records.schema("record")
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    deal = Deal.from_dict(Deal.new(seed=1).to_dict())  # a record with a start
    deal.play("draw")
    data = records.record_deal(deal).to_dict()
    assert "start" in data
    cls(schema).validate(data)
    data["start"]["dealer"] = "north"
    with pytest.raises(jsonschema.ValidationError):
        cls(schema).validate(data)


def test_records_that_start_from_other_positions_differ() -> None:
    # The start is part of a record's value (it was left out of equality): equal starts,
    # equal records and hashes; other starts, other records.
    one = records.record_deal(Deal.from_dict(Deal.new(seed=1).to_dict()))
    same = records.record_deal(Deal.from_dict(Deal.new(seed=1).to_dict()))
    other = records.record_deal(Deal.from_dict(Deal.new(seed=2).to_dict()))
    assert one == same and hash(one) == hash(same)
    assert one != other
    match = Match.from_dict(Match.new(seed=1).to_dict())
    resumed = Match.from_dict({**Match.new(seed=1).to_dict(), "totals": [100, 0]})
    assert records.record_match(match) != records.record_match(resumed)


def test_a_record_written_with_a_byte_order_mark_loads(tmp_path: Path) -> None:
    # Some editors start a UTF-8 file with a byte order mark: passed over (RFC 8259, 8.1).
    record = records.record_deal(Deal.new(seed=1))
    text = records.dumps(record)
    assert records.loads("\ufeff" + text) == record
    path = tmp_path / "record.json"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert records.load(path) == record
    assert records.load(str(path)) == record


def test_dump_and_load_take_a_text_or_a_binary_file(tmp_path: Path) -> None:
    """API.md: ``dump``/``load`` take "a path or a file". ``load`` read a binary file,
    while ``dump`` handed one a str and failed inside :mod:`io` with a TypeError."""
    deal = Deal.new(seed=1)
    deal.play("draw")
    record = records.record_deal(deal)
    text = io.StringIO()
    records.dump(record, text)
    binary = io.BytesIO()
    records.dump(record, binary)
    assert binary.getvalue() == text.getvalue().encode("utf-8")
    assert records.load(io.BytesIO(binary.getvalue())) == record
    path = tmp_path / "record.json"
    with path.open("wb") as opened:
        records.dump(record, opened)
    with path.open("rb") as opened:
        assert records.load(opened) == record
    assert records.load(path) == records.load(str(path)) == record
    # Files of other kinds: a codecs writer takes text (though its mode, its file's,
    # says "wb"), gzip's binary file takes bytes.
    with codecs.open(str(path), "w", "utf-8") as opened:
        records.dump(record, opened)
    assert records.load(path) == record
    with gzip.open(tmp_path / "record.json.gz", "wb") as zipped:
        records.dump(record, zipped)  # type: ignore[arg-type]
    assert records.loads(gzip.decompress((tmp_path / "record.json.gz").read_bytes())) == record


def test_deal_record_round_trip_and_replay() -> None:
    deal = finished_deal()
    record = records.record_deal(deal)
    assert record.seed == deal.seed and record.moves == tuple(str(m) for m in deal.history)
    text = records.dumps(record)
    data = json.loads(text)
    assert data["format"] == "biriba-record" and data["version"] == 1
    again = records.loads(text)
    assert again == record
    replayed = records.replay(again)
    assert isinstance(replayed, Deal)
    assert replayed.to_dict() == deal.to_dict()
    buffer = io.StringIO()
    records.dump(record, buffer)
    buffer.seek(0)
    assert records.load(buffer) == record


def test_record_of_a_deal_from_a_position() -> None:
    deal = Deal.from_dict(position(hands={0: "5C 6C 7C KS QS"}))
    deal.play("meld 5C 6C 7C")
    record = records.record_deal(deal)
    assert record.seed is None and record.start is not None
    replayed = records.replay(records.loads(records.dumps(record)))
    assert replayed.to_dict() == deal.to_dict()


def test_match_record_round_trip_and_replay() -> None:
    match = short_match()
    record = records.record_match(match)
    assert len(record.deals) == 3
    replayed = records.replay(records.loads(records.dumps(record)))
    assert isinstance(replayed, Match)
    assert replayed.to_dict() == match.to_dict()


def test_replay_reports_the_first_bad_move_by_index_text_and_rule() -> None:
    data = records.record_deal(finished_deal()).to_dict()
    data["moves"][5] = "discard 5C" if data["moves"][5] != "discard 5C" else "discard 6C"
    bad = data["moves"][5]
    with pytest.raises(RecordError) as info:
        records.replay(records.loads(json.dumps(data)))
    error = info.value
    assert error.index == 5 and error.move == bad
    assert "move 5" in str(error) and bad in str(error)
    assert any(rule in str(error) for rule in ("B4.1", "B4.2", "B4.3", "B4.5"))


def test_replay_checks_the_final_score() -> None:
    data = records.record_deal(finished_deal()).to_dict()
    data["score"][0]["total"] += 1
    with pytest.raises(RecordError, match="differs from the replayed score"):
        records.replay(records.loads(json.dumps(data)))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "is JSON"),
        ("[]", "a JSON object"),
        ('{"format": "pgn"}', "format field"),
        ('{"format": "biriba-record", "version": 9}', "version 1"),
        ('{"format": "biriba-record", "version": 1, "kind": "x"}', "kind must be"),
        (
            '{"format": "biriba-record", "version": 1, "kind": "deal", "rules": "biriba",'
            ' "moves": [1]}',
            "moves must be a list of move texts",
        ),
        (
            '{"format": "biriba-record", "version": 1, "kind": "deal", "rules": "biriba",'
            ' "moves": []}',
            "exactly one of seed and start",
        ),
        (
            '{"format": "biriba-record", "version": 1, "kind": "deal", "rules": "chess",'
            ' "seed": 1, "moves": []}',
            "no rule set named 'chess'",
        ),
    ],
)
def test_malformed_records_give_clear_errors(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        records.replay(records.loads(text))


def test_replay_of_a_move_after_the_end() -> None:
    data = records.record_deal(finished_deal()).to_dict()
    data["moves"].append("draw")
    data["score"] = None
    with pytest.raises(RecordError, match=r"B7\.1"):
        records.replay(records.loads(json.dumps(data)))


def test_schemas_accept_what_the_library_writes() -> None:
    positions = validator("position")
    deal = finished_deal(7)
    positions.validate(deal.to_dict())
    positions.validate(Deal.new(seed=1).to_dict())
    positions.validate(position(hands={0: "5C 6C 7C KS QS"}))
    recs = validator("record")
    recs.validate(records.record_deal(deal).to_dict())
    recs.validate(records.record_match(short_match()).to_dict())
    recs.validate(records.record_deal(Deal.from_dict(position(hands={0: "KS QS"}))).to_dict())


def test_schemas_accept_buraco_and_variants() -> None:
    """Records and positions of every preset and of a variant written as data, with the
    redraw and the kózi moves, the mortos and the last turn, pass the schemas."""
    from biriba import BIRIBA, RuleSet
    from biriba.bots import RandomBot, play_deal

    positions = validator("position")
    recs = validator("record")
    variant = BIRIBA.evolve(name="club", entry_minimum=50, bonus_suit_bonus=(200, 100))
    for rules in [*map(RuleSet.named, RuleSet.preset_names()), variant]:
        seed = 4
        if rules.bonus_suit_bonus is not None:  # a joker up-card, for the kózi move
            seed = next(s for s in range(10_000) if Deal.new(rules, seed=s).bonus_suit is None)
        deal = Deal.new(rules, seed=seed)
        if rules.bonus_suit_bonus is not None:
            deal.play("kozi H")
        deal.play("draw")
        if rules.first_turn_redraw:
            deal.play("redraw")
        positions.validate(deal.to_dict())
        play_deal(deal, [RandomBot(seed=s) for s in range(rules.players)])
        positions.validate(deal.to_dict())
        recs.validate(records.record_deal(deal).to_dict())


def test_schemas_reject_malformed_data() -> None:
    positions = validator("position")
    data = Deal.new(seed=1).to_dict()
    data["phase"] = "lunch"
    with pytest.raises(jsonschema.ValidationError):
        positions.validate(data)
    recs = validator("record")
    record = records.record_deal(finished_deal()).to_dict()
    record["moves"].append("jump 3")
    with pytest.raises(jsonschema.ValidationError):
        recs.validate(record)
    with pytest.raises(BiribaError):
        records.schema("nothing")


def test_schema_and_library_both_ask_a_deal_record_for_exactly_one_of_seed_and_start() -> None:
    recs = validator("record")
    seeded = records.record_deal(finished_deal()).to_dict()
    resumed = Deal.from_dict(Deal.new(seed=1).to_dict())
    started = records.record_deal(resumed).to_dict()
    for good in (seeded, started):
        recs.validate(good)
        records.from_dict(good)
    both = {**seeded, "start": started["start"]}
    neither = {**seeded, "seed": None}
    for bad in (both, neither):
        with pytest.raises(jsonschema.ValidationError):
            recs.validate(bad)
        with pytest.raises(RecordError, match="give exactly one of seed and start"):
            records.from_dict(bad)


def test_record_types() -> None:
    with pytest.raises(TypeError):
        records.record_deal("deal")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        records.dumps({})  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        records.replay({})  # type: ignore[call-overload]


def play_on(match: Match, seed: int, deals: int) -> None:
    """Finish ``deals`` deals of ``match`` by random play, then play ten moves more."""
    rng = random.Random(seed)
    for _ in range(deals):
        while not match.deal.is_over:
            match.deal.play(rng.choice(match.deal.legal_moves()))
        match.next_deal()
    for _ in range(10):
        match.deal.play(rng.choice(match.deal.legal_moves()))


@pytest.mark.parametrize("seed", [None, 21])
def test_record_of_a_resumed_match_replays_from_where_it_took_up(seed: int | None) -> None:
    # A match resumed from data (with or without its seed, its totals not zero): its
    # record holds where it took up and its first deal's position, and replays to the
    # same match (a record needed the seed, and replayed it from deal 0).
    played = short_match().to_dict()
    data = {k: played[k] for k in ("rules", "totals", "dealer", "deal")}
    if seed is not None:
        data.update(seed=seed, deals_played=played["deals_played"])
    match = Match.from_dict(data)
    assert match.start == {"totals": played["totals"], "deals_played": data.get("deals_played", 0)}
    play_on(match, 3, 2)
    record = records.record_match(match)
    assert record.start == match.start and record.deals[0].start is not None
    text = records.dumps(record)
    validator("record").validate(json.loads(text))
    again = records.replay(records.loads(text))
    assert isinstance(again, Match)
    assert again.totals == match.totals and again.deals_played == match.deals_played
    assert again.deal.to_dict() == match.deal.to_dict()
    assert Match.new(seed=1).start is None and records.record_match(Match.new(seed=1)).start is None


def test_record_of_a_match_resumed_with_its_scores_replays_them() -> None:
    # A match resumed with its finished deals' scores keeps them in its start, and its
    # record replays to the same match, scores included (they were lost).
    played = short_match()
    assert len(played.scores) == 2
    match = Match.from_dict(played.to_dict())
    assert match.start is not None and len(match.start["scores"]) == 2
    play_on(match, 1, 1)
    text = records.dumps(records.record_match(match))
    validator("record").validate(json.loads(text))
    again = records.replay(records.loads(text))
    assert isinstance(again, Match)
    assert again.scores == match.scores and len(again.scores) == 3
    assert again.to_dict() == match.to_dict() and "scores" in again.to_dict()
    data = json.loads(text)
    data["start"]["scores"] = data["start"]["scores"][:1]  # one deal's score missing
    with pytest.raises(RecordError, match="scores must list the score of each of the 2"):
        records.replay(records.from_dict(data))
    data["start"]["scores"] = "none"
    with pytest.raises(RecordError, match="start: scores must be a list"):
        records.from_dict(data)


def test_a_resumed_match_s_record_checks_its_start() -> None:
    match = Match.from_dict({k: v for k, v in Match.new(seed=2).to_dict().items() if k != "seed"})
    data = records.record_match(match).to_dict()
    for start, message in [
        ({"totals": [0, 0]}, "start must be an object with the keys totals and deals_played"),
        ({"totals": ["0"], "deals_played": 0}, "start: totals must be a list of integers"),
        ({"totals": [0, 0], "deals_played": -1}, "start: deals_played must be a whole number"),
    ]:
        with pytest.raises(RecordError, match=message):
            records.loads(json.dumps({**data, "start": start}))
    with pytest.raises(RecordError, match="totals must be 2 integers"):
        records.replay(
            records.loads(json.dumps({**data, "start": {"totals": [0], "deals_played": 0}}))
        )
    del data["start"]
    with pytest.raises(RecordError, match="needs the match's seed, or its start"):
        records.replay(records.loads(json.dumps(data)))


def finish_deal(match: Match, seed: int = 0) -> None:
    rng = random.Random(seed)
    while not match.deal.is_over:
        match.deal.play(rng.choice(match.deal.legal_moves()))


def test_record_of_a_match_whose_deal_is_over_before_next_deal_replays() -> None:
    # B9.1: a match recorded between a deal's end and next_deal(): its totals do not
    # count that deal yet, and the replayed match stands at the same point (the replay
    # added it, and found other totals than the record's).
    match = Match.new(BIRIBA, seed=7)
    finish_deal(match)
    assert match.deal.is_over and match.totals == (0, 0)
    for waiting in (match, Match.from_dict(match.to_dict())):
        again = records.replay(records.loads(records.dumps(records.record_match(waiting))))
        assert isinstance(again, Match)
        assert again.totals == (0, 0) and again.deal.is_over and not again.is_over
        assert again.deal.to_dict() == match.deal.to_dict()
        again.next_deal()
        assert again.totals == match.deal.score().totals


def test_record_of_a_match_resumed_over_replays() -> None:
    # B9.2: a match resumed after it ended has no deal to play: its record holds its last
    # deal as it was resumed, loads and replays to the same match (it held no deal at
    # all, which loads refused and replay met with an IndexError).
    match = Match.new(BIRIBA, seed=1).to_dict()
    gained = Deal.from_dict(match["deal"])
    finish_deal_plain(gained)
    totals = [5001 - gained.score().totals[0], -(10**4)]
    ended = Match.from_dict(
        {"rules": "biriba", "totals": totals, "dealer": gained.dealer, "deal": gained.to_dict()}
    )
    ended.next_deal()
    assert ended.is_over
    for resumed in (
        Match.from_dict(ended.to_dict()),
        Match.from_dict({k: ended.to_dict()[k] for k in ("rules", "totals", "dealer", "deal")}),
    ):
        assert resumed.is_over
        record = records.record_match(resumed)
        assert len(record.deals) == 1
        text = records.dumps(record)
        validator("record").validate(json.loads(text))
        again = records.replay(records.loads(text))
        assert isinstance(again, Match)
        assert again.is_over and again.winner == ended.winner and again.totals == ended.totals


def finish_deal_plain(deal: Deal, seed: int = 0) -> None:
    rng = random.Random(seed)
    while not deal.is_over:
        deal.play(rng.choice(deal.legal_moves()))


def test_a_move_that_does_not_replay_carries_its_rule() -> None:
    # The RecordError of a move that does not replay carries the rule that refuses it as
    # err.rule, as the IllegalMoveError it comes from does.
    deal = Deal.new(seed=3)
    deal.play("draw")
    data = records.record_deal(deal).to_dict()
    data["moves"].append("draw")
    with pytest.raises(RecordError) as info:
        records.replay(records.from_dict(data))
    assert info.value.rule == "B4.1" and info.value.index == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(totals=[10**5000, 0]), "totals must be a list of integers"),
        (lambda d: d.update(totals=[True, 0]), "totals must be a list of integers"),
        (lambda d: d.update(winner=True), "winner must be a team number or null"),
        (lambda d: d.update(seed=10**2000), "seed must be an integer of at most"),
        (
            lambda d: d["deals"][0].update(
                score=[{**s, "hands": True} for s in d["deals"][0]["score"]]
            ),
            "score must list each team's",
        ),
    ],
)
def test_match_records_refuse_numbers_no_match_holds(change: Any, message: str) -> None:
    # Totals and score parts are integers (not true or false) of at most MAX_POINTS,
    # which a record can write back (an integer of 5,000 digits cannot be written).
    data = records.record_match(short_match()).to_dict()
    change(data)
    with pytest.raises(RecordError, match=message):
        records.from_dict(data)


def test_a_match_record_whose_deal_names_other_rules_is_refused() -> None:
    match = Match.new(BIRIBA, seed=0)
    rng = random.Random(0)
    for _ in range(10):
        match.deal.play(rng.choice(match.deal.legal_moves()))
    data = records.record_match(match).to_dict()
    data["deals"][0]["rules"] = BIRIBA.to_dict()  # the same rules, the other form
    loaded = records.from_dict(data)
    assert isinstance(loaded, records.MatchRecord) and loaded.deals[0].rules == "biriba"
    data["deals"][0]["rules"] = "buraco"
    with pytest.raises(RecordError, match=r"deals\[0\]: its rules are not the match's"):
        records.from_dict(data)


def test_a_record_naming_a_preset_by_its_data_writes_its_name() -> None:
    # API.md: a preset unchanged is written by its name, wherever it is read from.
    data = records.record_deal(finished_deal()).to_dict()
    assert data["rules"] == "biriba"
    data["rules"] = {"name": "biriba"}
    assert records.from_dict(data).to_dict()["rules"] == "biriba"
    data["rules"] = BIRIBA.evolve(target=3000).to_dict()
    assert records.from_dict(data).to_dict()["rules"] == BIRIBA.evolve(target=3000).to_dict()
