"""Reading positions: :meth:`Deal.from_dict <biriba.Deal.from_dict>` and its checks.

A position is plain JSON-ready data (the keys of :meth:`Deal.to_dict
<biriba.Deal.to_dict>`). Everything is checked: each card of the pack exactly once, valid
melds, seats, phase and reserve state consistent, and a legal move for the player to
move. Every problem raises :class:`~biriba.InvalidPositionError` naming it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from biriba.cards import Card
from biriba.errors import BiribaError, InvalidMeldError, InvalidPositionError, NotationError
from biriba.melds import Meld
from biriba.rules import RuleSet, full_pack

if TYPE_CHECKING:
    from biriba.deal import Deal

__all__ = ["REQUIRED_KEYS", "deal_from_dict"]

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


def _fail(message: str) -> InvalidPositionError:
    return InvalidPositionError(f"invalid position: {message}")


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


def _int(value: object, where: str, low: int, high: int, *, null: bool = False) -> int | None:
    if value is None and null:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(f"{where} must be an int{' or null' if null else ''}, got {value!r}")
    if not low <= value <= high:
        raise _fail(f"{where} is {value}, out of range {low}..{high}")
    return value


def _list(value: object, where: str, length: int) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise _fail(f"{where} must be a list, got {type(value).__name__}")
    if len(value) != length:
        raise _fail(f"{where} must have {length} entries, got {len(value)}")
    return list(value)


def deal_from_dict(cls: type[Deal], data: Mapping[str, Any], rules: RuleSet | None) -> Deal:
    """Build and check a :class:`~biriba.Deal` from a position; see ``Deal.from_dict``."""
    from biriba.deal import Phase, _unsupported
    from biriba.engine import EMPTY_COUNTS, counts_of

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
    problem = _unsupported(rules)
    if problem:
        raise _fail(f"the deal engine does not support the rule set {rules.name!r}: {problem}")
    n, t = rules.players, rules.teams
    dealer = _int(data["dealer"], "dealer", 0, n - 1)
    assert dealer is not None
    phase_text = data["phase"]
    try:
        phase = Phase(phase_text)
    except ValueError:
        raise _fail(f"phase must be 'draw', 'play' or 'over', got {phase_text!r}") from None
    to_move = _int(data["to_move"], "to_move", 0, n - 1, null=True)
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
            raise _fail(f"reserves[{i}] has {len(packet)} cards, not {rules.reserve_size}")
    received_raw = _list(data["reserve_received"], "reserve_received", t)
    if not all(isinstance(r, bool) for r in received_raw):
        raise _fail("reserve_received must hold true or false for each team")
    received = tuple(bool(r) for r in received_raw)
    if len(packets) != rules.reserve_count - sum(received):
        raise _fail(
            f"{len(packets)} reserve packet(s) left, but {sum(received)} of "
            f"{rules.reserve_count} have been received (B5.1)"
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
                raise _fail(f"melds[{team}][{j}]: {error}") from None
        melds.append(tuple(team_melds))
    passes = _int(data["passes"], "passes", 0, rules.pass_limit)
    assert passes is not None
    pile_card = None
    if data.get("pile_card") is not None:
        pile_card = _card(data["pile_card"], "pile_card")
        if phase is not Phase.PLAY:
            raise _fail("pile_card is set only in the play phase (B4.2)")
    unactivated_raw = data.get("unactivated")
    unactivated: list[int | None] = [None] * t
    if unactivated_raw is not None:
        for team, seat in enumerate(_list(unactivated_raw, "unactivated", t)):
            value = _int(seat, f"unactivated[{team}]", 0, n - 1, null=True)
            if value is not None:
                if value % t != team:
                    raise _fail(f"unactivated[{team}]: seat {value} is not in team {team}")
                if not received[team]:
                    raise _fail(f"unactivated[{team}]: team {team} has not received a reserve")
            unactivated[team] = value
    closed_by = _int(data.get("closed_by"), "closed_by", 0, n - 1, null=True)
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
        raise _fail(f"the cards are not the pack exactly once (B1.2): {'; '.join(parts)}")

    # The phase and the state around it.
    if phase is Phase.OVER:
        if closed_by is None and passes < rules.pass_limit:
            raise _fail("a deal over with nobody closing needs pass_limit passes (B7.1)")
        if closed_by is not None:
            if hands[closed_by]:
                raise _fail(f"closed_by {closed_by}, but that hand is not empty (B6.1)")
            if not received[closed_by % t]:
                raise _fail("the closing team must have received its reserve (B6.1)")
    else:
        if closed_by is not None:
            raise _fail("closed_by is set but the deal is not over")
        if passes >= rules.pass_limit:
            raise _fail(f"{passes} passes in a row end the deal (B4.4)")
        if passes and len(stock) > rules.stock_end_remaining:
            raise _fail("passes happen only with the stock empty (B4.4)")
        if phase is Phase.PLAY and passes:
            raise _fail("passes are 0 in the play phase: a draw or a take ends a run (B4.4)")
        assert to_move is not None
        if unactivated[to_move % t] == to_move:
            raise _fail(
                f"unactivated[{to_move % t}] is seat {to_move}, whose turn has begun (B5.4)"
            )
    for seat, hand in enumerate(hands):
        if not hand and rules.keep_after_melding > 1 and seat != closed_by:
            raise _fail(f"hands[{seat}] is empty; a hand empties only to close (B4.3)")

    deal = cls._blank(rules, dealer)
    deal._hands = tuple(counts_of(h) for h in hands)
    deal._sizes = tuple(len(h) for h in hands)
    deal._melds = tuple(melds)
    deal._stock = stock
    deal._pile = pile
    deal._reserves = tuple(tuple(p) for p in packets)
    deal._received = received
    deal._unactivated = tuple(unactivated)
    deal._passes = passes
    deal._phase = phase
    if to_move is not None:
        deal._seat = to_move
    elif closed_by is not None:
        deal._seat = closed_by
    deal._pile_card = pile_card
    deal._closed_by = closed_by
    deal._known = tuple(counts_of(k) if k else EMPTY_COUNTS for k in known)
    deal._start = deal.to_dict()
    if phase is not Phase.OVER and not deal.legal_moves():
        raise _fail(f"seat {to_move} has no legal move: no turn can be finished from here (B4.5)")
    return deal
