"""The same seed gives the same deal and the same game in every process: nothing a seeded
game writes depends on Python's hash randomization (``PYTHONHASHSEED``) or on where
objects happen to live in memory (the pure build hashes a card by its identity)."""

from __future__ import annotations

import os
import subprocess
import sys

#: A seeded game of each family, played by every bot, written out in full: the records,
#: each deal's final position, and the encodings of views along the way.
_GAME = """
import json
import random
from biriba import BURACO, Match, RuleSet, records
from biriba.bots import GreedyBot, MonteCarloBot, RandomBot
from biriba.encoding import codec_for, observe

out = []
for rules, seed in ((RuleSet.named("biriba"), "x"), (BURACO, 7), (RuleSet.named("kozi"), 3)):
    match = Match.new(rules, seed=seed)
    deal = match.deal
    bots = [GreedyBot(seed=1), MonteCarloBot(seed=2, iterations=2), RandomBot(seed=3)]
    codec = codec_for(rules)
    n = 0
    while not deal.is_over:
        seat = deal.to_move
        view = deal.view(seat)
        move = bots[seat % 3].choose(view)
        if n % 17 == 0:
            out.append(observe(view))
            out.append(codec.legal_ids(view))
        deal.play(move)
        n += 1
    out.append(records.dumps(records.record_deal(deal)))
    out.append(deal.to_dict())
    out.append(deal.view(1).sample(random.Random(5)).to_dict())
print(json.dumps(out))
"""


def _played(hash_seed: str) -> str:
    """The game's output in a new process (the same build: the environment is this
    one's) with ``PYTHONHASHSEED`` set to ``hash_seed``."""
    result = subprocess.run(
        [sys.executable, "-c", _GAME],
        env=dict(os.environ, PYTHONHASHSEED=hash_seed),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


def test_same_seed_same_game_whatever_the_hash_seed() -> None:
    first = _played("0")
    assert len(first) > 10_000  # the game was played and written out
    assert _played("1") == first
    assert _played("4242") == first
