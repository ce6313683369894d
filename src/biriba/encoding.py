"""Fixed-size encodings for learning and search: actions as integers, views as numbers.

Bot frameworks (PettingZoo, OpenSpiel, Gymnasium) want a fixed list of actions with a mask
of the legal ones, and an observation of fixed length. This module gives both, per rule
set, without any dependency:

- :class:`ActionCodec` (:func:`codec_for`): every move that can ever be legal under a rule
  set has one action id, and every id one move; :meth:`~ActionCodec.legal_ids` and
  :meth:`~ActionCodec.mask` give the legal ones of a position;
- :func:`observe` (:func:`observation_layout`): a :class:`~biriba.PlayerView` as a flat
  list of numbers from the viewing seat's point of view, in a full form (every meld in its
  own slot) and a compact one; :func:`observe_array` returns a numpy array when numpy is
  installed.

::

    >>> from biriba import Deal
    >>> codec = codec_for(Deal.new(seed=1).rules)
    >>> codec.size
    19564
    >>> deal = Deal.new(seed=1)
    >>> ids = codec.legal_ids(deal)
    >>> ids, [codec.describe(i) for i in ids]
    ([0, 1], ['draw', 'take'])
    >>> deal.play(codec.decode(0, deal))
    >>> len(observe(deal.view(deal.to_move))) == observation_layout(deal.rules).size
    True

The layout carries a version, :data:`ENCODING_VERSION`, raised whenever an id or a place
of the observation changes meaning, so that a trained policy can check it is read with
the encoding it was trained on.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

import attrs

from biriba.cards import DISTINCT_CARDS, Card, Suit
from biriba.deal import Deal, PlayerView
from biriba.enumeration import enumerate_melds, many_substitute_sequences_bound
from biriba.errors import AmbiguousMoveError, BiribaError, IllegalMoveError
from biriba.limits import MAX_MOVES as MAX_RECORD_MOVES
from biriba.limits import check_count, check_real, excerpt, type_name, whole_number
from biriba.melds import Meld, MeldKind
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
)
from biriba.position import Phase
from biriba.rules import BIRIBA, RuleSet, StockExhausted, check_rules, full_pack

__all__ = [
    "ENCODING_VERSION",
    "MAX_CODEC_MELDS",
    "MAX_MOVES",
    "REWARD_SCALE",
    "ActionCodec",
    "ObservationLayout",
    "Table",
    "check_max_moves",
    "check_scale",
    "codec_for",
    "observation_layout",
    "observe",
    "observe_array",
    "observe_sparse",
    "outcome_order",
    "team_returns",
]

#: The version of the action ids and of the observation layout. It changes whenever an id
#: or a place of the observation comes to mean something else.
ENCODING_VERSION: Final = 1

#: The adapters' default move cap: a deal still running after this many moves is cut
#: short (truncated). Uniform random play ends a ``biriba`` deal in about 240 moves,
#: never more than about 450 in 1,000 deals (``biriba-6``: about 430, up to about 1,000);
#: taking the pile again and again can go on for ever.
MAX_MOVES: Final = 2000

#: The adapters divide scores by this to make rewards and returns.
REWARD_SCALE: Final = 1000

#: The most sequences with two substitutes or more (V7, Z3.4) a rule set's pack may lay
#: for :class:`ActionCodec` to give every meld an id: ``biriba`` with three substitutes
#: a meld lays about 1.9 million (its codec takes about ten seconds to build), with four
#: about 16 million, and with no limit hundreds of millions, more than memory holds.
MAX_CODEC_MELDS: Final = 4_000_000

#: A deal or the view of the seat to move: where the codec finds the legal moves and the
#: melds of the acting team.
Table = Deal | PlayerView


def outcome_order(meld: Meld) -> tuple[int, tuple[int, ...]]:
    """The sort key of an addition's outcomes: where an added card leaves a choice (B3.9
    to B3.12), place 0 is the outcome whose sequence starts at the lowest rank, and
    outcomes starting at the same rank (a natural two beside several substitutes, Z3.4)
    follow the :attr:`Card.index <biriba.Card.index>` of their cards in table order."""
    if not isinstance(meld, Meld):
        raise TypeError(f"outcome_order expects a Meld, got {type(meld).__name__}")
    return (meld.low or 0, tuple(c.index for c in meld.cards))


def check_scale(value: object) -> float:
    """``value`` as a reward scale (what :func:`team_returns` divides scores by): a finite
    number above 0, else :class:`TypeError` or :class:`~biriba.BiribaError`. The
    adapters check theirs with it."""
    return check_real(value, "scale", 0, above=True)


def check_max_moves(value: object) -> int:
    """``value`` as a move cap (the adapters' ``max_moves``: a deal still running after
    that many moves is cut): a whole number from 1 to :data:`~biriba.limits.MAX_MOVES`
    (the most moves a record's deal holds; OpenSpiel keeps a game's length in 64 bits),
    else :class:`TypeError` or :class:`~biriba.BiribaError`."""
    number = check_count(value, "max_moves")
    if number > MAX_RECORD_MOVES:
        raise BiribaError(f"max_moves must be at most {MAX_RECORD_MOVES:,}, got {excerpt(number)}")
    return number


def _check_view(view: object) -> PlayerView:
    """``view`` if it is a :class:`~biriba.PlayerView`, else :class:`TypeError`."""
    if not isinstance(view, PlayerView):
        raise TypeError(f"expected a PlayerView (deal.view(seat)), got {type(view).__name__}")
    return view


def _check_compact(compact: object) -> bool:
    """``compact`` if it is a bool, else :class:`TypeError`."""
    if not isinstance(compact, bool):
        raise TypeError(f"compact is True or False, got {type_name(compact)}")
    return compact


def _keyword_moves(rules: RuleSet) -> tuple[Move, ...]:
    """The moves without a card, in the order of their ids: ``draw``, ``take``, ``pass``,
    then ``redraw`` where the rule set has it (Z2.2), then ``kozi C`` to ``kozi S`` where
    it has kózi (V1). A rule set without them keeps the ids of the others."""
    moves: list[Move] = [DrawStock(), TakeDiscard(), Pass()]
    if rules.first_turn_redraw:
        moves.append(Redraw())
    if rules.bonus_suit_bonus is not None:
        moves += [NameSuit(suit) for suit in Suit]
    return tuple(moves)


def _places(rules: RuleSet) -> int:
    """The most outcomes one addition can have. With at most one substitute per meld
    (B3.3), two: an ace at either end, a substitute or a moved substitute low or high, a
    two as the natural two or as a substitute at the other end. With more (V7, Z3.4) a
    natural two added beside a substitute standing at rank 2 has four: the substitute
    moved low or high, or the two itself a substitute low or high."""
    most = rules.max_substitutes
    return 2 if most is not None and most <= 1 else 4


class ActionCodec:
    """Move ↔ action id under one rule set; build it with :func:`codec_for`.

    The ids, in order (``k`` keyword moves, ``M`` melds, ``S`` slots, ``P`` places):

    ====================================  ===================================================
    ids                                   moves
    ====================================  ===================================================
    ``0 .. k-1``                          ``draw``, ``take``, ``pass``; then ``redraw``
                                          where the rule set has it (Z2.2); then
                                          ``kozi C``, ``kozi D``, ``kozi H``, ``kozi S``
                                          where it has kózi (V1)
    ``k + c``                             ``discard`` of the card with
                                          :attr:`Card.index <biriba.Card.index>` ``c``
    ``k + 53 + m``                        ``meld`` of :attr:`melds` ``[m]``: every meld the
                                          rule set's whole pack can lay, in the order
                                          :func:`~biriba.enumerate_melds` gives them
    ``k + 53 + M + (s·53 + c)·P + p``     ``add s c``: the card ``c`` added to the team's
                                          meld in slot ``s`` (its index in
                                          ``deal.melds(team)``), outcome ``p`` of the
                                          addition's outcomes sorted by
                                          :func:`outcome_order` (0 when it has one)
    ====================================  ===================================================

    ``S`` is the pack's size divided by the fewest cards of a meld (a team never has more
    melds: 36 in ``biriba``), ``P`` the most outcomes an addition can have (2 with one
    substitute per meld, B3.3; 4 with more, V7 and Z3.4). In ``biriba``: 3 + 53 + 15,692 +
    36·53·2 = 19,564 ids. Every legal move of every position has exactly one id and no two
    legal moves of a position share one.
    """

    __slots__ = (
        "_keyword_ids",
        "_meld_ids",
        "_same_ids",
        "keywords",
        "melds",
        "places",
        "rules",
        "slots",
    )

    #: The rule set.
    rules: RuleSet
    #: The keyword moves, in id order.
    keywords: tuple[Move, ...]
    #: Every meld the pack can lay as a new meld, in id order.
    melds: tuple[Meld, ...]
    #: The meld slots of a team.
    slots: int
    #: The most outcomes of one addition.
    places: int
    _keyword_ids: dict[Move, int]
    #: The id of each meld of :attr:`melds`, by its cards in table order: a move's meld
    #: is found whatever rule set it was read under, as moves compare by their texts.
    _meld_ids: dict[tuple[Card, ...], int]
    #: Whether other rule sets' tables give the same ids (the same moves at the same ids):
    #: a variant that changes only scores or the target does.
    _same_ids: dict[RuleSet, bool]

    def __init__(self, rules: RuleSet = BIRIBA) -> None:
        check_rules(rules)
        many = many_substitute_sequences_bound(rules)
        if many > MAX_CODEC_MELDS:
            raise BiribaError(
                f"the rule set {excerpt(rules.name)} lets a meld hold "
                f"{rules.max_substitutes or 'any number of'} substitutes (V7): its pack "
                f"lays about {many:,} sequences of two substitutes or more, more than an "
                f"action codec gives ids to ({MAX_CODEC_MELDS:,}): fewer substitutes a "
                f"meld (max_substitutes) or a shorter new meld (max_new_meld) lays fewer"
            )
        self.rules = rules
        self.keywords = _keyword_moves(rules)
        self._keyword_ids = {move: i for i, move in enumerate(self.keywords)}
        self.melds = enumerate_melds(full_pack(rules), rules)
        self._meld_ids = {meld.cards: i for i, meld in enumerate(self.melds)}
        self.slots = rules.pack_size // rules.min_meld
        self.places = _places(rules)
        self._same_ids = {}

    def _check_table(self, table: object) -> Table:
        """``table`` if it is a deal or a player's view whose rule set gives this codec's
        ids (the codec's own, or one that changes only what ids do not depend on, such as
        scores or the target): else :class:`TypeError`, or :class:`~biriba.BiribaError`
        for a rule set whose ids name other moves."""
        if not isinstance(table, Deal | PlayerView):
            raise TypeError(f"expected a Deal or a PlayerView, got {type(table).__name__}")
        found = table.rules
        if found is not self.rules and found != self.rules:
            same = self._same_ids.get(found)
            if same is None:  # worked out once for each rule set met (a few at most)
                other = codec_for(found)
                same = (
                    other.keywords == self.keywords
                    and other.slots == self.slots
                    and other.places == self.places
                    and tuple(other._meld_ids) == tuple(self._meld_ids)
                )
                if len(self._same_ids) >= _CODEC_LIMIT:
                    self._same_ids.clear()
                self._same_ids[found] = same
            if not same:
                raise BiribaError(
                    f"the table's rule set ({excerpt(found.name)}) gives other action ids "
                    f"than this codec's ({excerpt(self.rules.name)}): use "
                    f"codec_for(table.rules)"
                )
        return table

    # ------------------------------------------------------------------ the layout
    @property
    def version(self) -> int:
        """:data:`ENCODING_VERSION`."""
        return ENCODING_VERSION

    @property
    def discard_base(self) -> int:
        """The id of ``discard`` of the card with index 0."""
        return len(self.keywords)

    @property
    def meld_base(self) -> int:
        """The id of ``meld`` of :attr:`melds` ``[0]``."""
        return len(self.keywords) + DISTINCT_CARDS

    @property
    def add_base(self) -> int:
        """The id of the first addition: the card with index 0, slot 0, outcome 0."""
        return self.meld_base + len(self.melds)

    @property
    def size(self) -> int:
        """The number of action ids."""
        return self.add_base + self.slots * DISTINCT_CARDS * self.places

    def sizes(self) -> dict[str, int]:
        """The ids of each kind of move: ``keywords``, ``discards``, ``melds``, ``additions``
        and their ``total``."""
        additions = self.slots * DISTINCT_CARDS * self.places
        return {
            "keywords": len(self.keywords),
            "discards": DISTINCT_CARDS,
            "melds": len(self.melds),
            "additions": additions,
            "total": self.size,
        }

    # ------------------------------------------------------------------ moves and ids
    def encode(self, move: Move, table: Table) -> int:
        """The id of ``move`` played by the seat to move of ``table`` (a deal, or the view
        of the seat to move; an addition's outcome is read from that team's melds).

        Raises :class:`~biriba.BiribaError` for a move no id stands for under the rule set
        (a meld longer than a new meld may be, a slot past the last), or a table of
        another rule set.
        """
        self._check_table(table)
        if isinstance(move, Discard):
            return self.discard_base + move.card.index
        if isinstance(move, LayMeld):
            found = self._meld_ids.get(move.meld.cards)
            if found is None:
                raise BiribaError(
                    f"no action id for {str(move)!r}: not a new meld under {self.rules.name!r}"
                )
            return self.meld_base + found
        if isinstance(move, AddToMeld):
            melds = _team_melds(table)
            if move.result is None and move.index < len(melds):
                results = melds[move.index].extensions(move.card)
                if len(results) > 1:  # B3.12: each outcome has its id, the short form none
                    outcomes = tuple(AddToMeld(move.index, move.card, r) for r in results)
                    raise AmbiguousMoveError(
                        f"no single action id for {str(move)!r}: {move.card} has a choice "
                        f"of places (B3.12); encode one of "
                        f"{', '.join(repr(str(m)) for m in outcomes)}",
                        outcomes,
                    )
            return self._addition_id(move, melds)
        if isinstance(move, Move):
            found = self._keyword_ids.get(move)
            if found is not None:
                return found
            raise BiribaError(f"no action id for {str(move)!r} under {self.rules.name!r}")
        raise TypeError(f"encode expects a Move, got {type(move).__name__}")

    def _addition_id(self, move: AddToMeld, melds: Sequence[Meld]) -> int:
        index = move.index
        if index >= self.slots:
            raise BiribaError(f"no action id for {str(move)!r}: slots end at {self.slots - 1}")
        place = 0
        if move.result is not None:
            if index >= len(melds):
                raise BiribaError(f"no action id for {str(move)!r}: the team has no meld {index}")
            place = self._place(melds[index], move.card, move.result)
        return self.add_base + (index * DISTINCT_CARDS + move.card.index) * self.places + place

    def _place(self, meld: Meld, card: Card, result: Meld) -> int:
        outcomes = sorted(meld.extensions(card), key=outcome_order)
        if len(outcomes) > self.places:
            raise BiribaError(
                f"adding {card} to {meld} has {len(outcomes)} outcomes, the codec "
                f"{self.places} places: the rule set needs a newer encoding"
            )
        try:  # by cards, whatever rule set the result was read under
            return [outcome.cards for outcome in outcomes].index(result.cards)
        except ValueError:
            raise BiribaError(
                f"{result} is no outcome of adding {card} to {meld} (B3.12)", rule="B3.12"
            ) from None

    def legal_actions(self, table: Table) -> dict[int, Move]:
        """The legal moves of the seat to move, by id, in increasing id order (the very
        objects of ``table.legal_moves()``, so that playing them is cheap)."""
        moves = self._check_table(table).legal_moves()
        melds: Sequence[Meld] = ()
        found: dict[int, Move] = {}
        discard_base = self.discard_base
        meld_base = self.meld_base
        meld_ids = self._meld_ids
        for move in moves:
            kind = type(move)
            if kind is Discard:
                found[discard_base + move.card.index] = move  # type: ignore[attr-defined]
            elif kind is LayMeld:
                found[meld_base + meld_ids[move.meld.cards]] = move  # type: ignore[attr-defined]
            elif kind is AddToMeld:
                if not melds:
                    melds = _team_melds(table)
                found[self._addition_id(move, melds)] = move  # type: ignore[arg-type]
            else:
                found[self._keyword_ids[move]] = move
        if len(found) != len(moves):
            raise BiribaError("two legal moves share an action id: the codec is wrong")
        return dict(sorted(found.items()))

    def legal_ids(self, table: Table) -> list[int]:
        """The ids of the legal moves of the seat to move, in increasing order."""
        return list(self.legal_actions(table))

    def mask(self, table: Table) -> list[int]:
        """A list of :attr:`size` zeros with a 1 at each legal id."""
        mask = [0] * self.size
        for action in self.legal_actions(table):
            mask[action] = 1
        return mask

    def decode(self, action: int, table: Table) -> Move:
        """The legal move with id ``action`` in ``table`` (the very object of
        ``table.legal_moves()``).

        Raises :class:`~biriba.IllegalMoveError` when ``action`` is an id of the codec but
        no legal move now (with the rule that forbids it where the id names a move), and
        :class:`~biriba.BiribaError` for a number that is no id.
        """
        action = self.check_action(action)
        legal = self.legal_actions(table)
        move = legal.get(action)
        if move is not None:
            return move
        # Why not: the refusal of the move the id names, by the deal (or, for a view, by
        # a deal consistent with it: a refusal depends only on what the mover knows).
        named = self._move_of(action, table)
        if named is None:
            # An outcome of an addition past those the card has in that meld.
            raise IllegalMoveError(
                f"action {action} ({self.describe(action)}) is not legal now: the card has "
                f"no such place in that meld (B3.12)",
                rule="B3.12",
            )
        deal = table if isinstance(table, Deal) else table.sample(random.Random(0))
        try:
            deal.verify(named)
        except IllegalMoveError as error:
            raise IllegalMoveError(
                f"action {action} ({self.describe(action)}) is not legal now: {error}",
                rule=error.rule,
            ) from None
        raise BiribaError(  # pragma: no cover - legal_actions() lists every legal move
            f"action {action} names a legal move the codec does not list: the codec is wrong"
        )

    def _move_of(self, action: int, table: Table) -> Move | None:
        """The move the id ``action`` names in ``table`` (legal or not); ``None`` for an
        addition's outcome that the team's meld does not have. Any outcome of an addition
        to a meld the team does not have names the addition (refused with B3.8)."""
        if action < self.discard_base:
            return self.keywords[action]
        if action < self.meld_base:
            return Discard(Card.from_index(action - self.discard_base))
        if action < self.add_base:
            return LayMeld(self.melds[action - self.meld_base])
        rest, place = divmod(action - self.add_base, self.places)
        slot, index = divmod(rest, DISTINCT_CARDS)
        card = Card.from_index(index)
        melds = _team_melds(table)
        if slot >= len(melds):
            return AddToMeld(slot, card)
        outcomes = sorted(melds[slot].extensions(card), key=outcome_order)
        if len(outcomes) < 2:
            return AddToMeld(slot, card) if place == 0 else None
        return AddToMeld(slot, card, outcomes[place]) if place < len(outcomes) else None

    def check_action(self, action: object) -> int:
        """``action`` as an ``int`` if it is an action id (an ``int`` or any integer type,
        such as NumPy's, but not a ``bool``): else :class:`TypeError`, or
        :class:`~biriba.BiribaError` for a number that is no id."""
        number = whole_number(action, "an action id")
        if not 0 <= number < self.size:
            raise BiribaError(
                f"{excerpt(number)} is no action id: ids run from 0 to {self.size - 1}"
            )
        return number

    def describe(self, action: int) -> str:
        """What ``action`` stands for, without a position: a move text, or for an addition
        ``add S C`` and, where it can have several outcomes, ``#p`` the outcome's place."""
        action = self.check_action(action)
        if action < self.discard_base:
            return str(self.keywords[action])
        if action < self.meld_base:
            return f"discard {Card.from_index(action - self.discard_base)}"
        if action < self.add_base:
            return f"meld {self.melds[action - self.meld_base]}"
        rest, place = divmod(action - self.add_base, self.places)
        slot, card = divmod(rest, DISTINCT_CARDS)
        text = f"add {slot} {Card.from_index(card)}"
        return text if place == 0 else f"{text} #{place}"

    def __repr__(self) -> str:
        return f"codec_for(RuleSet.named({self.rules.name!r}))  # {self.size} ids"


def _team_melds(table: Table) -> tuple[Meld, ...]:
    """The melds of the team of the seat to move."""
    if isinstance(table, Deal):
        seat = table.to_move
        if seat is None:
            return ()
        return table.melds(table.team_of(seat))
    if isinstance(table, PlayerView):
        return table.melds[table.team]
    raise TypeError(f"expected a Deal or a PlayerView, got {type(table).__name__}")


#: How many rule sets' codecs are kept; past that the one built first is dropped.
_CODEC_LIMIT: Final = 8
_CODECS: dict[RuleSet, ActionCodec] = {}


def codec_for(rules: RuleSet = BIRIBA) -> ActionCodec:
    """The :class:`ActionCodec` of ``rules``, built once (it lists every meld of the pack:
    a few hundredths of a second for ``biriba``, about a second for rule sets with more
    substitutes) and kept for the 8 rule sets asked for last."""
    codec = _CODECS.get(rules)
    if codec is None:
        if len(_CODECS) >= _CODEC_LIMIT:
            del _CODECS[next(iter(_CODECS))]
        codec = _CODECS[rules] = ActionCodec(rules)
    return codec


def team_returns(deal: Deal, scale: float = REWARD_SCALE) -> list[float]:
    """By seat, its team's score less the mean of the other teams' (with two teams: less
    the other team's), divided by ``scale``: from :meth:`Deal.score <biriba.Deal.score>`,
    final once the deal is over, otherwise the table as if the deal ended now. The values
    add up to zero. ``scale`` is a finite number above 0 (:func:`check_scale`)."""
    if not isinstance(deal, Deal):
        raise TypeError(f"team_returns expects a Deal, got {type(deal).__name__}")
    scale = check_scale(scale)
    rules = deal.rules
    totals = [t.total for t in deal.score().teams]
    everyone = sum(totals)
    others = rules.teams - 1
    return [
        (totals[s % rules.teams] - (everyone - totals[s % rules.teams]) / others) / scale
        for s in range(rules.players)
    ]


# ====================================================================== observations
@attrs.frozen
class ObservationLayout:
    """Where each part of an observation lies: ``parts`` maps a name to ``(start,
    length)`` in the flat list, in order; see :func:`observation_layout`."""

    #: The rule set.
    rules: RuleSet
    #: Whether this is the compact form.
    compact: bool
    #: The meld slots of each team (0 in the compact form).
    slots: int
    #: Each part's name, first index and length, in order.
    parts: dict[str, tuple[int, int]]

    @property
    def size(self) -> int:
        """The length of the observation."""
        start, length = list(self.parts.values())[-1]
        return start + length

    @property
    def version(self) -> int:
        """:data:`ENCODING_VERSION`."""
        return ENCODING_VERSION

    def split(self, observation: Sequence[Any]) -> dict[str, Sequence[Any]]:
        """The observation cut into its named parts (slices of ``observation``, which
        must be as long as :attr:`size`)."""
        try:
            length = len(observation)
        except TypeError:
            raise TypeError(
                f"an observation is a sequence of numbers, got {type(observation).__name__}"
            ) from None
        if isinstance(observation, str | bytes) or length != self.size:
            raise BiribaError(
                f"this layout's observations hold {self.size} numbers, got "
                f"{'text' if isinstance(observation, str | bytes) else length}"
            )
        return {name: observation[s : s + n] for name, (s, n) in self.parts.items()}


#: Numbers per meld slot in the full form: 53 card counts, then the rank the sequence
#: starts at (0 for a group).
SLOT_WIDTH: Final = DISTINCT_CARDS + 1

_LAYOUTS: dict[tuple[RuleSet, bool], ObservationLayout] = {}


def observation_layout(rules: RuleSet = BIRIBA, *, compact: bool = False) -> ObservationLayout:
    """The layout of :func:`observe`'s list under ``rules``.

    Seats are counted from the viewer (0 the viewer, 1 the next to play, …) and teams
    from the viewer's team (0 its own, 1 the next). Card parts have 53 numbers indexed by
    :attr:`Card.index <biriba.Card.index>` (``7H`` is 2·13 + 6 = 32, ``JK`` 52):

    ==================  ============  ==========================================================
    part                length        numbers
    ==================  ============  ==========================================================
    ``hand``            53            the viewer's cards, counted
    ``pile``            53            the discard pile, counted (it is open, B4.1)
    ``pile_top``        53            1 at the pile's top card
    ``barred``          53            1 at the card B4.2 bars from the discard this turn
    ``known``           (n−1)·53      by other seat, the cards it is known to hold (taken
                                      with the pile, B4.2)
    ``hand_sizes``      n             by seat, the cards in hand
    ``stock``           1             the cards in the stock
    ``reserves_left``   1             the reserve packets not yet received
    ``reserve``         2·t           by team: received (0/1), received by the final discard
                                      and not yet activated (0/1) (B5.4)
    ``passes``          1             passes in a row (B4.4)
    ``phase``           2             1 at draw or at play (both 0 once the deal is over)
    ``to_move``         n             1 at the seat to move
    ``redraw``          1 + 53        only where the rule set has the redraw (Z2.2):
                                      whether it is still open, and 1 at the card it would
                                      put on the pile when the viewer drew it
    ``last_turn``       1             only where the morto becomes the stock (Z4.3): the
                                      deal's last turn
    ``bonus_suit``      4             only with kózi (V1): 1 at the bonus suit, once named
    ``opening``         1             only with an entry minimum (V3): the team to move had
                                      no meld when its turn began
    ``melds``           t·S·54        full form: by team and slot, the meld's 53 card counts
                                      and the rank its sequence starts at (0: a group or no
                                      meld)
    ``melded``          t·53          compact form, instead of ``melds``: by team, every
                                      melded card, counted
    ``meld_counts``     t·3           compact form: by team, its melds, its biribas, its
                                      clean biribas
    ==================  ============  ==========================================================

    ``n`` is the number of players, ``t`` of teams, ``S`` the codec's slots. In
    ``biriba``: 4,276 numbers in the full form, 500 in the compact one.
    """
    _check_compact(compact)  # (before the look-up: 1 would find True's layout)
    key = (rules, compact)
    found = _LAYOUTS.get(key)
    if found is not None:
        return found
    check_rules(rules)
    n, t = rules.players, rules.teams
    slots = 0 if compact else rules.pack_size // rules.min_meld
    sizes = [
        ("hand", DISTINCT_CARDS),
        ("pile", DISTINCT_CARDS),
        ("pile_top", DISTINCT_CARDS),
        ("barred", DISTINCT_CARDS),
        ("known", (n - 1) * DISTINCT_CARDS),
        ("hand_sizes", n),
        ("stock", 1),
        ("reserves_left", 1),
        ("reserve", 2 * t),
        ("passes", 1),
        ("phase", 2),
        ("to_move", n),
    ]
    if rules.first_turn_redraw:
        sizes.append(("redraw", 1 + DISTINCT_CARDS))
    if rules.stock_exhausted is StockExhausted.RESERVE_BECOMES_STOCK:
        sizes.append(("last_turn", 1))
    if rules.bonus_suit_bonus is not None:
        sizes.append(("bonus_suit", 4))
    if rules.entry_minimum:
        sizes.append(("opening", 1))
    if compact:
        sizes += [("melded", t * DISTINCT_CARDS), ("meld_counts", t * 3)]
    else:
        sizes += [("melds", t * slots * SLOT_WIDTH)]
    parts: dict[str, tuple[int, int]] = {}
    start = 0
    for name, length in sizes:
        parts[name] = (start, length)
        start += length
    layout = _LAYOUTS[key] = ObservationLayout(rules, compact, slots, parts)
    return layout


def observe(view: PlayerView, *, compact: bool = False) -> list[int]:
    """``view`` as a flat list of whole numbers laid out as :func:`observation_layout`
    says, from the viewing seat's point of view."""
    obs = [0] * observation_layout(_check_view(view).rules, compact=compact).size
    for index, value in observe_sparse(view, compact=compact).items():
        obs[index] = value
    return obs


def observe_array(view: PlayerView, *, compact: bool = False, out: Any = None) -> Any:
    """:func:`observe` as a one-dimensional numpy ``float32`` array, written straight
    from the numbers that are not zero (into ``out`` when given: a writable
    one-dimensional numpy array of the layout's size, of a floating-point type, else
    :class:`TypeError` or :class:`~biriba.BiribaError`, the array untouched). Needs numpy
    (``pip install numpy``)."""
    numpy = _numpy()
    found = observe_sparse(view, compact=compact)  # (which checks the view)
    size = observation_layout(view.rules, compact=compact).size
    if out is None:
        out = numpy.zeros(size, numpy.float32)
    else:
        _check_out(numpy, out, size)
        out.fill(0)
    out[list(found)] = list(found.values())
    return out


def _check_out(numpy: Any, out: Any, size: int) -> None:
    """Refuse an ``out`` that :func:`observe_array` cannot fill whole, before anything is
    written into it."""
    if not isinstance(out, numpy.ndarray):
        raise TypeError(f"out is a numpy array, got {type(out).__name__}")
    if not numpy.issubdtype(out.dtype, numpy.floating):
        raise TypeError(f"out holds floating-point numbers, got an array of {out.dtype}")
    if out.shape != (size,):
        raise BiribaError(f"out must have the shape ({size},) of the layout, got {out.shape}")
    if not out.flags.writeable:
        raise BiribaError("out is read-only")


def observe_sparse(view: PlayerView, *, compact: bool = False) -> dict[int, int]:
    """The numbers of :func:`observe` by their index, leaving out (most of) those that are
    zero: the cheap way to fill a tensor."""
    rules = _check_view(view).rules
    layout = observation_layout(rules, compact=compact)
    parts = layout.parts
    obs: dict[int, int] = {}
    get = obs.get
    for card in view.hand:
        obs[card.index] = get(card.index, 0) + 1
    pile = view.discard_pile
    at = parts["pile"][0]
    for card in pile:
        obs[at + card.index] = get(at + card.index, 0) + 1
    if pile:
        obs[parts["pile_top"][0] + pile[-1].index] = 1
    if view.pile_card is not None:
        obs[parts["barred"][0] + view.pile_card.index] = 1
    n = rules.players
    me = view.seat
    at = parts["known"][0]
    known = view.known
    for step in range(1, n):
        for card in known[(me + step) % n]:
            obs[at + card.index] = get(at + card.index, 0) + 1
        at += DISTINCT_CARDS
    at = parts["hand_sizes"][0]
    sizes = view.hand_sizes
    for step in range(n):
        obs[at + step] = sizes[(me + step) % n]
    obs[parts["stock"][0]] = view.stock_size
    obs[parts["reserves_left"][0]] = view.reserves_left
    t = rules.teams
    team = view.team
    at = parts["reserve"][0]
    for step in range(t):
        other = (team + step) % t
        obs[at] = 1 if view.reserve_received[other] else 0
        obs[at + 1] = 0 if view.unactivated[other] is None else 1
        at += 2
    obs[parts["passes"][0]] = view.passes
    if view.phase is Phase.DRAW:
        obs[parts["phase"][0]] = 1
    elif view.phase is Phase.PLAY:
        obs[parts["phase"][0] + 1] = 1
    if view.to_move is not None:
        obs[parts["to_move"][0] + (view.to_move - me) % n] = 1
    if "redraw" in parts:
        at = parts["redraw"][0]
        obs[at] = 1 if view.redraw_open else 0
        if view.redraw is not None:
            obs[at + 1 + view.redraw.index] = 1
    if "last_turn" in parts:
        obs[parts["last_turn"][0]] = 1 if view.last_turn else 0
    if "bonus_suit" in parts and view.bonus_suit is not None:
        obs[parts["bonus_suit"][0] + view.bonus_suit] = 1
    if "opening" in parts:
        obs[parts["opening"][0]] = 1 if view.opening else 0
    melds = view.melds
    if compact:
        at = parts["melded"][0]
        count_at = parts["meld_counts"][0]
        for step in range(t):
            mine = melds[(team + step) % t]
            for meld in mine:
                for card in meld.cards:
                    obs[at + card.index] = get(at + card.index, 0) + 1
                if meld.is_biriba:
                    obs[count_at + 1] = get(count_at + 1, 0) + 1
                    if not meld.substitute_positions:
                        obs[count_at + 2] = get(count_at + 2, 0) + 1
            obs[count_at] = len(mine)
            at += DISTINCT_CARDS
            count_at += 3
        return obs
    at = parts["melds"][0]
    team_width = layout.slots * SLOT_WIDTH
    for step in range(t):
        slot_at = at
        for meld in melds[(team + step) % t]:
            for card in meld.cards:
                obs[slot_at + card.index] = get(slot_at + card.index, 0) + 1
            if meld.kind is MeldKind.SEQUENCE:
                obs[slot_at + DISTINCT_CARDS] = meld.low or 0
            slot_at += SLOT_WIDTH
        at += team_width
    return obs


def _numpy() -> Any:
    """numpy, imported when first needed (it is no dependency of the library)."""
    try:
        import numpy
    except ImportError:
        raise ImportError("observe_array needs numpy: pip install numpy") from None
    return numpy
