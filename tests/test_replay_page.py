"""The replay page (biriba.replay_page and ``biriba replay``): one self-contained file that
steps through a deal or a match, checked as text and in a real headless Chromium."""

from __future__ import annotations

import base64
import gzip
import io
import json
import random
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from biriba import BIRIBA, Deal, Match, RecordError, records
from biriba.cli import main
from biriba.replay_page import replay_html, write_replay_html
from tests.browser import Browser, find_chromium, png_pixels


def random_deal(seed: int, moves: int | None = None) -> Deal:
    deal = Deal.new(seed=seed, dealer=seed % 4)
    rng = random.Random(seed)
    while not deal.is_over and (moves is None or len(deal.history) < moves):
        deal.play(rng.choice(deal.legal_moves()))
    return deal


def two_deal_match() -> Match:
    """A match whose first deal is over and whose second is 25 moves in."""
    match = Match.new(seed=9)
    rng = random.Random(9)
    while not match.deal.is_over:
        match.deal.play(rng.choice(match.deal.legal_moves()))
    match.next_deal()
    for _ in range(25):
        match.deal.play(rng.choice(match.deal.legal_moves()))
    return match


def page_data(page: str) -> tuple[list[str], list[list[Any]], list[int]]:
    """The parts, the steps and the first step of each deal, as the page's script unpacks
    them (gzipped JSON in base64)."""
    match = re.search(r'^const PACKED = "([A-Za-z0-9+/=]*)";$', page, re.MULTILINE)
    assert match
    data = json.loads(gzip.decompress(base64.b64decode(match[1])))
    return data["parts"], data["steps"], data["deals"]


def board(page: str) -> tuple[str, str]:
    """The opening tag and the definitions of the page's picture."""
    match = re.search(r'(<svg id="board"[^>]*>)(.*?)<g id="frame"></g></svg>', page, re.DOTALL)
    assert match
    return match[1], match[2]


def test_the_first_step_says_whether_the_deal_was_dealt_or_began_from_a_position() -> None:
    dealt = random_deal(2, 10)
    assert page_data(replay_html(records.record_deal(dealt)))[1][0][3] == "the deal as dealt"
    started = Deal.from_dict(dealt.to_dict())
    started.play(started.legal_moves()[0])
    steps = page_data(replay_html(records.record_deal(started)))[1]
    assert steps[0][3] == "the position the deal started from"
    assert steps[1][3].endswith(str(started.history[0]))


def test_a_finished_match_says_how_it_ended_at_its_last_step() -> None:
    # B9.2: the totals and the winner, which the score line (the totals before the deal)
    # does not give.
    match = Match.new(seed=3)
    rng = random.Random(3)
    while not match.is_over:
        while not match.deal.is_over:
            match.deal.play(rng.choice(match.deal.legal_moves()))
        match.next_deal()
    steps = page_data(replay_html(records.record_match(match)))[1]
    final = " · ".join(f"team {t} {total}" for t, total in enumerate(match.totals))
    assert steps[-1][2].endswith(f" · match over: {final}, team {match.winner} wins")
    assert "match over" not in steps[-2][2]
    unfinished = page_data(replay_html(records.record_match(two_deal_match())))[1]
    assert all("match over" not in step[2] for step in unfinished)


def test_a_deal_page_has_a_step_per_move_each_a_well_formed_picture() -> None:
    deal = random_deal(1)
    page = replay_html(records.record_deal(deal))
    parts, steps, starts = page_data(page)
    assert len(steps) == len(deal.history) + 1
    assert starts == [0]
    opening, defs = board(page)
    for step in steps:
        ET.fromstring(opening + defs + "".join(parts[i] for i in step[1]) + "</svg>")
    # the move text names the seat that played it, as a replay finds it
    again = Deal.new(seed=1, dealer=1)
    for i, move in enumerate(deal.history, 1):
        seat = again.to_move
        again.play(move)
        assert steps[i][3] == f"seat {seat}: {move}"
        assert steps[i][4] == (
            f"seat {again.to_move} to {again.phase.value}" if not again.is_over else steps[i][4]
        )
        score = " · ".join(f"team {t} {s.total}" for t, s in enumerate(again.score().teams))
        assert steps[i][5] == f"score: {score}"
    assert steps[0][3] == "the deal as dealt"  # (no move yet)
    assert steps[-1][4].startswith("deal over")


def test_a_page_fetches_nothing() -> None:
    page = replay_html(records.record_deal(random_deal(2, 40)))
    assert not re.search(r"""(src|href)\s*=\s*["'](?!#|data:)""", page)
    assert "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "<script src" not in page and "@import" not in page


def test_a_match_page_steps_through_every_deal() -> None:
    match = two_deal_match()
    record = records.record_match(match)
    page = replay_html(record, bottom=1, title="two deals")
    _, steps, starts = page_data(page)
    first, second = record.deals
    assert starts == [0, len(first.moves) + 1]
    assert len(steps) == len(first.moves) + len(second.moves) + 2
    assert [s[0] for s in steps] == [0] * starts[1] + [1] * (len(steps) - starts[1])
    totals = " · ".join(str(t) for t in match.totals)
    assert steps[-1][5].endswith(f"(match before this deal: {totals})")
    assert steps[0][5].endswith("(match before this deal: 0 · 0)")
    assert "<title>two deals</title>" in page


def test_a_resumed_match_page_starts_from_the_totals_it_took_up() -> None:
    # Resumed from data, with its scores or with the four keys only: the page's totals
    # begin where the match took up, and its deals are numbered as the match's.
    saved = two_deal_match()
    rng = random.Random(3)
    while not saved.deal.is_over:
        saved.deal.play(rng.choice(saved.deal.legal_moves()))
    saved.next_deal()
    data = saved.to_dict()
    short = {k: data[k] for k in ("rules", "totals", "dealer", "deal")}
    for resumed, first in ((Match.from_dict(data), 3), (Match.from_dict(short), 1)):
        before = resumed.totals
        assert before != (0, 0)
        while not resumed.deal.is_over:
            resumed.deal.play(rng.choice(resumed.deal.legal_moves()))
        resumed.next_deal()
        after = resumed.totals
        for _ in range(10):
            resumed.deal.play(rng.choice(resumed.deal.legal_moves()))
        _, steps, starts = page_data(replay_html(records.record_match(resumed)))
        assert len(starts) == 2
        assert steps[0][5].endswith(f"(match before this deal: {before[0]} · {before[1]})")
        assert steps[-1][5].endswith(f"(match before this deal: {after[0]} · {after[1]})")
        # (numbered from the deals played before, which the four keys do not give)
        assert steps[0][2].startswith(f"deal {first} of {first + 1}")
        assert steps[-1][2].startswith(f"deal {first + 1} of {first + 1}")


def test_a_match_resumed_once_over_shows_its_last_deal() -> None:
    # Its record keeps the last deal alone (records.rst), whose score the totals hold.
    match = Match.new(BIRIBA.evolve(name="short", target=50), seed=3)
    rng = random.Random(2)
    while not match.is_over:
        while not match.deal.is_over:
            match.deal.play(rng.choice(match.deal.legal_moves()))
        match.next_deal()
    last = match.scores[-1].teams
    before = [t - s.total for t, s in zip(match.totals, last, strict=True)]
    resumed = Match.from_dict(match.to_dict())
    _, steps, starts = page_data(replay_html(records.record_match(resumed)))
    assert starts == [0] and steps
    number = match.deals_played
    assert steps[-1][2].startswith(f"deal {number} of {number}")
    assert steps[-1][5].endswith(f"(match before this deal: {before[0]} · {before[1]})")


def test_a_record_that_does_not_replay_is_refused() -> None:
    record = records.record_deal(random_deal(3, 10))
    broken = records.DealRecord(rules="biriba", moves=("draw", "draw"), seed=record.seed)
    with pytest.raises(RecordError):
        replay_html(broken)
    with pytest.raises(TypeError):
        replay_html(Deal.new(seed=1))  # type: ignore[arg-type]


def test_write_replay_html_and_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = records.record_deal(random_deal(4, 30))
    path = tmp_path / "deal.json"
    path.write_text(records.dumps(record))
    written = tmp_path / "a.html"
    write_replay_html(record, written)
    out = io.StringIO()
    assert main(["replay", str(path), "--html", str(tmp_path / "b.html")], out) == 0
    assert "wrote" in out.getvalue()
    assert written.read_text(encoding="utf-8") == (tmp_path / "b.html").read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(tmp_path / "missing.json"), "--html", str(written)], out) == 2
    # as validate says it: on stderr, one line naming the command
    assert capsys.readouterr().err.startswith("biriba: cannot read ")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "biriba-record"}')
    assert main(["replay", str(bad), "--html", str(written)], io.StringIO()) == 2
    with pytest.raises(TypeError):
        write_replay_html(record, 5)  # type: ignore[arg-type]


# ---------------------------------------------------------------------- in a browser
WIDTH, HEIGHT = 1024, 768
KEYS = {
    "ArrowRight": 39,
    "ArrowLeft": 37,
    "Home": 36,
    "End": 35,
    "ArrowDown": 40,
    "ArrowUp": 38,
    "PageDown": 34,
}


@pytest.fixture(scope="module")
def browser() -> Any:
    executable = find_chromium()
    if executable is None:
        pytest.skip(
            "NO BROWSER: no chromium found (or no POSIX pipes to drive it), so the replay "
            "page was not opened in a browser (.ci/run installs chromium with apt-get; or "
            "set BIRIBA_CHROMIUM to a browser's path)"
        )
    with Browser(executable, WIDTH, HEIGHT) as opened:
        yield opened


def test_the_page_in_a_headless_browser(browser: Browser, tmp_path: Path) -> None:
    match = two_deal_match()
    record = records.record_match(match)
    path = tmp_path / "match.html"
    write_replay_html(record, path)
    _, steps, starts = page_data(path.read_text(encoding="utf-8"))
    browser.open(path.as_uri())
    browser.wait_until("document.body.dataset.step === '0'")  # the data unpacked

    def state() -> tuple[int, str, str]:
        step = int(browser.evaluate("document.body.dataset.step"))
        move = browser.evaluate("document.getElementById('move').textContent")
        frame = browser.evaluate("document.getElementById('frame').innerHTML")
        return step, move, frame

    def press(key: str) -> None:
        browser.press(key, KEYS[key])

    step, move, first_frame = state()
    assert step == 0 and move == "the deal as dealt"
    assert browser.evaluate("document.querySelectorAll('#frame use').length") > 40
    for expected in (1, 2, 3):
        press("ArrowRight")
        step, move, frame = state()
        assert step == expected and move == steps[expected][3]
    assert frame != first_frame
    press("ArrowLeft")
    assert state()[0] == 2
    press("End")
    assert state()[0] == len(steps) - 1
    press("ArrowRight")  # nothing after the last move
    assert state()[0] == len(steps) - 1
    press("ArrowUp")  # the start of this deal, the second
    assert state()[0] == starts[1]
    press("ArrowUp")
    assert state()[0] == 0
    press("ArrowDown")
    assert state()[0] == starts[1]
    press("ArrowRight")
    press("ArrowDown")  # no deal after the last: nothing moves (it went back to its start)
    assert state()[0] == starts[1] + 1
    press("PageDown")
    assert state()[0] == starts[1] + 1
    press("Home")
    assert state()[0] == 0
    browser.evaluate("document.getElementById('next').click()")
    assert state()[0] == 1
    press("ArrowRight")
    assert browser.evaluate("document.getElementById('turn').textContent") == steps[2][4]
    assert browser.evaluate("document.getElementById('score').textContent") == steps[2][5]

    png = browser.screenshot()
    width, height, channels, rows = png_pixels(png)
    assert (width, height) == (WIDTH, HEIGHT)
    pixels = Counter(row[i : i + 3] for row in rows[::3] for i in range(0, len(row), 3 * channels))
    assert len(pixels) > 50, "the screenshot is (nearly) blank"
    assert pixels.most_common(1)[0][1] < 0.9 * pixels.total()

    assert browser.errors() == []
    assert all(url.startswith(("file:", "data:")) for url in browser.requested())


def test_a_record_longer_than_a_page_holds_is_refused_before_any_work() -> None:
    """A deal may go on for ever by takes and discards, and a record may hold 100,000
    moves a deal; a page of 20,000 took 12 seconds: past MAX_PAGE_MOVES the record is
    refused before it is replayed (its moves do not replay: the replay would raise a
    RecordError), with a BiribaError that says what to do."""
    import attrs

    from biriba import BiribaError
    from biriba.replay_page import MAX_PAGE_MOVES

    record = records.record_deal(Deal.new(seed=1))
    long = attrs.evolve(record, moves=("draw", "fold") * (MAX_PAGE_MOVES // 2 + 1))
    with pytest.raises(BiribaError, match=r"at most 20,000 moves .* holds 20,002") as info:
        replay_html(long)
    assert not isinstance(info.value, RecordError)
    # A match record counts the moves of all its deals.
    match = records.record_match(Match.new(seed=1))
    deals = (attrs.evolve(match.deals[0], moves=("draw",) * 10_001),) * 2
    with pytest.raises(BiribaError, match="holds 20,002"):
        replay_html(attrs.evolve(match, deals=deals))
