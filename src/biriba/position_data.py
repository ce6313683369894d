"""Positions as data: a :class:`~biriba.position.Position` to and from plain JSON-ready
data, the format of :meth:`Deal.to_dict <biriba.Deal.to_dict>` and :meth:`Deal.from_dict
<biriba.Deal.from_dict>`.

Reading checks everything: each card of the pack exactly once, valid melds, seats, phase
and reserve state consistent, and a legal move for the player to move. Every problem
raises :class:`~biriba.InvalidPositionError` naming it, with the rule it breaks as
``err.rule`` (``None`` for data that is merely malformed).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from biriba.cards import EMPTY_COUNTS, Card, cards_of, counts_of
from biriba.engine import engine_for, unsupported
from biriba.errors import BiribaError, InvalidMeldError, InvalidPositionError, NotationError
from biriba.melds import Meld
from biriba.position import Phase, Position
from biriba.rules import RuleSet, full_pack

__all__ = ["REQUIRED_KEYS", "position_to_dict", "read_position"]

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
    """The error for a position; ``rule`` is the id of the rule it breaks, if any."""
    return InvalidPositionError(f"invalid position: {message}", rule=rule)


def position_to_dict(position: Position, rules: RuleSet) -> dict[str, Any]:
    """``position`` as plain JSON-ready data (the format :func:`read_position` reads)."""
    return {
        "rules": rules.name,
        "dealer": position.dealer,
        "to_move": position.to_move,
        "phase": position.phase.value,
        "hands": [[str(c) for c in cards_of(h)] for h in position.hands],
        "stock": [str(c) for c in position.stock],
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


def _card(value: object, where: str) -> Card:
    if not isinstance(value, str):
        raise _fail(f"{where}: a card is written as a string like '7H', got {value!r}")
    try:
        return Card.parse(value)
    except NotationError as error:
        raise _fail(f"{where}: {error}") from None


def _cards(value: object, where: str) -> list[Card]:
    if not isinstance(value, list | tuple):
        raise _fail(f"{where} must be a list of cards, got {type(value).__name__}")
    return [_card(v, f"{where}[{i}]") for i, v in enumerate(value)]


def _int(
    value: object, where: str, low: int, high: int, rule: str, *, null: bool = False
) -> int | None:
    if value is None and null:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(f"{where} must be an int{' or null' if null else ''}, got {value!r}")
    if not low <= value <= high:
        raise _fail(f"{where} is {value}, out of range {low}..{high}", rule)
    return value


def _list(value: object, where: str, length: int) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise _fail(f"{where} must be a list, got {type(value).__name__}")
    if len(value) != length:
        raise _fail(f"{where} must have {length} entries, got {len(value)}")
    return list(value)


def read_position(data: Mapping[str, Any], rules: RuleSet | None) -> tuple[RuleSet, Position]:
    """The rule set and the :class:`~biriba.position.Position` of position data, checked;
    see :meth:`Deal.from_dict <biriba.Deal.from_dict>`."""
    if not isinstance(data, Mapping):
        raise TypeError(f"a position is a dict, got {type(data).__name__}")
    missing = [k for k in REQUIRED_KEYS if k not in data]
    if missing:
        raise _fail(f"missing key(s) {', '.join(missing)}")
    if rules is None:
        name = data["rules"]
        if not isinstance(name, str):
            raise _fail(f"rules must be a rule set's name, got {name!r}")
        try:
            rules = RuleSet.named(name)
        except BiribaError as error:
            raise _fail(str(error)) from None
    elif not isinstance(rules, RuleSet):
        raise TypeError(f"rules must be a RuleSet, got {type(rules).__name__}")
    elif data["rules"] != rules.name:
        raise _fail(f"rules is {data['rules']!r} but the rule set given is {rules.name!r}")
    problem = unsupported(rules)
    if problem:
        raise _fail(
            f"the deal engine does not support the rule set {rules.name!r}: {problem[1]}",
            problem[0],
        )
    n, t = rules.players, rules.teams
    dealer = _int(data["dealer"], "dealer", 0, n - 1, "B1.1")
    assert dealer is not None
    phase_text = data["phase"]
    try:
        phase = Phase(phase_text)
    except ValueError:
        raise _fail(f"phase must be 'draw', 'play' or 'over', got {phase_text!r}") from None
    to_move = _int(data["to_move"], "to_move", 0, n - 1, "B1.1", null=True)
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
    if len(packets) != rules.reserve_count - sum(received):
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
                raise _fail(f"melds[{team}][{j}] must be a meld's text, got {text!r}")
            try:
                team_melds.append(Meld.parse(text, rules))
            except (NotationError, InvalidMeldError) as error:
                raise _fail(f"melds[{team}][{j}]: {error}", error.rule) from None
        melds.append(tuple(team_melds))
    passes = _int(data["passes"], "passes", 0, rules.pass_limit, "B4.4")
    assert passes is not None
    pile_card = None
    if data.get("pile_card") is not None:
        pile_card = _card(data["pile_card"], "pile_card")
        if phase is not Phase.PLAY:
            raise _fail("pile_card is set only in the play phase (B4.2)", "B4.2")
    unactivated_raw = data.get("unactivated")
    unactivated: list[int | None] = [None] * t
    if unactivated_raw is not None:
        for team, seat in enumerate(_list(unactivated_raw, "unactivated", t)):
            value = _int(seat, f"unactivated[{team}]", 0, n - 1, "B1.1", null=True)
            if value is not None:
                if value % t != team:
                    raise _fail(f"unactivated[{team}]: seat {value} is not in team {team}", "B1.1")
                if not received[team]:
                    raise _fail(
                        f"unactivated[{team}]: team {team} has not received a reserve", "B5.4"
                    )
            unactivated[team] = value
    closed_by = _int(data.get("closed_by"), "closed_by", 0, n - 1, "B1.1", null=True)
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
            parts.append("too many " + " ".join(f"{c}x{k}" for c, k in sorted(extra.items())))
        if short:
            parts.append("missing " + " ".join(f"{c}x{k}" for c, k in sorted(short.items())))
        raise _fail(f"the cards are not the pack exactly once (B1.2): {'; '.join(parts)}", "B1.2")

    # The phase and the state around it.
    if phase is Phase.OVER:
        if closed_by is None and passes < rules.pass_limit:
            raise _fail("a deal over with nobody closing needs pass_limit passes (B7.1)", "B7.1")
        if closed_by is not None:
            if hands[closed_by]:
                raise _fail(f"closed_by {closed_by}, but that hand is not empty (B6.1)", "B6.1")
            if not received[closed_by % t]:
                raise _fail("the closing team must have received its reserve (B6.1)", "B6.1")
    else:
        if closed_by is not None:
            raise _fail("closed_by is set but the deal is not over (B7.1)", "B7.1")
        if passes >= rules.pass_limit:
            raise _fail(f"{passes} passes in a row end the deal (B4.4)", "B4.4")
        if passes and engine_for(rules).stock_open(len(stock)):
            raise _fail("passes happen only with the stock empty (B4.4)", "B4.4")
        if phase is Phase.PLAY and passes:
            raise _fail(
                "passes are 0 in the play phase: a draw or a take ends a run (B4.4)", "B4.4"
            )
        assert to_move is not None
        if unactivated[to_move % t] == to_move:
            raise _fail(
                f"unactivated[{to_move % t}] is seat {to_move}, whose turn has begun (B5.4)",
                "B5.4",
            )
    for seat, hand in enumerate(hands):
        if not hand and rules.keep_after_melding > 1 and seat != closed_by:
            raise _fail(f"hands[{seat}] is empty; a hand empties only to close (B4.3)", "B4.3")

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
        stock=tuple(stock),
        pile=tuple(pile),
        reserves=tuple(tuple(p) for p in packets),
        received=received,
        unactivated=tuple(unactivated),
        passes=passes,
        pile_card=pile_card,
        closed_by=closed_by,
    )
    if phase is not Phase.OVER and not engine_for(rules).legal_moves(position):
        raise _fail(
            f"seat {to_move} has no legal move: no turn can be finished from here (B4.5)", "B4.5"
        )
    return rules, position
