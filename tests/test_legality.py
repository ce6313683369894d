"""One source of legality and its reason: ``is_legal`` agrees with ``legal_moves()`` on
every candidate move, and every refusal names the rule that forbids the move.

Random deals under several rule sets; at positions along the way, the candidates are
every listed move and near misses built from them: a card not in hand, a meld index the
team does not have, the full form of an addition that has no choice and the short form
of one that has, moves of the other phase, melds needing two copies of a card held once,
and every discard and every addition of every card. For each:
``is_legal(m) == (m in legal_moves())``, ``verify`` raises exactly when ``is_legal`` is
false, the error's ``rule`` is an id of the rules reference, and for the near misses it is
the rule that forbids them.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from biriba import (
    BIRIBA,
    BURACO,
    JOKER,
    AddToMeld,
    AmbiguousMoveError,
    Card,
    Deal,
    Discard,
    DrawStock,
    IllegalMoveError,
    InvalidMeldError,
    LayMeld,
    Meld,
    Move,
    NotationError,
    Pass,
    Phase,
    RuleSet,
    TakeDiscard,
)
from biriba.position import SIZE_BITS, Position, size_of
from biriba.rules import RULE_IDS

from .helpers import deal_at, examples, position

ALL_CARDS = [Card.from_index(i) for i in range(53)]

#: BIRIBA and the variants the engine plays: V2, V4, V6 (three alone, six in pairs), V7.
RULE_SETS = [
    BIRIBA,
    BIRIBA.evolve(name="sequences-only", groups=False),
    BIRIBA.evolve(name="no-biriba-reserve", reserve_needs_biriba=False),
    BIRIBA.evolve(name="three-alone", players=3, teams=3, reserve_count=3),
    BIRIBA.evolve(name="six-in-pairs", players=6, teams=2, decks=3, jokers=6),
    BIRIBA.evolve(name="two-substitutes", max_substitutes=2),
    BIRIBA.evolve(name="keep-one", keep_after_melding=1, twos_always_wild=True),
]


def refused_rule(deal: Deal, move: Move) -> str | None:
    """The rule ``verify`` names for ``move``, or ``None`` if it accepts it; checks that
    ``is_legal`` and ``verify`` agree."""
    try:
        deal.verify(move)
    except IllegalMoveError as error:
        assert not deal.is_legal(move)
        assert error.rule in RULE_IDS, (str(move), str(error))
        assert error.rule in str(error)
        return error.rule
    assert deal.is_legal(move)
    return None


def near_misses(deal: Deal, rng: random.Random) -> list[tuple[Move, str]]:
    """Moves close to legal ones, each with the rule that forbids it."""
    seat = deal.to_move
    assert seat is not None
    hand = deal.hand(seat)
    melds = deal.melds(deal.team_of(seat))
    rules = deal.rules
    out: list[tuple[Move, str]] = []
    missing = [c for c in ALL_CARDS if c not in hand]
    if deal.phase is Phase.DRAW:
        # Moves of the play phase, before the draw.
        for card in hand[:3]:
            out.append((Discard(card), "B4.1"))
        if melds and hand:
            out.append((AddToMeld(0, hand[0]), "B4.1"))
        return out
    # Moves of the draw phase, after it.
    out += [(DrawStock(), "B4.1"), (TakeDiscard(), "B4.1"), (Pass(), "B4.1")]
    for card in missing[:3]:
        out.append((Discard(card), "B4.1"))
        if melds:
            out.append((AddToMeld(rng.randrange(len(melds)), card), "B4.1"))
    if hand:
        out.append((AddToMeld(len(melds) + rng.randrange(3), hand[0]), "B3.8"))
    for move in deal.legal_moves():
        if isinstance(move, AddToMeld):
            results = melds[move.index].extensions(move.card)
            if move.result is None:
                # The full form where there is no choice.
                out.append((AddToMeld(move.index, move.card, results[0]), "B3.12"))
            else:
                # The short form where there is a choice.
                out.append((AddToMeld(move.index, move.card), "B3.12"))
    # Melds of cards held once: the same meld with one of its cards twice more.
    held_once = [c for c in hand if hand.count(c) == 1 and not rules.is_wild(c)]
    for card in held_once[:2]:
        for others in ((card, card), (card, JOKER)):
            try:
                meld = Meld.from_cards((card, *others), rules)
            except InvalidMeldError:
                continue
            out.append((LayMeld(meld), "B4.1"))
    return out


def every_simple_move(deal: Deal) -> list[Move]:
    """Every discard, every addition of every card to every meld (with and without each
    of its outcomes), the three keyword moves."""
    seat = deal.to_move
    assert seat is not None
    melds = deal.melds(deal.team_of(seat))
    out: list[Move] = [DrawStock(), TakeDiscard(), Pass()]
    for card in ALL_CARDS:
        out.append(Discard(card))
        for i, meld in enumerate(melds):
            out.append(AddToMeld(i, card))
            out += [AddToMeld(i, card, r) for r in meld.extensions(card)]
    return out


def check_position(deal: Deal, rng: random.Random) -> None:
    position = deal.position
    # Every position has all its fields, and the sizes the moves keep are the hands' sums.
    assert len(position) == len(Position._fields)
    assert [size_of(position.sizes, s) for s in range(len(position.hands))] == list(
        map(sum, position.hands)
    )
    assert position.sizes >> (SIZE_BITS * len(position.hands)) == 0
    listed = deal.legal_moves()
    before = deal.to_dict()
    assert len(set(listed)) == len(listed)
    for move in listed:
        assert refused_rule(deal, move) is None, str(move)
    for move, rule in near_misses(deal, rng):
        assert refused_rule(deal, move) == rule, (str(move), rule)
        assert move not in listed
    for move in every_simple_move(deal):
        assert (refused_rule(deal, move) is None) == (move in listed), str(move)
    assert deal.to_dict() == before  # checking changes nothing


@settings(max_examples=examples(12), deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(RULE_SETS))
def test_is_legal_agrees_with_legal_moves_and_refusals_name_their_rule(
    seed: int, rules: RuleSet
) -> None:
    deal = Deal.new(rules, seed=seed, dealer=seed % rules.players)
    rng = random.Random(seed)
    while not deal.is_over:
        if rng.random() < 0.15:
            check_position(deal, rng)
        moves = deal.legal_moves()
        take = [m for m in moves if isinstance(m, TakeDiscard)]
        deal.play(take[0] if take and rng.random() < 0.4 else rng.choice(moves))
    for move in (DrawStock(), Discard(ALL_CARDS[0])):
        assert refused_rule(deal, move) == "B7.1"


def test_an_ambiguous_short_form_is_refused_with_B3_12() -> None:
    """The short form where the card has a choice raises AmbiguousMoveError, rule B3.12."""
    # 6H takes the joker's place in 4H 5H JK 7H, the joker going low or high.
    deal = deal_at(hands={0: "6H KS QS"}, melds=(["4H 5H JK 7H"], []))
    with pytest.raises(AmbiguousMoveError) as info:
        deal.play("add 0 6H")
    assert info.value.rule == "B3.12"


def test_V7_the_substitute_refusal_counts_the_substitutes_held() -> None:
    """Under max_substitutes=2 (V7) a third substitute is refused by V7's limit, and the
    refusal says the meld holds two."""
    rules = BIRIBA.evolve(name="two-substitutes", max_substitutes=2)
    data = position(hands={0: "JK KS QS 9D"}, melds=(["3H 2C 5H JK 7H"], []), rules=rules)
    deal = Deal.from_dict(data, rules)
    with pytest.raises(IllegalMoveError) as info:
        deal.play("add 0 JK")
    assert info.value.rule == "V7"
    assert "holds 2 substitutes" in str(info.value)


def test_rule_ids_are_those_of_the_rules_reference() -> None:
    """``RULE_IDS`` lists exactly the bold ids of RULES.md (when it is beside the project)."""
    reference = Path(__file__).resolve().parents[2] / "shared" / "RULES.md"
    if not reference.exists():
        pytest.skip(f"{reference} is not here")
    ids = set(re.findall(r"\*\*([BZV][0-9.]+)\*\*", reference.read_text()))
    assert ids == RULE_IDS


def test_the_docs_state_every_rule() -> None:
    """Every id of ``RULE_IDS`` is stated in the documentation, where an error message
    sends its reader: the rules of parts B and Z in bold in the rules pages, the options
    of part V in the first column of the variants table (docs/rulesets.rst). Run in CI
    too, where RULES.md itself is not beside the project."""
    docs = Path(__file__).resolve().parents[1] / "docs"
    stated: set[str] = set()
    for page in docs.glob("*.rst"):
        text = page.read_text(encoding="utf-8")
        stated |= set(re.findall(r"\*\*([BZ][0-9.]+)\*\*", text))
        stated |= set(re.findall(r"^(V[0-9]+)\s{2,}\S", text, re.MULTILINE))
    assert stated == RULE_IDS, (sorted(RULE_IDS - stated), sorted(stated - RULE_IDS))


def test_B4_3_a_team_with_no_reserve_left_is_told_so() -> None:
    """Three teams, two packets, both received: a third team may not empty its hand by
    melding, because no reserve is left for it (not because it received one)."""
    rules = BIRIBA.evolve(name="three-teams-two-packets", players=3, teams=3, reserve_count=2)
    data = position(
        hands={2: "5C 6C 7C"},
        to_move=2,
        received=(True, True),
        rules=rules,
        dealer=1,
        melds=(["3H 4H 5H 6H 7H 8H 9H"], ["3D 4D 5D 6D 7D 8D 9D"], []),  # B5.2: a biriba each
    )
    data["reserve_received"] = [True, True, False]
    data["unactivated"] = [None, None, None]
    deal = Deal.from_dict(data, rules)
    with pytest.raises(IllegalMoveError, match="no reserve is left") as info:
        deal.play("meld 5C 6C 7C")
    assert info.value.rule == "B4.3"


@pytest.mark.parametrize(
    ("meld", "card", "rule"),
    [
        ("QS KS AS", "5H", "B3.12"),  # fits neither end: not a matter of room
        ("AD JK 3D 4D 5D", "8D", "B3.12"),
        ("QH KH 2C", "TD", "B3.12"),
        ("7C 7D 7S", "6H", "B3.12"),
        ("3H 4H JK 6H", "JK", "B3.10"),  # a second substitute
        ("7C 7D JK", "2H", "B3.10"),
        ("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", "JK", "B3.2"),  # no room
        ("AD 2D 3D 4D JK 6D 7D 8D 9D TD JD QD KD", "5D", "B3.9"),  # the joker cannot move
        ("9H JK JH QH KH AH", "2H", "B3.10"),
    ],
)
def test_B3_12_a_refused_addition_names_the_rule_that_forbids_it(
    meld: str, card: str, rule: str
) -> None:
    refused = Meld.parse(meld).extension_refusal(Card.parse(card))
    assert refused is not None and refused[0] == rule, refused


def test_B3_1_is_legal_is_false_for_cards_that_form_no_meld_and_refuses_text_no_move() -> None:
    """``is_legal`` returns a bool for every move it can read, ``False`` for cards that
    form no meld (refused by B3.1); a text that is no move raises ``NotationError`` and
    anything else ``TypeError``, as ``play`` and ``verify`` do, and the deal is left as
    it was."""
    deal = Deal.new(seed=1)
    before = deal.to_dict()
    assert deal.is_legal("meld 3H 4H 6H") is False
    with pytest.raises(IllegalMoveError) as info:
        deal.verify("meld 3H 4H 6H")
    assert info.value.rule == "B3.1"
    for text in ("fold", "discard XX", "meld"):
        with pytest.raises(NotationError):
            deal.is_legal(text)
    for value in (None, 5, b"draw"):
        with pytest.raises(TypeError):
            deal.is_legal(value)  # type: ignore[arg-type]
    assert deal.to_dict() == before and deal.history == ()


def test_Z2_2_and_V1_a_move_the_rule_set_does_not_have_is_refused_as_such() -> None:
    # The redraw (Z2.2) and naming the bonus suit (V1) under rule sets without them: said
    # so, not "only right after the first draw", which suggests it could be legal later.
    for rules, text, rule, why in (
        (BIRIBA, "redraw", "Z2.2", "the rule set has no redraw"),
        (RuleSet.named("biriba-kozi"), "redraw", "Z2.2", "the rule set has no redraw"),
        (BIRIBA, "kozi H", "V1", "the rule set has no bonus suit to name"),
        (BURACO, "kozi H", "V1", "the rule set has no bonus suit to name"),
    ):
        deal = Deal.new(rules, seed=1)
        for _ in range(2):  # in the draw phase, then (after a draw) in the play phase
            with pytest.raises(IllegalMoveError, match=why) as info:
                deal.play(text)
            assert info.value.rule == rule
            if deal.phase is Phase.DRAW:
                deal.play(next(m for m in deal.legal_moves() if str(m) == "draw"))
    # Where the rule set has the move, the refusal says when it is legal.
    with pytest.raises(IllegalMoveError, match="only right after the deal's first draw"):
        Deal.new(BURACO, seed=1).play("redraw")
