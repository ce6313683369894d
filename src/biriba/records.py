"""Game records: a deal or a whole match as JSON, and a replay that checks every move.

A record holds the rule set's name, the seed (or the explicit starting position), every
move in text form and the final scores::

    >>> import random
    >>> from biriba import Deal
    >>> deal = Deal.new(seed=4)
    >>> rng = random.Random(4)
    >>> while not deal.is_over:
    ...     deal.play(rng.choice(deal.legal_moves()))
    >>> text = dumps(record_deal(deal))
    >>> replayed = replay(loads(text))
    >>> replayed.to_dict() == deal.to_dict()
    True

:func:`replay` reports the first move that does not replay as a :class:`~biriba.RecordError`
with its index, its text and the rule that refuses it.
"""

from __future__ import annotations

import copy
import io
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any, Final, overload

import attrs

from biriba.deal import Deal
from biriba.errors import BiribaError
from biriba.errors import RecordError as RecordError  # (its name here too, as it was)
from biriba.limits import (
    MAX_DEPTH,
    MAX_JSON,
    MAX_MOVES,
    MAX_POINTS,
    MAX_SEED_DIGITS,
    check_count,
    check_seed,
    excerpt,
    is_int,
    is_points,
    parse_json,
    reason_of,
    too_deep,
)
from biriba.match import Match
from biriba.rules import RuleSet, check_rules, cited, rules_from_data, rules_to_data, same_rules

__all__ = [
    "FORMAT",
    "VERSION",
    "DealRecord",
    "MatchRecord",
    "Record",
    "dump",
    "dumps",
    "from_dict",
    "load",
    "loads",
    "record_deal",
    "record_match",
    "replay",
    "schema",
]

#: The value of every record's ``format`` field.
FORMAT = "biriba-record"
#: The schema version this library writes and reads.
VERSION = 1

_PARTS = ("melded", "bonuses", "hands", "closing", "reserve", "total")
#: The widest indent of :func:`dumps` and :func:`dump`, in spaces a level.
_MAX_INDENT: Final = 16
#: A bound on a record's dealer and winner (a seat and a team): more seats than any rule
#: set's pack (at most 16 decks and 64 jokers) could deal a hand to.
_MAX_SEATS: Final = 1_000


def _check_rules_field(rules: object, owner: str) -> None:
    """A record's ``rules``: a rule set's name (a non-empty str) or its data (a mapping,
    checked in full when the record is replayed, nested at most
    :data:`~biriba.limits.MAX_DEPTH` deep)."""
    if isinstance(rules, str):
        if not rules:
            raise _fail(f"a {owner}'s rules name a rule set, got ''")
        return
    if not isinstance(rules, Mapping):
        raise TypeError(
            f"a {owner}'s rules are a rule set's name or data, got {type(rules).__name__}"
        )
    if too_deep(rules):
        raise _fail(f"a {owner}'s rules nest at most {MAX_DEPTH} deep")


def _check_seed_field(seed: object, owner: str) -> None:
    """A record's ``seed``, as :func:`~biriba.limits.check_seed` takes it."""
    try:
        check_seed(seed, f"a {owner}'s seed")
    except BiribaError as error:
        raise _fail(str(error)) from None


def _check_seat_field(value: object, name: str, owner: str) -> None:
    """A record's dealer or winner: an int from 0 to ``_MAX_SEATS - 1`` (whether the rule
    set has that seat or team is checked when the record is replayed)."""
    if not is_int(value):
        raise TypeError(f"a {owner}'s {name} is an int, got {type(value).__name__}")
    if not 0 <= value < _MAX_SEATS:
        raise _fail(f"a {owner}'s {name} is 0 to {_MAX_SEATS - 1}, got {excerpt(value)}")


def _check_sequence(value: object, name: str, owner: str, kind: type, what: str) -> None:
    """A record's ``name``: a tuple (or a list) of ``kind`` (``what``; a bool is no int)."""
    if not isinstance(value, tuple | list):
        raise TypeError(f"a {owner}'s {name} is a tuple, got {type(value).__name__}")
    for item in value:
        if not isinstance(item, kind) or isinstance(item, bool):
            raise TypeError(f"a {owner}'s {name} hold {what}, got {type(item).__name__}")


@attrs.frozen
class DealRecord:
    """One deal: how it started (a seed and a dealer, or a position) and every move.

    Made by hand, a record is checked as :func:`loads` checks one read from JSON: a field
    of the wrong type raises :class:`TypeError`, a bad value (no seed and no start, or
    both; a dealer out of range, a huge score) :class:`~biriba.RecordError`. The rule set
    and the starting position are checked in full when the record is replayed.
    """

    #: The rules: a preset's name, or a rule set's data (:meth:`RuleSet.to_dict
    #: <biriba.RuleSet.to_dict>`) for any other rule set.
    rules: str | dict[str, Any] = attrs.field(hash=False)
    #: The moves in text form, in order.
    moves: tuple[str, ...]
    #: The seed of :meth:`Deal.new <biriba.Deal.new>`, or ``None`` with a ``start``.
    seed: int | str | None = None
    #: The dealer, with a seed.
    dealer: int = 0
    #: The starting position, without a seed.
    start: dict[str, Any] | None = attrs.field(default=None, hash=False)
    #: The final score per team, part by part, if the deal is over.
    score: tuple[dict[str, int], ...] | None = None

    def __attrs_post_init__(self) -> None:
        # A record built by hand is checked as a record read from JSON is (from_dict):
        # a field of the wrong type raises TypeError, a bad value RecordError.
        owner = "DealRecord"
        _check_rules_field(self.rules, owner)
        _check_sequence(self.moves, "moves", owner, str, "move texts (str)")
        if len(self.moves) > MAX_MOVES:
            raise _fail(f"a deal holds at most {MAX_MOVES} moves, got {len(self.moves)}")
        _check_seed_field(self.seed, owner)
        _check_seat_field(self.dealer, "dealer", owner)
        start = self.start
        if start is not None:
            if not isinstance(start, Mapping):
                raise TypeError(
                    f"a {owner}'s start is a position's data or None, got {type(start).__name__}"
                )
            if too_deep(start):
                raise _fail(f"a {owner}'s start nests at most {MAX_DEPTH} deep")
        if (self.seed is None) == (start is None):
            raise _fail(f"a {owner} gives exactly one of seed and start")
        if self.score is not None:
            _check_score(self.score, owner)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (the ``deal`` record of the schema)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "kind": "deal",
            "rules": self.rules,
            "seed": self.seed,
            "dealer": self.dealer,
            "start": self.start,
            "moves": list(self.moves),
            "score": None if self.score is None else [dict(s) for s in self.score],
        }


@attrs.frozen
class MatchRecord:
    """A match: its seed, or where it was resumed, and every deal, with the running
    totals.

    Checked when made, as a :class:`DealRecord` is (``deals`` holds at least one
    :class:`DealRecord`).
    """

    #: The rules: a preset's name, or a rule set's data.
    rules: str | dict[str, Any] = attrs.field(hash=False)
    #: The match's seed (``None`` for a match resumed without one).
    seed: int | str | None
    #: The deals, in order; the last may be unfinished.
    deals: tuple[DealRecord, ...]
    #: The totals after the finished deals.
    totals: tuple[int, ...]
    #: The winning team, or ``None``.
    winner: int | None = None
    #: For a match resumed from data (:attr:`Match.start <biriba.Match.start>`), the
    #: totals and the count of deals played when it was resumed, ``{"totals": [...],
    #: "deals_played": n}``; its first deal then starts from a position. ``None`` for
    #: a match played from its seed's first deal.
    start: dict[str, Any] | None = attrs.field(default=None, hash=False)

    def __attrs_post_init__(self) -> None:
        # Checked as DealRecord's fields are; a deal record checked itself when made.
        owner = "MatchRecord"
        _check_rules_field(self.rules, owner)
        _check_seed_field(self.seed, owner)
        _check_sequence(self.deals, "deals", owner, DealRecord, "DealRecords")
        if not self.deals:
            raise _fail(f"a {owner} holds at least one deal")
        _check_sequence(self.totals, "totals", owner, int, "ints")
        if not all(is_points(t) for t in self.totals):
            raise _fail(
                f"a {owner}'s totals are at most {MAX_POINTS:,} either way, got "
                f"{excerpt(list(self.totals))}"
            )
        if self.winner is not None:
            _check_seat_field(self.winner, "winner", owner)
        if self.start is not None:
            if not isinstance(self.start, Mapping):
                raise TypeError(
                    f"a {owner}'s start is a mapping or None, got {type(self.start).__name__}"
                )
            if too_deep(self.start):
                raise _fail(f"a {owner}'s start nests at most {MAX_DEPTH} deep")
            _match_start(self.start)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (the ``match`` record of the schema)."""
        data = {
            "format": FORMAT,
            "version": VERSION,
            "kind": "match",
            "rules": self.rules,
            "seed": self.seed,
            "deals": [
                {k: v for k, v in d.to_dict().items() if k not in ("format", "version", "kind")}
                for d in self.deals
            ],
            "totals": list(self.totals),
            "winner": self.winner,
        }
        if self.start is not None:
            data["start"] = copy.deepcopy(self.start)
        return data


#: A record of either kind, as :func:`loads`, :func:`load` and :func:`replay` take or
#: give it.
Record = DealRecord | MatchRecord


def _check_score(score: object, owner: str) -> None:
    """A deal record's final score: per team, a mapping of exactly the parts of B8 (as
    :func:`record_deal` writes them) to ints of at most :data:`~biriba.limits.MAX_POINTS`
    either way."""
    if not isinstance(score, tuple | list):
        raise TypeError(f"a {owner}'s score is a tuple or None, got {type(score).__name__}")
    for team in score:
        if not isinstance(team, Mapping):
            raise TypeError(f"a {owner}'s score holds mappings, got {type(team).__name__}")
        if set(team) != set(_PARTS):
            raise _fail(
                f"a {owner}'s score gives each team's {', '.join(_PARTS)}, got "
                f"{excerpt(list(team))}"
            )
        for part in _PARTS:
            value = team[part]
            if not is_int(value):
                raise TypeError(
                    f"a {owner}'s score part {part} is an int, got {type(value).__name__}"
                )
            if not is_points(value):
                raise _fail(
                    f"a {owner}'s score part {part} is at most {MAX_POINTS:,} either way, got "
                    f"{excerpt(value)}"
                )


def record_deal(deal: Deal) -> DealRecord:
    """The record of ``deal``: its seed or starting position, and its history."""
    if not isinstance(deal, Deal):
        raise TypeError(f"record_deal expects a Deal, got {type(deal).__name__}")
    start = deal.start
    if deal.seed is None and start is None:
        raise BiribaError("this deal has neither a seed nor a starting position to record")
    score = None
    if deal.is_over:
        score = tuple({part: getattr(t, part) for part in _PARTS} for t in deal.score().teams)
    return DealRecord(
        rules=rules_to_data(deal.rules),
        moves=tuple(str(m) for m in deal.history),
        seed=deal.seed if start is None else None,
        dealer=deal.dealer,
        start=start,
        score=score,
    )


def record_match(match: Match) -> MatchRecord:
    """The record of ``match``: its seed, or where it was resumed (:attr:`Match.start
    <biriba.Match.start>`), and every deal played since it was built."""
    if not isinstance(match, Match):
        raise TypeError(f"record_match expects a Match, got {type(match).__name__}")
    finished = match.finished_deals
    deals = [record_deal(d) for d in finished]
    if not finished or match.deal is not finished[-1]:
        # The deal in progress, or, for a match resumed over, the last deal as it was
        # resumed (counted in the totals already, B9.2).
        deals.append(record_deal(match.deal))
    return MatchRecord(
        rules=rules_to_data(match.rules),
        seed=match.seed,
        deals=tuple(deals),
        totals=match.totals,
        winner=match.winner,
        start=match.start,
    )


# ---------------------------------------------------------------------- JSON
def schema(name: str) -> dict[str, Any]:
    """The JSON Schema shipped with the package: ``"position"`` or ``"record"``.

    Each stands alone: the record schema holds the position schema (a deal's ``start``
    is a position) under ``$defs``, with its own ``$id``, where the record's reference
    to ``position.schema.json`` finds it, so a validator needs no other file."""
    from importlib import resources

    if not isinstance(name, str):
        raise TypeError(f"schema expects a str, got {type(name).__name__}")
    if name not in ("position", "record"):
        raise BiribaError(
            f"no schema named {excerpt(name)}; the schemas are 'position' and 'record'"
        )
    text = resources.files("biriba").joinpath(f"schemas/{name}.schema.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    if name == "record":
        loaded.setdefault("$defs", {})["position"] = schema("position")
    return loaded


def _indent(indent: object) -> int | str | None:
    """``indent`` checked: ``None``, a whole number of spaces from 0 to 16, or a text of
    at most 16 characters to indent with (``"\\t"``, as :func:`json.dumps` takes it); else
    :class:`TypeError` or :class:`~biriba.BiribaError`."""
    if indent is None:
        return None
    if isinstance(indent, str):
        if len(indent) > _MAX_INDENT:
            raise BiribaError(
                f"indent must be at most {_MAX_INDENT} characters, got {excerpt(indent)}"
            )
        return indent
    spaces = check_count(indent, "indent", least=0)
    if spaces > _MAX_INDENT:
        raise BiribaError(f"indent must be at most {_MAX_INDENT} spaces, got {excerpt(spaces)}")
    return spaces


def dumps(record: Record, *, indent: int | str | None = None) -> str:
    """The record as JSON text: on one line, or with ``indent`` spaces a level (a whole
    number from 0 to 16), or that text a level (at most 16 characters, as ``"\\t"``);
    another type raises :class:`TypeError`, another number or a longer text
    :class:`~biriba.BiribaError`. A record whose data cannot be written as JSON (a
    ``start`` changed after the record was made to hold a huge int) raises
    :class:`~biriba.RecordError`."""
    if not isinstance(record, DealRecord | MatchRecord):
        raise TypeError(f"dumps expects a DealRecord or MatchRecord, got {type(record).__name__}")
    spaces = _indent(indent)
    try:
        return json.dumps(record.to_dict(), indent=spaces)
    except (ValueError, RecursionError) as error:
        raise RecordError(f"the record cannot be written as JSON: {reason_of(error)}") from None


def dump(
    record: Record,
    file: str | os.PathLike[str] | IO[str] | IO[bytes],
    *,
    indent: int | str | None = 1,
) -> None:
    """Write the record as JSON to ``file``: a path, or a file open for writing (text, or
    binary, which gets the text in UTF-8), as :func:`load` reads one.

    ``indent`` is as in :func:`dumps`. A file that cannot be written (a path that cannot
    be opened, with a NUL in it, a file closed) raises :class:`~biriba.RecordError`
    quoting at most an excerpt of the path (its cause chained); the record is checked
    and written out as text before the file is opened.
    """
    text = dumps(record, indent=indent) + "\n"
    if isinstance(file, str | os.PathLike):
        try:
            Path(file).write_text(text, encoding="utf-8")
        except (OSError, ValueError) as error:
            raise RecordError(
                f"cannot write the record to {excerpt(str(file))}: {reason_of(error)}"
            ) from error
        return
    write = getattr(file, "write", None)
    if not callable(write):
        raise TypeError(f"dump expects a path or a file, got {type(file).__name__}")
    try:
        if isinstance(file, io.RawIOBase | io.BufferedIOBase):  # open(path, "wb"), BytesIO
            write(text.encode("utf-8"))
        elif isinstance(file, io.TextIOBase):
            write(text)
        else:  # another kind of file (a codecs writer, gzip's): text, else bytes
            try:
                write(text)
            except TypeError:
                write(text.encode("utf-8"))
    except (OSError, ValueError) as error:
        raise RecordError(f"cannot write the record: {reason_of(error)}") from error


def loads(text: str | bytes) -> Record:
    """Read a record from JSON text; raises :class:`~biriba.RecordError` if it is malformed,
    larger than :data:`~biriba.limits.MAX_JSON` characters or nested deeper than
    :data:`~biriba.limits.MAX_DEPTH`."""
    if not isinstance(text, str | bytes):
        raise TypeError(f"loads expects JSON text, got {type(text).__name__}")
    return from_dict(parse_json(text, "record", RecordError))


def load(file: str | os.PathLike[str] | IO[str] | IO[bytes]) -> Record:
    """Read a record from ``file``: a path, or a file open for reading (text or binary).

    Raises :class:`~biriba.RecordError` for a record that is malformed or too large, and
    for a file that cannot be read (a path that cannot be opened, with a NUL in it, a
    file closed), quoting at most an excerpt of the path (its cause chained).
    """
    limit = 4 * MAX_JSON + 1  # bytes enough for MAX_JSON characters, and one more
    if isinstance(file, str | os.PathLike):
        try:
            with open(file, "rb") as opened:
                content: str | bytes = opened.read(limit)
        except (OSError, ValueError) as error:
            raise RecordError(
                f"cannot read the record {excerpt(str(file))}: {reason_of(error)}"
            ) from error
    else:
        read = getattr(file, "read", None)
        if not callable(read):
            raise TypeError(f"load expects a path or a file, got {type(file).__name__}")
        try:
            content = read(limit)
        except OSError as error:
            raise RecordError(f"cannot read the record: {reason_of(error)}") from error
        except UnicodeDecodeError as error:
            raise RecordError(f"a record is JSON text in UTF-8: {error.reason}") from None
        except ValueError as error:  # a file closed
            raise RecordError(f"cannot read the record: {reason_of(error)}") from error
        if not isinstance(content, str | bytes):
            raise TypeError(f"the file's read() gave {type(content).__name__}, not text")
    return loads(content)


def _fail(message: str) -> RecordError:
    return RecordError(f"invalid record: {message}")


def from_dict(data: Any) -> Record:
    """A record from its JSON-ready data; raises :class:`~biriba.RecordError` if it is malformed."""
    if not isinstance(data, Mapping):
        raise _fail(f"a record is a JSON object, got {type(data).__name__}")
    if data.get("format") != FORMAT:
        if "format" not in data and "hands" in data:
            raise _fail(
                "this is a position (Deal.to_dict()), not a record: a record is written by "
                "record_deal or record_match"
            )
        raise _fail(f"the format field must be {FORMAT!r}, got {excerpt(data.get('format'))}")
    version = data.get("version")
    if not is_int(version) or version != VERSION:
        raise _fail(f"this library reads version {VERSION}, got {excerpt(data.get('version'))}")
    kind = data.get("kind")
    if kind == "deal":
        return _deal_record(data, "record")
    if kind == "match":
        deals = data.get("deals")
        if not isinstance(deals, list) or not deals:
            raise _fail("a match record has a non-empty list of deals")
        totals = data.get("totals")
        if not isinstance(totals, list) or not all(is_points(t) for t in totals):
            raise _fail(
                f"totals must be a list of integers, each at most {MAX_POINTS:,} either way"
            )
        winner = data.get("winner")
        if winner is not None and (not is_int(winner) or not 0 <= winner < _MAX_SEATS):
            raise _fail(f"winner must be a team number or null, got {excerpt(winner)}")
        seed = _seed(data.get("seed"), "record")
        start = _match_start(data.get("start"))
        rules = _rules_name(data, "record")
        deal_records = []
        for i, raw in enumerate(deals):
            if not isinstance(raw, Mapping):
                raise _fail(f"deals[{i}] must be an object")
            deal_record = _deal_record({**raw, "rules": raw.get("rules", rules)}, f"deals[{i}]")
            if not _same_rules(deal_record.rules, rules):
                raise _fail(f"deals[{i}]: its rules are not the match's")
            deal_records.append(deal_record)
        return MatchRecord(
            rules=rules,
            seed=seed,
            deals=tuple(deal_records),
            totals=tuple(totals),
            winner=winner,
            start=start,
        )
    raise _fail(f"kind must be 'deal' or 'match', got {excerpt(kind)}")


def _match_start(start: object) -> dict[str, Any] | None:
    """A match record's ``start`` (where a resumed match took up), checked."""
    if start is None:
        return None
    if not isinstance(start, Mapping) or not (
        {"totals", "deals_played"} <= set(start) <= {"totals", "deals_played", "scores"}
    ):
        raise _fail(
            "start must be an object with the keys totals and deals_played (and scores, "
            "if the match was resumed with them), or null"
        )
    totals, played = start["totals"], start["deals_played"]
    if not isinstance(totals, list) or not all(is_points(t) for t in totals):
        raise _fail(
            f"start: totals must be a list of integers, each at most {MAX_POINTS:,} either way"
        )
    if not is_int(played) or played < 0:
        raise _fail("start: deals_played must be a whole number")
    checked: dict[str, Any] = {"totals": list(totals), "deals_played": played}
    if "scores" in start:
        scores = start["scores"]
        if not isinstance(scores, list):  # each checked when the match is resumed
            raise _fail("start: scores must be a list, one score per finished deal")
        checked["scores"] = copy.deepcopy(scores)
    return checked


def _seed(seed: object, where: str) -> int | str | None:
    """A record's ``seed``, checked: an integer (of at most :data:`~biriba.limits.MAX_SEED_DIGITS`
    digits), a string of text (no lone surrogate, :func:`~biriba.limits.check_seed`) or
    null."""
    try:
        return check_seed(seed)
    except (TypeError, BiribaError):
        raise _fail(
            f"{where}: seed must be an integer of at most {MAX_SEED_DIGITS:,} digits, a "
            f"string of text or null"
        ) from None


def _rules_name(data: Mapping[str, Any], where: str) -> str | dict[str, Any]:
    rules = data.get("rules")
    if isinstance(rules, Mapping):
        try:
            return rules_to_data(RuleSet.from_dict(rules))  # a preset unchanged: its name
        except BiribaError as error:
            raise _fail(f"{where}: rules: {error}") from None
    if not isinstance(rules, str) or not rules:
        raise _fail(f"{where}: rules must be a rule set's name or data")
    return rules


def _same_rules(one: str | dict[str, Any], other: str | dict[str, Any]) -> bool:
    """Whether two records' ``rules`` (as :func:`_rules_name` gives them) name the same
    rule set: written alike, or read alike (a name that is no preset, which replay needs
    given, is compared as written)."""
    if one == other:
        return True
    try:
        return same_rules(rules_from_data(one), rules_from_data(other))
    except BiribaError:
        return False


def _deal_record(data: Mapping[str, Any], where: str) -> DealRecord:
    rules = _rules_name(data, where)
    moves = data.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise _fail(f"{where}: moves must be a list of move texts")
    if len(moves) > MAX_MOVES:
        raise _fail(f"{where}: a deal holds at most {MAX_MOVES} moves, got {len(moves)}")
    seed = _seed(data.get("seed"), where)
    start = data.get("start")
    if start is not None and not isinstance(start, Mapping):
        raise _fail(f"{where}: start must be a position (an object) or null")
    if (seed is None) == (start is None):
        raise _fail(f"{where}: give exactly one of seed and start")
    dealer = data.get("dealer", 0)
    if not is_int(dealer) or not 0 <= dealer < _MAX_SEATS:
        raise _fail(f"{where}: dealer must be a seat number, got {excerpt(dealer)}")
    score = data.get("score")
    parsed_score = None
    if score is not None:
        if not isinstance(score, list) or not all(
            isinstance(s, Mapping) and all(is_points(s.get(p)) for p in _PARTS) for s in score
        ):
            raise _fail(
                f"{where}: score must list each team's {', '.join(_PARTS)}, integers each at "
                f"most {MAX_POINTS:,} either way"
            )
        parsed_score = tuple({p: int(s[p]) for p in _PARTS} for s in score)
    return DealRecord(
        rules=rules,
        moves=tuple(moves),
        seed=seed,
        dealer=dealer,
        start=dict(start) if start is not None else None,
        score=parsed_score,
    )


# ---------------------------------------------------------------------- replay
def _rules_of(record: Record, rules: RuleSet | None) -> RuleSet:
    if rules is not None:
        check_rules(rules)
    if rules is not None and record.rules == rules.name:
        return rules  # a file naming a rule set that is not a preset
    try:
        found = rules_from_data(record.rules)
    except BiribaError as error:
        raise RecordError(f"{error}; pass the rule set to replay(record, rules)") from None
    if rules is not None:
        if not same_rules(found, rules):
            raise RecordError(
                f"the record is of rule set {found.name[:40]!r}, not {rules.name[:40]!r}"
            )
        return rules
    return found


def _first_of_match(record: MatchRecord, rules: RuleSet) -> Match:
    """The match a match record starts from, its first deal not played yet: from the
    seed, or for a match resumed from data, from where it was resumed (its totals and
    deals played, and its first deal's starting position)."""
    if record.start is None:
        if record.seed is None:
            raise RecordError("a match record needs the match's seed, or its start, to replay")
        return Match.new(rules, seed=record.seed)
    first = record.deals[0].start
    if first is None:
        raise RecordError(
            "deal 0: a resumed match's record starts from its first deal's position", deal_index=0
        )
    try:
        return Match.from_dict(
            {
                "rules": first.get("rules"),
                "totals": record.start["totals"],
                "dealer": first.get("dealer"),
                "deal": first,
                "deals_played": record.start["deals_played"],
                "scores": record.start.get("scores"),
                "seed": record.seed,
            },
            rules,
        )
    except BiribaError as error:
        raise RecordError(
            f"deal 0: the record's start does not give a match: {error}",
            deal_index=0,
            rule=error.rule,
        ) from None


def _replay_deal(record: DealRecord, rules: RuleSet, deal_index: int | None = None) -> Deal:
    where = "" if deal_index is None else f"deal {deal_index}: "
    try:
        if record.start is not None:
            deal = Deal.from_dict(record.start, rules)
        else:
            deal = Deal.new(rules, seed=record.seed, dealer=record.dealer)
    except BiribaError as error:
        raise RecordError(
            f"{where}the record's start does not give a deal: {error}",
            deal_index=deal_index,
            rule=error.rule,
        ) from None
    for index, text in enumerate(record.moves):
        try:
            deal.play(text)
        except BiribaError as error:
            raise RecordError(
                # (The error quotes the move's text already: quoting it here too would
                # quote the input twice.)
                f"{where}move {index} does not replay: {error}",
                index=index,
                move=text,
                deal_index=deal_index,
                rule=error.rule,
            ) from None
    if record.score is not None:
        if not deal.is_over:
            raise RecordError(f"{where}the record has a final score but the deal is not over")
        got = tuple({p: getattr(t, p) for p in _PARTS} for t in deal.score().teams)
        if got != record.score:
            raise RecordError(
                f"{where}the recorded score {excerpt(list(record.score))} differs from the "
                f"replayed score {list(got)} (B8)",
                deal_index=deal_index,
            )
    return deal


@overload
def replay(record: DealRecord, rules: RuleSet | None = None) -> Deal: ...
@overload
def replay(record: MatchRecord, rules: RuleSet | None = None) -> Match: ...
@overload
def replay(record: Record, rules: RuleSet | None = None) -> Deal | Match: ...
def replay(record: Record, rules: RuleSet | None = None) -> Deal | Match:
    """Re-play a record, checking every move and the final scores.

    Returns the :class:`~biriba.Deal` (for a deal record) or the
    :class:`~biriba.Match` (for a match record) as it stands after the last move.
    Raises :class:`~biriba.RecordError` naming the first move that does not replay, by its index,
    its text and the rule that refuses it. ``rules`` is needed only for a rule set that
    is not a preset; given, it must hold the record's rules (its name aside), and the
    deal or match is played under it.
    """
    if not isinstance(record, DealRecord | MatchRecord):
        raise TypeError(f"replay expects a record, got {type(record).__name__}")
    rules = _rules_of(record, rules)
    if isinstance(record, DealRecord):
        return _replay_deal(record, rules)
    match = _first_of_match(record, rules)
    last = len(record.deals) - 1
    for i, deal_record in enumerate(record.deals):
        resumed_here = i == 0 and record.start is not None  # from its first position
        # A match resumed over (its last deal counted in the totals, B9.2) records that
        # deal alone, as it was resumed.
        if match.is_over and not resumed_here:
            rule = cited(rules, "B9.2")
            raise RecordError(
                f"deal {i}: the match was already over ({rule})", deal_index=i, rule=rule
            )
        expected = match.deal
        if not resumed_here and (
            deal_record.start is not None
            # A match without a seed shuffles each deal from fresh entropy: any seed.
            or (match.seed is not None and deal_record.seed != expected.seed)
            or deal_record.dealer != expected.dealer
        ):
            raise RecordError(
                f"deal {i}: the record's seed or dealer is not the match's deal {i} (B2.1)",
                deal_index=i,
                rule="B2.1",
            )
        deal = _replay_deal(deal_record, rules, i)
        match._replace_deal(deal)
        if deal.is_over:
            # A finished deal was added to the totals (next_deal) unless it is the last
            # one recorded of a match that was not over: that match was recorded before
            # its next_deal(), its totals without the deal.
            if not match.is_over and (i != last or record.winner is not None):
                match.next_deal()
        elif i != last:
            raise RecordError(f"deal {i} is not over, but more deals follow", deal_index=i)
    if tuple(record.totals) != match.totals:
        raise RecordError(
            f"the recorded totals {excerpt(list(record.totals))} differ from the replayed "
            f"{list(match.totals)} (B9.1)",
            rule="B9.1",
        )
    if record.winner != match.winner:
        raise RecordError(
            f"the recorded winner {excerpt(record.winner)} is not the replayed one "
            f"({cited(rules, 'B9.2')})",
            rule=cited(rules, "B9.2"),
        )
    return match
