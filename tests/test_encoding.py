"""The action codec and the observation encoder (biriba.encoding)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from biriba import (
    BIRIBA,
    BURACO,
    AddToMeld,
    AmbiguousMoveError,
    BiribaError,
    Card,
    Deal,
    IllegalMoveError,
    LayMeld,
    MeldKind,
    Move,
    NameSuit,
    Redraw,
    RuleSet,
    TakeDiscard,
    enumerate_melds,
    full_pack,
)
from biriba.bots import GreedyBot
from biriba.cards import CARDS
from biriba.encoding import (
    ENCODING_VERSION,
    MAX_CODEC_MELDS,
    REWARD_SCALE,
    check_max_moves,
    check_scale,
    codec_for,
    observation_layout,
    observe,
    observe_array,
    observe_sparse,
    outcome_order,
    team_returns,
)
from biriba.enumeration import many_substitute_sequences_bound

from .helpers import IntLike, position

Policy = Callable[[Deal, random.Random], Move]


def random_policy(deal: Deal, rng: random.Random) -> Move:
    return rng.choice(deal.legal_moves())


def melding_policy(deal: Deal, rng: random.Random) -> Move:
    """Takes the pile whenever it may and lays or adds whenever it can: many melds, long
    hands and many legal moves."""
    moves = deal.legal_moves()
    takes = [m for m in moves if isinstance(m, TakeDiscard)]
    if takes:
        return takes[0]
    melding = [m for m in moves if isinstance(m, LayMeld | AddToMeld)]
    return rng.choice(melding or moves)


def greedy_policy(deal: Deal, rng: random.Random) -> Move:
    seat = deal.to_move
    assert seat is not None
    return GreedyBot(seed=rng.getrandbits(32)).choose(deal.view(seat))


def check_position(deal: Deal) -> int:
    """Every legal move has one id, in range, that decodes to it; the ids of a move's
    text agree (read with or without the rule set); the view of the seat to move gives
    the same ids. Returns the count."""
    codec = codec_for(deal.rules)
    moves = deal.legal_moves()
    legal = codec.legal_actions(deal)
    assert len(legal) == len(moves)
    assert sorted(legal) == list(legal)
    assert {id(m) for m in legal.values()} == {id(m) for m in moves}
    for action, move in legal.items():
        assert 0 <= action < codec.size
        assert codec.decode(action, deal) is move
        assert codec.encode(move, deal) == action
        # the same move read back from its text (no identity shortcut)
        assert codec.encode(Move.parse(str(move), deal.rules), deal) == action
        # and read without the rule set: an equal move, the same id
        assert codec.encode(Move.parse(str(move)), deal) == action
        short = codec.describe(action)
        assert str(move).startswith(short.split(" #")[0])
    seat = deal.to_move
    assert seat is not None
    assert codec.legal_ids(deal.view(seat)) == list(legal)
    mask = codec.mask(deal)
    assert sum(mask) == len(moves) and all(mask[a] for a in legal)
    return len(moves)


@pytest.mark.parametrize(
    ("policy", "deals"), [(random_policy, 4), (melding_policy, 3), (greedy_policy, 2)]
)
def test_codec_is_one_to_one_over_play(policy: Policy, deals: int) -> None:
    most = 0
    for seed in range(deals):
        rng = random.Random(seed)
        deal = Deal.new(seed=f"codec/{policy.__name__}/{seed}")
        for _ in range(600):
            if deal.is_over:
                break
            most = max(most, check_position(deal))
            deal.play(policy(deal, rng))
    assert most > 20  # the positions checked had real choices


@pytest.mark.parametrize("name", RuleSet.preset_names())
def test_codec_is_one_to_one_under_every_preset(name: str) -> None:
    rules = RuleSet.named(name)
    rng = random.Random(name)
    deal = Deal.new(rules, seed=f"codec/{name}")
    for _ in range(250):
        if deal.is_over:
            break
        check_position(deal)
        deal.play(melding_policy(deal, rng) if rng.random() < 0.5 else random_policy(deal, rng))


def test_redraw_and_kozi_have_their_ids() -> None:
    """Z2.2's redraw and V1's kózi are keyword ids of the rule sets that have them, after
    ``pass``; the ids of ``biriba`` do not move."""
    buraco = codec_for(BURACO)
    assert [str(m) for m in buraco.keywords] == ["draw", "take", "pass", "redraw"]
    kozi = codec_for(RuleSet.named("biriba-kozi"))
    assert [str(m) for m in kozi.keywords[3:]] == ["kozi C", "kozi D", "kozi H", "kozi S"]
    assert codec_for(BIRIBA).keywords == kozi.keywords[:3]
    deal = Deal.new(BURACO, seed=1)
    deal.play("draw")
    assert Redraw() in deal.legal_moves()
    assert codec_for(BURACO).encode(Redraw(), deal) == 3
    check_position(deal)
    seed = next(
        s
        for s in range(2000)
        if any(isinstance(m, NameSuit) for m in Deal.new(kozi.rules, seed=s).legal_moves())
    )
    deal = Deal.new(kozi.rules, seed=seed)
    assert check_position(deal) == 4
    assert kozi.legal_ids(deal) == [3, 4, 5, 6]


def test_biriba_sizes() -> None:
    """The figures the first measurement of the pack gave: 15,692 melds, 36 slots of 53
    cards with 2 places, 19,564 ids."""
    codec = codec_for(BIRIBA)
    assert codec.sizes() == {
        "keywords": 3,
        "discards": 53,
        "melds": 15692,
        "additions": 36 * 53 * 2,
        "total": 19564,
    }
    assert codec.version == ENCODING_VERSION
    assert codec.describe(0) == "draw"
    assert codec.describe(codec.discard_base + 52) == "discard JK"
    assert codec.describe(codec.size - 1) == f"add 35 JK #{codec.places - 1}"


def test_the_sizes_table_of_the_docs_is_the_codecs() -> None:
    # docs/learning.rst lists, by rule set, the melds, places, additions and ids.
    doc = Path(__file__).parent.parent / "docs" / "learning.rst"
    if not doc.exists():  # pragma: no cover (the tests of an installed wheel)
        pytest.skip("the docs are not beside these tests")
    rows = {
        "``biriba``": BIRIBA,
        "``biriba``, no groups (V2)": BIRIBA.evolve(groups=False),
        "``biriba``, two substitutes": BIRIBA.evolve(max_substitutes=2),
        "``buraco``": BURACO,
    }
    lines = doc.read_text("utf-8").splitlines()
    for label, rules in rows.items():
        codec = codec_for(rules)
        sizes = codec.sizes()
        wanted = [sizes["melds"], codec.places, sizes["additions"], sizes["total"]]
        found = [line for line in lines if line.startswith(label + "  ")]
        assert len(found) == 1, label
        assert found[0][len(label) :].split() == [f"{n:,}" for n in wanted], label


def test_sizes_follow_the_rule_set() -> None:
    """Buraco's melds come from its own pack (no more than six cards when new, Z3.2, any
    number of substitutes, Z3.4), and an addition there can have four outcomes."""
    codec = codec_for(BURACO)
    assert codec.melds == enumerate_melds(full_pack(BURACO), BURACO)
    assert codec.slots == 106 // 3
    assert codec.places == 4
    assert codec.size == 4 + 53 + len(codec.melds) + codec.slots * 53 * 4  # redraw: 4 keywords
    assert all(len(m) <= 6 for m in codec.melds)
    assert any(m.kind is MeldKind.WILD for m in codec.melds)  # Z3.7


@pytest.mark.parametrize(
    "rules",
    [BIRIBA, BURACO, BIRIBA.evolve(name="two-subs", max_substitutes=2)],
    ids=lambda r: r.name,
)
def test_additions_fit_the_places(rules: RuleSet) -> None:
    """No addition has more outcomes than the codec's places, and the sort key of the
    outcomes of one addition tells them all apart (so the order is fixed)."""
    codec = codec_for(rules)
    rng = random.Random(5)
    most = 0
    wild = [m for m in codec.melds if m.kind is MeldKind.WILD]  # Z3.7, all of them
    for meld in rng.sample(codec.melds, 1500) + wild:
        for card in CARDS:
            outcomes = meld.extensions(card)
            most = max(most, len(outcomes))
            assert len({outcome_order(m) for m in outcomes}) == len(outcomes)
    assert 2 <= most <= codec.places


def test_buraco_two_beside_substitutes_has_four_places() -> None:
    from biriba import Meld

    meld = Meld.parse("JK 3H 4H", BURACO)
    codec = codec_for(BURACO)
    outcomes = sorted(meld.extensions(Card.parse("2H")), key=outcome_order)
    assert len(outcomes) == codec.places == 4
    assert [m.low for m in outcomes] == sorted(m.low or 0 for m in outcomes)


def test_decode_refuses_what_is_not_legal() -> None:
    deal = Deal.new(seed=3)
    codec = codec_for(deal.rules)
    with pytest.raises(IllegalMoveError):
        codec.decode(codec.discard_base, deal)  # a discard in the draw phase
    with pytest.raises(BiribaError):
        codec.decode(codec.size, deal)
    with pytest.raises(TypeError):
        codec.decode("0", deal)  # type: ignore[arg-type]
    with pytest.raises(BiribaError):
        codec.encode(AddToMeld(36, Card.parse("5H")), deal)
    with pytest.raises(TypeError):
        codec.encode("draw", deal)  # type: ignore[arg-type]


def test_the_codec_checks_its_tables_and_ids() -> None:
    deal = Deal.new(seed=3)
    codec = codec_for(deal.rules)
    draw = deal.legal_moves()[0]
    # Anything but a deal or a view: TypeError, not an AttributeError from inside.
    for call in (
        lambda: codec.legal_actions("deal"),  # type: ignore[arg-type]
        lambda: codec.legal_ids(None),  # type: ignore[arg-type]
        lambda: codec.mask(5),  # type: ignore[arg-type]
        lambda: codec.decode(0, "deal"),  # type: ignore[arg-type]
        lambda: codec.encode(draw, "deal"),  # type: ignore[arg-type]
        lambda: codec.describe("0"),  # type: ignore[arg-type]
        lambda: codec.describe(True),
        lambda: codec.decode(False, deal),
    ):
        with pytest.raises(TypeError):
            call()
    # A variant that changes only scores and the target keeps the preset's ids, and so
    # its codec; a deal of another rule set, whose ids name other moves, is refused.
    variant = Deal.new(BIRIBA.evolve(target=3000, closing_bonus=200), seed=3)
    assert codec.legal_ids(variant) == codec.legal_ids(deal) == [0, 1]
    other = Deal.new(BURACO, seed=3)
    with pytest.raises(BiribaError, match="codec_for"):
        codec.legal_ids(other)
    with pytest.raises(BiribaError, match="codec_for"):
        codec.decode(0, other.view(other.to_move or 0))
    # An id of any integer type is an id; one past any real id is named in short.
    assert codec.decode(IntLike(0), deal) is draw  # type: ignore[arg-type]
    assert codec.describe(IntLike(codec.discard_base)) == "discard AC"  # type: ignore[arg-type]
    for huge in (10**5000, -(10**5000)):
        with pytest.raises(BiribaError) as info:
            codec.decode(huge, deal)
        assert "an integer of 5001 digits is no action id" in str(info.value)
        with pytest.raises(BiribaError) as info:
            codec.describe(huge)
        assert "an integer of 5001 digits is no action id" in str(info.value)


def test_observations_and_returns_check_their_arguments() -> None:
    deal = Deal.new(seed=5)
    view = deal.view(1)
    for call in (
        lambda: observation_layout("biriba"),  # type: ignore[arg-type]
        lambda: observation_layout(BIRIBA, compact="yes"),  # type: ignore[arg-type]
        lambda: observation_layout(BIRIBA, compact=1),  # type: ignore[arg-type]
        lambda: observe("view"),  # type: ignore[arg-type]
        lambda: observe_sparse(deal),  # type: ignore[arg-type]
        lambda: observe(view, compact=None),  # type: ignore[arg-type]
        lambda: team_returns("deal"),  # type: ignore[arg-type]
        lambda: team_returns(deal, "1000"),  # type: ignore[arg-type]
        lambda: outcome_order("3H 4H 5H"),  # type: ignore[arg-type]
        lambda: observation_layout(BIRIBA).split(None),  # type: ignore[arg-type]
        lambda: check_max_moves(2.5),
        lambda: check_max_moves(True),
    ):
        with pytest.raises(TypeError):
            call()
    for bad in (0, -1.0, float("nan"), float("inf"), 10**400):
        with pytest.raises(BiribaError, match="scale must be a finite number more than 0"):
            team_returns(deal, bad)
        with pytest.raises(BiribaError):
            check_scale(bad)
    assert check_scale(REWARD_SCALE) == REWARD_SCALE and check_scale(2) == 2.0
    assert check_max_moves(IntLike(800)) == 800
    with pytest.raises(BiribaError, match="max_moves must be at least 1"):
        check_max_moves(0)
    # An observation of another length (or text) is not this layout's.
    layout = observation_layout(BIRIBA)
    for wrong in ([0] * (layout.size - 1), "0" * layout.size):
        with pytest.raises(BiribaError, match=f"hold {layout.size} numbers"):
            layout.split(wrong)


def test_decode_says_which_rule_refuses_the_move_an_id_names() -> None:
    # API.md: an illegal move's error says which rule forbids it, also through the codec.
    deal = Deal.new(seed=1)  # seat 1 to draw
    codec = codec_for(deal.rules)
    for action, rule in [
        (codec.discard_base + Card.parse("5C").index, "B4.1"),  # must draw first
        (2, "B4.4"),  # pass: the stock is not empty
    ]:
        for table in (deal, deal.view(1)):  # a view answers as its deal does
            with pytest.raises(IllegalMoveError) as info:
                codec.decode(action, table)
            assert info.value.rule == rule and f"{rule}:" in str(info.value)


def test_decode_of_an_outcome_a_meld_does_not_have_cites_B3_12() -> None:
    # 9D fits TD JD QD in one place: the id of its second outcome names no move (B3.12);
    # any outcome of an addition to a meld the team does not have is refused as that
    # addition is (B3.8).
    deal = Deal.from_dict(position(hands={0: "QD 9D 7C 9S"}, melds=(["TD JD QD"], [])))
    codec = codec_for(deal.rules)
    nine = Card.parse("9D").index
    for slot, place, rule in [(0, 1, "B3.12"), (3, 1, "B3.8"), (3, 0, "B3.8")]:
        action = codec.add_base + (slot * 53 + nine) * codec.places + place
        with pytest.raises(IllegalMoveError) as info:
            codec.decode(action, deal)
        assert info.value.rule == rule and f"{rule}" in str(info.value)
    assert codec.decode(codec.add_base + nine * codec.places, deal) in deal.legal_moves()


def test_encode_refuses_a_short_addition_with_a_choice_of_places() -> None:
    # B3.12: where the card has a choice, each outcome has an id and the short form none,
    # as deal.play refuses it (AmbiguousMoveError, with the full moves).
    deal = Deal.from_dict(position(hands={0: "QD 9D 7C 9S"}, melds=(["TD JD 2C KD"], [])))
    codec = codec_for(deal.rules)
    short = AddToMeld(0, Card.parse("QD"))
    with pytest.raises(AmbiguousMoveError) as info:
        codec.encode(short, deal)
    assert info.value.rule == "B3.12"
    full = {str(m) for m in info.value.outcomes}
    assert full == {"add 0 QD -> 2C TD JD QD KD", "add 0 QD -> TD JD QD KD 2C"}
    assert {str(m) for m in deal.legal_moves() if isinstance(m, AddToMeld)} >= full
    ids = {codec.encode(m, deal) for m in deal.legal_moves() if str(m) in full}
    assert len(ids) == 2 and {str(codec.decode(i, deal)) for i in ids} == full
    # One place: the short form is the move and has its id.
    one = AddToMeld(0, Card.parse("9D"))
    assert codec.decode(codec.encode(one, deal), deal) == one


def test_observation_layout_and_content() -> None:
    deal = Deal.new(seed=11)
    rng = random.Random(2)
    for _ in range(150):
        deal.play(melding_policy(deal, rng))
    seat = deal.to_move
    assert seat is not None
    view = deal.view(seat)
    for compact in (False, True):
        layout = observation_layout(deal.rules, compact=compact)
        obs = observe(view, compact=compact)
        assert len(obs) == layout.size
        parts = layout.split(obs)
        assert list(parts["hand"]) == [view.hand.count(c) for c in CARDS]
        assert list(parts["pile"]) == [view.discard_pile.count(c) for c in CARDS]
        assert sum(parts["hand_sizes"]) == sum(view.hand_sizes)
        assert parts["hand_sizes"][0] == len(view.hand)
        assert parts["stock"][0] == view.stock_size
        assert list(parts["to_move"]) == [1, 0, 0, 0]
    full = observation_layout(deal.rules).split(observe(view))
    own = deal.melds(deal.team_of(seat))
    assert own, "the melding policy has laid melds"
    for slot, meld in enumerate(own):
        counts = full["melds"][slot * 54 : slot * 54 + 53]
        assert list(counts) == [meld.cards.count(c) for c in CARDS]
    # The seat's own cards: hand, pile, pile top and barred card (53 each), the three
    # other seats' known cards (3 x 53); 17 numbers of counts, phase and seat; then each
    # team's 36 meld slots of 54 numbers (4,276), or compact, the 106 cards melded by
    # the two teams and 6 meld counts (500).
    common = 4 * 53 + 3 * 53 + 17
    assert observation_layout(BIRIBA).size == common + 2 * 36 * 54 == 4276
    assert observation_layout(BIRIBA, compact=True).size == common + 2 * 53 + 6 == 500


def test_observation_does_not_leak() -> None:
    """Deals that differ only in what the seat cannot see encode to the same numbers."""
    deal = Deal.new(seed=12)
    rng = random.Random(4)
    for _ in range(90):
        deal.play(random_policy(deal, rng))
    for seat in range(4):
        view = deal.view(seat)
        other = view.sample(random.Random(seat))
        assert other.to_dict() != deal.to_dict()
        for compact in (False, True):
            assert observe(other.view(seat), compact=compact) == observe(view, compact=compact)


def test_observation_array() -> None:
    numpy = pytest.importorskip("numpy", reason="numpy is not installed")
    view = Deal.new(seed=1).view(1)
    array = observe_array(view)
    assert array.dtype == numpy.float32
    assert array.tolist() == observe(view)


def test_observation_array_checks_out_before_writing_into_it() -> None:
    numpy = pytest.importorskip("numpy", reason="numpy is not installed")
    view = Deal.new(seed=4).view(1)
    size = len(observe(view))
    filled = numpy.full(size, 7.0, numpy.float32)
    assert observe_array(view, out=filled) is filled
    assert filled.tolist() == observe(view)
    wrong_types: list[Any] = [[7.0] * size, numpy.full(size, 7, numpy.int64)]
    for out in wrong_types:
        with pytest.raises(TypeError, match="out "):
            observe_array(view, out=out)
    read_only = numpy.full(size, 7.0, numpy.float32)
    read_only.flags.writeable = False
    wrong_values = [
        numpy.full(3, 7.0, numpy.float32),
        numpy.full((2, size), 7.0, numpy.float32),
        read_only,
    ]
    for out in wrong_values:
        with pytest.raises(BiribaError, match="out ") as error:
            observe_array(view, out=out)
        assert len(str(error.value)) < 200
        assert (out == 7.0).all()  # untouched
    assert wrong_types[0] == [7.0] * size and wrong_types[1].tolist() == [7] * size


def test_team_returns_are_the_scaled_score_difference() -> None:
    deal = Deal.new(seed=5)
    rng = random.Random(5)
    while not deal.is_over:
        deal.play(random_policy(deal, rng))
    teams = deal.score().teams
    returns = team_returns(deal, 100)
    assert returns[0] == returns[2] == (teams[0].total - teams[1].total) / 100
    assert sum(returns) == 0


def test_from_pack_deals_like_new() -> None:
    pack = list(full_pack(BIRIBA))
    random.Random(9).shuffle(pack)
    dealt = Deal.from_pack(pack, BIRIBA, dealer=2)
    assert dealt.to_dict() == Deal.new(BIRIBA, seed=9, dealer=2).to_dict()
    with pytest.raises(BiribaError) as err:
        Deal.from_pack(pack[:-1], BIRIBA)
    assert err.value.rule == "B1.2"


def test_V7_a_rule_set_whose_pack_lays_too_many_melds_has_no_codec_and_says_so() -> None:
    # Without a limit on substitutes, Biriba's pack lays hundreds of millions of
    # sequences: the codec is refused at once, before listing them (it once filled the
    # memory), and so are the adapters built on it.
    for limit in (None, 4):
        rules = BIRIBA.evolve(max_substitutes=limit)
        assert many_substitute_sequences_bound(rules) > MAX_CODEC_MELDS
        with pytest.raises(BiribaError, match=r"V7.*more than an action codec gives ids to"):
            codec_for(rules)
    # The bound is at least what the codec lists (sequences with two substitutes or more),
    # and 0 where a meld holds one substitute at most.
    assert many_substitute_sequences_bound(BIRIBA) == 0
    for rules in (
        BURACO,
        BIRIBA.evolve(max_substitutes=2),
        BIRIBA.evolve(max_substitutes=2, twos_always_wild=True),
        BURACO.evolve(max_substitutes=2),
    ):
        listed = sum(
            1
            for meld in codec_for(rules).melds
            if meld.kind is MeldKind.SEQUENCE and len(meld.substitutes) >= 2
        )
        assert 0 < listed <= many_substitute_sequences_bound(rules) <= MAX_CODEC_MELDS
