"""Positions as data: a :class:`~biriba.position.Position` to and from plain JSON-ready
data, the format of :meth:`Deal.to_dict <biriba.Deal.to_dict>` and :meth:`Deal.from_dict
<biriba.Deal.from_dict>`.

Reading checks everything: each card of the pack exactly once, valid melds, seats, phase
and reserve state consistent, and a legal move for the player to move. Every problem
raises :class:`~biriba.InvalidPositionError` naming it, with the rule it breaks as
``err.rule`` (``None`` for data that is merely malformed).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import Any, Final

from biriba.cards import EMPTY_COUNTS, Card, Suit, cards_at, cards_of, counts_of, indices_of
from biriba.engine import Engine, Start, engine_for
from biriba.errors import BiribaError, InvalidMeldError, InvalidPositionError, NotationError
from biriba.limits import MAX_CARDS, excerpt, is_int
from biriba.melds import Meld
from biriba.moves import Move
from biriba.position import Phase, Position
from biriba.rules import (
    PileRestriction,
    RuleSet,
    StockExhausted,
    check_rules,
    cited,
    differing_fields,
    full_pack,
    rules_from_data,
    rules_to_data,
    same_rules,
)

__all__ = ["REQUIRED_KEYS", "RULE_SET_KEYS", "position_to_dict", "read_position", "uses_key"]

#: The keys every position must have.
REQUIRED_KEYS = (
    "rules",
    "dealer",
    "to_move",
    "phase",
    "hands",
    "stock",
    "discard",
    "reserves",
    "melds",
    "reserve_received",
    "passes",
)


def _fail(message: str, rule: str | None = None) -> InvalidPositionError:
    """The error for a position; ``rule`` is the id of the rule it breaks, if any, which
    the message cites (at its end, when it does not already)."""
    if rule is not None and rule not in _RULE_ID.findall(message):
        message = f"{message} ({rule})"
    return InvalidPositionError(f"invalid position: {message}", rule=rule)


#: A rule id in a message, whole (``B3.12`` is not ``B3.1``).
_RULE_ID: Final = re.compile(r"[BZV]\d+(?:\.\d+)?")


#: The keys that only some rule sets use: written then, optional on input (see
#: :func:`uses_key`).
RULE_SET_KEYS = ("redraw", "last_turn", "bonus_suit", "opening")


def uses_key(rules: RuleSet, key: str) -> bool:
    """Whether positions and views of ``rules`` carry ``key``, one of
    :data:`RULE_SET_KEYS`: ``redraw`` with Z2.2's redraw, ``last_turn`` with Z4.3's last
    round, ``bonus_suit`` with kózi (V1), ``opening`` with an entry minimum (V3)."""
    if key == "redraw":
        return rules.first_turn_redraw
    if key == "last_turn":
        return rules.stock_exhausted is StockExhausted.RESERVE_BECOMES_STOCK
    if key == "bonus_suit":
        return rules.bonus_suit_bonus is not None
    if key == "opening":
        return rules.entry_minimum > 0
    raise KeyError(key)


def position_to_dict(position: Position, rules: RuleSet) -> dict[str, Any]:
    """``position`` as plain JSON-ready data (the format :func:`read_position` reads).

    The rules are written as the preset's name when they are that preset unchanged, else
    as the rule set's data (``rules_to_data``)."""
    data = {
        "rules": rules_to_data(rules),
        "dealer": position.dealer,
        "to_move": position.to_move,
        "phase": position.phase.value,
        "hands": [[str(c) for c in cards_of(h)] for h in position.hands],
        "stock": [str(c) for c in cards_at(position.stock)],
        "discard": [str(c) for c in position.pile],
        "reserves": [[str(c) for c in p] for p in position.reserves],
        "melds": [[str(m) for m in melds] for melds in position.melds],
        "reserve_received": list(position.received),
        "passes": position.passes,
        "pile_card": None if position.pile_card is None else str(position.pile_card),
        "unactivated": list(position.unactivated),
        "closed_by": position.closed_by,
        "known": [[str(c) for c in cards_of(k)] for k in position.known],
    }
    if uses_key(rules, "redraw"):
        data["redraw"] = None if position.redraw is None else str(position.redraw)
    if uses_key(rules, "last_turn"):
        data["last_turn"] = position.last_turn
    if uses_key(rules, "bonus_suit"):
        data["bonus_suit"] = None if position.bonus_suit is None else position.bonus_suit.letter
    if uses_key(rules, "opening"):
        data["opening"] = position.opening
    return data


def _card(value: object, where: str) -> Card:
    if not isinstance(value, str):
        raise _fail(f"{where}: a card is written as a string like '7H', got {excerpt(value)}")
    try:
        return Card.parse(value)
    except NotationError as error:
        raise _fail(f"{where}: {error}") from None


def _cards(value: object, where: str) -> list[Card]:
    if not isinstance(value, list | tuple):
        raise _fail(f"{where} must be a list of cards, got {type(value).__name__}")
    if len(value) > MAX_CARDS:
        raise _fail(f"{where} holds {len(value)} cards; a list of cards holds at most {MAX_CARDS}")
    return [_card(v, f"{where}[{i}]") for i, v in enumerate(value)]


def _int(
    value: object, where: str, low: int, high: int, rule: str, *, null: bool = False
) -> int | None:
    if value is None and null:
        return None
    if not is_int(value):
        raise _fail(f"{where} must be an int{' or null' if null else ''}, got {excerpt(value)}")
    if not low <= value <= high:
        raise _fail(f"{where} is {excerpt(value)}, out of range {low}..{high}", rule)
    return int(value)  # a plain int, not a subclass (an IntEnum member) that was sent


def _list(value: object, where: str, length: int) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise _fail(f"{where} must be a list, got {type(value).__name__}")
    if len(value) != length:
        raise _fail(f"{where} must have {length} entries, got {len(value)}")
    return list(value)


def read_position(
    data: Mapping[str, Any], rules: RuleSet | None
) -> tuple[RuleSet, Position, tuple[Move, ...]]:
    """The rule set and the :class:`~biriba.position.Position` of position data, checked,
    and the position's legal moves, which the check finds (B4.5: a position that is not
    over has one); see :meth:`Deal.from_dict <biriba.Deal.from_dict>`."""
    if not isinstance(data, Mapping):
        raise TypeError(f"a position is a dict, got {type(data).__name__}")
    missing = [k for k in REQUIRED_KEYS if k not in data]
    if missing:
        raise _fail(f"missing key(s) {', '.join(missing)}")
    rules = _rules(data["rules"], rules)
    n, t = rules.players, rules.teams
    seats = cited(rules, "B1.1")  # the players and their seats (Z1.1 under Buraco)
    dealer = _int(data["dealer"], "dealer", 0, n - 1, seats)
    assert dealer is not None
    phase_text = data["phase"]
    try:
        # (A text or a Phase only: the enum's own error would quote any other value
        # whole, however deep.)
        phase = Phase(phase_text if isinstance(phase_text, str | Phase) else None)
    except ValueError:
        raise _fail(f"phase must be 'draw', 'play' or 'over', got {excerpt(phase_text)}") from None
    to_move = _int(data["to_move"], "to_move", 0, n - 1, seats, null=True)
    if (to_move is None) != (phase is Phase.OVER):
        raise _fail("to_move is null exactly when the phase is 'over'")

    hands = [_cards(h, f"hands[{i}]") for i, h in enumerate(_list(data["hands"], "hands", n))]
    stock = _cards(data["stock"], "stock")
    pile = _cards(data["discard"], "discard")
    packets_raw = data["reserves"]
    if not isinstance(packets_raw, list | tuple):
        raise _fail("reserves must be a list of packets")
    packets = [_cards(p, f"reserves[{i}]") for i, p in enumerate(packets_raw)]
    for i, packet in enumerate(packets):
        if len(packet) != rules.reserve_size:
            raise _fail(f"reserves[{i}] has {len(packet)} cards, not {rules.reserve_size}", "B2.3")
    received_raw = _list(data["reserve_received"], "reserve_received", t)
    if not all(isinstance(r, bool) for r in received_raw):
        raise _fail("reserve_received must hold true or false for each team")
    received = tuple(bool(r) for r in received_raw)
    last_round = rules.stock_exhausted is StockExhausted.RESERVE_BECOMES_STOCK
    engine = engine_for(rules)
    passing = engine.passing_rule
    left = rules.reserve_count - sum(received)
    if left < 0 or (len(packets) > left if last_round else len(packets) != left):
        # Z4.3: mortos that became the stock are gone too.
        raise _fail(
            f"{len(packets)} reserve packet(s) left, but {sum(received)} of "
            f"{rules.reserve_count} have been received (B5.1)",
            "B5.1",
        )
    melds: list[tuple[Meld, ...]] = []
    for team, raw in enumerate(_list(data["melds"], "melds", t)):
        if not isinstance(raw, list | tuple):
            raise _fail(f"melds[{team}] must be a list of melds")
        team_melds = []
        for j, text in enumerate(raw):
            if not isinstance(text, str):
                raise _fail(f"melds[{team}][{j}] must be a meld's text, got {excerpt(text)}")
            try:
                team_melds.append(Meld.parse(text, rules))
            except (NotationError, InvalidMeldError) as error:
                raise _fail(f"melds[{team}][{j}]: {error}", error.rule) from None
        melds.append(tuple(team_melds))
    passes = _int(data["passes"], "passes", 0, rules.pass_limit, passing)
    assert passes is not None
    pile_card = None
    if data.get("pile_card") is not None:
        pile_card = _card(data["pile_card"], "pile_card")
        if rules.pile_restriction is not PileRestriction.NO_DISCARD_BACK:
            raise _fail(
                "pile_card is set, but the rule set has no ban on discarding the card taken "
                "from a one-card pile (Z4.4)",
                "Z4.4",
            )
        if phase is not Phase.PLAY:
            raise _fail("pile_card is set only in the play phase (B4.2)", "B4.2")
    unactivated_raw = data.get("unactivated")
    unactivated: list[int | None] = [None] * t
    if unactivated_raw is not None:
        for team, seat in enumerate(_list(unactivated_raw, "unactivated", t)):
            value = _int(seat, f"unactivated[{team}]", 0, n - 1, seats, null=True)
            if value is not None:
                if value % t != team:
                    raise _fail(f"unactivated[{team}]: seat {value} is not in team {team}", seats)
                if not received[team]:
                    raise _fail(
                        f"unactivated[{team}]: team {team} has not received a reserve", "B5.4"
                    )
            unactivated[team] = value
    closed_by = _int(data.get("closed_by"), "closed_by", 0, n - 1, seats, null=True)
    known_raw = data.get("known")
    known: list[list[Card]] = [[] for _ in range(n)]
    if known_raw is not None:
        known = [_cards(k, f"known[{i}]") for i, k in enumerate(_list(known_raw, "known", n))]
        for seat, cards in enumerate(known):
            if Counter(cards) - Counter(hands[seat]):
                raise _fail(f"known[{seat}] names cards that hands[{seat}] does not hold")

    # Every card of the pack exactly once (B1.2).
    seen: Counter[Card] = Counter()
    for hand in hands:
        seen.update(hand)
    seen.update(stock)
    seen.update(pile)
    for packet in packets:
        seen.update(packet)
    for laid in melds:
        for meld in laid:
            seen.update(meld.cards)
    pack = Counter(full_pack(rules))
    if seen != pack:
        extra = seen - pack
        short = pack - seen
        parts = []
        if extra:
            parts.append("too many: " + _copies(extra))
        if short:
            parts.append("missing: " + _copies(short))
        rule = cited(rules, "B1.2")
        raise _fail(f"the cards are not the pack exactly once ({rule}): {'; '.join(parts)}", rule)

    stock_gone = not engine.stock_open(len(stock))
    if last_round and packets and stock_gone and phase is not Phase.OVER:
        raise _fail("a morto is left, so it is the stock now (Z4.3)", "Z4.3")
    if len(stock) < rules.stock_end_remaining:
        # V7: nobody draws from a stock of stock_end_remaining cards.
        raise _fail(
            f"the stock holds {len(stock)} cards, fewer than the {rules.stock_end_remaining} "
            f"at which drawing from it stops (V7)",
            "V7",
        )
    most = rules.stock_end_remaining + rules.reserve_size
    if last_round and len(packets) < left and len(stock) > most:
        # Z4.3: a morto becomes the stock only once the stock is emptied.
        raise _fail(
            f"a morto that nobody received became the stock, which then holds at most "
            f"{most} cards, not {len(stock)} (Z4.3)",
            "Z4.3",
        )
    last_turn = _last_turn(data, phase, last_round and stock_gone and not packets, pile)
    first = (
        phase is Phase.DRAW
        and to_move is not None
        and engine.begins(Start(len(stock), to_move, dealer, len(packets), len(pile), melds, known))
    )
    if (
        not rules.up_card
        and len(stock) == engine.full_stock
        and len(packets) == rules.reserve_count
        and not (first and all(len(hand) == rules.hand_size for hand in hands))
    ):
        # Dealt without an up-card, the pile starts empty, so a deal's first move is a
        # draw (Z2.1; B4.1, an empty pile cannot be taken); the stock is full again only
        # when a morto becomes it (Z4.3), which leaves a packet fewer. So a full stock
        # with every packet there is the deal as dealt.
        rule = "Z2.1" if rules.family == "buraco" else "B2.3"
        raise _fail(
            f"the stock is full and every {engine.by_family.packet} is there, so nothing "
            f"has been drawn, and with no up-card nothing has been played: each hand holds "
            f"the {rules.hand_size} cards dealt, nothing is melded or discarded, and seat "
            f"{(dealer + 1) % n} draws ({rule})",
            rule,
        )
    bonus_suit = _bonus_suit(data, rules, pile, first)
    opening = _flag(data, "opening", not melds[to_move % t] if to_move is not None else False)
    if not rules.entry_minimum:
        opening = False
    elif phase is Phase.DRAW and to_move is not None and opening != (not melds[to_move % t]):
        raise _fail("opening is true in the draw phase exactly when the team has no meld", "V3")
    elif phase is Phase.PLAY and to_move is not None and not opening and not melds[to_move % t]:
        raise _fail("a team with no meld on the table is opening: it had none this turn", "V3")
    redraw = None
    if data.get("redraw") is not None:
        redraw = _card(data["redraw"], "redraw")
        if not rules.first_turn_redraw:
            raise _fail("redraw is set, but the rule set has no redraw (Z2.2)", "Z2.2")
        # Right after the deal's first draw: the stock and the packets as that draw leaves
        # them (it may have brought a morto into the stock, Z4.3), and before it, with
        # the stock full, the engine would have opened the redraw.
        if (
            phase is not Phase.PLAY
            or to_move is None
            or (len(stock), len(packets)) != engine.after_first_draw()
            or not engine.opens_redraw(
                Start(
                    engine.full_stock,
                    to_move,
                    dealer,
                    rules.reserve_count,
                    len(pile),
                    melds,
                    known,
                ),
                bonus_suit is not None,
            )
            or redraw not in hands[to_move]
        ):
            raise _fail(
                "redraw names the card drawn on the deal's first draw, held by the player "
                "to move, before any meld (Z2.2)",
                "Z2.2",
            )

    # The phase and the state around it.
    if phase is Phase.OVER:
        if closed_by is None and not last_turn and passes < rules.pass_limit:
            raise _fail(
                "a deal over with nobody closing needs pass_limit passes (B7.1) or the last "
                "turn played (Z4.3)",
                engine.unclosed_end_rule,
            )
        if closed_by is not None:
            closing = engine.by_family.closing
            if hands[closed_by]:
                raise _fail(
                    f"closed_by {closed_by}, but that hand is not empty ({closing})", closing
                )
            if not received[closed_by % t]:
                raise _fail(
                    f"the closing team must have received its {engine.by_family.packet} "
                    f"({closing})",
                    closing,
                )
    else:
        if closed_by is not None:
            ends = engine.by_family.closing_ends
            raise _fail(f"closed_by is set but the deal is not over ({ends})", ends)
        if passes >= rules.pass_limit:
            raise _fail(f"{passes} passes in a row end the deal ({passing})", passing)
        if passes and not stock_gone:
            stock_rule = engine.stock_rule
            raise _fail(f"passes happen only with the stock empty ({stock_rule})", stock_rule)
        if phase is Phase.PLAY and passes:
            raise _fail(
                f"passes are 0 in the play phase: a draw or a take ends a run ({passing})",
                passing,
            )
        if last_round and passes:
            raise _fail(
                "a pass is the deal's last move: with the stock and the mortos gone the "
                "pass ends the deal (Z4.3)",
                "Z4.3",
            )
        assert to_move is not None
        if unactivated[to_move % t] == to_move:
            raise _fail(
                f"unactivated[{to_move % t}] is seat {to_move}, whose turn has begun (B5.4)",
                "B5.4",
            )
        if (
            pile_card is not None
            and pile_card not in hands[to_move]
            and not any(pile_card in meld.cards for meld in melds[to_move % t])
        ):
            raise _fail(
                f"pile_card {pile_card} was taken this turn by seat {to_move}, so it is in "
                f"that hand or in its team's melds, and it is in neither (B4.2)",
                "B4.2",
            )
    for seat, hand in enumerate(hands):
        if not hand and rules.keep_after_melding > 1 and seat != closed_by:
            raise _fail(f"hands[{seat}] is empty; a hand empties only to close (B4.3)", "B4.3")
    _check_history(
        engine,
        hands,
        known,
        melds,
        pile,
        received,
        unactivated,
        passes,
        pile_card,
        closed_by,
        stock_gone,
    )

    if to_move is not None:
        seat = to_move
    elif closed_by is not None:
        seat = closed_by
    else:
        seat = (dealer + 1) % n
    position = Position.of(
        dealer=dealer,
        seat=seat,
        phase=phase,
        hands=tuple(counts_of(h) for h in hands),
        known=tuple(counts_of(k) if k else EMPTY_COUNTS for k in known),
        melds=tuple(melds),
        stock=indices_of(stock),
        pile=tuple(pile),
        reserves=tuple(tuple(p) for p in packets),
        received=received,
        unactivated=tuple(unactivated),
        passes=passes,
        pile_card=pile_card,
        closed_by=closed_by,
        redraw=redraw,
        last_turn=last_turn,
        bonus_suit=bonus_suit,
        opening=opening,
    )
    try:
        moves = engine.legal_moves(position)
    except InvalidPositionError:
        raise
    except BiribaError as error:  # a hand beyond the library's limits (biriba.limits)
        raise _fail(str(error)) from None
    if phase is not Phase.OVER and not moves:
        raise _fail(
            f"seat {to_move} has no legal move: no turn can be finished from here (B4.5)", "B4.5"
        )
    return rules, position, moves


def _check_history(
    engine: Engine,
    hands: list[list[Card]],
    known: list[list[Card]],
    melds: list[tuple[Meld, ...]],
    pile: list[Card],
    received: tuple[bool, ...],
    unactivated: list[int | None],
    passes: int,
    pile_card: Card | None,
    closed_by: int | None,
    stock_gone: bool,
) -> None:
    """Refuse a position no play can reach: each field may be valid alone, but together
    they contradict how a deal unfolds."""
    rules = engine.rules
    passing = engine.passing_rule
    if pile_card is not None and pile:
        raise _fail(
            "pile_card is the card taken from a one-card pile this turn, so the discard pile "
            "is empty until the turn's discard (B4.2)",
            "B4.2",
        )
    if passes and not stock_gone:
        stock_rule = engine.stock_rule
        raise _fail(f"passes happen only with the stock empty ({stock_rule})", stock_rule)
    if closed_by is not None and passes:
        raise _fail(
            "a deal closed in a turn that began with a draw or a take, which ends a run of "
            f"passes: passes must be 0 ({passing})",
            passing,
        )
    for team, seat in enumerate(unactivated):
        if seat is None:
            continue
        if len(hands[seat]) != rules.reserve_size or known[seat]:
            raise _fail(
                f"unactivated[{team}] is seat {seat}, which received its reserve by its final "
                f"discard and has not played since: its hand is that packet of "
                f"{rules.reserve_size} unseen cards, not {len(hands[seat])} (B5.4, B8.7)",
                "B5.4",
            )
    # A biriba stays one while no meld can take a second substitute (B3.3); where one can
    # (V7, Z3.4) it may stop being one after the reserve came, but stays as long: melds
    # only grow (B3.8).
    biribas_last = rules.multi_substitute_biriba or (
        rules.max_substitutes is not None and rules.max_substitutes <= 1
    )
    for team, laid in enumerate(melds):
        if not received[team] or not rules.reserve_needs_biriba:
            continue
        # An empty packet stands for "a packet to receive": only the biriba is asked.
        if biribas_last and not engine.can_receive(laid, ()):
            raise _fail(
                f"team {team} has received its reserve but has no biriba on the table, which "
                f"receiving needs and no play removes (B5.2)",
                "B5.2",
            )
        if not any(len(meld.cards) >= rules.biriba_size for meld in laid):
            raise _fail(
                f"team {team} has received its reserve but has no meld of "
                f"{rules.biriba_size} cards or more: receiving needed a biriba, and melds "
                f"only grow (B5.2, B3.8)",
                "B5.2",
            )
    if closed_by is not None:
        team = closed_by % rules.teams
        if not engine.can_close(melds[team], received[team]):
            closing = engine.by_family.closing
            raise _fail(
                f"closed_by {closed_by}, but team {team} could not close: "
                f"{engine.by_family.closing_needs} ({closing})",
                closing,
            )


def _copies(cards: Counter[Card]) -> str:
    """Cards with their number of copies, in pack order: ``7H, JK (2 copies)``; past
    :data:`_COPIES_SHOWN` cards, how many more (a message stays short, API.md)."""
    listed = [
        str(card) if count == 1 else f"{card} ({count} copies)"
        for card, count in sorted(cards.items())
    ]
    more = len(listed) - _COPIES_SHOWN
    return ", ".join(listed[:_COPIES_SHOWN]) + (f" and {more} more" if more > 0 else "")


#: How many cards a message lists of those over or under their copies (B1.2).
_COPIES_SHOWN: Final = 6


def _rules(named: object, given: RuleSet | None) -> RuleSet:
    """The rule set a position's ``rules`` value names: a preset's name or a rule set's
    data; ``given``, when not ``None``, must hold the same rules (its name aside,
    :func:`~biriba.rules.same_rules`), and is then the rule set read (a name that is
    ``given``'s stands for it, preset or not)."""
    if given is not None:
        check_rules(given)
    if given is not None and isinstance(named, str) and named == given.name:
        return given
    try:
        found = rules_from_data(named)
    except BiribaError as error:
        raise _fail(f"rules: {error}", error.rule) from None
    if given is not None:
        if not same_rules(found, given):
            differ = ", ".join(differing_fields(found, given))
            raise _fail(
                f"the position's rules are not the rule set given ({given.name[:40]!r}): "
                f"they differ in {differ}"
            )
        return given
    return found


def _flag(data: Mapping[str, Any], key: str, default: bool) -> bool:
    value = data.get(key)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise _fail(f"{key} must be true or false, got {type(value).__name__}")
    return value


def _last_turn(data: Mapping[str, Any], phase: Phase, gone: bool, pile: list[Card]) -> bool:
    """Z4.3's ``last_turn``, checked against the stock and the mortos (``gone``: both
    exhausted); the default is worked out from them."""
    if phase is Phase.DRAW:
        default = gone
    elif phase is Phase.PLAY:
        default = gone and not pile  # the mover took the pile
    else:
        default = gone
    last_turn = _flag(data, "last_turn", default)
    if last_turn and not gone:
        raise _fail("last_turn is true only once the stock and the mortos are gone (Z4.3)", "Z4.3")
    if phase is Phase.DRAW and last_turn != gone:
        raise _fail("a turn that begins with no stock and no morto is the last (Z4.3)", "Z4.3")
    if phase is Phase.PLAY and last_turn != default and not (gone and not pile):
        # In play, the pile is empty once the mover took it (a turn ends with a discard),
        # and with no stock and no morto that turn began so: the last. In a position
        # given by hand the pile may have been empty when the mover drew the stock's
        # last card: that turn is not the last, and either value is read as given.
        raise _fail(
            "in the play phase last_turn is true exactly when the stock and the mortos are "
            "gone and the mover took the discard pile (Z4.3)",
            "Z4.3",
        )
    return last_turn


def _bonus_suit(
    data: Mapping[str, Any], rules: RuleSet, pile: list[Card], first: bool
) -> Suit | None:
    """V1's bonus suit: read, or, in the deal's ``first`` position (its first turn before
    any move, :meth:`Engine.begins <biriba.engine.Engine.begins>`), worked out from the
    up-card, the pile's one card; ``None`` only while a joker up-card waits to be named."""
    value = data.get("bonus_suit")
    if rules.bonus_suit_bonus is None:
        if value is not None:
            raise _fail("bonus_suit is set, but the rule set has no kózi (V1)", "V1")
        return None
    if value is not None:
        if not isinstance(value, str):
            raise _fail(f"bonus_suit must be 'C', 'D', 'H', 'S' or null, got {excerpt(value)}")
        try:
            named = Suit.parse(value)
        except NotationError as error:
            raise _fail(f"bonus_suit: {error}", "V1") from None
        if first and named is not pile[0].suit:
            # Nothing is played yet: the up-card alone decides.
            up = pile[0]
            if up.suit is None:
                raise _fail(
                    f"bonus_suit is {excerpt(value)}, but the up-card is a joker: the first player "
                    f"names the suit by the first move, so it is null until then (V1)",
                    "V1",
                )
            raise _fail(
                f"bonus_suit is {excerpt(value)}, but the deal's first up-card {up} gives the suit "
                f"{up.suit} (V1)",
                "V1",
            )
        return named
    if first:
        # The up-card names the suit, or a joker waits for the first player to name it.
        return pile[0].suit
    raise _fail("bonus_suit is needed once the deal has begun (V1)", "V1")
