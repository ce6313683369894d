"""The rules of a turn, on positions: dealing, legal moves, refusals, applying a move.

One :class:`Engine` per rule set (:func:`engine_for`) answers every question a deal asks
of the rules, on immutable :class:`~biriba.position.Position` values:

- :meth:`Engine.first_position`: the position a shuffled pack deals (B2);
- :meth:`Engine.legal_moves`: every legal move (B4), each once;
- :meth:`Engine.refusal`: why one move is illegal, as a :class:`Refusal` (a rule id and
  one sentence), or ``None`` if it is legal;
- :meth:`Engine.apply`: the position after a legal move.

Legality and its reason come from the same checks: the generator keeps a candidate move
exactly when the check that :meth:`~Engine.refusal` runs on it finds nothing, so a
reason can never disagree with the list. :class:`~biriba.Deal` and
:class:`~biriba.PlayerView` both use this module, and the bots use it to ask what a
seat could do after taking the pile.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Sequence
from itertools import compress, count
from operator import le, mul
from typing import Any, Final, NamedTuple, TypeVar, cast

from biriba import enumeration
from biriba.cards import (
    CARDS,
    EMPTY_COUNTS,
    Card,
    Counts,
    Indices,
    Suit,
    counts_of,
    format_cards,
    indices_of,
)
from biriba.enumeration import melds_from_counts_unchecked, parts_and_substitutes
from biriba.errors import BiribaError, InvalidMeldError
from biriba.limits import MAX_SEARCH_MELDS, MAX_SEARCH_STATES
from biriba.making import add_unchecked
from biriba.melds import (
    Meld,
    MeldKind,
    fits_in_one_place,
    natural_index,
    sequence_suit,
    under_rules,
)
from biriba.moves import (
    AddToMeld,
    Discard,
    DrawStock,
    LayMeld,
    Move,
    NameSuit,
    Pass,
    Redraw,
    TakeDiscard,
    as_library_move,
)
from biriba.native import is_compiled
from biriba.position import Phase, Position, packed_sizes, resized, size_of
from biriba.rules import PileRestriction, RuleSet, StockExhausted, full_pack

__all__ = [
    "DISCARDS",
    "Engine",
    "Refusal",
    "Situation",
    "Start",
    "engine_for",
    "has_biriba",
]


class Refusal(NamedTuple):
    """Why a move is illegal: the id of the rule that forbids it and one sentence."""

    #: The rule's id in the rules reference (``"B4.2"``).
    rule: str
    #: One sentence saying what is wrong.
    reason: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.reason}"


class Start(NamedTuple):
    """The parts of a position that tell whether it is in the deal's very first turn
    (:meth:`Engine.begins`, :meth:`Engine.opens_redraw`; Z2.2, V1), as a position read
    from data has them."""

    #: The cards in the stock.
    stock_size: int
    #: The seat to move.
    seat: int
    #: The dealer's seat.
    dealer: int
    #: The packets (reserves) left.
    packets: int
    #: The cards in the discard pile.
    pile_size: int
    #: The teams' melds.
    melds: Sequence[Sequence[Meld]]
    #: The cards each seat is known to hold.
    known: Sequence[Iterable[object]]


class Situation(NamedTuple):
    """What the moves of the player to move depend on, beside the hand's size and (in the
    draw phase) the pile and the stock: the key of the look-ahead's cache."""

    #: The hand, as 53 card counts.
    hand: Counts
    #: The team's melds.
    melds: tuple[Meld, ...]
    #: Whether the team has received its reserve (B5.1).
    received: bool
    #: The packet the team would receive by emptying its hand (B5.1), or ``None`` once
    #: received or with none left. A view that cannot see it holds a stand-in of the
    #: right size (:meth:`Engine.hidden_situation`).
    packet: tuple[Card, ...] | None
    #: The card B4.2 bars from the discard this turn, or ``None``.
    pile_card: Card | None
    #: V3: whether the team's melds on the table were all laid this turn (it had none
    #: when the turn began), so that they must reach the entry minimum. Always ``False``
    #: without an entry minimum.
    opening: bool


_T = TypeVar("_T")


def replaced(values: tuple[_T, ...], index: int, value: _T) -> tuple[_T, ...]:
    """``values`` with ``values[index]`` replaced by ``value``.

    Written out for the four seats and the two teams of most games (compiled, a tuple
    built item by item is a few machine instructions; through a list, two generic calls).
    """
    size = len(values)
    if size == 4:
        if index == 0:
            return (value, values[1], values[2], values[3])
        if index == 1:
            return (values[0], value, values[2], values[3])
        if index == 2:
            return (values[0], values[1], value, values[3])
        if index == 3:
            return (values[0], values[1], values[2], value)
    elif size == 2:
        if index == 0:
            return (value, values[1])
        if index == 1:
            return (values[0], value)
    changed = list(values)
    changed[index] = value
    return tuple(changed)


def has_biriba(melds: Iterable[Meld]) -> bool:
    """Whether a team's melds include a biriba (B3.7)."""
    return any(m.is_biriba for m in melds)


def _plus(counts: Counts, cards: tuple[Card, ...], step: int) -> Counts:
    """``counts`` with ``step`` (1 or -1) more of each of ``cards`` (for -1, cards that
    ``counts`` holds: :exc:`ValueError` for one it does not, a fault of the caller).

    Up to :data:`_SPLICED_CARDS` cards, card by card, each count spliced in between the
    two slices around it; more through a bytearray. (Compiled, the bytearray's copies
    and items are generic calls: card by card was 30 to 50% faster for up to four cards
    in a micro-benchmark. In pure Python, two cards already took 25% longer that way.)
    """
    if len(cards) <= _SPLICED_CARDS:
        for card in cards:
            index = card.index
            held = counts[index] + step
            if held < 0:  # (else _BYTES[-1] would give 255 copies; a bytearray refuses)
                raise ValueError(f"no {card} to take from {counts!r}")
            counts = counts[:index] + _BYTES[held] + counts[index + 1 :]
        return counts
    out = bytearray(counts)
    for card in cards:
        out[card.index] += step
    return bytes(out)


# The refusals whose sentence never changes, made once: the look-ahead meets them often.
_TAKE_TRAPS: Final = Refusal(
    "B4.5",
    "after taking the pile the player could not finish the turn (B4.2 bars discarding the "
    "one card taken, and nothing could be melded)",
)
_LAST_CARD_NEEDS_BIRIBA: Final = Refusal(
    "B5.2", "the last card may be discarded to receive the reserve only with a biriba on the table"
)
_RESERVE_NEEDS_BIRIBA: Final = Refusal(
    "B5.2",
    "a hand may be emptied by melding only to receive the reserve, which needs a biriba on "
    "the table (B4.3)",
)
_KOZI_FIRST: Final = Refusal(
    "V1", "the joker up-card must first be taken and the bonus suit named: write kozi and a suit"
)
_NO_KOZI: Final = Refusal(
    "V1", "a bonus suit is named only by the first player, when the up-card is a joker"
)
_EMPTY_PILE: Final = Refusal("B4.1", "the discard pile is empty")
_ONE_ON_ONE: Final = Refusal("Z4.4", "a player holding a single card may not take a one-card pile")
#: What :meth:`Engine._take_before_look_ahead` gives when only the look-ahead (B4.5) can
#: tell whether the take is legal: not a refusal given to anyone.
_LOOK_AHEAD: Final = Refusal("B4.5", "the look-ahead decides")
_NO_REDRAW: Final = Refusal(
    "Z2.2", "redraw is allowed only right after the deal's first draw, once, before any meld"
)
#: Under a rule set without the move at all (the rule's id still says which move it is).
_NO_REDRAW_HERE: Final = Refusal("Z2.2", "the rule set has no redraw")
_NO_KOZI_HERE: Final = Refusal("V1", "the rule set has no bonus suit to name (no kózi)")


class _Refusals:
    """The refusals about the reserve and closing, in the words and rule ids of the rule
    set's game (:attr:`RuleSet.family <biriba.RuleSet.family>`): Biriba's reserve and
    closing (B4.3, B5.5, B6.1), Buraco's morto and going out (Z4.1, Z4.2)."""

    def __init__(self, family: str) -> None:
        #: The rule that a player adds only to the team's melds (B3.8, Z3.6).
        self.own_melds = "Z3.6" if family == "buraco" else "B3.8"
        #: The rule of who may close, and how (B6.1; Z4.2, going out), and what it needs.
        self.closing = "Z4.2" if family == "buraco" else "B6.1"
        self.closing_needs = (
            "going out needs the team's morto taken and a canastra on the table"
            if family == "buraco"
            else "closing needs the team's reserve received and a biriba on the table"
        )
        #: What the game calls a reserve packet (B5.1; Z2.1, a morto).
        self.packet = "morto" if family == "buraco" else "reserve"
        #: The rule that a deal ends when a player closes (B7.1; Z4.2, going out ends it).
        self.closing_ends = "Z4.2" if family == "buraco" else "B7.1"
        #: The refusal of closing without the meld it needs (B6.1; Z4.2, a canastra).
        self.close_needs_biriba = Refusal(
            self.closing,
            "going out needs a canastra on the table"
            if family == "buraco"
            else "closing needs a biriba on the table",
        )
        if family == "buraco":
            self.last_card_kept = Refusal(
                "Z4.1",
                "the last card may be discarded only to take the morto or to go out, and "
                "the team has no morto to take and has not taken one",
            )
            self.reserve_received = Refusal(
                "Z4.2",
                "one goes out by discarding the last card, never by melding it (the team "
                "has already taken its morto, Z4.1)",
            )
            self.no_reserve_left = Refusal(
                "Z4.1",
                "a hand may be emptied by melding only to take the morto, and no morto is "
                "left for the team",
            )
        else:
            self.last_card_kept = Refusal(
                "B4.3",
                "the last card may be discarded only to receive the reserve or to close, "
                "and the team has no reserve to receive and has not received one",
            )
            self.reserve_received = Refusal(
                "B4.3",
                "a hand may be emptied by melding only to receive the reserve, and the team "
                "has already received its reserve (B5.5)",
            )
            self.no_reserve_left = Refusal(
                "B4.3",
                "a hand may be emptied by melding only to receive the reserve, and no "
                "reserve is left for the team",
            )


_DRAW_PHASE: Final = Phase.DRAW
_PLAY_PHASE: Final = Phase.PLAY
_DRAW: Final = DrawStock()
_TAKE: Final = TakeDiscard()
_PASS: Final = Pass()
_REDRAW: Final = Redraw()
_DRAW_OR_TAKE: Final[tuple[Move, ...]] = (_DRAW, _TAKE)
_DRAW_ONLY: Final[tuple[Move, ...]] = (_DRAW,)
_TAKE_OR_PASS: Final[tuple[Move, ...]] = (_TAKE, _PASS)
_PASS_ONLY: Final[tuple[Move, ...]] = (_PASS,)


def _draw_choices(take: bool, stock_open: bool) -> tuple[Move, ...]:
    """The draw phase's moves: drawing while the stock is open (B4.1, B4.4, Z4.3, V7),
    else passing; taking the pile when ``take``."""
    if stock_open:
        return _DRAW_OR_TAKE if take else _DRAW_ONLY
    return _TAKE_OR_PASS if take else _PASS_ONLY


#: V1: the four ways of naming the bonus suit, the only moves while a joker up-card waits.
_NAME_SUITS: Final[tuple[Move, ...]] = tuple(NameSuit(suit) for suit in Suit)

#: The discard of each card, by :attr:`Card.index <biriba.Card.index>`: one shared object each.
DISCARDS: Final = tuple(Discard(c) for c in CARDS)

#: Whether :meth:`Engine.play_moves` lists the hand's discards by reading its counts one
#: index at a time (the compiled build, where that is a few machine instructions a card)
#: rather than with ``itertools.compress`` (pure Python, where compress does it in C).
#: Both give the same moves in the same order.
_INDEXED_DISCARDS: Final = is_compiled(replaced)

#: The most cards :func:`_plus` changes card by card (more through a bytearray): four
#: compiled, one in pure Python (measured: see there).
_SPLICED_CARDS: Final = 4 if _INDEXED_DISCARDS else 1

#: How many look-ahead answers (B4.5) an engine keeps between searches: a search that
#: begins with more emptying the cache first. Play without an entry minimum keeps a few
#: hundred. A cache much larger than this, kept from search to search, makes Python's
#: garbage collector slow everything. (Not ``Final``, which the compiled build would
#: fix: a test lowers it.)
_FINISH_CACHE_LIMIT = 32_768

#: How many the cache may hold in the middle of one search before it is emptied all the
#: same. A search that must reach an entry minimum (V3) can meet a hundred thousand
#: states and more, and a cache emptied in the middle of it makes it meet them again:
#: emptied at 32,768, the moves of a hand of 20 cards met in random play under a
#: minimum of 150 took 25 seconds (82 emptyings, 2.9 million look-aheads); emptied only
#: between searches, 5.8 seconds (142,219 answers, 700,240 look-aheads). Each answer
#: keeps about 300 bytes, so that one search holds about 80 MB at most; a search that
#: meets more states than this takes minutes whether or not it meets some again.
_FINISH_SEARCH_LIMIT: Final = 262_144


class Engine:
    """The rules of a turn under one rule set, with the caches that make them fast.

    Get one with :func:`engine_for`; engines hold no position, only rule-derived values
    and caches, so one engine serves every deal of its rule set.
    """

    def __init__(self, rules: RuleSet, *, plain_bound: bool = False) -> None:
        """The engine of ``rules``. With ``plain_bound``, the V3 look-ahead bounds what a
        hand can still lay by its cards' values alone (:meth:`_card_points`), never by
        what its melds could hold (:meth:`_beyond_melds`), and goes move by move, never
        by the opening turn's exact search (:meth:`_reaches`): it searches more, never
        less, and finds the same moves; the tests compare the two. Share engines
        through :func:`engine_for`, which makes them without it."""
        #: The rule set.
        self.rules = rules
        self._players = rules.players
        self._teams = rules.teams
        self._stock_end = rules.stock_end_remaining
        self._bars_pile_card = rules.pile_restriction is PileRestriction.NO_DISCARD_BACK
        self._no_take_with_one = rules.pile_restriction is PileRestriction.NO_TAKE_WITH_ONE_CARD
        #: Z4.3: the mortos become the stock, and the deal ends after one last turn.
        self._last_round = rules.stock_exhausted is StockExhausted.RESERVE_BECOMES_STOCK
        #: Z2.2: the first player may redraw.
        self._redraws = rules.first_turn_redraw
        #: V1: kózi, a bonus suit.
        self._kozi = rules.bonus_suit_bonus is not None
        #: V3: the entry minimum, 0 for none.
        self._minimum = rules.entry_minimum
        #: V3: whether :meth:`_beyond_melds` may count substitutes by the melds that could
        #: hold them (every meld holds one at most, B3.3, and no meld is of substitutes
        #: only, Z3.7), and each card's role there: 0 a natural, 1 a two that may stand
        #: natural at rank 2 of its own suit (B3.6), 2 a substitute always.
        self._one_substitute = (
            rules.max_substitutes == 1 and not rules.wild_melds and not plain_bound
        )
        self._roles = tuple(
            0
            if not rules.wild[card.index]
            else 1
            if card.rank == 2 and not rules.twos_always_wild
            else 2
            for card in CARDS
        )
        self._natural_twos = tuple(i for i, role in enumerate(self._roles) if role == 1)
        #: V3: each card's value, or 0 for one worth less than nothing (laying it never
        #: brings the team nearer the minimum).
        self._gains = tuple(max(0, value) for value in rules.values)
        #: The stock's size right after dealing: a draw from a stock of that size (the
        #: reserves all still there) is the deal's first draw (Z2.2), and a pile of one
        #: card then is the up-card (V1).
        self.full_stock = (
            rules.pack_size
            - rules.players * rules.hand_size
            - rules.reserve_count * rules.reserve_size
            - int(rules.up_card)
        )
        #: The rule of passing with the stock exhausted: B4.4, or Z4.3 where the deal ends
        #: with a last turn.
        self.passing_rule = "Z4.3" if self._last_round else "B4.4"
        #: The rule of drawing from the stock: ``passing_rule``, or V7 where the stock
        #: ends with cards left in it.
        self.stock_rule = "V7" if self._stock_end else self.passing_rule
        #: The rule that ends a deal nobody closed: B7.1's passes, or Z4.3's last turn.
        self.unclosed_end_rule = "Z4.3" if self._last_round else "B7.1"
        #: The refusals and rule ids that differ between Biriba and Buraco (B6.1, Z4.2, ...).
        self.by_family = _Refusals(rules.family)
        packet_name = self.by_family.packet
        #: B4.5: a move after which the turn could not end, the cards left being neither
        #: discarded (B4.3; B4.2 where the rule set bars the card taken from a one-card
        #: pile, which Buraco's Z4.4 does not) nor melded.
        self._trapped = Refusal(
            "B4.5",
            f"after this move the player could not finish the turn legally (the cards left "
            f"could be neither discarded ({'B4.2, ' if self._bars_pile_card else ''}B4.3) "
            f"nor melded)",
        )
        #: V3: the hand may not empty into an unseen packet before the minimum is reached.
        self._packet_before_minimum = Refusal(
            "V3",
            f"the team's first melds must reach the entry minimum of {rules.entry_minimum} "
            f"before the hand empties into the {packet_name}, whose cards are unseen",
        )
        #: A hand of at least this many cards, one of them not the barred card, can
        #: always end the turn with a discard (B4.3: two kept, or ``keep_after_melding``
        #: when that is more).
        self.free_hand = max(2, rules.keep_after_melding)
        #: ``fewest_free[b]``: the fewest cards a hand holding ``b`` copies of the card B4.2
        #: bars needs to end the turn freely, ``free_hand`` of them, one not barred
        #: (B4.3, B4.5). A meld or an addition that leaves at least that many needs no
        #: look-ahead. (A table, not a function: it is read on every legal-move call.)
        most_copies = max(rules.decks, rules.jokers)
        self.fewest_free = tuple(
            next(size for size in count(barred) if self.ends_freely(size, size > barred))
            for barred in range(most_copies + 1)
        )
        #: A packet of the right size whose cards do not matter, for a seat that cannot
        #: see the real one (:meth:`hidden_situation`), where ``packet_unseen_ok``.
        self.stand_in_packet = full_pack(rules)[: rules.reserve_size]
        #: Whether the moves of a seat can be listed without knowing the packet it would
        #: receive: every packet then ends a turn freely (``fewest_free``), as it
        #: holds at least ``free_hand`` cards, more than the copies of any one card. (An
        #: entry minimum, V3, never asks what the packet could lay: it must be reached
        #: before the hand empties into the packet.)
        self.packet_unseen_ok = rules.reserve_size >= max(self.free_hand, most_copies + 1)
        self._finish_cache: dict[object, bool] = {}
        #: How many look-aheads are under way (:meth:`_finishes` asks itself, through
        #: :meth:`_after_refusal`, and an opening turn's :meth:`play_moves` counts as
        #: one): the cache is emptied past :data:`_FINISH_CACHE_LIMIT` only when none
        #: is, and in the middle of one only past :data:`_FINISH_SEARCH_LIMIT`. (Threads
        #: sharing the engine share the count: one may then keep the cache larger, or
        #: empty it in the middle of another's search, which costs time and memory,
        #: never a wrong answer.)
        self._searching = 0
        #: What the look-ahead keeps of its searches (:class:`_SearchState`): when the
        #: enumerator last emptied its table of melds, and, for each thread, what the
        #: search under way has listed and met. (One attribute: the engine has 29, and a
        #: 30th made every attribute read of the move generator slower under CPython
        #: 3.11, 1.3% more instructions a random deal, measured.)
        self._search = _SearchState(
            enumeration.times_emptied(), rules, self.free_hand, not plain_bound
        )
        #: V3: whether no card is worth less than nothing, so that laying cards never
        #: lowers the points a team has laid and what it still lacks can be worked out
        #: step by step (:meth:`_still_short`). (``card_values`` may be negative.)
        self._values_grow = min(rules.values) >= 0

    def ends_freely(self, size: int, unbarred: bool) -> bool:
        """Whether a hand of ``size`` cards, one of them not the card B4.2 bars if
        ``unbarred``, can end the turn with a discard whatever else it holds: it keeps
        ``free_hand`` cards or more (B4.3), and one of them may be discarded (B4.2)."""
        return size >= self.free_hand and unbarred

    def __reduce__(self) -> tuple[object, tuple[RuleSet]]:
        # A pickled engine is its rule set: it unpickles to the shared engine of that rule
        # set, without the caches.
        return (engine_for, (self.rules,))

    # ============================================================== dealing (B2)
    def first_position(self, pack: Iterable[Card], dealer: int) -> Position:
        """The position that dealing ``pack`` (shuffled) gives, by B2.3.

        From the front of the pack: one card at a time to each player, starting with the
        seat after the dealer; then the reserve packets, the first of them the top packet
        (B5.1); then the up-card that starts the discard pile, when the rule set turns
        one up; the rest is the stock, whose top card (its last) is the next card of the
        pack. Under kózi (V1) the up-card's suit is the bonus suit; a joker's waits to be
        named.
        """
        rules = self.rules
        cards = list(pack)
        n = self._players
        pos = 0
        hands: list[list[Card]] = [[] for _ in range(n)]
        for i in range(n * rules.hand_size):
            hands[(dealer + 1 + i) % n].append(cards[pos])
            pos += 1
        reserves = []
        for _ in range(rules.reserve_count):
            reserves.append(tuple(cards[pos : pos + rules.reserve_size]))
            pos += rules.reserve_size
        pile: tuple[Card, ...] = ()
        if rules.up_card:
            pile = (cards[pos],)
            pos += 1
        stock = indices_of(cards[pos:][::-1])
        packets = tuple(reserves)
        # The fields in order, as apply() makes a position (Position.of, by name, works
        # out the sizes from the counts: a sum of 53 bytes a seat, and a call by keyword).
        return _new_position(
            _POSITION_CLASS,
            (
                dealer,
                (dealer + 1) % n,  # B2.4
                _DRAW_PHASE,
                tuple([counts_of(h) for h in hands]),
                packed_sizes([len(h) for h in hands]),
                (EMPTY_COUNTS,) * n,
                ((),) * self._teams,
                stock,
                pile,
                packets,
                (False,) * self._teams,
                (None,) * self._teams,
                0,
                None,
                None,
                None,
                self.last_turn_begins(stock, packets),
                pile[0].suit if self._kozi else None,
                bool(self._minimum),
            ),
        )

    def first_draw(self, position: Position) -> bool:
        """Whether a draw from the stock in ``position`` is the deal's first (Z2.2)."""
        return self.opens_redraw(
            Start(
                len(position.stock),
                position.seat,
                position.dealer,
                len(position.reserves),
                len(position.pile),
                position.melds,
                position.known,
            ),
            position.bonus_suit is not None,
        )

    def after_first_draw(self) -> tuple[int, int]:
        """The stock's size and the number of packets left right after the deal's first
        draw, when the redraw is open (Z2.2): the draw made by :meth:`apply`, so that a
        first draw that exhausts the stock brings the next morto into it (Z4.3) here as
        in play."""
        drawn = self.apply(self.first_position(full_pack(self.rules), 0), _DRAW)
        return len(drawn.stock), len(drawn.reserves)

    def opens_redraw(self, start: Start, suit_named: bool) -> bool:
        """:meth:`first_draw` from a position's parts (and whether the bonus suit is
        named): in the deal's first turn before any move (:meth:`begins`), or, under
        kózi, right after the first player took a joker up-card and named the bonus
        suit (V1: the turn goes on with the draw, the pile empty; ``start.known``,
        optional in a position, is not asked: nothing else empties the pile of a draw
        phase before anything is drawn, taken and kept, or melded)."""
        if self._kozi and suit_named and not start.pile_size:
            return self._untouched(start)
        return self.begins(start)

    def begins(self, start: Start) -> bool:
        """Whether a position with these parts is in the deal's very first turn, before
        anything is done (Z2.2, V1): the first player to move, nothing drawn, taken or
        melded by anybody (B4.2: a card taken from the pile stays in the hand until
        melded, so any take leaves one known or melded)."""
        return (
            self._untouched(start)
            and start.pile_size == int(self.rules.up_card)
            and not any(map(any, start.known))
        )

    def _untouched(self, start: Start) -> bool:
        """Whether the first player is to move with the stock full, every packet there
        and nothing melded: what :meth:`begins` and :meth:`opens_redraw` share."""
        return (
            start.stock_size == self.full_stock
            and start.seat == (start.dealer + 1) % self._players
            and start.packets == self.rules.reserve_count
            and not any(start.melds)
        )

    def last_turn_begins(self, stock: Indices, reserves: tuple[tuple[Card, ...], ...]) -> bool:
        """Whether a turn beginning with ``stock`` and ``reserves`` is the deal's last
        (Z4.3): the stock is exhausted and no morto is left to become the stock."""
        return self._last_round and not reserves and len(stock) <= self._stock_end

    # ============================================================== situations
    def situation(self, position: Position) -> Situation:
        """The :class:`Situation` of the player to move in ``position``."""
        seat = position.seat
        team = seat % self._teams
        received = position.received[team]
        reserves = position.reserves
        packet = None if received or not reserves else reserves[0]  # B5.1
        return _new_situation(
            Situation,
            (
                position.hands[seat],
                position.melds[team],
                received,
                packet,
                position.pile_card,
                position.opening and self._minimum > 0,
            ),
        )

    def _situation_at(self, position: Position | None) -> Situation:
        """:meth:`situation` of ``position``, which :meth:`_play_moves` was given when it
        was not given a situation."""
        assert position is not None
        return self.situation(position)

    def hidden_situation(
        self,
        hand: Counts,
        melds: tuple[Meld, ...],
        received: bool,
        reserves_left: int,
        pile_card: Card | None,
        opening: bool = False,
    ) -> Situation:
        """The :class:`Situation` of a seat that knows only how many packets are left.

        The moves depend on the packet's cards only once the hand empties into it, and
        then only on whether the turn can end from it: where ``packet_unseen_ok``,
        every packet, and the stand-in, ends the turn freely, so any packet of the right
        size gives the same moves (an entry minimum, V3, must be reached before the hand
        empties into it). Elsewhere (packets smaller than ``free_hand`` cards, or than the
        copies of one card) the caller must use real cards, as
        :class:`~biriba.PlayerView` does.
        """
        packet = None if received or not reserves_left else self.stand_in_packet
        return Situation(hand, melds, received, packet, pile_card, opening and self._minimum > 0)

    def barred_after_take(self, pile: tuple[Card, ...]) -> Card | None:
        """The card B4.2 bars from the discard after taking ``pile``: its one card, when
        the pile held exactly one and the rule set has B4.2; else ``None``."""
        if len(pile) == 1 and self._bars_pile_card:
            return pile[0]
        return None

    def after_take(self, situation: Situation, pile: tuple[Card, ...]) -> Situation:
        """The :class:`Situation` after taking ``pile`` into the hand (B4.1, B4.2)."""
        counts = bytearray(situation.hand)
        for card in pile:
            counts[card.index] += 1
        return situation._replace(hand=bytes(counts), pile_card=self.barred_after_take(pile))

    def short_of_minimum(self, melds: tuple[Meld, ...], opening: bool) -> int:
        """V3: how many points the team's melds, all laid this turn when ``opening``,
        still lack to reach the entry minimum; 0 once reached, when the team has laid
        nothing yet (it need not meld), or when the turn is not its opening."""
        if not opening or not melds:
            return 0
        return max(0, self._minimum - sum([m.points for m in melds]))

    # ============================================================== legal moves
    def legal_moves(self, position: Position) -> tuple[Move, ...]:
        """Every legal move in ``position``, each once; empty only once it is over."""
        phase = position.phase
        # The commonest cases straight to the phase's generator: a play phase with no
        # redraw open, a draw phase with no bonus suit to name (what moves() would do).
        if phase is _PLAY_PHASE:
            if position.redraw is None and not position.opening:
                # The Situation is made only if a look-ahead needs it (few positions do);
                # a turn that may owe the entry minimum (V3) goes through situation().
                seat = position.seat
                return self._play_moves(
                    position.hands[seat],
                    position.melds[seat % self._teams],
                    position.pile_card,
                    False,
                    size_of(position.sizes, seat),
                    None,
                    position,
                )
        elif phase is _DRAW_PHASE:
            if position.bonus_suit is not None or not self._kozi:
                # The hand read from the position: a Situation is made only for the
                # look-ahead that few takes need.
                seat = position.seat
                size = size_of(position.sizes, seat)
                pile = position.pile
                refusal = self._take_before_look_ahead(position.hands[seat], size, pile)
                if refusal is _LOOK_AHEAD:
                    refusal = self.take_refusal(self.situation(position), size, pile)
                return _draw_choices(refusal is None, self.stock_open(len(position.stock)))
        else:
            return ()
        return self.moves(
            self.situation(position),
            size_of(position.sizes, position.seat),
            phase,
            position.pile,
            len(position.stock),
            position.redraw is not None,
            position.bonus_suit is None,
        )

    def moves(
        self,
        situation: Situation,
        size: int,
        phase: Phase,
        pile: tuple[Card, ...],
        stock_size: int,
        redraw_open: bool,
        suit_unnamed: bool,
    ) -> tuple[Move, ...]:
        """The legal moves from what the player to move knows: its :class:`Situation`,
        the ``size`` of its hand, the phase, the discard pile, the stock's size, whether
        the redraw is open (Z2.2) and whether the bonus suit is still unnamed (V1).
        :meth:`legal_moves` and :class:`~biriba.PlayerView` both ask this."""
        if phase is _PLAY_PHASE:
            moves = self.play_moves(situation, size)
            if self.redraw_allowed(redraw_open, stock_size):
                return (_REDRAW, *moves)  # Z2.2
            return moves
        if phase is _DRAW_PHASE:
            if self._kozi and suit_unnamed:
                return _NAME_SUITS  # V1
            return self.draw_moves(situation, size, pile, self.stock_open(stock_size))
        return ()

    def redraw_allowed(self, redraw_open: bool, stock_size: int) -> bool:
        """Whether :class:`~biriba.Redraw` is legal (Z2.2): right after the deal's first
        draw (``redraw_open``), with a card left to draw."""
        return redraw_open and self.stock_open(stock_size)

    def stock_open(self, stock_size: int) -> bool:
        """Whether a stock of ``stock_size`` cards may still be drawn from (B4.4, V7)."""
        return stock_size > self._stock_end

    def draw_moves(
        self, situation: Situation, size: int, pile: tuple[Card, ...], stock_open: bool
    ) -> tuple[Move, ...]:
        """The legal moves of the draw phase (B4.1, B4.4, Z4.3), ``size`` the cards in hand."""
        return _draw_choices(self.take_refusal(situation, size, pile) is None, stock_open)

    def play_moves(self, situation: Situation, size: int) -> tuple[Move, ...]:
        """The legal moves of the play phase, ``size`` being the number of cards in hand.

        Melds and additions are listed when :meth:`after_refusal` finds nothing against
        them; discards when :meth:`hand_discard_refusal` finds nothing against the hand's
        size, less the card B4.2 bars (:meth:`discard_refusal` checks one discard the
        same way).
        """
        counts, melds, _, _, pile_card, opening = situation
        return self._play_moves(counts, melds, pile_card, opening, size, situation, None)

    def _play_moves(
        self,
        counts: Counts,
        melds: tuple[Meld, ...],
        pile_card: Card | None,
        opening: bool,
        size: int,
        situation: Situation | None,
        position: Position | None,
    ) -> tuple[Move, ...]:
        """:meth:`play_moves` from the fields of the :class:`Situation` it reads at every
        position, the situation itself (for the look-aheads) given or else made from
        ``position`` when first needed."""
        moves: list[Move] = []
        # ``spare`` cards may leave the hand with no look-ahead: the rest, even if every
        # barred copy stays, still ends the turn freely (``fewest_free``, B4.5). Only
        # longer melds need after_refusal. In a turn that must reach an entry minimum
        # (V3) every meld needs it.
        spare = size - self.fewest_free[counts[pile_card.index] if pile_card is not None else 0]
        if opening:
            spare = -1
            # V3: every meld needs the look-ahead, and the look-aheads of one turn's moves
            # meet the same states: one search, in which the cache is emptied only past
            # _FINISH_SEARCH_LIMIT.
            self._enter_search()
        try:
            parts, substitutes = parts_and_substitutes(counts, self.rules)
            for part in parts:  # new melds within Z3.2's limit
                lays = part.lays
                if part.longest <= spare:
                    moves += lays
                    continue
                for lay in lays:
                    meld = lay.meld
                    if len(meld.cards) <= spare:
                        moves.append(lay)
                        continue
                    if situation is None:
                        situation = self._situation_at(position)
                    if self.after_refusal(situation, size, meld.cards, (*melds, meld)) is None:
                        moves.append(lay)
            # Additions (B3.8 to B3.12). A hand without substitutes (eight in ten of the play
            # positions of random Biriba deals, nine in ten of Buraco's) looks only at the
            # melds' natural candidates: under Buraco a meld takes every substitute (Z3.4),
            # most of its candidates.
            for i, meld in enumerate(melds):
                memo = None
                for idx in (
                    meld.candidate_indices() if substitutes else meld.natural_candidate_indices()
                ):
                    if counts[idx]:
                        # The moves kept with the meld (addition_moves, which makes them, keeps
                        # them under this key), read here without a call once they are made.
                        if memo is None:
                            memo = meld.move_memo()
                        adds = memo.get(i << 6 | idx)
                        if adds is None:
                            adds = addition_moves(meld, i, idx)
                        if spare > 0:
                            moves += adds
                            continue
                        if situation is None:
                            situation = self._situation_at(position)
                        for add in adds:
                            result = add.result
                            if result is None:  # the card's one place
                                result = meld.extensions_of_index(idx)[0]
                            if (
                                self.after_refusal(
                                    situation,
                                    size,
                                    (add.card,),
                                    (*melds[:i], result, *melds[i + 1 :]),
                                )
                                is None
                            ):
                                moves.append(add)
            if size >= self.free_hand and not opening:
                refused = None  # the common case, which hand_discard_refusal finds first
            else:
                if situation is None:
                    situation = self._situation_at(position)
                refused = self.hand_discard_refusal(situation, size)
            if refused is None:
                barred = pile_card.index if pile_card is not None else -1
                if _INDEXED_DISCARDS:
                    # Compiled, reading 53 bytes by index is a few machine instructions
                    # each; compress() asks the interpreter for an int object and its
                    # truth at every byte (about 4,000 instructions a call: 5.7% of a deal).
                    for i in range(53):
                        if counts[i] and i != barred:
                            moves.append(DISCARDS[i])
                elif barred < 0:
                    moves += compress(DISCARDS, counts)
                else:
                    barred_discard = DISCARDS[barred]
                    moves += [d for d in compress(DISCARDS, counts) if d is not barred_discard]
            return tuple(moves)
        finally:
            if opening:
                self._leave_search()

    # ============================================================== refusals
    def adopt(self, move: Move) -> Move | Refusal:
        """``move`` with its melds read under this engine's rule set (a meld carries the
        rule set it was validated under), or the refusal of cards that form no meld
        under it."""
        rules = self.rules
        if isinstance(move, Discard | DrawStock):
            return move  # the commonest moves carry no meld
        try:
            if isinstance(move, LayMeld) and move.meld.rules is not rules:
                return LayMeld(Meld.from_cards(move.meld.cards, rules))
            if (
                isinstance(move, AddToMeld)
                and move.result is not None
                and move.result.rules is not rules
            ):
                result = Meld.from_cards(move.result.cards, rules)
                return AddToMeld(move.index, move.card, result)
        except InvalidMeldError as error:
            rule = error.rule or "B3.1"
            detail = str(error).replace(f": {rule}: ", ": ", 1)
            return Refusal(rule, f"under the rule set {rules.name!r}, {detail}")
        return move

    def refusal(self, position: Position, move: Move) -> Refusal | None:
        """Why ``move`` is illegal in ``position``, or ``None`` if it is legal.

        ``move`` is a move of this engine's rule set (melds built under it). An
        addition's short form where the card has a choice of places, and its full form
        where it has none, are refused with B3.12: each legal addition has one text.
        """
        phase = position.phase
        seat = position.seat
        if phase is _DRAW_PHASE:
            if self._kozi and position.bonus_suit is None:
                return None if isinstance(move, NameSuit) else _KOZI_FIRST  # V1
            stock_open = self.stock_open(len(position.stock))
            if isinstance(move, DrawStock):
                if stock_open:
                    return None
                return self._stock_refusal("the stock is empty; take the discard pile or pass")
            if isinstance(move, Pass):
                if not stock_open:
                    return None
                return self._stock_refusal("a player may pass only when the stock is empty")
            if isinstance(move, TakeDiscard):
                return self.take_refusal(
                    self.situation(position), size_of(position.sizes, seat), position.pile
                )
            if isinstance(move, NameSuit):
                return _NO_KOZI if self._kozi else _NO_KOZI_HERE
            if isinstance(move, Redraw):
                return _NO_REDRAW if self._redraws else _NO_REDRAW_HERE
            first = "draw from the stock" if stock_open else "pass"
            return Refusal("B4.1", f"seat {seat} must first {first} or take the discard pile")
        if phase is Phase.OVER:
            return self.over_refusal(position)
        if isinstance(move, Redraw):
            if self.redraw_allowed(position.redraw is not None, len(position.stock)):
                return None
            return _NO_REDRAW if self._redraws else _NO_REDRAW_HERE
        situation = self.situation(position)
        size = size_of(position.sizes, seat)
        if isinstance(move, Discard):
            return self.discard_refusal(situation, size, move.card, seat)
        if isinstance(move, LayMeld):
            return self.meld_refusal(situation, size, move.meld, seat)
        if isinstance(move, AddToMeld):
            return self.add_refusal(situation, size, move, seat)
        if isinstance(move, NameSuit):
            return _NO_KOZI if self._kozi else _NO_KOZI_HERE
        return Refusal("B4.1", f"seat {seat} has already drawn this turn; meld, add or discard")

    def over_refusal(self, position: Position) -> Refusal:
        """The refusal of every move once the deal in ``position`` is over, citing the rule
        that ended it: a player closing (B7.1; Z4.2, going out), the last turn played
        (Z4.3) or the passes (B7.1)."""
        rule = self.ending_rule(position.closed_by is not None)
        if position.closed_by is not None:
            return Refusal(rule, "the deal is over: a player has closed")
        if self._last_round:
            return Refusal(rule, "the deal is over: its last turn was played")
        return Refusal(rule, "the deal is over")

    def ending_rule(self, closed: bool) -> str:
        """The rule that ended a deal that is over: a player closing when ``closed``
        (B7.1; Z4.2, going out), else the last turn played (Z4.3) or the passes (B7.1)."""
        return self.by_family.closing_ends if closed else self.unclosed_end_rule

    def _stock_refusal(self, reason: str) -> Refusal:
        """A refusal about the stock being exhausted: B4.4 (Z4.3 in Buraco's last round),
        or V7 when the rule set ends the stock with cards left in it."""
        if self._stock_end:
            return Refusal(
                self.stock_rule, f"{reason} (V7: {self._stock_end} cards or fewer count as none)"
            )
        return Refusal(self.stock_rule, reason)

    def take_refusal(
        self, situation: Situation, size: int, pile: tuple[Card, ...]
    ) -> Refusal | None:
        """Why the player may not take ``pile`` (B4.1, B4.2, B4.5; Z4.4), or ``None``."""
        refusal = self._take_before_look_ahead(situation.hand, size, pile)
        if refusal is not _LOOK_AHEAD:
            return refusal
        if self.can_finish(self.after_take(situation, pile)):
            return None
        return _TAKE_TRAPS

    def _take_before_look_ahead(
        self, hand: Counts, size: int, pile: tuple[Card, ...]
    ) -> Refusal | None:
        """What :meth:`take_refusal` finds from the ``hand`` alone: a refusal (B4.1, Z4.4),
        ``None`` when the hand after the take ends the turn freely however it is played
        (B4.5), else :data:`_LOOK_AHEAD`, the look-ahead being needed."""
        if not pile:
            return _EMPTY_PILE
        if self._no_take_with_one and len(pile) == 1 and size == 1:
            return _ONE_ON_ONE
        pile_card = self.barred_after_take(pile)
        barred = hand[pile_card.index] + 1 if pile_card is not None else 0
        if size + len(pile) >= self.fewest_free[barred]:
            return None
        return _LOOK_AHEAD

    def hand_discard_refusal(self, situation: Situation, size: int) -> Refusal | None:
        """Why no card at all may be discarded from a hand of ``size`` cards (B4.3, B5.4,
        B6.1; V3, V7), or ``None``."""
        if situation.opening:
            short = self.short_of_minimum(situation.melds, True)
            if short:
                return Refusal(
                    "V3",
                    f"the team's first melds of the deal must total {self._minimum} before "
                    f"the discard; {short} more are needed",
                )
        if size >= self.free_hand:
            return None
        keep = self.rules.keep_after_melding
        if size == 1:
            melds, received, packet = situation.melds, situation.received, situation.packet
            if self.last_card_goes(melds, received, packet):
                return None  # B5.4, B6.1, V7
            if packet is not None:
                return _LAST_CARD_NEEDS_BIRIBA
            if received:
                return self.by_family.close_needs_biriba
            return self.by_family.last_card_kept
        if size < keep:
            return Refusal(
                "B4.3", f"a player keeps at least {keep} cards after melding, one to discard"
            )
        return None

    def discard_refusal(
        self, situation: Situation, size: int, card: Card, seat: int
    ) -> Refusal | None:
        """Why ``seat`` may not discard ``card`` (B4.1, B4.2, B4.3), or ``None``."""
        if not situation.hand[card.index]:
            return Refusal("B4.1", f"seat {seat} does not hold {card}")
        if card is situation.pile_card:
            return Refusal(
                "B4.2",
                f"{card} was taken from a one-card pile this turn; neither it nor an "
                f"identical card may be discarded",
            )
        return self.hand_discard_refusal(situation, size)

    def meld_refusal(
        self, situation: Situation, size: int, meld: Meld, seat: int
    ) -> Refusal | None:
        """Why ``seat`` may not lay ``meld`` (B4.1, Z3.2, and what follows: B4.3 to B5.5),
        or ``None``."""
        hand = situation.hand
        needed = counts_of(meld.cards)
        if any(n > hand[i] for i, n in enumerate(needed)):
            return Refusal("B4.1", f"seat {seat} does not hold {format_cards(meld.cards)}")
        most = self.rules.max_new_meld
        if most is not None and len(meld) > most:
            return Refusal("Z3.2", f"a new meld has at most {most} cards")
        return self.after_refusal(situation, size, meld.cards, (*situation.melds, meld))

    def add_refusal(
        self, situation: Situation, size: int, move: AddToMeld, seat: int
    ) -> Refusal | None:
        """Why ``seat`` may not play ``move`` (B3.8 to B3.12, B4.1, and what follows), or
        ``None``."""
        melds = situation.melds
        index, card = move.index, move.card
        if index >= len(melds):
            team = seat % self._teams
            return Refusal(
                self.by_family.own_melds,
                f"team {team} has no meld {index} (it has {len(melds)}); a player adds only "
                f"to the team's melds",
            )
        if not situation.hand[card.index]:
            return Refusal("B4.1", f"seat {seat} does not hold {card}")
        target = melds[index]
        results = target.extensions(card)
        if not results:
            refused = target.extension_refusal(card)
            assert refused is not None
            return Refusal(*refused)
        if move.result is None:
            if len(results) > 1:
                listing = ", ".join(repr(str(add_unchecked(index, card, r))) for r in results)
                return Refusal(
                    "B3.12", f"{card} has a choice of places in {target}; write one of {listing}"
                )
            result = results[0]
        elif len(results) == 1:
            return Refusal(
                "B3.12",
                f"{card} has only one place in {target}; write 'add {index} {card}'",
            )
        elif move.result not in results:
            listing = ", ".join(str(r) for r in results)
            return Refusal("B3.12", f"adding {card} to {target} gives {listing}, not {move.result}")
        else:
            result = move.result
        return self.after_refusal(
            situation, size, (card,), (*melds[:index], result, *melds[index + 1 :])
        )

    def after_refusal(
        self,
        situation: Situation,
        size: int,
        removed: tuple[Card, ...],
        new_melds: tuple[Meld, ...],
    ) -> Refusal | None:
        """Why ``removed`` may not leave the hand for the table, the team's melds then
        being ``new_melds``: the hand may empty only into the reserve (B4.3, B5.2, B5.3,
        B5.5; Z4.1), and the turn must still be able to end (B4.5), the entry minimum
        reached where one applies (V3). ``None`` if it may."""
        return self._after_refusal(
            situation, size, removed, new_melds, self.short_of_minimum(new_melds, situation.opening)
        )

    def _after_refusal(
        self,
        situation: Situation,
        size: int,
        removed: tuple[Card, ...],
        new_melds: tuple[Meld, ...],
        short: int,
    ) -> Refusal | None:
        """:meth:`after_refusal`, the team then lacking ``short`` points of the entry
        minimum (V3), as the look-ahead works it out step by step."""
        counts, _, received, packet, pile_card, opening = situation
        left = size - len(removed)
        if left <= 0:
            if packet is None:
                refusals = self.by_family
                return refusals.reserve_received if received else refusals.no_reserve_left
            if not self.can_receive(new_melds, packet):
                return _RESERVE_NEEDS_BIRIBA
            if short:
                # V3: the packet's cards are unseen, so the look-ahead may not count on
                # them; the minimum is reached before the hand empties into it, and a
                # seat's moves depend only on what it knows (a view lists the deal's).
                return self._packet_before_minimum
            if self._finishes(
                _new_situation(
                    Situation, (counts_of(packet), new_melds, True, None, pile_card, opening)
                ),
                len(packet),
                short,
            ):
                return None
        elif (
            left
            >= self.fewest_free[
                counts[pile_card.index] - removed.count(pile_card) if pile_card is not None else 0
            ]
            and not short
        ) or self._finishes(
            _new_situation(
                Situation,
                (_plus(counts, removed, -1), new_melds, received, packet, pile_card, opening),
            ),
            left,
            short,
        ):
            return None
        if short:
            return Refusal(
                "V3",
                f"after this the team's first melds could not reach the entry minimum of "
                f"{self._minimum} this turn",
            )
        return self._trapped

    # ============================================================== look-ahead (B4.5)
    def can_finish(self, situation: Situation) -> bool:
        """Whether the player can still end the turn legally from ``situation`` (B4.5),
        having reached the entry minimum where one applies (V3)."""
        return self._finishes(
            situation,
            sum(situation.hand),
            self.short_of_minimum(situation.melds, situation.opening),  # V3
        )

    def _finishes(self, situation: Situation, size: int, short: int) -> bool:
        """:meth:`can_finish` of ``situation``, whose hand holds ``size`` cards and whose
        team still lacks ``short`` points of the entry minimum (V3): what the look-ahead's
        own steps (:meth:`after_refusal`) know already."""
        if not short:
            counts = situation.hand
            pile_card = situation.pile_card
            barred = counts[pile_card.index] if pile_card is not None else 0
            if size >= self.fewest_free[barred]:
                return True
            if size == 1 and not barred and self.hand_discard_refusal(situation, 1) is None:
                return True
        cache = self._finish_cache
        key: object = situation
        melds = situation.melds
        opening = situation.opening
        if opening and (len(melds) > 1 or self._search.twins):
            # V3: every meld of the team was laid this turn; what can still be done does
            # not depend on the order they were laid in, so the search meets each set of
            # melds once, in one order; nor, where a meld may hold more than one
            # substitute, on which of them stands where (_interchangeable).
            hand, _, received, packet, pile_card, _ = situation
            laid = map(_interchangeable, melds) if self._search.twins else melds
            key = (hand, tuple(sorted(laid, key=hash)), received, packet, pile_card)
        found = cache.get(key)
        if found is None:
            self._enter_search()
            try:
                self._meet_state()
                # V3: first the bounds on what the team can still lay this turn, the whole
                # hand's value (and the packet's it may empty into) and what its melds
                # could hold; then every way on.
                if short and (
                    self._card_points(situation) < short or self._beyond_melds(situation, short)
                ):
                    found = False
                elif short and opening and self._search.exact:
                    found = self._reaches(situation, size)
                else:
                    # What the team lacks after each step follows from what it lacks now,
                    # but for the turn's first meld (the minimum starts to count) and
                    # cards that may be worth less than nothing: worked out from the melds.
                    step_by_step = not opening or (melds and self._values_grow)
                    found = any(
                        self._after_refusal(
                            situation,
                            size,
                            removed,
                            after,
                            self._still_short(short, removed)
                            if step_by_step
                            else self.short_of_minimum(after, opening),
                        )
                        is None
                        for removed, after in self._melding_options(situation)
                    )
            finally:
                self._leave_search()
            cache[key] = found
        return found

    # ------------------------------------------------ V3: the opening turn's exact search
    def _reaches(self, situation: Situation, size: int) -> bool:
        """V3, an opening turn: whether the team's melds can still reach the entry
        minimum this turn, and the turn then end (B4.5), from ``situation`` (whose melds,
        all laid this turn, lack some of it; its hand holds ``size`` cards).

        Every meld of the team was laid this turn, so what the turn can end with is a set
        of melds, whatever the order its moves were played in: each a meld the turn can
        lay at once, or, where a new meld has at most so many cards (Z3.2), one such
        grows into by additions (:meth:`_new_melds`). So the search decides the hand's
        cards one at a time, the lowest undecided first (:attr:`_SearchState.order`): it
        stays in hand, or goes into a new meld of undecided cards that holds it, or grows
        one of the melds on the table, each grown once, by every card it will take
        (:meth:`_growths`). Each set of melds is met once, in that order (of melds that
        differ only in which of their substitutes stands where, one:
        :func:`_interchangeable`). Once the melds reach the minimum, the look-ahead
        without a minimum (:meth:`_after_refusal`) says whether the turn can end from
        there. Below it, a branch is cut where no way of deciding the rest both reaches
        the minimum and leaves a hand that could end the turn (:meth:`_could_end`).
        """
        melds = situation.melds
        pile_card = situation.pile_card
        start = (
            situation,
            size,
            situation.hand,
            (),
            melds,
            tuple(range(len(melds))),
            sum([meld.points for meld in melds]),
            0,
            False,
            pile_card.index if pile_card is not None else -1,
        )
        # First a quick search, bounded only by the undecided cards' values, which grows
        # no meld (what a meld grows into is what costs, _grown_from): a way is often
        # found at once. Where none is found within _QUICK_STATES, or none without
        # growing a meld that could have grown, the search that grows them and works
        # out exactly what the undecided cards could do. (Each search holds its own
        # count: where a card is worth less than nothing, the look-ahead from the
        # minimum reached may fall short of it again and search anew, inside.)
        quick = [_QUICK_STATES, 0]
        try:
            if self._reach_from(*start, quick):
                return True
            if not quick[1]:
                return False
        except _OutOfQuickStates:
            pass
        return self._reach_from(*start, None)

    def _reach_from(
        self,
        root: Situation,
        size: int,
        undecided: Counts,
        removed: tuple[Card, ...],
        melds: tuple[Meld, ...],
        growable: tuple[int, ...],
        points: int,
        kept: int,
        free: bool,
        barred: int,
        quick: list[int] | None,
    ) -> bool:
        """:meth:`_reaches` from ``root``, the cards ``removed`` having left the hand for
        the team's ``melds`` (worth ``points``), ``kept`` cards decided to stay (one of
        them not the card of index ``barred``, B4.2, if ``free``), the cards
        ``undecided`` still to decide and the melds of indices ``growable`` not grown
        yet; in the quick search, which grows no meld, ``quick`` holds the count of
        states it may still meet (:exc:`_OutOfQuickStates` past it) and then 1 once it
        has left a meld that could grow ungrown, and is ``None`` in the exact one."""
        if points >= self._minimum:
            return self._after_refusal(root, size, removed, melds, 0) is None
        self._meet_state()
        if quick is not None:
            if not quick[0]:
                raise _OutOfQuickStates
            quick[0] -= 1
            if points + self._gained(undecided) < self._minimum:
                return False
        elif not self._could_end(
            root,
            undecided,
            tuple([melds[i] for i in growable]),
            self._minimum - points,
            kept,
            free,
            has_biriba(melds),
            barred,
        ):
            return False
        index = self._lowest(undecided)
        card = CARDS[index]
        for meld in self._melds_holding(undecided, index):
            cards = meld.cards
            if self._reach_from(
                root,
                size,
                _plus(undecided, cards, -1),
                (*removed, *cards),
                (*melds, meld),
                growable,
                points + meld.points,
                kept,
                free,
                barred,
                quick,
            ):
                return True
        if quick is not None:
            if growable:
                quick[1] = 1  # a meld not grown: the quick search's False is not final
        else:
            for i in growable:
                meld = melds[i]
                others = tuple([j for j in growable if j != i])
                for grown, cards in self._growths(meld, undecided, index):
                    if self._reach_from(
                        root,
                        size,
                        _plus(undecided, cards, -1),
                        (*removed, *cards),
                        (*melds[:i], grown, *melds[i + 1 :]),
                        others,
                        points + grown.points - meld.points,
                        kept,
                        free,
                        barred,
                        quick,
                    ):
                        return True
        # The card stays in hand.
        return self._reach_from(
            root,
            size,
            _plus(undecided, (card,), -1),
            removed,
            melds,
            growable,
            points,
            kept + 1,
            free or index != barred,
            barred,
            quick,
        )

    def _could_end(
        self,
        root: Situation,
        undecided: Counts,
        growable: tuple[Meld, ...],
        needed: int,
        kept: int,
        free: bool,
        biriba: bool,
        barred: int,
    ) -> bool:
        """V3, :meth:`_reach_from`: whether deciding the cards ``undecided`` could add
        ``needed`` points and leave a hand from which the turn ends at once, ``kept``
        cards having been kept (``free``: one of them not the card of index ``barred``)
        and the team's melds holding a biriba if ``biriba``. A hand ends the turn at once
        where it :meth:`ends_freely` (B4.3, B4.2); with one card
        not barred, whose discard receives the reserve or closes (B5.4, B6.1) or is the
        card kept (V7: :meth:`last_card_goes`); or with none, by melding into the
        reserve (B5.2, V4: :meth:`can_receive`). Those two may need a biriba, on the
        table or made of the cards to decide. What the packet received then allows is
        not asked here: the search asks it once the minimum is reached."""
        most = self._most_reachable(undecided, growable, barred)
        # Classes (kept, a kept card not barred, a biriba made): see _most_reachable.
        ends_freely = self.ends_freely
        for position, points in enumerate(most):
            if points >= needed:
                more, rest = divmod(position, 4)
                if ends_freely(kept + more, free or rest >= 2):
                    return True
        if kept > 1 or (kept == 1 and not free):
            return False
        received, packet = root.received, root.packet
        # One card kept, not barred, and discarded: with the melds as they are, or with
        # a biriba made of the cards to decide (b = 1).
        goes = self.last_card_goes
        if goes((), received, packet, True):
            with_any = goes((), received, packet, biriba)
            # Kept now, or the one card kept from those to decide (position 4 + 2 + b).
            base = 0 if kept else 6
            for position in (base, base + 1):
                if (with_any or position & 1) and most[position] >= needed:
                    return True
        # No card kept: the hand empties into the reserve.
        if kept or not self.can_receive((), packet, True):
            return False
        if self.can_receive((), packet, biriba):
            return max(most[0], most[1]) >= needed
        return most[1] >= needed

    def _most_reachable(
        self, undecided: Counts, growable: tuple[Meld, ...], barred: int
    ) -> tuple[int, ...]:
        """V3: the most points the cards ``undecided`` could add to the team's, laid in
        new melds or growing the melds ``growable`` (each once), by what they leave: at
        ``4 * k + 2 * n + b``, where ``k`` of them stay in hand (``free_hand`` standing
        for that many or more), ``n`` is 1 if one of those is not the card of index
        ``barred`` (B4.2), and ``b`` 1 if a meld made or grown is a biriba;
        :data:`_UNREACHABLE` or less where no way of deciding them leaves that.

        The melds ``growable`` are grown first, each in every way the cards allow or not
        at all (:meth:`_grown_from`); then the cards left are decided in the order of
        :meth:`_reaches`, into new melds only, so that what the cards of a hand could
        lay in new melds is worked out once for every meld the turn began with. Kept
        from search to search."""
        memo = self._search.reach
        key = (undecided, growable, barred)
        found = memo.get(key)
        if found is not None:
            return found
        self._meet_state()
        reach = self._most_reachable
        if growable:
            meld, others = growable[0], growable[1:]
            best = list(reach(undecided, others, barred))  # not grown
            for grown, cards in self._grown_from(meld, undecided):
                _raise_by(
                    best,
                    reach(_plus(undecided, cards, -1), others, barred),
                    grown.points - meld.points,
                    grown.is_biriba,
                )
        else:
            index = self._lowest(undecided)
            if index < 0:
                best = [_UNREACHABLE] * (4 * self.free_hand + 4)
                best[0] = 0
            else:
                # The card stays in hand: one more kept, and not barred unless it is.
                stays = reach(_plus(undecided, (CARDS[index],), -1), (), barred)
                best = [_UNREACHABLE] * len(stays)
                for target, points in zip(self._search.kept[index != barred], stays, strict=True):
                    if points > best[target]:
                        best[target] = points
                for meld in self._melds_holding(undecided, index):
                    _raise_by(
                        best,
                        reach(_plus(undecided, meld.cards, -1), (), barred),
                        meld.points,
                        meld.is_biriba,
                    )
        found = memo[key] = tuple(best)
        return found

    def _lowest(self, counts: Counts) -> int:
        """The index of the first card of ``counts`` in :attr:`_SearchState.order`, or -1
        for none."""
        for index in self._search.order:
            if counts[index]:
                return index
        return -1

    def _melds_holding(self, counts: Counts, index: int) -> list[Meld]:
        """Every meld of the cards ``counts`` that holds the card of index ``index`` and
        that a turn can end with (:meth:`_new_melds`, listed from the cards that may share
        a meld with it), counted against :data:`~biriba.limits.MAX_SEARCH_MELDS`."""
        search = self._search
        key = _within(counts, search.near[index]) + _BYTES[index]
        listed = search.holding.get(key)
        if listed is None:
            listed = search.holding[key] = self._new_melds(key[:-1], CARDS[index])
        mine = search.local
        mine.melds += len(listed)
        if mine.melds > MAX_SEARCH_MELDS:
            raise self._search_too_long(f"lists more than {MAX_SEARCH_MELDS:,} melds")
        return listed

    def _new_melds(self, counts: Counts, card: Card) -> list[Meld]:
        """:meth:`_melds_holding`: every meld of the cards ``counts`` that holds ``card``
        and that the turn can lay, at once or grown by additions. Where the rule set
        bounds a new meld's length (Z3.2), that is every meld of any length that one of
        that length grows into (:meth:`_buildable`); of melds that differ only in which
        of their interchangeable substitutes stands where, one (:func:`_interchangeable`:
        what one can do, the other can)."""
        rules = self.rules
        unbounded = self._search.unbounded
        if unbounded is None:
            return [
                meld for meld in melds_from_counts_unchecked(counts, rules) if card in meld.cards
            ]
        found: dict[object, Meld] = {}
        for listed in melds_from_counts_unchecked(counts, unbounded):
            if card not in listed.cards:
                continue
            key = _interchangeable(listed)
            if key in found:
                continue
            meld = under_rules(listed, rules)
            if self._buildable(meld):
                found[key] = meld
        return list(found.values())

    def _buildable(self, meld: Meld) -> bool:
        """Z3.2: whether ``meld`` can be on the table at the end of a turn that lays it
        from the hand: it is no longer than a new meld may be, or a new meld of that
        length grows into it by additions of its other cards (B3.12). Worked out once for
        each arrangement of naturals and substitutes (:func:`_shape`)."""
        most = self.rules.max_new_meld
        if most is None or len(meld.cards) <= most:
            return True
        memo = self._search.buildable
        shape = _shape(meld)
        found = memo.get(shape)
        if found is None:
            # First from the stretches of its own places (a sequence grown at its ends),
            # then, where none grows into it, from every meld of its cards of that length
            # (a natural may also take a substitute's place, B3.9).
            counts = counts_of(meld.cards)
            goal = _interchangeable(meld)
            found = any(
                self._grows_into(start, counts, goal) for start in self._stretches(meld, most)
            ) or any(
                self._grows_into(start, counts, goal)
                for start in melds_from_counts_unchecked(counts, self.rules)
                if len(start.cards) == most
            )
            memo[shape] = found
        return found

    def _grows_into(self, start: Meld, counts: Counts, goal: object) -> bool:
        """:meth:`_buildable`: whether ``start``, grown by additions of the cards
        ``counts`` holds beyond its own, can be a meld of key ``goal``
        (:func:`_interchangeable`)."""
        return any(
            _interchangeable(grown) == goal
            for grown, _ in self._grown_from(start, _plus(counts, start.cards, -1))
        )

    def _stretches(self, meld: Meld, length: int) -> Iterator[Meld]:
        """:meth:`_buildable`: the melds of ``length`` cards that ``meld``, a sequence,
        holds in a row, each as a valid meld with its cards in the same places."""
        if meld.kind is not MeldKind.SEQUENCE:
            return
        cards = meld.cards
        subs = meld.substitute_positions
        low = meld.low
        assert low is not None
        for first in range(len(cards) - length + 1):
            try:
                start = Meld.from_cards(cards[first : first + length], self.rules)
            except InvalidMeldError:
                continue
            if start.low == low + first and start.substitute_positions == tuple(
                [i - first for i in subs if first <= i < first + length]
            ):
                yield start

    def _growths(
        self, meld: Meld, counts: Counts, index: int
    ) -> list[tuple[Meld, tuple[Card, ...]]]:
        """:meth:`_grown_from` ``meld`` and ``counts``, the card of index ``index``
        among the cards added."""
        card = CARDS[index]
        return [step for step in self._grown_from(meld, counts, index) if card in step[1]]

    def _grown_from(
        self, meld: Meld, counts: Counts, index: int = -1
    ) -> tuple[tuple[Meld, tuple[Card, ...]], ...]:
        """Every meld ``meld`` can grow into by adding cards of ``counts`` one at a time
        (B3.8 to B3.12), with the cards added (in index order): each once; none where
        the card of index ``index`` (if any) is neither of its suit or rank nor wild."""
        search = self._search
        suit = sequence_suit(meld)
        rank = meld.rank
        mask = search.suits[suit] if suit >= 0 else search.ranks[rank] if rank is not None else -1
        if index >= 0 and not mask >> ((len(counts) - 1 - index) << 3) & 1:
            return ()
        counts = _within(counts, mask)
        memo = search.grown
        key = (meld, counts)
        found = memo.get(key)
        if found is None:
            # What the meld grows into from more cards, those whose cards added are in
            # ``counts``: the same growths, each reached by the same additions. The
            # search asks of fewer and fewer cards, so the meld is grown once from the
            # most cards it was asked of, and again from a hand that holds a card those
            # lack. (Not from both: the cards of two hands together could hold far
            # more substitutes than either, and a meld far more growths.)
            widest = search.widest.get(meld)
            if widest is None or not all(map(le, counts, widest[0])):
                widest = search.widest[meld] = (
                    counts,
                    _all_growths(meld, counts, search.twins_met),
                )
            found = memo[key] = tuple(
                [
                    step
                    for step, needs in widest[1]
                    if all([counts[index] >= copies for index, copies in needs])
                ]
            )
        return found

    def _meet_state(self) -> None:
        """Count one more state met by this thread's search under way, against
        :data:`~biriba.limits.MAX_SEARCH_STATES`."""
        mine = self._search.local
        mine.states += 1
        if mine.states > MAX_SEARCH_STATES:
            raise self._search_too_long(f"meets more than {MAX_SEARCH_STATES:,} states")

    def _search_too_long(self, what: str) -> BiribaError:
        """The error of a look-ahead past the library's bounds (:mod:`biriba.limits`):
        ``what`` it does (lists more than so many melds...)."""
        whose = f"the entry minimum of {self._minimum}, V3" if self._minimum else "B4.5"
        return BiribaError(
            f"the look-ahead of these moves {what} ({whose}): more than the library "
            f"searches (biriba.limits.MAX_SEARCH_MELDS and MAX_SEARCH_STATES); a smaller "
            f"minimum, fewer substitutes in a meld or fewer jokers keep a search within them"
        )

    def _still_short(self, short: int, removed: tuple[Card, ...]) -> int:
        """V3: the points the team lacks once ``removed`` is laid, lacking ``short``
        before, where the team has laid a meld this turn (a meld's points are its cards'
        values, so laying cards adds theirs) and no card is worth less than nothing
        (``_values_grow``: once reached, the minimum then stays reached)."""
        if not short:
            return 0
        return max(0, short - self.rules.cards_value(removed))

    def _enter_search(self) -> None:
        """Count one more look-ahead under way (the caller counts it off when done). The
        cache of answers and the V3 search's tables (:class:`_SearchState`) are emptied
        here, before the search, when past their limit between searches
        (:data:`_FINISH_CACHE_LIMIT`) or once the enumerator has emptied its table of
        melds (whose melds they hold), and in the middle of one only past
        :data:`_FINISH_SEARCH_LIMIT`: a search that must start over meets again every
        state it had answered."""
        cache = self._finish_cache
        search = self._search
        if self._searching:
            limit = _FINISH_SEARCH_LIMIT
        else:
            limit = _FINISH_CACHE_LIMIT
            emptied = enumeration.times_emptied()
            if emptied != search.emptied:
                cache.clear()
                search.empty()
                search.emptied = emptied
        if len(cache) >= limit:
            cache.clear()
        # V3's exact search: its tables, by the same limits.
        held = len(search.reach) + len(search.grown) + len(search.holding)
        if held + len(search.widest) + len(search.twins_met) // 2 >= limit:
            search.empty()
        self._searching += 1
        # This thread's own count of what its search lists and meets, from its start.
        mine = self._search.local
        depth = getattr(mine, "depth", 0)
        if not depth:
            mine.melds = mine.states = 0
        mine.depth = depth + 1

    def _leave_search(self) -> None:
        """Count off a look-ahead that :meth:`_enter_search` counted, done or failed."""
        self._searching -= 1
        self._search.local.depth -= 1

    def _card_points(self, situation: Situation) -> int:
        """V3: the value of every card in hand, none counted below nothing: the plain
        bound on what the team can still lay this turn towards the minimum (a card worth
        less than nothing is left in hand; the packet the hand may empty into counts for
        nothing: the minimum must be reached before, see :meth:`_after_refusal`)."""
        return self._gained(situation.hand)

    def _gained(self, counts: Counts) -> int:
        """V3: what the cards ``counts`` are worth towards the minimum at most: their
        values (:meth:`RuleSet.counts_value <biriba.RuleSet.counts_value>`), none below
        nothing."""
        return sum(map(mul, counts, self._gains))

    def _beyond_melds(self, situation: Situation, short: int) -> bool:
        """V3: whether, for a hand of many substitutes, what the melds could hold of it is
        worth less than the ``short`` points the team still lacks (:meth:`_most_points`).
        Asked once per situation the look-ahead meets (its answer is cached with the
        situation's), after :meth:`_card_points` has found the whole hand worth enough."""
        if not self._one_substitute:
            return False
        hand = situation.hand
        held = sum([hand[index] for index in self.rules.wild_indices])
        if held < _MANY_SUBSTITUTES:
            return False
        # The places for substitutes are at least the melds on the table plus half the
        # hand's other cards, every two counted natural: with no more substitutes than
        # that, the hand alone bounds nothing below _card_points.
        twos = sum([hand[index] for index in self._natural_twos])
        if held <= len(situation.melds) + (sum(hand) - held + twos) // 2:
            return False
        return self._most_points(situation) < short

    def _most_points(self, situation: Situation) -> int:
        """V3, where every meld holds one substitute at most (B3.3): at least the most
        points the team could still lay this turn from ``situation`` (:meth:`_layable`),
        towards the minimum: from the hand alone, as the packet it may empty into counts
        for nothing (:meth:`_after_refusal`)."""
        hand, melds, _, _, _, _ = situation
        sequences = [0, 0, 0, 0, 0]  # by suit, and at -1 every other meld
        for meld in melds:
            sequences[sequence_suit(meld)] += 1
        return self._layable(hand, len(melds), sequences)

    def _layable(self, counts: Counts, on_table: int, sequences: list[int]) -> int:
        """V3, where every meld holds one substitute at most: a bound on the points of
        the cards ``counts`` that can still be laid, the team having ``on_table`` melds,
        ``sequences[s]`` of them sequences of suit ``s``.

        It counts what the table could hold at the end of the turn, whatever the order
        of the moves: every meld then holds one substitute at most (B3.3), and a new meld
        at least two cards that are not substitutes (B3.1: three cards or more), all
        from ``counts``. A two is not a substitute only at rank 2 of a sequence of its own
        suit (B3.6, Z3.5), one per sequence, which also holds a natural of that suit
        that is not a two, or is on the table already. So at most ``t`` twos of a suit
        stand natural, ``t`` the fewest of its twos and of its other naturals plus its
        sequences on the table; and the substitutes laid are at most the melds on the
        table plus half the naturals and natural twos. The bound counts every natural,
        those twos, and the most valuable substitutes that many places can take.
        """
        rules = self.rules
        values = self._gains  # a card worth less than nothing is left in hand
        roles = self._roles
        # Every card, less the substitutes and the twos, which only the wild indices hold.
        naturals = sum(counts)
        points = self._gained(counts)
        twos: list[tuple[int, int, int]] = []  # (suit, copies, value): twos that may stand
        substitutes: list[int] = []  # the value of each substitute
        for index in rules.wild_indices:
            count = counts[index]
            if not count:
                continue
            naturals -= count
            points -= count * values[index]
            if roles[index] == 1:
                twos.append((index // 13, count, values[index]))
            else:
                substitutes += [values[index]] * count
        for suit, count, value in twos:
            # The naturals of the suit that are not twos: its 13 cards less its two.
            first = suit * 13
            partners = sum(counts[first : first + 13]) - count + sequences[suit]
            natural = min(count, partners)
            naturals += natural
            points += natural * value
            substitutes += [value] * (count - natural)
        places = on_table + naturals // 2
        if places >= len(substitutes):
            return points + sum(substitutes)
        substitutes.sort(reverse=True)
        return points + sum(substitutes[:places])

    def _melding_options(
        self, situation: Situation
    ) -> Iterator[tuple[tuple[Card, ...], tuple[Meld, ...]]]:
        """Every meld and addition of the cards in hand, before any check of what follows,
        as ``(cards leaving the hand, the team's melds after)``."""
        counts, melds, _, _, _, _ = situation
        listed = melds_from_counts_unchecked(counts, self.rules)
        mine = self._search.local
        mine.melds += len(listed)
        if mine.melds > MAX_SEARCH_MELDS:
            raise self._search_too_long(f"lists more than {MAX_SEARCH_MELDS:,} melds")
        for meld in listed:
            yield meld.cards, (*melds, meld)
        for i, card, result, _ in additions(counts, melds):
            yield (card,), (*melds[:i], result, *melds[i + 1 :])

    # ============================================================== applying
    def apply(self, position: Position, move: Move) -> Position:
        """The position after ``move``, which must be legal in ``position``. (An
        instance of a subclass of a move class plays as the move of that class with the
        same fields; anything that is not a move raises :class:`TypeError`.)"""
        (
            dealer,
            seat,
            phase,
            hands,
            sizes,
            known,
            melds,
            stock,
            pile,
            reserves,
            received,
            unactivated,
            passes,
            pile_card,
            closed_by,
            redraw,
            last_turn,
            bonus_suit,
            opening,
        ) = position
        team = seat % self._teams
        end_turn = False
        # Told apart by exact class, a pointer's comparison (a failed isinstance() looks
        # the move's __class__ up); a subclass of a move is played as its class, last.
        kind = type(move)
        if kind is _DISCARD_CLASS:
            card = cast(Discard, move).card
            hands, sizes, known = _without_one(hands, sizes, known, seat, card.index)
            pile += (card,)
            pile_card = redraw = None
            end_turn = True
            if hands[seat] == EMPTY_COUNTS:
                own = melds[team]
                if self.can_receive(own, self.situation(position).packet):
                    # B5.4: received now, activated at the next turn
                    hands, sizes, known, reserves, received = _receive(
                        hands, sizes, known, reserves, received, seat, team
                    )
                    unactivated = replaced(unactivated, team, seat)
                elif self.can_close(own, received[team]):  # B6.1, Z4.2: the deal ends
                    phase = Phase.OVER
                    closed_by = seat
                    end_turn = False
                # else V7: a turn may end with an empty hand
            if end_turn and last_turn:  # Z4.3: the last turn is over
                phase = Phase.OVER
                end_turn = False
        elif kind is _DRAW_STOCK_CLASS:
            # Z2.2: the deal's first draw opens the redraw (the full stock, first_draw's
            # own first test, made here: every other draw is spared the call).
            if self._redraws and len(stock) == self.full_stock and self.first_draw(position):
                redraw = CARDS[stock[-1]]
            hands, sizes, stock, reserves = self._draw(hands, sizes, stock, reserves, seat)
            passes = 0
            phase = _PLAY_PHASE
        elif kind is _LAY_MELD_CLASS:
            meld = cast(LayMeld, move).meld
            melds = replaced(melds, team, (*melds[team], meld))
            hands, sizes, known = _without(hands, sizes, known, seat, meld.cards)
            redraw = None
            if hands[seat] == EMPTY_COUNTS:  # B5.3
                hands, sizes, known, reserves, received = _receive(
                    hands, sizes, known, reserves, received, seat, team
                )
        elif kind is _ADD_TO_MELD_CLASS:
            add = cast(AddToMeld, move)
            index, card = add.index, add.card
            own = melds[team]
            result = add.result or own[index].extensions(card)[0]
            melds = replaced(melds, team, (*own[:index], result, *own[index + 1 :]))
            hands, sizes, known = _without_one(hands, sizes, known, seat, card.index)
            redraw = None
            if hands[seat] == EMPTY_COUNTS:  # B5.3
                hands, sizes, known, reserves, received = _receive(
                    hands, sizes, known, reserves, received, seat, team
                )
        elif kind is _TAKE_DISCARD_CLASS:
            hands, sizes, known = _taken(hands, sizes, known, seat, pile)
            pile_card = self.barred_after_take(pile)
            pile = ()
            passes = 0
            phase = _PLAY_PHASE
        elif kind is _PASS_CLASS:
            passes += 1
            if last_turn or passes >= self.rules.pass_limit:  # Z4.3; B4.4, B7.1
                phase = Phase.OVER
            else:
                end_turn = True
        elif kind is _REDRAW_CLASS:  # Z2.2: the card drawn goes up, the next comes in
            assert redraw is not None
            # (the card just drawn, which nobody knew the player to hold: known unchanged)
            hands, sizes, _ = _without_one(hands, sizes, known, seat, redraw.index)
            pile += (redraw,)
            redraw = None
            hands, sizes, stock, reserves = self._draw(hands, sizes, stock, reserves, seat)
        elif kind is _NAME_SUIT_CLASS:  # V1: the joker up-card into the hand
            hands, sizes, known = _taken(hands, sizes, known, seat, pile)
            pile = ()
            bonus_suit = cast(NameSuit, move).suit
        else:  # a subclass of a move's class (or not a move: TypeError)
            return self.apply(position, as_library_move(move))
        if end_turn:
            seat = (seat + 1) % self._players
            phase = _DRAW_PHASE
            pile_card = None
            next_team = seat % self._teams
            if unactivated[next_team] == seat:  # B5.4: the receiver's next turn begins
                unactivated = replaced(unactivated, next_team, None)
            if self._last_round and not reserves:  # (with a morto left, it is not)
                last_turn = self.last_turn_begins(stock, reserves)
            if self._minimum:
                opening = not melds[next_team]
        return _new_position(
            _POSITION_CLASS,
            (
                dealer,
                seat,
                phase,
                hands,
                sizes,
                known,
                melds,
                stock,
                pile,
                reserves,
                received,
                unactivated,
                passes,
                pile_card,
                closed_by,
                redraw,
                last_turn,
                bonus_suit,
                opening,
            ),
        )

    def _draw(
        self,
        hands: tuple[Counts, ...],
        sizes: int,
        stock: Indices,
        reserves: tuple[tuple[Card, ...], ...],
        seat: int,
    ) -> tuple[tuple[Counts, ...], int, Indices, tuple[tuple[Card, ...], ...]]:
        """The top card of the stock into ``seat``'s hand (B4.1); a stock emptied so
        takes the next morto, when the rule set says so (Z4.3)."""
        index = stock[-1]
        stock = stock[:-1]
        hand = hands[seat]
        hands = replaced(hands, seat, hand[:index] + _BYTES[hand[index] + 1] + hand[index + 1 :])
        sizes = resized(sizes, seat, 1)
        if self._last_round and reserves and len(stock) <= self._stock_end:
            stock += indices_of(reserves[0])  # Z4.3: in the order listed, the last on top
            reserves = reserves[1:]
        return hands, sizes, stock, reserves

    def can_receive(
        self, melds: tuple[Meld, ...], packet: tuple[Card, ...] | None, biriba: bool | None = None
    ) -> bool:
        """Whether emptying the hand now receives ``packet``, the team's melds being
        ``melds`` (B5.2: a biriba on the table; V4, Z4.1: without), or holding a biriba
        if ``biriba`` where given."""
        return packet is not None and (
            not self.rules.reserve_needs_biriba or (has_biriba(melds) if biriba is None else biriba)
        )

    def can_close(
        self, melds: tuple[Meld, ...], received: bool, biriba: bool | None = None
    ) -> bool:
        """Whether discarding the last card closes, the team's melds being ``melds`` (B6.1:
        its reserve received and a biriba on the table; Z4.2: going out), or holding a
        biriba if ``biriba`` where given."""
        return received and (
            not self.rules.close_needs_biriba or (has_biriba(melds) if biriba is None else biriba)
        )

    def last_card_goes(
        self,
        melds: tuple[Meld, ...],
        received: bool,
        packet: tuple[Card, ...] | None,
        biriba: bool | None = None,
    ) -> bool:
        """Whether the last card in hand may be discarded (B4.3): the discard receives
        the reserve (B5.4) or closes (B6.1), or one card kept is the discard (V7); the
        team's melds being ``melds``, or holding a biriba if ``biriba`` where given."""
        return (
            self.can_receive(melds, packet, biriba)
            or self.can_close(melds, received, biriba)
            or self.rules.keep_after_melding <= 1
        )


def _all_growths(
    meld: Meld, counts: Counts, twins: dict[object, Meld]
) -> list[tuple[tuple[Meld, tuple[Card, ...]], tuple[tuple[int, int], ...]]]:
    """:meth:`Engine._grown_from`: every meld ``meld`` grows into by adding cards of
    ``counts`` one at a time (B3.8 to B3.12), each once of melds that differ only in
    which of their substitutes stands where (:func:`_interchangeable`), with the cards
    added (in index order) and those cards as ``(index, copies)`` pairs.

    Each meld met stands for all its twins, one for the whole search (``twins`` maps a
    meld and its key to it): the melds a card can grow it into are then worked out once
    (:meth:`Meld.extensions_of_index <biriba.Meld.extensions_of_index>` keeps them),
    whichever meld's growths meet it."""
    grown: dict[tuple[Meld, tuple[Card, ...]], None] = {}
    frontier: list[tuple[Meld, tuple[Card, ...]]] = [(meld, ())]
    while frontier:
        current, cards = frontier.pop()
        for _, card, result, _ in additions(_plus(counts, cards, -1), (current,)):
            twin = twins.get(result)
            if twin is None:
                twin = twins[result] = twins.setdefault(_interchangeable(result), result)
            step = (twin, tuple(sorted((*cards, card))))
            if step not in grown:
                grown[step] = None
                frontier.append(step)
    return [
        (step, tuple([(card.index, step[1].count(card)) for card in dict.fromkeys(step[1])]))
        for step in grown
    ]


def _interchangeable(meld: Meld) -> object:
    """A key that melds share when they differ only in which of their substitutes stands
    where, none of them a two of the sequence's own suit (which may yet stand natural at
    rank 2, Z3.5, B3.9): each can then do what the other can, move for move, with the
    same cards. (Only a meld of two substitutes or more has such twins; a group's cards
    may be in any order.)"""
    subs = meld.substitute_positions
    cards = meld.cards
    if meld.kind is not MeldKind.SEQUENCE:  # its cards, in any order
        return (meld.kind, meld.rank, tuple(sorted([card.index for card in cards])), len(subs))
    own_two = natural_index(sequence_suit(meld), 2)  # the two of its own suit
    places = [card.index for card in cards]
    others = []
    for i in subs:
        index = places[i]
        if index != own_two:
            places[i] = -1
            others.append(index)
    others.sort()
    return (own_two, meld.low, tuple(places), tuple(others))


def _shape(meld: Meld) -> tuple[object, ...]:
    """What :meth:`Engine._buildable` depends on: a sequence's first rank and, place by
    place, whether its card is a natural, a natural two, a two of its suit standing as a
    substitute or another substitute; a group's or wild meld's kind and counts."""
    subs = meld.substitute_positions
    cards = meld.cards
    if meld.kind is not MeldKind.SEQUENCE:
        return (meld.kind, len(cards), len(subs))
    own_two = natural_index(sequence_suit(meld), 2)  # the two of its own suit
    roles = [int(card.index == own_two) for card in cards]
    for i in subs:
        roles[i] += 2
    return (meld.low, tuple(roles))


class _SearchState:
    """What an engine keeps of its look-ahead's searches:

    - ``emptied``: the count of :func:`enumeration.times_emptied
      <biriba.enumeration.times_emptied>` when its cache of answers and the tables below
      were last emptied or made (once the enumerator has emptied its table of melds,
      they, which hold melds of it, go at the next look-ahead that starts with none under
      way: :meth:`Engine._enter_search`);
    - ``local``: for each thread, how deep its search under way is (``depth``) and how
      many melds it has listed and states it has met since it began (``melds``,
      ``states``), against :data:`~biriba.limits.MAX_SEARCH_MELDS` and
      :data:`~biriba.limits.MAX_SEARCH_STATES`. (The count of searches under way, which
      the emptying reads, is the engine's, shared by threads: a thread's search must
      not count another's work against its bounds.)
    - for V3's exact search of an opening turn (:meth:`Engine._reaches`): whether it is
      used (``exact``); what it derives once from the rule set (``order``, ``near``,
      ``suits``, ``ranks``, ``kept``, ``twins``, ``unbounded``); and its tables
      (``reach``, ``grown``, ``widest``, ``holding``, ``buildable``), emptied with the
      cache of answers.
    """

    __slots__ = (
        "buildable",
        "emptied",
        "exact",
        "grown",
        "holding",
        "kept",
        "local",
        "near",
        "order",
        "ranks",
        "reach",
        "suits",
        "twins",
        "twins_met",
        "unbounded",
        "widest",
    )

    def __init__(self, emptied: int, rules: RuleSet, free_hand: int, exact: bool) -> None:
        self.emptied = emptied
        self.local: Any = threading.local()
        #: V3: whether an opening turn's look-ahead is :meth:`Engine._reaches` (else it
        #: goes move by move, trying every order of moves).
        self.exact = exact
        #: With ``exact``, whether a meld may hold two substitutes or more (V7, Z3.4,
        #: Z3.7), which then have twins that differ only in which stands where
        #: (:func:`_interchangeable`): the look-ahead answers an opening turn once for
        #: all twins.
        self.twins = exact and (rules.max_substitutes != 1 or rules.wild_melds)
        #: Z3.2: where the rule set bounds a new meld's length, the same rules without the
        #: bound, under which the exact search lists the melds a turn can end with (those
        #: a new meld grows into, :meth:`Engine._buildable`, whose answers by shape are in
        #: ``buildable``); ``None`` where it bounds none.
        self.unbounded = None if rules.max_new_meld is None else rules.evolve(max_new_meld=None)
        self.buildable: dict[object, bool] = {}
        #: :func:`_all_growths`: the one meld that stands for each meld met and its
        #: twins, under the meld and under its key (:func:`_interchangeable`).
        self.twins_met: dict[object, Meld] = {}
        #: :meth:`Engine._grown_from`: for each meld, the most cards it was grown from
        #: and every growth of them, with the cards each needs.
        self.widest: dict[
            Meld,
            tuple[
                Counts,
                list[tuple[tuple[Meld, tuple[Card, ...]], tuple[tuple[int, int], ...]]],
            ],
        ] = {}
        #: V3, :meth:`Engine._reaches`: the order its cards are decided in, the wild
        #: cards last (a new meld is then met at its first natural); what the cards of a
        #: hand could add (:meth:`Engine._most_reachable`) and what a meld could grow into
        #: (:meth:`Engine._growths`), emptied by :meth:`Engine._enter_search`.
        wild = rules.wild
        self.order = tuple(
            sorted((i for i in range(len(wild)) if not wild[i]), key=lambda i: (i % 13, i))
        ) + tuple(i for i in range(len(wild)) if wild[i])

        #: For each card, the cards that may share a meld with it as an int over the
        #: hand's bytes (:func:`_within`): its rank's, its suit's and the wild cards (every
        #: card for a wild card); for each suit and each rank, its cards and the wild ones.
        cards = range(len(wild))
        self.suits = tuple(_byte_mask([wild[i] or i // 13 == s for i in cards]) for s in range(4))
        self.ranks = tuple(
            _byte_mask([wild[i] or (i < 52 and i % 13 == r - 1) for i in cards]) for r in range(14)
        )
        self.near = tuple(
            -1 if wild[c] else self.suits[c // 13] | self.ranks[c % 13 + 1]
            for c in range(len(wild))
        )
        #: :meth:`Engine._most_reachable`'s class of what one more card kept leaves, by
        #: the class before, for a card that is the barred one (``kept[False]``) or not.
        self.kept = tuple(
            tuple(
                4 * min(position // 4 + 1, free_hand) + (position % 4 | (2 if free else 0))
                for position in range(4 * free_hand + 4)
            )
            for free in (False, True)
        )
        self.reach: dict[tuple[Counts, tuple[Meld, ...], int], tuple[int, ...]] = {}
        self.holding: dict[bytes, list[Meld]] = {}
        self.grown: dict[tuple[Meld, Counts], tuple[tuple[Meld, tuple[Card, ...]], ...]] = {}

    def empty(self) -> None:
        """Empty the V3 search's tables (``reach``, ``grown``, ``widest``, ``holding``,
        ``buildable``)."""
        self.reach.clear()
        self.grown.clear()
        self.holding.clear()
        self.buildable.clear()
        self.widest.clear()
        self.twins_met.clear()


#: V3, :meth:`Engine._most_reachable`: the points of what no way of deciding leaves (far
#: below any sum of card values, which it may be added to).
_UNREACHABLE: Final = -(1 << 40)


#: V3, :meth:`Engine._reaches`: the states its quick search meets before it gives way to
#: the exact one. (Not ``Final``, which the compiled build would fix: a test changes it.)
_QUICK_STATES = 15


class _OutOfQuickStates(Exception):
    """V3, :meth:`Engine._reaches`: the quick search met :data:`_QUICK_STATES` states."""


def _byte_mask(keep: list[bool]) -> int:
    """The mask :func:`_within` keeps the cards of index ``i`` by where ``keep[i]``."""
    return int.from_bytes(bytes([255 if flag else 0 for flag in keep]), "big")


def _within(counts: Counts, mask: int) -> Counts:
    """``counts`` less every card outside ``mask`` (an int over the 53 bytes: 255 for a
    card kept, 0 for one left out; -1 keeps all)."""
    if mask == -1:
        return counts
    return (int.from_bytes(counts, "big") & mask).to_bytes(len(counts), "big")


def _raise_by(best: list[int], rest: tuple[int, ...], points: int, biriba: bool) -> None:
    """V3, :meth:`Engine._most_reachable`: raise ``best`` to what a meld worth ``points``
    (a biriba if ``biriba``) and what the rest leaves (``rest``) give."""
    for position, value in enumerate(rest):
        value += points
        if biriba:  # (k, n, 0) and (k, n, 1) both give (k, n, 1)
            position |= 1
        if value > best[position]:
            best[position] = value


#: V3: the fewest substitutes in hand for which :meth:`Engine._beyond_melds` works out
#: what the melds could hold of them: a hand of fewer seldom has more than they can
#: hold, and random play under a minimum meets such hands at every step of its
#: searches (working it out for them made random deals under minimums of 100 and 120
#: 25 to 35% slower).
_MANY_SUBSTITUTES: Final = 4


#: The classes :meth:`Engine.apply` tells moves apart by, and makes positions of, as the
#: module's constants: compiled, a constant is read where the compiled code keeps it,
#: an imported name from the module's dict at each use (two to four a move).
_DISCARD_CLASS: Final = Discard
_DRAW_STOCK_CLASS: Final = DrawStock
_LAY_MELD_CLASS: Final = LayMeld
_ADD_TO_MELD_CLASS: Final = AddToMeld
_TAKE_DISCARD_CLASS: Final = TakeDiscard
_PASS_CLASS: Final = Pass
_REDRAW_CLASS: Final = Redraw
_NAME_SUIT_CLASS: Final = NameSuit
_POSITION_CLASS: Final = Position


#: The tuple constructor, called as ``_new_position(Position, fields)`` with the fields
#: in order: the fastest way to make the new position of every move (and, as
#: ``_new_situation``, the situations of every look-ahead).
_new_position: Final = tuple.__new__
_new_situation: Final = tuple.__new__


#: ``bytes((n,))`` for each ``n`` from 0 to 255: a hand's count of one card changed by
#: one, spliced in between the hand's two slices around it (cheaper than a bytearray
#: copy and back, above all in the compiled build).
_BYTES: Final = tuple(bytes((n,)) for n in range(256))


def _taken(
    hands: tuple[Counts, ...],
    sizes: int,
    known: tuple[Counts, ...],
    seat: int,
    pile: tuple[Card, ...],
) -> tuple[tuple[Counts, ...], int, tuple[Counts, ...]]:
    """``hands``, ``sizes`` and ``known`` with the discard pile ``pile`` taken into
    ``seat``'s hand, every card of it known to the table (B4.1; V1, the joker up-card)."""
    return (
        replaced(hands, seat, _plus(hands[seat], pile, 1)),
        resized(sizes, seat, len(pile)),
        replaced(known, seat, _plus(known[seat], pile, 1)),
    )


def _without(
    hands: tuple[Counts, ...],
    sizes: int,
    known: tuple[Counts, ...],
    seat: int,
    cards: tuple[Card, ...],
) -> tuple[tuple[Counts, ...], int, tuple[Counts, ...]]:
    """``hands``, ``sizes`` and ``known`` with ``cards`` gone from ``seat``'s hand: a card
    played counts against a known copy."""
    hands = replaced(hands, seat, _plus(hands[seat], cards, -1))
    sizes = resized(sizes, seat, -len(cards))
    held = known[seat]
    if held is not EMPTY_COUNTS:
        still = bytearray(held)
        for card in cards:
            if still[card.index]:
                still[card.index] -= 1
        known = replaced(known, seat, _shared_if_empty(bytes(still)))
    return hands, sizes, known


def _without_one(
    hands: tuple[Counts, ...],
    sizes: int,
    known: tuple[Counts, ...],
    seat: int,
    index: int,
) -> tuple[tuple[Counts, ...], int, tuple[Counts, ...]]:
    """:func:`_without` for the one card of index ``index``: a discard or an addition,
    the commonest moves."""
    hand = hands[seat]
    hands = replaced(hands, seat, hand[:index] + _BYTES[hand[index] - 1] + hand[index + 1 :])
    sizes = resized(sizes, seat, -1)
    held = known[seat]
    if held is not EMPTY_COUNTS and held[index]:
        left = held[:index] + _BYTES[held[index] - 1] + held[index + 1 :]
        known = replaced(known, seat, _shared_if_empty(left))
    return hands, sizes, known


def _shared_if_empty(counts: Counts) -> Counts:
    """``counts``, or :data:`~biriba.cards.EMPTY_COUNTS` itself when they hold no card: a
    seat known to hold nothing is tested by identity. (Compared as bytes, a comparison of
    memory: ``any()`` of them, compiled, asks the interpreter for each of 53 ints.)"""
    return EMPTY_COUNTS if counts == EMPTY_COUNTS else counts


def _receive(
    hands: tuple[Counts, ...],
    sizes: int,
    known: tuple[Counts, ...],
    reserves: tuple[tuple[Card, ...], ...],
    received: tuple[bool, ...],
    seat: int,
    team: int,
) -> tuple[
    tuple[Counts, ...],
    int,
    tuple[Counts, ...],
    tuple[tuple[Card, ...], ...],
    tuple[bool, ...],
]:
    """The next packet goes into ``seat``'s empty hand, for ``team`` (B5.1, B5.3, B5.4)."""
    packet = reserves[0]
    return (
        replaced(hands, seat, counts_of(packet)),
        resized(sizes, seat, len(packet) - size_of(sizes, seat)),
        replaced(known, seat, EMPTY_COUNTS),
        reserves[1:],
        replaced(received, team, True),
    )


def additions(counts: Counts, melds: tuple[Meld, ...]) -> Iterator[tuple[int, Card, Meld, bool]]:
    """Every addition of a card in hand to one of the melds (B3.8 to B3.12), before any
    check of what follows: ``(meld index, card, resulting meld, whether the card has a
    choice of places)``."""
    for i, meld in enumerate(melds):
        for idx in meld.candidate_indices():
            if counts[idx]:
                for add in addition_moves(meld, i, idx):
                    result = add.result
                    if result is not None:
                        yield i, add.card, result, True
                    else:  # the card's one place
                        yield i, add.card, meld.extensions_of_index(idx)[0], False


def addition_moves(meld: Meld, i: int, idx: int) -> tuple[AddToMeld, ...]:
    """The moves adding the card of index ``idx`` to ``meld``, the team's meld number
    ``i``, before any check of what follows (B3.8 to B3.12): one per result, in the full
    form only where the card has a choice of places (B3.12). Made once, then kept in the
    meld's :meth:`~biriba.Meld.move_memo` under ``i << 6 | idx``: a meld stays on the
    table, and in the same place, for many positions."""
    memo = meld.move_memo()
    key = i << 6 | idx
    found: tuple[AddToMeld, ...] | None = memo.get(key)
    if found is None:
        card = CARDS[idx]
        # A group or a meld of substitutes takes the card in one place or none: its
        # resulting meld is made only if the move is played (most are not).
        fits = fits_in_one_place(meld, idx)
        if fits is None:  # a sequence
            results = meld.extensions_of_index(idx)
            if len(results) == 1:
                found = _short_addition(key)
            else:
                found = tuple([add_unchecked(i, card, result) for result in results])
        else:
            found = _short_addition(key) if fits else ()
        memo[key] = found
    return found


def _short_addition(key: int) -> tuple[AddToMeld, ...]:
    """The move adding a card to a meld in its short form, as the one move of
    :func:`addition_moves` where the card has one place: ``key`` is ``i << 6 | idx``, the
    meld's place on the table and the card's index. It depends on nothing else, so every
    meld shares it: made once, then found again (a team has at most a few dozen melds, so
    the table stays small). Sharing it spares the collector two objects per meld and card."""
    found = _SHORT_ADDITIONS.get(key)
    if found is None:
        found = _SHORT_ADDITIONS[key] = (add_unchecked(key >> 6, CARDS[key & 63], None),)
    return found


#: The short-form additions made by :func:`_short_addition`, under ``i << 6 | idx``.
#: (Typed as tuples of any length: compiled, a ``tuple[AddToMeld]`` is unpacked when read
#: and a new tuple made wherever it is kept, one for each meld and card.)
_SHORT_ADDITIONS: Final[dict[int, tuple[AddToMeld, ...]]] = {}


#: How many rule sets' engines are kept; past that the one built first is dropped.
_ENGINE_LIMIT: Final = 32
_ENGINES: Final[dict[RuleSet, Engine]] = {}


def engine_for(rules: RuleSet) -> Engine:
    """The engine of ``rules``: one per rule set, for 32 rule sets at most (past that, the
    engine built first is dropped and built again when asked for)."""
    engine = _ENGINES.get(rules)
    if engine is None:
        if len(_ENGINES) >= _ENGINE_LIMIT:
            del _ENGINES[next(iter(_ENGINES))]
        engine = _ENGINES[rules] = Engine(rules)
    return engine


def clear_caches() -> None:
    """Empty every engine's look-ahead cache, and the meld enumerator's caches and tables
    (for measurements of a cold start)."""
    for engine in _ENGINES.values():
        engine._finish_cache.clear()
        engine._search.empty()
    _SHORT_ADDITIONS.clear()
    enumeration.clear_caches()
