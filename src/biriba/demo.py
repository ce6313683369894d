"""The demo behind ``python -m biriba demo``."""

from __future__ import annotations

import random
from typing import TextIO

from biriba.cards import format_cards, full_pack
from biriba.melds import enumerate_melds
from biriba.rules import BIRIBA

__all__ = ["run_demo"]


def run_demo(seed: int = 2026, out: TextIO | None = None) -> None:
    """Deal a seeded hand of 11 cards and print every meld it holds, with its score."""
    import sys

    stream = out if out is not None else sys.stdout
    pack = list(full_pack(BIRIBA))
    random.Random(seed).shuffle(pack)
    hand = sorted(pack[:11])
    print(f"seed {seed}: a hand of {len(hand)} cards: {format_cards(hand)}", file=stream)
    melds = enumerate_melds(hand, BIRIBA)
    print(f"{len(melds)} melds can be laid from it (B3):", file=stream)
    for meld in sorted(melds, key=lambda m: (-m.points, str(m))):
        kind = meld.kind.value
        clean = "clean" if meld.is_clean else "dirty"
        print(f"  {meld!s:<28} {kind:<8} {clean:<5} {meld.points:>4} points", file=stream)
