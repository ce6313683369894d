"""The demo behind ``python -m biriba demo``: one seeded deal between bots, one per
seat (four under ``biriba``)."""

from __future__ import annotations

import sys
from typing import TextIO

from biriba.bots import GreedyBot
from biriba.deal import Deal, ending
from biriba.moves import Discard, Pass
from biriba.rules import BIRIBA, RuleSet

__all__ = ["run_demo"]


def run_demo(
    seed: int = 2026, out: TextIO | None = None, rules: RuleSet = BIRIBA, verbose: bool = True
) -> Deal:
    """Play a whole seeded deal between four greedy bots and print it.

    The moves are printed turn by turn, then the table at the end and the score
    breakdown. Returns the finished deal.
    """
    stream = out if out is not None else sys.stdout
    deal = Deal.new(rules, seed=seed, dealer=seed % rules.players)
    bots = [GreedyBot(seed=f"{seed}/{s}") for s in range(rules.players)]
    print(f"biriba demo: seed {seed}, dealer seat {deal.dealer}, rules {rules.name!r}", file=stream)
    turn: list[str] = []
    turns = 0
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        move = bots[seat].choose(deal.view(seat))
        deal.play(move)
        turn.append(str(move))
        if isinstance(move, Discard | Pass) or deal.is_over:
            turns += 1
            if verbose:
                print(f"  turn {turns:>3}  seat {seat}: {', '.join(turn)}", file=stream)
            turn = []
    print(f"\nThe deal ended after {turns} turns: {ending(deal)}.\n", file=stream)
    print(deal, file=stream)
    rule = "Z5.1" if rules.family == "buraco" else "B8"
    print(f"\nScore ({rule}):", file=stream)
    header = f"  {'team':<6}{'melded':>8}{'bonuses':>9}{'hands':>8}{'closing':>9}"
    print(header + f"{'reserve':>9}{'total':>8}", file=stream)
    for team, score in enumerate(deal.score().teams):
        print(
            f"  {team:<6}{score.melded:>8}{score.bonuses:>9}{score.hands:>8}"
            f"{score.closing:>9}{score.reserve:>9}{score.total:>8}",
            file=stream,
        )
    return deal
