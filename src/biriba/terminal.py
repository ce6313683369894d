"""``biriba play``: a deal against bots in the terminal, under any rule set."""

from __future__ import annotations

import random
from typing import Final, TextIO

from biriba.bots import Bot, GreedyBot
from biriba.bots.heuristics import greedy_choice
from biriba.cards import format_cards
from biriba.deal import Deal, ending
from biriba.errors import AmbiguousMoveError, BiribaError
from biriba.melds import MeldKind
from biriba.moves import Move
from biriba.rules import BIRIBA, RuleSet, check_number, check_rules, cited

__all__ = ["choices", "help_for", "render_table", "run_play"]


def help_for(rules: RuleSet) -> str:
    """What ``biriba play`` says at the start and on ``help``: how to type a move under
    ``rules``, naming the ``redraw`` only where the rule set has it (Z2.2) and ``kozi H``
    only where it has a bonus suit (V1)."""
    extra = []
    if rules.first_turn_redraw:
        extra.append("redraw right after the deal's first draw")
    if rules.bonus_suit_bonus is not None:
        extra.append("kozi H to name the bonus suit")
    moves = "draw, take, pass, meld 3H 4H 5H, add 0 5H, discard 7H"
    if extra:
        moves += ";\n" + ", ".join(extra)
    return (
        f"Type a move's number or its text ({moves}), 'hint' for a suggestion,\n"
        "'undo' to take back your last move, 'help' or 'quit'."
    )


def render_table(deal: Deal, seat: int) -> str:
    """The table as ``seat`` sees it: melds, pile, counts, scores, and the seat's hand.

    ``deal`` is a :class:`~biriba.Deal` (another object, a
    :class:`~biriba.PlayerView` included, raises :class:`TypeError`); a seat out of range
    raises :class:`~biriba.BiribaError`."""
    if not isinstance(deal, Deal):
        raise TypeError(f"render_table expects a Deal, got {type(deal).__name__}")
    view = deal.view(seat)
    rules = deal.rules
    reserve, biriba, _ = rules.words
    lines = []
    score = view.public_score()
    alone = rules.players_per_team == 1
    for team in range(rules.teams):
        if team == view.team:
            who = "you" if alone else "you and your partner"
        else:
            who = "an opponent" if alone else "the other team"
        flag = "received" if view.reserve_received[team] else "not received"
        part = score.teams[team]
        # The penalty a team's points hold for its reserve (morto): not received yet, or
        # received by a final discard and not yet activated (B8.6, B8.7).
        owed = f" (of which {part.reserve} for the {reserve})" if part.reserve else ""
        lines.append(f"Team {team} ({who}), {reserve} {flag}, table points {part.total}{owed}:")
        if not view.melds[team]:
            lines.append("   no melds yet")
        for i, meld in enumerate(view.melds[team]):
            mark = ""
            if meld.is_biriba:
                kind = "clean" if meld.is_clean else "dirty"
                if meld.kind is MeldKind.WILD:
                    kind = "wild"
                mark = f"  << {kind} {biriba} >>"
            lines.append(f"   [{i}] {meld}{mark}")
    top = str(view.discard_pile[-1]) if view.discard_pile else "-"
    sizes = ", ".join(f"seat {s}: {n}" for s, n in enumerate(view.hand_sizes))
    lines.append(f"Discard pile: {len(view.discard_pile)} card(s), top {top}")
    lines.append(
        f"Stock: {view.stock_size}   {reserve.capitalize()}s left: {view.reserves_left}   "
        f"Hands: {sizes}"
    )
    if rules.bonus_suit_bonus is not None:
        suit = view.bonus_suit
        named = f"{suit.symbol} ({suit.letter})" if suit is not None else "not named yet"
        lines.append(f"Bonus suit (kózi): {named}")
    if view.last_turn:
        lines.append("Last turn: the stock and the mortos are gone.")
    lines.append(f"Your hand: {format_cards(view.hand)}")
    return "\n".join(lines)


#: The words of :func:`choices`, by a move's :attr:`~biriba.Move.keyword`, in the order a
#: turn meets them.
_CHOICES: Final = {
    "kozi": "name the bonus suit",
    "draw": "draw",
    "take": "take",
    "pass": "pass",
    "redraw": "redraw",
    "meld": "meld",
    "add": "add",
    "discard": "discard",
}


def choices(moves: tuple[Move, ...]) -> str:
    """What the player may do, from the legal ``moves`` themselves: ``draw or take``,
    ``draw`` where the pile is empty (Buraco's first turn), ``take or pass`` once the
    stock is gone, ``redraw, meld, add or discard`` right after the deal's first draw
    (Z2.2), ``name the bonus suit`` (V1)."""
    kinds = {move.keyword for move in moves}
    words = [word for keyword, word in _CHOICES.items() if keyword in kinds]
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} or {words[-1]}"


#: The methods ``run_play`` calls on its output.
_WRITER: Final = ("write", "flush")


def _check_bots(bots: object, seat: int, rules: RuleSet) -> None:
    """Raise :class:`TypeError` unless ``bots`` is a list (or tuple) whose entries, but the
    one at ``seat``, have a ``choose`` method, and :class:`~biriba.BiribaError` unless it
    has one entry per seat (B1.1)."""
    if not isinstance(bots, list | tuple):
        raise TypeError(f"bots must be a list of bots, one per seat, got {type(bots).__name__}")
    if len(bots) != rules.players:
        seats = cited(rules, "B1.1")
        raise BiribaError(
            f"bots has one entry per seat ({rules.players}), got {len(bots)} ({seats})",
            rule=seats,
        )
    for place, bot in enumerate(bots):
        if place != seat and not callable(getattr(bot, "choose", None)):
            raise TypeError(
                f"bots[{place}] must be a bot (with a choose method), got {type(bot).__name__}"
            )


def run_play(
    stdin: TextIO,
    out: TextIO,
    *,
    seed: int | None = None,
    seat: int = 0,
    bots: list[Bot] | None = None,
    rules: RuleSet = BIRIBA,
) -> int:
    """Play one deal under ``rules``: the human at ``seat`` reads moves from ``stdin``;
    bots play the rest.

    ``stdin`` is read line by line (its ``readline``) and ``out`` written to (its
    ``write`` and ``flush``); ``bots``, if given, is a list of one bot per seat (an object
    with a ``choose`` method), the entry at ``seat`` unused. Returns 0 when the deal ends,
    1 if the player quits or the input ends first. Arguments of the wrong type raise
    :class:`TypeError` and a seat out of range or a list of bots of the wrong length
    :class:`~biriba.BiribaError`, before anything is read or written.
    """
    rules = check_rules(rules)
    for stream, name, methods in ((stdin, "stdin", ("readline",)), (out, "out", _WRITER)):
        for method in methods:
            if not callable(getattr(stream, method, None)):
                raise TypeError(
                    f"{name} must be a text file with a {method}() method, got "
                    f"{type(stream).__name__}"
                )
    players = rules.players
    check_number(seat, "seat", players, rules)
    if bots is not None:
        _check_bots(bots, seat, rules)
    deal = Deal.new(rules, seed=seed, dealer=(seat - 1) % players)
    if bots is None:
        bots = [GreedyBot(seed=f"{deal.seed}/{s}") for s in range(players)]
    hint_rng = random.Random(0)
    decisions: list[int] = []  # history lengths at each of the player's decisions
    partners = [s for s in range(players) if s != seat and rules.team_of(s) == rules.team_of(seat)]
    game = "Buraco" if rules.family == "buraco" else "Biriba"
    with_whom = ""
    if len(partners) > 1:
        with_whom = f", your partners are seats {' and '.join(map(str, partners))}"
    if len(partners) == 1:
        with_whom = f", your partner seat {partners[0]}"
    print(f"{game} ({rules.name}): you are seat {seat}{with_whom}.", file=out)
    print(help_for(rules), file=out)
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
        print(f"Your move ({choices(moves)}):", file=out)
        for i, move in enumerate(moves, 1):
            print(f"  {i:>3}. {move}", file=out)
        while True:
            out.write("> ")
            out.flush()
            try:
                line = stdin.readline()
            except UnicodeDecodeError:
                # A terminal whose input decodes strictly (LANG=en_US.UTF-8, say) and a
                # line that is not UTF-8: that line is lost, the game goes on.
                print("That line is not UTF-8 text: write a move, its number, or help.", file=out)
                continue
            if not isinstance(line, str):
                raise TypeError(f"stdin.readline() gave {type(line).__name__}, not text")
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
                print(help_for(rules), file=out)
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
            digits = text[1:] if text[:1] in "+-" else text
            if digits.isascii() and digits.isdigit() and len(text) < 10:  # (not ², 10**5000)
                number = int(text)  # (a sign too: "-1" is a number, and no move's)
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
    _, _, closed = deal.rules.words
    print(f"The deal is over: {ending(deal)}.", file=out)
    for team, score in enumerate(deal.score().teams):
        print(
            f"Team {team}: melded {score.melded}, bonuses {score.bonuses}, hands "
            f"{score.hands}, {closed} {score.closing}, {deal.rules.words[0]} {score.reserve}: "
            f"total {score.total}",
            file=out,
        )
    return 0
