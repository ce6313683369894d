"""Every meld a hand can lay: :func:`~biriba.enumerate_melds`, built on card counts (B3.1 to B3.6).

The groups of one rank depend only on that rank's cards and the substitutes in hand, and
the sequences of one suit only on which of its ranks the hand holds and the substitutes:
both are cached under those, as a ``Part`` per rank or suit, so a card drawn costs the
work of one suit and one rank. Sequences have two enumerators: a faster one, cached so,
for every hand that can put at most one substitute in a meld (every hand under the
``biriba`` rule, B3.3), and a general one, uncached, for hands that can put more under
variants allowing it (V7, Z3.4). A test checks that both agree; ``_sequences_of_suit``
gives the figures for keeping both.

Every cache is bounded: the parts of at most ``_PLAN_LIMIT`` rule sets are kept, at most
``_PART_CACHE_LIMIT`` for each; a full cache is emptied with the rule set's table of
melds, and with them all that was worked out from those melds (``_store``).
What a part that is not cached yet is made from (which
runs of ranks a suit's row can fill, a rank's sets of naturals, the choices of
substitutes) comes from small tables kept for the process, each bounded by
``functools.lru_cache``; ``clear_caches()`` leaves them, ``clear_tables()`` empties
them too.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Sequence
from typing import Any, Final

from biriba.cards import CARDS, Card, counts_of
from biriba.errors import BiribaError
from biriba.limits import MAX_LISTED_MELDS, check_count, excerpt
from biriba.making import lay_unchecked
from biriba.melds import ONE_PLACE, Meld, MeldKind, group_places
from biriba.melds import clear_tables as clear_meld_tables
from biriba.moves import LayMeld
from biriba.native import is_compiled
from biriba.rules import BIRIBA, RuleSet, check_rules, cited, full_pack

__all__ = [
    "enumerate_melds",
    "many_substitute_sequences_bound",
    "melds_from_counts",
    "melds_from_counts_unchecked",
]


#: The substitutes in a hand as ``(card index, count)`` pairs, those it holds only, in
#: the order of :attr:`RuleSet.wild_indices <biriba.RuleSet.wild_indices>`.
Pairs = tuple[tuple[int, int], ...]


def enumerate_melds(hand: Iterable[Card], rules: RuleSet = BIRIBA) -> tuple[Meld, ...]:
    """Every distinct meld that can be laid from ``hand`` (a multiset of cards), each once.

    The melds respect the rule set's size limits for a new meld (B3.1; Z3.2). The result
    is built on card counts, not by trying subsets; the melds of one suit and of one rank
    are cached under that suit's or rank's cards. A hand holding more copies of a card
    than the rule set's pack raises :class:`~biriba.BiribaError` (B1.2).
    """
    check_rules(rules)
    counts = [0] * 53
    most = rules.pack_size
    for n, card in enumerate(hand):
        if not isinstance(card, Card):
            raise TypeError(f"enumerate_melds expects cards, got {type(card).__name__}")
        if n == most:  # read no further: an endless iterable would never end
            rule = cited(rules, "B1.2")
            raise BiribaError(
                f"{rule}: the hand holds more cards than the pack's {most}", rule=rule
            )
        counts[card.index] += 1
    check_copies(counts, rules)
    return melds_from_counts_unchecked(bytes(counts), rules)


def check_copies(counts: Sequence[int], rules: RuleSet, holder: str = "the hand") -> None:
    """Raise :class:`~biriba.BiribaError` (B1.2) if ``counts`` (53 card counts, those of
    ``holder``, named in the message) hold more copies of a card than the rule set's
    pack."""
    for card, count in zip(CARDS, counts, strict=True):
        most = rules.copies(card)
        if count > most:
            rule = cited(rules, "B1.2")
            raise BiribaError(
                f"{rule}: {holder} holds {excerpt(count)} copies of {card}, the pack only {most}",
                rule=rule,
            )


def melds_from_counts(counts: Sequence[int], rules: RuleSet) -> tuple[Meld, ...]:
    """:func:`~biriba.enumerate_melds` on 53 card counts (indexed by :attr:`Card.index
    <biriba.Card.index>`): ``bytes``, as the engine holds hands, or a sequence of ints.

    Checked: :class:`TypeError` for anything but 53 whole numbers (of any integer type),
    and
    :class:`~biriba.BiribaError` for a count below 0 or above the pack's copies of its
    card (B1.2). :func:`melds_from_counts_unchecked` is the same for counts known good.
    """
    check_rules(rules)
    try:  # any sized sequence of integers (a NumPy array too), not a text
        if isinstance(counts, str):
            raise TypeError
        length = len(counts)
        iter(counts)
    except TypeError:
        raise TypeError(f"counts are a sequence of 53 ints, got {type(counts).__name__}") from None
    if length != 53:
        raise BiribaError(f"counts are 53, one for each card, got {length:,}")
    numbers = [check_count(count, "a card's count", 0) for count in counts]
    check_copies(numbers, rules)
    return melds_from_counts_unchecked(bytes(numbers), rules)


def melds_from_counts_unchecked(counts: Sequence[int], rules: RuleSet) -> tuple[Meld, ...]:
    """:func:`melds_from_counts` without its checks, for callers whose counts are a
    hand's (the engine, the bots' heuristics): anything else may give wrong melds or an
    error from inside."""
    out: list[Meld] = []
    for part in parts_and_substitutes(counts, rules)[0]:
        out += part.melds
    return tuple(out)


def parts_and_substitutes(counts: Sequence[int], rules: RuleSet) -> tuple[list[Part], int]:
    """The melds of a hand of card counts, a :class:`Part` per suit and per rank, and how
    many substitutes the hand holds (the move generator offers a hand without any only
    the natural additions).

    Groups come first, rank by rank, then sequences, suit by suit. A rank's groups are
    cached under its counts by suit and the substitutes in hand; a suit's sequences (with
    at most one substitute, B3.3) under which of its ranks the hand holds and the
    substitutes. A hand that can put more substitutes in a meld (V7, Z3.4) has its
    sequences listed uncached, as one part.
    """
    # The plan of the rule set asked of last, found by identity: a RuleSet's hash is a
    # Python function (about a fifth of a microsecond), and a program asks of one or two.
    # (The pair is replaced whole, so that threads never pair one's rules with another's
    # plan.)
    recent_rules, plan = _RECENT_PLAN[0]
    if recent_rules is not rules or plan is None:
        plan = _PLANS.get(rules)
        if plan is None:
            plan = _plan_for(rules)
        _RECENT_PLAN[0] = (rules, plan)
    # The hand as bytes, one a card (the engine's hands are bytes already: this is then
    # the same object): the cache keys are bytes too (compiled, numbers), which hash at
    # once and which the garbage collector never has to visit.
    raw = counts if type(counts) is bytes else bytes(counts)
    # How many of each substitute the hand holds, in the order of rules.wild_indices, and
    # what follows from them, worked out once for each such key (the key among them).
    if _INDEXED_READS:
        # Compiled, read one by one into a number: slicing (below) is a generic call.
        code = 0
        for i in plan.wild_idx:
            code = code << 8 | raw[i]
        coded = plan.by_code.get(code)
        if coded is None:
            coded = plan.held_by_code(code, _wild_key(raw, plan))
        held = coded
    else:
        wild_key = _wild_key(raw, plan)
        found_held = plan.substitutes.get(wild_key)
        if found_held is None:
            found_held = plan.held(wild_key)
        held = found_held
    n_wild, sub_cap, need, at_least, skipped, rank_tails, suit_tails, wild_key, numbered = held
    cache = plan.cache
    out: list[Part] = []
    found: Part | None
    key: bytes | int
    enough_bits = presence = 0
    if _INDEXED_READS:
        # Compiled, the ranks with enough cards for a group and the ranks held in each
        # suit as bits, from one reading of the hand's bytes by index: the cache keys are
        # numbers (below), whose hash is the number itself.
        enough_bits, presence = _hand_bits(raw, need)
    if plan.groups:
        # The ranks with enough cards for a group (most have too few), as the tuple of
        # their indices, found from a byte per rank (1 for enough) or, compiled, a bit.
        if _INDEXED_READS:
            ranks = _MASKED[enough_bits]
            if ranks is None:
                ranks = _masked(enough_bits)
        else:
            enough = _rank_totals(raw).translate(at_least)
            ranks = _FLAGGED.get(enough)
            if ranks is None:
                ranks = _flagged(enough)
        for c in ranks:
            # The rank's counts by suit, then the substitutes and the rank (rank_tails
            # holds no tail for a rank whose cards are substitutes, B3.5).
            tail = rank_tails[c]
            if tail is not None:
                if _INDEXED_READS:
                    # The same as a number: the substitutes' number, the rank, a byte
                    # for each suit's count, the lowest bit 0 for a rank.
                    key = (
                        numbered
                        | c << 33
                        | raw[c] << 25
                        | raw[c + 13] << 17
                        | raw[c + 26] << 9
                        | raw[c + 39] << 1
                    )
                else:
                    key = raw[c:52:13] + tail
                found = cache.get(key)
                if found is None:
                    # (Unpacked, not passed on with *: compiled, a call with * goes
                    # through the interpreter's generic call.)
                    lays, longest = _groups_of_rank(c, raw[c:52:13], plan, wild_key, sub_cap)
                    found = _store(plan, key, lays, longest)
                if found is not _NO_MELDS:
                    out.append(found)
    # A suit's sequences with at most one substitute depend on which of its ranks the
    # hand holds, not on how many copies: the key is the suit's row of presence bytes
    # (compiled, its bits). The rows that can hold no sequence with that many
    # substitutes (most suits of a hand, those with fewer than two ranks among them) are
    # known without a key or a look-up in the cache: ``skipped``, by suit (compiled, the
    # runs of ranks by bits, none for such a row).
    if _INDEXED_READS:
        one_cap = min(sub_cap, 1)
        by_bits = plan.bit_windows[one_cap]
        for suit in range(4):
            base = suit * 13
            bits = presence >> base & _ROW_BITS
            found_windows = by_bits[suit][bits]
            if found_windows is None:
                found_windows = _suit_windows_of(_row_of_bits(bits), plan, base, one_cap, bits)
            if not found_windows:
                continue
            # The substitutes' number, the suit, its ranks, the lowest bit 1 for a suit.
            key = numbered | suit << 14 | bits << 1 | 1
            found = cache.get(key)
            if found is None:
                lays, longest = _sequences_of_suit(
                    base, found_windows, rules, plan, wild_key, one_cap
                )
                found = _store(plan, key, lays, longest)
            if found is not _NO_MELDS:
                out.append(found)
    else:
        present = raw.translate(_PRESENT)
        for suit in range(4):
            base = suit * 13
            row = present[base : base + 13]
            hopeless = skipped[suit]
            if row in hopeless:
                continue
            # The suit's presence row, the substitutes, and the suit (a key longer than
            # any rank's).
            key = row + suit_tails[suit]
            found = cache.get(key)
            if found is None:
                one_cap = min(sub_cap, 1)
                windows = plan.row_windows[one_cap][suit].get(row)
                if windows is None:
                    windows = _suit_windows_of(row, plan, base, one_cap)
                if not windows:
                    hopeless.add(row)
                    continue
                lays, longest = _sequences_of_suit(base, windows, rules, plan, wild_key, one_cap)
                found = _store(plan, key, lays, longest)
            if found is not _NO_MELDS:
                out.append(found)
    if sub_cap > 1:
        # Sequences with two substitutes or more (V7, Z3.4): the general enumerator.
        general: list[Meld] = []
        _enumerate_sequences(raw, rules, plan.pairs(wild_key), sub_cap, general, 2)
        if general:
            out.append(Part(tuple(map(lay_unchecked, general))))
    if plan.wild_melds and n_wild >= plan.min_meld:
        # Z3.7: melds of substitutes only, cached under the substitutes in hand.
        key = wild_key + _WILD_TAG
        found = cache.get(key)
        if found is None:
            found = _store(
                plan,
                key,
                tuple(map(lay_unchecked, _wild_melds(plan.pairs(wild_key), n_wild, rules))),
            )
        if found is not _NO_MELDS:
            out.append(found)
    return out, n_wild


#: The end of the cache key of a hand's melds of substitutes only (a key shorter than
#: any rank's or suit's).
_WILD_TAG: Final = b"W"


def _wild_melds(wilds: Pairs, n_wild: int, rules: RuleSet) -> tuple[Meld, ...]:
    """Every meld of substitutes only (Z3.7) that the substitutes ``wilds`` (``(index,
    count)`` pairs) can lay: from ``min_meld`` cards to ``max_new_meld`` (Z3.2)."""
    most = n_wild if rules.max_new_meld is None else min(n_wild, rules.max_new_meld)
    out = []
    for size in range(rules.min_meld, most + 1):
        places = group_places(0, size)
        for subs in _sub_multisets(wilds, size):
            cards = tuple(CARDS[i] for i in subs)
            out.append(Meld.unchecked(MeldKind.WILD, cards, rules, 0, 0, places))
        if len(out) > MAX_LISTED_MELDS:
            raise _too_many(rules, "melds of substitutes only (Z3.7)")
    return tuple(out)


# ------------------------------------------------------------ parts and their caches


class Part:
    """The melds of one suit or one rank, as the cache keeps them.

    ``longest`` is the number of cards of the longest of them; ``lays`` holds a
    :class:`~biriba.LayMeld` for each meld, in the same order, so that a cached part also
    spares the move generator the making of its moves.
    """

    __slots__ = ("lays", "longest")

    def __init__(self, lays: tuple[LayMeld, ...], longest: int = -1) -> None:
        """The part of the melds ``lays`` lay; ``longest``, when the enumerator knows it
        (not negative), spares working it out."""
        #: The move that lays each meld.
        self.lays = lays
        if longest < 0:
            longest = max([len(lay.meld.cards) for lay in lays]) if lays else 0
        #: The number of cards of the longest meld (0 for none).
        self.longest = longest

    @property
    def melds(self) -> tuple[Meld, ...]:
        """The melds, in the order of :attr:`lays` (made when asked: the move generator
        reads only the moves)."""
        return tuple([lay.meld for lay in self.lays])


#: The cached part of a suit or rank that has no meld (never handed out).
_NO_MELDS: Final = Part(())


def _store(plan: _Plan, key: bytes | int, lays: tuple[LayMeld, ...], longest: int = -1) -> Part:
    """Cache the part of the melds ``lays`` lay under ``key`` in ``plan``'s cache
    (``longest``, the cards of the longest meld, worked out here unless given).

    A full cache (:data:`_PART_CACHE_LIMIT`) is emptied first, and the plan's table of
    melds with it. Each meld keeps what was worked out from it (its extensions, which keep
    theirs in turn: the melds a table's meld grows into), chains that grow deal after
    deal while the table's own count hardly moves (4,000 random Buraco deals left 125,000
    melds in the chains of 12,000 in the table). Emptied together, every meld no deal
    holds goes, with all that hangs from it, so that a long run's memory stays bounded.
    (Checked here, where a part is new, rather than at each hand's look-up: the melds of
    this part, put in the table before the check, are then in the part but not in the
    new table, and a later part that meets them makes them again, equal.)"""
    cache = plan.cache
    if len(cache) >= _PART_CACHE_LIMIT:
        cache.clear()
        plan.lays.clear()
        _EMPTIED[0] += 1
    found = cache[key] = Part(lays, longest) if lays else _NO_MELDS
    return found


#: How many times a plan's cache of parts and table of melds were emptied when full
#: (:func:`_store`): the engine's look-ahead answers hold melds of the table, and go too
#: (:func:`times_emptied`).
_EMPTIED: Final[list[int]] = [0]


def times_emptied() -> int:
    """How many times a rule set's cache of parts was emptied when full, and its table of
    melds with it (:func:`_store`): what else keeps melds of the table (the
    engine's cache of look-ahead answers) empties itself when this changes, so that the
    melds no deal holds go, with all that hangs from them."""
    return _EMPTIED[0]


def _interned(
    lays: dict[int, LayMeld],
    key: int,
    kind: MeldKind,
    cards: tuple[Card, ...],
    rules: RuleSet,
    suit_or_rank: int,
    low: int,
    subs: tuple[int, ...],
) -> LayMeld:
    """The move laying the meld the enumerator knows by ``key`` (the rest are its parts,
    as :meth:`Meld.unchecked <biriba.Meld.unchecked>` takes them): made once, then found
    again under ``key``, so that a meld met in many hands is one object whose extensions
    and look-aheads are worked out once. A full table is emptied first."""
    if len(lays) >= _MELD_TABLE_LIMIT:
        lays.clear()
    lay = lays[key] = lay_unchecked(Meld.unchecked(kind, cards, rules, suit_or_rank, low, subs))
    return lay


#: How many melds a rule set's table of melds keeps before it is emptied and starts again:
#: a thousand random deals of ``biriba`` meet about 6,000.
_MELD_TABLE_LIMIT: Final = 100_000


#: How many parts a rule set's cache holds before it is emptied and starts again. A
#: thousand random deals of ``biriba`` meet about 35,000 (the process grows by about
#: 24 MB); with 5,000 kept, 200 deals spent 6.5% more instructions. (Not ``Final``, which
#: the compiled build would fix: tests lower it.)
_PART_CACHE_LIMIT = 50_000


class _Plan:
    """What :func:`parts_and_substitutes` reads of a rule set, worked out once, and its cache of
    parts (at most :data:`_PART_CACHE_LIMIT` of them)."""

    __slots__ = (
        "at_least",
        "bit_windows",
        "by_code",
        "cache",
        "choices",
        "group_bounds",
        "group_span",
        "groupable",
        "groups",
        "lays",
        "min_meld",
        "naturals",
        "no_runs",
        "row_windows",
        "rules",
        "substitutes",
        "suit_shapes",
        "wild_first",
        "wild_idx",
        "wild_melds",
        "wild_pairs",
        "wild_second",
    )

    def __init__(self, rules: RuleSet) -> None:
        #: The rule set.
        self.rules = rules
        #: The rule set's fields that every hand reads, copied here, where the compiled
        #: build reads them without a look-up by name: whether groups are allowed (B3.1,
        #: V2), whether melds of substitutes only are (Z3.7), and the fewest cards of a
        #: new meld.
        self.groups = rules.groups
        self.wild_melds = rules.wild_melds
        self.min_meld = rules.min_meld
        #: The card indices of the substitutes (B1.3, Z1.2).
        self.wild_idx = rules.wild_indices
        #: Two slices of a hand's bytes that give, one after the other, the counts of its
        #: substitutes in the order of ``wild_idx`` (the twos, 13 apart, then the joker).
        self.wild_first, self.wild_second = _two_runs(self.wild_idx)
        #: For each rank index 0..12, whether groups of that rank exist: not of a rank
        #: whose cards are substitutes (B3.5).
        self.groupable = tuple(
            not any(rules.is_wild(card) for card in CARDS[c:52:13]) for c in range(13)
        )
        #: For each number of substitutes usable, maps a rank's count to 1 if a group of
        #: that rank may be possible, else 0.
        most = sum(rules.copies(CARDS[i]) for i in self.wild_idx)
        self.at_least = tuple(_at_least(max(2, rules.min_meld - subs)) for subs in range(most + 1))
        self.cache: dict[bytes | int, Part] = {}
        #: The melds of the cached enumerators, each laid by one move, under a key naming
        #: the meld (:func:`_interned`): every part that holds a meld holds the same one.
        self.lays: dict[int, LayMeld] = {}
        #: The substitutes of each ``wild_key`` met, as :meth:`pairs` gives them.
        self.wild_pairs: dict[bytes, Pairs] = {}
        #: For each suit, what :func:`_sequences_of_suit` reads of the rule set: whether
        #: its two stands natural at rank 2 though a substitute (B3.6), whether it is a
        #: substitute even there (V7), whether the ace may stand low, the shortest and
        #: longest new sequence (B3.1, Z3.2) and the lowest and highest rank (14: the ace,
        #: high).
        lowest, highest, longest = _sequence_span(rules)
        self.suit_shapes = tuple(
            (
                rules.is_wild(CARDS[base + 1]) and not rules.twos_always_wild,
                rules.is_wild(CARDS[base + 1]) and rules.twos_always_wild,
                rules.ace_low,
                rules.min_meld,
                longest,
                lowest,
                highest,
            )
            for base in (0, 13, 26, 39)
        )

        #: For 0 and 1 substitutes, by suit, the rows of ranks in hand (as
        #: :func:`_row_windows` takes them) that can hold no sequence of that suit: kept
        #: for the process, like the runs of ranks (they depend on the ranks and the
        #: rule set alone; 8,192 rows of 13 ranks at most in each set), and emptied by
        #: :func:`clear_tables`.
        self.no_runs: tuple[tuple[set[bytes], ...], ...] = tuple(
            tuple(_few_ranks() for _ in range(4)) for _ in range(2)
        )
        #: For 0 and 1 substitutes, by suit, the runs of ranks (:func:`_row_windows`) of
        #: each row of ranks in hand met, kept for the process like :attr:`no_runs` (at
        #: most :data:`_ROWS_LIMIT` each): one table for the suits of the same shape.
        self.row_windows: tuple[tuple[dict[bytes, Windows], ...], ...] = tuple(
            _by_shape(self.suit_shapes) for _ in range(2)
        )
        #: The compiled build's :attr:`row_windows` and :attr:`no_runs` in one: for 0 and
        #: 1 substitutes, by suit, the runs of ranks of each row of ranks in hand met,
        #: indexed by the row as bits (bit ``r - 1`` for rank ``r``), ``None`` for a row not
        #: met yet and no runs for a row that can hold no sequence. (Empty in pure Python,
        #: which keys the tables by the row's bytes.)
        self.bit_windows: tuple[tuple[list[Windows | None], ...], ...] = (
            tuple(_lists_by_shape(self.suit_shapes) for _ in range(2)) if _INDEXED_READS else ()
        )
        #: For each ``wild_key`` met (at most :data:`_SUBSTITUTES_LIMIT`), what
        #: :meth:`held` works out of it; and the same under the counts of the
        #: substitutes as one number, 8 bits each (the compiled build's key).
        self.substitutes: dict[bytes, Held] = {}
        self.by_code: dict[int, Held] = {}
        #: For each rank index, :func:`_natural_sets` of each of its counts by suit met,
        #: and for each ``wild_key`` met, :func:`_sub_choices` of its substitutes (tables
        #: read by :func:`_groups_of_rank`: a function kept by ``functools.lru_cache``
        #: is, compiled, a generic call of the interpreter's).
        self.naturals: tuple[dict[bytes, NaturalSets], ...] = tuple({} for _ in range(13))
        self.choices: dict[bytes, SubChoices] = {}
        #: :func:`_substitute_counts` of the rule set for each ``sub_cap``: read by
        #: :func:`_groups_of_rank` (:meth:`substitute_bounds`).
        self.group_bounds: dict[int, tuple[tuple[int, int], ...]] = {}
        #: Above the numbers :func:`_natural_sets` gives (B1.2: a hand holds at most
        #: ``decks`` copies of a card): the factor of a group's substitutes in its key.
        self.group_span = (rules.decks + 1) ** 4 << 4

    def held(self, wild_key: bytes) -> Held:
        """What :func:`parts_and_substitutes` reads of the substitutes in a hand, from
        their counts in the order of :attr:`wild_idx`, kept in :attr:`substitutes`: how
        many there are; how many one meld may take (``sub_cap``: B3.3, Z3.4, V7); how
        many cards of a rank a group with that many needs, and the table that marks the
        ranks with that many (:func:`_at_least`); by
        suit, the rows of ranks that can hold no sequence with at most one of them
        (:attr:`no_runs`); the tails of the cache keys, by rank (``None`` for a
        rank of substitutes, which has no groups, B3.5) and by suit; ``wild_key``; and
        a number of its own (:data:`_HELD_NUMBERS`, shifted above the rest of the
        compiled build's cache keys), which never names other substitutes, even after
        the tables are emptied."""
        n_wild = sum(wild_key)
        max_subs = self.rules.max_substitutes
        sub_cap = n_wild if max_subs is None or max_subs > n_wild else max_subs
        held: Held = (
            n_wild,
            sub_cap,
            max(2, self.rules.min_meld - sub_cap),
            self.at_least[sub_cap],
            self.no_runs[min(sub_cap, 1)],
            tuple(wild_key + _TAGS[c] if self.groupable[c] else None for c in range(13)),
            tuple(wild_key + _TAGS[base] for base in (0, 13, 26, 39)),
            wild_key,
            next(_HELD_NUMBERS) << _NUMBER_SHIFT,
        )
        if len(self.substitutes) >= _SUBSTITUTES_LIMIT:
            self.substitutes.clear()
        self.substitutes[wild_key] = held
        return held

    def natural_sets(self, c: int, per_suit: bytes) -> NaturalSets:
        """:func:`_natural_sets` of the rank of index ``c`` held ``per_suit``, kept in
        :attr:`naturals`."""
        table = self.naturals[c]
        if len(table) >= _NATURALS_LIMIT:
            table.clear()
        # (At most 17 ** 4 = 83,521 sets, a rank held 16 times in each suit: MAX_DECKS.
        # A new meld's most cards, where there is one, leaves out the longer ones.)
        rules = self.rules
        found = table[per_suit] = _natural_sets(c + 1, per_suit, rules.decks, rules.max_new_meld)
        return found

    def sub_choices(self, wild_key: bytes, sub_cap: int) -> SubChoices:
        """:func:`_sub_choices` of the substitutes ``wild_key`` holds, ``sub_cap`` of them
        to a meld, kept in :attr:`choices`: as many as a group can take, no more (never
        more than its naturals, B3.3, Z3.4, V7, at most the copies of a rank, B1.2, and
        within a new meld's length, Z3.2)."""
        if len(self.choices) >= _SUBSTITUTES_LIMIT:
            self.choices.clear()
        rules = self.rules
        most = min(sub_cap, 4 * rules.decks)
        if rules.max_new_meld is not None:
            most = min(most, rules.max_new_meld // 2)
        found = self.choices[wild_key] = _sub_choices(self.pairs(wild_key), most)
        return found

    def substitute_bounds(self, sub_cap: int) -> tuple[tuple[int, int], ...]:
        """:func:`_substitute_counts` of this rule set's groups, ``sub_cap`` substitutes
        to a meld, kept in :attr:`group_bounds` (a few values of ``sub_cap`` at most)."""
        rules = self.rules
        found = self.group_bounds[sub_cap] = _substitute_counts(
            sub_cap, self.min_meld, rules.max_new_meld, 4 * rules.decks
        )
        return found

    def held_by_code(self, code: int, wild_key: bytes) -> Held:
        """:meth:`held` of ``wild_key``, kept in :attr:`by_code` under ``code``, the same
        counts as one number."""
        found = self.substitutes.get(wild_key)
        if found is None:
            found = self.held(wild_key)
        if len(self.by_code) >= _SUBSTITUTES_LIMIT:
            self.by_code.clear()
        self.by_code[code] = found
        return found

    def pairs(self, wild_key: bytes) -> Pairs:
        """The substitutes in hand as ``(index, count)`` pairs, from their counts in the
        order of :attr:`wild_idx`: made once for each ``wild_key`` (a few hundred at most)."""
        found = self.wild_pairs.get(wild_key)
        if found is None:
            found = self.wild_pairs[wild_key] = tuple(
                [(i, c) for i, c in zip(self.wild_idx, wild_key, strict=True) if c]
            )
        return found


#: What :meth:`_Plan.held` works out of the substitutes in a hand: their number, how
#: many one meld may take, the cards of a rank a group needs and the table of ranks with
#: that many, by suit the rows of ranks that hold no sequence, the cache keys' tails by
#: rank and by suit, the counts of the substitutes (``wild_key``) themselves, and the
#: number standing for them in the compiled build's cache keys.
Held = tuple[
    int,
    int,
    int,
    bytes,
    tuple[set[bytes], ...],
    tuple[bytes | None, ...],
    tuple[bytes, ...],
    bytes,
    int,
]

#: Numbers the substitutes of hands (:meth:`_Plan.held`), one for each kind met, never
#: the same twice in a process (``next`` of a count is one step, even under threads).
_HELD_NUMBERS: Final = itertools.count(1)

#: Where a held's number starts in the compiled build's cache keys: above the 38 bits of
#: a rank's key (its index and four counts of 8 bits, and the bit telling a rank's from
#: a suit's), so that a key stays a machine word for the first 2**24 kinds of
#: substitutes.
_NUMBER_SHIFT: Final = 38

#: The bits of one suit's row of ranks (13).
_ROW_BITS: Final = (1 << 13) - 1


def _wild_key(raw: bytes, plan: _Plan) -> bytes:
    """How many of each substitute the hand ``raw`` holds, in the order of the rule set's
    ``wild_indices``: two slices of the hand (through an untyped name: mypyc 2.4 reads a
    slice held in a name as an integer index)."""
    hand: Any = raw
    found: bytes = hand[plan.wild_first] + hand[plan.wild_second]
    return found


#: How many kinds of hands' substitutes a plan keeps what it worked out of (``biriba``
#: has 405 at most: up to two of each two and four jokers).
_SUBSTITUTES_LIMIT: Final = 4096


def _by_shape(shapes: tuple[object, ...]) -> tuple[dict[bytes, Windows], ...]:
    """A new table for each suit, the same one for suits of equal ``shapes``."""
    tables: dict[object, dict[bytes, Windows]] = {}
    return tuple(tables.setdefault(shape, {}) for shape in shapes)


def _lists_by_shape(shapes: tuple[object, ...]) -> tuple[list[Windows | None], ...]:
    """:func:`_by_shape` for :attr:`_Plan.bit_windows`: for each suit a list of a slot
    for each row of ranks as bits, the same list for suits of equal ``shapes``."""
    lists: dict[object, list[Windows | None]] = {}
    return tuple(lists.setdefault(shape, [None] * (_ROW_BITS + 1)) for shape in shapes)


def _row_of_bits(bits: int) -> bytes:
    """The row of ranks (13 bytes, 1 for each rank in hand) of the same ranks as ``bits``
    (bit ``r - 1`` for rank ``r``)."""
    return bytes([bits >> r & 1 for r in range(13)])


def _few_ranks() -> set[bytes]:
    """A new set of the suit rows (13 bytes, 1 for each rank in hand) with fewer than two
    ranks: no sequence has fewer than two naturals (B3.3, Z3.4), so that
    :func:`parts_and_substitutes` skips them as rows known to hold none."""
    rows = {bytes(13)}
    for r in range(13):
        rows.add(bytes(13)[:r] + b"\1" + bytes(13)[r + 1 :])
    return rows


#: The plan of each rule set in use, at most :data:`_PLAN_LIMIT` of them, oldest first.
_PLANS: Final[dict[RuleSet, _Plan]] = {}


#: How many rule sets' plans (and so part caches) are kept: when one more is needed, the
#: one made longest ago is dropped. A program uses one or two rule sets; a test of many
#: variants only rebuilds a plan it comes back to.
_PLAN_LIMIT: Final = 16


#: The rule set :func:`parts_and_substitutes` was last asked of and its plan, as one
#: pair in a list of one (a plan taken out of :data:`_PLANS` is used no more once
#: :func:`clear_caches` or :func:`_plan_for` has run).
_RECENT_PLAN: Final[list[tuple[RuleSet | None, _Plan | None]]] = [(None, None)]


def _flagged(flags: bytes) -> tuple[int, ...]:
    """The indices of the 1 bytes of ``flags`` (0 or 1 each), kept in :data:`_FLAGGED`."""
    found = _FLAGGED[flags] = tuple([i for i, flag in enumerate(flags) if flag])
    return found


#: :func:`_flagged` of each row of flags met: 8,192 rows of 13 at most.
_FLAGGED: Final[dict[bytes, tuple[int, ...]]] = {}


def _hand_bits(raw: bytes, need: int) -> tuple[int, int]:
    """The ranks of which the 53 count bytes ``raw`` hold ``need`` cards or more, all
    suits together, as bits (bit ``c`` for rank index ``c``), and the cards they hold at
    least one copy of (bit ``i`` for card index ``i`` below 52): the compiled build's way
    of :func:`_rank_totals` and its table, whose integer arithmetic on 424 bits,
    compiled, goes through the interpreter's generic calls (a sixth of the instructions
    of :func:`parts_and_substitutes`, counted), and of ``bytes.translate`` and a slice
    for each suit."""
    enough = 0
    present = 0
    for c in range(13):
        clubs = raw[c]
        diamonds = raw[c + 13]
        hearts = raw[c + 26]
        spades = raw[c + 39]
        if clubs + diamonds + hearts + spades >= need:
            enough |= 1 << c
        if clubs:
            present |= 1 << c
        if diamonds:
            present |= 1 << (c + 13)
        if hearts:
            present |= 1 << (c + 26)
        if spades:
            present |= 1 << (c + 39)
    return enough, present


def _masked(mask: int) -> tuple[int, ...]:
    """The indices of the bits of ``mask``, kept in :data:`_MASKED`."""
    found = _MASKED[mask] = tuple([c for c in range(13) if mask >> c & 1])
    return found


#: :func:`_masked` of each mask met, indexed by the mask (``None`` for one not met yet):
#: read by index, a compiled build's few instructions, where a dict hashes and compares.
_MASKED: Final[list[tuple[int, ...] | None]] = [None] * (_ROW_BITS + 1)

#: Whether :func:`parts_and_substitutes` reads a hand's bytes one by one, for the ranks
#: with cards enough for a group and the ranks held in each suit (:func:`_hand_bits`),
#: for the counts of its substitutes (a number keying :attr:`_Plan.by_code`) and for the
#: cache keys of its ranks, and keys its parts by numbers: compiled, reading a byte by
#: index is a few machine instructions, and a number's hash is the number. In pure
#: Python each read is a step of the interpreter, and a few operations on one integer
#: (:func:`_rank_totals`), a translation and slices of bytes do it faster.
_INDEXED_READS: Final = is_compiled(_flagged)


def clear_caches() -> None:
    """Forget every cached part and every meld of the tables, so that the next hands are
    enumerated from nothing (for measurements of a cold start)."""
    _RECENT_PLAN[0] = (None, None)
    for plan in _PLANS.values():
        plan.cache.clear()
        plan.lays.clear()


def clear_tables() -> None:
    """Forget, beside what :func:`clear_caches` forgets, the tables a process keeps once
    made: those worked out from a suit's ranks in hand, a rank's counts and the
    substitutes (the runs of ranks a suit can fill, the sets of naturals, the choices of
    substitutes, and the general enumerator's), and the candidates of each shape of meld
    (:func:`biriba.melds.clear_tables`). For measurements of a first call in a fresh
    process; play never needs it."""
    clear_caches()
    for plan in _PLANS.values():
        for by_suit in plan.no_runs:
            for rows in by_suit:
                rows.clear()
                rows |= _few_ranks()
        plan.substitutes.clear()
        plan.by_code.clear()
        plan.choices.clear()
        plan.group_bounds.clear()
        for naturals in plan.naturals:
            naturals.clear()
        for by_suit_rows in plan.row_windows:
            for table in by_suit_rows:
                table.clear()
        for by_suit_bits in plan.bit_windows:
            for slots in by_suit_bits:
                slots[:] = [None] * len(slots)
    _FLAGGED.clear()
    _MASKED[:] = [None] * len(_MASKED)
    for cached in (
        _sub_multisets,
        _suit_windows,
        _substituted_places,
        _sub_assignments,
    ):
        cached.cache_clear()
    clear_meld_tables()


def _plan_for(rules: RuleSet) -> _Plan:
    """A new plan for ``rules``, kept in :data:`_PLANS` (dropping the oldest when full)."""
    if len(_PLANS) >= _PLAN_LIMIT:
        del _PLANS[next(iter(_PLANS))]
        _RECENT_PLAN[0] = (None, None)
    plan = _PLANS[rules] = _Plan(rules)
    return plan


# ------------------------------------------------------------ counting on bytes


#: One byte naming a rank (by its index 0..12) or a suit (by its first card's index).
_TAGS: Final = tuple(bytes((i,)) for i in range(53))


#: Maps a count to 1 if the card is present, else 0 (for ``bytes.translate``).
_PRESENT: Final = bytes(int(n > 0) for n in range(256))


def _two_runs(indices: tuple[int, ...]) -> tuple[slice, slice]:
    """``indices`` as two slices, each a run of evenly spaced increasing indices (the
    second possibly empty): ``raw[first] + raw[second]`` reads the bytes at ``indices``
    as quickly as a slice written in place. The substitutes' indices are such runs."""
    runs = _even_runs(indices)
    if not 1 <= len(runs) <= 2:  # pragma: no cover - wild_indices are twos then the joker
        raise ValueError(f"indices {indices} are not one or two evenly spaced runs")
    return runs[0], runs[1] if len(runs) == 2 else slice(0, 0)


def _even_runs(indices: tuple[int, ...]) -> list[slice]:
    """``indices`` as slices, each taking a run of evenly spaced increasing indices (the
    longest from where the one before ends); empty if the indices do not increase."""
    runs: list[slice] = []
    i, n = 0, len(indices)
    while i < n:
        step = indices[i + 1] - indices[i] if i + 1 < n else 1
        if step <= 0:
            return []
        j = i  # the run is indices[i] to indices[j]
        while j + 1 < n and indices[j + 1] - indices[j] == step:
            j += 1
        runs.append(slice(indices[i], indices[j] + 1, step))
        i = j + 1
    return runs


@functools.lru_cache(maxsize=64)
def _at_least(need: int) -> bytes:
    """A ``bytes.translate`` table mapping a count to 1 if it is ``need`` or more, else 0.

    Shared by the plans: ``need`` runs from 2 to a rule set's ``min_meld`` (2 and 3 in the
    presets), so a few tables of 256 bytes are kept, 64 at most.
    """
    return bytes(int(n >= need) for n in range(256))


def _rank_totals(raw: bytes) -> bytes:
    """How many cards of each rank the 53 count bytes ``raw`` hold, all suits together:
    13 bytes, one per rank index 0..12 (the jokers' byte is left out).

    The bytes are read as one integer, and its four rows of 13 bytes (one per suit)
    added by shifting: each row onto the one before (rows 1 and 3 onto 0 and 2), then
    the third row's sums onto the first, two shifts and two additions for all ranks at
    once (three of each, shifting each row onto the first, took a fifth more of the
    call's instructions compiled). It is exact while no rank totals more than 255, so
    that nothing carries into the next rank (a hand holds at most ``4 * decks`` cards
    of a rank); what lands above the first row is cut off.
    """
    n = _from_bytes(raw, "little")
    n += n >> 104
    return ((n + (n >> 208)) & _THIRTEEN_BYTES).to_bytes(13, "little")


#: ``int.from_bytes``, bound once: the compiled build otherwise looks the method up on
#: ``int`` at every call.
_from_bytes: Final = int.from_bytes


#: The low 13 bytes of an integer: one row of :func:`_rank_totals`.
_THIRTEEN_BYTES: Final = (1 << 104) - 1


def _three_in_a_row(flags: bytes) -> bool:
    """Whether ``flags`` (one byte 0 or 1 per rank) holds three 1s in a row: three
    naturals of consecutive ranks, which a sequence of three or more cards without a
    substitute needs."""
    return b"\1\1\1" in flags


def _two_within_one(flags: bytes) -> bool:
    """Whether ``flags`` (one byte 0 or 1 per rank) holds two 1s with at most one byte
    between them: two naturals at most one rank apart, which a sequence of three or more
    cards with one substitute needs."""
    return b"\1\1" in flags or b"\1\0\1" in flags


# ------------------------------------------------------------ groups


def _groups_of_rank(
    c: int, per_suit: bytes, plan: _Plan, wild_key: bytes, sub_cap: int
) -> tuple[tuple[LayMeld, ...], int]:
    """The moves laying the groups of the rank of index ``c`` (rank ``c + 1``), given that
    rank's counts by suit and the counts of the substitutes (``wild_key``, of which a meld
    may take ``sub_cap``), and the number of cards of the longest (a :class:`Part`'s
    ``longest``); the melds are found in, or put into, the plan's table of melds
    (:func:`_interned`). The sets of naturals and the choices of substitutes come from
    the plan's tables (:meth:`_Plan.natural_sets`, :meth:`_Plan.sub_choices`)."""
    rules = plan.rules
    table = plan.lays
    rank = c + 1
    out: list[LayMeld] = []
    longest = 0
    sub_choices = plan.choices.get(wild_key)
    if sub_choices is None:
        sub_choices = plan.sub_choices(wild_key, sub_cap)
    naturals_sets = plan.naturals[c].get(per_suit)
    if naturals_sets is None:
        naturals_sets = plan.natural_sets(c, per_suit)
    # How many substitutes a group of each number of naturals may take.
    bounds = plan.group_bounds.get(sub_cap)
    if bounds is None:
        bounds = plan.substitute_bounds(sub_cap)
    # A rank held many times in many decks (more sets of naturals than three decks give)
    # has its groups counted before any is made, so that such a hand is refused at once,
    # as listing them would refuse it at the end. (Counting every rank's cost the
    # compiled build 0.6% of the instructions of random Buraco deals.)
    if (
        len(naturals_sets) > _MANY_NATURAL_SETS
        and _group_count(naturals_sets, sub_choices, bounds) > MAX_LISTED_MELDS
    ):
        raise _too_many(rules, f"groups of {CARDS[c].rank}s")
    # Above the numbers _natural_sets gives (B1.2: a hand holds at most ``decks`` copies
    # of a card), so that no two groups share a key.
    span = plan.group_span
    group = MeldKind.GROUP
    for naturals, number in naturals_sets:
        nat = len(naturals)
        # (No more substitutes than sub_choices holds: s <= nat, at most the copies of a
        # rank, and nat + s <= max_new when there is one: Plan.sub_choices.)
        least, beyond = bounds[nat]
        for s in range(least, beyond):
            size = nat + s
            places = group_places(nat, size)
            for subs, subs_number in sub_choices[s]:
                # The substitutes, then the naturals' copies by suit with the rank (the
                # number _natural_sets gives); the lowest bit 0 for a group.
                key = (subs_number * span + number) << 1
                lay = table.get(key)
                if lay is None:
                    lay = _interned(table, key, group, naturals + subs, rules, rank, 0, places)
                out.append(lay)
                if size > longest:
                    longest = size
        if len(out) > MAX_LISTED_MELDS:
            raise _too_many(rules, f"groups of {CARDS[c].rank}s")
    return tuple(out), longest


#: More sets of naturals of one rank than a hand of three decks holds (251 sets of two
#: or more, fewer than (3 + 1) ** 4): past it, :func:`_groups_of_rank` counts the groups
#: before making them.
_MANY_NATURAL_SETS: Final = 256


def _group_count(
    naturals_sets: NaturalSets,
    sub_choices: SubChoices,
    bounds: tuple[tuple[int, int], ...],
) -> int:
    """How many groups :func:`_groups_of_rank` lists from ``naturals_sets`` and
    ``sub_choices``, the numbers of substitutes for each number of naturals within
    ``bounds`` (:func:`_substitute_counts`), counted without making them."""
    by_size: dict[int, int] = {}
    for naturals, _ in naturals_sets:
        by_size[len(naturals)] = by_size.get(len(naturals), 0) + 1
    count = 0
    for nat, sets in by_size.items():
        least, beyond = bounds[nat]
        for s in range(least, beyond):
            count += sets * len(sub_choices[s])
    return count


def _substitute_counts(
    sub_cap: int, min_len: int, max_new: int | None, most_naturals: int
) -> tuple[tuple[int, int], ...]:
    """For each number ``nat`` of naturals up to ``most_naturals``, how many substitutes
    a group of them may take, as the bounds of a ``range``: at most ``sub_cap`` and no
    more than its naturals (B3.3, Z3.4, V7), from ``min_len`` cards to ``max_new`` in all
    (B3.1, Z3.2). Kept by each plan (:meth:`_Plan.substitute_bounds`)."""
    out = []
    for nat in range(most_naturals + 1):
        most = min(sub_cap, nat)
        if max_new is not None and max_new - nat < most:
            most = max_new - nat
        out.append((max(0, min_len - nat), most + 1))
    return tuple(out)


#: The sets of naturals of one rank that :func:`_natural_sets` gives, each with its number.
NaturalSets = tuple[tuple[tuple[Card, ...], int], ...]

#: The choices of substitutes that :func:`_sub_choices` gives, by their number.
SubChoices = tuple[tuple[tuple[tuple[Card, ...], int], ...], ...]

#: How many counts by suit each rank's table of sets of naturals keeps before it is
#: emptied (81 with two decks).
_NATURALS_LIMIT: Final = 4096


def _natural_sets(rank: int, per_suit: bytes, decks: int, most: int | None = None) -> NaturalSets:
    """Every set of two or more naturals of ``rank`` that a hand holding ``per_suit``
    copies of it (one count a suit) can put in a group, of at most ``most`` cards when
    given (a new meld's most, Z3.2), each with a number naming it among the sets of
    every rank: the copies by suit as the digits of a number in base ``decks + 1``, then
    the rank in 4 bits. Kept by each plan (:meth:`_Plan.natural_sets`): with two decks a
    rank's counts by suit take 81 values, 1,053 for the 13 ranks."""
    base = decks + 1
    sets: list[tuple[tuple[Card, ...], int]] = [((), 0)]
    for s in range(4):
        card = (CARDS[s * 13 + rank - 1],)
        weight = base**s
        sets = [
            (acc + card * k, number + k * weight)
            for acc, number in sets
            for k in range(per_suit[s] + 1)
            if most is None or len(acc) + k <= most
        ]
    return tuple([(cards, number << 4 | rank) for cards, number in sets if len(cards) >= 2])


def _sub_choices(wilds: Pairs, sub_cap: int) -> SubChoices:
    """For each number of substitutes from 0 to ``sub_cap``, every multiset of that many
    drawn from ``wilds`` (``(index, count)`` pairs), as a tuple of cards with the number
    naming it (:func:`_multiset_number`). Kept by each plan (:meth:`_Plan.sub_choices`):
    a hand's substitutes come back hand after hand."""
    choices: list[tuple[tuple[tuple[Card, ...], int], ...]] = []
    total = 0
    for s in range(sub_cap + 1):
        multisets = _sub_multisets(wilds, s)
        total += len(multisets)
        if total > MAX_LISTED_MELDS:
            raise _too_many(None, f"choices of up to {s} substitutes")
        choices.append(
            tuple([(tuple([CARDS[i] for i in subs]), _multiset_number(subs)) for subs in multisets])
        )
    return tuple(choices)


def _multiset_number(indices: tuple[int, ...]) -> int:
    """A number naming the multiset of card ``indices`` (sorted, each below 64): its
    digits in base 64 are the indices plus one, so that no two multisets share one."""
    number = 0
    for i in indices:
        number = number * 64 + i + 1
    return number


@functools.lru_cache(maxsize=1024)
def _sub_multisets(wild_counts: Pairs, size: int) -> tuple[tuple[int, ...], ...]:
    """Every multiset of ``size`` wild card indices drawn from ``(index, count)`` pairs.
    Cached: a hand's substitutes come back hand after hand (a few hundred kinds at most
    for each size)."""
    out: list[tuple[int, ...]] = []
    _multisets_into(out, wild_counts, 0, size, ())
    return tuple(out)


def _multisets_into(
    out: list[tuple[int, ...]],
    wild_counts: Pairs,
    start: int,
    left: int,
    acc: tuple[int, ...],
) -> None:
    """Into ``out``: ``acc`` followed by each multiset of ``left`` indices from
    ``wild_counts[start:]`` that the counts allow."""
    # A module-level function, not a closure: a recursive closure is a reference cycle,
    # garbage that only the garbage collector can free.
    if left == 0:
        if len(out) >= MAX_LISTED_MELDS:
            raise _too_many(None, f"choices of {len(acc)} substitutes")
        out.append(acc)
        return
    for k in range(start, len(wild_counts)):
        idx, cnt = wild_counts[k]
        if acc.count(idx) < cnt:
            _multisets_into(out, wild_counts, k, left - 1, (*acc, idx))


# ------------------------------------------------------------ sequences with at most one substitute


def _sequences_of_suit(
    base: int,
    windows: tuple[tuple[int, int, int], ...],
    rules: RuleSet,
    plan: _Plan,
    wild_key: bytes,
    sub_cap: int,
) -> tuple[tuple[LayMeld, ...], int]:
    """The moves laying the sequences of the suit whose first card index is ``base``
    (with at most ``sub_cap`` substitutes, 0 or 1), given the runs of ranks the hand's
    ranks of that suit can fill (``windows``, from :func:`_suit_windows_of`, not empty)
    and ``wild_key``, the counts of its substitutes (turned into ``(index, count)`` pairs
    by the rule set's ``plan``). The melds are found in, or put into, the plan's table of
    melds (:func:`_interned`).

    :func:`_enumerate_sequences` lists the same melds in the same order (a test checks
    it); this one serves every hand that can put at most one substitute in a meld (every
    hand under ``biriba``) because it is the faster. With the general enumerator in its
    place, cached by suit in the same way, :func:`parts_and_substitutes` took about twice
    as long on an uncached hand (28 against 13 microseconds, hands met in random play)
    and random deals of the ``biriba`` rule set ran about 17% slower (195 against 234
    deals per second, medians of 16 alternating runs of 400 deals).
    """
    own_two = base + 1
    suit = base // 13
    # Whether the suit's two stands natural at rank 2 (B3.6) though a substitute (worked
    # out once per rule set, by the plan, with the limits of the suit's sequences).
    twos_natural = plan.suit_shapes[suit][0]
    out: list[LayMeld] = []
    longest = 0
    substitutes = plan.pairs(wild_key)
    table = plan.lays
    cards_by_index = CARDS
    seq = MeldKind.SEQUENCE
    nat_cards = _NATURALS_BY_RANK[suit]
    for low, high, missing in windows:
        # Every meld of the window holds a card for each of its ranks.
        length = high - low + 1
        listed = len(out)
        # The suit (2 bits), the ranks (4 bits each); then, with a substitute, its
        # place (4 bits) and card (6 bits); the lowest bit 1 for a sequence.
        key = (((suit << 8) | (low << 4) | high) << 11) | 1
        if not missing:
            lay = table.get(key)
            if lay is None:
                lay = _interned(table, key, seq, nat_cards[low : high + 1], rules, suit, low, ())
            out.append(lay)
            if length > longest:
                longest = length
            if not sub_cap:
                continue
            first, last = low, high  # a substitute in any place
        else:
            first = last = missing  # the substitute in the missing rank's place
        two_used = twos_natural and low <= 2 <= high
        # (A range made in the loop's head: compiled, a loop over a range object held in
        # a name asks the interpreter for each number.)
        for place in range(first, last + 1):
            for idx, count in substitutes:
                if idx == own_two and twos_natural:
                    if place == 2:
                        continue  # that two would be natural: the clean meld
                    if two_used and place != 2 and count < 2:
                        continue  # the only copy already stands at rank 2
                sub_key = key | (((place - low) << 6 | idx) << 1)
                lay = table.get(sub_key)
                if lay is None:
                    cards = list(nat_cards[low : high + 1])
                    cards[place - low] = cards_by_index[idx]
                    lay = _interned(
                        table,
                        sub_key,
                        seq,
                        tuple(cards),
                        rules,
                        suit,
                        low,
                        ONE_PLACE[place - low],
                    )
                out.append(lay)
        if len(out) > listed and length > longest:
            longest = length
    return tuple(out), longest


def _suit_windows_of(
    present: bytes, plan: _Plan, base: int, sub_cap: int, bits: int = -1
) -> Windows:
    """:func:`_row_windows` of the ranks ``present`` in the suit whose first card index
    is ``base``, with that suit's limits from the rule set's ``plan``, kept in the plan's
    :attr:`~_Plan.row_windows` (where :func:`parts_and_substitutes` looks), or, given
    the same ranks as ``bits``, in its :attr:`~_Plan.bit_windows` (the compiled build's)."""
    suit = base // 13
    _, drop_two, ace_low, min_len, max_len, lowest, highest = plan.suit_shapes[suit]
    found = _row_windows(present, sub_cap, drop_two, ace_low, min_len, max_len, lowest, highest)
    if bits >= 0:
        plan.bit_windows[sub_cap][suit][bits] = found
        return found
    table = plan.row_windows[sub_cap][suit]
    if len(table) >= _ROWS_LIMIT:
        table.clear()
    table[present] = found
    return found


#: The runs of ranks a suit's sequences can fill, as :func:`_row_windows` gives them.
Windows = tuple[tuple[int, int, int], ...]

#: How many rows of ranks each of a plan's tables of runs keeps before it is emptied and
#: starts again (the 8,192 rows of 13 ranks fit; a table serves one shape of suit, and
#: one or no substitute).
_ROWS_LIMIT: Final = 8192


def _row_windows(
    present: bytes,
    sub_cap: int,
    drop_two: bool,
    ace_low: bool,
    min_len: int,
    max_len: int,
    lowest: int,
    highest: int,
) -> Windows:
    """The runs of ranks that the sequences of a suit can fill, as ``(low, high,
    missing)``, given which of the suit's ranks the hand holds (``present[r - 1]`` is 1
    for rank ``r``): ``sub_cap`` (0 or 1) is how many ranks a substitute may fill and
    ``missing`` the rank it fills, 0 for none; from ``min_len`` to ``max_len`` ranks,
    within ``lowest`` to ``highest`` (14: the ace, high), by lowest rank then by highest.
    ``drop_two``: the suit's two is a substitute even at rank 2 (V7); ``ace_low``: the ace
    may stand at rank 1. Cached: they depend on the ranks in hand, not on the suit or the
    substitutes, and the same few thousand rows of ranks come back in every suit."""
    if drop_two:
        present = present[:1] + b"\0" + present[2:]
    # have[r] for r in 0..15: 1 if the hand holds a natural for rank r, else 0. 14 is the
    # ace again, high; 1 is 0 when the ace cannot stand low; 0 and 15 are always 0.
    if ace_low:
        have = b"\0" + present + present[:1] + b"\0"
    else:
        have = b"\0\0" + present[1:] + present[:1] + b"\0"
    if not (_two_within_one(have) if sub_cap else _three_in_a_row(have)):
        return ()
    out: list[tuple[int, int, int]] = []
    for low in range(lowest, highest - min_len + 2):
        if not have[low] and (sub_cap == 0 or not have[low + 1]):
            continue
        missing = 0
        nmiss = 0
        for high in range(low, min(highest, low + max_len - 1) + 1):
            if not have[high]:
                nmiss += 1
                if nmiss > sub_cap:
                    break
                missing = high
            if high - low + 1 >= min_len:
                out.append((low, high, missing))
    return tuple(out)


#: For each suit, the natural card at each sequence rank 0..14 (14: the ace, high; 0 is a
#: placeholder never used).
_NATURALS_BY_RANK: Final = tuple(
    tuple(CARDS[suit * 13 + (0 if r == 14 else max(r, 1) - 1)] for r in range(15))
    for suit in range(4)
)


# ------------------------------------------------------------ sequences with more substitutes


def _sequence_span(rules: RuleSet) -> tuple[int, int, int]:
    """The lowest and highest rank a new sequence of ``rules`` may reach (1 for a low
    ace, 14 for a high one, B3.2) and the most cards it may have (B3.2, and Z3.2's limit
    on a new meld): what every sequence enumerator reads of the rule set."""
    max_new = rules.max_new_meld
    longest = rules.max_sequence if max_new is None else min(rules.max_sequence, max_new)
    return (1 if rules.ace_low else 2), (14 if rules.ace_high else 13), longest


def _enumerate_sequences(
    counts: bytes,
    rules: RuleSet,
    wilds: Pairs,
    sub_cap: int,
    out: list[Meld],
    min_subs: int = 0,
) -> None:
    """Every sequence of the hand with ``min_subs`` to ``sub_cap`` substitutes, into
    ``out``: the general enumerator, for the sequences with two or more substitutes under
    rules allowing them (V7, Z3.4); :func:`_sequences_of_suit` lists those with one at
    most. (Listing all of them here, not only those with two or more, cost Buraco 2.5% of
    the instructions of random deals.)

    Suit by suit, then by lowest rank and by highest, the sequences of each run of ranks
    (a *window*): its missing ranks are substituted, and as many of its present ones as
    the substitutes allow. Which windows can hold such a sequence, and where their
    substitutes go, depend only on the suit's ranks in hand and the limits, and are
    worked out once for each (:func:`_suit_windows`). The sequences themselves are not
    cached: caching them by suit as :func:`_sequences_of_suit` does made no measurable
    difference on the clock (191 against 196 random deals per second with no limit on
    substitutes, medians of 16 alternating runs), and cost random ``buraco`` deals more
    instructions (compiled 10% more, pure 1.7%, the same moves): the melds cached stay
    alive, and Python's garbage collector visits them at each of its full collections,
    which cost more than listing them again.
    """
    # A sequence holds at least min_meld cards, and as many naturals as substitutes
    # (B3.3, Z3.4): at least 2 * min_subs cards.
    if sub_cap < min_subs:
        return
    lowest, highest, max_len = _sequence_span(rules)
    shortest = max(rules.min_meld, 2 * min_subs)
    twos_natural = not rules.twos_always_wild
    seq = MeldKind.SEQUENCE
    for suit in range(4):
        base = suit * 13
        # have: bit r set for each rank r in 1..14 whose natural is in the hand (14 the
        # ace again, high). A two that is a substitute even at rank 2 of its own suit is
        # never natural (V7).
        have = 0
        for r in range(13):
            if counts[base + r]:
                have |= 2 << r
        if not twos_natural and rules.wild[base + 1]:
            have &= ~4
        if have & 2:
            have |= 1 << 14
        if (have & _RANKS_1_TO_13).bit_count() < 2:
            continue  # a sequence holds at least two naturals (B3.3, Z3.4)
        own_two = base + 1
        naturals_of_suit = _NATURALS_BY_RANK[suit]
        for low, high, choices in _suit_windows(
            have, sub_cap, min_subs, lowest, highest, shortest, max_len
        ):
            naturals = naturals_of_suit[low : high + 1]
            # A two at rank 2 of its own suit stands natural there unless it is always a
            # substitute (B3.6, V7), and then uses a copy of that two.
            two_pos = 2 - low if low <= 2 <= high else -1
            for positions in choices:
                if not positions:
                    out.append(Meld.unchecked(seq, naturals, rules, suit, low, ()))
                    continue
                avail = wilds
                two_at = -1
                if two_pos >= 0:
                    if two_pos in positions:
                        if twos_natural:
                            two_at = positions.index(two_pos)
                    else:  # the one natural that may also be a substitute
                        avail = tuple([(i, c - 1 if i == own_two else c) for i, c in wilds])
                assignments = _sub_assignments(avail, len(positions))
                if len(positions) == 2:
                    # Nine in ten of these sequences (random Buraco deals): the naturals
                    # around the two places cut once, each meld's cards one tuple.
                    first, second = positions
                    head = naturals[:first]
                    middle = naturals[first + 1 : second]
                    tail = naturals[second + 1 :]
                    for sub_1, sub_2 in assignments:
                        if two_at >= 0 and (sub_1, sub_2)[two_at] == own_two:
                            continue  # that two would be natural: the natural meld's twin
                        cards = (*head, CARDS[sub_1], *middle, CARDS[sub_2], *tail)
                        out.append(Meld.unchecked(seq, cards, rules, suit, low, positions))
                    if len(out) > MAX_LISTED_MELDS:
                        raise _too_many(rules, "sequences of two substitutes or more (V7, Z3.4)")
                    continue
                for subs in assignments:
                    if two_at >= 0 and subs[two_at] == own_two:
                        continue  # that two would be natural, the same meld as the natural one
                    listed = list(naturals)
                    for position, sub in zip(positions, subs, strict=True):
                        listed[position] = CARDS[sub]
                    out.append(Meld.unchecked(seq, tuple(listed), rules, suit, low, positions))
                if len(out) > MAX_LISTED_MELDS:
                    raise _too_many(rules, "sequences of two substitutes or more (V7, Z3.4)")


def _too_many(rules: RuleSet | None, what: str) -> BiribaError:
    """The error of a hand that lays more than :data:`~biriba.limits.MAX_LISTED_MELDS`
    melds of one part (``what``: a rank's groups, ...) under ``rules``."""
    under = f" under the rule set {excerpt(rules.name)}" if rules is not None else ""
    return BiribaError(
        f"the hand lays more than {MAX_LISTED_MELDS:,} {what}{under}, more than the library "
        f"lists (biriba.limits.MAX_LISTED_MELDS); fewer decks, jokers or substitutes in a "
        f"meld, or a max_new_meld, keep a hand within it"
    )


#: The bits of ranks 1 to 13 in a suit's ``have`` mask (:func:`_enumerate_sequences`).
_RANKS_1_TO_13: Final = 0x3FFE


def many_substitute_sequences_bound(rules: RuleSet) -> int:
    """At least the number of sequences with two substitutes or more (V7, Z3.4) that
    ``rules``' whole pack can lay as new melds: what the enumerator of such sequences
    would list for it, counted without making them (each run of ranks of a suit holding
    every rank, each choice of places, each choice of substitutes for them). 0 where a
    meld holds one substitute at most. A program that lists every meld of the pack (the
    action codec) asks it first: without a limit on substitutes the pack lays hundreds
    of millions of such sequences."""
    check_rules(rules)
    plan = _PLANS.get(rules) or _plan_for(rules)
    raw: Any = bytes(counts_of(full_pack(rules)))
    wild_key: bytes = raw[plan.wild_first] + raw[plan.wild_second]
    sub_cap = plan.held(wild_key)[1]
    if sub_cap < 2:
        return 0
    lowest, highest, longest = _sequence_span(rules)
    # Every rank present (the ace high too): the most runs, each place optional.
    have = _RANKS_1_TO_13 | 1 << 14
    wilds = plan.pairs(wild_key)
    per_suit = sum(
        len(_sub_assignments(wilds, len(places)))
        for _, _, choices in _suit_windows(
            have, sub_cap, 2, lowest, highest, max(rules.min_meld, 4), longest
        )
        for places in choices
    )
    return 4 * per_suit


@functools.lru_cache(maxsize=8192)
def _suit_windows(
    have: int, sub_cap: int, min_subs: int, lowest: int, highest: int, shortest: int, longest: int
) -> tuple[tuple[int, int, tuple[tuple[int, ...], ...]], ...]:
    """The runs of ranks (:func:`_windows`) a suit whose naturals in hand are the bits of
    ``have`` can make sequences of with ``min_subs`` to ``sub_cap`` substitutes, each as
    ``(low, high, the places its substitutes may take)`` (:func:`_substituted_places`),
    those with none left out. Worked out once for each ``have`` and limits: it depends on
    nothing else of the hand (a few thousand suits met, 8,192 kept)."""
    absent = ~have
    out = []
    for low, high, mask, half in _windows(lowest, highest, shortest, longest):
        missing = mask & absent
        # Never more substitutes than naturals (B3.3, Z3.4).
        limit = half if half < sub_cap else sub_cap
        if missing.bit_count() > limit:
            continue
        choices = _substituted_places(high - low + 1, missing >> low, limit, min_subs)
        if choices:
            out.append((low, high, choices))
    return tuple(out)


@functools.lru_cache(maxsize=64)
def _windows(
    lowest: int, highest: int, shortest: int, longest: int
) -> tuple[tuple[int, int, int, int], ...]:
    """The runs of ranks a sequence may cover, ``shortest`` to ``longest`` cards from rank
    ``lowest`` to ``highest``, as ``(low, high, bit mask of the ranks, half the length)``:
    by lowest rank, then by highest."""
    return tuple(
        (low, high, ((1 << (high - low + 1)) - 1) << low, (high - low + 1) // 2)
        for low in range(lowest, highest - shortest + 2)
        for high in range(low + shortest - 1, min(highest, low + longest - 1) + 1)
    )


@functools.lru_cache(maxsize=1024)
def _substituted_places(
    length: int, missing: int, limit: int, min_subs: int
) -> tuple[tuple[int, ...], ...]:
    """The places substitutes take in a window of ``length`` ranks whose missing ones
    are the bits of ``missing`` (place 0 the lowest): every missing place, plus each
    choice of present ones, ``min_subs`` to ``limit`` places in all, each choice in
    ascending order. Depth first: the missing places alone, then each longer choice of
    present places in their order."""
    absent = tuple(p for p in range(length) if missing >> p & 1)
    present = [p for p in range(length) if not missing >> p & 1]
    chosen: list[tuple[int, ...]] = []
    _combos(present, limit - len(absent), (), 0, absent, chosen)
    return tuple(tuple(sorted(places)) for places in chosen if len(places) >= min_subs)


def _combos(
    pool: list[int],
    extra_max: int,
    acc: tuple[int, ...],
    start: int,
    base: tuple[int, ...],
    out: list[tuple[int, ...]],
) -> None:
    """Into ``out``, depth first: ``base + acc``, then ``base`` followed by each longer
    choice extending ``acc`` with items of ``pool`` from ``pool[start]`` on, in pool
    order, up to ``extra_max`` items."""
    out.append(base + acc)
    if len(acc) == extra_max:
        return
    for i in range(start, len(pool)):
        _combos(pool, extra_max, (*acc, pool[i]), i + 1, base, out)


@functools.lru_cache(maxsize=1024)
def _sub_assignments(avail: tuple[tuple[int, int], ...], k: int) -> tuple[tuple[int, ...], ...]:
    """Ordered choices of ``k`` wild cards (one per place) from ``avail``, ``(index,
    copies left)`` pairs, in their order: depth first, the first pair's card first.

    Cached: the same few substitutes in hand come back call after call (a hand holds a
    dozen of them at most, and ``k`` is at most the hand's substitutes), 1024 kept."""
    out: list[tuple[int, ...]] = []
    _assignments_into(out, {i: c for i, c in avail}, k, ())
    return tuple(out)


def _assignments_into(
    out: list[tuple[int, ...]], avail: dict[int, int], k: int, acc: tuple[int, ...]
) -> None:
    """Into ``out``: ``acc`` followed by each ordered choice of cards from ``avail`` (index
    to copies left) that makes it ``k`` long."""
    if len(acc) == k:
        out.append(acc)
        return
    for idx in avail:
        if avail[idx] > 0:
            avail[idx] -= 1
            _assignments_into(out, avail, k, (*acc, idx))
            avail[idx] += 1
