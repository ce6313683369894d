"""Melds: groups and sequences, their validation, extension and enumeration (B3).

A :class:`Meld` is an immutable value: its cards in table order, its kind, where its
substitute stands, and the rule set it was validated under. Sequences are written low
to high, so the place of a substitute is the place it is written in::

    >>> str(Meld.parse("3H 4H JK 6H"))      # the joker stands for 5♥
    '3H 4H JK 6H'
    >>> Meld.parse("2H 3H 4H").is_clean      # a natural two at rank 2 (B3.6)
    True
    >>> Meld.parse("3H 4H 2H").substitute    # the two stands for 5♥
    Card.parse('2H')
    >>> str(Meld.parse("7S JK 7H"))          # a group: naturals by suit, then the substitute
    '7H 7S JK'
"""

from __future__ import annotations

import enum
import functools
import itertools
import operator
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Final

from biriba.cards import CARDS, Card, Suit, parse_cards
from biriba.display import picture
from biriba.errors import InvalidMeldError
from biriba.limits import check_text
from biriba.native import is_compiled
from biriba.rules import BIRIBA, RuleSet, check_rules, cited

__all__ = [
    "ONE_PLACE",
    "Meld",
    "MeldKind",
    "natural_index",
]


class MeldKind(enum.Enum):
    """The kinds of meld: groups and sequences (B3.1, Z3.2), and under Buraco the wild
    meld made only of substitutes (Z3.7)."""

    GROUP = "group"
    SEQUENCE = "sequence"
    #: Only substitutes, jokers and twos (Z3.7): a rule set's option, off in Biriba.
    WILD = "wild"


def natural_index(suit: int, rank: int) -> int:
    """The card index of the natural of ``suit`` at sequence rank ``rank`` (14 = high ace)."""
    return suit * 13 + (0 if rank == 14 else rank - 1)


#: The key that :meth:`Meld.unchecked` hands ``Meld.__init__`` in the compiled build: any
#: other call of ``Meld(...)`` is refused.
_UNCHECKED: Final = object()


class Meld:
    """A valid meld under a rule set: a group or a sequence (B3).

    Build one with :meth:`parse` or :meth:`from_cards`; both raise
    :class:`~biriba.InvalidMeldError` naming the rule that refuses the cards. Two melds
    are equal when they have the same kind, the same cards in the same table order, and
    the same rule set.
    """

    __slots__ = (
        "_addable",
        "_bonus",
        "_ext",
        "_hash",
        "_low",
        "_memo",
        "_points",
        "_subs",
        "_suit_or_rank",
        "cards",
        "kind",
        "rules",
    )

    kind: Final[MeldKind]
    cards: Final[tuple[Card, ...]]
    rules: Final[RuleSet]
    _suit_or_rank: int
    _low: int
    _subs: tuple[int, ...]
    _hash: int
    _ext: dict[int, Meld | tuple[Meld, ...]] | None
    _addable: Candidates | None
    _memo: dict[int, Any] | None
    _points: int
    _bonus: int

    def __init__(
        self,
        key: object = None,
        kind: MeldKind = MeldKind.GROUP,
        cards: tuple[Card, ...] = (),
        rules: RuleSet = BIRIBA,
        suit_or_rank: int = 0,
        low: int = 0,
        subs: tuple[int, ...] = (),
    ) -> None:
        """Refused with :class:`TypeError`: build a meld with :meth:`parse` or
        :meth:`from_cards`. (The parameters are those of :meth:`unchecked` behind a
        private ``key``: how the compiled build makes a meld, mypyc writing the slots of
        ``__init__`` directly.)"""
        if key is not _UNCHECKED:
            raise TypeError("build a Meld with Meld.parse(text) or Meld.from_cards(cards)")
        # Only the compiled build's unchecked() comes here: mypyc writes the slots of
        # __init__ directly, where pure Python would meet __setattr__ below.
        self.kind = kind
        self.cards = cards
        self.rules = rules
        self._suit_or_rank = suit_or_rank
        self._low = low
        self._subs = subs
        self._addable = None

    @classmethod
    def unchecked(
        cls,
        kind: MeldKind,
        cards: tuple[Card, ...],
        rules: RuleSet,
        suit_or_rank: int,
        low: int,
        subs: tuple[int, ...],
    ) -> Meld:
        """A meld from parts already known to be valid, without any check: for the meld
        enumerator and for extensions, which make melds by the thousand.

        ``suit_or_rank`` is the suit of a sequence or the rank of a group, ``low`` the rank
        the first card of a sequence stands at (0 for a group), ``subs`` the places of
        the substitutes in ``cards``. Anything else should use :meth:`from_cards`.
        """
        if _NATIVE_INIT:
            # Compiled, a direct call of the native constructor, which writes the slots
            # (the setters below are Python calls: 8 times the time, measured).
            return Meld(_UNCHECKED, kind, cards, rules, suit_or_rank, low, subs)
        # The slots' own setters cost about half of object.__setattr__.
        meld = _new(cls)
        _set_kind(meld, kind)
        _set_cards(meld, cards)
        _set_rules(meld, rules)
        _set_suit_or_rank(meld, suit_or_rank)
        _set_low(meld, low)
        _set_subs(meld, subs)
        # _hash, _ext and the _addable pair are filled in when first needed: most melds the
        # enumerator makes are never hashed nor extended. The pair starts blank, not unset:
        # every meld on the table is asked for it, and reading an unset slot raises an
        # AttributeError, which costs about fifteen times the setting.
        _set_addable(meld, None)
        return meld

    # ------------------------------------------------------------------ building
    @classmethod
    def parse(cls, text: str, rules: RuleSet = BIRIBA) -> Meld:
        """Read a meld written as cards in table order: ``Meld.parse("3H 4H JK 6H")``."""
        if not isinstance(text, str):
            raise TypeError(f"Meld.parse expects a str, got {type(text).__name__}")
        check_text(text, "meld")
        return cls.from_cards(parse_cards(text), rules)

    @classmethod
    def from_cards(cls, cards: Iterable[Card], rules: RuleSet = BIRIBA) -> Meld:
        """Validate ``cards`` (table order for a sequence, any order for a group)."""
        check_rules(rules)
        if isinstance(cards, str):
            raise TypeError("Meld.from_cards expects cards; use Meld.parse for text")
        # No more than the pack's cards are read (an endless iterable would never end).
        seq = tuple(itertools.islice(cards, rules.pack_size + 1))
        for card in seq:
            if not isinstance(card, Card):
                raise TypeError(f"Meld.from_cards expects cards, got {type(card).__name__}")
        if len(seq) > rules.pack_size:
            rule = cited(rules, "B1.2")
            raise _fail(seq, f"{rule}: more cards than the pack's {rules.pack_size}")
        return _validate(seq, rules)

    # ------------------------------------------------------------------ properties
    @property
    def substitute(self) -> Card | None:
        """The card acting as substitute, or ``None`` for a clean meld (B3.3)."""
        return self.cards[self._subs[0]] if self._subs else None

    @property
    def substitutes(self) -> tuple[Card, ...]:
        """Every card acting as a substitute (more than one only under V7 or Z3.4)."""
        return tuple(self.cards[i] for i in self._subs)

    @property
    def substitute_positions(self) -> tuple[int, ...]:
        """The places in :attr:`cards` of the substitutes."""
        return self._subs

    @property
    def is_clean(self) -> bool:
        """Whether the meld holds no substitute (B3.7)."""
        return not self._subs

    @property
    def is_biriba(self) -> bool:
        """Whether the meld is a biriba (canastra): 7 or more cards, at most one substitute
        (B3.7, Z3.4), or only substitutes (Z3.7)."""
        return len(self.cards) >= self.rules.biriba_size and (
            len(self._subs) <= 1 or self.rules.multi_substitute_biriba or self.kind is MeldKind.WILD
        )

    @property
    def suit(self) -> Suit | None:
        """The suit of a sequence; ``None`` for a group."""
        return Suit(self._suit_or_rank) if self.kind is MeldKind.SEQUENCE else None

    @property
    def rank(self) -> int | None:
        """The rank of a group (1 = ace .. 13 = king); ``None`` for a sequence."""
        return self._suit_or_rank if self.kind is MeldKind.GROUP else None

    @property
    def low(self) -> int | None:
        """The rank the first card of a sequence stands at (1 = low ace); ``None`` for a group."""
        return self._low if self.kind is MeldKind.SEQUENCE else None

    @property
    def high(self) -> int | None:
        """The rank the last card of a sequence stands at (14 = high ace); ``None`` for a group."""
        return self._low + len(self.cards) - 1 if self.kind is MeldKind.SEQUENCE else None

    @property
    def points(self) -> int:
        """The sum of the card values under the meld's rule set (B8.1, B8.2)."""
        try:
            return self._points
        except AttributeError:
            found = self.rules.cards_value(self.cards)
            object.__setattr__(self, "_points", found)
            return found

    @property
    def bonus(self) -> int:
        """The biriba bonus under the meld's rule set, 0 if the meld is no biriba (B8.3)."""
        try:
            return self._bonus
        except AttributeError:
            found = self._find_bonus()
            object.__setattr__(self, "_bonus", found)
            return found

    def bonus_with(self, bonus_suit: Suit | None) -> int:
        """The bonus in a deal whose bonus suit is ``bonus_suit`` (V1, kózi): :attr:`bonus`,
        plus the rule set's extra for a sequence biriba of that suit. ``deal.score()``
        counts this; a meld alone does not know the deal's bonus suit."""
        bonus = self.bonus
        rules = self.rules
        extra = rules.bonus_suit_bonus
        if (
            extra is None
            or not bonus
            or bonus_suit is None
            or self.kind is not MeldKind.SEQUENCE
            or self._suit_or_rank != bonus_suit
        ):
            return bonus
        if rules.full_sequence_bonus is not None and len(self.cards) >= rules.max_sequence:
            extra = rules.full_bonus_suit_bonus
        return bonus + extra[0 if self.is_clean else 1]

    def _find_bonus(self) -> int:
        if not self.is_biriba:
            return 0
        dirty = 0 if self.is_clean else 1
        rules = self.rules
        if self.kind is MeldKind.WILD:
            return rules.wild_meld_bonus  # Z3.7, Z5.1: neither clean nor dirty
        if self.kind is MeldKind.GROUP:
            return rules.group_bonus[dirty]
        if rules.full_sequence_bonus is not None and len(self.cards) >= rules.max_sequence:
            return rules.full_sequence_bonus[dirty]
        return rules.sequence_bonus[dirty]

    # ------------------------------------------------------------------ extension
    def extensions(self, card: Card) -> tuple[Meld, ...]:
        """Every distinct meld that adding ``card`` to this one can give (B3.8 to B3.12).

        Empty when the card cannot be added. More than one result means the player has a
        choice (where a moved substitute goes, where an added substitute goes, an ace at
        either end, a two as natural or as substitute).
        """
        if not isinstance(card, Card):
            raise TypeError(f"Meld.extensions expects a Card, got {type(card).__name__}")
        return self.extensions_of_index(card.index)

    def extensions_of_index(self, index: int) -> tuple[Meld, ...]:
        """:meth:`extensions` of the card whose :attr:`Card.index <biriba.Card.index>` is
        ``index``, unchecked: for move generators, which ask it of every card in hand."""
        try:
            known = self._ext
        except AttributeError:  # asked before the candidates, which blank it: blank it so
            self._find_candidates()
            known = None
        if known is None:
            known = {}
            object.__setattr__(self, "_ext", known)
        found = known.get(index)
        if found is None:
            results = _extensions(self, CARDS[index])[0]
            # One result, most of them, is kept as itself, not in a tuple of its own: a
            # tuple fewer for the garbage collector to look at for each card and meld.
            known[index] = results[0] if len(results) == 1 else results
            return results
        if isinstance(found, tuple):
            return found
        return (found,)

    def extension_refusal(self, card: Card) -> tuple[str, str] | None:
        """Why ``card`` cannot be added to this meld, as ``(rule id, reason)``, or ``None``
        if it can (:meth:`extensions` is then not empty). Worked out by the same code as
        :meth:`extensions`, so the two never disagree."""
        if not isinstance(card, Card):
            raise TypeError(f"Meld.extension_refusal expects a Card, got {type(card).__name__}")
        return _extensions(self, card)[1]

    def move_memo(self) -> dict[int, Any]:
        """A dict, made on first use and kept with the meld, in which a move generator may
        keep what it has worked out about the meld (the engine keeps there the moves
        that add each card to it, by its place on the table). The meld never reads it:
        it plays no part in equality, hashing or pickling."""
        try:
            memo = self._memo
        except AttributeError:  # asked before the candidates, which blank it: blank it so
            self._find_candidates()
            memo = None
        if memo is None:
            memo = {}
            object.__setattr__(self, "_memo", memo)
        return memo

    def candidate_indices(self) -> tuple[int, ...]:
        """The :attr:`Card.index` of every card that may extend the meld: a superset of
        those with an extension, cheap to compute (the naturals next to its ends or in a
        substitute's place, and the substitutes). :meth:`extensions` says which fit."""
        both = self._addable
        if both is None:
            both = self._find_candidates()
        return both[0]

    def natural_candidate_indices(self) -> tuple[int, ...]:
        """:meth:`candidate_indices` without the indices of the rule set's substitutes
        (:attr:`RuleSet.wild_indices <biriba.RuleSet.wild_indices>`, B1.3, Z1.2), in the
        same order: a superset, as :meth:`candidate_indices` is, of the cards that a hand
        holding none of those can add. Where twos are substitutes, no two is listed, even
        one that would stand natural at rank 2 of its suit (B3.6): a hand without
        substitutes holds no two."""
        both = self._addable
        if both is None:
            both = self._find_candidates()
        return both[1]

    def _find_candidates(self) -> Candidates:
        """Work out and keep :meth:`candidate_indices` and
        :meth:`natural_candidate_indices`, both at once, as one pair shared by the melds
        of one shape (in one slot: a slot more makes every meld 8 bytes larger)."""
        both = _candidates(
            self.rules, self.kind, self._suit_or_rank, self._low, len(self.cards), self._subs
        )
        object.__setattr__(self, "_addable", both)
        # A meld asked for its candidates is on the table, and will be asked for the
        # moves adding to it and for its extensions next: both are blanked now, so that
        # reading them raises no AttributeError (each raised cost more than making them).
        # This runs once per meld, before either is filled: asked first, they call it.
        object.__setattr__(self, "_ext", None)
        object.__setattr__(self, "_memo", None)
        return both

    # ------------------------------------------------------------------ dunder
    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.cards)

    def __repr__(self) -> str:
        return f"Meld.parse({str(self)!r})"

    def _repr_svg_(self) -> str | None:
        """The picture a notebook shows (:mod:`biriba.svg`)."""
        return picture(self)

    def __hash__(self) -> int:
        try:
            return self._hash
        except AttributeError:
            # The cards alone (equal melds have equal cards): a move laying or making a
            # meld compares by its cards whatever its rule set, and hashes by this.
            value = hash(self.cards)
            object.__setattr__(self, "_hash", value)
            return value

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if isinstance(other, Meld):
            return (
                self.cards == other.cards
                and self.kind is other.kind
                and (self.rules is other.rules or self.rules == other.rules)
            )
        return NotImplemented

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Meld is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Meld is immutable")

    def __reduce__(self) -> tuple[object, tuple[str, RuleSet]]:
        return (_unpickle, (str(self), self.rules))

    def __copy__(self) -> Meld:
        return self

    def __deepcopy__(self, memo: object) -> Meld:
        return self


#: ``(i,)`` for each place ``i`` a substitute can hold: one tuple object each, shared by
#: every meld with one substitute there (fewer objects for the garbage collector). Typed
#: as tuples of any length: compiled, a ``tuple[int]`` is unpacked when read and a new
#: tuple made wherever it is kept, so that nothing would be shared.
ONE_PLACE: Final[tuple[tuple[int, ...], ...]] = tuple((i,) for i in range(16))


def _unpickle(text: str, rules: RuleSet) -> Meld:
    return Meld.parse(text, rules)


#: How :meth:`Meld.unchecked` makes a meld: compiled, by the native constructor
#: (``Meld.__init__`` given :data:`_UNCHECKED`); in pure Python, blank from
#: ``object.__new__``, then filled by the slots' setters.
_NATIVE_INIT: Final = is_compiled(_unpickle)
_new: Final = object.__new__
_set_kind: Final = vars(Meld)["kind"].__set__
_set_cards: Final = vars(Meld)["cards"].__set__
_set_rules: Final = vars(Meld)["rules"].__set__
_set_suit_or_rank: Final = vars(Meld)["_suit_or_rank"].__set__
_set_low: Final = vars(Meld)["_low"].__set__
_set_subs: Final = vars(Meld)["_subs"].__set__
_set_addable: Final = vars(Meld)["_addable"].__set__


# ---------------------------------------------------------------------- validation
def _fail(cards: Sequence[Card], reason: str) -> InvalidMeldError:
    """The error for ``cards``; ``reason`` starts with the id of the rule it enforces."""
    text = " ".join(str(c) for c in cards[:20]) + (" ..." if len(cards) > 20 else "")
    return InvalidMeldError(f"{text!r} is not a meld: {reason}", rule=reason.split(":", 1)[0])


def _substitutes_problem(subs: int, naturals: int, rules: RuleSet) -> tuple[str, str] | None:
    """Why a meld may not hold ``subs`` substitutes beside ``naturals`` natural cards, as
    ``(rule id, reason)``, or ``None`` if it may: at most one (B3.3), or the rule set's
    limit (V7; none in Z3.4), and never more than the naturals (B3.3; Z3.4 for every
    Buraco rule set, V7 for a Biriba one allowing more than one).

    The rule cited is that of the rule set's game and of its option: Biriba's one
    substitute is B3.3, any other limit is the option of V7 (under Buraco too, whose
    own rule Z3.4 has none); more substitutes than naturals is Z3.4 under Buraco,
    whatever the limit, and V7 under a Biriba rule set that lifts B3.3's limit."""
    limit = rules.max_substitutes
    # (The game is read only for a refusal: the move generator asks this of every
    # extension, and most are allowed.)
    if limit is not None and subs > limit:
        if limit == 1 and rules.family != "buraco":
            return "B3.3", "a meld holds at most one substitute"
        if limit == 1:
            return "V7", "a meld holds at most one substitute under this rule set"
        return "V7", f"a meld holds at most {limit} substitutes under this rule set"
    if subs > naturals:
        rule = "Z3.4" if rules.family == "buraco" else "B3.3" if limit == 1 else "V7"
        return rule, "a meld never holds more substitutes than natural cards"
    return None


def _check_substitutes(cards: Sequence[Card], subs: int, naturals: int, rules: RuleSet) -> None:
    problem = _substitutes_problem(subs, naturals, rules)
    if problem is not None:
        raise _fail(cards, f"{problem[0]}: {problem[1]}")


#: What B3.1 and Z3.2 say of a meld's cards.
_ONE_SUIT_OR_RANK: Final = "a sequence is of one suit, and a group of one rank"


def _validate(cards: tuple[Card, ...], rules: RuleSet) -> Meld:
    n = len(cards)
    if n < rules.min_meld:
        raise _fail(cards, f"{cited(rules, 'B3.1')}: a meld has at least {rules.min_meld} cards")
    _check_copies(cards, rules)
    fixed = [c for c in cards if not rules.is_wild(c)]
    if not fixed:
        if rules.wild_melds:  # Z3.7
            ordered = tuple(sorted(cards, key=_group_key))
            return Meld.unchecked(MeldKind.WILD, ordered, rules, 0, 0, tuple(range(n)))
        raise _fail(
            cards,
            "B3.5: groups of twos and of jokers do not exist, and a sequence needs natural cards",
        )
    ranks = {c.rank for c in fixed}
    if len(ranks) == 1 and len(fixed) > 1:
        return _validate_group(cards, fixed, rules)
    if len(fixed) == 1 and rules.groups:
        # One natural card: only a natural two can make this a sequence (B3.6); report
        # the sequence's problem when the cards hold a two of that suit.
        try:
            return _validate_sequence(cards, fixed, rules)
        except InvalidMeldError as seq_error:
            if any(c.rank == 2 and c.suit == fixed[0].suit for c in cards):
                raise seq_error from None
            return _validate_group(cards, fixed, rules)
    return _validate_sequence(cards, fixed, rules)


def _check_copies(cards: tuple[Card, ...], rules: RuleSet) -> None:
    seen: dict[Card, int] = {}
    for card in cards:
        seen[card] = seen.get(card, 0) + 1
    for card, count in seen.items():
        limit = rules.copies(card)
        if count > limit:
            raise _fail(cards, f"{cited(rules, 'B1.2')}: the pack holds only {limit} of {card}")


def _validate_group(cards: tuple[Card, ...], fixed: list[Card], rules: RuleSet) -> Meld:
    if not rules.groups:
        raise _fail(cards, "V2: this rule set allows sequences only, not groups")
    rank = fixed[0].rank
    assert rank is not None
    subs = len(cards) - len(fixed)
    _check_substitutes(cards, subs, len(fixed), rules)
    ordered = tuple(sorted(fixed, key=_group_key)) + tuple(
        sorted((c for c in cards if rules.is_wild(c)), key=_group_key)
    )
    return Meld.unchecked(
        MeldKind.GROUP, ordered, rules, int(rank), 0, tuple(range(len(fixed), len(cards)))
    )


#: The order of a group's cards, naturals and substitutes alike: by
#: :attr:`Card.index <biriba.Card.index>` (naturals by suit, C D H S; among substitutes the
#: twos by suit, then the joker). An attribute getter, which sorts without a Python call
#: per card.
_group_key: Final = operator.attrgetter("index")


def _inserted(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    """``cards``, in the order of their indices (a group's naturals, its substitutes, a
    meld of substitutes), with ``card`` in its place among them, after its copies: what
    sorting them all by :data:`_group_key` gives, without a call of the key per card."""
    index = card.index
    i = len(cards)
    while i and cards[i - 1].index > index:
        i -= 1
    return (*cards[:i], card, *cards[i:])


def _validate_sequence(cards: tuple[Card, ...], fixed: list[Card], rules: RuleSet) -> Meld:
    n = len(cards)
    suits = {c.suit for c in fixed}
    if len(suits) > 1:
        raise _fail(cards, f"{cited(rules, 'B3.1')}: {_ONE_SUIT_OR_RANK}")
    suit = fixed[0].suit
    assert suit is not None
    if n > rules.max_sequence:
        raise _fail(cards, f"B3.2: a sequence has at most {rules.max_sequence} cards")
    first_pos = next(i for i, c in enumerate(cards) if not rules.is_wild(c))
    first_rank = cards[first_pos].rank
    assert first_rank is not None
    candidates = [first_rank - first_pos]
    if first_rank == 1:
        candidates = []
        if rules.ace_low:
            candidates.append(1 - first_pos)
        if rules.ace_high:
            candidates.append(14 - first_pos)
    reason = ""
    for low in candidates:
        reason = _sequence_problem(cards, low, int(suit), rules)
        if not reason:
            subs = tuple(
                i for i, c in enumerate(cards) if _acts_as_substitute(c, low + i, int(suit), rules)
            )
            _check_substitutes(cards, len(subs), n - len(subs), rules)
            return Meld.unchecked(MeldKind.SEQUENCE, cards, rules, int(suit), low, subs)
    raise _fail(cards, reason)


def _acts_as_substitute(card: Card, rank: int, suit: int, rules: RuleSet) -> bool:
    """Whether ``card``, standing at sequence rank ``rank`` of ``suit``, is a substitute:
    a wild card, unless it is the two of the suit at rank 2 (B3.6; V7 twos always wild)."""
    if not rules.wild[card.index]:
        return False
    if card.rank is None:
        return True
    return rules.twos_always_wild or rank != 2 or card.suit != suit


def _sequence_problem(cards: tuple[Card, ...], low: int, suit: int, rules: RuleSet) -> str:
    """Why ``cards`` is no sequence starting at rank ``low``, or ``""`` if it is one.

    The order of the cards is checked first, rank by rank as if the ranks wrapped round
    (K, A, 2): cards out of order are refused by B3.1 (``KS QS JS`` written high to low),
    and only cards in order that run past an ace by B3.2 (``KH AH 2H``, ``JK AH 2H``)."""
    for i, card in enumerate(cards):
        if rules.is_wild(card):
            continue
        if card.suit != suit:
            return f"{cited(rules, 'B3.1')}: {_ONE_SUIT_OR_RANK}"
        # The rank at place i, wrapped round into 1..13 (14, a high ace, is 1; 15 is 2,
        # past a high ace; 0 is 13, below a low ace).
        if card.rank != (low + i - 1) % 13 + 1:
            return (
                f"{cited(rules, 'B3.1')}: the cards of a sequence are consecutive ranks "
                f"written low to high; "
                f"{card} cannot stand at position {i + 1}"
            )
    high = low + len(cards) - 1
    if (
        low < 1
        or (low < 2 and not rules.ace_low)
        or high > 14
        or (high > 13 and not rules.ace_high)
    ):
        return (
            "B3.2: an ace closes its end: nothing stands below a low ace or above a high "
            "ace, and there is no K-A-2 wrap"
        )
    return ""


# ---------------------------------------------------------------------- extension
def clear_tables() -> None:
    """Forget the candidates worked out for each shape of meld (for measurements of a
    first call in a fresh process, with :func:`biriba.enumeration.clear_tables`)."""
    _RECENT_CANDIDATES[0] = (None, None)
    _CANDIDATE_TABLES.clear()


#: A meld's shape, as :func:`_candidates` keys it: its kind's code (0 a group, 1 a
#: sequence, 2 substitutes only), its suit or rank, its low rank, its number of cards and
#: its substitutes' places.
Shape = tuple[int, int, int, int, tuple[int, ...]]

#: The candidates of a shape, a pair: :meth:`Meld.candidate_indices` and
#: :meth:`Meld.natural_candidate_indices`. (Typed as a tuple of any length: compiled, a
#: pair's type is unpacked when read and a new pair made for each meld that keeps it.)
Candidates = tuple[tuple[int, ...], ...]

#: The pairs of :func:`_candidates` worked out, by rule set, then by shape of meld (at
#: most :data:`_CANDIDATES_LIMIT` of each rule set, :data:`_CANDIDATE_RULES_LIMIT` rule
#: sets).
_CANDIDATE_TABLES: Final[dict[RuleSet, dict[Shape, Candidates]]] = {}

#: The rule set :func:`_candidates` was last asked of and its table, as one pair in a
#: list of one, found by identity (a RuleSet's hash is a Python function; the pair is
#: replaced whole, so that threads never pair one's rules with another's table).
_RECENT_CANDIDATES: Final[list[tuple[RuleSet | None, dict[Shape, Candidates] | None]]] = [
    (None, None)
]

#: How many shapes a rule set's table keeps before it is emptied and starts again (the
#: ``lru_cache`` it replaces kept 4,096 for all rule sets together).
_CANDIDATES_LIMIT: Final = 4096

#: How many rule sets' tables are kept: one more empties them all (a program uses one or
#: two rule sets).
_CANDIDATE_RULES_LIMIT: Final = 16


def _candidates(
    rules: RuleSet, kind: MeldKind, suit_or_rank: int, low: int, n: int, places: tuple[int, ...]
) -> Candidates:
    """:meth:`Meld.candidate_indices` and :meth:`Meld.natural_candidate_indices` of a
    meld of ``kind`` and ``n`` cards, its substitutes at ``places``: they depend on
    nothing else, so melds of the same shape share them, kept in a table of the rule
    set's under a key of numbers (an ``lru_cache`` keyed by the rule set and the kind
    would hash both through Python functions at every call)."""
    recent_rules, table = _RECENT_CANDIDATES[0]
    if recent_rules is not rules or table is None:
        table = _CANDIDATE_TABLES.get(rules)
        if table is None:
            if len(_CANDIDATE_TABLES) >= _CANDIDATE_RULES_LIMIT:
                _CANDIDATE_TABLES.clear()
            table = _CANDIDATE_TABLES[rules] = {}
        _RECENT_CANDIDATES[0] = (rules, table)
    code = 0 if kind is MeldKind.GROUP else 1 if kind is MeldKind.SEQUENCE else 2
    key = (code, suit_or_rank, low, n, places)
    found = table.get(key)
    if found is None:
        both = _all_candidates(rules, kind, suit_or_rank, low, n, places)
        wild = rules.wild
        found = (both, tuple([i for i in both if not wild[i]]))
        if len(table) >= _CANDIDATES_LIMIT:
            table.clear()
        table[key] = found
    return found


def _all_candidates(
    rules: RuleSet, kind: MeldKind, suit_or_rank: int, low: int, n: int, places: tuple[int, ...]
) -> tuple[int, ...]:
    """A superset of the cards that can extend a meld of ``kind`` and ``n`` cards, its
    substitutes at ``places``: its naturals' neighbours, the naturals its substitutes
    stand for, and the substitutes."""
    if kind is MeldKind.WILD:
        return rules.wild_indices  # Z3.7: only substitutes
    subs = len(places)
    # A substitute only while the meld may hold one more (B3.3, B3.10, Z3.4, V7). One
    # added to a sequence stays one: its own suit's two, natural at rank 2, is among the
    # naturals below when rank 2 is an end or a substitute's place.
    wild: tuple[int, ...] = ()
    if _substitutes_problem(subs + 1, n - subs, rules) is None:
        wild = rules.wild_indices
    if kind is MeldKind.GROUP:
        return tuple(sorted({s * 13 + suit_or_rank - 1 for s in range(4)} | set(wild)))
    high = low + n - 1
    if rules.high_ace_closes_meld and high == 14:
        return ()  # Z3.3: closed to every addition
    ranks = {low - 1, high + 1} | {low + p for p in places}
    naturals = {natural_index(suit_or_rank, r) for r in ranks if 1 <= r <= 14}
    return tuple(sorted(naturals | set(wild)))


def group_places(start: int, stop: int) -> tuple[int, ...]:
    """``tuple(range(start, stop))``, one object for each: the substitutes' places of a
    group (or of a meld of substitutes only, from 0), shared by every meld of that shape.

    ``start`` is the number of naturals of a group and ``stop`` its size: read from a
    table made once for groups of fewer than :data:`_SMALL_GROUP` cards (every group of
    the presets; compiled, a function kept by ``functools.lru_cache`` is a generic call
    of the interpreter's), kept by ``lru_cache`` for larger ones.
    """
    if 0 <= start <= stop < _SMALL_GROUP:
        return _GROUP_PLACES[start][stop]
    return _large_group_places(start, stop)


@functools.lru_cache(maxsize=256)
def _large_group_places(start: int, stop: int) -> tuple[int, ...]:
    """:func:`group_places` of a group of :data:`_SMALL_GROUP` cards or more (256 kept)."""
    return tuple(range(start, stop))


#: The groups whose substitutes' places :func:`group_places` reads from a table: fewer
#: cards than this (larger than any group of the presets).
_SMALL_GROUP: Final = 24

#: :func:`group_places` of groups of fewer than :data:`_SMALL_GROUP` cards, by ``start``
#: then ``stop`` (empty where ``stop`` is below ``start``).
_GROUP_PLACES: Final = tuple(
    tuple(tuple(range(start, stop)) for stop in range(_SMALL_GROUP))
    for start in range(_SMALL_GROUP)
)


#: The ends a card may go to, ``at_low`` first (:func:`_grown`): both, and for a natural
#: card those whose rank it has, by (fits the low end, fits the high end). (Typed as a
#: tuple of any length, as :data:`ONE_PLACE` is, so that the compiled build reads the one
#: object instead of making a new pair at each use.)
_BOTH_ENDS: Final[tuple[bool, ...]] = (True, False)
_ENDS: Final[dict[tuple[bool, bool], tuple[bool, ...]]] = {
    (True, True): _BOTH_ENDS,
    (True, False): (True,),
    (False, True): (False,),
    (False, False): (),
}


#: Why an addition fails, worst first: the reason :meth:`Meld.extension_refusal` gives
#: when every place the card could go fails (a substitute count says more than "no
#: room", which says more than "does not fit").
_SUBSTITUTES, _ROOM, _FIT = 0, 1, 2


def sequence_suit(meld: Meld) -> int:
    """The suit of ``meld`` as an int (0 clubs to 3 spades) if it is a sequence, else -1:
    :attr:`Meld.suit` without making a :class:`~biriba.Suit`, for the look-ahead's
    bound (V3)."""
    return meld._suit_or_rank if meld.kind is MeldKind.SEQUENCE else -1


def under_rules(meld: Meld, rules: RuleSet) -> Meld:
    """``meld``'s cards in the same places, as a meld of ``rules``, unchecked: for the
    look-ahead (V3, Z3.2), which lists melds under a rule set that differs from
    ``rules`` only in how long a new meld may be, and plays them under ``rules``."""
    return Meld.unchecked(meld.kind, meld.cards, rules, meld._suit_or_rank, meld._low, meld._subs)


def fits_in_one_place(meld: Meld, index: int) -> bool | None:
    """Whether the card of index ``index`` can be added to ``meld`` when the meld takes
    a card in one place at most (a group, a meld of substitutes), found without making
    the resulting meld: a move generator lists such an addition in its short form and
    leaves the meld to be made if the move is played. ``None`` for a sequence, where
    only :meth:`Meld.extensions` tells (a card may have two places there, B3.12)."""
    if meld.kind is MeldKind.SEQUENCE:
        return None
    return _refusal_before_making(meld, CARDS[index]) is None


def _refusal_before_making(meld: Meld, card: Card) -> tuple[str, str] | None:
    """The refusals of adding ``card`` to ``meld`` that need no resulting meld: the
    copies in the pack (B1.2) for every meld, and every refusal for a meld of
    substitutes (Z3.7) and for a group (B3.1, B3.10, Z3.4, V7). ``None`` if there is
    none of those."""
    rules = meld.rules
    cards = meld.cards
    same = cards.count(card)
    if same and same >= rules.copies(card):
        return cited(rules, "B1.2"), f"the pack holds only {rules.copies(card)} of {card}"
    kind = meld.kind
    if kind is MeldKind.SEQUENCE:
        return None
    wild = rules.wild[card.index]
    if kind is MeldKind.WILD:
        if wild:
            return None
        return "Z3.7", f"only substitutes are added to a meld of substitutes ({meld})"
    if wild:
        n_subs = len(meld._subs)
        return _substitute_limit(meld, n_subs + 1, len(cards) - n_subs)
    if card.rank == meld._suit_or_rank:
        return None
    return "B3.12", f"{card} does not fit {meld}: a group is of one rank ({cited(rules, 'B3.1')})"


def _extensions(meld: Meld, card: Card) -> tuple[tuple[Meld, ...], tuple[str, str] | None]:
    """Every meld adding ``card`` to ``meld`` gives, and, when there is none, the rule
    that refuses it and why: ``(results, None)`` or ``((), (rule id, reason))``."""
    refused = _refusal_before_making(meld, card)
    if refused is not None:
        return (), refused
    rules = meld.rules
    cards = meld.cards
    n_subs = len(meld._subs)
    wild = rules.wild[card.index]
    if meld.kind is MeldKind.WILD:
        new_cards = _inserted(cards, card)
        places = group_places(0, len(new_cards))
        return (Meld.unchecked(MeldKind.WILD, new_cards, rules, 0, 0, places),), None
    if meld.kind is MeldKind.GROUP:
        naturals = cards[: len(cards) - n_subs]
        if wild:
            new_subs = _inserted(cards[len(naturals) :], card)
            new_cards = naturals + new_subs
            n_nat = len(naturals)
        else:  # a natural of the group's rank (_refusal_before_making)
            new_cards = _inserted(naturals, card) + cards[len(naturals) :]
            n_nat = len(naturals) + 1
        places = group_places(n_nat, len(new_cards))
        return (
            Meld.unchecked(MeldKind.GROUP, new_cards, rules, meld._suit_or_rank, 0, places),
        ), None
    if rules.high_ace_closes_meld and meld._low + len(cards) - 1 == 14:
        return (), ("Z3.3", f"{meld} ends with an ace and is closed to every addition")
    low = meld._low
    suit = meld._suit_or_rank
    # The card at either end, or (B3.9) in place of the substitute whose rank it is, the
    # substitute moving to one end.
    places_to_try: list[int | None] = [None]
    for pos in meld._subs:
        rank = low + pos
        if card.index == natural_index(suit, rank) and not _acts_as_substitute(
            card, rank, suit, rules
        ):
            places_to_try.append(pos)
    # A natural card goes only to an end whose rank it has: the other end is no fit
    # (_grown would say _FIT, which changes no reason given below).
    ends: tuple[bool, ...] = _BOTH_ENDS
    if not wild:
        end_low = low - 1
        end_high = low + len(cards)
        fits_low = end_low >= 1 and card.index == natural_index(suit, end_low)
        fits_high = end_high <= 14 and card.index == natural_index(suit, end_high)
        ends = _ENDS[fits_low, fits_high]
    found: list[Meld] = []
    worst = _FIT
    for replace in places_to_try:
        for at_low in ends if replace is None else _BOTH_ENDS:
            result = _grown(meld, card, at_low, replace)
            if isinstance(result, Meld):
                # The card at one end or the other gives different melds (a sequence
                # holds naturals of different ranks); a substitute moved may give one
                # found already.
                if replace is None or result not in found:
                    found.append(result)
            else:
                worst = min(worst, result)
    if found:
        return tuple(found), None
    if worst == _SUBSTITUTES:
        refused = _substitute_limit(meld, n_subs + 1, len(cards) + 1 - n_subs - 1)
        if refused is None:  # pragma: no cover - _grown reported a count over the limit
            refused = ("B3.3", f"{card} would bring {meld} too many substitutes")
        return (), refused
    if worst == _ROOM:
        if len(places_to_try) > 1:
            return (), (
                "B3.9",
                f"{card} would take the substitute's place in {meld}, and neither end can "
                f"take the substitute (B3.2)",
            )
        return (), (
            "B3.2",
            f"{meld} has no room for {card}: at most {rules.max_sequence} cards, nothing "
            f"below a low ace or above a high ace",
        )
    return (), ("B3.12", f"{card} does not fit at either end of {meld}")


def _substitute_limit(meld: Meld, subs: int, naturals: int) -> tuple[str, str] | None:
    """Why adding a card may not leave ``meld`` with ``subs`` substitutes beside
    ``naturals`` naturals (:func:`_substitutes_problem`; B3.10 for the one-substitute
    limit), or ``None`` if it may."""
    problem = _substitutes_problem(subs, naturals, meld.rules)
    if problem is None:
        return None
    rule, why = problem
    held = len(meld._subs)
    holds = "no substitute" if not held else "a substitute" if held == 1 else f"{held} substitutes"
    return ("B3.10" if rule == "B3.3" else rule), f"{meld} holds {holds}: {why}"


def _grown(meld: Meld, card: Card, at_low: bool, replace: int | None) -> Meld | int:
    """``meld`` with one more card, or why not (:data:`_SUBSTITUTES`, :data:`_ROOM`,
    :data:`_FIT`).

    Without ``replace``, ``card`` goes to the low or the high end. With it, ``card`` takes
    the place of the substitute at ``replace`` and that substitute goes to the end. Every
    other card keeps its rank and its role, so only the end needs checking.
    """
    rules = meld.rules
    cards = meld.cards
    n = len(cards)
    suit = meld._suit_or_rank
    new_low = meld._low - 1 if at_low else meld._low
    if replace is None:
        incoming, rest = card, cards
    else:
        incoming, rest = cards[replace], (*cards[:replace], card, *cards[replace + 1 :])
    # Checked in the order of the reasons' weight: whether the card fits the end at all,
    # then the substitutes' count, then the room.
    end_rank = new_low if at_low else new_low + n
    if (
        1 <= end_rank <= 14
        and incoming.index == natural_index(suit, end_rank)
        and not _acts_as_substitute(incoming, end_rank, suit, rules)
    ):
        incoming_sub = False
    elif rules.wild[incoming.index]:
        incoming_sub = True
    else:
        return _FIT  # B3.12: the natural of that end's rank, or a substitute
    # The substitutes' places after the move, in order: the others keep their ranks
    # (one place further on when the card goes below), the incoming one at the end.
    held = meld._subs
    if replace is not None:
        shift = 1 if at_low else 0
        subs = [p + shift for p in held if p != replace]
    elif not held:
        subs = []
    elif at_low:
        subs = [p + 1 for p in held]
    else:
        subs = list(held)
    if incoming_sub:
        if at_low:
            subs.insert(0, 0)
        else:
            subs.append(n)
    if subs and _substitutes_problem(len(subs), n + 1 - len(subs), rules) is not None:
        return _SUBSTITUTES  # B3.3, B3.10, Z3.4, V7
    if n + 1 > rules.max_sequence:
        return _ROOM  # B3.2
    if new_low < (1 if rules.ace_low else 2) or new_low + n > (14 if rules.ace_high else 13):
        return _ROOM  # B3.2: nothing below a low ace or above a high ace
    new_cards = (incoming, *rest) if at_low else (*rest, incoming)
    places = ONE_PLACE[subs[0]] if len(subs) == 1 else tuple(subs)
    return Meld.unchecked(MeldKind.SEQUENCE, new_cards, rules, suit, new_low, places)
