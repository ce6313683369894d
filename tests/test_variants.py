"""Every preset and every option of RULES.md part V: random playouts with the engine's
invariants, rule sets as data, and one test per option from explicit positions."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from biriba import (
    BIRIBA,
    BIRIBA_KOZI,
    BURACO,
    JOKER,
    AddToMeld,
    BiribaError,
    Card,
    Deal,
    Discard,
    IllegalMoveError,
    InvalidMeldError,
    InvalidPositionError,
    LayMeld,
    Match,
    Meld,
    Move,
    NameSuit,
    NotationError,
    Phase,
    Redraw,
    RuleSet,
    StockExhausted,
    Suit,
    full_pack,
    parse_cards,
    records,
)
from biriba import engine as biriba_engine
from biriba.bots import GreedyBot, RandomBot, play_deal
from biriba.engine import Engine, Situation, engine_for
from biriba.position import Position, size_of

from .helpers import (
    PROFILE,
    candidate_moves,
    cards_in_play,
    deal_at,
    examples,
    position,
    rejects,
    texts,
)

#: Random deals per preset: 200 in the ``ci`` profile (``.ci/run``), fewer in the README's
#: quicker test command.
PRESET_DEALS = 200 if PROFILE == "ci" else 3

#: The rule sets of each player count, for Biriba (V6) and Buraco (Z1.1).
BASES = {
    "biriba-2": RuleSet.named("biriba-2"),
    "biriba-3": RuleSet.named("biriba-3"),
    "biriba": BIRIBA,
    "biriba-6": RuleSet.named("biriba-6"),
    "buraco-2": RuleSet.named("buraco-2"),
    "buraco-3": BURACO.evolve(name="buraco-3", players=3, teams=3),
    "buraco": BURACO,
    "buraco-5": BURACO.evolve(name="buraco-5", players=5, teams=5),
    "buraco-6x3": BURACO.evolve(name="buraco-6x3", players=6, teams=3),
    "buraco-6": RuleSet.named("buraco-6"),
}

#: Each option of part V (and the Buraco rules usable as options) on its own.
OPTIONS: dict[str, dict[str, Any]] = {
    "V1-kozi": {"bonus_suit_bonus": (200, 100)},
    "V2-sequences-only": {"groups": False},
    "V3-entry-minimum": {"entry_minimum": 50},
    "V4-reserve-without-biriba": {"reserve_needs_biriba": False},
    "V5-target": {"target": 1000, "target_strict": False},
    "V7-two-substitutes": {"max_substitutes": 2},
    "V7-two-substitutes-biriba": {"max_substitutes": 2, "multi_substitute_biriba": True},
    "V7-twos-always-wild": {"twos_always_wild": True},
    "V7-stock-ends-early": {"stock_end_remaining": 3},
    "V7-keep-one": {"keep_after_melding": 1},
    "Z2.2-redraw": {"first_turn_redraw": True},
    "Z3.7-wild-melds": {"wild_melds": True},
    "Z4.3-morto-stock": {"stock_exhausted": StockExhausted.RESERVE_BECOMES_STOCK},
}


def _variant(base: str, option: str) -> RuleSet | None:
    """``base`` with ``option`` on, or ``None`` where the option says nothing new or
    cannot be combined (kózi needs an up-card, V1)."""
    rules = BASES[base]
    changes = OPTIONS[option]
    if all(getattr(rules, k) == v for k, v in changes.items()):
        return None
    if "bonus_suit_bonus" in changes and not rules.up_card:
        return None
    return rules.evolve(name=f"{base}+{option}", **changes)


#: Every option at every player count in the ``ci`` profile; at four players only in the
#: README's quicker test command.
VARIANTS = [
    pytest.param(v, id=v.name)
    for b in (BASES if PROFILE == "ci" else ("biriba", "buraco"))
    for o in OPTIONS
    if (v := _variant(b, o)) is not None
]


# ---------------------------------------------------------------- invariants
def check(deal: Deal, rng: random.Random) -> None:
    """The invariants of one position: cards conserved, a legal move until the deal ends,
    ``is_legal`` agreeing with ``legal_moves()``, the view's moves the deal's, every
    move's text reading back to an equal move, and the position's data round-tripping
    exactly."""
    pack = Counter(full_pack(deal.rules))
    assert cards_in_play(deal) == pack
    moves = deal.legal_moves()
    assert (not moves) == deal.is_over
    assert len(set(moves)) == len(moves)
    legal = set(moves)
    for move in candidate_moves(deal, rng, per_meld=4):
        assert deal.is_legal(move) == (move in legal), str(move)
    if deal.to_move is not None:
        assert deal.view(deal.to_move).legal_moves() == moves
    for move in moves:  # a move's text reads back to an equal move, with or without rules
        text = str(move)
        assert Move.parse(text) == move and hash(Move.parse(text)) == hash(move), text
        assert Move.parse(text, deal.rules) == move, text
        # Every listed move is legal, as itself and as its text (checked by the rules, not
        # found in the list: a parsed move is another object).
        assert deal.is_legal(move) and deal.is_legal(text), text
    data = deal.to_dict()
    assert json.loads(json.dumps(data)) == data
    again = Deal.from_dict(json.loads(json.dumps(data)))
    assert again.rules == deal.rules
    # Every field comes back (a deal that is over does not say who acted last).
    assert again.position._replace(seat=deal.position.seat) == deal.position
    assert again.to_dict() == data and again.legal_moves() == moves


def playout(rules: RuleSet, seed: int, every: int = 7) -> Deal:
    """A random deal under ``rules``, checking after every move that undo is exact and,
    every ``every`` moves, the position's invariants (:func:`check`)."""
    deal = Deal.new(rules, seed=seed, dealer=seed % rules.players)
    rng = random.Random(seed)
    ply = 0
    while not deal.is_over:
        if ply % every == 0:
            check(deal, rng)
        moves = deal.legal_moves()
        assert moves, "a position that is not over has a legal move (B4.5)"
        move = rng.choice(moves)
        before = deal.position
        deal.play(move)
        assert deal.undo() == move and deal.position == before
        deal.play(move)
        ply += 1
        assert ply < 5000, "the deal does not end"
    check(deal, rng)
    score = deal.score()
    assert score.final and len(score.teams) == rules.teams
    for team in score.teams:
        assert team.hands <= 0 and team.reserve <= 0
        assert team.total == team.melded + team.bonuses + team.hands + team.closing + team.reserve
    return deal


@pytest.mark.parametrize("name", RuleSet.preset_names())
def test_every_preset_plays_random_deals_with_every_invariant(name: str) -> None:
    rules = RuleSet.named(name)

    @settings(max_examples=PRESET_DEALS)
    @given(st.integers(0, 2**32 - 1))
    def deals(seed: int) -> None:
        playout(rules, seed, every=40 if PROFILE == "ci" else 3)

    deals()


@pytest.mark.parametrize("rules", VARIANTS)
def test_each_option_on_its_own_at_every_player_count(rules: RuleSet) -> None:
    @settings(max_examples=examples(1))
    @given(st.integers(0, 2**32 - 1))
    def deals(seed: int) -> None:
        playout(rules, seed, every=15 if PROFILE == "ci" else 5)

    deals()


@pytest.mark.parametrize("name", RuleSet.preset_names())
def test_the_bots_finish_deals_under_every_preset(name: str) -> None:
    rules = RuleSet.named(name)
    for seed in range(examples(2)):
        seats = [
            (GreedyBot if s % 2 else RandomBot)(seed=f"{seed}/{s}") for s in range(rules.players)
        ]
        deal = play_deal(Deal.new(rules, seed=seed), seats)
        assert deal.is_over
        record = records.record_deal(deal)
        assert records.replay(records.loads(records.dumps(record))).to_dict() == deal.to_dict()


# ---------------------------------------------------------------- rule sets as data
FLAGS = (
    "groups",
    "twos_always_wild",
    "reserve_needs_biriba",
    "close_needs_biriba",
    "target_strict",
    "first_turn_redraw",
    "wild_melds",
    "multi_substitute_biriba",
    "high_ace_closes_meld",
)


@st.composite
def rule_sets(draw: st.DrawFn) -> RuleSet:
    """Rule sets made from a preset with any combination of options."""
    base = RuleSet.named(draw(st.sampled_from(RuleSet.preset_names())))
    changes: dict[str, Any] = {
        flag: draw(st.booleans()) for flag in draw(st.sets(st.sampled_from(FLAGS)))
    }
    if draw(st.booleans()):
        changes["entry_minimum"] = draw(st.sampled_from([0, 30, 50, 90]))
    if draw(st.booleans()):
        changes["max_substitutes"] = draw(st.sampled_from([None, 1, 2, 3]))
    if draw(st.booleans()) and base.up_card:
        changes["bonus_suit_bonus"] = draw(st.sampled_from([None, (200, 100), (100, 50)]))
    if draw(st.booleans()):
        changes["stock_exhausted"] = draw(st.sampled_from(list(StockExhausted)))
    if draw(st.booleans()):
        changes["keep_after_melding"] = draw(st.sampled_from([1, 2, 3]))
    if draw(st.booleans()):
        changes["stock_end_remaining"] = draw(st.sampled_from([0, 2, 5]))
    if draw(st.booleans()):
        changes["target"] = draw(st.integers(1, 20_000))
    name = draw(st.sampled_from([base.name, "custom", "my rules"]))
    try:
        return base.evolve(name=name, **changes)
    except BiribaError:
        assume(False)
        raise  # pragma: no cover - assume(False) stops the example


@settings(max_examples=examples(60))
@given(rule_sets())
def test_generated_rule_sets_round_trip_exactly(rules: RuleSet) -> None:
    data = rules.to_dict()
    assert json.loads(json.dumps(data)) == data
    again = RuleSet.from_dict(json.loads(json.dumps(data)))
    assert again == rules and again.to_dict() == data
    # Wherever the rules are written, a variant never comes back as its preset.
    deal = Deal.new(rules, seed=1)
    assert Deal.from_dict(json.loads(json.dumps(deal.to_dict()))).rules == rules
    view = deal.view(0).to_dict()
    written = view["rules"]
    assert (written == rules.name) if rules.is_preset else (written == data)


@settings(max_examples=examples(8))
@given(rule_sets(), st.integers(0, 2**16))
def test_generated_rule_sets_play_with_every_invariant(rules: RuleSet, seed: int) -> None:
    playout(rules, seed, every=11)


def test_a_variant_keeps_its_options_through_positions_matches_and_records() -> None:
    """The issue's own examples: groups off, a target of 1000, six players in three
    teams: each comes back exactly, never as the preset whose name it carries."""
    no_groups = BIRIBA.evolve(groups=False)  # still named "biriba"
    deal = Deal.new(no_groups, seed=0)
    back = Deal.from_dict(deal.to_dict())
    assert back.rules == no_groups and not back.rules.groups
    assert isinstance(deal.to_dict()["rules"], dict)
    target = BIRIBA.evolve(target=1000)
    match = Match.new(target, seed=3)
    assert Match.from_dict(match.to_dict()).rules.target == 1000
    six = BURACO.evolve(players=6, teams=3)
    deal = Deal.new(six, seed=2)
    for _ in range(30):
        deal.play(deal.legal_moves()[-1])
    record = records.loads(records.dumps(records.record_deal(deal)))
    assert records.replay(record).rules == six
    # A file that names a preset keeps loading as that preset.
    assert Deal.from_dict(Deal.new(BURACO, seed=1).to_dict()).rules is BURACO


def test_rule_set_data_errors() -> None:
    with pytest.raises(BiribaError, match="no field 'colour'"):
        RuleSet.from_dict({"name": "x", "colour": "red"})
    with pytest.raises(BiribaError, match=r"RuleSet\.players must be a whole number"):
        RuleSet.from_dict({"name": "x", "players": "4"})
    with pytest.raises(BiribaError, match="needs a 'name'"):
        RuleSet.from_dict({"players": 4})
    with pytest.raises(BiribaError, match=r"stock_exhausted must be 'take-or-pass'"):
        RuleSet.from_dict({"name": "x", "stock_exhausted": "burn"})
    with pytest.raises(BiribaError, match=r"players do not split"):
        RuleSet.from_dict({"name": "x", "players": 5})
    with pytest.raises(TypeError):
        RuleSet.from_dict(["name"])  # type: ignore[arg-type]
    # A field left out comes from the preset of that name.
    assert RuleSet.from_dict({"name": "buraco", "players": 6, "teams": 3}).jokers == 2
    assert RuleSet.from_dict({"name": "mine", "players": 6, "teams": 3}).jokers == 4
    # The preset is found as RuleSet.named finds it, in any case or by an alias: never
    # Biriba's fields under another preset's name. The name stays as written.
    assert RuleSet.from_dict({"name": "buraco"}) == BURACO
    assert RuleSet.from_dict({"name": "Buraco"}) == BURACO.evolve(name="Buraco")
    assert RuleSet.from_dict({"name": "kozi"}) == BIRIBA_KOZI.evolve(name="kozi")
    changed = RuleSet.from_dict({"name": " BURACO ", "target": 3000})
    assert changed == BURACO.evolve(name=" BURACO ", target=3000) and not changed.is_preset
    for rules in (changed, BIRIBA.evolve(name="Kozi"), BURACO.evolve(name="BIRIBA")):
        assert RuleSet.from_dict(rules.to_dict()) == rules  # exact, whatever the name


def test_positions_refuse_rules_they_do_not_know() -> None:
    data = Deal.new(seed=1).to_dict()
    data["rules"] = {"name": "biriba", "groups": "no"}
    with pytest.raises(BiribaError, match="groups must be true or false"):
        Deal.from_dict(data)
    data["rules"] = BIRIBA.evolve(groups=False, entry_minimum=50).to_dict()
    with pytest.raises(BiribaError, match="not the rule set given") as refused:
        Deal.from_dict(data, BIRIBA)
    # Both are named biriba: the error says which fields differ.
    assert str(refused.value).endswith("they differ in groups, entry_minimum")


# ---------------------------------------------------------------- V1 kózi
def _joker_up_seed(rules: RuleSet) -> int:
    for seed in range(10_000):
        if Deal.new(rules, seed=seed).discard_pile == (JOKER,):
            return seed
    raise AssertionError("no seed turns up a joker")  # pragma: no cover


def test_V1_the_up_card_names_the_bonus_suit() -> None:
    for seed in range(20):
        deal = Deal.new(BIRIBA_KOZI, seed=seed)
        up = deal.discard_pile[0]
        if up.suit is not None:  # not a joker; a two gives its suit too
            assert deal.bonus_suit is up.suit
            assert deal.to_dict()["bonus_suit"] == up.suit.letter
            assert deal.view(2).bonus_suit is up.suit
    assert Deal.new(BIRIBA, seed=1).bonus_suit is None
    assert "bonus_suit" not in Deal.new(BIRIBA, seed=1).to_dict()


def test_V1_a_joker_up_card_is_taken_and_the_suit_named() -> None:
    seed = _joker_up_seed(BIRIBA_KOZI)
    deal = Deal.new(BIRIBA_KOZI, seed=seed)
    assert deal.bonus_suit is None
    assert texts(deal) == {"kozi C", "kozi D", "kozi H", "kozi S"}
    for move in ("draw", "take"):
        before = deal.to_dict()
        with pytest.raises(IllegalMoveError) as info:
            deal.play(move)
        assert info.value.rule == "V1" and deal.to_dict() == before
    seat = deal.to_move
    assert seat is not None
    size = deal.hand_size(seat)
    deal.play("kozi H")
    assert deal.bonus_suit is Suit.HEARTS and deal.discard_pile == ()
    assert deal.hand_size(seat) == size + 1 and JOKER in deal.hand(seat)
    assert deal.known_cards(seat) == (JOKER,)  # taken face up: public
    assert deal.phase is Phase.DRAW and texts(deal) == {"draw"}  # the turn goes on
    assert Deal.from_dict(deal.to_dict()).bonus_suit is Suit.HEARTS
    with pytest.raises(IllegalMoveError) as info:
        deal.play("kozi S")
    assert info.value.rule == "V1"
    assert str(Move.parse("kozi h")) == "kozi H" and Move.parse("KOZI ♠") == NameSuit(Suit.SPADES)


def test_V1_with_the_redraw_the_draw_after_naming_the_suit_is_the_deal_s_first() -> None:
    # Z2.2 on a kózi rule set: the joker up-card taken and the suit named (V1), the turn
    # goes on with the deal's first draw, which the redraw may follow; not a later draw.
    rules = BIRIBA_KOZI.evolve(name="kozi-redraw", first_turn_redraw=True)
    deal = Deal.new(rules, seed=_joker_up_seed(rules))
    deal.play("kozi H")
    deal.play("draw")
    drawn = deal.history[-1]
    assert deal.is_legal("redraw") and "redraw" in texts(deal)
    data = deal.to_dict()
    assert data["redraw"] is not None
    assert Deal.from_dict(data).is_legal("redraw")
    # Read without the optional known cards, and in the deals a view samples, likewise.
    named = Deal.new(rules, seed=_joker_up_seed(rules))
    named.play("kozi H")
    bare = named.to_dict()
    del bare["known"]
    again = Deal.from_dict(bare)
    again.play("draw")
    assert again.is_legal("redraw")
    for seat in range(rules.players):
        sampled = named.view(seat).sample(random.Random(seat))
        sampled.play("draw")
        assert sampled.is_legal("redraw")
    size = deal.hand_size(deal.dealer + 1)
    deal.play("redraw")
    assert len(deal.discard_pile) == 1 and deal.hand_size(deal.dealer + 1) == size
    assert not deal.is_legal("redraw") and drawn == deal.history[-2]
    # The next player's draw opens nothing.
    deal.play(next(m for m in deal.legal_moves() if isinstance(m, Discard)))
    deal.play("draw")
    assert not deal.is_legal("redraw")


def test_V1_a_named_joker_stays_known_through_the_redraw() -> None:
    # The card laid off by the redraw (Z2.2) is the one just drawn, which nobody knew the
    # player to hold: the joker taken when naming the suit stays known, even when the
    # card drawn and laid off is another joker.
    rules = BIRIBA_KOZI.evolve(name="kozi-redraw", first_turn_redraw=True)
    data = Deal.new(rules, seed=_joker_up_seed(rules)).to_dict()
    stock = data["stock"]
    if stock[-1] != "JK":  # another joker to the top of the stock
        hand = next(h for h in (*data["hands"], *data["reserves"], stock) if "JK" in h)
        i = hand.index("JK")
        hand[i], stock[-1] = stock[-1], hand[i]
    deal = Deal.from_dict(data)
    seat = deal.to_move
    assert seat is not None and deal.discard_pile == (JOKER,) and deal.stock[-1] == JOKER
    deal.play("kozi H")
    deal.play("draw")
    deal.play("redraw")
    assert deal.discard_pile == (JOKER,)
    assert deal.known_cards(seat) == (JOKER,) and JOKER in deal.hand(seat)
    assert deal.view((seat + 1) % 4).known[seat] == (JOKER,)


def test_V1_a_first_position_s_bonus_suit_is_its_up_card_s() -> None:
    # Before any move the up-card alone decides: another suit, or any suit while a joker
    # up-card waits to be named, is a position no deal reaches.
    data = Deal.new(BIRIBA_KOZI, seed=0).to_dict()
    up = Card.parse(data["discard"][0])
    assert up.suit is not None and data["bonus_suit"] == up.suit.letter
    other = next(s for s in Suit if s is not up.suit)
    data["bonus_suit"] = other.letter
    with pytest.raises(InvalidPositionError, match="gives the suit") as info:
        Deal.from_dict(data)
    assert info.value.rule == "V1"
    data = Deal.new(BIRIBA_KOZI, seed=_joker_up_seed(BIRIBA_KOZI)).to_dict()
    assert data["bonus_suit"] is None
    data["bonus_suit"] = "S"
    with pytest.raises(InvalidPositionError, match="joker") as info:
        Deal.from_dict(data)
    assert info.value.rule == "V1"


def test_V1_a_two_turned_up_gives_its_suit() -> None:
    """A two as the up-card names the bonus suit like any other card (V1): a first
    position whose up-card is 2S has spades as its bonus suit, derived or given."""
    data = position(
        rules=BIRIBA_KOZI, to_move=0, phase="draw", discard="2S", dealer=3, stock_size=41
    )
    data.pop("bonus_suit", None)
    deal = Deal.from_dict(data, BIRIBA_KOZI)
    assert deal.bonus_suit is Suit.SPADES
    assert Deal.from_dict({**data, "bonus_suit": "S"}, BIRIBA_KOZI).bonus_suit is Suit.SPADES
    with pytest.raises(InvalidPositionError) as info:
        Deal.from_dict({**data, "bonus_suit": "H"}, BIRIBA_KOZI)
    assert info.value.rule == "V1"


def test_V1_a_position_without_bonus_suit_takes_it_from_the_up_card_of_the_first_only() -> None:
    # API.md: bonus_suit is optional on input, derived from the up-card in a deal's first
    # position. A later position whose pile is one card on a full stock (the up-card
    # taken, another discarded) has no up-card to read: it is refused, never read as
    # the discard's suit.
    deal = Deal.new(BIRIBA_KOZI, seed=0)
    up = deal.discard_pile[0]
    assert up.suit is not None
    first = deal.to_dict()
    del first["bonus_suit"]
    assert Deal.from_dict(first).bonus_suit is up.suit
    deal.play("take")
    discard = next(
        m for m in deal.legal_moves() if isinstance(m, Discard) and m.card.suit != up.suit
    )
    deal.play(discard)
    later = deal.to_dict()
    assert later["bonus_suit"] == str(up.suit) and len(later["discard"]) == 1
    assert len(later["stock"]) == len(first["stock"])  # nothing drawn yet
    del later["bonus_suit"]
    with pytest.raises(InvalidPositionError, match="bonus_suit is needed") as info:
        Deal.from_dict(later)
    assert info.value.rule == "V1"
    # A joker discarded there does not open the naming of a suit either.
    seed = next(
        s
        for s in range(200)
        if JOKER in (d := Deal.new(BIRIBA_KOZI, seed=s)).hand((d.dealer + 1) % 4)
        and d.discard_pile[0] != JOKER
    )
    deal = Deal.new(BIRIBA_KOZI, seed=seed)
    deal.play("take")
    deal.play("discard JK")
    data = deal.to_dict()
    del data["bonus_suit"]
    with pytest.raises(InvalidPositionError, match="bonus_suit is needed"):
        Deal.from_dict(data)


def test_V1_the_bonus_suit_doubles_a_sequence_biriba_bonus() -> None:
    clean = Meld.parse("3H 4H 5H 6H 7H 8H 9H", BIRIBA_KOZI)
    dirty = Meld.parse("3H 4H 5H JK 7H 8H 9H", BIRIBA_KOZI)
    full = Meld.parse("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", BIRIBA_KOZI)
    group = Meld.parse("7H 7H 7S 7S 7D 7D 7C", BIRIBA_KOZI)
    assert clean.bonus == 200 and clean.bonus_with(Suit.HEARTS) == 400
    assert dirty.bonus_with(Suit.HEARTS) == 200 and clean.bonus_with(Suit.SPADES) == 200
    assert full.bonus_with(Suit.HEARTS) == 2000
    assert group.bonus_with(Suit.HEARTS) == group.bonus == 300  # groups have no suit
    assert Meld.parse("3H 4H 5H 6H 7H 8H 9H").bonus_with(Suit.HEARTS) == 200  # no kózi
    # The deal's score counts it.
    data = position(
        rules=BIRIBA_KOZI,
        hands={0: "KS QS"},
        melds=(["3H 4H 5H 6H 7H 8H 9H"], ["3S 4S 5S 6S 7S 8S 9S"]),
        bonus_suit="H",
    )
    score = Deal.from_dict(data).score()
    assert score.teams[0].bonuses == 400 and score.teams[1].bonuses == 200


def test_V1_needs_an_up_card() -> None:
    with pytest.raises(BiribaError) as info:
        BURACO.evolve(bonus_suit_bonus=(200, 100))
    assert info.value.rule == "V1"


# ---------------------------------------------------------------- V3 entry minimum
MIN50 = BIRIBA.evolve(name="min-50", entry_minimum=50)


@pytest.fixture(params=["mixed", "exact"])
def v3_search(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """V3: a test of an opening turn runs twice, with the look-ahead as the engine mixes
    its quick search and its exact one, and with the exact one alone (the quick one
    finds most ways at once, and would leave the exact one's cases untried); the
    engines' answers from before are emptied each time."""
    if request.param == "exact":
        monkeypatch.setattr(biriba_engine, "_QUICK_STATES", 0)
    biriba_engine.clear_caches()
    yield
    biriba_engine.clear_caches()


@pytest.mark.usefixtures("v3_search")
def test_V3_a_meld_that_cannot_reach_the_minimum_is_refused() -> None:
    # 3C 4C 5C is worth 15; nothing else in hand melds: the minimum of 50 is out of reach.
    deal = deal_at(rules=MIN50, hands={0: "3C 4C 5C 9D KS QH"})
    assert "meld 3C 4C 5C" not in texts(deal)
    before = deal.to_dict()
    with pytest.raises(IllegalMoveError) as info:
        deal.play("meld 3C 4C 5C")
    assert info.value.rule == "V3" and deal.to_dict() == before
    assert "discard KS" in texts(deal)  # not melding at all is allowed


@pytest.mark.usefixtures("v3_search")
def test_V3_card_values_only_no_bonuses_count_towards_the_minimum() -> None:
    """A clean biriba of 3H to 9H holds 45 points of cards and a bonus of 200 (B8.3); only
    the 45 count towards a minimum of 100 (V3), and nothing else in hand melds: the meld
    is refused."""
    rules = BIRIBA.evolve(name="minimum-100", entry_minimum=100)
    deal = deal_at(rules=rules, hands={0: "3H 4H 5H 6H 7H 8H 9H KS QD 5C"})
    assert "meld 3H 4H 5H 6H 7H 8H 9H" not in texts(deal)
    with pytest.raises(IllegalMoveError) as info:
        deal.play("meld 3H 4H 5H 6H 7H 8H 9H")
    assert info.value.rule == "V3"
    # At a minimum of 45 the same cards reach it.
    reached = BIRIBA.evolve(name="minimum-45", entry_minimum=45)
    deal = deal_at(rules=reached, hands={0: "3H 4H 5H 6H 7H 8H 9H KS QD 5C"})
    assert "meld 3H 4H 5H 6H 7H 8H 9H" in texts(deal)


@pytest.mark.usefixtures("v3_search")
def test_V3_melds_reaching_the_minimum_together_and_the_discard_waits() -> None:
    # 3C 4C 5C (15) then KS KH KD (30) then an addition 6C (5): 50.
    deal = deal_at(rules=MIN50, hands={0: "3C 4C 5C 6C KS KH KD 9D 8S"})
    assert deal.to_dict()["opening"] is True
    deal.play("meld 3C 4C 5C")  # legal: the rest of the hand can still reach 50
    rejects_discard = deal.to_dict()
    with pytest.raises(IllegalMoveError) as info:
        deal.play("discard 9D")
    assert info.value.rule == "V3" and deal.to_dict() == rejects_discard
    deal.play("meld KS KH KD")
    assert not deal.is_legal("discard 9D")  # 45 so far
    deal.play("add 0 6C")
    deal.play("discard 9D")  # 50 reached
    assert deal.to_move == 1


@pytest.mark.usefixtures("v3_search")
def test_V3_opening_must_agree_with_the_table() -> None:
    for phase, melds, opening in (("draw", [], False), ("draw", ["7H 8H 9H"], True)):
        data = position(
            rules=MIN50,
            hands={0: "3C 4C 5C 9D KS"},
            phase=phase,
            melds=(melds, []),
            opening=opening,
            discard="QD",
        )
        with pytest.raises(BiribaError) as info:
            Deal.from_dict(data)
        assert info.value.rule == "V3"
    # In the play phase a team without a meld is opening (nothing of it is on the table).
    data = position(rules=MIN50, hands={0: "3C 4C 5C 9D KS"}, opening=False)
    with pytest.raises(BiribaError) as info:
        Deal.from_dict(data)
    assert info.value.rule == "V3"
    # Written by to_dict, it comes back.
    deal = deal_at(rules=MIN50, hands={0: "3C 4C 5C 6C KS KH KD 9D 8S"})
    deal.play("meld 3C 4C 5C")
    assert Deal.from_dict(deal.to_dict()).to_dict()["opening"] is True


def test_V3_later_turns_are_free() -> None:
    # The team already melded in an earlier turn: a small meld is fine.
    deal = deal_at(rules=MIN50, hands={0: "3C 4C 5C 9D KS"}, melds=(["7H 8H 9H"], []))
    assert deal.to_dict()["opening"] is False
    deal.play("meld 3C 4C 5C")
    deal.play("discard 9D")


#: Every substitute of the ``biriba`` pack: the eight twos and the four jokers (B1.2, B1.3).
ALL_WILD = "2C 2C 2D 2D 2H 2H 2S 2S JK JK JK JK"


@pytest.mark.usefixtures("v3_search")
def test_V3_a_hand_full_of_substitutes_that_cannot_reach_the_minimum(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """B4.5's look-ahead on a 20-card hand: every substitute and AC 3C to 9C, under a
    minimum of 200. A meld holds at most one substitute and at least two cards that are
    not (B3.3): the 8 clubs and the two 2C natural at rank 2 (B3.6) make at most 5 melds,
    so at most 5 substitutes are laid: 60 + 20 + 4 * 20 + 10 = 170, and the hand cannot
    empty into its packet. No meld nor addition is legal, and the hand may discard.

    The search once tried every way of laying the substitutes (minutes for this
    position): the look-ahead here is held to a few thousand steps, so that the test
    fails at once rather than slowly if it ever does so again."""
    steps = 0
    can_finish = Engine.can_finish

    def counted(engine: Engine, situation: Situation) -> bool:
        nonlocal steps
        steps += 1
        assert steps < 5_000, "the V3 look-ahead searched every way of laying the hand"
        return can_finish(engine, situation)

    monkeypatch.setattr(Engine, "can_finish", counted)
    rules = BIRIBA.evolve(name="min-200", entry_minimum=200)
    deal = deal_at(rules=rules, hands={0: f"{ALL_WILD} AC 3C 4C 5C 6C 7C 8C 9C"})
    assert {m.split()[0] for m in texts(deal)} == {"discard"}
    rejects(deal, "meld JK 2C 3C", "V3")
    rejects(deal, "meld 3C 4C 5C", "V3")


@pytest.mark.usefixtures("v3_search")
def test_V3_a_hand_of_many_substitutes_that_can_reach_the_minimum() -> None:
    """The bound that refuses the hand above counts only what the melds could hold: with
    enough naturals to hold the substitutes, melds leading to the minimum stay legal.
    Under a minimum of 120, seven substitutes with AC to 9C (170 points in all, of which
    the melds could hold 150: four melds of two naturals and a joker, 2C natural at rank
    2): a meld without a substitute still leaves 135 within reach, and once the team has
    laid it the discard waits for the minimum."""
    rules = BIRIBA.evolve(name="min-120", entry_minimum=120)
    deal = deal_at(rules=rules, hands={0: "JK JK JK JK 2D 2D 2C AC 3C 4C 5C 6C 7C 8C 9C"})
    legal = texts(deal)
    assert {"meld JK 4C 5C", "meld 4C 5C 6C", "meld 2C 3C 4C"} <= legal
    deal.play("meld 4C 5C 6C")
    rejects(deal, "discard 9C", "V3")  # 15 of 120 laid
    # 35, 5, 40, 15 and 20 more: 130.
    for move in (
        "meld JK 2C 3C",
        "add 0 7C",
        "meld 8C 9C JK",
        "add 1 AC",
        "add 0 JK -> 4C 5C 6C 7C JK",
    ):
        deal.play(move)
    deal.play("discard 2D")
    assert deal.to_move == 1


#: The substitutes of the ``biriba`` pack, and naturals of two suits' low ranks and of
#: one rank: hands drawn from them can make many melds with substitutes, or few.
_WILDS = parse_cards(ALL_WILD)
_NATURALS = parse_cards("AC AC 3C 3C 4C 4C 5C 6C 7C 8C AH 3H 4H 5H 5H 6H 7H 7D 7S KD KS KH")


@st.composite
def v3_rule_sets(draw: st.DrawFn) -> RuleSet:
    """``biriba`` with an entry minimum (V3) and options that change what melds hold."""
    changes: dict[str, Any] = {"entry_minimum": draw(st.sampled_from([50, 90, 120, 160]))}
    for flag in ("groups", "twos_always_wild", "reserve_needs_biriba"):
        if draw(st.booleans()):
            changes[flag] = draw(st.booleans())
    if draw(st.booleans()):
        changes["max_substitutes"] = draw(st.sampled_from([None, 1, 2]))
    try:
        return BIRIBA.evolve(name="v3", **changes)
    except BiribaError:
        assume(False)
        raise  # pragma: no cover - assume(False) stops the example


@settings(max_examples=examples(150), deadline=None)
@given(
    v3_rule_sets(),
    # Small hands: the search grows fast with the hand (eleven cards of which six
    # substitutes, under a minimum of 160, can take minutes).
    st.lists(st.sampled_from(range(len(_WILDS))), min_size=4, max_size=5, unique=True),
    st.lists(st.sampled_from(range(len(_NATURALS))), min_size=2, max_size=4, unique=True),
    st.booleans(),
)
def test_V3_the_bound_on_what_melds_hold_lists_the_same_moves(
    rules: RuleSet, wilds: list[int], naturals: list[int], packet: bool
) -> None:
    """B4.5 under V3: a hand of many substitutes and some naturals, in a turn that must
    reach the minimum, has the same legal moves at every position down a line of play as
    the search with only the plain bound (the whole hand's value) finds."""
    hand = " ".join(str(c) for c in [_WILDS[i] for i in wilds] + [_NATURALS[i] for i in naturals])
    if packet or rules.reserve_needs_biriba:  # the hand may empty into its packet (B5.3)
        deal = deal_at(rules=rules, hands={0: hand})
    else:  # the packet received earlier (V4: without a biriba)
        deal = deal_at(rules=rules, hands={0: hand}, received=(True, False), reserves_left=1)
    oracle = Engine(rules, plain_bound=True)
    rng = random.Random(len(hand))
    while deal.phase is Phase.PLAY and deal.to_move == 0:
        listed = deal.legal_moves()
        assert listed == oracle.legal_moves(deal.position)
        deal.play(rng.choice(listed))


@settings(max_examples=examples(25), deadline=None)
@given(
    st.lists(st.sampled_from(range(len(_WILDS))), min_size=4, max_size=6, unique=True),
    st.lists(st.sampled_from(range(len(_NATURALS))), min_size=2, max_size=5, unique=True),
    st.booleans(),
)
def test_V3_the_bound_is_never_below_what_a_hand_can_lay(
    wilds: list[int], naturals: list[int], groups: bool
) -> None:
    """The bound on what the melds could hold of a hand (V3, B3.3) is never below the
    most it can lay in fact: the highest entry minimum under which the plain search still
    finds a legal meld in the opening turn (found by halving, minimums being multiples of
    5) is at most the bound."""
    cards = [_WILDS[i] for i in wilds] + [_NATURALS[i] for i in naturals]
    hand = " ".join(str(c) for c in cards)

    def deal_under(minimum: int) -> Deal:
        rules = BIRIBA.evolve(
            name="v3", entry_minimum=minimum, groups=groups, reserve_needs_biriba=False
        )
        return deal_at(rules=rules, hands={0: hand}, received=(True, False), reserves_left=1)

    def can_open(minimum: int) -> bool:
        deal = deal_under(minimum)
        oracle = Engine(deal.rules, plain_bound=True)
        return any(isinstance(m, LayMeld) for m in oracle.legal_moves(deal.position))

    if not can_open(5):
        return  # no meld at all
    low, high = 1, sum(BIRIBA.card_value(c) for c in cards) // 5 + 1  # in fives
    while high - low > 1:  # can_open(5 * low), not can_open(5 * high)
        middle = (low + high) // 2
        if can_open(5 * middle):
            low = middle
        else:
            high = middle
    deal = deal_under(5)
    engine = engine_for(deal.rules)
    assert engine._most_points(engine.situation(deal.position)) >= 5 * low


def _v3_search_position() -> Deal:
    """A position of random play under a minimum of 90 whose moves need a search of some
    hundreds of states (seed 29, after 40 random moves: the team's opening turn)."""
    deal = Deal.new(BIRIBA.evolve(entry_minimum=90), seed=29)
    rng = random.Random(29)
    for _ in range(40):
        deal.play(rng.choice(deal.legal_moves()))
    assert deal.phase is Phase.PLAY and deal.position.opening
    return deal


def test_V3_a_turns_look_ahead_is_not_emptied_in_the_middle_of_its_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """B4.5 under V3: the look-aheads of one opening turn's moves are one search, in which
    the engine's cache of answers and the exact search's tables are not emptied
    (emptied, the search met its states again and again: 25 seconds for a call that now
    takes 6); they are emptied between searches once past their limit."""
    expected = _v3_search_position().legal_moves()
    engine = engine_for(BIRIBA.evolve(entry_minimum=90))
    monkeypatch.setattr(biriba_engine, "_FINISH_CACHE_LIMIT", 16)
    cache: dict[Any, bool] = engine._finish_cache
    tables = engine._search
    cache.clear()
    tables.empty()
    assert _v3_search_position().legal_moves() == expected
    # Every answer of the search kept, more than the limit between searches (emptied at
    # that limit in the middle of the search, the cache ends with 2), and the tables.
    assert len(cache) > 16
    assert len(tables.reach) + len(tables.grown) + len(tables.holding) > 16
    assert engine._searching == 0
    # The next search starts by emptying them.
    cache["a key no search meets"] = True
    tables.holding[b"a key no search meets"] = []
    deal = _v3_search_position()
    assert deal.legal_moves() == expected
    assert "a key no search meets" not in cache
    assert b"a key no search meets" not in tables.holding
    assert engine._searching == 0


def test_V3_a_position_read_lists_the_moves_its_check_found() -> None:
    """B4.5 under V3: reading a position checks that its player has a legal move, which
    can take a search; the deal read keeps the moves found, so that listing them (or
    checking one of them) does not search again."""
    played = _v3_search_position()
    expected = played.legal_moves()
    engine = engine_for(played.rules)
    deal = Deal.from_dict(played.to_dict())
    engine._finish_cache.clear()
    assert deal.legal_moves() == expected
    assert not engine._finish_cache  # no look-ahead asked again
    assert deal.copy().legal_moves() is deal.legal_moves()


@pytest.mark.usefixtures("v3_search")
def test_V3_a_card_worth_less_than_nothing_counts_against_a_minimum_reached() -> None:
    """V3 with aces worth -15 (``card_values`` may be negative): a team that has laid
    TH JH QH (30) this turn, under a minimum of 40, holding KH and the AH it took from a
    one-card pile (B4.2 bars its discard), has no legal move: KH alone reaches 40, but
    the turn can then end only by laying AH, which brings the team back to 25 (B4.5).
    The look-ahead works out what the team lacks step by step only where no card is
    worth less than nothing."""
    values = (0, -15, 10, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10)
    rules = BIRIBA.evolve(entry_minimum=40, card_values=values, reserve_needs_biriba=False)
    hand, laid = ["KH", "AH"], ["TH", "JH", "QH"]
    packet = ["3C", "5D", "9S", "KD", "4S", "6C", "JD", "QS", "8C", "TD", "7S"]
    rest = Counter(str(c) for c in full_pack(rules))
    rest.subtract(hand + laid + packet)
    others = sorted(rest.elements())
    data = Deal.new(rules, seed=1).to_dict()
    data.update(
        dealer=0,
        to_move=1,
        phase="play",
        hands=[others[0:11], hand, others[11:22], others[22:33]],
        reserves=[packet, others[33:44]],
        stock=others[44:],
        discard=[],
        melds=[[], [" ".join(laid)]],
        pile_card="AH",
        known=[[], ["AH"], [], []],
        opening=True,
    )
    with pytest.raises(InvalidPositionError) as refused:
        Deal.from_dict(data)
    assert refused.value.rule == "B4.5"


@pytest.mark.usefixtures("v3_search")
def test_V3_a_card_worth_less_than_nothing_does_not_hide_a_meld_that_reaches_the_minimum() -> None:
    """V3 with threes worth -50: a hand of KC KD KH QC QD QH 3C 3D 5S, in the team's
    opening turn under a minimum of 60, may lay either group, then the other (30 + 30),
    keeping the threes and 5S. The look-ahead's bound on what the hand can still lay
    counts no card below nothing: the hand's whole value (-65) is below what the team
    then lacks (30), yet the second group reaches it (both groups were refused)."""
    values = list(BIRIBA.card_values)
    values[3] = -50
    rules = BIRIBA.evolve(name="v3", entry_minimum=60, card_values=tuple(values))
    deal = deal_at(rules=rules, hands={0: "KC KD KH QC QD QH 3C 3D 5S"})
    assert {"meld KC KD KH", "meld QC QD QH"} <= texts(deal)
    deal.play("meld KC KD KH")
    assert "meld QC QD QH" in texts(deal)
    assert not any(text.startswith("discard") for text in texts(deal))  # 30 short still


@pytest.mark.usefixtures("v3_search")
def test_V3_a_card_worth_less_than_nothing_may_take_the_melds_below_the_minimum_again() -> None:
    """V3 with card values below nothing (a joker worth -10): once the turn's melds reach
    the minimum, a joker laid takes them below it, and the look-ahead from there must
    reach it again, a search inside the search. The inner search's count of states
    once took over the outer one's, whose internal signal then escaped from
    ``Deal.from_dict`` as an unknown exception. The moves are those of the search that
    goes move by move."""
    rules = BIRIBA.evolve(name="m", entry_minimum=50, keep_after_melding=3, joker_value=-10)
    data = position(
        rules=rules,
        hands={0: "9D 2D JK 5D 6D 8D 7D TD 7D JK"},
        melds=(["9D TD JK"], []),
        opening=True,
    )
    deal = Deal.from_dict(data)
    assert deal.legal_moves() == Engine(rules, plain_bound=True).legal_moves(deal.position)
    assert any(isinstance(m, LayMeld) for m in deal.legal_moves())


def test_V3_a_substitute_moved_along_a_sequence_brings_a_natural_within_reach() -> None:
    """V3, B3.9: under Buraco with a minimum of 60, ``meld 2H 9C TC`` (30, the two
    standing for 8C) is legal with 8C JC KC in hand: adding 8C moves the two up to J,
    adding JC moves it to Q, and KC then joins beside it (60). KC is three ranks from
    the sequence as laid and the hand holds no substitute: only the sequence's own,
    moved as naturals are added, brings it within reach."""
    rules = BURACO.evolve(name="v3", entry_minimum=60)
    deal = deal_at(rules=rules, hands={0: "2H 9C TC 8C JC KC 4D 7S"})
    assert "meld 2H 9C TC" in texts(deal)
    assert Engine(rules, plain_bound=True).legal_moves(deal.position) == deal.legal_moves()
    for move in ("meld 2H 9C TC", "add 0 8C -> 8C 9C TC 2H", "add 0 JC -> 8C 9C TC JC 2H"):
        deal.play(move)
        assert not any(text.startswith("discard") for text in texts(deal))  # still short
    deal.play("add 0 KC")
    assert {"discard 4D", "discard 7S"} <= texts(deal)  # 60 reached


@settings(max_examples=examples(4), deadline=None)
@given(
    # Rule sets whose melds hold one substitute at most: the bound on what the melds
    # could hold applies (Engine._beyond_melds), which the plain search does without.
    st.sampled_from([BIRIBA, BIRIBA.evolve(groups=False), RuleSet.named("biriba-2")]),
    st.sampled_from([60, 90, 120]),
    st.integers(0, 10**6),
)
def test_V3_the_bound_lists_the_same_moves_in_random_deals(
    base: RuleSet, minimum: int, seed: int
) -> None:
    """B4.5 under V3: at every opening turn of a random deal (hands of up to 14 cards,
    whose plain search stays short), the moves listed are those the search with only the
    plain bound (the hand's value) finds, where melds hold one substitute at most and the
    engine's bound also counts what the melds could hold."""
    rules = base.evolve(entry_minimum=minimum)
    oracle = Engine(rules, plain_bound=True)
    compared = 0
    for turn, listed in opening_turns(rules, seed, most_cards=14):
        assert listed == oracle.legal_moves(turn)
        compared += 1
    assert compared


def opening_turns(
    rules: RuleSet, seed: int, *, most_cards: int = 10**9, melds_first: float = 0.0
) -> Iterator[tuple[Position, tuple[Move, ...]]]:
    """The play-phase positions of opening turns (V3) in a random deal of ``rules``
    (seed ``seed``) whose hand holds ``most_cards`` cards at most, each with the moves
    the deal lists there; the deal plays a meld or an addition with the chance
    ``melds_first`` where one is legal, else any move."""
    deal = Deal.new(rules, seed=seed)
    rng = random.Random(seed)
    while not deal.is_over:
        listed = deal.legal_moves()
        turn = deal.position
        opening = turn.phase is Phase.PLAY and turn.opening
        if opening and size_of(turn.sizes, turn.seat) <= most_cards:
            yield turn, listed
        melds = [m for m in listed if isinstance(m, (LayMeld, AddToMeld))]
        chosen = melds if melds_first and melds and rng.random() < melds_first else listed
        deal.play(rng.choice(chosen))


#: V3: rule sets whose opening turns the exact search decides (no new meld's length is
#: bounded), under minimums from low to high and with every option its answer reads.
V3_EXACT_RULES = [
    *(BIRIBA.evolve(name=f"v3-{minimum}", entry_minimum=minimum) for minimum in (50, 90, 150)),
    BIRIBA.evolve(
        name="v3-negative",
        entry_minimum=90,
        card_values=(0, 15, 10, -10, -5, 5, 5, 5, 10, 10, 10, 10, 10, 10),
    ),
    BIRIBA.evolve(name="v3-keep-1", entry_minimum=120, keep_after_melding=1),
    BIRIBA.evolve(name="v3-keep-3", entry_minimum=120, keep_after_melding=3),
    BIRIBA.evolve(name="v3-no-reserve-biriba", entry_minimum=120, reserve_needs_biriba=False),
    BIRIBA.evolve(name="v3-no-close-biriba", entry_minimum=120, close_needs_biriba=False),
    BIRIBA.evolve(name="v3-2-substitutes", entry_minimum=120, max_substitutes=2),
    BIRIBA.evolve(name="v3-any-substitutes", entry_minimum=100, max_substitutes=None),
    BIRIBA.evolve(name="v3-twos-wild", entry_minimum=120, twos_always_wild=True),
    RuleSet.named("biriba-2").evolve(name="v3-2-players", entry_minimum=120),
    RuleSet.named("biriba-6").evolve(name="v3-6-players", entry_minimum=120),
    # Z3.2: a new meld of at most 6 cards, grown past it; Z3.4: any number of substitutes.
    *(BURACO.evolve(name=f"buraco-{minimum}", entry_minimum=minimum) for minimum in (50, 90, 150)),
    RuleSet.named("buraco-2").evolve(name="buraco-2-120", entry_minimum=120),
    RuleSet.named("buraco-6").evolve(name="buraco-6-90", entry_minimum=90),
]


@pytest.mark.parametrize("rules", V3_EXACT_RULES, ids=lambda rules: rules.name)
def test_V3_the_exact_search_lists_the_moves_of_the_move_by_move_one(rules: RuleSet) -> None:
    """V3, B4.5: at every opening turn of random deals whose hand holds up to 14 cards
    (where going move by move stays short), the exact search of an opening turn
    (:meth:`Engine._reaches`) lists the moves the search that tries every order of
    moves finds (``plain_bound``)."""
    oracle = Engine(rules, plain_bound=True)
    compared = 0
    for seed in range(3):
        for turn, listed in opening_turns(rules, seed, most_cards=14, melds_first=0.7):
            assert listed == oracle.legal_moves(turn), turn
            compared += 1
    assert compared > 5


def test_V3_the_minimum_may_need_a_meld_grown_past_a_new_melds_length() -> None:
    """V3, Z3.2 (as an option of Biriba), B5.2: with new melds of at most 6 cards and a
    minimum of 80, this hand of 80 points reaches it only by melding every card, so it
    empties into the reserve, which needs a biriba: the seven hearts must become one
    meld, laid as six and grown by the seventh. Laying the clubs first is legal, as the
    search that tries every order of moves finds: the exact search of an opening turn
    counts the biriba its undecided cards can still grow into."""
    rules = BIRIBA.evolve(name="biriba-new-6", max_new_meld=6, entry_minimum=80)
    deal = deal_at(rules=rules, hands={0: "3C 4C 5C 7H 8H 9H TH JH QH KH"}, opening=True)
    moves = texts(deal)
    assert "meld 3C 4C 5C" in moves and "meld 7H 8H 9H TH JH QH KH" not in moves
    assert moves == {
        str(move) for move in Engine(rules, plain_bound=True).legal_moves(deal.position)
    }
    for move in ("meld 3C 4C 5C", "meld 7H 8H 9H TH JH QH", "add 1 KH"):
        deal.play(move)
    assert deal.melds(0)[1].is_biriba and deal.position.received[0]


def test_V3_a_minimum_of_150_does_not_stop_a_deal() -> None:
    """V3, B4.5: under Biriba with a minimum of 150, the moves of a team's opening turn
    are found whatever its hand. In this deal (seed 1; random players at seats 0 and 2,
    greedy ones at 1 and 3), the 54th move's hand of 20 cards (160 points) reaches 150
    only by melding every card but one, in melds none of which is a biriba, so that the
    last card could not be discarded (B5.2): no meld is legal. The look-ahead that went
    move by move met more than 500,000 states there and raised, stopping the deal. (The
    reference, tests/reference.py, finds the same 16 discards in six minutes.)"""
    rules = BIRIBA.evolve(name="v3-150", entry_minimum=150)
    deal = Deal.new(rules, seed=1)
    players = [GreedyBot(seed=i) if i % 2 else RandomBot(seed=i) for i in range(4)]

    def play_one() -> None:
        seat = deal.position.seat
        deal.play(players[seat].choose(deal.view(seat)))

    while len(deal.history) < 53:
        play_one()
    assert deal.phase is Phase.PLAY and deal.position.opening
    hand = "3C 5C 5C 6C 2D 4D 8D 2H 3H 5H 5H 6H 8H 8H KH 3S 4S 5S JK JK"
    assert deal.hand(deal.position.seat) == parse_cards(hand)
    assert texts(deal) == {f"discard {card}" for card in hand.split()}
    while not deal.is_over:  # to the deal's end, each move found
        play_one()
    assert len(deal.history) > 100


def test_V3_the_exact_search_finds_what_the_quick_one_finds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """V3, B4.5: an opening turn's search first goes by the cards' values alone for a few
    states, then works out exactly what the cards left could lay. Both find every way
    there is: at every opening turn of random deals under minimums of 90 to 150, the
    moves are the same with the quick search alone (never giving way), with the exact
    one alone, and as the engine mixes them."""
    for minimum, seed in ((90, 3), (120, 5), (150, 7)):
        rules = BIRIBA.evolve(entry_minimum=minimum)
        compared = 0
        for turn, listed in opening_turns(rules, seed, melds_first=0.7):
            for quick in (0, 10**9):
                monkeypatch.setattr(biriba_engine, "_QUICK_STATES", quick)
                assert Engine(rules).legal_moves(turn) == listed
            monkeypatch.undo()
            compared += 1
        assert compared > 10


# ---------------------------------------------------------------- V5, V6, V7
def test_V5_the_match_target_and_strictness() -> None:
    for rules, totals, over in (
        (BIRIBA.evolve(target=1000), [1000, 0], False),  # B9.2: strictly above
        (BIRIBA.evolve(target=1000), [1001, 0], True),
        (BIRIBA.evolve(target=1000, target_strict=False), [1000, 0], True),
        (BURACO, [2000, 1500], True),  # Z5.2: reaching it is enough
        (BURACO, [2000, 2000], False),  # equal totals play another deal
    ):
        deal = Deal.new(rules, seed=1)
        if over:  # the match ended with the deal played last (B9.2): that deal is over
            rng = random.Random(1)
            while not deal.is_over:
                deal.play(rng.choice(deal.legal_moves()))
        data = {
            "rules": deal.to_dict()["rules"],
            "totals": totals,
            "dealer": deal.dealer,
            "deal": deal.to_dict(),
            "deals_played": 3,
        }
        assert Match.from_dict(data).is_over is over, (rules.target, totals)
        if over:  # and no deal can be in progress beside such totals (Z5.2 for Buraco)
            data["deal"] = Deal.new(rules, seed=1).to_dict()
            rule = "Z5.2" if rules.family == "buraco" else "B9.2"
            with pytest.raises(InvalidPositionError, match=re.escape(f"({rule})")) as info:
                Match.from_dict(data)
            assert info.value.rule == rule


def test_V6_player_counts() -> None:
    for name, players, teams, pack, packets in (
        ("biriba-2", 2, 2, 108, 2),
        ("biriba-3", 3, 3, 108, 3),
        ("biriba-6", 6, 3, 162, 3),
    ):
        rules = RuleSet.named(name)
        deal = Deal.new(rules, seed=4)
        assert (rules.players, rules.teams, rules.pack_size) == (players, teams, pack)
        assert len(deal.reserves) == packets
        assert all(deal.hand_size(s) == 11 for s in range(players))
        assert len(deal.stock) == pack - 11 * players - 11 * packets - 1


def test_V6_player_counts_from_the_fixed_field_names() -> None:
    # A program that builds V6 from players and teams alone (the field names API.md
    # fixes) gets V6: a reserve for each player alone or each pair, and for six players a
    # third deck and two more jokers (162 cards). Only pass_limit keeps B4.4's 4.
    for players, teams, pack, packets in ((2, 2, 108, 2), (3, 3, 108, 3), (6, 3, 162, 3)):
        rules = BIRIBA.evolve(players=players, teams=teams)
        deal = Deal.new(rules, seed=4)
        assert (rules.players, rules.teams, rules.pack_size) == (players, teams, pack)
        assert rules.reserve_count == len(deal.reserves) == packets
        assert all(deal.hand_size(s) == 11 for s in range(players))
        assert len(deal.stock) == pack - 11 * players - 11 * packets - 1
        assert rules.pass_limit == 4
        preset = {2: "biriba-2", 3: "biriba-3", 6: "biriba-6"}[players]
        assert rules == RuleSet.named(preset).evolve(name="biriba", pass_limit=4)
    # Three players, each with a reserve of their own: the third player receives one too
    # (B5.1), where a pair's two reserves would have left none.
    three = BIRIBA.evolve(players=3, teams=3)
    deal = deal_at(
        rules=three,
        dealer=1,
        to_move=2,
        hands={2: "5C 6C 7C KS"},
        # A biriba each (B5.2): the first two players have received their reserves.
        melds=(["3S 4S 5S 6S 7S 8S 9S"], ["3D 4D 5D 6D 7D 8D 9D"], ["3H 4H 5H 6H 7H 8H 9H"]),
        received=(True, True, False),
    )
    assert len(deal.reserves) == 1
    deal.play("meld 5C 6C 7C")
    deal.play("discard KS")  # B5.4: the discard empties the hand, the reserve is received
    assert deal.reserve_received(2) and not deal.reserves and deal.hand_size(2) == 11
    # From six players back to four: Biriba's pack again, and two reserves.
    back = RuleSet.named("biriba-6").evolve(players=4, teams=2)
    assert (back.pack_size, back.reserve_count) == (108, 2)
    # What is given is kept; what was not one per team, or not Biriba's pack, stays.
    given = BIRIBA.evolve(players=6, teams=3, decks=2, jokers=4, reserve_count=2)
    assert (given.pack_size, given.reserve_count) == (108, 2)
    no_reserves = BIRIBA.evolve(reserve_count=0).evolve(players=3, teams=3)
    assert no_reserves.reserve_count == 0
    # Buraco keeps its 106 cards and its two mortos whatever the players (Z1.2, Z2.1).
    six = BURACO.evolve(players=6, teams=3)
    assert (six.pack_size, six.reserve_count) == (106, 2)


def test_V7_two_substitutes_per_meld() -> None:
    two = BIRIBA.evolve(name="two-subs", max_substitutes=2)
    meld = Meld.parse("3H JK 5H 2C 7H", two)
    assert len(meld.substitutes) == 2
    with pytest.raises(InvalidMeldError) as info:
        Meld.parse("3H JK 5H 2C 7H JK", two)
    assert info.value.rule == "V7"
    long = Meld.parse("3H JK 5H 2C 7H 8H 9H", two)
    assert not long.is_biriba  # two substitutes: never a biriba...
    assert Meld.parse("3H JK 5H 2C 7H 8H 9H", two.evolve(multi_substitute_biriba=True)).is_biriba


def test_V7_an_option_makes_a_meld_of_two_substitutes_a_dirty_biriba() -> None:
    """Two substitutes in seven cards: never a biriba (V7, as Z3.4) unless
    multi_substitute_biriba makes it one, and then a dirty one (not clean, B8.3's 100)."""
    two = BIRIBA.evolve(name="two-subs", max_substitutes=2)
    cards = "3H JK 5H 2C 7H 8H 9H"
    assert Meld.parse(cards, two).bonus == 0
    dirty = two.evolve(multi_substitute_biriba=True)
    meld = Meld.parse(cards, dirty)
    assert meld.is_biriba and not meld.is_clean
    assert meld.bonus == dirty.sequence_bonus[1] == 100


@pytest.mark.parametrize(
    ("rules", "cards", "rule"),
    [
        (BIRIBA, "3H JK 2C", "B3.3"),  # Biriba's one substitute
        (BIRIBA.evolve(name="no-limit", max_substitutes=None), "3H JK 2C", "V7"),
        (BIRIBA.evolve(name="two", max_substitutes=2), "3H JK 2C", "V7"),
        (BURACO, "3H JK 2C", "Z3.4"),  # Buraco: never more substitutes than naturals
        (BURACO.evolve(name="two", max_substitutes=2), "3H JK 2C", "Z3.4"),
        (BURACO.evolve(name="two", max_substitutes=2), "3H 4H 5H 6H JK 2C 2D", "V7"),
        (BURACO.evolve(name="one", max_substitutes=1), "3H 4H JK 2C", "V7"),
    ],
)
def test_V7_and_Z3_4_the_substitutes_refused_cite_the_rule_of_the_game(
    rules: RuleSet, cards: str, rule: str
) -> None:
    """More substitutes than naturals is Z3.4 under every Buraco rule set and V7 under a
    Biriba one that lifts B3.3's limit; a limit of the rule set's own is V7 (B3.3 for
    Biriba's one substitute)."""
    with pytest.raises(InvalidMeldError) as info:
        Meld.parse(cards, rules)
    assert info.value.rule == rule
    assert f": {rule}: " in str(info.value)


def test_V7_twos_always_wild() -> None:
    rules = BIRIBA.evolve(name="wild-twos", twos_always_wild=True)
    assert Meld.parse("2H 3H 4H", rules).substitute == Card.parse("2H")
    assert Meld.parse("2H 3H 4H").is_clean  # B3.6 without the option


def test_V7_the_stock_ends_with_cards_left() -> None:
    rules = BIRIBA.evolve(name="stock-3", stock_end_remaining=3)
    deal = deal_at(rules=rules, hands={0: "5C 9D KS"}, phase="draw", stock_size=3, discard="7H")
    assert texts(deal) == {"take", "pass"}
    before = deal.to_dict()
    with pytest.raises(IllegalMoveError) as info:
        deal.play("draw")
    assert info.value.rule == "V7" and deal.to_dict() == before


def test_V7_a_stock_below_its_end_is_no_position() -> None:
    # Nobody draws from a stock of stock_end_remaining cards, so none holds fewer.
    rules = BIRIBA.evolve(name="stock-3", stock_end_remaining=3)
    for size in (0, 2):
        with pytest.raises(InvalidPositionError, match="fewer than the 3") as info:
            deal_at(rules=rules, hands={0: "5C 9D KS"}, phase="draw", stock_size=size, discard="7H")
        assert info.value.rule == "V7"


def test_V7_one_card_kept_ends_a_turn_with_an_empty_hand() -> None:
    rules = BIRIBA.evolve(name="keep-one", keep_after_melding=1)
    deal = deal_at(rules=rules, hands={0: "3C 4C 5C KS"})
    deal.play("meld 3C 4C 5C")
    deal.play("discard KS")  # the one card kept is the discard
    assert deal.hand_size(0) == 0 and deal.to_move == 1 and not deal.reserve_received(0)


# ---------------------------------------------------------------- views, pickles, the terminal
@pytest.mark.parametrize("name", RuleSet.preset_names())
def test_a_sampled_deal_gives_back_the_view_under_every_preset(name: str) -> None:
    """What a seat knows under each preset (the redraw still open, the bonus suit, the
    mortos, the last turn) survives sampling: the sample's view is the view."""
    rules = RuleSet.named(name)
    for seed in range(examples(3)):
        deal = Deal.new(rules, seed=seed)
        rng = random.Random(seed)
        for ply in range(rng.randrange(0, 300)):
            if deal.is_over:
                break
            if ply % 13 == 0 or deal.position.redraw is not None:
                for seat in range(rules.players):
                    view = deal.view(seat)
                    sample = view.sample(random.Random(ply))
                    assert sample.view(seat).to_dict() == view.to_dict()
                    if seat == deal.to_move:
                        assert sample.legal_moves() == deal.legal_moves()
            deal.play(rng.choice(deal.legal_moves()))


def test_the_redraw_is_open_in_every_view_but_its_card_only_in_the_drawer_s() -> None:
    deal = Deal.new(BURACO, seed=5)
    seat = deal.to_move
    assert seat is not None
    deal.play("draw")
    drawn = deal.position.redraw
    assert drawn is not None and deal.to_dict()["redraw"] == str(drawn)
    assert deal.view(seat).redraw is drawn and deal.view(seat).redraw_open
    other = deal.view((seat + 1) % 4)
    assert other.redraw is None and other.redraw_open
    assert Redraw() in other.sample(random.Random(1)).legal_moves()


def test_melds_and_deals_of_a_variant_pickle_as_themselves() -> None:
    import pickle

    rules = BURACO.evolve(name="club", max_new_meld=5)
    meld = Meld.parse("2C 2D JK", rules)
    back = pickle.loads(pickle.dumps(meld))
    assert back == meld and back.rules == rules
    deal = Deal.new(rules, seed=2)
    deal.play("draw")
    again = pickle.loads(pickle.dumps(deal))
    assert again.rules == rules and again.to_dict() == deal.to_dict()


@pytest.mark.parametrize("name", ["buraco", "biriba-kozi", "biriba-3"])
def test_the_terminal_game_under_other_rule_sets(name: str) -> None:
    import io

    from biriba.terminal import run_play

    rules = RuleSet.named(name)
    seed = _joker_up_seed(rules) if name == "biriba-kozi" else 3
    out = io.StringIO()
    # The second listed move where there is one (``pass`` rather than ``take`` once the
    # stock is gone: always taking a one-card pile can go on for ever, B4.4), else the
    # first.
    code = run_play(io.StringIO("hint\n" + "2\n1\n" * 3000), out, seed=seed, rules=rules)
    text = out.getvalue()
    assert code == 0, text[-400:]
    assert f"({name})" in text and "The deal is over" in text
    if name == "buraco":
        assert "morto" in text and "Mortos left: 2" in text and "1. draw" in text
        assert "1. redraw" in text
        # The 100 a team owes for its morto is told as such (Z4.5, B8.6).
        assert "morto not received, table points -100 (of which -100 for the morto):" in text
    if name == "biriba-kozi":
        assert "Bonus suit (kózi): not named yet" in text and "1. kozi C" in text
        assert "Bonus suit (kózi): ♦ (D)" in text  # the script names the second suit
    if name == "biriba-3":
        assert "Team 2 (an opponent)" in text
    with pytest.raises(BiribaError) as info:
        run_play(io.StringIO(""), out, seat=rules.players, rules=rules)
    assert info.value.rule == ("Z1.1" if rules.family == "buraco" else "B1.1")


def test_the_greedy_bot_names_the_suit_its_hand_holds_most_of() -> None:
    seed = _joker_up_seed(BIRIBA_KOZI)
    deal = Deal.new(BIRIBA_KOZI, seed=seed)
    seat = deal.to_move
    assert seat is not None
    view = deal.view(seat)
    held = Counter(c.suit for c in view.hand if c.suit is not None)
    move = GreedyBot(seed=1).choose(view)
    assert isinstance(move, NameSuit) and held[move.suit] == max(held.values())


def test_V7_a_biriba_that_takes_a_second_substitute_keeps_the_reserve_received() -> None:
    """Under two substitutes per meld a biriba stops being one when a second comes in
    (V7): the reserve received before stays received, and the position is valid."""
    two = BIRIBA.evolve(name="two-subs", max_substitutes=2)
    data = position(
        rules=two,
        hands={0: "2C KS QS"},
        melds=(["3H 4H 5H JK 7H 8H 9H"], []),
        received=(True, False),
    )
    deal = Deal.from_dict(data)
    deal.play("add 0 2C -> 2C 3H 4H 5H JK 7H 8H 9H")
    assert not deal.melds(0)[0].is_biriba and deal.reserve_received(0)
    assert Deal.from_dict(deal.to_dict()).to_dict() == deal.to_dict()


def test_V7_a_team_that_received_its_reserve_holds_a_meld_of_a_biriba_s_length() -> None:
    """Under two substitutes per meld a biriba may stop being one (V7), yet the meld that
    was one stays as long: melds only grow (B3.8). A team with its reserve received and
    no meld of seven cards is a position no play reaches (B5.2)."""
    two = BIRIBA.evolve(name="two-subs", max_substitutes=2)
    for melds in ([], ["3H 4H 5H 6H 7H 8H"]):
        data = position(rules=two, hands={0: "9C 9D KS"}, melds=(melds, []), received=(True, False))
        with pytest.raises(InvalidPositionError, match="no meld of 7 cards or more") as info:
            Deal.from_dict(data)
        assert info.value.rule == "B5.2"
    # Without the biriba's rule for the reserve (V4), no meld is asked.
    free = two.evolve(reserve_needs_biriba=False)
    data = position(rules=free, hands={0: "9C 9D KS"}, melds=([], []), received=(True, False))
    assert Deal.from_dict(data).reserve_received(0)


def _with_first_packet(data: dict[str, Any], wanted: Sequence[Card]) -> dict[str, Any]:
    """``data`` with ``wanted`` as its first packet, each card swapped in from wherever
    :func:`position` put it."""
    packet = [Card.parse(c) for c in data["reserves"][0]]
    places = [data["stock"], *data["hands"][1:], *data["reserves"][1:]]
    for card, old in zip(wanted, packet, strict=True):
        if card == old:
            continue
        for place in places:
            if str(card) in place:
                place[place.index(str(card))] = str(old)
                break
        else:
            pytest.fail(f"{card} is nowhere to swap from")
    data["reserves"][0] = [str(c) for c in wanted]
    return data


@pytest.mark.usefixtures("v3_search")
@pytest.mark.parametrize(
    "packet",
    ["KS KH KD QS QH QD JS JH JD TS TH", "3S 4H 5S 6H 7S 8H 9S 3H 4S 5H 6S"],
    ids=["rich", "poor"],
)
def test_V3_the_reserve_counts_for_nothing_towards_the_minimum_its_cards_unseen(
    packet: str,
) -> None:
    """V3 with B5.3 and B4.5: the hand (60 points) cannot reach 120 alone. It could lay
    a biriba and empty into the reserve, but the reserve's cards are unseen, so the
    look-ahead does not count on them, whether they would have reached 120 (``rich``)
    or not (``poor``): the melds are refused, the same moves are listed with either
    reserve, and the seat's view lists them too (what a seat may do depends only on
    what it knows)."""
    rules = BIRIBA.evolve(name="min-120", entry_minimum=120)
    data = position(rules=rules, hands={0: "3C 4C 5C 6C 7C 8C 9C 3D 4D 5D"})
    deal = Deal.from_dict(_with_first_packet(data, parse_cards(packet)))
    assert not any(isinstance(m, LayMeld | AddToMeld) for m in deal.legal_moves())
    assert deal.view(0).legal_moves() == deal.legal_moves()
    rejects(deal, "meld 3C 4C 5C 6C 7C 8C 9C", "V3")


@pytest.mark.usefixtures("v3_search")
def test_V3_the_hand_may_empty_into_the_reserve_once_the_minimum_is_reached() -> None:
    """V3 with B5.3: the meld that empties the hand may be the one that reaches the
    minimum (60 points, exactly the hand's); the turn then goes on from the reserve.
    Under a minimum of 65 the same hand lays nothing: the emptying meld would leave the
    team 5 short, which the unseen reserve may not make up (refused with V3)."""
    rules = BIRIBA.evolve(name="min-60", entry_minimum=60)
    hand = "3C 4C 5C 6C 7C 8C 9C 3D 4D 5D"
    wanted = parse_cards("KS KH KD QS QH QD JS JH JD TS TH")
    deal = Deal.from_dict(_with_first_packet(position(rules=rules, hands={0: hand}), wanted))
    assert deal.view(0).legal_moves() == deal.legal_moves()
    deal.play("meld 3C 4C 5C 6C 7C 8C 9C")
    assert deal.view(0).legal_moves() == deal.legal_moves()
    deal.play("meld 3D 4D 5D")  # 60 reached, and the hand empties into the reserve
    assert deal.view(0).hand == tuple(sorted(wanted))  # B5.3: the reserve, at once
    deal.play("discard TS")
    assert deal.to_move == 1
    higher = BIRIBA.evolve(name="min-65", entry_minimum=65)
    deal = Deal.from_dict(_with_first_packet(position(rules=higher, hands={0: hand}), wanted))
    assert not any(isinstance(m, LayMeld | AddToMeld) for m in deal.legal_moves())
    rejects(deal, "meld 3C 4C 5C 6C 7C 8C 9C", "V3")
    assert deal.view(0).legal_moves() == deal.legal_moves()


@pytest.mark.usefixtures("v3_search")
def test_V3_the_last_card_may_be_discarded_for_the_reserve_once_the_minimum_is_reached() -> None:
    """V3 with B5.4: a biriba and a sequence reach the minimum of 60 together, the whole
    hand but its king, which is then discarded to receive the reserve (the biriba on
    the table, B5.2). Keeping two cards, the hand could not reach 60, so the melds are
    legal only because the last card's discard ends the turn. Under a minimum of 65
    the same hand lays nothing."""
    hand = "3C 4C 5C 6C 7C 8C 9C 3D 4D 5D KS"
    deal = deal_at(rules=BIRIBA.evolve(name="min-60", entry_minimum=60), hands={0: hand})
    assert {"meld 3C 4C 5C 6C 7C 8C 9C", "meld 3D 4D 5D"} <= texts(deal)
    deal.play("meld 3D 4D 5D")
    assert texts(deal) >= {"meld 3C 4C 5C 6C 7C 8C 9C"}
    assert not any(text.startswith("discard") for text in texts(deal))  # 45 short
    deal.play("meld 3C 4C 5C 6C 7C 8C 9C")
    assert texts(deal) == {"discard KS"}
    deal.play("discard KS")
    assert deal.to_dict()["reserve_received"][0] is True
    higher = BIRIBA.evolve(name="min-65", entry_minimum=65)
    deal = deal_at(rules=higher, hands={0: hand})
    assert not any(isinstance(m, LayMeld | AddToMeld) for m in deal.legal_moves())


def test_V3_buraco_the_morto_counts_for_nothing_towards_the_minimum() -> None:
    """V3 under Buraco (Z4.1: the morto comes by emptying the hand, no canastra needed):
    two positions that differ only in the unseen first morto list the same moves, and
    the seat's view lists them too; with the minimum (100) out of the hand's reach, no
    meld is legal, though the first of those mortos would have made it up."""
    rules = BURACO.evolve(entry_minimum=100)
    listed = []
    for first in ("AS AS KS KS QS QS JS JS TS TS 9S", "3D 4D 5D 6D 7D 8D 9C 9C 4C 4C 5S"):
        data = position(rules=rules, hands={0: "3H 4H 5H 6C 7C 8C"}, discard="8S")
        deal = Deal.from_dict(_with_first_packet(data, parse_cards(first)))
        assert deal.view(0).legal_moves() == deal.legal_moves()
        assert not any(isinstance(m, LayMeld | AddToMeld) for m in deal.legal_moves())
        listed.append(deal.legal_moves())
    assert listed[0] == listed[1]


@pytest.mark.parametrize(
    ("rules", "text"),
    [
        (RuleSet.named("biriba-kozi"), "meld 7D 7H 2C"),  # a meld Biriba reads alike
        (BURACO, "meld AD AH 2D JK"),  # two substitutes (Z3.4): Biriba refuses it
        (BURACO.evolve(name="wild", wild_melds=True), "meld 2C 2D JK"),  # Z3.7
        (BIRIBA.evolve(name="natural-twos", twos_wild=False), "meld 2C 2D 2H"),
        (BURACO, "add 0 JK -> 4H 5H 6H 2D JK"),  # the result has two substitutes
        (BIRIBA.evolve(name="twos-always", twos_always_wild=True), "meld AC 2C 3C"),
    ],
)
def test_a_moves_text_reads_back_to_an_equal_move_under_any_rule_set(
    rules: RuleSet, text: str
) -> None:
    """``Move.parse(str(move)) == move`` for a move of any rule set, without naming the
    rule set: moves compare by their texts (a meld by its cards in table order), so
    the move read without rules equals, and hashes like, the one read under them,
    though the melds differ by rule set."""
    under_rules = Move.parse(text, rules)
    assert str(under_rules) == text
    read = Move.parse(str(under_rules))
    assert read == under_rules and hash(read) == hash(under_rules)
    assert eval(repr(under_rules), {"Move": Move}) == under_rules
    assert isinstance(under_rules, LayMeld | AddToMeld) and isinstance(read, type(under_rules))
    mine = under_rules.meld if isinstance(under_rules, LayMeld) else under_rules.result
    theirs = read.meld if isinstance(read, LayMeld) else read.result
    assert mine is not None and theirs is not None
    assert mine.cards == theirs.cards and mine.rules == rules
    assert mine != theirs  # the melds themselves keep their rule sets apart
    assert read != Move.parse("meld 3H 4H 5H")
    assert read.__eq__(str(read)) is NotImplemented  # never equal to its text


def test_B3_8_an_addition_names_a_meld_index_its_text_can_write() -> None:
    """Every ``AddToMeld`` that can be built has a text that reads back: its meld index
    has four digits at most (``AddToMeld(10000, 7H)`` was built, and its text refused)."""
    card = Card.parse("7H")
    for index in (0, 9_999):
        move = AddToMeld(index, card)
        assert Move.parse(str(move)) == move
    for index in (-1, 10_000, 10**5000):
        with pytest.raises(NotationError, match="a meld index is from 0 to 9999"):
            AddToMeld(index, card)
    with pytest.raises(NotationError):
        Move.parse("add 10000 7H")


def test_a_move_read_without_rules_is_judged_under_the_deals() -> None:
    """A move read without a rule set (or under another) is the deal's legal move of the
    same text: it is in ``legal_moves()``, ``is_legal`` says so, and playing it lays the
    meld read under the deal's rules (B3.12's one text per move)."""
    kozi = RuleSet.named("biriba-kozi")
    deal = Deal.new(kozi, seed=0)
    deal.play("draw")
    lay = next(m for m in deal.legal_moves() if isinstance(m, LayMeld))
    read = Move.parse(str(lay))
    assert read.meld.rules == BIRIBA  # type: ignore[attr-defined]
    assert read in deal.legal_moves() and deal.is_legal(read)
    assert deal.to_move is not None
    team = deal.team_of(deal.to_move)
    deal.play(read)
    laid = deal.melds(team)[-1]
    assert laid.rules == kozi and laid.cards == lay.meld.cards
    assert deal.history[-1] == lay
