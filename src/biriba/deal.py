"""One deal: :class:`Deal`, a cursor over positions, and :class:`PlayerView`, what one seat
may know of it.

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

The state itself is an immutable :class:`~biriba.position.Position`; every question about
the rules goes to the rule set's :class:`~biriba.engine.Engine`. A deal holds the current
position, the earlier ones (its undo stack) and the moves between them.

``deal.view(seat)`` returns a :class:`PlayerView`: the seat's own hand, every meld, the
discard pile, the sizes of the other hands, of the stock and of the reserves, the reserve
state, the public history (a draw shows as ``draw``, never as the card), and the cards
each other player is publicly known to hold because they took them with the discard
pile. A view holds no reference to the deal, so nothing hidden can leak from it;
:meth:`~biriba.PlayerView.sample` deals the unknown cards at random into a full deal consistent
with the view, for search bots. (The two classes share this module because each returns
the other.)
"""

from __future__ import annotations

import contextvars
import copy
import random
from collections import Counter
from collections.abc import Iterable, Mapping
from itertools import chain
from typing import Any, Final, Self, SupportsIndex, TypeVar

import attrs

from biriba.cards import (
    EMPTY_COUNTS,
    Card,
    Suit,
    cards_at,
    cards_of,
    counts_of,
    format_cards,
    indices_of,
)
from biriba.display import picture
from biriba.engine import Engine, Refusal, engine_for
from biriba.errors import AmbiguousMoveError, BiribaError, IllegalMoveError, InvalidMeldError
from biriba.limits import check_seed, excerpt
from biriba.melds import Meld, MeldKind
from biriba.moves import AddToMeld, Move, refuse_base_move
from biriba.native import is_compiled
from biriba.position import Phase, Position, size_of
from biriba.position_data import position_to_dict, read_position, uses_key
from biriba.rules import (
    BIRIBA,
    RuleSet,
    check_number,
    check_rules,
    cited,
    full_pack,
    rules_to_data,
)
from biriba.scoring import DealScore, team_score_unchecked

__all__ = ["Deal", "Phase", "PlayerView", "team_of"]


def team_of(seat: SupportsIndex, rules: RuleSet = BIRIBA) -> int:
    """The team of ``seat``: ``seat % teams`` (B1.1: seats 0 and 2 are team 0)."""
    check_rules(rules)
    return rules.team_of(seat)


_T = TypeVar("_T")


def shuffle(cards: list[_T], rng: random.Random) -> None:
    """Shuffle ``cards`` (any list) in place with ``rng``, exactly as ``rng.shuffle(cards)`` does:
    Python's own algorithm (``random.Random.shuffle`` drawing with ``getrandbits``),
    written out here so that :meth:`Deal.new` deals the same cards from a seed whatever
    Python's release, and so that the compiled build runs it without the interpreter
    (with ``rng.shuffle``, 60 random deals of the compiled build took 2% more
    instructions). A test checks it against ``rng.shuffle``."""
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        # A card from cards[: i + 1] to exchange with cards[i], drawn below i + 1 as
        # Random._randbelow draws: k bits, again until below.
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def _check_seat(seat: object, rules: RuleSet) -> int:
    return check_number(seat, "seat", rules.players, rules)


def _check_team(team: object, rules: RuleSet) -> int:
    return check_number(team, "team", rules.teams, rules)


_OVER: Final = Phase.OVER


def meld_refused(text: str, error: InvalidMeldError) -> IllegalMoveError:
    """The error for the move ``text``, whose cards ``error`` says form no meld. The move
    is named by its words before the cards (``'meld ...'``, ``'add 0 5H -> ...'``): the
    error quotes the cards, and the input is quoted once. :func:`~biriba.check_move`
    gives the same reason."""
    before, arrow, _ = text.partition("->")
    head = f"{before.strip()} ->" if arrow else (text.split(None, 1) or [""])[0]
    return IllegalMoveError(f"illegal move {excerpt(head + ' ...')}: {error}", rule=error.rule)


def _refused(given: Move | str, refusal: Refusal) -> IllegalMoveError:
    """The error for ``given`` (a move or its text), refused by ``refusal``."""
    text = given if isinstance(given, str) else str(given)
    return IllegalMoveError(f"illegal move {excerpt(text)}: {refusal}", rule=refusal.rule)


class Deal:
    """One deal of Biriba or Buraco: the library's one mutable object.

    Build one with :meth:`new` (a seeded, shuffled deal by B2) or :meth:`from_dict` (any
    position). Seats are numbered 0 to ``rules.players - 1`` in playing order (0 to 3
    under ``biriba`` and ``buraco``); seat ``s`` plays for team ``s % rules.teams``
    (B1.1, Z1.1, V6).
    """

    __slots__ = (
        "_earlier",
        "_engine",
        "_history",
        "_listed",
        "_listed_at",
        "_position",
        "_seed",
        "_start",
        "rules",
    )

    #: The rule set the deal is played under.
    rules: RuleSet
    _engine: Engine
    _position: Position
    _earlier: list[Position]
    _history: list[Move]
    #: The legal moves last listed, and the position they were listed at (``None`` for
    #: none): two slots, not a pair, so that listing them makes no tuple.
    _listed_at: Position | None
    _listed: tuple[Move, ...]
    _seed: int | str | None
    _start: dict[str, Any] | None

    def __new__(cls, *args: object, **kwargs: object) -> Self:
        # A blank deal, for _at() in the compiled build (Deal(...) is refused below).
        return object.__new__(cls)

    def __init__(self) -> None:
        raise TypeError("build a Deal with Deal.new(...) or Deal.from_dict(...)")

    @classmethod
    def _at(
        cls,
        engine: Engine,
        position: Position,
        earlier: list[Position],
        history: list[Move],
        listed_at: Position | None,
        listed: tuple[Move, ...],
        seed: int | str | None,
        start: dict[str, Any] | None,
    ) -> Deal:
        """The one constructor: a deal at ``position``, after the moves of ``history``
        from the positions of ``earlier`` (its undo stack, possibly shorter), the legal
        moves ``listed`` at ``listed_at`` already known."""
        deal = _new_deal(cls)
        deal.rules = engine.rules
        deal._engine = engine
        deal._position = position
        deal._earlier = earlier
        deal._history = history
        deal._listed_at = listed_at
        deal._listed = listed
        deal._seed = seed
        deal._start = start
        return deal

    # ================================================================ building
    @classmethod
    def new(
        cls,
        rules: RuleSet = BIRIBA,
        *,
        seed: int | str | None = None,
        dealer: SupportsIndex = 0,
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
        check_rules(rules)
        check_seed(seed)
        first_dealer = _check_seat(dealer, rules)
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        pack = list(full_pack(rules))
        shuffle(pack, random.Random(seed))
        engine = engine_for(rules)
        position = engine.first_position(pack, first_dealer)
        return cls._at(engine, position, [], [], None, (), seed, None)

    @classmethod
    def from_pack(
        cls, pack: Iterable[Card], rules: RuleSet = BIRIBA, *, dealer: SupportsIndex = 0
    ) -> Deal:
        """Deal ``pack``, the rule set's whole pack in the order it leaves the shuffle, by
        B2 as :meth:`new` deals its shuffled pack: for a program that shuffles by itself
        (a game framework's chance nodes). Raises :class:`~biriba.BiribaError` (B1.2)
        unless ``pack`` holds exactly the cards of :func:`~biriba.full_pack`."""
        check_rules(rules)
        first_dealer = _check_seat(dealer, rules)
        cards = list(pack)
        for card in cards:
            if not isinstance(card, Card):
                raise TypeError(f"a pack holds cards, got {type(card).__name__}")
        if Counter(cards) != Counter(full_pack(rules)):
            rule = cited(rules, "B1.2")
            raise BiribaError(
                f"{rule}: a pack of {rules.name!r} holds exactly the cards of full_pack(rules)",
                rule=rule,
            )
        engine = engine_for(rules)
        position = engine.first_position(cards, first_dealer)
        start = position_to_dict(position, rules)
        return cls._at(engine, position, [], [], None, (), None, start)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], rules: RuleSet | None = None) -> Deal:
        """Build a deal from a position (see :meth:`to_dict`), checking everything.

        The rule set is the one the position names, a preset's name or a rule set's
        data (:meth:`RuleSet.to_dict <biriba.RuleSet.to_dict>`); ``rules``, when given,
        must hold the same rules (its name aside: a preset read from a file that names it
        in another case is that preset's rules), and is the deal's rule set. Raises
        :class:`~biriba.InvalidPositionError` naming the problem (and the rule it breaks,
        as ``err.rule``).
        """
        rules, position, moves = read_position(data, rules)
        start = position_to_dict(position, rules)
        # The moves the check found, remembered as legal_moves() would remember them: a
        # program that reads a position and then lists or checks its moves (a search
        # under an entry minimum, V3, can take seconds) does not find them twice.
        return cls._at(engine_for(rules), position, [], [], position, moves, None, start)

    def copy(self) -> Deal:
        """An independent copy, history included; cheap enough to call per search node."""
        return Deal._at(
            self._engine,
            self._position,
            self._earlier.copy(),
            self._history.copy(),
            self._listed_at,
            self._listed,
            self._seed,
            self._start,
        )

    def __copy__(self) -> Deal:
        # Not ``__copy__ = copy``: mypyc (2.4) takes that ``copy`` for the module.
        return self.copy()

    def __deepcopy__(self, memo: object) -> Deal:
        return self.copy()

    # ================================================================ reading
    @property
    def position(self) -> Position:
        """The current :class:`~biriba.position.Position`, an immutable value."""
        return self._position

    @property
    def dealer(self) -> int:
        """The dealer's seat (B2.1)."""
        return self._position.dealer

    @property
    def phase(self) -> Phase:
        """:attr:`Phase.DRAW`, :attr:`Phase.PLAY` or :attr:`Phase.OVER`."""
        return self._position.phase

    @property
    def is_over(self) -> bool:
        """Whether the deal has ended (B7.1)."""
        return self._position.phase is _OVER

    @property
    def to_move(self) -> int | None:
        """The seat to act, ``None`` once the deal is over."""
        return self._position.to_move

    def team_of(self, seat: SupportsIndex) -> int:
        """The team of ``seat`` (B1.1)."""
        return team_of(seat, self.rules)

    def hand(self, seat: SupportsIndex) -> tuple[Card, ...]:
        """The cards in ``seat``'s hand, sorted (clubs, diamonds, hearts, spades, jokers)."""
        return cards_of(self._position.hands[_check_seat(seat, self.rules)])

    def hand_size(self, seat: SupportsIndex) -> int:
        """How many cards ``seat`` holds."""
        return size_of(self._position.sizes, _check_seat(seat, self.rules))

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, bottom to top: the last card is the next one drawn."""
        return cards_at(self._position.stock)

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, bottom to top: the last card is the top."""
        return self._position.pile

    @property
    def reserves(self) -> tuple[tuple[Card, ...], ...]:
        """The reserve packets not yet received, the next one to be given first."""
        return self._position.reserves

    def melds(self, team: SupportsIndex) -> tuple[Meld, ...]:
        """The melds of ``team``, in the order they were laid (indices of :class:`AddToMeld`)."""
        return self._position.melds[_check_team(team, self.rules)]

    def reserve_received(self, team: SupportsIndex) -> bool:
        """Whether ``team`` has received its reserve (B5.1), activated or not."""
        return self._position.received[_check_team(team, self.rules)]

    def reserve_unactivated(self, team: SupportsIndex) -> int | None:
        """The seat of ``team`` that received the reserve by its final discard and has not
        had its next turn yet (B5.4), else ``None``."""
        return self._position.unactivated[_check_team(team, self.rules)]

    @property
    def seed(self) -> int | str | None:
        """The seed the deal was shuffled with; ``None`` for a deal built from a position."""
        return self._seed

    @property
    def start(self) -> dict[str, Any] | None:
        """The position a deal built by :meth:`from_dict` started from (a copy), else
        ``None``: with :attr:`seed` and :attr:`history` it is what a record needs."""
        return None if self._start is None else copy.deepcopy(self._start)

    def known_cards(self, seat: SupportsIndex) -> tuple[Card, ...]:
        """The cards ``seat`` is publicly known to hold: taken with the discard pile and
        not melded or discarded since (a card played counts against a known copy)."""
        return cards_of(self._position.known[_check_seat(seat, self.rules)])

    @property
    def passes(self) -> int:
        """Passes in a row so far (B4.4)."""
        return self._position.passes

    @property
    def pile_card(self) -> Card | None:
        """The card taken this turn from a one-card pile, barred from the discard (B4.2)."""
        return self._position.pile_card

    @property
    def closed_by(self) -> int | None:
        """The seat that closed the deal (B6.1) or went out (Z4.2), else ``None``."""
        return self._position.closed_by

    @property
    def bonus_suit(self) -> Suit | None:
        """The bonus suit under kózi (V1), else ``None`` (also while a joker up-card waits
        for the first player to name it)."""
        return self._position.bonus_suit

    @property
    def last_turn(self) -> bool:
        """Whether the deal's last turn is to be played or is being played, the stock and
        the mortos gone (Z4.3); once over, whether the deal ended that way."""
        return self._position.last_turn

    @property
    def history(self) -> tuple[Move, ...]:
        """The moves played since the deal was built, in order."""
        return tuple(self._history)

    # ================================================================ legal moves
    def legal_moves(self) -> tuple[Move, ...]:
        """Every legal move, each once; empty only once the deal is over (B4.5).

        An addition with a choice of outcomes (B3.9 to B3.12) is listed once per outcome
        in its full form (``add 0 5H -> 4H 5H 6H 7H JK``), otherwise in the short form.
        """
        position = self._position
        if self._listed_at is position:
            return self._listed
        listed = self._engine.legal_moves(position)
        self._listed_at = position
        self._listed = listed
        return listed

    def _checked(self, move: Move | str) -> Move:
        """``move`` as the engine plays it, or the error saying which rule forbids it."""
        given = move
        if isinstance(move, str):
            text = move
            try:
                move = Move.parse(text, self.rules)
            except InvalidMeldError as error:
                raise meld_refused(text, error) from None
        position = self._position
        if self._listed_at is position:
            for listed in self._listed:
                if listed is move:  # the usual case: a move taken from legal_moves()
                    return move
        # (Only then the type: a listed move is a Move. Compiled, isinstance() of Move, a
        # class of another module, looks the name up and asks the interpreter.)
        if not isinstance(move, Move):
            raise TypeError(f"a move is a Move or its text, got {type(move).__name__}")
        refuse_base_move(move)
        engine = self._engine
        adopted = engine.adopt(move)
        if isinstance(adopted, Refusal):
            raise _refused(given, adopted)
        refusal = engine.refusal(position, adopted)
        if refusal is None:
            return adopted
        if isinstance(adopted, AddToMeld) and adopted.result is None:
            self._raise_if_ambiguous(given, adopted)
        raise _refused(given, refusal)

    def _raise_if_ambiguous(self, given: Move | str, move: AddToMeld) -> None:
        """For the short form of an addition with a choice of places (B3.12): raise
        :class:`~biriba.AmbiguousMoveError` listing the legal full forms, or, when none
        is legal, the refusal of the first."""
        position = self._position
        melds = position.melds[position.seat % self.rules.teams]
        if move.index >= len(melds) or not position.hands[position.seat][move.card.index]:
            return
        results = melds[move.index].extensions(move.card)
        if len(results) < 2:
            return
        engine = self._engine
        full = [AddToMeld(move.index, move.card, r) for r in results]
        refusals = [engine.refusal(position, m) for m in full]
        allowed = tuple(m for m, r in zip(full, refusals, strict=True) if r is None)
        if allowed:
            listing = ", ".join(repr(str(m)) for m in allowed)
            raise AmbiguousMoveError(
                f"ambiguous move {excerpt(str(given))}: {move.card} has a choice of places "
                f"(B3.12); write one of {listing}",
                allowed,
            )
        first = refusals[0]
        assert first is not None
        raise _refused(given, first)

    def is_legal(self, move: Move | str) -> bool:
        """Whether ``move`` (a :class:`Move` or its text) is legal now.

        A text that is no move at all (``"fold"``, ``"discard XX"``) raises
        :class:`~biriba.NotationError`, as :meth:`play` and :meth:`verify` do, and
        anything but a move or a text raises :class:`TypeError`: only a move that can be
        read is answered. Cards that form no meld (``"meld 3H 4H 6H"``) are a move the
        rules refuse (B3.1, as :meth:`verify` says), so the answer is ``False``.
        :func:`biriba.check_move` answers every text with a verdict instead.
        """
        try:
            self._checked(move)
        except IllegalMoveError:
            return False
        return True

    def verify(self, move: Move | str) -> None:
        """Raise :class:`~biriba.IllegalMoveError` naming the rule if ``move`` is illegal."""
        self._checked(move)

    # ================================================================ playing
    def play(self, move: Move | str) -> None:
        """Check ``move`` (a :class:`Move` or its text) and apply it.

        On an illegal move raise :class:`~biriba.IllegalMoveError` (or
        :class:`~biriba.AmbiguousMoveError`) and change nothing.
        """
        move = self._checked(move)
        position = self._position
        self._position = self._engine.apply(position, move)
        self._earlier.append(position)
        self._history.append(move)

    def play_unchecked(self, move: Move) -> None:
        """Apply a move taken from :meth:`legal_moves` without checking it again.

        For search code that only ever plays moves it has just listed; anything else may
        corrupt the deal. :meth:`play` is the checked way.
        """
        position = self._position
        self._position = self._engine.apply(position, move)
        self._earlier.append(position)
        self._history.append(move)

    def undo(self) -> Move:
        """Take the last move back and return it; the position is restored exactly."""
        if not self._earlier:
            if self._history:  # a sample's public history, played before it was built
                raise BiribaError(
                    "nothing to undo: this deal was built from a view (PlayerView.sample), "
                    "and its history, the public one, cannot be undone past where it started"
                )
            raise BiribaError("nothing to undo: no move has been played on this deal")
        self._position = self._earlier.pop()
        return self._history.pop()

    # ================================================================ views
    def view(self, seat: SupportsIndex) -> PlayerView:
        """What ``seat`` may know of the deal, and nothing more (see :class:`PlayerView`)."""
        me = _check_seat(seat, self.rules)
        position = self._position
        rules = self.rules
        known = tuple(() if s == me else cards_of(position.known[s]) for s in range(rules.players))
        token = _FROM_A_DEAL.set(True)  # its fields are of the right types
        try:
            return PlayerView(
                rules=rules,
                seat=me,
                dealer=position.dealer,
                phase=position.phase,
                to_move=position.to_move,
                hand=cards_of(position.hands[me]),
                hand_sizes=tuple(size_of(position.sizes, s) for s in range(rules.players)),
                stock_size=len(position.stock),
                discard_pile=position.pile,
                melds=position.melds,
                reserves_left=len(position.reserves),
                reserve_received=position.received,
                unactivated=position.unactivated,
                passes=position.passes,
                pile_card=position.pile_card,
                closed_by=position.closed_by,
                known=known,
                history=tuple(self._history),
                redraw_open=position.redraw is not None,
                redraw=position.redraw if me == position.seat else None,
                last_turn=position.last_turn,
                bonus_suit=position.bonus_suit,
                opening=position.opening,
            )
        finally:
            _FROM_A_DEAL.reset(token)

    # ================================================================ scoring
    def score(self) -> DealScore:
        """The score by B8, part by part; valid at any moment, final once the deal is over.

        Before the end it scores the table as if the deal ended now.
        """
        rules = self.rules
        position = self._position
        hands = position.hands
        closed_by = position.closed_by
        teams = []
        bonus_suit = position.bonus_suit
        for team in range(rules.teams):
            unactivated = position.unactivated[team]
            left = 0
            for seat in range(team, rules.players, rules.teams):
                if seat != unactivated:  # B8.7: the packet's cards give way to the penalty
                    left += rules.counts_value(hands[seat])
            closed = closed_by is not None and closed_by % rules.teams == team
            teams.append(
                team_score_unchecked(
                    rules,
                    position.melds[team],
                    left,
                    position.received[team],
                    unactivated is not None,
                    closed,
                    bonus_suit,
                )
            )
        return DealScore(tuple(teams), position.phase is Phase.OVER)

    # ================================================================ positions
    def to_dict(self) -> dict[str, Any]:
        """The position as plain JSON-ready data (the format of :meth:`from_dict`).

        ``Deal.from_dict(deal.to_dict())`` has the same legal moves and the same future,
        at any moment of a turn. The history is not part of a position.
        """
        return position_to_dict(self._position, self.rules)

    # ================================================================ display
    def __repr__(self) -> str:
        return (
            f"<Deal {self.rules.name} dealer={self.dealer} to_move={self.to_move} "
            f"phase={self.phase.value} moves={len(self._history)}>"
        )

    def _repr_svg_(self) -> str | None:
        """The picture a notebook shows (:mod:`biriba.svg`)."""
        return picture(self)

    def __str__(self) -> str:
        position = self._position
        reserve, biriba, _ = self.rules.words
        lines = []
        for team in range(self.rules.teams):
            flag = "received" if position.received[team] else "not received"
            lines.append(f"team {team} ({reserve} {flag}):")
            for i, meld in enumerate(position.melds[team]):
                mark = ""
                if meld.is_biriba:  # a wild one (Z3.7) is neither clean nor dirty
                    kind = "clean" if meld.is_clean else "dirty"
                    if meld.kind is MeldKind.WILD:
                        kind = "wild"
                    mark = f"  [{kind} {biriba}]"
                lines.append(f"  {i}: {meld}{mark}")
        for seat in range(self.rules.players):
            lines.append(f"seat {seat}: {format_cards(self.hand(seat))}")
        pile = position.pile
        top = str(pile[-1]) if pile else "-"
        lines.append(
            f"discard pile: {len(pile)} card(s), top {top}; stock: {len(position.stock)}; "
            f"{reserve}s left: {len(position.reserves)}"
        )
        if position.bonus_suit is not None:
            lines.append(f"bonus suit: {position.bonus_suit.letter}")
        state = "over" if self.is_over else f"seat {position.seat} to {position.phase.value}"
        lines.append(state)
        return "\n".join(lines)


#: How :meth:`Deal._at` makes a blank deal: a compiled Deal by its own ``__new__``
#: (``object.__new__`` refuses it).
_new_deal: Final = Deal.__new__ if is_compiled(team_of) else object.__new__


#: Whether the :class:`PlayerView` being built comes from :meth:`Deal.view`, whose
#: fields are of the right types by construction (set only while it builds one).
_FROM_A_DEAL: Final = contextvars.ContextVar("_FROM_A_DEAL", default=False)

#: The types a :class:`PlayerView`'s fields hold, as its check compares them.
_INT: Final = {int}
_BOOL: Final = {bool}
_MELD: Final = {Meld}
_CARD: Final = {Card}
_CARD_OR_NONE: Final = {Card, type(None)}


#: How many dealings :meth:`PlayerView.sample` tries before it gives up (B4.5).
_SAMPLE_TRIES: Final = 1000


@attrs.frozen
class PlayerView:
    """Everything one seat may know of a deal; build it with ``deal.view(seat)``."""

    #: The rule set.
    rules: RuleSet = attrs.field(repr=lambda r: repr(r.name))
    #: The seat whose view this is.
    seat: int
    #: The dealer's seat.
    dealer: int
    #: The phase of the turn.
    phase: Phase
    #: The seat to act, ``None`` once the deal is over.
    to_move: int | None
    #: The seat's own hand, sorted.
    hand: tuple[Card, ...]
    #: Every seat's number of cards.
    hand_sizes: tuple[int, ...]
    #: The number of cards in the stock.
    stock_size: int
    #: The discard pile, bottom to top (it is open, B4.1).
    discard_pile: tuple[Card, ...]
    #: Each team's melds.
    melds: tuple[tuple[Meld, ...], ...]
    #: How many reserve packets are left, and their size.
    reserves_left: int
    #: Whether each team has received its reserve (B5.1).
    reserve_received: tuple[bool, ...]
    #: By team, the seat holding a received but not activated reserve (B5.4), else None.
    unactivated: tuple[int | None, ...]
    #: Passes in a row so far (B4.4).
    passes: int
    #: The card taken this turn from a one-card pile, barred from the discard (B4.2).
    pile_card: Card | None
    #: The seat that closed (B6.1), else ``None``.
    closed_by: int | None
    #: By seat, the cards publicly known to be in that hand (the own seat: empty).
    known: tuple[tuple[Card, ...], ...]
    #: The public history: every move is public (a draw shows as ``draw``, never the card).
    history: tuple[Move, ...]
    #: Z2.2: whether the first player may still redraw (public).
    redraw_open: bool = False
    #: Z2.2: the card the redraw would put on the pile, when this seat drew it, else
    #: ``None`` (the other seats know only :attr:`redraw_open`).
    redraw: Card | None = None
    #: Z4.3: whether the deal's last turn is to be played or is being played.
    last_turn: bool = False
    #: V1: the bonus suit (kózi), ``None`` without one or while it waits to be named.
    bonus_suit: Suit | None = None
    #: V3: whether the team to move had no meld when this turn began.
    opening: bool = False
    _legal: tuple[Move, ...] | None = attrs.field(
        default=None, init=False, eq=False, repr=False, hash=False
    )

    def __attrs_post_init__(self) -> None:
        # A view built by hand (or with attrs.evolve) is checked as far as it is cheap:
        # its rule set, its seat, one entry per seat or per team (B1.1).
        rules = self.rules
        check_rules(rules, "a PlayerView's rules")
        check_number(self.seat, "seat", rules.players, rules)
        for name, value, count, each in (
            ("hand_sizes", self.hand_sizes, rules.players, "seat"),
            ("known", self.known, rules.players, "seat"),
            ("melds", self.melds, rules.teams, "team"),
            ("reserve_received", self.reserve_received, rules.teams, "team"),
            ("unactivated", self.unactivated, rules.teams, "team"),
        ):
            if len(value) != count:
                seats = cited(rules, "B1.1")
                raise BiribaError(
                    f"a PlayerView's {name} has one entry per {each} ({count}), "
                    f"got {excerpt(len(value))} ({seats})",
                    rule=seats,
                )
        # Every field of the type a deal gives it (a str phase, a meld's text, a str
        # count escaped as AttributeError or IndexError, or made an impossible sample):
        # checked in a view built by hand, not in one that Deal.view builds from a
        # position (a bot's play makes one at every step, and the checks cost about a
        # third of the making).
        if _FROM_A_DEAL.get():
            return
        players = rules.players
        phase = self.phase
        if type(phase) is not Phase:
            raise TypeError(f"a PlayerView's phase is a Phase, got {type(phase).__name__}")
        to_move = self.to_move
        if (to_move is None) != (phase is Phase.OVER):
            raise BiribaError("a PlayerView's to_move is None exactly when the phase is OVER")
        check_number(self.dealer, "dealer", players, rules)
        if to_move is not None:
            check_number(to_move, "to_move", players, rules)
        numbers = (self.stock_size, self.reserves_left, self.passes, *self.hand_sizes)
        if {*map(type, numbers)} != _INT:
            raise TypeError(
                "a PlayerView's stock_size, reserves_left, passes and hand_sizes are ints"
            )
        if min(numbers) < 0:
            raise BiribaError(f"a PlayerView's counts are 0 or more, got {excerpt(numbers)}")
        cards = {
            *map(type, self.hand),
            *map(type, self.discard_pile),
            *map(type, chain.from_iterable(self.known)),
        }
        if cards - _CARD or {type(self.pile_card), type(self.redraw)} - _CARD_OR_NONE:
            raise TypeError(
                "a PlayerView's hand, discard_pile, known, pile_card and redraw hold Cards"
            )
        if {*map(type, chain.from_iterable(self.melds))} - _MELD:
            raise TypeError("a PlayerView's melds are Meld objects")
        if {*map(type, self.reserve_received)} - _BOOL:
            raise TypeError("a PlayerView's reserve_received holds bools")
        for seat in (*self.unactivated, self.closed_by):
            if seat is not None:
                check_number(seat, "seat", players, rules)
        if self.bonus_suit is not None and type(self.bonus_suit) is not Suit:
            raise TypeError("a PlayerView's bonus_suit is a Suit or None")

    # ------------------------------------------------------------------ derived
    @property
    def team(self) -> int:
        """The seat's team."""
        return self.seat % self.rules.teams

    def public_score(self) -> DealScore:
        """The score as far as it is public: every part of B8 but ``hands``, left at 0
        because the other hands are hidden."""
        rules = self.rules
        closed_by = self.closed_by
        teams = tuple(
            team_score_unchecked(
                rules,
                self.melds[team],
                0,
                received=self.reserve_received[team],
                unactivated=self.unactivated[team] is not None,
                closed=closed_by is not None and closed_by % rules.teams == team,
                bonus_suit=self.bonus_suit,
            )
            for team in range(rules.teams)
        )
        return DealScore(teams, self.to_move is None)

    def legal_moves(self) -> tuple[Move, ...]:
        """The legal moves when this seat is to move (the deal's own), else ``()``.

        They depend only on what the seat knows, so any deal consistent with the view
        gives them (an entry minimum, V3, must be reached before the hand empties into
        the unseen reserve or morto). The one exception is a rule set whose packets are
        too small to be sure to end a turn (fewer cards than a hand keeps after melding,
        B4.3, or no more than the copies of one card: no preset): the moves of a turn
        that empties the hand into one then depend on its cards, and the view asks a
        deal made from the cards it cannot see. The answer is kept on the view.
        """
        if self.to_move != self.seat:
            return ()
        found = self._legal
        if found is None:
            found = self._find_legal_moves()
            object.__setattr__(self, "_legal", found)
        return found

    def _find_legal_moves(self) -> tuple[Move, ...]:
        rules = self.rules
        engine = engine_for(rules)
        if not engine.packet_unseen_ok and not self.reserve_received[self.team]:
            # A small packet may hold only the barred card: the moves then need real cards
            # (never so in the presets, whose packets hold 11 cards).
            return self._deal_from(list(self.unknown_cards())).legal_moves()
        team = self.team
        situation = engine.hidden_situation(
            counts_of(self.hand),
            self.melds[team],
            self.reserve_received[team],
            self.reserves_left,
            self.pile_card,
            self.opening,
        )
        return engine.moves(
            situation,
            len(self.hand),
            self.phase,
            self.discard_pile,
            self.stock_size,
            self.redraw_open,
            self.bonus_suit is None,
        )

    def _repr_svg_(self) -> str | None:
        """The picture a notebook shows (:mod:`biriba.svg`)."""
        return picture(self)

    # ------------------------------------------------------------------ data
    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data; two deals that differ only in what the seat cannot know give
        equal dicts."""
        data: dict[str, Any] = {
            "rules": rules_to_data(self.rules),
            "seat": self.seat,
            "dealer": self.dealer,
            "phase": self.phase.value,
            "to_move": self.to_move,
            "hand": [str(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "stock_size": self.stock_size,
            "discard": [str(c) for c in self.discard_pile],
            "melds": [[str(m) for m in team] for team in self.melds],
            "reserves_left": self.reserves_left,
            "reserve_received": list(self.reserve_received),
            "unactivated": list(self.unactivated),
            "passes": self.passes,
            "pile_card": None if self.pile_card is None else str(self.pile_card),
            "closed_by": self.closed_by,
            "known": [[str(c) for c in k] for k in self.known],
            "history": [str(m) for m in self.history],
        }
        rules = self.rules
        if uses_key(rules, "redraw"):
            data["redraw_open"] = self.redraw_open
            data["redraw"] = None if self.redraw is None else str(self.redraw)
        if uses_key(rules, "last_turn"):
            data["last_turn"] = self.last_turn
        if uses_key(rules, "bonus_suit"):
            data["bonus_suit"] = None if self.bonus_suit is None else self.bonus_suit.letter
        if uses_key(rules, "opening"):
            data["opening"] = self.opening
        return data

    # ------------------------------------------------------------------ sampling
    def unknown_cards(self) -> tuple[Card, ...]:
        """The cards the seat cannot place: the pack less everything it sees or knows."""
        seen: Counter[Card] = Counter(self.hand)
        seen.update(self.discard_pile)
        for team in self.melds:
            for meld in team:
                seen.update(meld.cards)
        for cards in self.known:
            seen.update(cards)
        return tuple(sorted((Counter(full_pack(self.rules)) - seen).elements()))

    def sample(self, rng: random.Random) -> Deal:
        """A full deal consistent with this view: the same own hand, melds, pile, counts,
        known cards and public history, the unknown cards dealt uniformly at random over
        the other hands, the stock and the reserves, among the dealings that leave the
        player to move a legal move (B4.5).

        A dealing can break B4.5 where the public history says more than the view holds:
        a player who took a one-card pile holding one card did not hold a second copy of
        it (B4.2), a player who melded short of an entry minimum (V3) can still reach it.
        Such a dealing is dealt again, up to 1,000 times (a view of a real deal has at
        least one good dealing; past that, :class:`~biriba.BiribaError`, B4.5).

        The sampled deal's history is the public history; it cannot be undone past its
        start.
        """
        if not isinstance(rng, random.Random):
            raise TypeError(f"sample needs a random.Random, got {type(rng).__name__}")
        unknown = list(self.unknown_cards())
        for _ in range(_SAMPLE_TRIES):
            pool = unknown[:]
            rng.shuffle(pool)
            deal = self._deal_from(pool)
            if deal.is_over or deal.legal_moves():
                return deal
        raise BiribaError(
            f"no dealing of the unseen cards out of {_SAMPLE_TRIES:,} leaves seat "
            f"{self.to_move} a legal move (B4.5): the view is of no real deal",
            rule="B4.5",
        )

    def _deal_from(self, pool: list[Card]) -> Deal:
        """The deal consistent with the view whose unknown places get ``pool`` in order:
        the other hands by seat, then the stock, then the reserve packets."""
        rules = self.rules
        places = [
            self.hand_sizes[seat] - len(self.known[seat])
            for seat in range(rules.players)
            if seat != self.seat
        ]
        places += (self.stock_size, self.reserves_left * rules.reserve_size)
        if min(places) < 0 or sum(places) != len(pool):
            rule = cited(rules, "B1.2")
            raise BiribaError(
                f"the view's card counts do not add up to the pack ({rule}): {len(pool)} cards "
                f"unseen, {sum(places)} places for them in hands, stock and packets",
                rule=rule,
            )
        hands = []
        for seat in range(rules.players):
            if seat == self.seat:
                cards = list(self.hand)
            else:
                cards = list(self.known[seat])
                need = self.hand_sizes[seat] - len(cards)
                cards += pool[:need]
                del pool[:need]
            hands.append(cards)
        stock = pool[: self.stock_size]
        del pool[: self.stock_size]
        packets = []
        for _ in range(self.reserves_left):
            packets.append(tuple(pool[: rules.reserve_size]))
            del pool[: rules.reserve_size]
        if self.to_move is not None:
            seat = self.to_move
        elif self.closed_by is not None:
            seat = self.closed_by
        else:
            seat = (self.dealer + 1) % rules.players
        redraw = self.redraw
        if self.redraw_open and redraw is None:
            # Z2.2: another seat drew a card this seat cannot see: the last card dealt
            # to its sampled hand from the unknown ones stands for it.
            redraw = hands[seat][-1]
        position = Position.of(
            dealer=self.dealer,
            seat=seat,
            phase=self.phase,
            hands=tuple(counts_of(h) for h in hands),
            known=tuple(counts_of(k) if k else EMPTY_COUNTS for k in self.known),
            melds=self.melds,
            stock=indices_of(stock),
            pile=self.discard_pile,
            reserves=tuple(packets),
            received=self.reserve_received,
            unactivated=self.unactivated,
            passes=self.passes,
            pile_card=self.pile_card,
            closed_by=self.closed_by,
            redraw=redraw,
            last_turn=self.last_turn,
            bonus_suit=self.bonus_suit,
            opening=self.opening,
        )
        return Deal._at(engine_for(rules), position, [], list(self.history), None, (), None, None)


def ending(deal: Deal) -> str:
    """How ``deal``, once over, ended, with the rule: a seat closing (B6.1) or going out
    (Z4.2), the last turn played (Z4.3), or the passes (B7.1)."""
    engine = engine_for(deal.rules)
    if deal.closed_by is not None:
        closing = engine.by_family.closing
        return f"seat {deal.closed_by} {deal.rules.words[2]} ({closing})"
    if deal.last_turn:
        return f"the last turn was played ({engine.unclosed_end_rule})"
    return (
        f"{deal.rules.pass_limit} passes in a row with the stock empty ({engine.unclosed_end_rule})"
    )
