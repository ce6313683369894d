"""The move generator's shortcuts against its full look-ahead (B4.5, B4.2).

The generator accepts a meld or an addition without a look-ahead when enough cards stay
in hand, one of them not the card B4.2 bars from the discard. These tests play random
deals, taking the discard pile often so that barred cards and large hands occur, and
check at every play-phase position that the shortcut accepts exactly what the full
look-ahead (``Engine.after_refusal`` on every candidate) accepts.
"""

from __future__ import annotations

import itertools
import pickle
import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from biriba import (
    BIRIBA,
    AddToMeld,
    Card,
    Deal,
    Discard,
    LayMeld,
    Meld,
    Move,
    Phase,
    RuleSet,
    TakeDiscard,
)
from biriba.engine import additions, engine_for
from biriba.enumeration import melds_from_counts

from .helpers import examples, played


def looked_ahead(deal: Deal) -> set[str]:
    """The melds and additions of the position that the full look-ahead allows."""
    engine = engine_for(deal.rules)
    situation = engine.situation(deal.position)
    counts, melds = situation.hand, situation.melds
    size = sum(counts)
    out: set[str] = set()
    for meld in melds_from_counts(counts, deal.rules):
        if engine.after_refusal(situation, size, meld.cards, (*melds, meld)) is None:
            out.add(str(LayMeld(meld)))
    for i, card, result, choice in additions(counts, melds):
        after = (*melds[:i], result, *melds[i + 1 :])
        if engine.after_refusal(situation, size, (card,), after) is None:
            out.add(str(AddToMeld(i, card, result if choice else None)))
    return out


#: BIRIBA and variants that move the bound: one card kept after melding (V7), the
#: reserve without a biriba (V4), three cards kept.
RULE_SETS = [
    BIRIBA,
    BIRIBA.evolve(name="keep-one", keep_after_melding=1),
    BIRIBA.evolve(name="no-biriba-needed", reserve_needs_biriba=False),
    BIRIBA.evolve(name="keep-three", keep_after_melding=3),
]


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(RULE_SETS))
def test_B4_5_shortcut_agrees_with_the_full_look_ahead(seed: int, rules: RuleSet) -> None:
    deal = Deal.new(rules, seed=seed)
    rng = random.Random(seed)
    while not deal.is_over:
        moves = deal.legal_moves()
        if deal.phase is Phase.PLAY:
            listed = {str(m) for m in moves if not isinstance(m, Discard)}
            assert listed == looked_ahead(deal)
        take = [m for m in moves if isinstance(m, TakeDiscard)]
        move: Move = take[0] if take and rng.random() < 0.7 else rng.choice(moves)
        deal.play(move)


def test_B3_8_the_moves_adding_to_a_meld_are_made_once_while_it_stays_in_place() -> None:
    """Listing the moves of a position again gives the very same addition moves: they are
    kept with the meld (:meth:`Meld.move_memo`), which plays no part in its equality,
    hash or pickling."""
    engine = engine_for(BIRIBA)
    for seed in range(100):
        deal = played(seed, 120)
        first = [m for m in engine.legal_moves(deal.position) if isinstance(m, AddToMeld)]
        if first:
            break
    else:
        pytest.fail("no random deal reached an addition")
    again = [m for m in engine.legal_moves(deal.position) if isinstance(m, AddToMeld)]
    assert again == first
    assert all(a is b for a, b in zip(again, first, strict=True))
    meld = deal.position.melds[deal.position.seat % BIRIBA.teams][first[0].index]
    assert meld.move_memo()  # filled by the listing
    copy = pickle.loads(pickle.dumps(meld))
    assert copy == meld and hash(copy) == hash(meld)
    assert not copy.move_memo()


@pytest.mark.parametrize(
    "order", list(itertools.permutations(["memo", "extensions", "candidates"]))
)
def test_B3_8_a_melds_kept_moves_and_extensions_stay_whatever_is_asked_first(
    order: tuple[str, ...],
) -> None:
    """What a meld keeps for the move generator (:meth:`Meld.move_memo`) and its
    extensions stay with it, in whatever order the meld is asked for them and for its
    candidates (which blank the other two the first time)."""
    meld = Meld.parse("4H 5H 6H")
    seven = Card.parse("7H")
    for asked in order:
        if asked == "memo":
            meld.move_memo()[7] = "kept"
        elif asked == "extensions":
            first = meld.extensions(seven)
        else:
            assert 32 in meld.candidate_indices()  # 7H, above the sequence
    assert meld.move_memo() == {7: "kept"}
    assert meld.extensions(seven) == first == (Meld.parse("4H 5H 6H 7H"),)
    assert meld.extensions_of_index(seven.index)[0] is first[0]  # kept, not made again


@given(st.lists(st.integers(0, 9), min_size=1, max_size=7), st.data())
def test_replaced_is_the_tuple_with_one_item_changed(
    values: list[int], data: st.DataObject
) -> None:
    """``replaced`` (every move's new hands, sizes and melds) gives the tuple with one
    item changed, for any length (written out for 4 and 2) and any index, negative too."""
    from biriba.engine import replaced

    index = data.draw(st.integers(-len(values), len(values) - 1))
    expected = list(values)
    expected[index] = -1
    assert replaced(tuple(values), index, -1) == tuple(expected)


@pytest.mark.parametrize("name", ["biriba", "buraco"])
def test_a_move_of_a_subclass_of_a_move_class_plays_as_that_class(name: str) -> None:
    """The engine tells moves apart by their exact class; an instance of a subclass of
    one of them (a program's own) plays as the library's move with the same fields, and
    anything else is refused with TypeError, the position unchanged."""
    from biriba.moves import MOVE_CLASSES, as_library_move

    subclasses: dict[type[Move], type[Move]] = {
        cls: type(f"Own{cls.__name__}", (cls,), {}) for cls in MOVE_CLASSES
    }
    rules = RuleSet.named(name)
    ours, theirs = Deal.new(rules, seed=5), Deal.new(rules, seed=5)
    rng = random.Random(5)
    kinds = set()
    while not ours.is_over:
        move = rng.choice(ours.legal_moves())
        fields = {f.name: getattr(move, f.name) for f in attrs.fields(type(move))}
        own = subclasses[type(move)](**fields)
        assert type(own) is not type(move)
        assert as_library_move(own) == move and type(as_library_move(own)) is type(move)
        theirs.play(own)
        ours.play(move)
        kinds.add(type(move))
        assert theirs.position == ours.position
    assert {Discard, LayMeld, AddToMeld, TakeDiscard} <= kinds
    engine = engine_for(rules)
    with pytest.raises(TypeError, match=r"move classes \(or of a subclass of one\), got str"):
        engine.apply(ours.position, "discard 7H")  # type: ignore[arg-type]


@given(
    st.lists(st.integers(0, 2), min_size=53, max_size=53),
    st.lists(st.integers(0, 2), min_size=53, max_size=53),
    st.lists(st.integers(0, 52), max_size=12),
    st.integers(0, 3),
)
def test_B4_1_taking_the_pile_adds_each_card_to_the_hand_and_to_what_is_known(
    hand: list[int], seen: list[int], pile: list[int], seat: int
) -> None:
    """Taking the pile (B4.1) puts each of its cards into the seat's hand and among its
    cards known to the table, and nothing else: the same for a few cards (spliced in one
    by one) and for more (through a bytearray). ``_plus`` with -1, which lays a meld,
    takes them out again."""
    from biriba.cards import CARDS, EMPTY_COUNTS
    from biriba.engine import _plus, _taken
    from biriba.position import size_of, sizes_of

    hands = tuple(bytes(hand) if s == seat else EMPTY_COUNTS for s in range(4))
    known = tuple(bytes(seen) if s == seat else EMPTY_COUNTS for s in range(4))
    packed = sizes_of(hands)
    sizes = [size_of(packed, s) for s in range(4)]
    assert sizes == [sum(h) for h in hands]
    cards = tuple(CARDS[i] for i in pile)
    new_hands, packed, new_known = _taken(hands, packed, known, seat, cards)
    new_sizes = [size_of(packed, s) for s in range(4)]
    more = [pile.count(i) for i in range(53)]
    assert new_hands[seat] == bytes(a + b for a, b in zip(hand, more, strict=True))
    assert new_known[seat] == bytes(a + b for a, b in zip(seen, more, strict=True))
    assert new_sizes[seat] == sizes[seat] + len(pile)
    # Melding or discarding them again (B3.1, B4.3) takes each away: the hand as it was.
    assert _plus(new_hands[seat], cards, -1) == hands[seat]
    others = [s for s in range(4) if s != seat]
    assert [(new_hands[s], new_sizes[s], new_known[s]) for s in others] == [
        (hands[s], sizes[s], known[s]) for s in others
    ]
    # A card a hand does not hold cannot be taken from it, one card or more (the count
    # would otherwise wrap to 255).
    empty = hands[(seat + 1) % 4]
    for taken in ((CARDS[0],), (*cards, CARDS[0]), (CARDS[0],) * 6):
        with pytest.raises(ValueError):
            _plus(empty, taken, -1)
