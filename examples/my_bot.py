"""Write your own bot and pit it against GreedyBot.

A bot is any object with a ``choose(view) -> move`` method. This one lays every meld it
can, then discards its highest card that is not a substitute. Run it with
``python examples/my_bot.py``.
"""

from __future__ import annotations

import random

from biriba import AddToMeld, Discard, LayMeld, Move, PlayerView
from biriba.bots import GreedyBot
from biriba.simulate import simulate


class EagerBot:
    """Melds whatever it can, and sheds its heaviest natural card."""

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Move:
        """Meld or add if possible, else discard the heaviest non-substitute card."""
        moves = view.legal_moves()
        for move in moves:
            if isinstance(move, LayMeld | AddToMeld):
                return move
        discards = [m for m in moves if isinstance(m, Discard)]
        if discards:
            rules = view.rules
            naturals = [d for d in discards if not rules.is_wild(d.card)] or discards
            return max(naturals, key=lambda d: (rules.card_value(d.card), self.rng.random()))
        return self.rng.choice(moves)  # draw, take or pass


def main() -> None:
    """Play a few deals of EagerBot against GreedyBot and print the summary."""
    result = simulate([EagerBot, GreedyBot], deals=6, seed="my-bot", workers=1)
    print(result.summary())


if __name__ == "__main__":
    main()
