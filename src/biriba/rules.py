"""Rule sets: every parameter of the rules, as one immutable value.

A :class:`RuleSet` holds every number and switch the rules need, so a variant is a
different value, never a subclass. The presets :data:`~biriba.BIRIBA` (the rules of part B, the
default everywhere) and :data:`~biriba.BURACO` (part Z) are looked up by name with
:meth:`~biriba.RuleSet.named`. No rule number is written anywhere else in the library.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from operator import mul
from typing import Final, SupportsIndex, TypedDict, Unpack

import attrs

from biriba.cards import (
    CARDS,
    DEFAULT_CARD_VALUES,
    DEFAULT_JOKER_VALUE,
    JOKER,
    JOKER_INDEX,
    Card,
    Counts,
)
from biriba.errors import BiribaError
from biriba.limits import excerpt, is_int, is_text, whole_number

__all__ = [
    "BIRIBA",
    "BIRIBA_KOZI",
    "BURACO",
    "FIELD_RULES",
    "PRESET_DESCRIPTIONS",
    "RULE_IDS",
    "PileRestriction",
    "RuleSet",
    "RuleSetChanges",
    "StockExhausted",
    "differing_fields",
    "field_rule",
    "full_pack",
    "rules_from_data",
    "rules_to_data",
]


def _ids(part: str, sections: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(
        f"{part}{s}.{i}" for s, count in enumerate(sections, 1) for i in range(1, count + 1)
    )


#: The id of every rule of the rules reference: part B (Biriba), part Z (Buraco) and
#: part V (the variant options). Errors name one of these as ``err.rule``. A frozenset,
#: for membership: its order is Python's hash order, which changes from process to
#: process (sort it to list the ids).
RULE_IDS: Final = frozenset(
    _ids("B", (4, 4, 12, 5, 5, 2, 1, 8, 2))
    + _ids("Z", (3, 2, 7, 5, 2))
    + tuple(f"V{i}" for i in range(1, 8))
)


#: The values of :attr:`RuleSet.family`.
FAMILIES: Final = ("biriba", "buraco")
#: Each family's :attr:`RuleSet.words`.
_WORDS: Final = {
    "biriba": ("reserve", "biriba", "closed"),
    "buraco": ("morto", "canastra", "went out"),
}


class StockExhausted(enum.Enum):
    """What happens when the stock runs out."""

    #: B4.4: take the discard pile or pass; ``pass_limit`` passes in a row end the deal.
    TAKE_OR_PASS = "take-or-pass"
    #: Z4.3: a reserve not yet taken becomes the stock; without one the deal ends after
    #: the next player's chance to take the pile.
    RESERVE_BECOMES_STOCK = "reserve-becomes-stock"


class PileRestriction(enum.Enum):
    """The restriction on a discard pile of exactly one card."""

    #: B4.2: whoever takes it may not discard that card nor an identical one that turn.
    NO_DISCARD_BACK = "no-discard-back"
    #: Z4.4: a player holding a single card may not take it.
    NO_TAKE_WITH_ONE_CARD = "no-take-with-one-card"


def _family(instance: object, attribute: attrs.Attribute[str], value: str) -> None:
    if value not in FAMILIES:
        raise BiribaError(f"RuleSet.family must be 'biriba' or 'buraco', got {excerpt(value)}")


def _family_of(instance: object) -> str:
    """The game of the rule set being built (``"biriba"`` until it is known)."""
    family = getattr(instance, "family", "biriba")
    return family if isinstance(family, str) else "biriba"


def _refused_value(name: str, family: str, why: str) -> BiribaError:
    """The error for a value of the field ``name`` that no rule allows, ``why`` saying
    what it must be, citing the rule of the field (:func:`field_rule`)."""
    rule = field_rule(name, family)
    cite = f" ({rule})" if rule is not None else ""
    return BiribaError(f"RuleSet.{name} {why}{cite}", rule=rule)


def _positive(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if not is_int(value):
        raise TypeError(f"RuleSet.{attribute.name} must be an int, got {type(value).__name__}")
    if value < 1:
        raise _refused_value(
            attribute.name, _family_of(instance), f"must be at least 1, got {excerpt(value)}"
        )


#: The most decks a rule set's pack may hold. Real games use two or three (B1.2, V6); the
#: bound keeps a rule set read from elsewhere (:meth:`RuleSet.from_dict`) from asking for a
#: pack of millions of cards, and keeps every count of a hand's cards of one rank below
#: 256, which the meld enumerator's byte arithmetic needs.
MAX_DECKS: Final = 16
#: The most jokers a rule set's pack may hold (B1.2: 4; Z1.2: 2; V6: 6).
MAX_JOKERS: Final = 64


#: V6: six players play Biriba with a third deck and two more jokers, ``(decks, jokers)``
#: (162 cards) in place of B1.2's pack.
_SIX_PLAYERS: Final = 6
_BIRIBA_PACK: Final = (2, 4)
_SIX_PLAYER_PACK: Final = (3, 6)


def _pack_size(decks: int, jokers: int) -> int:
    """The cards of a pack of ``decks`` standard decks and ``jokers`` jokers (B1.2)."""
    return 52 * decks + jokers


#: The most cards a rule set's pack may hold: :data:`MAX_DECKS` decks and
#: :data:`MAX_JOKERS` jokers (896), and so the most one hand can hold.
MAX_PACK: Final = _pack_size(MAX_DECKS, MAX_JOKERS)

#: The most passes in a row a rule set may let a deal run to before it ends (B4.4: four;
#: the presets: the number of players, six at most). The bound keeps a rule set read
#: from elsewhere from letting a deal whose stock is gone go round almost for ever.
MAX_PASS_LIMIT: Final = 64


def _at_most(
    bound: int, rule: str = "B1.2", what: str = "the pack"
) -> Callable[[object, attrs.Attribute[int], int], None]:
    """A validator: an int from 0 (or 1) to ``bound``, refused above it citing ``rule``
    (by default B1.2, the size of the pack, Z1.2 under Buraco: :func:`cited`)."""

    def check(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
        if value > bound:
            cite = cited_in(_family_of(instance), rule)
            raise BiribaError(
                f"RuleSet.{attribute.name} must be at most {bound}, got {excerpt(value)} "
                f"({cite}: {what})",
                rule=cite,
            )

    return check


def check_number(value: object, kind: str, count: int, rules: RuleSet | None = None) -> int:
    """``value`` as a plain ``int`` if it is a ``kind`` (seat or team) number in
    ``0..count - 1`` (B1.1, or Z1.1 under Buraco ``rules``, see :func:`cited`): any integer
    type (NumPy's, an ``IntEnum`` member, which gives its number) but a ``bool``; else
    :class:`TypeError` (not a whole number) or :class:`~biriba.BiribaError`."""
    number = whole_number(value, f"a {kind}")
    if not 0 <= number < count:
        rule = "B1.1" if rules is None else cited(rules, "B1.1")
        raise BiribaError(
            f"{kind} {excerpt(number)} is out of range 0..{count - 1} ({rule})", rule=rule
        )
    return number


def _three_or_more(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    """A meld has at least three cards (B3.1, Z3.2): a rule set may ask for more, never
    fewer (two-card melds of a two and a substitute would be sequences to one reading of
    B3.6 and no meld to B3.5's)."""
    if value < 3:
        raise BiribaError(
            f"RuleSet.{attribute.name} must be at least 3, got {excerpt(value)} "
            f"(B3.1, Z3.2: a meld has at least three cards)",
            rule="B3.1",
        )


def _natural(instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if not is_int(value):
        raise TypeError(f"RuleSet.{attribute.name} must be an int, got {type(value).__name__}")
    if value < 0:
        raise _refused_value(
            attribute.name, _family_of(instance), f"must not be negative, got {excerpt(value)}"
        )


_MAX_NAME: Final = 80


def _not_a_card(method: str, value: object) -> TypeError:
    """The error of the :class:`RuleSet` method ``method`` given ``value`` for a card."""
    return TypeError(f"RuleSet.{method} takes a Card, got {type(value).__name__}")


_ENUMS: Final[dict[str, type[enum.Enum]]] = {
    "PileRestriction": PileRestriction,
    "StockExhausted": StockExhausted,
}
#: The largest number a rule set's field may hold: far beyond any real rule, small
#: enough that no arithmetic on it is slow.
_MAX_NUMBER: Final = 10**9


def _to_data(value: object) -> object:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return list(value)
    return value


def _from_data(key: str, kind: str, value: object, family: str = "biriba") -> object:
    """``value`` read as the field ``key`` of kind ``kind`` (its annotation), or a
    :class:`~biriba.BiribaError` saying what was expected, citing the field's rule in
    the game ``family`` (:func:`field_rule`)."""
    if value is None and kind.endswith(" | None"):
        return None
    kind = kind.removesuffix(" | None")
    if kind == "bool":
        if isinstance(value, bool):
            return value
    elif kind == "int":
        if _is_number(value):
            return value
    elif kind == "str":
        if isinstance(value, str) and len(value) <= _MAX_NAME and is_text(value):
            return value
    elif kind in _ENUMS:
        for member in _ENUMS[kind]:
            if value == member.value:
                return member
    elif kind.startswith("tuple[int, "):
        size = None if kind == "tuple[int, ...]" else kind.count("int")
        if (
            isinstance(value, list | tuple)
            and (size is None or len(value) == size)
            and len(value) <= 14
            and all(_is_number(v) for v in value)
        ):
            return tuple(value)
    else:  # pragma: no cover - a field of a kind this reader does not know
        raise AssertionError(f"RuleSet.{key} has a kind the reader does not know: {kind}")
    raise _refused_value(key, family, f"must be {_EXPECTED.get(kind, kind)}, got {excerpt(value)}")


_EXPECTED: Final = {
    "bool": "true or false",
    "int": f"a whole number, at most {_MAX_NUMBER} either way",
    "str": f"a short text (at most {_MAX_NAME} characters that UTF-8 can write)",
    "PileRestriction": " or ".join(repr(m.value) for m in PileRestriction),
    "StockExhausted": " or ".join(repr(m.value) for m in StockExhausted),
    "tuple[int, int]": f"a list of two whole numbers, each at most {_MAX_NUMBER} either way",
    "tuple[int, ...]": f"a list of whole numbers, each at most {_MAX_NUMBER} either way",
}


def _check_kind(key: str, kind: str, value: object, family: str) -> None:
    """Raise unless ``value`` is what the field ``key`` of kind ``kind`` holds:
    :class:`TypeError` for a value of another type (``"yes"`` for a bool, a list for a
    tuple), then the test :meth:`RuleSet.from_dict` reads data with, so that a rule set
    built in code holds nothing that one read as data could not (a
    :class:`~biriba.BiribaError` for a value out of bounds or of the wrong length)."""
    if not _of_kind(kind, value):
        bare = kind.removesuffix(" | None")
        what = _EXPECTED.get(bare, bare).replace("a list", "a tuple")
        if bare in _ENUMS:
            what = f"a {bare} ({what})"
        raise TypeError(f"RuleSet.{key} must be {what}, got {type(value).__name__}")
    _from_data(key, kind, _to_data(value), family)


def _of_kind(kind: str, value: object) -> bool:
    """Whether ``value`` has the Python type of a field of kind ``kind`` (its annotation),
    whatever its value."""
    if value is None:
        return kind.endswith(" | None")
    kind = kind.removesuffix(" | None")
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "int":
        return is_int(value)
    if kind == "str":
        return isinstance(value, str)
    if kind in _ENUMS:
        return isinstance(value, _ENUMS[kind])
    if kind.startswith("tuple[int, "):
        return isinstance(value, tuple) and all(is_int(v) for v in value)
    raise AssertionError(  # pragma: no cover - a field of a kind this reader does not know
        f"a RuleSet field has a kind the reader does not know: {kind}"
    )


def _is_number(value: object) -> bool:
    return is_int(value) and abs(value) <= _MAX_NUMBER


#: The part B rules that part Z does not keep but restates (RULES.md part Z's opening):
#: the seats (Z1.1), the pack (Z1.2), what a meld is (Z3.2) and when the match ends
#: (Z5.2). A Buraco rule set cites the Z rule.
_RESTATED_IN_Z: Final = {"B1.1": "Z1.1", "B1.2": "Z1.2", "B3.1": "Z3.2", "B9.2": "Z5.2"}


def cited(rules: RuleSet, rule: str) -> str:
    """``rule``, the id of a part B rule, as ``rules``' game cites it: under Buraco the
    part Z rule that restates it (B1.1's seats are Z1.1's, B1.2's pack is Z1.2's, B3.1's
    melds are Z3.2's, B9.2's end of the match is Z5.2's), else
    ``rule`` itself."""
    return cited_in(rules.family, rule)


def cited_in(family: str, rule: str) -> str:
    """:func:`cited` for a rule set of the game ``family`` (``"biriba"`` or
    ``"buraco"``), for a check that has the game but not yet the rule set."""
    if family == "buraco":
        return _RESTATED_IN_Z.get(rule, rule)
    return rule


class RuleSetChanges(TypedDict, total=False):
    """The fields :meth:`~biriba.RuleSet.evolve` may change, with their types, for type
    checkers (``BIRIBA.evolve(player=3)`` is then an error before it runs). The same
    names and types as :class:`~biriba.RuleSet`'s fields: a test checks that they
    agree."""

    name: str
    family: str
    players: int
    teams: int
    decks: int
    jokers: int
    twos_wild: bool
    twos_always_wild: bool
    hand_size: int
    reserve_size: int
    reserve_count: int
    up_card: bool
    first_turn_redraw: bool
    min_meld: int
    max_new_meld: int | None
    max_sequence: int
    max_substitutes: int | None
    groups: bool
    ace_low: bool
    ace_high: bool
    high_ace_closes_meld: bool
    biriba_size: int
    multi_substitute_biriba: bool
    wild_melds: bool
    keep_after_melding: int
    pile_restriction: PileRestriction
    stock_exhausted: StockExhausted
    stock_end_remaining: int
    pass_limit: int
    entry_minimum: int
    reserve_needs_biriba: bool
    close_needs_biriba: bool
    card_values: tuple[int, ...]
    joker_value: int
    sequence_bonus: tuple[int, int]
    full_sequence_bonus: tuple[int, int] | None
    group_bonus: tuple[int, int]
    wild_meld_bonus: int
    bonus_suit_bonus: tuple[int, int] | None
    full_bonus_suit_bonus: tuple[int, int]
    closing_bonus: int
    reserve_penalty: int
    unactivated_reserve_penalty: int
    target: int
    target_strict: bool


@attrs.frozen(cache_hash=True, kw_only=True)
class RuleSet:
    """Every parameter of one set of rules; build a variant with :meth:`evolve`.

    The rule ids in the field descriptions point into the rules reference. The
    documentation's *Rule sets* page maps every rule of parts B, Z and V to its field.
    """

    #: The name presets are looked up by (:meth:`named`).
    name: str
    #: The game the rule set belongs to, ``"biriba"`` or ``"buraco"``: where parts B and Z
    #: of the rules say the same thing (the reserve or morto, closing or going out), the
    #: messages cite the rule of this game.
    family: str = attrs.field(default="biriba", validator=_family)
    # --- players and cards (B1, Z1, V6) ---
    #: Number of players (B1.1; V6: 2, 3 or 6).
    players: int = attrs.field(default=4, validator=_positive)
    #: Number of teams; seat ``s`` plays for team ``s % teams`` (B1.1, Z1.1, V6).
    teams: int = attrs.field(default=2, validator=_positive)
    #: Standard 52-card decks in the pack (B1.2; V6: 3 for six players).
    #: At most 16 (``biriba.rules.MAX_DECKS``).
    decks: int = attrs.field(default=2, validator=[_positive, _at_most(MAX_DECKS)])
    #: Jokers in the pack (B1.2: 4; Z1.2: 2; V6: 6), at most 64 (``biriba.rules.MAX_JOKERS``).
    jokers: int = attrs.field(default=4, validator=[_natural, _at_most(MAX_JOKERS)])
    #: Whether twos are substitutes (B1.3, Z1.2).
    twos_wild: bool = True
    #: Whether a two is a substitute even at rank 2 of its own suit (V7); off: B3.6.
    twos_always_wild: bool = False
    # --- the deal (B2, Z2) ---
    #: Cards dealt to each player (B2.3, Z2.1).
    hand_size: int = attrs.field(default=11, validator=_positive)
    #: Cards in each reserve packet (B2.3, Z2.1).
    reserve_size: int = attrs.field(default=11, validator=_natural)
    #: Number of reserve packets, one per team (B5.1; V6: one per player alone).
    reserve_count: int = attrs.field(default=2, validator=_natural)
    #: Whether a card is turned up to start the discard pile (B2.3; Z2.1: no).
    up_card: bool = True
    #: Whether the first player may put the first card drawn on the discard pile and
    #: draw the next one, the move :class:`~biriba.Redraw` (Z2.2).
    first_turn_redraw: bool = False
    # --- melds (B3, Z3) ---
    #: Fewest cards in a new meld (B3.1, Z3.2).
    min_meld: int = attrs.field(default=3, validator=[_positive, _three_or_more])
    #: Most cards in a newly laid meld, or ``None`` for no limit (Z3.2: 6).
    max_new_meld: int | None = None
    #: Most cards in a sequence (B3.2: 13).
    max_sequence: int = attrs.field(
        default=13, validator=[_positive, _at_most(13, "B3.2", "a sequence of one ace")]
    )
    #: Most substitutes in one meld, or ``None`` for no limit (B3.3: 1; V7). A meld never
    #: holds more substitutes than naturals.
    max_substitutes: int | None = 1
    #: Whether groups of one rank are allowed (B3.1; V2: no).
    groups: bool = True
    #: Whether an ace may stand below the two (B3.2).
    ace_low: bool = True
    #: Whether an ace may stand above the king (B3.2).
    ace_high: bool = True
    #: Whether a sequence ending in a high ace is closed to every addition (Z3.3).
    high_ace_closes_meld: bool = False
    #: Cards that make a meld a biriba (canastra) (B3.7, Z3.4).
    biriba_size: int = attrs.field(default=7, validator=_positive)
    #: Whether a meld with more than one substitute can still be a biriba (Z3.4: no;
    #: V7 may allow it, as a dirty one).
    multi_substitute_biriba: bool = False
    #: Whether melds made only of substitutes may be laid (Z3.7); only substitutes are
    #: added to them, and at :attr:`biriba_size` cards they are biribas (canastras).
    wild_melds: bool = False
    # --- the turn (B4, Z3, Z4) ---
    #: Cards a player must keep after the melding of a turn (B4.3: 2; V7: 1).
    keep_after_melding: int = attrs.field(default=2, validator=_positive)
    #: The restriction on a one-card discard pile (B4.2, Z4.4).
    pile_restriction: PileRestriction = PileRestriction.NO_DISCARD_BACK
    #: What happens when the stock runs out (B4.4, Z4.3).
    stock_exhausted: StockExhausted = StockExhausted.TAKE_OR_PASS
    #: A stock holding this many cards or fewer counts as exhausted (V7): no more draws
    #: from it; what follows is ``stock_exhausted``'s (take or pass, B4.4; the next
    #: morto on top, Z4.3), the cards left staying in the stock.
    stock_end_remaining: int = attrs.field(default=0, validator=_natural)
    #: Passes in a row that end the deal (B4.4), at most 64 (``biriba.rules.MAX_PASS_LIMIT``).
    pass_limit: int = attrs.field(
        default=4, validator=[_positive, _at_most(MAX_PASS_LIMIT, "B4.4", "passes in a row")]
    )
    #: Points a team's first melds of a deal must reach, 0 for none (B1.4; V3).
    entry_minimum: int = attrs.field(default=0, validator=_natural)
    # --- reserve and closing (B5, B6, Z4) ---
    #: Whether receiving the reserve needs a biriba on the table (B5.2; V4: no).
    reserve_needs_biriba: bool = True
    #: Whether closing needs a biriba on the table (B6.1, Z4.2).
    close_needs_biriba: bool = True
    # --- scoring (B8, Z5) ---
    #: Card values indexed by rank, 1 = ace .. 13 = king; index 0 is unused (B8.1, Z1.3).
    card_values: tuple[int, ...] = DEFAULT_CARD_VALUES
    #: The joker's value (B8.1).
    joker_value: int = DEFAULT_JOKER_VALUE
    #: Bonus for a clean / dirty sequence biriba short of the full length (B8.3).
    sequence_bonus: tuple[int, int] = (200, 100)
    #: Bonus for a clean / dirty sequence of ``max_sequence`` cards, or ``None`` (B8.3).
    full_sequence_bonus: tuple[int, int] | None = (1000, 500)
    #: Bonus for a clean / dirty group biriba (B8.3; Z5.1: 1000 more than a sequence).
    group_bonus: tuple[int, int] = (300, 150)
    #: Bonus for a biriba made only of substitutes (Z3.7, Z5.1: 1000).
    wild_meld_bonus: int = 1000
    #: Kózi (V1): the extra bonus for a clean / dirty sequence biriba in the bonus suit,
    #: or ``None`` without kózi. With it, the first up-card names the bonus suit, and a
    #: joker up-card is taken by the first player, who names it (:class:`~biriba.NameSuit`).
    bonus_suit_bonus: tuple[int, int] | None = None
    #: Kózi (V1): the extra instead for a clean / dirty bonus-suit sequence of
    #: :attr:`max_sequence` cards, when :attr:`full_sequence_bonus` applies (V1 settled:
    #: the bonus doubled, 1000 / 500 more).
    full_bonus_suit_bonus: tuple[int, int] = (1000, 500)
    #: Points for the team that closes (B8.5, Z5.1).
    closing_bonus: int = 100
    #: Penalty for a team that never received its reserve (B8.6, Z5.1).
    reserve_penalty: int = 100
    #: Penalty paid instead of the packet's cards when the receiver's next turn never came
    #: (B8.7).
    unactivated_reserve_penalty: int = 100
    # --- the match (B9, Z5.2, V5) ---
    #: The match target (B9.2: 5000; Z5.2: 2000).
    target: int = attrs.field(default=5000, validator=_positive)
    #: Whether a total must be strictly above the target to end the match (B9.2).
    target_strict: bool = True

    # --- worked out from the fields above, for the rules' questions below ---
    #: Every card's value (:meth:`card_value`), indexed by :attr:`Card.index
    #: <biriba.Card.index>`: for scoring hands held as 53 counts.
    values: tuple[int, ...] = attrs.field(init=False, eq=False, repr=False, hash=False)
    #: For each :attr:`Card.index <biriba.Card.index>`, whether the card is a substitute by
    #: nature (:meth:`is_wild`): a table for the hot paths.
    wild: tuple[bool, ...] = attrs.field(init=False, eq=False, repr=False, hash=False)
    #: The :attr:`Card.index <biriba.Card.index>` of every card :meth:`is_wild` says is a
    #: substitute, in index order (the twos by suit, then the joker).
    wild_indices: tuple[int, ...] = attrs.field(init=False, eq=False, repr=False, hash=False)

    def __attrs_post_init__(self) -> None:
        for field in attrs.fields(RuleSet):
            if field.init:
                _check_kind(field.name, str(field.type), getattr(self, field.name), self.family)
        if not self.name:
            raise BiribaError("RuleSet.name must be a non-empty str")
        if self.family == "buraco" and not 2 <= self.players <= 6:
            raise BiribaError(
                f"RuleSet: Buraco is played by 2 to 6 players, not {self.players} (Z1.1)",
                rule="Z1.1",
            )
        # The players and their teams: B1.1 and V6, Z1.1 under Buraco.
        seats = cited(self, "B1.1")
        cites = seats if seats != "B1.1" else "B1.1, V6"
        if self.teams < 2:
            raise BiribaError(
                f"RuleSet: {excerpt(self.teams)} team cannot play: the players form two "
                f"teams or more ({cites})",
                rule=seats,
            )
        if self.players % self.teams:
            raise BiribaError(
                f"RuleSet: {excerpt(self.players)} players do not split into "
                f"{excerpt(self.teams)} equal teams ({cites})",
                rule=seats,
            )
        if len(self.card_values) != 14:
            raise _refused_value(
                "card_values", self.family, "needs 14 entries (index 0 unused, 1..13)"
            )
        needed = self.players * self.hand_size + self.reserve_count * self.reserve_size
        if needed + int(self.up_card) > self.pack_size:
            raise BiribaError(
                f"RuleSet {excerpt(self.name)}: a pack of {excerpt(self.pack_size)} cards cannot "
                f"deal {excerpt(needed + int(self.up_card))} (B2.3)",
                rule="B2.3",
            )
        # B2.3, B4.4, V7: the deal starts with a stock to draw from (one that ends with
        # stock_end_remaining cards left must hold more than that).
        if needed + int(self.up_card) + self.stock_end_remaining >= self.pack_size:
            raise BiribaError(
                f"RuleSet {excerpt(self.name)}: a pack of {excerpt(self.pack_size)} cards, "
                f"{excerpt(needed + int(self.up_card))} of them dealt, leaves no stock to "
                f"draw from (B2.3, V7)",
                rule="B2.3",
            )
        # B4.3, B4.5: a hand of ``keep_after_melding`` cards or more must be reachable at
        # the start of every play phase (the hand dealt, or a packet received, and one card
        # drawn), else no card could ever be discarded and the deal would stop.
        smallest = self.hand_size
        if self.reserve_count:
            smallest = min(smallest, self.reserve_size)
        if self.keep_after_melding > smallest + 1:
            raise BiribaError(
                f"RuleSet {excerpt(self.name)}: a player who keeps "
                f"{excerpt(self.keep_after_melding)} cards after melding could never discard "
                f"from a hand of {smallest} cards and one drawn (B4.3, B4.5)",
                rule="B4.3",
            )
        if self.max_substitutes is not None and self.max_substitutes < 0:
            raise _refused_value(
                "max_substitutes", self.family, f"must not be negative, got {self.max_substitutes}"
            )
        if self.max_new_meld is not None and self.max_new_meld < self.min_meld:
            raise BiribaError(
                f"RuleSet {excerpt(self.name)}: a new meld of at most "
                f"{excerpt(self.max_new_meld)} cards could never hold the {self.min_meld} of "
                f"min_meld (B3.1, Z3.2)",
                rule="Z3.2",
            )
        if self.max_sequence < self.min_meld:
            raise BiribaError(
                f"RuleSet {excerpt(self.name)}: a sequence of at most {self.max_sequence} "
                f"cards could never hold the {excerpt(self.min_meld)} of min_meld (B3.1, B3.2)",
                rule=cited(self, "B3.1"),
            )
        if self.twos_always_wild and not self.twos_wild:
            raise BiribaError(
                f"RuleSet {excerpt(self.name)}: twos_always_wild makes twos substitutes even "
                f"at rank 2 (V7), which needs twos_wild (B1.3)",
                rule="V7",
            )
        # B8.6, B8.7: the reserve never adds points (a score's reserve part is at most 0).
        # (Card values may be negative: a card worth less than nothing.)
        for penalty in ("reserve_penalty", "unactivated_reserve_penalty"):
            if getattr(self, penalty) < 0:
                rule = FIELD_RULES[penalty].split(",")[0]
                raise BiribaError(
                    f"RuleSet.{penalty} must not be negative, got "
                    f"{excerpt(getattr(self, penalty))} ({rule})",
                    rule=rule,
                )
        if self.bonus_suit_bonus is not None and not self.up_card:
            raise BiribaError(
                "RuleSet: kózi needs an up-card, whose suit is the bonus suit (V1)", rule="V1"
            )
        if not (self.ace_low or self.ace_high):
            raise BiribaError(
                "RuleSet: an ace must be able to stand low or high (B3.2)", rule="B3.2"
            )
        values = tuple(self.card_values[i % 13 + 1] for i in range(JOKER_INDEX))
        object.__setattr__(self, "values", (*values, self.joker_value))
        wild = tuple(c.index for c in CARDS if c.rank is None or (self.twos_wild and c.rank == 2))
        object.__setattr__(self, "wild_indices", wild)
        object.__setattr__(self, "wild", tuple(c.index in wild for c in CARDS))

    # ------------------------------------------------------------------ the rules' questions
    def card_value(self, card: Card) -> int:
        """What ``card`` is worth in melds and in hands (B8.1, Z1.3; :attr:`card_values`).
        :class:`TypeError` for anything but a :class:`~biriba.Card`."""
        try:
            return self.values[card.index]
        except (AttributeError, TypeError):
            raise _not_a_card("card_value", card) from None

    def cards_value(self, cards: Iterable[Card]) -> int:
        """What ``cards`` are worth (B8.1, Z1.3): the sum of :meth:`card_value`, for a
        meld's points, the cards left in a hand and (V3) a packet a hand may empty into.
        :class:`TypeError` for anything but cards."""
        values = self.values
        try:
            return sum([values[card.index] for card in cards])
        except (AttributeError, TypeError):
            if isinstance(cards, str) or not isinstance(cards, Iterable):
                raise TypeError(
                    f"RuleSet.cards_value takes cards, got {type(cards).__name__}"
                ) from None
            # (An iterator is spent: what was wrong in it is not looked for again.)
            if cards is not iter(cards):
                for card in cards:
                    if not isinstance(card, Card):
                        raise _not_a_card("cards_value", card) from None
            raise TypeError("RuleSet.cards_value takes cards, and one given is no Card") from None

    def counts_value(self, counts: Counts) -> int:
        """What the cards counted by ``counts`` (53 counts, by :attr:`Card.index
        <biriba.Card.index>`) are worth (B8.1, Z1.3): the cards left in a hand, which
        B8.4 takes off. (V3's look-ahead bounds what a hand can still lay by the same sum
        with no card below nothing: ``Engine._gained``.)"""
        return sum(map(mul, counts, self.values))

    def is_wild(self, card: Card) -> bool:
        """Whether ``card`` is a substitute by nature (B1.3, Z1.2): a joker, or a two when
        :attr:`twos_wild`. A two of a sequence's own suit at rank 2 is still natural there
        (B3.6) unless :attr:`twos_always_wild`. :class:`TypeError` for anything but a
        :class:`~biriba.Card`."""
        try:
            return self.wild[card.index]
        except (AttributeError, TypeError):
            raise _not_a_card("is_wild", card) from None

    def copies(self, card: Card) -> int:
        """How many copies of ``card`` the pack holds (B1.2): one per deck, or the jokers.
        :class:`TypeError` for anything but a :class:`~biriba.Card`."""
        if not isinstance(card, Card):
            raise _not_a_card("copies", card)
        return self.jokers if card.index == JOKER_INDEX else self.decks

    @property
    def pack_size(self) -> int:
        """Cards in the pack: 52 per deck plus the jokers (B1.2: 108)."""
        return _pack_size(self.decks, self.jokers)

    @property
    def players_per_team(self) -> int:
        """Players in each team (2 in ``biriba``)."""
        return self.players // self.teams

    @property
    def words(self) -> tuple[str, str, str]:
        """What the rule set's game calls its reserve, a long meld and the close:
        ``("reserve", "biriba", "closed")``, or Buraco's ``("morto", "canastra", "went
        out")`` (:attr:`family`); for messages, pictures and the terminal game."""
        return _WORDS[self.family]

    def team_of(self, seat: SupportsIndex) -> int:
        """The team of ``seat``: ``seat % teams`` (B1.1). A seat outside ``0`` to
        ``players - 1`` raises :class:`~biriba.BiribaError`, a seat that is not a whole
        number (of any integer type, but not a ``bool``) :class:`TypeError`."""
        return check_number(seat, "seat", self.players, self) % self.teams

    def evolve(self, **changes: Unpack[RuleSetChanges]) -> RuleSet:
        """A copy with some fields changed: ``BIRIBA.evolve(name="mine", groups=False)``.

        Under Biriba's rules a new ``players`` or ``teams`` brings what V6 ties to them,
        unless given too: a reserve for each team (``reserve_count``, when the rule set
        had one per team) and, for six players, a third deck and two more jokers (162
        cards, when the rule set had Biriba's pack; back to 108 from six players).
        ``BIRIBA.evolve(players=3, teams=3)`` is three players each with a reserve.
        Nothing else follows: ``pass_limit`` stays 4 (B4.4) unless given.

        A name that is no field raises :class:`TypeError` naming it (as for any unknown
        keyword), a value the rules forbid :class:`~biriba.BiribaError`. Type checkers
        read the keywords' names and types from :class:`~biriba.rules.RuleSetChanges`."""
        for key in changes:
            if key not in _FIELD_KINDS:
                raise TypeError(
                    f"RuleSet.evolve: a rule set has no field {key[:40]!r} (its fields are "
                    f"the keys of RuleSet.to_dict(); see docs/rulesets.rst)"
                )
        given: dict[str, object] = dict(changes)
        if "players" in given or "teams" in given:
            given = {**self._seats_bring(given), **given}
        return attrs.evolve(self, **given)  # type: ignore[arg-type]

    def _seats_bring(self, changes: Mapping[str, object]) -> dict[str, object]:
        """V6: the fields that follow a new ``players`` or ``teams`` in ``changes`` under
        Biriba's rules (:meth:`evolve`). Buraco keeps its pack and its two mortos whatever
        the players (Z1.2, Z2.1)."""
        if changes.get("family", self.family) != "biriba":
            return {}
        players = changes.get("players", self.players)
        teams = changes.get("teams", self.teams)
        brought: dict[str, object] = {}
        if self.reserve_count == self.teams:  # B5.1: one reserve per team
            brought["reserve_count"] = teams
        pack = (self.decks, self.jokers)
        if players == _SIX_PLAYERS and self.players != _SIX_PLAYERS and pack == _BIRIBA_PACK:
            brought["decks"], brought["jokers"] = _SIX_PLAYER_PACK
        elif players != _SIX_PLAYERS and self.players == _SIX_PLAYERS and pack == _SIX_PLAYER_PACK:
            brought["decks"], brought["jokers"] = _BIRIBA_PACK
        return brought

    @property
    def is_preset(self) -> bool:
        """Whether this rule set is the preset of its :attr:`name`, unchanged: then its
        name alone says everything, and positions, matches and records write just the
        name (``rules_to_data``)."""
        return _PRESETS.get(self.name) == self

    def to_dict(self) -> dict[str, object]:
        """Every field as JSON-ready data (enums by value, tuples as lists), the name
        first: :meth:`from_dict` gives back an equal rule set.

        >>> BIRIBA.evolve(groups=False).to_dict()["groups"]
        False
        """
        return {f.name: _to_data(getattr(self, f.name)) for f in _FIELDS}

    @staticmethod
    def from_dict(data: Mapping[str, object]) -> RuleSet:
        """The rule set ``data`` describes, as :meth:`to_dict` writes it.

        ``name`` is required; a field left out takes its value from the preset of that
        name when there is one, else from ``biriba``; that preset is found as
        :meth:`named` finds it (in any case, or by an alias such as ``"kozi"``), so
        ``{"name": "Buraco"}`` has Buraco's fields, never Biriba's under Buraco's name.
        The name stays as written (the round trip is exact). Raises
        :class:`~biriba.BiribaError` on an unknown field or a value of the wrong kind, and
        :class:`TypeError` when ``data`` is not a mapping.
        """
        if not isinstance(data, Mapping):
            raise TypeError(f"RuleSet.from_dict expects a dict, got {type(data).__name__}")
        name = data.get("name")
        if not isinstance(name, str) or not name or len(name) > _MAX_NAME or not is_text(name):
            raise BiribaError(
                f"a rule set needs a 'name': a non-empty str of at most {_MAX_NAME} characters, "
                f"text UTF-8 can write"
            )
        for key in data:
            if not isinstance(key, str):
                raise BiribaError(
                    f"a rule set's fields are named by text, got the key {excerpt(key)}"
                )
        unknown = [k for k in data if k not in _FIELD_KINDS]
        if unknown:
            raise BiribaError(f"a rule set has no field {excerpt(unknown[0])}")
        base = _preset_of(name) or _PRESETS["biriba"]
        family = data.get("family", base.family)
        family = family if isinstance(family, str) else base.family
        changes = {
            key: _from_data(key, _FIELD_KINDS[key], value, family)
            for key, value in data.items()
            if key != "name"
        }
        return attrs.evolve(base, name=name, **changes)  # type: ignore[arg-type]

    @staticmethod
    def named(name: str) -> RuleSet:
        """The preset called ``name``, in any case: ``"biriba"``, ``"buraco"``, or one of
        the variants' presets (:meth:`preset_names`; ``"kozi"`` is ``"biriba-kozi"``)."""
        if not isinstance(name, str):
            raise TypeError(f"RuleSet.named expects a str, got {type(name).__name__}")
        found = _preset_of(name)
        if found is None:
            known = ", ".join(_PRESETS)
            raise BiribaError(f"no rule set named {name[:40]!r}; known: {known}")
        return found

    @staticmethod
    def preset_names() -> tuple[str, ...]:
        """The presets' names, ``biriba`` first."""
        return tuple(_PRESETS)


#: The fields :meth:`RuleSet.to_dict` writes, in order, and the kind of value of each
#: (its annotation), which :func:`_from_data` checks.
_FIELDS: Final = tuple(f for f in attrs.fields(RuleSet) if f.init)
_FIELD_KINDS: Final = {f.name: str(f.type) for f in _FIELDS}

#: Part B of the rules: Biriba, pairs, without kózi. The default everywhere.
BIRIBA: Final = RuleSet(name="biriba")

#: Part Z of the rules: Buraco, four players in two pairs.
BURACO: Final = RuleSet(
    name="buraco",
    family="buraco",
    jokers=2,  # Z1.2
    up_card=False,  # Z2.1
    first_turn_redraw=True,  # Z2.2
    max_new_meld=6,  # Z3.2
    max_substitutes=None,  # Z3.4
    multi_substitute_biriba=False,  # Z3.4
    high_ace_closes_meld=True,  # Z3.3
    wild_melds=True,  # Z3.7
    wild_meld_bonus=1000,  # Z5.1
    reserve_needs_biriba=False,  # Z4.1: the morto needs no canastra
    close_needs_biriba=True,  # Z4.2: going out needs a canastra
    pile_restriction=PileRestriction.NO_TAKE_WITH_ONE_CARD,  # Z4.4
    stock_exhausted=StockExhausted.RESERVE_BECOMES_STOCK,  # Z4.3
    sequence_bonus=(200, 100),  # Z5.1
    full_sequence_bonus=None,  # Z5.1
    group_bonus=(1200, 1100),  # Z5.1: a canastra bonus plus 1000 for a group
    target=2000,  # Z5.2
    target_strict=False,  # Z5.2 "played to a target"
)

#: V1: Biriba with kózi, the up-card naming the bonus suit.
BIRIBA_KOZI: Final = BIRIBA.evolve(name="biriba-kozi", bonus_suit_bonus=(200, 100))

_PRESETS: Final = {
    r.name: r
    for r in (
        BIRIBA,
        BIRIBA_KOZI,
        # V2: sequences only.
        BIRIBA.evolve(name="biriba-sequences", groups=False),
        # V6: two or three players each alone, with a reserve each; a round of passes
        # ends the deal (B4.4).
        BIRIBA.evolve(name="biriba-2", players=2, teams=2, reserve_count=2, pass_limit=2),
        BIRIBA.evolve(name="biriba-3", players=3, teams=3, reserve_count=3, pass_limit=3),
        # V6: six players in three pairs, a third deck and two more jokers.
        BIRIBA.evolve(
            name="biriba-6",
            players=6,
            teams=3,
            decks=3,
            jokers=6,
            reserve_count=3,
            pass_limit=6,
        ),
        BURACO,
        # Z1.1: two players, each alone; always two mortos (Z2.1).
        BURACO.evolve(name="buraco-2", players=2, teams=2),
        # Z1.1: six players in two teams of three.
        BURACO.evolve(name="buraco-6", players=6, teams=2),
    )
}
#: One line on each preset, for ``biriba rules`` and the documentation.
PRESET_DESCRIPTIONS: Final = {
    "biriba": "Biriba (part B): 4 players in two pairs, 108 cards, no bonus suit",
    "biriba-kozi": "Biriba with kózi (V1): the up-card's suit is the bonus suit",
    "biriba-sequences": "Biriba with sequences only, no groups (V2)",
    "biriba-2": "Biriba for 2 players, each alone with a reserve of their own (V6)",
    "biriba-3": "Biriba for 3 players, each alone with a reserve of their own (V6)",
    "biriba-6": "Biriba for 6 players in three pairs, 162 cards (V6)",
    "buraco": "Buraco (part Z): 4 players in two pairs, 106 cards, two mortos",
    "buraco-2": "Buraco for 2 players, each alone, two mortos (Z1.1)",
    "buraco-6": "Buraco for 6 players in two teams of three, two mortos (Z1.1)",
}
#: The rules each field of :class:`RuleSet` implements, by field: for ``biriba rules`` and
#: the documentation's table of fields (a test checks every field is here).
FIELD_RULES: Final = {
    "name": "",
    "family": "B, Z",
    "players": "B1.1, Z1.1, V6",
    "teams": "B1.1, Z1.1, V6",
    "decks": "B1.2, Z1.2, V6",
    "jokers": "B1.2, Z1.2, V6",
    "twos_wild": "B1.3, Z1.2",
    "twos_always_wild": "B3.6, V7",
    "hand_size": "B2.3, Z2.1",
    "reserve_size": "B2.3, Z2.1",
    "reserve_count": "B2.3, B5.1, Z2.1, V6",
    "up_card": "B2.3, Z2.1",
    "first_turn_redraw": "Z2.2",
    "min_meld": "B3.1, Z3.2",
    "max_new_meld": "Z3.2",
    "max_sequence": "B3.2",
    "max_substitutes": "B3.3, Z3.4, V7",
    "groups": "B3.1, V2",
    "ace_low": "B3.2",
    "ace_high": "B3.2",
    "high_ace_closes_meld": "Z3.3",
    "biriba_size": "B3.7, Z3.4",
    "multi_substitute_biriba": "Z3.4, V7",
    "wild_melds": "Z3.7",
    "keep_after_melding": "B4.3, V7",
    "pile_restriction": "B4.2, Z4.4",
    "stock_exhausted": "B4.4, Z4.3",
    "stock_end_remaining": "V7",
    "pass_limit": "B4.4",
    "entry_minimum": "B1.4, V3",
    "reserve_needs_biriba": "B5.2, Z4.1, V4",
    "close_needs_biriba": "B6.1, Z4.2",
    "card_values": "B8.1, Z1.3",
    "joker_value": "B8.1, Z1.3",
    "sequence_bonus": "B8.3, Z5.1",
    "full_sequence_bonus": "B8.3, Z5.1",
    "group_bonus": "B8.3, Z5.1",
    "wild_meld_bonus": "Z5.1",
    "bonus_suit_bonus": "B1.4, V1",
    "full_bonus_suit_bonus": "V1",
    "closing_bonus": "B8.5, Z5.1",
    "reserve_penalty": "B8.6, Z5.1",
    "unactivated_reserve_penalty": "B8.7, Z4.5",
    "target": "B9.2, Z5.2, V5",
    "target_strict": "B9.2, Z5.2, V5",
}


def field_rule(name: str, family: str = "biriba") -> str | None:
    """The rule a bad value of the :class:`RuleSet` field ``name`` is refused with, from
    :data:`FIELD_RULES`: the field's rule in the game ``family`` (part B for
    ``"biriba"``, part Z for ``"buraco"``), else the variant of part V it is an option
    of, else its first rule; ``None`` for a field no rule is about (``name``,
    ``family``). B1.4, which says Biriba has neither a bonus suit nor an entry minimum,
    is never the one: those fields are V1's and V3's."""
    ids = [i for i in FIELD_RULES.get(name, "").split(", ") if i[1:2].isdigit() and i != "B1.4"]
    for part in ("Z" if family == "buraco" else "B", "V"):
        for rule in ids:
            if rule.startswith(part):
                return rule
    return ids[0] if ids else None


#: Other names :meth:`RuleSet.named` accepts for a preset.
_ALIASES: Final = {"kozi": "biriba-kozi", "kózi": "biriba-kozi", "biriba-kózi": "biriba-kozi"}


def _preset_of(name: str) -> RuleSet | None:
    """The preset ``name`` names, in any case and by its aliases (:meth:`RuleSet.named`),
    or ``None``."""
    key = name.strip().lower()
    return _PRESETS.get(_ALIASES.get(key, key))


def same_rules(one: RuleSet, other: RuleSet) -> bool:
    """Whether two rule sets hold the same rules, their names aside: a preset and a file
    that names it in another case, or a copy saved under another name, play alike (a
    rule set is data: what it holds decides, never its name)."""
    return one == other or attrs.evolve(one, name=other.name) == other


def differing_fields(one: RuleSet, other: RuleSet) -> tuple[str, ...]:
    """The fields whose values differ between two rule sets, in the order of
    :meth:`RuleSet.to_dict`, their names aside: what an error or the command line says
    when two rule sets of one name hold other rules."""
    return tuple(
        f.name
        for f in _FIELDS
        if f.name != "name" and getattr(one, f.name) != getattr(other, f.name)
    )


def check_rules(rules: object, what: str = "rules") -> RuleSet:
    """``rules`` when it is a :class:`RuleSet`; otherwise :class:`TypeError`, which for a
    text says how a preset is found by its name (the one check of every entry point that
    takes a rule set)."""
    if isinstance(rules, RuleSet):
        return rules
    hint = (
        f" (a preset by its name: RuleSet.named({excerpt(rules)}))"
        if isinstance(rules, str)
        else ""
    )
    raise TypeError(f"{what} must be a RuleSet, got {type(rules).__name__}{hint}")


def rules_to_data(rules: RuleSet) -> str | dict[str, object]:
    """How a position, a match or a record names its rules: the preset's name when
    ``rules`` is that preset unchanged (:attr:`RuleSet.is_preset
    <biriba.RuleSet.is_preset>`), else :meth:`RuleSet.to_dict <biriba.RuleSet.to_dict>`,
    so that a variant never loads back as the preset whose name it carries."""
    return rules.name if rules.is_preset else rules.to_dict()


def rules_from_data(data: object) -> RuleSet:
    """The rule set that ``data`` names: a preset's name (:meth:`RuleSet.named
    <biriba.RuleSet.named>`) or a dict (:meth:`RuleSet.from_dict
    <biriba.RuleSet.from_dict>`); :class:`~biriba.BiribaError` otherwise."""
    if isinstance(data, str):
        return RuleSet.named(data)
    if isinstance(data, Mapping):
        return RuleSet.from_dict(data)
    raise BiribaError(
        f"rules must be a preset's name or a rule set's dict, got {type(data).__name__}"
    )


def full_pack(rules: RuleSet | None = None) -> tuple[Card, ...]:
    """The rule set's whole pack in a fixed order: each deck's 52 cards, then the jokers.

    ``full_pack()`` is the 108 cards of ``biriba`` (B1.2).
    """
    if rules is None:
        rules = BIRIBA
    if not isinstance(rules, RuleSet):
        raise TypeError(f"full_pack expects a RuleSet, got {type(rules).__name__}")
    return CARDS[:JOKER_INDEX] * rules.decks + (JOKER,) * rules.jokers
