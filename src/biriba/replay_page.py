"""A game record as one web page that steps through every move.

:func:`replay_html` returns the page and :func:`write_replay_html` writes it; the command
line's ``biriba replay RECORD.json --html out.html`` does the same. The page is one
self-contained file: the pictures are inline SVG (:func:`biriba.svg.frames`), with its
styles and a short script, and it fetches nothing, so it works offline and can be mailed
or attached to a bug report. The drawings of every step are stored once each, gzipped,
and unpacked by the browser (``DecompressionStream``: Chrome and Edge 80, Firefox 113,
Safari 16.4 and later); a deal of about 250 moves makes a page of about 50 kilobytes. A
page shows at most :data:`MAX_PAGE_MOVES` moves (20,000): a longer record is refused
with a :class:`~biriba.BiribaError` before any work.

The page shows the table after each move (every hand face up), the move's text and who
played it, whose turn it is and the score as it stands (for a match, with the totals of
the deals before). The buttons, the slider and the keys step through it: ← and → a
move, Home and End the first and last moves, ↑ and ↓ (or Page Up and Page Down) the
previous and next deal of a match.

>>> import random
>>> from biriba import Deal, records
>>> from biriba.replay_page import replay_html
>>> deal = Deal.new(seed=4)
>>> rng = random.Random(4)
>>> for _ in range(30):
...     deal.play(rng.choice(deal.legal_moves()))
>>> page = replay_html(records.record_deal(deal))
>>> page.startswith("<!DOCTYPE html>")
True
"""

from __future__ import annotations

import base64
import gzip
import json
from collections.abc import Mapping
from html import escape
from os import PathLike
from pathlib import Path
from typing import Any, Final

import attrs

from biriba.deal import Deal
from biriba.errors import BiribaError, RecordError
from biriba.limits import MAX_TEXT, excerpt, is_text, reason_of
from biriba.match import Match
from biriba.records import DealRecord, MatchRecord, replay
from biriba.rules import RuleSet
from biriba.svg import Table, frames, table_of

__all__ = ["MAX_PAGE_MOVES", "replay_html", "write_replay_html"]

#: The most moves a replay page shows, over all the deals of its record: each is a
#: picture, and a page takes about half a millisecond a move to make (20,000 moves, 12
#: seconds and 185 MB). A random deal has 250 to 1,000 moves; a match of random bots may
#: run to tens of thousands (50,576 in one of ``biriba-3``), a page of each deal then
#: shows it; a record may hold 100,000 moves a deal (:data:`biriba.limits.MAX_MOVES`),
#: which would take minutes.
MAX_PAGE_MOVES: Final = 20_000


def _deal_tables(deal: Deal) -> list[Table]:
    """The table before the first move and after each move of ``deal``."""
    tables = []
    cursor = deal.copy()
    tables.append(table_of(cursor))
    while cursor.history:
        cursor.undo()
        tables.append(table_of(cursor))
    tables.reverse()
    return tables


@attrs.frozen
class _Step:
    table: Table
    deal: int
    where: str
    #: What the step shows when no move has been played yet (a deal's first step): the
    #: deal as dealt, or the position it started from.
    opening: str = ""


def _opening(deal: Deal) -> str:
    """How a deal's first step is captioned: a deal dealt, or one built from a position."""
    return "the deal as dealt" if deal.start is None else "the position the deal started from"


def _steps(result: Deal | Match) -> list[_Step]:
    if isinstance(result, Deal):
        tables = _deal_tables(result)
        last = len(tables) - 1
        opening = _opening(result)
        return [
            _Step(t, 0, f"move {i} of {last}", "" if i else opening) for i, t in enumerate(tables)
        ]
    deals = list(result.finished_deals)
    steps = []
    # A match resumed from data begins with the totals and the deals played before.
    start = result.start
    totals = tuple(start["totals"]) if start else (0,) * result.rules.teams
    before = start["deals_played"] if start else 0
    if not result.is_over:
        deals.append(result.deal)
    elif not deals:
        # Resumed once over: its last deal alone, whose score the totals already hold.
        deals.append(result.deal)
        totals = tuple(a - s.total for a, s in zip(totals, result.deal.score().teams, strict=True))
        before -= 1
    for index, deal in enumerate(deals):
        tables = _deal_tables(deal)
        last = len(tables) - 1
        number = before + index
        opening = _opening(deal)
        for i, t in enumerate(tables):
            shown = attrs.evolve(t, deal_index=number, match_totals=totals)
            steps.append(
                _Step(
                    shown,
                    index,
                    f"deal {number + 1} of {before + len(deals)} · move {i} of {last}",
                    "" if i else opening,
                )
            )
        if index < len(result.finished_deals):
            totals = tuple(a + s.total for a, s in zip(totals, deal.score().teams, strict=True))
    if result.is_over and steps:  # B9.2: the last step says how the match ended
        final = " · ".join(f"team {t} {total}" for t, total in enumerate(result.totals))
        ended = f"{steps[-1].where} · match over: {final}, team {result.winner} wins"
        steps[-1] = attrs.evolve(steps[-1], where=ended)
    return steps


_STYLE: Final = """
body{margin:0;background:#10301f;color:#f6f4ea;font:15px DejaVu Sans,Verdana,Arial,sans-serif}
header{display:flex;flex-wrap:wrap;align-items:center;gap:6px 16px;padding:8px 14px}
h1{font-size:18px;margin:0;font-weight:bold}
nav{display:flex;gap:6px;align-items:center}
button{font:inherit;min-width:42px;padding:3px 8px;border-radius:6px;border:1px solid #8fb9a0;
background:#1d5c3a;color:#f6f4ea;cursor:pointer}
button:hover,button:focus{background:#2b7a4f}
input[type=range]{width:260px}
#where{font-weight:bold}
#info{display:flex;flex-wrap:wrap;gap:4px 24px;padding:0 14px 8px}
#move{color:#ff7cc0;font-weight:bold;min-width:18em}
#turn{color:#ffe45c;font-weight:bold}
main{padding:0 8px}
main svg{display:block;width:100%;height:auto;max-height:calc(100vh - 120px)}
.help{color:#b8d4c3;font-size:13px;padding:4px 14px 10px;margin:0}
"""

_SCRIPT: Final = """
"use strict";
const frame = document.getElementById("frame");
const slider = document.getElementById("slider");
let PARTS = [], STEPS = [], DEALS = [];
let at = -1;
function show(i) {
  if (!STEPS.length) return;
  i = Math.max(0, Math.min(STEPS.length - 1, i));
  if (i === at) return;
  at = i;
  const step = STEPS[i];
  frame.innerHTML = step[1].map(k => PARTS[k]).join("");
  document.getElementById("where").textContent = step[2];
  document.getElementById("move").textContent = step[3];
  document.getElementById("turn").textContent = step[4];
  document.getElementById("score").textContent = step[5];
  slider.value = String(i);
  document.body.dataset.step = String(i);
}
// The start of the next deal, or of this one (or the one before, from its start); false,
// the key left to the browser, when there is no such deal.
function deal(delta) {
  if (!STEPS.length) return false;
  const current = STEPS[at][0];
  let target = current + delta;
  if (delta < 0 && at !== DEALS[current]) target = current;
  if (target < 0 || target >= DEALS.length) return false;
  show(DEALS[target]);
  return true;
}
const keys = {
  ArrowRight: () => show(at + 1), ArrowLeft: () => show(at - 1),
  Home: () => show(0), End: () => show(STEPS.length - 1),
  ArrowDown: () => deal(1), PageDown: () => deal(1),
  ArrowUp: () => deal(-1), PageUp: () => deal(-1),
};
document.addEventListener("keydown", event => {
  const act = keys[event.key];
  if (act && !event.altKey && !event.ctrlKey && !event.metaKey && act() !== false) {
    event.preventDefault();
  }
});
document.getElementById("first").onclick = () => show(0);
document.getElementById("previous").onclick = () => show(at - 1);
document.getElementById("next").onclick = () => show(at + 1);
document.getElementById("last").onclick = () => show(STEPS.length - 1);
document.getElementById("previous-deal").onclick = () => deal(-1);
document.getElementById("next-deal").onclick = () => deal(1);
slider.oninput = () => show(Number(slider.value));
// The drawings and the steps travel gzipped in base64 (about a twentieth of their size);
// the browser unpacks them with its own DecompressionStream.
async function unpack(text) {
  const bytes = Uint8Array.from(atob(text), c => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}
if (typeof DecompressionStream === "undefined") {
  document.getElementById("move").textContent =
    "This browser cannot unpack the page (it needs DecompressionStream).";
} else {
  unpack(PACKED).then(data => {
    [PARTS, STEPS, DEALS] = [data.parts, data.steps, data.deals];
    slider.max = String(STEPS.length - 1);
    show(0);
  });
}
"""


def _pack(value: Any) -> str:
    """``value`` as JSON, gzipped (with no time stamp, so the same record gives the same
    page) and in base64: text that is safe inside a ``<script>`` element."""
    raw = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return base64.b64encode(gzip.compress(raw, compresslevel=9, mtime=0)).decode("ascii")


def _check_title(title: object) -> None:
    """A page's title: a str of at most :data:`~biriba.limits.MAX_TEXT` characters, every
    one of which UTF-8 can write."""
    if not isinstance(title, str):
        raise TypeError(f"title must be a str, got {type(title).__name__}")
    if len(title) > MAX_TEXT:
        raise BiribaError(
            f"title {excerpt(title)} is longer than {MAX_TEXT:,} characters, a page title's most"
        )
    if not is_text(title):
        raise BiribaError(
            f"title {excerpt(title)} is not text UTF-8 can write: it holds a lone surrogate"
        )


def replay_html(
    record: DealRecord | MatchRecord,
    *,
    rules: RuleSet | None = None,
    bottom: int = 0,
    colors: Mapping[str, str] | None = None,
    title: str | None = None,
) -> str:
    """The replay page of a deal or match record, as HTML text.

    The record is replayed first (:func:`biriba.records.replay`, which raises
    :class:`~biriba.RecordError` at the first move that does not replay); ``rules`` is
    needed only for a rule set that is not a preset. ``bottom`` is the seat drawn at the
    bottom, ``colors`` as in :mod:`biriba.svg`, ``title`` the page's title: a str of at
    most :data:`~biriba.limits.MAX_TEXT` characters that UTF-8 can write (no lone
    surrogate), else :class:`~biriba.BiribaError` (:class:`TypeError` for another type).
    """
    if not isinstance(record, DealRecord | MatchRecord):
        raise TypeError(f"replay_html expects a record, got {type(record).__name__}")
    if title is not None:
        _check_title(title)
    deals = record.deals if isinstance(record, MatchRecord) else (record,)
    moves = sum(len(deal.moves) for deal in deals)
    if moves > MAX_PAGE_MOVES:
        raise BiribaError(
            f"a replay page shows at most {MAX_PAGE_MOVES:,} moves (a picture each), and "
            f"the record holds {moves:,}: write a page of each deal, or of fewer deals"
        )
    result = replay(record, rules)
    steps = _steps(result)
    drawn = frames([s.table for s in steps], bottom=bottom, colors=colors)
    index: dict[str, int] = {}
    parts: list[str] = []
    encoded = []
    for step, step_parts in zip(steps, drawn.parts, strict=True):
        ids = []
        for part in step_parts:
            found = index.get(part)
            if found is None:
                found = index[part] = len(parts)
                parts.append(part)
            ids.append(found)
        t = step.table
        move = t.move_text() or step.opening
        encoded.append([step.deal, ids, step.where, move, t.turn_text(), t.score_text()])
    starts = [i for i, s in enumerate(steps) if i == 0 or s.deal != steps[i - 1].deal]
    if title is None:
        kind = "match" if isinstance(record, MatchRecord) else "deal"
        seed = "" if record.seed is None else f", seed {record.seed}"
        title = f"{result.rules.name} {kind}{seed}"
    match_buttons = "" if len(starts) > 1 else ' hidden=""'
    packed = _pack({"parts": parts, "steps": encoded, "deals": starts})
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>{escape(title)}</title>
<style>{_STYLE}</style>
</head>
<body>
<header>
<h1>{escape(title)}</h1>
<nav>
<button id="previous-deal" title="previous deal (↑)"{match_buttons}>◀ deal</button>
<button id="first" title="first move (Home)">first</button>
<button id="previous" title="previous move (←)">◀</button>
<button id="next" title="next move (→)">▶</button>
<button id="last" title="last move (End)">last</button>
<button id="next-deal" title="next deal (↓)"{match_buttons}>deal ▶</button>
<input id="slider" type="range" min="0" max="0" value="0" aria-label="move">
</nav>
<span id="where"></span>
</header>
<section id="info"><span id="move"></span><span id="turn"></span><span id="score"></span></section>
<main>
<svg id="board" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {drawn.width:g} {drawn.height:g}" \
font-family="DejaVu Sans, Verdana, Arial, sans-serif">{drawn.defs}<g id="frame"></g></svg>
</main>
<p class="help">← → a move · Home End the first and last · ↑ ↓ the previous and next deal</p>
<script>
const PACKED = "{packed}";
{_SCRIPT}</script>
</body>
</html>
"""


def write_replay_html(
    record: DealRecord | MatchRecord,
    path: str | PathLike[str],
    *,
    rules: RuleSet | None = None,
    bottom: int = 0,
    colors: Mapping[str, str] | None = None,
    title: str | None = None,
) -> None:
    """Write the replay page of ``record`` (:func:`replay_html`) to ``path``, in UTF-8.

    The page is made in full, and its text encoded, before the file is opened: a record
    or an option refused (as by :func:`replay_html`) writes nothing. A file that cannot
    be written (a missing folder, a folder, a NUL in the path, a name too long) raises
    :class:`~biriba.RecordError` quoting at most an excerpt of the path, its cause
    chained.
    """
    if not isinstance(path, str | PathLike):
        raise TypeError(f"path must be a str or a path, got {type(path).__name__}")
    page = replay_html(record, rules=rules, bottom=bottom, colors=colors, title=title)
    try:
        data = page.encode("utf-8")
    except UnicodeEncodeError as error:  # (text read unchecked, should any be)
        raise BiribaError(f"the page is not text UTF-8 can write: {error.reason}") from None
    try:
        Path(path).write_bytes(data)
    except (OSError, ValueError) as error:
        raise RecordError(
            f"cannot write the replay page to {excerpt(str(path))}: {reason_of(error)}"
        ) from error
