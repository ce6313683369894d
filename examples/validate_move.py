"""Validate a move sent by another app: a JSON position and a move in, a verdict out.

Run it with ``python examples/validate_move.py [POSITION.json] [MOVE ...]``; without
arguments it checks a few moves against ``examples/data/position.json``, playing each
legal one so that the next is checked against the position after it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from biriba import Deal, check_move


def verdict(position: dict[str, Any], move: str) -> dict[str, Any]:
    """Check ``move`` against ``position`` and answer as JSON-ready data: the verdict of
    :func:`biriba.check_move` (legal or not, the rule's id, the reason), and for a legal
    move the position after it."""
    answer = check_move(position, move).to_dict()
    if answer["legal"]:
        deal = Deal.from_dict(position)
        deal.play(move)
        answer["position_after"] = deal.to_dict()
    return answer


def main(argv: list[str]) -> None:
    """Print a verdict for each move given (or for a few examples)."""
    path = Path(argv[0]) if argv else Path(__file__).parent / "data" / "position.json"
    position = json.loads(path.read_text())
    moves = argv[1:] or ["take", "meld 5C 6C 7C 8C", "discard 9H", "add 0 9D", "fold", "discard KS"]
    for move in moves:
        answer = verdict(position, move)
        shown = {k: v for k, v in answer.items() if k != "position_after"}
        print(json.dumps(shown))
        if answer["legal"]:
            position = answer["position_after"]


if __name__ == "__main__":
    main(sys.argv[1:])
