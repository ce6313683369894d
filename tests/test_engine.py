"""The move generator's shortcuts against its full look-ahead (B4.5, B4.2).

The generator accepts a meld or an addition without a look-ahead when enough cards stay
in hand, one of them not the card B4.2 bars from the discard. These tests play random
deals, taking the discard pile often so that barred cards and large hands occur, and
check at every play-phase position that the shortcut accepts exactly what the full
look-ahead (``Engine.after_ok`` on every candidate) accepts.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from biriba import AddToMeld, Deal, Discard, LayMeld, Move, Phase, TakeDiscard
from biriba.engine import _additions, engine_for
from biriba.enumeration import melds_from_counts


def looked_ahead(deal: Deal) -> set[str]:
    """The melds and additions of the position that the full look-ahead allows."""
    engine = engine_for(deal.rules)
    key = deal._key()
    counts, melds, _, _, _ = key
    size = sum(counts)
    out: set[str] = set()
    for meld in melds_from_counts(counts, deal.rules):
        if engine.after_ok(key, size, meld.cards, (*melds, meld)):
            out.add(str(LayMeld(meld)))
    for i, card, result, choice in _additions(counts, melds):
        if engine.after_ok(key, size, (card,), (*melds[:i], result, *melds[i + 1 :])):
            out.add(str(AddToMeld(i, card, result if choice else None)))
    return out


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_B4_5_shortcut_agrees_with_the_full_look_ahead(seed: int) -> None:
    deal = Deal.new(seed=seed)
    rng = random.Random(seed)
    while not deal.is_over:
        moves = deal.legal_moves()
        if deal.phase is Phase.PLAY:
            listed = {str(m) for m in moves if not isinstance(m, Discard)}
            assert listed == looked_ahead(deal)
        take = [m for m in moves if isinstance(m, TakeDiscard)]
        move: Move = take[0] if take and rng.random() < 0.7 else rng.choice(moves)
        deal.play(move)
