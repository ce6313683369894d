"""Draws the pictures of the *Pictures* page when the documentation is built.

A small Sphinx extension (``conf.py`` loads it): before the pages are read it writes the
SVG pictures into ``docs/_generated/`` and two replay pages into ``docs/_generated/extra/``,
which the build copies beside the pages. Nothing it writes is kept in the repository.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from biriba import Card, Deal, Match, Meld, records, svg
from biriba.replay_page import write_replay_html

HERE = Path(__file__).parent
OUT = HERE / "_generated"


def example_deal(moves: int) -> Deal:
    """The seeded deal the pictures show, after ``moves`` moves of uniform random play."""
    deal = Deal.new(seed=2026, dealer=1)
    rng = random.Random(2026)
    while not deal.is_over and len(deal.history) < moves:
        deal.play(rng.choice(deal.legal_moves()))
    return deal


def draw(out: Path = OUT) -> None:
    """Write every picture of the page, and the example replay page."""
    (out / "extra").mkdir(parents=True, exist_ok=True)
    deal = example_deal(150)
    pictures = {
        "card-TH.svg": svg.card(Card.parse("TH"), size=75),
        "card-JK.svg": svg.card(Card.parse("JK"), size=75),
        "meld-dirty.svg": svg.meld(Meld.parse("3H 4H JK 6H 7H 8H 9H"), size=300),
        "meld-clean.svg": svg.meld(Meld.parse("8C 8D 8H 8H 8S 8S 8C"), size=300),
        "meld-group.svg": svg.meld(Meld.parse("QS QH 2C"), size=150),
        "hand.svg": svg.hand(deal.hand(deal.to_move or 0), size=300),
        "table.svg": svg.table(deal),
        "view.svg": svg.table(deal.view(0)),
        "colors.svg": svg.table(
            deal.view(2), size=700, colors={"table": "#2f3b5c", "hearts": "#d81b60"}
        ),
    }
    for name, text in pictures.items():
        (out / name).write_text(text, encoding="utf-8")
    whole = example_deal(10_000)
    write_replay_html(records.record_deal(whole), out / "extra" / "replay-deal.html")
    match = Match.new(seed=7)
    rng = random.Random(7)
    while match.deals_played < 2 and not match.is_over:
        while not match.deal.is_over:
            match.deal.play(rng.choice(match.deal.legal_moves()))
        match.next_deal()
    write_replay_html(records.record_match(match), out / "extra" / "replay-match.html")


def setup(app: Any) -> dict[str, Any]:
    """Draw the pictures once the configuration is read, before the builder looks for
    ``html_extra_path``."""
    app.connect("config-inited", lambda app, config: draw())
    return {"parallel_read_safe": True, "parallel_write_safe": True}
