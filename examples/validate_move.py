"""Validate a move sent by another app: a JSON position and a move in, a verdict out.

Run it with ``python examples/validate_move.py [POSITION.json] [MOVE ...]``; without
arguments it checks a few moves against ``examples/data/position.json``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from biriba import BiribaError, Deal, IllegalMoveError


def verdict(position: dict[str, Any], move: str) -> dict[str, Any]:
    """Check ``move`` against ``position`` and answer as JSON-ready data.

    The answer says whether the move is legal, and if not, why, with the rule's id. A
    position that is not valid is reported as such, never as a crash.
    """
    try:
        deal = Deal.from_dict(position)
    except BiribaError as error:
        return {"move": move, "legal": False, "reason": str(error)}
    try:
        deal.verify(move)
    except IllegalMoveError as error:
        return {"move": move, "legal": False, "reason": str(error)}
    except BiribaError as error:  # not a move at all
        return {"move": move, "legal": False, "reason": str(error)}
    deal.play(move)
    return {"move": move, "legal": True, "position_after": deal.to_dict()}


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
