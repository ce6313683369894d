"""Write the performance page's tables from the JSON results of ``benchmarks/run.py`` and
``benchmarks/search.py``.

Each results file of ``run.py`` becomes a column pair (the figure, and the figure per
OpenSpiel gin rummy game of the same run): typically one file of the pure Python build and
one of the compiled build. Results of ``search.py`` make the search table, one block of
rows for each file. ``--write docs/performance.rst`` replaces the part of the page between
the lines ``.. figures-start`` and ``.. figures-end`` (and ``.. search-start`` and
``.. search-end`` when search results are given); without it the tables are printed.

Run ``python benchmarks/table.py pure.json [compiled.json] [search.json ...]
[--write docs/performance.rst]``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

MARKS = {
    "figures": (".. figures-start", ".. figures-end"),
    "search": (".. search-start", ".. search-end"),
}

#: (label, key in the results, kind): a "rate" is per second; "us" microseconds per call;
#: "triple" the cold / regenerated / cached rates of legal_moves(); "share", "number".
ROWS: tuple[tuple[str, str, str], ...] = (
    ("random deals / s (checked ``play``)", "random_deals_per_s", "rate"),
    ("the same, garbage collector disabled", "random_deals_per_s_no_gc", "rate"),
    ("share of random deals' time in the collector", "gc_share_of_random_deals", "share"),
    ("moves per deal", "moves_per_deal", "number"),
    ("random Buraco deals / s", "random_buraco_deals_per_s", "rate"),
    ("the same, garbage collector disabled", "random_buraco_deals_per_s_no_gc", "rate"),
    ("share of Buraco deals' time in the collector", "buraco_gc_share", "share"),
    ("Buraco deals / Biriba deals", "buraco_to_biriba_deals", "ratio"),
    ("``legal_moves()`` / s, all phases (1)", "legal_moves_per_s_all_phases", "triple"),
    ("``legal_moves()`` / s, 12 cards (1)", "legal_moves_per_s_12_cards", "triple"),
    ("``legal_moves()`` / s, 20 cards (1)", "legal_moves_per_s_20_cards", "triple"),
    ("``legal_moves()`` / s, 30 cards (1)", "legal_moves_per_s_30_cards", "triple"),
    ("``legal_moves()`` / s in play, 11 to 13 cards", "in_play_12", "rate"),
    ("``legal_moves()`` / s in play, 19 to 21 cards", "in_play_20", "rate"),
    ("``copy()`` / s", "copy_per_s", "rate"),
    ("``play()`` + ``undo()`` / s", "play_undo_per_s", "rate"),
    ("``score()`` / s", "score_per_s", "rate"),
    ("``to_dict()`` / s", "to_dict_per_s", "rate"),
    ("``from_dict()`` / s", "from_dict_per_s", "rate"),
    ("``observe()`` full, µs", "encoding.observe_full_us", "us"),
    ("``observe()`` compact, µs", "encoding.observe_compact_us", "us"),
    ("``observe_sparse()``, µs", "encoding.observe_sparse_us", "us"),
    ("legal ids of a view, µs", "encoding.legal_ids_us", "us"),
    ("a move by the library, µs", "adapters.library_us_per_move", "us"),
    ("a move through ``python_biriba``, µs", "adapters.open_spiel_us_per_move", "us"),
    ("the same with an observation tensor, µs", "adapters.open_spiel_tensor_us_per_move", "us"),
    ("OpenSpiel gin rummy games / s", "open_spiel_gin_rummy_games_per_s", "rate"),
)


def lookup(results: dict[str, Any], key: str) -> Any:
    """The value at a dotted key, or ``None``."""
    if key.startswith("in_play_"):
        found = results.get("legal_moves_in_play", {}).get(key.removeprefix("in_play_"))
        return found[0] if found and found[1] else None
    value: Any = results
    for part in key.split("."):
        if not isinstance(value, dict) or value.get(part) is None:
            return None
        value = value[part]
    return value


def number(value: float) -> str:
    """A figure with sensible precision."""
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def cells(results: dict[str, Any], key: str, kind: str) -> tuple[str, str]:
    """The figure and the figure per gin game (how many fit in one gin game's time)."""
    value = lookup(results, key)
    gin = results.get("open_spiel_gin_rummy_games_per_s")
    if value is None:
        return "", ""
    if kind == "share":
        return f"{value:.0%}", ""
    if kind in ("number", "ratio"):
        return number(value), ""
    if kind == "triple":
        figure = " / ".join(number(v) for v in value)
        return figure, " / ".join(number(v / gin) for v in value) if gin else ""
    if kind == "us":
        return number(value), number(1e6 / value / gin) if gin else ""
    if key == "random_deals_per_s" and gin:
        return number(value), number(results["ratio_to_open_spiel"])  # the rounds' median
    return number(value), number(value / gin) if gin else ""


def label_of(results: dict[str, Any]) -> str:
    """The build a results file was measured with."""
    return "compiled" if results.get("compiled") else "pure Python"


def rst_table(rows: list[list[str]]) -> list[str]:
    """An RST simple table; the first row is the header."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    rule = "  ".join("=" * w for w in widths)
    out = [rule]
    for n, row in enumerate(rows):
        out.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
        if n == 0:
            out.append(rule)
    out.append(rule)
    return out


def table(runs: list[dict[str, Any]]) -> list[str]:
    """The page's text: how each run was made, then the table."""
    lines: list[str] = []
    for results in runs:
        ratio = results.get("ratio_to_open_spiel")
        lines.append(
            f"* {label_of(results)}: ``{results.get('command', 'python benchmarks/run.py')}``"
            f" on {results['cpu']}, Python {results['python']}"
            + (
                f"; random deals per OpenSpiel gin rummy game: **{ratio:.2f}** (the median of "
                f"{results['rounds']} alternating rounds, "
                f"{min(results['ratio_to_open_spiel_rounds']):.2f} to "
                f"{max(results['ratio_to_open_spiel_rounds']):.2f})."
                if ratio
                else "; OpenSpiel was not installed."
            )
        )
    lines.append("")
    header = ["measure"]
    for results in runs:
        header += [label_of(results), "per gin game"]
    rows = [header]
    for label, key, kind in ROWS:
        row = [label]
        for results in runs:
            row += cells(results, key, kind)
        if any(row[1:]):
            rows.append(row)
    lines += rst_table(rows)
    return lines


def search_table(runs: list[dict[str, Any]]) -> list[str]:
    """The search benchmark's text: how each run was made, then its table."""
    lines: list[str] = []
    for results in runs:
        lines.append(
            f"* {label_of(results)}: ``{results.get('command', 'python benchmarks/search.py')}``"
            f" on {results['cpu']}, Python {results['python']}: a tree of "
            f"{results['nodes']:,} nodes, {results['iterations']:,} iterations of "
            f"{results['plies']} plies, {results['rounds']} processes per setting"
            + (
                f", OpenSpiel gin rummy {results['open_spiel_gin_rummy_games_per_s']:,.0f}"
                " games per second."
                if results.get("open_spiel_gin_rummy_games_per_s")
                else "."
            )
        )
    lines.append("")
    rows = [["build", "collector", "iterations / s", "in gc", "to disabled", "per gin game"]]
    for results in runs:
        for name, values in results["settings"].items():
            per_gin = values.get("per_gin_game")
            rows.append(
                [
                    label_of(results),
                    f"``{name}``",
                    number(values["iterations_per_s"]),
                    f"{values['collector_share']:.0%}",
                    f"{values['to_disabled']:.2f}",
                    number(per_gin) if per_gin else "",
                ]
            )
    lines += rst_table(rows)
    return lines


def replace_block(text: list[str], name: str, lines: list[str]) -> list[str]:
    """``text`` with the lines between the block's two marks replaced by ``lines``."""
    start_mark, end_mark = MARKS[name]
    start, end = text.index(start_mark), text.index(end_mark)
    return [*text[: start + 1], "", *lines, "", *text[end:]]


def main(argv: list[str] | None = None) -> int:
    """Print the tables, or write them into the page."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("results", nargs="+", help="results files of run.py and search.py")
    parser.add_argument("--write", help="the page to write the tables into")
    args = parser.parse_args(argv)
    loaded = [json.loads(Path(name).read_text()) for name in args.results]
    blocks = {
        "figures": [r for r in loaded if "settings" not in r],
        "search": [r for r in loaded if "settings" in r],
    }
    made = {
        name: (table(runs) if name == "figures" else search_table(runs))
        for name, runs in blocks.items()
        if runs
    }
    if not args.write:
        print("\n\n".join("\n".join(lines) for lines in made.values()))
        return 0
    page = Path(args.write)
    text = page.read_text().split("\n")
    for name, lines in made.items():
        text = replace_block(text, name, lines)
    page.write_text("\n".join(text))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
