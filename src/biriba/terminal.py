"""``biriba play``: a deal against three bots in the terminal."""

from __future__ import annotations

import random
from typing import TextIO

from biriba.bots import Bot, GreedyBot
from biriba.bots.heuristics import greedy_choice
from biriba.cards import format_cards
from biriba.deal import Deal, Phase
from biriba.errors import AmbiguousMoveError, BiribaError
from biriba.moves import Move

__all__ = ["render_table", "run_play"]

HELP = (
    "Type a move's number or its text (draw, take, pass, meld 3H 4H 5H, add 0 5H, "
    "discard 7H),\n'hint' for a suggestion, 'undo' to take back your last move, "
    "'help' or 'quit'."
)


def render_table(deal: Deal, seat: int) -> str:
    """The table as ``seat`` sees it: melds, pile, counts, scores, and the seat's hand."""
    view = deal.view(seat)
    lines = []
    score = view.public_score()
    for team in range(deal.rules.teams):
        who = "you and your partner" if team == view.team else "the other team"
        flag = "received" if view.reserve_received[team] else "not received"
        lines.append(
            f"Team {team} ({who}), reserve {flag}, table points {score.teams[team].total}:"
        )
        if not view.melds[team]:
            lines.append("   no melds yet")
        for i, meld in enumerate(view.melds[team]):
            mark = ""
            if meld.is_biriba:
                mark = "  << clean biriba >>" if meld.is_clean else "  << dirty biriba >>"
            lines.append(f"   [{i}] {meld}{mark}")
    top = str(view.discard_pile[-1]) if view.discard_pile else "-"
    sizes = ", ".join(f"seat {s}: {n}" for s, n in enumerate(view.hand_sizes))
    lines.append(f"Discard pile: {len(view.discard_pile)} card(s), top {top}")
    lines.append(f"Stock: {view.stock_size}   Hands: {sizes}")
    lines.append(f"Your hand: {format_cards(view.hand)}")
    return "\n".join(lines)


def run_play(
    stdin: TextIO,
    out: TextIO,
    *,
    seed: int | None = None,
    seat: int = 0,
    bots: list[Bot] | None = None,
) -> int:
    """Play one deal: the human at ``seat`` reads moves from ``stdin``; bots play the rest.

    Returns 0 when the deal ends, 1 if the player quits or the input ends first.
    """
    deal = Deal.new(seed=seed, dealer=(seat - 1) % 4)
    if bots is None:
        bots = [GreedyBot(seed=f"{deal.seed}/{s}") for s in range(4)]
    hint_rng = random.Random(0)
    decisions: list[int] = []  # history lengths at each of the player's decisions
    print(f"Biriba: you are seat {seat}, your partner seat {(seat + 2) % 4}.", file=out)
    print(HELP, file=out)
    while not deal.is_over:
        mover = deal.to_move
        assert mover is not None
        if mover != seat:
            move = bots[mover].choose(deal.view(mover))
            deal.play(move)
            print(f"  seat {mover}: {move}", file=out)
            continue
        moves = deal.legal_moves()
        print("", file=out)
        print(render_table(deal, seat), file=out)
        phase = "draw or take" if deal.phase is Phase.DRAW else "meld, add or discard"
        print(f"Your move ({phase}):", file=out)
        for i, move in enumerate(moves, 1):
            print(f"  {i:>3}. {move}", file=out)
        while True:
            out.write("> ")
            out.flush()
            line = stdin.readline()
            if not line:
                print("\nInput ended: the deal is left unfinished.", file=out)
                return 1
            text = line.strip()
            if not text:
                continue
            lowered = text.lower()
            if lowered in ("quit", "exit"):
                print("You left the table.", file=out)
                return 1
            if lowered in ("help", "?"):
                print(HELP, file=out)
                continue
            if lowered == "hint":
                hint = greedy_choice(deal.view(seat), moves, hint_rng)
                print(f"Hint: {hint}", file=out)
                continue
            if lowered == "undo":
                if not decisions:
                    print("Nothing to undo yet.", file=out)
                    continue
                target = decisions.pop()
                while len(deal.history) > target:
                    deal.undo()
                print("Taken back.", file=out)
                break
            chosen: Move | str
            if text.isdigit():
                number = int(text)
                if not 1 <= number <= len(moves):
                    print(f"There is no move {number}; choose 1 to {len(moves)}.", file=out)
                    continue
                chosen = moves[number - 1]
            else:
                chosen = text
            try:
                decisions.append(len(deal.history))
                deal.play(chosen)
            except AmbiguousMoveError as error:
                decisions.pop()
                options = ", ".join(str(m) for m in error.outcomes)
                print(f"That card has a choice of places; write one of: {options}", file=out)
                continue
            except BiribaError as error:
                decisions.pop()
                print(f"Not allowed: {error}", file=out)
                continue
            break
    print("", file=out)
    print(render_table(deal, seat), file=out)
    how = f"seat {deal.closed_by} closed" if deal.closed_by is not None else "four passes"
    print(f"The deal is over ({how}).", file=out)
    for team, score in enumerate(deal.score().teams):
        print(
            f"Team {team}: melded {score.melded}, bonuses {score.bonuses}, hands "
            f"{score.hands}, closing {score.closing}, reserve {score.reserve}: "
            f"total {score.total}",
            file=out,
        )
    return 0
