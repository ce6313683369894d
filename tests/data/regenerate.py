"""Regenerate the recorded data files of the test suite.

Run ``python -m tests.data.regenerate`` from the project root after a deliberate change
of behaviour, read the diff of the data files, and say in the commit why they changed.
The tests replay these files on every run and fail on any difference.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from biriba import Card, Deal, Meld, records, svg

HERE = Path(__file__).parent
REFERENCE_SEED = 2026


def perft(deal: Deal, depth: int) -> int:
    """The number of move sequences of length ``depth`` from ``deal``."""
    if depth == 0 or deal.is_over:
        return 1
    total = 0
    for move in deal.legal_moves():
        deal.play(move)
        total += perft(deal, depth - 1)
        deal.undo()
    return total


def reference_deal() -> dict[str, Any]:
    """A whole deal under uniform random play: its seed, every move, the final score."""
    deal = Deal.new(seed=REFERENCE_SEED, dealer=1)
    rng = random.Random(REFERENCE_SEED)
    while not deal.is_over:
        deal.play(rng.choice(deal.legal_moves()))
    score = deal.score()
    return {
        "rules": "biriba",
        "seed": REFERENCE_SEED,
        "dealer": 1,
        "moves": [str(m) for m in deal.history],
        "score": [
            {
                "melded": t.melded,
                "bonuses": t.bonuses,
                "hands": t.hands,
                "closing": t.closing,
                "reserve": t.reserve,
                "total": t.total,
            }
            for t in score.teams
        ],
        "closed_by": deal.closed_by,
    }


#: Hand-made positions where the rules are easy to get wrong.
TRICKY = {
    "a substitute to move and an ace for either end (B3.9, B3.12)": {
        "hands": {0: "6H AS 2S JK 9C 9D"},
        "melds": (["4H 5H JK 7H", "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"], []),
    },
    "a one-card pile of a card held twice (B4.2, B4.5)": {
        "hands": {0: "KS 5C 6C 7C"},
        "phase": "draw",
        "discard": "KS",
    },
    "down to one card on the way to the reserve (B4.3, B5.2)": {
        "hands": {0: "8H 9H TH"},
        "melds": (["2H 3H 4H 5H 6H 7H"], []),
    },
    "the stock is empty (B4.4)": {
        "hands": {0: "5C 6C 7C QD"},
        "phase": "draw",
        "stock": "",
        "discard": "4C",
        "passes": 2,
    },
}


def perft_positions() -> list[dict[str, Any]]:
    """Positions sampled from random play and hand-made ones, with their move counts at
    depths 1 and 2."""
    from tests.helpers import position

    out = []
    for name, spec in TRICKY.items():
        deal = Deal.from_dict(position(**spec))  # type: ignore[arg-type]
        out.append(
            {
                "source": name,
                "position": deal.to_dict(),
                "depth1": perft(deal, 1),
                "depth2": perft(deal, 2),
            }
        )
    for seed in range(12):
        deal = Deal.new(seed=seed, dealer=seed % 4)
        rng = random.Random(seed)
        stops = {0, 1, 7, 31, 90, 150}
        ply = 0
        while not deal.is_over and ply <= max(stops):
            if ply in stops:
                out.append(
                    {
                        "source": f"seed {seed}, ply {ply}",
                        "position": deal.to_dict(),
                        "depth1": perft(deal, 1),
                        "depth2": perft(deal, 2),
                    }
                )
            deal.play(rng.choice(deal.legal_moves()))
            ply += 1
    return out


def reference_deal_after(moves: int) -> Deal:
    """The recorded reference deal after its first ``moves`` moves."""
    record = records.from_dict(
        {"format": records.FORMAT, "version": records.VERSION, "kind": "deal"}
        | json.loads((HERE / "reference_deal.json").read_text())
    )
    assert isinstance(record, records.DealRecord)
    deal = Deal.new(seed=record.seed, dealer=record.dealer)
    for text in record.moves[:moves]:
        deal.play(text)
    return deal


def pictures() -> dict[str, str]:
    """The golden pictures, by file name: cards, melds and tables of the reference deal."""
    middle = reference_deal_after(150)
    return {
        "card-TH.svg": svg.card(Card.parse("TH")),
        "card-JK.svg": svg.card(Card.parse("JK"), size=100),
        "meld-dirty-biriba.svg": svg.meld(Meld.parse("3H 4H JK 6H 7H 8H 9H")),
        "meld-group.svg": svg.meld(Meld.parse("7C 7D 2S")),
        "hand.svg": svg.hand(middle.hand(0)),
        "table-reference-150.svg": svg.table(middle),
        "view-reference-150-seat-1.svg": svg.table(middle.view(1)),
        "table-reference-end-bottom-2.svg": svg.table(
            reference_deal_after(10_000), bottom=2, size=800, colors={"table": "#303a60"}
        ),
    }


def main() -> None:
    """Write ``reference_deal.json``, ``perft.json`` and the golden pictures."""
    (HERE / "reference_deal.json").write_text(json.dumps(reference_deal(), indent=1) + "\n")
    (HERE / "perft.json").write_text(json.dumps(perft_positions(), indent=1) + "\n")
    (HERE / "svg").mkdir(exist_ok=True)
    for name, text in pictures().items():
        (HERE / "svg" / name).write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
