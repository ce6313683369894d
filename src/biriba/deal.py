"""One deal of Biriba (RULES.md part B): turns, legal moves, scoring and positions.

:class:`~biriba.Deal` is the library's one mutable object. It deals by B2 with its own
seeded generator, lists every legal move (:meth:`~biriba.Deal.legal_moves`), checks and
applies moves (:meth:`~biriba.Deal.verify`, :meth:`~biriba.Deal.is_legal`,
:meth:`~biriba.Deal.play`), takes them back (:meth:`~biriba.Deal.undo`), scores
(:meth:`~biriba.Deal.score`) and converts itself to and from plain JSON-ready data
(:meth:`~biriba.Deal.to_dict`, :meth:`~biriba.Deal.from_dict`)::

    >>> deal = Deal.new(seed=7)
    >>> deal.phase, deal.to_move, len(deal.hand(1)), len(deal.stock)
    (<Phase.DRAW: 'draw'>, 1, 11, 41)
    >>> [str(m) for m in deal.legal_moves()]
    ['draw', 'take']
    >>> deal.play("draw")
    >>> deal.phase
    <Phase.PLAY: 'play'>
"""

from __future__ import annotations

import copy
import enum
import random
from collections.abc import Iterable, Mapping
from operator import mul
from typing import TYPE_CHECKING, Any, TypeVar

from biriba.cards import Card, format_cards
from biriba.engine import (
    EMPTY_COUNTS,
    Engine,
    Key,
    MoveList,
    cards_of,
    counts_of,
    engine_for,
)
from biriba.errors import (
    AmbiguousMoveError,
    BiribaError,
    IllegalMoveError,
    InvalidMeldError,
)
from biriba.melds import Meld
from biriba.moves import AddToMeld, Discard, DrawStock, LayMeld, Move, Pass, TakeDiscard
from biriba.rules import BIRIBA, PileRestriction, RuleSet, StockExhausted, full_pack
from biriba.scoring import DealScore, TeamScore

if TYPE_CHECKING:
    from biriba.view import PlayerView

__all__ = ["Deal", "Phase", "team_of"]

_T = TypeVar("_T")


class Phase(enum.Enum):
    """Where the player to move stands in the turn (B4.1)."""

    #: The start of a turn: draw, take the pile, or (stock empty) pass.
    DRAW = "draw"
    #: After the draw: meld, add, and finally discard.
    PLAY = "play"
    #: The deal is over (B7.1).
    OVER = "over"


def team_of(seat: int, rules: RuleSet = BIRIBA) -> int:
    """The team of ``seat``: ``seat % teams`` (B1.1: seats 0 and 2 are team 0)."""
    _check_seat(seat, rules)
    return seat % rules.teams


def _check_seat(seat: object, rules: RuleSet) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise TypeError(f"a seat is an int, got {type(seat).__name__}")
    if not 0 <= seat < rules.players:
        raise BiribaError(f"seat {seat} is out of range 0..{rules.players - 1} (B1.1)")
    return seat


def _unsupported(rules: RuleSet) -> str | None:
    if rules.first_turn_redraw:
        return "first_turn_redraw (Z2.2)"
    if rules.stock_exhausted is not StockExhausted.TAKE_OR_PASS:
        return "stock_exhausted=RESERVE_BECOMES_STOCK (Z4.3)"
    if rules.entry_minimum:
        return "entry_minimum (V3)"
    if rules.bonus_suit_bonus is not None:
        return "bonus_suit_bonus (V1)"
    return None


def _put(values: tuple[_T, ...], index: int, value: _T) -> tuple[_T, ...]:
    """``values`` with ``values[index]`` replaced by ``value``."""
    changed = list(values)
    changed[index] = value
    return tuple(changed)


class Deal:
    """One deal of Biriba: the library's one mutable object.

    Build one with :meth:`new` (a seeded, shuffled deal by B2) or :meth:`from_dict` (any
    position). Seats are numbered 0..3 in playing order; seat ``s`` plays for team
    ``s % 2``.
    """

    __slots__ = (
        "_closed_by",
        "_engine",
        "_hands",
        "_history",
        "_known",
        "_melds",
        "_memo",
        "_passes",
        "_phase",
        "_pile",
        "_pile_card",
        "_received",
        "_reserves",
        "_seat",
        "_seed",
        "_sizes",
        "_start",
        "_stock",
        "_unactivated",
        "_undo",
        "_undo_extra",
        "dealer",
        "rules",
    )

    #: The rule set the deal is played under.
    rules: RuleSet
    #: The dealer's seat (B2.1).
    dealer: int
    _engine: Engine
    _hands: tuple[tuple[int, ...], ...]
    _sizes: tuple[int, ...]
    _melds: tuple[tuple[Meld, ...], ...]
    _stock: list[Card]
    _pile: list[Card]
    _reserves: tuple[tuple[Card, ...], ...]
    _received: tuple[bool, ...]
    _unactivated: tuple[int | None, ...]
    _passes: int
    _phase: Phase
    _seat: int
    _pile_card: Card | None
    _closed_by: int | None
    _history: list[Move]
    _undo: list[tuple[Any, ...]]
    _undo_extra: list[Any]
    _memo: tuple[Any, ...] | None
    _known: tuple[tuple[int, ...], ...]
    _seed: int | str | None
    _start: dict[str, Any] | None

    def __init__(self) -> None:
        raise TypeError("build a Deal with Deal.new(...) or Deal.from_dict(...)")

    @classmethod
    def _blank(cls, rules: RuleSet, dealer: int) -> Deal:
        deal = object.__new__(cls)
        deal.rules = rules
        deal.dealer = dealer
        deal._engine = engine_for(rules)
        n, t = rules.players, rules.teams
        deal._hands = (EMPTY_COUNTS,) * n
        deal._sizes = (0,) * n
        deal._melds = ((),) * t
        deal._stock = []
        deal._pile = []
        deal._reserves = ()
        deal._received = (False,) * t
        deal._unactivated = (None,) * t
        deal._passes = 0
        deal._phase = Phase.DRAW
        deal._seat = (dealer + 1) % n
        deal._pile_card = None
        deal._closed_by = None
        deal._history = []
        deal._undo = []
        deal._undo_extra = []
        deal._memo = None
        deal._known = (EMPTY_COUNTS,) * n
        deal._seed = None
        deal._start = None
        return deal

    # ================================================================ building
    @classmethod
    def new(
        cls, rules: RuleSet = BIRIBA, *, seed: int | str | None = None, dealer: int = 0
    ) -> Deal:
        """Shuffle with ``random.Random(seed)`` and deal by B2.

        The shuffled pack is dealt from its front: one card at a time to each player,
        starting with the seat after the dealer, 11 each (B2.3); then the two reserve
        packets of 11, the first of them the top packet (B5.1); then the up-card that
        starts the discard pile; the rest is the stock, whose top card (the last of
        :attr:`stock`) is the next card of the shuffled pack. The same seed always gives
        the same deal. Without a seed, one is drawn from the system's entropy and kept in
        :attr:`seed`, so that the deal can still be recorded and replayed.
        """
        if not isinstance(rules, RuleSet):
            raise TypeError(f"rules must be a RuleSet, got {type(rules).__name__}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | str)):
            raise TypeError(f"seed must be an int, a str or None, got {type(seed).__name__}")
        _check_seat(dealer, rules)
        missing = _unsupported(rules)
        if missing:
            raise BiribaError(
                f"the deal engine does not support the rule set {rules.name!r} yet: {missing}"
            )
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        pack = list(full_pack(rules))
        random.Random(seed).shuffle(pack)
        deal = cls._blank(rules, dealer)
        deal._seed = seed
        n = rules.players
        pos = 0
        hands: list[list[Card]] = [[] for _ in range(n)]
        for i in range(n * rules.hand_size):
            hands[(dealer + 1 + i) % n].append(pack[pos])
            pos += 1
        deal._hands = tuple(counts_of(h) for h in hands)
        deal._sizes = tuple(len(h) for h in hands)
        reserves = []
        for _ in range(rules.reserve_count):
            reserves.append(tuple(pack[pos : pos + rules.reserve_size]))
            pos += rules.reserve_size
        deal._reserves = tuple(reserves)
        if rules.up_card:
            deal._pile = [pack[pos]]
            pos += 1
        deal._stock = pack[pos:][::-1]
        return deal

    def copy(self) -> Deal:
        """An independent copy, history included; cheap enough to call per search node."""
        other = object.__new__(Deal)
        other.rules = self.rules
        other.dealer = self.dealer
        other._engine = self._engine
        other._hands = self._hands
        other._sizes = self._sizes
        other._melds = self._melds
        other._stock = self._stock.copy()
        other._pile = self._pile.copy()
        other._reserves = self._reserves
        other._received = self._received
        other._unactivated = self._unactivated
        other._passes = self._passes
        other._phase = self._phase
        other._seat = self._seat
        other._pile_card = self._pile_card
        other._closed_by = self._closed_by
        other._history = self._history.copy()
        other._undo = self._undo.copy()
        other._undo_extra = self._undo_extra.copy()
        other._memo = self._memo
        other._known = self._known
        other._seed = self._seed
        other._start = self._start
        return other

    __copy__ = copy

    def __deepcopy__(self, memo: object) -> Deal:
        return self.copy()

    # ================================================================ reading
    @property
    def phase(self) -> Phase:
        """:attr:`Phase.DRAW`, :attr:`Phase.PLAY` or :attr:`Phase.OVER`."""
        return self._phase

    @property
    def is_over(self) -> bool:
        """Whether the deal has ended (B7.1)."""
        return self._phase is Phase.OVER

    @property
    def to_move(self) -> int | None:
        """The seat to act, ``None`` once the deal is over."""
        return None if self._phase is Phase.OVER else self._seat

    def team_of(self, seat: int) -> int:
        """The team of ``seat`` (B1.1)."""
        return team_of(seat, self.rules)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards in ``seat``'s hand, sorted (clubs, diamonds, hearts, spades, jokers)."""
        return cards_of(self._hands[_check_seat(seat, self.rules)])

    def hand_size(self, seat: int) -> int:
        """How many cards ``seat`` holds."""
        return self._sizes[_check_seat(seat, self.rules)]

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, bottom to top: the last card is the next one drawn."""
        return tuple(self._stock)

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, bottom to top: the last card is the top."""
        return tuple(self._pile)

    @property
    def reserves(self) -> tuple[tuple[Card, ...], ...]:
        """The reserve packets not yet received, the next one to be given first."""
        return self._reserves

    def melds(self, team: int) -> tuple[Meld, ...]:
        """The melds of ``team``, in the order they were laid (indices of :class:`AddToMeld`)."""
        return self._melds[self._check_team(team)]

    def reserve_received(self, team: int) -> bool:
        """Whether ``team`` has received its reserve (B5.1), activated or not."""
        return self._received[self._check_team(team)]

    def reserve_unactivated(self, team: int) -> int | None:
        """The seat of ``team`` that received the reserve by its final discard and has not
        had its next turn yet (B5.4), else ``None``."""
        return self._unactivated[self._check_team(team)]

    @property
    def seed(self) -> int | str | None:
        """The seed the deal was shuffled with; ``None`` for a deal built from a position."""
        return self._seed

    @property
    def start(self) -> dict[str, Any] | None:
        """The position a deal built by :meth:`from_dict` started from (a copy), else
        ``None``: with :attr:`seed` and :attr:`history` it is what a record needs."""
        return None if self._start is None else copy.deepcopy(self._start)

    def known_cards(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` is publicly known to hold: taken with the discard pile and
        not melded or discarded since (a card played counts against a known copy)."""
        return cards_of(self._known[_check_seat(seat, self.rules)])

    @property
    def passes(self) -> int:
        """Passes in a row so far (B4.4)."""
        return self._passes

    @property
    def pile_card(self) -> Card | None:
        """The card taken this turn from a one-card pile, barred from the discard (B4.2)."""
        return self._pile_card

    @property
    def closed_by(self) -> int | None:
        """The seat that closed the deal (B6.1), else ``None``."""
        return self._closed_by

    @property
    def history(self) -> tuple[Move, ...]:
        """The moves played since the deal was built, in order."""
        return tuple(self._history)

    def _check_team(self, team: object) -> int:
        if isinstance(team, bool) or not isinstance(team, int):
            raise TypeError(f"a team is an int, got {type(team).__name__}")
        if not 0 <= team < self.rules.teams:
            raise BiribaError(f"team {team} is out of range 0..{self.rules.teams - 1} (B1.1)")
        return team

    # ================================================================ legal moves
    def _key(self) -> Key:
        seat = self._seat
        team = seat % self.rules.teams
        received = self._received[team]
        packet = None if received or not self._reserves else self._reserves[0]
        return (self._hands[seat], self._melds[team], received, packet, self._pile_card)

    def _play_list(self) -> MoveList:
        """The play phase's legal moves, remembered while the inputs stay the same objects."""
        seat = self._seat
        team = seat % self.rules.teams
        hand = self._hands[seat]
        melds = self._melds[team]
        reserves = self._reserves
        received = self._received
        pile_card = self._pile_card
        memo = self._memo
        if (
            memo is not None
            and memo[0] is hand
            and memo[1] is melds
            and memo[2] is reserves
            and memo[3] is received
            and memo[4] is pile_card
            and memo[5] == team
        ):
            listed: MoveList = memo[6]
            return listed
        listed = self._engine.play_moves(self._key(), self._sizes[seat])
        self._memo = (hand, melds, reserves, received, pile_card, team, listed)
        return listed

    def _stock_open(self) -> bool:
        return len(self._stock) > self.rules.stock_end_remaining

    def _take_ok(self) -> bool:
        key = self._key()
        return self._engine.take_ok(
            key[0], self._sizes[self._seat], self._pile, key[1], key[2], key[3]
        )

    def _draw_moves(self) -> tuple[Move, ...]:
        key = self._key()
        return self._engine.draw_moves(
            key[0],
            self._sizes[self._seat],
            self._pile,
            key[1],
            key[2],
            key[3],
            self._stock_open(),
        )

    def legal_moves(self) -> tuple[Move, ...]:
        """Every legal move, each once; empty only once the deal is over (B4.5).

        An addition with a choice of outcomes (B3.9 to B3.12) is listed once per outcome
        in its full form (``add 0 5H -> 4H 5H 6H 7H JK``), otherwise in the short form.
        """
        phase = self._phase
        if phase is Phase.PLAY:
            return self._play_list().moves
        if phase is Phase.DRAW:
            return self._draw_moves()
        return ()

    def _canonical(self, move: Move | str) -> Move:
        """The move as ``legal_moves`` writes it, or an error saying why it is illegal."""
        if isinstance(move, str):
            try:
                move = Move.parse(move, self.rules)
            except InvalidMeldError as error:
                raise IllegalMoveError(f"illegal move {move!r}: {error}") from None
        elif not isinstance(move, Move):
            raise TypeError(f"a move is a Move or its text, got {type(move).__name__}")
        if self._phase is Phase.OVER:
            raise IllegalMoveError(f"illegal move {str(move)!r}: the deal is over (B7.1)")
        if self._phase is Phase.PLAY:
            legal = self._play_list()
            for listed in legal.moves:
                if listed is move:  # the usual case: a move taken from legal_moves()
                    return move
            if isinstance(move, AddToMeld):
                move = self._canonical_add(move, legal)
            if move in legal:
                return move
        elif isinstance(move, DrawStock):
            if self._stock_open():
                return move
        elif isinstance(move, Pass):
            if not self._stock_open():
                return move
        elif isinstance(move, TakeDiscard) and self._take_ok():
            return move
        raise IllegalMoveError(f"illegal move {str(move)!r}: {self._explain(move)}")

    def _canonical_add(self, move: AddToMeld, legal: MoveList) -> AddToMeld:
        melds = self._melds[self._seat % self.rules.teams]
        if move.index >= len(melds) or not self._hands[self._seat][move.card.index]:
            return move
        results = melds[move.index].extensions(move.card)
        if move.result is None and len(results) > 1:
            full = tuple(AddToMeld(move.index, move.card, r) for r in results)
            allowed = tuple(m for m in full if m in legal)
            if allowed:
                listing = ", ".join(repr(str(m)) for m in allowed)
                raise AmbiguousMoveError(
                    f"ambiguous move {str(move)!r}: {move.card} has a choice of places "
                    f"(B3.12); write one of {listing}",
                    allowed,
                )
            return full[0]
        if move.result is not None and len(results) == 1 and results[0] == move.result:
            return AddToMeld(move.index, move.card)
        return move

    def _explain(self, move: Move) -> str:
        """Why ``move`` is not legal here, with the rule id."""
        rules = self.rules
        seat = self._seat
        team = seat % rules.teams
        counts = self._hands[seat]
        size = self._sizes[seat]
        if self._phase is Phase.DRAW:
            if isinstance(move, DrawStock):
                return "B4.4: the stock is empty; take the discard pile or pass"
            if isinstance(move, TakeDiscard):
                if not self._pile:
                    return "B4.1: the discard pile is empty"
                if rules.pile_restriction is PileRestriction.NO_TAKE_WITH_ONE_CARD:
                    return "Z4.4: a player holding a single card may not take a one-card pile"
                return (
                    "B4.5: after taking the pile the player could not finish the turn "
                    "(B4.2 bars discarding the one card taken, and nothing could be melded)"
                )
            if isinstance(move, Pass):
                return "B4.4: a player may pass only when the stock is empty"
            return f"B4.1: seat {seat} must first draw from the stock or take the discard pile"
        if isinstance(move, DrawStock | TakeDiscard | Pass):
            return f"B4.1: seat {seat} has already drawn this turn; meld, add or discard"
        if isinstance(move, Discard):
            card = move.card
            if not counts[card.index]:
                return f"B4.1: seat {seat} does not hold {card}"
            if card is self._pile_card:
                return (
                    f"B4.2: {card} was taken from a one-card pile this turn; neither it nor "
                    f"an identical card may be discarded"
                )
            if size == 1:
                return (
                    "B4.3: the last card may be discarded only to receive the reserve (B5.2, "
                    "B5.4: the team needs a biriba and no reserve yet) or to close (B6.1: the "
                    "team needs its reserve and a biriba)"
                )
            return "B4.5: this discard is not allowed here"
        melds = self._melds[team]
        if isinstance(move, LayMeld):
            meld = move.meld
            if meld.rules != rules:
                return f"the meld was built under the rule set {meld.rules.name!r}"
            if any(n > counts[i] for i, n in enumerate(counts_of(meld.cards))):
                return f"B4.1: seat {seat} does not hold {format_cards(meld.cards)}"
            if rules.max_new_meld is not None and len(meld) > rules.max_new_meld:
                return f"Z3.2: a new meld has at most {rules.max_new_meld} cards"
            return self._explain_after(len(meld.cards), (*melds, meld))
        if isinstance(move, AddToMeld):
            if move.index >= len(melds):
                return f"B3.8: team {team} has no meld {move.index} (it has {len(melds)})"
            if not counts[move.card.index]:
                return f"B4.1: seat {seat} does not hold {move.card}"
            target = melds[move.index]
            results = target.extensions(move.card)
            if not results:
                return _why_not_added(target, move.card)
            if move.result is not None and move.result not in results:
                listing = ", ".join(str(r) for r in results)
                return f"B3.12: adding {move.card} to {target} gives {listing}, not {move.result}"
            result = move.result or results[0]
            new_melds = (*melds[: move.index], result, *melds[move.index + 1 :])
            return self._explain_after(1, new_melds)
        return "B4.1: not a move of this turn"

    def _explain_after(self, used: int, new_melds: tuple[Meld, ...]) -> str:
        team = self._seat % self.rules.teams
        if used >= self._sizes[self._seat]:
            if self._received[team] or not self._reserves:
                return (
                    "B4.3: a hand may be emptied by melding only to receive the reserve, and "
                    "the team has received it (B5.5)"
                )
            return (
                "B5.2: a hand may be emptied by melding only to receive the reserve, which "
                "needs a biriba on the table (B4.3)"
            )
        return (
            "B4.5: after this move the player could not finish the turn legally (the cards "
            "left could be neither discarded (B4.2, B4.3) nor melded)"
        )

    def is_legal(self, move: Move | str) -> bool:
        """Whether ``move`` (a :class:`Move` or its text) is legal now."""
        try:
            self._canonical(move)
        except IllegalMoveError:
            return False
        return True

    def verify(self, move: Move | str) -> None:
        """Raise :class:`~biriba.IllegalMoveError` naming the rule if ``move`` is illegal."""
        self._canonical(move)

    # ================================================================ playing
    def play(self, move: Move | str) -> None:
        """Check ``move`` (a :class:`Move` or its text) and apply it.

        On an illegal move raise :class:`~biriba.IllegalMoveError` (or
        :class:`~biriba.AmbiguousMoveError`) and change nothing.
        """
        self._apply(self._canonical(move))

    def play_unchecked(self, move: Move) -> None:
        """Apply a move taken from :meth:`legal_moves` without checking it again.

        For search code that only ever plays moves it has just listed; anything else may
        corrupt the deal. :meth:`play` is the checked way.
        """
        self._apply(move)

    def _apply(self, move: Move) -> None:
        seat = self._seat
        rules = self.rules
        team = seat % rules.teams
        snapshot = (
            self._hands,
            self._sizes,
            self._melds,
            self._reserves,
            self._received,
            self._unactivated,
            self._passes,
            self._phase,
            seat,
            self._pile_card,
            self._closed_by,
            self._known,
        )
        extra: Any = None
        if isinstance(move, Discard):
            self._remove_card(seat, move.card)
            self._pile.append(move.card)
            self._pile_card = None
            if not self._sizes[seat]:
                engine = self._engine
                if not self._received[team] and engine.can_receive(
                    self._melds[team], self._reserves[0] if self._reserves else None
                ):
                    self._receive(seat, team)
                    unactivated = list(self._unactivated)
                    unactivated[team] = seat
                    self._unactivated = tuple(unactivated)
                elif self._received[team]:
                    self._phase = Phase.OVER
                    self._closed_by = seat
            if self._phase is not Phase.OVER:
                self._next_turn()
        elif isinstance(move, DrawStock):
            card = self._stock.pop()
            extra = card
            self._add_cards(seat, (card,))
            self._passes = 0
            self._phase = Phase.PLAY
        elif isinstance(move, TakeDiscard):
            pile = self._pile
            extra = tuple(pile)
            self._pile = []
            self._add_cards(seat, pile)
            known = list(self._known[seat])
            for card in pile:
                known[card.index] += 1
            self._known = _put(self._known, seat, tuple(known))
            if len(pile) == 1 and rules.pile_restriction is PileRestriction.NO_DISCARD_BACK:
                self._pile_card = pile[0]
            self._passes = 0
            self._phase = Phase.PLAY
        elif isinstance(move, Pass):
            self._passes += 1
            if self._passes >= rules.pass_limit:
                self._phase = Phase.OVER
            else:
                self._next_turn()
        elif isinstance(move, LayMeld):
            melds = self._melds[team]
            self._melds = _put(self._melds, team, (*melds, move.meld))
            self._remove_cards(seat, move.meld.cards)
            if not self._sizes[seat]:
                self._receive(seat, team)
        elif isinstance(move, AddToMeld):
            melds = self._melds[team]
            result = move.result or melds[move.index].extensions(move.card)[0]
            self._melds = _put(
                self._melds, team, (*melds[: move.index], result, *melds[move.index + 1 :])
            )
            self._remove_card(seat, move.card)
            if not self._sizes[seat]:
                self._receive(seat, team)
        else:  # pragma: no cover - every Move subclass is handled above
            raise TypeError(f"unknown move {move!r}")
        self._history.append(move)
        # Two lists rather than a pair per move: one object fewer for the garbage collector.
        self._undo.append(snapshot)
        self._undo_extra.append(extra)

    def _add_cards(self, seat: int, cards: Iterable[Card]) -> None:
        counts = list(self._hands[seat])
        n = 0
        for card in cards:
            counts[card.index] += 1
            n += 1
        self._hands = _put(self._hands, seat, tuple(counts))
        self._sizes = _put(self._sizes, seat, self._sizes[seat] + n)

    def _remove_card(self, seat: int, card: Card) -> None:
        """:meth:`_remove_cards` for one card, the commonest case (a discard, an addition)."""
        index = card.index
        counts = list(self._hands[seat])
        counts[index] -= 1
        self._hands = _put(self._hands, seat, tuple(counts))
        self._sizes = _put(self._sizes, seat, self._sizes[seat] - 1)
        known = self._known[seat]
        if known is not EMPTY_COUNTS and known[index]:
            still = list(known)
            still[index] -= 1
            self._known = _put(self._known, seat, tuple(still) if any(still) else EMPTY_COUNTS)

    def _remove_cards(self, seat: int, cards: Iterable[Card]) -> None:
        counts = list(self._hands[seat])
        known = self._known[seat]
        if known is not EMPTY_COUNTS:
            still = list(known)
        n = 0
        for card in cards:
            counts[card.index] -= 1
            n += 1
            if known is not EMPTY_COUNTS and still[card.index]:
                still[card.index] -= 1
        self._hands = _put(self._hands, seat, tuple(counts))
        self._sizes = _put(self._sizes, seat, self._sizes[seat] - n)
        if known is not EMPTY_COUNTS:
            self._known = _put(self._known, seat, tuple(still) if any(still) else EMPTY_COUNTS)

    def _receive(self, seat: int, team: int) -> None:
        packet = self._reserves[0]
        self._reserves = self._reserves[1:]
        self._known = _put(self._known, seat, EMPTY_COUNTS)
        self._hands = _put(self._hands, seat, counts_of(packet))
        self._sizes = _put(self._sizes, seat, len(packet))
        received = list(self._received)
        received[team] = True
        self._received = tuple(received)

    def _next_turn(self) -> None:
        seat = (self._seat + 1) % self.rules.players
        self._seat = seat
        self._phase = Phase.DRAW
        self._pile_card = None
        team = seat % self.rules.teams
        if self._unactivated[team] == seat:  # B5.4: the receiver's next turn begins
            unactivated = list(self._unactivated)
            unactivated[team] = None
            self._unactivated = tuple(unactivated)

    def undo(self) -> Move:
        """Take the last move back and return it; the position is restored exactly."""
        if not self._undo:
            raise BiribaError("nothing to undo: no move has been played on this deal")
        snapshot = self._undo.pop()
        extra = self._undo_extra.pop()
        move = self._history.pop()
        (
            self._hands,
            self._sizes,
            self._melds,
            self._reserves,
            self._received,
            self._unactivated,
            self._passes,
            self._phase,
            self._seat,
            self._pile_card,
            self._closed_by,
            self._known,
        ) = snapshot
        if isinstance(move, DrawStock):
            self._stock.append(extra)
        elif isinstance(move, TakeDiscard):
            self._pile = list(extra)
        elif isinstance(move, Discard):
            self._pile.pop()
        return move

    # ================================================================ views
    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know of the deal, and nothing more (see :class:`PlayerView`)."""
        from biriba.view import view_of

        return view_of(self, _check_seat(seat, self.rules))

    # ================================================================ scoring
    def score(self) -> DealScore:
        """The score by B8, part by part; valid at any moment, final once the deal is over.

        Before the end it scores the table as if the deal ended now.
        """
        rules = self.rules
        values = self._engine.values
        teams: list[TeamScore] = []
        for team in range(rules.teams):
            melded = bonuses = 0
            for meld in self._melds[team]:
                melded += meld.points
                bonuses += meld.bonus
            unactivated = self._unactivated[team]
            left = 0
            for seat in range(team, rules.players, rules.teams):
                if seat != unactivated:  # B8.7: the packet's cards give way to the penalty
                    left += sum(map(mul, self._hands[seat], values))
            if not self._received[team]:
                reserve = -rules.reserve_penalty
            elif unactivated is not None:
                reserve = -rules.unactivated_reserve_penalty
            else:
                reserve = 0
            closing = 0
            if self._closed_by is not None and self._closed_by % rules.teams == team:
                closing = rules.closing_bonus
            teams.append(TeamScore(melded, bonuses, -left, closing, reserve))
        return DealScore(tuple(teams), self._phase is Phase.OVER)

    # ================================================================ positions
    def to_dict(self) -> dict[str, Any]:
        """The position as plain JSON-ready data (the format of :meth:`from_dict`).

        ``Deal.from_dict(deal.to_dict())`` has the same legal moves and the same future,
        at any moment of a turn. The history is not part of a position.
        """
        return {
            "rules": self.rules.name,
            "dealer": self.dealer,
            "to_move": self.to_move,
            "phase": self._phase.value,
            "hands": [[str(c) for c in cards_of(h)] for h in self._hands],
            "stock": [str(c) for c in self._stock],
            "discard": [str(c) for c in self._pile],
            "reserves": [[str(c) for c in p] for p in self._reserves],
            "melds": [[str(m) for m in melds] for melds in self._melds],
            "reserve_received": list(self._received),
            "passes": self._passes,
            "pile_card": None if self._pile_card is None else str(self._pile_card),
            "unactivated": list(self._unactivated),
            "closed_by": self._closed_by,
            "known": [[str(c) for c in cards_of(k)] for k in self._known],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], rules: RuleSet | None = None) -> Deal:
        """Build a deal from a position (see :meth:`to_dict`), checking everything.

        ``rules`` overrides the ``"rules"`` name for a rule set that is not a preset.
        Raises :class:`~biriba.InvalidPositionError` naming the problem.
        """
        from biriba.positions import deal_from_dict

        return deal_from_dict(cls, data, rules)

    # ================================================================ display
    def __repr__(self) -> str:
        return (
            f"<Deal {self.rules.name} dealer={self.dealer} to_move={self.to_move} "
            f"phase={self._phase.value} moves={len(self._history)}>"
        )

    def __str__(self) -> str:
        lines = []
        for team in range(self.rules.teams):
            flag = "received" if self._received[team] else "not received"
            lines.append(f"team {team} (reserve {flag}):")
            for i, meld in enumerate(self._melds[team]):
                mark = ""
                if meld.is_biriba:
                    mark = "  [clean biriba]" if meld.is_clean else "  [dirty biriba]"
                lines.append(f"  {i}: {meld}{mark}")
        for seat in range(self.rules.players):
            lines.append(f"seat {seat}: {format_cards(self.hand(seat))}")
        top = str(self._pile[-1]) if self._pile else "-"
        lines.append(
            f"discard pile: {len(self._pile)} card(s), top {top}; stock: {len(self._stock)}"
        )
        state = "over" if self.is_over else f"seat {self._seat} to {self._phase.value}"
        lines.append(state)
        return "\n".join(lines)


def _why_not_added(meld: Meld, card: Card) -> str:
    wild = card.is_joker or (meld.rules.twos_wild and card.rank == 2)
    if wild and not meld.is_clean:
        return f"B3.10: {meld} already holds a substitute; no second one may come in"
    if meld.high is not None and meld.high == 14 and meld.rules.high_ace_closes_meld:
        return f"Z3.3: {meld} ends with an ace and is closed"
    if len(meld) >= meld.rules.max_sequence and meld.suit is not None:
        return (
            f"B3.9: {meld} has no room at either end (B3.2: at most "
            f"{meld.rules.max_sequence} cards)"
        )
    return f"B3.12: {card} does not fit {meld}"
