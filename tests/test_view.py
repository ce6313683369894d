"""Player views: exactly what a seat may know, and sampling deals consistent with it."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from biriba import BIRIBA, BiribaError, Card, Deal, Phase, PlayerView, full_pack, parse_cards

from .helpers import deal_at, examples, played


def hidden_only_cards(deal: Deal, seat: int) -> set[Card]:
    """Cards every copy of which is hidden from ``seat``."""
    view = deal.view(seat)
    visible: Counter[Card] = Counter(view.hand)
    visible.update(view.discard_pile)
    for team in view.melds:
        for meld in team:
            visible.update(meld.cards)
    for cards in view.known:
        visible.update(cards)
    hidden: Counter[Card] = Counter(deal.stock)
    for packet in deal.reserves:
        hidden.update(packet)
    for other in range(4):
        if other != seat:
            hidden.update(Counter(deal.hand(other)) - Counter(deal.known_cards(other)))
    return {card for card in hidden if not visible[card]}


@settings(max_examples=examples(40))
@given(st.integers(0, 10_000), st.integers(0, 300), st.integers(0, 3))
def test_no_form_of_a_view_reveals_a_hidden_card(seed: int, plies: int, seat: int) -> None:
    deal = played(seed, plies)
    view = deal.view(seat)
    forms = [repr(view), str(view), json.dumps(view.to_dict())]
    forms += [repr(getattr(view, name)) for name in dir(view) if not name.startswith("__")]
    for card in hidden_only_cards(deal, seat):
        for form in forms:
            assert repr(card) not in form and f'"{card}"' not in form, (card, form[:80])
        assert card not in view.hand


@settings(max_examples=examples(40))
@given(st.integers(0, 10_000), st.integers(0, 300), st.integers(0, 2**32 - 1))
def test_a_sampled_deal_gives_back_the_same_view(seed: int, plies: int, pick: int) -> None:
    deal = played(seed, plies)
    seat = deal.to_move if deal.to_move is not None else pick % 4
    view = deal.view(seat)
    sample = view.sample(random.Random(pick))
    assert sample.view(seat) == view
    assert sample.view(seat).to_dict() == view.to_dict()
    assert Counter(sample.hand(seat)) == Counter(deal.hand(seat))
    assert view.legal_moves() == (deal.legal_moves() if deal.to_move == seat else ())
    for other in range(4):
        assert sample.hand_size(other) == deal.hand_size(other)
        assert not Counter(deal.known_cards(other)) - Counter(sample.hand(other))


def test_views_of_deals_differing_only_in_hidden_cards_are_equal() -> None:
    deal = played(3, 80)
    seat = deal.to_move
    assert seat is not None
    view = deal.view(seat)
    for pick in range(5):
        other = view.sample(random.Random(pick))
        assert other.to_dict() != deal.to_dict() or pick == 0
        assert other.view(seat).to_dict() == view.to_dict()


def test_view_contents() -> None:
    deal = played(8, 50)
    seat = 2
    view = deal.view(seat)
    assert isinstance(view, PlayerView)
    assert view.seat == 2 and view.hand == deal.hand(2)
    assert view.hand_sizes == tuple(deal.hand_size(s) for s in range(4))
    assert view.stock_size == len(deal.stock)
    assert view.discard_pile == deal.discard_pile
    assert view.melds == (deal.melds(0), deal.melds(1))
    assert view.reserves_left == len(deal.reserves)
    assert view.history == deal.history
    assert "draw" in view.to_dict()["history"]  # a draw shows as a draw, never as the card
    assert view.known[2] == ()
    score = view.public_score()
    for team in range(2):
        assert score.teams[team].melded == deal.score().teams[team].melded
        assert score.teams[team].hands == 0


def test_known_cards_are_tracked_exactly() -> None:
    deal = deal_at(
        hands={1: "5C 6C 7C QD", 0: "9S 9S 2D"}, to_move=1, phase="draw", discard="8C 7H 7H"
    )
    deal.play("take")
    assert Counter(deal.view(0).known[1]) == Counter(parse_cards("8C 7H 7H"))
    deal.play("meld 5C 6C 7C 8C")
    assert Counter(deal.view(0).known[1]) == Counter(parse_cards("7H 7H"))
    deal.play("discard 7H")
    assert deal.view(0).known[1] == parse_cards("7H")
    assert deal.view(1).known[1] == ()  # a seat's own entry is empty: it sees its hand
    deal.undo()
    assert Counter(deal.view(0).known[1]) == Counter(parse_cards("7H 7H"))


def test_view_legal_moves_only_for_the_seat_to_move() -> None:
    deal = played(2, 10)
    assert deal.to_move is not None
    assert deal.view(deal.to_move).legal_moves() == deal.legal_moves()
    assert deal.view((deal.to_move + 1) % 4).legal_moves() == ()


def test_sampling_spreads_the_unknown_cards_uniformly() -> None:
    # One card's place over many samples: each unknown place gets it in proportion to its
    # size. A generous bound (6 standard deviations) with a fixed seed.
    deal = played(6, 3)
    seat = 0
    view = deal.view(seat)
    unknown = view.unknown_cards()
    target = unknown[0]
    rng = random.Random(12345)
    trials = 3000
    places: Counter[str] = Counter()
    for _ in range(trials):
        sample = view.sample(rng)
        copies = Counter()  # type: Counter[str]
        for other in (1, 2, 3):
            copies[f"hand {other}"] += sample.hand(other).count(target)
        copies["stock"] += sample.stock.count(target)
        copies["reserves"] += sum(p.count(target) for p in sample.reserves)
        places.update(copies)
    total_unknown = len(unknown)
    copies_of_target = unknown.count(target)
    sizes = {f"hand {s}": view.hand_sizes[s] for s in (1, 2, 3)}
    sizes["stock"] = view.stock_size
    sizes["reserves"] = view.reserves_left * 11
    assert sum(sizes.values()) == total_unknown
    for place, size in sizes.items():
        p = size / total_unknown
        expected = trials * copies_of_target * p
        sd = (trials * copies_of_target * p * (1 - p)) ** 0.5
        assert abs(places[place] - expected) < 6 * sd + 1, (place, places[place], expected)


def test_B4_5_a_sample_leaves_the_player_to_move_a_legal_move() -> None:
    # B4.5 in a sampled deal: the public history says more than the view holds. Seat 1
    # melded 15 of an entry minimum of 50 (V3), so it can still reach it: a dealing of
    # seat 1's unseen hand that cannot is dealt again.
    rules = BIRIBA.evolve(name="entry-50", entry_minimum=50)
    pack = Counter(full_pack(rules))
    mine = parse_cards("3C 4C 5C KS KH KD QS QH QD 9S 8D")
    rest = list((pack - Counter(mine) - Counter(parse_cards("6D"))).elements())
    random.Random(2).shuffle(rest)
    text = [str(c) for c in rest]
    deal = Deal.from_dict(
        {
            "rules": rules.to_dict(),
            "dealer": 0,
            "to_move": 1,
            "phase": "draw",
            "hands": [text[0:11], [str(c) for c in mine], text[11:22], text[22:33]],
            "stock": text[55:],
            "discard": ["6D"],
            "reserves": [text[33:44], text[44:55]],
            "melds": [[], []],
            "reserve_received": [False, False],
            "passes": 0,
        }
    )
    deal.play("draw")
    deal.play("meld 3C 4C 5C")
    view = deal.view(0)
    for seed in range(40):
        sampled = view.sample(random.Random(seed))
        assert sampled.legal_moves()
        assert sampled.view(0) == view
        Deal.from_dict(sampled.to_dict())  # a position the reader accepts (B4.5)
    # The same seed, the same sample.
    assert view.sample(random.Random(7)).to_dict() == view.sample(random.Random(7)).to_dict()


def test_sample_type_check() -> None:
    view = Deal.new(seed=1).view(0)
    with pytest.raises(TypeError):
        view.sample(3)  # type: ignore[arg-type]
    assert view.phase is Phase.DRAW


def test_a_sample_cannot_be_undone_past_its_start_and_says_why() -> None:
    deal = played(3, 40)
    sample = deal.view(deal.to_move or 0).sample(random.Random(1))
    assert len(sample.history) == 40  # the public history
    with pytest.raises(BiribaError, match=r"built from a view .* cannot be undone past") as info:
        sample.undo()
    assert "no move has been played" not in str(info.value)
    assert sample.to_dict() == deal.view(deal.to_move or 0).sample(random.Random(1)).to_dict()
    sample.play(sample.legal_moves()[0])
    sample.undo()  # a move played on the sample is undone as any other
    with pytest.raises(BiribaError, match="nothing to undo: no move has been played"):
        Deal.new(seed=1).undo()
