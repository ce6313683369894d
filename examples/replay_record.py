"""Record a deal, save it as JSON, load it back and replay it; then spoil one move.

Run it with ``python examples/replay_record.py``.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from biriba import Deal, RecordError, records
from biriba.bots import GreedyBot, play_deal


def main() -> None:
    """Play, record, replay, and show how a bad record is reported."""
    deal = play_deal(Deal.new(seed=11), [GreedyBot(seed=s) for s in range(4)])
    record = records.record_deal(deal)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "deal.json"
        with path.open("w") as fp:
            records.dump(record, fp)
        with path.open() as fp:
            loaded = records.load(fp)
    replayed = records.replay(loaded)
    print(
        f"{len(record.moves)} moves replayed; same final position: "
        f"{replayed.to_dict() == deal.to_dict()}"
    )
    data = loaded.to_dict()
    data["moves"][2] = "discard 7H" if data["moves"][2] != "discard 7H" else "discard 8H"
    try:
        records.replay(records.loads(json.dumps(data)))
    except RecordError as error:
        print(f"the spoiled record: move {error.index} ({error.move!r}) is refused:")
        print(f"  {error}")


if __name__ == "__main__":
    main()
