"""Bad input to the pictures, the terminal game, the records and the replay page (API.md's
errors): a BiribaError (a RecordError for records and files) or a TypeError, a short
message, and nothing changed or written."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from biriba import BiribaError, Card, Deal, Meld, RecordError, records, svg
from biriba.bots import GreedyBot
from biriba.cli import main
from biriba.limits import excerpt
from biriba.records import DealRecord, MatchRecord
from biriba.replay_page import replay_html, write_replay_html
from biriba.terminal import render_table, run_play

#: A score's parts, as a record writes them (B8).
PARTS = ("melded", "bonuses", "hands", "closing", "reserve", "total")
#: The longest message an error on bad input may have: a short excerpt of the input.
SHORT = 300


def deal_record() -> DealRecord:
    deal = Deal.new(seed=1)
    for _ in range(6):
        deal.play(deal.legal_moves()[0])
    return records.record_deal(deal)


def short(error: pytest.ExceptionInfo[BaseException]) -> bool:
    return len(str(error.value)) < SHORT


# ---------------------------------------------------------------------- svg
DRAWINGS: dict[str, Callable[[Any], str]] = {
    "card": lambda size: svg.card(Card.parse("7H"), size=size),
    "meld": lambda size: svg.meld(Meld.parse("3H 4H 5H"), size=size),
    "hand": lambda size: svg.hand([Card.parse("7H"), Card.parse("8S")], size=size),
    "table": lambda size: svg.table(Deal.new(seed=1), size=size),
}


@pytest.mark.parametrize("name", sorted(DRAWINGS))
@pytest.mark.parametrize("size", [10**400, 10**5000, -(10**4000), 10_001], ids=excerpt)
def test_a_picture_s_size_is_bounded(name: str, size: int) -> None:
    # Was OverflowError (10**400), a plain ValueError (10**5000), the whole number in
    # the message (-10**4000), and any width at all.
    with pytest.raises(BiribaError) as error:
        DRAWINGS[name](size)
    assert short(error)
    assert "size" in str(error.value)
    assert 'width="10000"' in DRAWINGS[name](10_000)


# ---------------------------------------------------------------------- terminal
def test_render_table_takes_a_deal() -> None:
    deal = Deal.new(seed=1)
    with pytest.raises(TypeError, match="expects a Deal, got PlayerView"):
        render_table(deal.view(0), 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="got NoneType"):
        render_table(None, 0)  # type: ignore[arg-type]
    assert "Your hand" in render_table(deal, 0)


class _NoFlush:
    def write(self, text: str) -> int:
        return len(text)


@pytest.mark.parametrize(
    "stdin, out, name",
    [
        (None, io.StringIO(), "stdin"),
        (io.StringIO("quit\n"), None, "out"),
        (io.StringIO("quit\n"), _NoFlush(), "out"),
        (5, io.StringIO(), "stdin"),
    ],
    ids=["no stdin", "no out", "out without flush", "an int for stdin"],
)
def test_run_play_takes_text_files(stdin: Any, out: Any, name: str) -> None:
    with pytest.raises(TypeError, match=f"^{name} must be a text file") as error:
        run_play(stdin, out, seed=1)
    assert short(error)
    if isinstance(out, io.StringIO):
        assert out.getvalue() == ""  # refused before anything is written


class _NotUtf8Once:
    """A terminal's input that decodes strictly: its first line is not UTF-8."""

    def __init__(self, text: str) -> None:
        self.lines = io.StringIO(text)
        self.raised = False

    def readline(self) -> str:
        if not self.raised:
            self.raised = True
            raise UnicodeDecodeError("utf-8", b"\xff\xfe\n", 0, 1, "invalid start byte")
        return self.lines.readline()


def test_run_play_says_a_line_is_not_text_and_goes_on() -> None:
    out = io.StringIO()
    assert run_play(_NotUtf8Once("draw\nquit\n"), out, seed=1) == 1  # type: ignore[arg-type]
    said = out.getvalue()
    assert "That line is not UTF-8 text" in said
    assert "You left the table." in said
    assert "Your move (meld or discard):" in said  # the draw after it was played


def test_biriba_play_reads_a_line_that_is_not_utf8_without_a_traceback() -> None:
    # A strict UTF-8 stdin (PYTHONIOENCODING=utf-8, as under LANG=en_US.UTF-8): the bad
    # line's buffer is lost, the input then ends, and the game says so.
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "biriba", "play", "--seed", "1"],
        input=b"draw\n\xff\xfe\n",
        capture_output=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 1
    assert b"Traceback" not in done.stderr, done.stderr
    assert b"That line is not UTF-8 text" in done.stdout
    assert b"Input ended" in done.stdout


def test_run_play_reads_text() -> None:
    out = io.StringIO()
    with pytest.raises(TypeError, match=r"readline\(\) gave bytes"):
        run_play(io.BytesIO(b"quit\n"), out, seed=1)  # type: ignore[arg-type]


def test_B1_1_run_play_takes_a_rule_set_and_a_seat_number() -> None:
    out = io.StringIO()
    with pytest.raises(TypeError, match=r"RuleSet\.named"):
        run_play(io.StringIO("quit\n"), out, seed=1, rules="biriba")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seat"):
        run_play(io.StringIO("quit\n"), out, seed=1, seat="0")  # type: ignore[arg-type]
    with pytest.raises(BiribaError) as error:
        run_play(io.StringIO("quit\n"), out, seed=1, seat=10**5000)
    assert short(error) and error.value.rule == "B1.1"
    assert out.getvalue() == ""


def test_B1_1_run_play_checks_its_bots() -> None:
    out = io.StringIO()
    moves = io.StringIO("1\n" * 200)
    with pytest.raises(BiribaError, match=r"one entry per seat \(4\), got 0") as error:
        run_play(moves, out, seed=1, bots=[])
    assert error.value.rule == "B1.1"
    with pytest.raises(BiribaError, match="got 5"):
        run_play(moves, out, seed=1, bots=[GreedyBot()] * 5)
    with pytest.raises(TypeError, match=r"bots\[1\] must be a bot"):
        run_play(moves, out, seed=1, bots=[None] * 4)  # type: ignore[list-item]
    with pytest.raises(TypeError, match="a list of bots"):
        run_play(moves, out, seed=1, bots=GreedyBot())  # type: ignore[arg-type]
    assert out.getvalue() == "" and moves.tell() == 0  # nothing read, nothing written
    # The entry at the player's own seat is not used.
    bots: list[Any] = [None, GreedyBot(seed=1), GreedyBot(seed=2), GreedyBot(seed=3)]
    assert run_play(io.StringIO("quit\n"), out, seed=1, bots=bots) == 1


# ---------------------------------------------------------------------- records: files
def test_a_path_with_a_nul_is_a_record_error(tmp_path: Path) -> None:
    record = deal_record()
    bad = str(tmp_path / "a\x00b.json")
    with pytest.raises(RecordError, match="null byte") as error:
        records.load(bad)
    assert short(error)
    with pytest.raises(RecordError, match="null byte") as error:
        records.dump(record, bad)
    assert short(error)
    long_path = str(tmp_path / ("x" * 100_000 + "\x00"))
    with pytest.raises(RecordError) as error:
        records.dump(record, long_path)
    assert short(error)
    assert list(tmp_path.iterdir()) == []


def test_a_closed_file_is_a_record_error() -> None:
    record = deal_record()
    closed = io.StringIO()
    closed.close()
    with pytest.raises(RecordError, match="closed file"):
        records.dump(record, closed)
    with pytest.raises(RecordError, match="closed file"):
        records.load(closed)
    closed_bytes = io.BytesIO(records.dumps(record).encode())
    closed_bytes.close()
    with pytest.raises(RecordError, match="closed file"):
        records.load(closed_bytes)


# (Not 10**9 here: before the bound, that asked json for lines of a gigabyte each.)
@pytest.mark.parametrize("indent", [-(10**5000), -1, 17, 100_000, 10**400], ids=excerpt)
def test_the_indent_is_bounded(indent: int, tmp_path: Path) -> None:
    record = deal_record()
    with pytest.raises(BiribaError, match="indent") as error:
        records.dumps(record, indent=indent)
    assert short(error)
    path = tmp_path / "deal.json"
    with pytest.raises(BiribaError, match="indent"):
        records.dump(record, path, indent=indent)
    assert not path.exists()  # nothing written


def test_the_indent_is_a_whole_number_or_a_short_text() -> None:
    record = deal_record()
    for wrong in (1.0, True, b"  "):
        with pytest.raises(TypeError, match="indent"):
            records.dumps(record, indent=wrong)  # type: ignore[arg-type]
    with pytest.raises(BiribaError, match="at most 16 characters"):
        records.dumps(record, indent=" " * 17)
    for right in (None, 0, 1, 16, "\t", "  "):  # a text as json.dumps takes it
        assert records.loads(records.dumps(record, indent=right)) == record
    assert "\n\t" in records.dumps(record, indent="\t")


# ---------------------------------------------------------------------- records: fields
def test_a_deal_record_checks_its_fields() -> None:
    good: dict[str, Any] = {"rules": "biriba", "moves": ("draw",), "seed": 1}
    replayed = records.replay(DealRecord(**good))
    assert isinstance(replayed, Deal) and replayed.history[0].keyword == "draw"
    wrong_types: list[dict[str, Any]] = [
        {"rules": 5},
        {"rules": None},
        {"moves": "draw"},
        {"moves": (1,)},
        {"moves": None},
        {"seed": 1.5},
        {"dealer": "0"},
        {"dealer": True},
        {"dealer": None},
        {"seed": None, "start": ["a", "position"]},
        {"score": "0"},
        {"score": (5, 5)},
        {"score": ({p: "1" for p in PARTS},)},
    ]
    for change in wrong_types:
        with pytest.raises(TypeError) as error:
            DealRecord(**{**good, **change})
        assert short(error), change
    nested: dict[str, Any] = {}
    for _ in range(2_000):
        nested = {"a": nested}
    wrong_values: list[dict[str, Any]] = [
        {"rules": ""},
        {"rules": nested},
        {"seed": 10**5000},
        {"dealer": 10**5000},
        {"dealer": -(10**5000)},
        {"dealer": -1},
        {"seed": None},  # neither seed nor start
        {"start": {"rules": "biriba"}},  # both
        {"seed": None, "start": nested},
        {"moves": ("draw",) * 100_001},
        {"score": ({"total": 5},)},
        {"score": ({p: 10**5000 for p in PARTS},)},
    ]
    for change in wrong_values:
        with pytest.raises(RecordError) as refused:
            DealRecord(**{**good, **change})
        assert short(refused), change


def test_a_match_record_checks_its_fields() -> None:
    deal = DealRecord(rules="biriba", moves=(), seed="1/0", dealer=3)
    good: dict[str, Any] = {"rules": "biriba", "seed": 1, "deals": (deal,), "totals": (0, 0)}
    assert MatchRecord(**good).to_dict()["deals"][0]["dealer"] == 3
    wrong_types: list[dict[str, Any]] = [
        {"deals": (5,)},
        {"deals": deal},
        {"deals": None},
        {"totals": ("0", 0)},
        {"totals": 0},
        {"winner": "0"},
        {"seed": b"1"},
        {"rules": 1},
        {"start": "resumed"},
    ]
    for change in wrong_types:
        with pytest.raises(TypeError) as error:
            MatchRecord(**{**good, **change})
        assert short(error), change
    wrong_values: list[dict[str, Any]] = [
        {"deals": ()},
        {"totals": (10**5000, 0)},
        {"totals": (10**16, 0)},
        {"winner": 10**5000},
        {"winner": -1},
        {"seed": -(10**5000)},
        {"start": {"totals": [0, 0]}},
        {"start": {"totals": "0", "deals_played": 1}},
    ]
    for change in wrong_values:
        with pytest.raises(RecordError) as refused:
            MatchRecord(**{**good, **change})
        assert short(refused), change


def test_dumps_of_data_that_is_no_json_is_a_record_error() -> None:
    # A start is checked in full when replayed: dumps of one holding a huge int (or
    # changed after the record was made) is refused, not a plain ValueError.
    huge = DealRecord(rules="biriba", moves=(), start={"dealer": 10**5000})
    with pytest.raises(RecordError, match="cannot be written as JSON") as error:
        records.dumps(huge)
    assert short(error)
    with pytest.raises(RecordError):
        records.replay(huge)


def test_loads_refuses_a_dealer_or_winner_out_of_range() -> None:
    data = deal_record().to_dict()
    for dealer in (-1, 10**1000):
        text = json.dumps({**data, "dealer": dealer})
        with pytest.raises(RecordError, match="dealer must be a seat number") as error:
            records.loads(text)
        assert short(error)
    match = {
        "format": records.FORMAT,
        "version": records.VERSION,
        "kind": "match",
        "rules": "biriba",
        "seed": 1,
        "deals": [{k: v for k, v in data.items() if k not in ("format", "version", "kind")}],
        "totals": [0, 0],
        "winner": 10**1000,
    }
    with pytest.raises(RecordError, match="winner must be a team number") as error:
        records.loads(json.dumps(match))
    assert short(error)


# ---------------------------------------------------------------------- replay page
def test_write_replay_html_wraps_file_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = deal_record()
    before = sorted(tmp_path.iterdir())
    for path in (
        tmp_path / "missing" / "x.html",
        tmp_path,  # a folder
        str(tmp_path / "a\x00b.html"),
        str(tmp_path / ("x" * 100_000)),
    ):
        with pytest.raises(RecordError, match="cannot write the replay page") as error:
            write_replay_html(record, path)
        assert short(error)
        assert error.value.__cause__ is not None
    assert sorted(tmp_path.iterdir()) == before
    # The command says so in one line, as it does for a file it cannot read.
    saved = tmp_path / "deal.json"
    records.dump(record, saved)
    code = main(["replay", str(saved), "--html", str(tmp_path / "missing" / "x.html")])
    assert code == 2
    assert capsys.readouterr().err.startswith("biriba: cannot write")


def test_the_page_s_title_is_short_text_utf8_can_write(tmp_path: Path) -> None:
    record = deal_record()
    path = tmp_path / "page.html"
    for title in ("\udcff", "ok \ud800"):
        with pytest.raises(BiribaError, match="UTF-8") as error:
            write_replay_html(record, path, title=title)
        assert short(error)
        with pytest.raises(BiribaError, match="UTF-8"):
            replay_html(record, title=title)
    with pytest.raises(BiribaError, match="longer than 1,000 characters") as error:
        write_replay_html(record, path, title="t" * 100_000)
    assert short(error) and type(error.value) is BiribaError
    assert not path.exists()  # nothing written, not even a part of the page
    write_replay_html(record, path, title="é ♥ " * 200)
    assert "é ♥" in path.read_text(encoding="utf-8")
