"""Pictures (biriba.svg): well-formed SVG, what each picture shows and hides, the options,
the notebook hook, and golden files of a few positions."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from biriba import (
    BIRIBA,
    BURACO,
    BiribaError,
    Card,
    Deal,
    Discard,
    Meld,
    MeldKind,
    Phase,
    RuleSet,
    enumerate_melds,
    full_pack,
    parse_cards,
    svg,
)
from biriba.svg import DEFAULT_COLORS
from tests.data.regenerate import pictures
from tests.helpers import deal_at, played

GOLDEN = Path(__file__).parent / "data" / "svg"
NS = "{http://www.w3.org/2000/svg}"


def parse(text: str) -> ET.Element:
    """The picture's root, which must be an <svg> element of the SVG namespace."""
    root = ET.fromstring(text)
    assert root.tag == f"{NS}svg"
    return root


def drawn_cards(root: ET.Element) -> Counter[str]:
    """The cards a standalone picture draws (face-down cards as ``back``)."""
    return Counter(g.get("data-card", "") for g in root.iter(f"{NS}g") if g.get("data-card"))


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{NS}text")]


# ---------------------------------------------------------------------- well-formed
def test_every_card_is_well_formed_and_shows_its_rank_and_suit() -> None:
    for card in set(full_pack(BIRIBA)):
        root = parse(svg.card(card))
        assert drawn_cards(root) == Counter({str(card): 1})
        shown = texts(root)
        if card.is_joker:
            assert "★" in shown
        else:
            assert card.suit is not None and card.rank is not None
            assert card.suit.symbol in shown
            assert ("10" if card.rank == 10 else card.rank.letter) in shown


def test_suit_colours() -> None:
    for card in (Card.parse("7H"), Card.parse("7S"), Card.parse("7D"), Card.parse("7C")):
        assert card.suit is not None
        colour = DEFAULT_COLORS[card.suit.name.lower()]
        inks = {t.get("fill") for t in parse(svg.card(card)).iter(f"{NS}text")}
        assert inks == {colour}
    assert DEFAULT_COLORS["hearts"] != DEFAULT_COLORS["spades"]


@pytest.mark.parametrize("seed", range(6))
def test_random_tables_and_views_are_well_formed(seed: int) -> None:
    deal = Deal.new(seed=seed, dealer=seed % 4)
    rng = random.Random(seed)
    step = 0
    while True:
        if step % 23 == 0 or deal.is_over:
            parse(svg.table(deal, bottom=step % 4))
            for seat in range(4):
                parse(svg.table(deal.view(seat)))
        if deal.is_over:
            break
        deal.play(rng.choice(deal.legal_moves()))
        step += 1


def test_melds_are_well_formed() -> None:
    hand = parse_cards("3H 4H 5H 6H 7H 8H 9H TH JK 2C 2H 7C 7D 7S AH KH QH JH")
    melds = enumerate_melds(hand)
    assert len(melds) > 50
    for meld in melds:
        root = parse(svg.meld(meld))
        assert drawn_cards(root) == Counter(str(c) for c in meld.cards)
    parse(svg.hand(hand))
    parse(svg.hand(()))


# ---------------------------------------------------------------------- what a meld shows
def test_a_substitute_is_tagged_with_what_it_stands_for() -> None:
    shown = texts(parse(svg.meld(Meld.parse("3H 4H JK 6H"))))
    assert "5" in shown  # the joker is 5♥ (B3.4)
    assert shown.count("♥") == 2 * 3 + 1  # each natural twice (corner, centre), the tag
    group = texts(parse(svg.meld(Meld.parse("7C 7D 2S"))))
    assert group.count("7") == 3  # two naturals and the tag of the two
    high = texts(parse(svg.meld(Meld.parse("QH KH JK"))))
    assert "A" in high  # a high ace (rank 14)


def test_a_natural_two_is_not_tagged() -> None:
    root = parse(svg.meld(Meld.parse("2H 3H 4H")))  # B3.6: natural
    assert DEFAULT_COLORS["wild"] not in {r.get("fill") for r in root.iter(f"{NS}rect")}
    root = parse(svg.meld(Meld.parse("3H 4H 2H")))  # the two stands for 5♥
    assert DEFAULT_COLORS["wild"] in {r.get("fill") for r in root.iter(f"{NS}rect")}


def test_biribas_are_labelled_clean_or_dirty() -> None:
    assert "clean biriba" in texts(parse(svg.meld(Meld.parse("3H 4H 5H 6H 7H 8H 9H"))))
    assert "dirty biriba" in texts(parse(svg.meld(Meld.parse("3H 4H JK 6H 7H 8H 9H"))))
    short = texts(parse(svg.meld(Meld.parse("3H 4H JK 6H"))))
    assert not any("biriba" in t for t in short)


# ---------------------------------------------------------------------- what a table shows
def visible_pile(pile: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in pile[-7:]]


@pytest.mark.parametrize("moves", [0, 40, 120, 400])
def test_a_deal_shows_every_hand_and_meld_face_up(moves: int) -> None:
    deal = played(3, moves)
    root = parse(svg.table(deal))
    expected: Counter[str] = Counter()
    for seat in range(4):
        expected.update(str(c) for c in deal.hand(seat))
    for team in range(2):
        for meld in deal.melds(team):
            expected.update(str(c) for c in meld.cards)
    expected.update(visible_pile(deal.discard_pile))
    faces = drawn_cards(root)
    backs = faces.pop("back", 0)
    assert faces == expected
    assert backs == (1 if deal.stock else 0) + len(deal.reserves)


@pytest.mark.parametrize("moves", [0, 40, 120, 400])
def test_a_view_shows_only_what_its_seat_may_know(moves: int) -> None:
    deal = played(5, moves)
    for seat in range(4):
        view = deal.view(seat)
        root = parse(svg.table(view))
        expected: Counter[str] = Counter(str(c) for c in view.hand)
        for known in view.known:
            expected.update(str(c) for c in known)
        for team in view.melds:
            for meld in team:
                expected.update(str(c) for c in meld.cards)
        expected.update(visible_pile(view.discard_pile))
        faces = drawn_cards(root)
        faces.pop("back", None)
        assert faces == expected
        # every hidden hand shows its count
        shown = texts(root)
        for other in range(4):
            hidden = view.hand_sizes[other] - len(view.known[other])
            if other != seat and hidden:
                assert str(hidden) in shown


def test_a_table_shows_counts_turn_and_scores() -> None:
    deal = played(8, 60)
    root = parse(svg.table(deal))
    shown = " | ".join(texts(root))
    assert f"stock · {len(deal.stock)}" in shown
    assert f"discard pile · {len(deal.discard_pile)}" in shown
    assert f"reserves · {len(deal.reserves)} left" in shown
    assert f"seat {deal.to_move} to {deal.phase.value}" in shown
    for team, score in enumerate(deal.score().teams):
        assert f"team {team} · seats {team}, {team + 2} · score {score.total}" in shown
    view = texts(parse(svg.table(deal.view(1))))
    public = deal.view(1).public_score().teams[0].total
    assert any(f"on the table {public}" in t for t in view)


def highlighted(root: ET.Element) -> list[tuple[float, float]]:
    """The top-left corners of what the last-move marks frame."""
    colour = DEFAULT_COLORS["highlight"]
    return [
        (float(r.get("x", 0)) + 2, float(r.get("y", 0)) + 2)
        for r in root.iter(f"{NS}rect")
        if r.get("stroke") == colour
    ]


def placed(root: ET.Element, card: str) -> list[tuple[float, float]]:
    found = []
    for g in root.iter(f"{NS}g"):
        if g.get("data-card") == card:
            match = re.fullmatch(r"translate\(([-\d.]+),([-\d.]+)\)", g.get("transform", ""))
            assert match
            found.append((float(match[1]), float(match[2])))
    return found


def test_a_discard_frames_the_top_of_the_pile() -> None:
    deal = played(11, 30)
    if deal.phase is Phase.DRAW:
        deal.play("draw")
    seat = deal.to_move
    discard = next(m for m in deal.legal_moves() if isinstance(m, Discard))
    deal.play(discard)
    root = parse(svg.table(deal))
    assert f"last: seat {seat}: {discard}" in texts(root)
    (corner,) = highlighted(root)
    assert corner == placed(root, str(discard.card))[-1]


def test_a_draw_frames_the_card_drawn() -> None:
    deal = played(12, 0)
    seat = deal.to_move
    assert seat is not None
    drawn = deal.stock[-1]
    deal.play("draw")
    root = parse(svg.table(deal))
    corners = highlighted(root)
    assert len(corners) == 1
    assert corners[0] in placed(root, str(drawn))
    assert f"last: seat {seat}: draw" in texts(root)


def test_a_new_meld_is_framed() -> None:
    deal = deal_at(hands={0: "3H 4H 5H 9C KD QS"})
    deal.play("meld 3H 4H 5H")
    root = parse(svg.table(deal))
    (corner,) = highlighted(root)
    assert corner == placed(root, "3H")[0]


def test_an_addition_frames_the_card_added() -> None:
    deal = deal_at(hands={0: "6H 9C KD QS"}, melds=(["3H 4H 5H"], []))
    deal.play("add 0 6H")
    root = parse(svg.table(deal))
    (corner,) = highlighted(root)
    assert corner == placed(root, "6H")[0]
    assert "last: seat 0: add 0 6H" in header(root)


def test_the_seat_to_move_is_framed() -> None:
    deal = played(2, 5)
    root = parse(svg.table(deal))
    turn = [r for r in root.iter(f"{NS}rect") if r.get("stroke") == DEFAULT_COLORS["turn"]]
    assert len(turn) == 1
    assert f"▶ to {deal.phase.value}" in texts(root)


def header(root: ET.Element) -> list[str]:
    """The texts of the picture's first line."""
    return [t.text or "" for t in root.iter(f"{NS}text") if t.get("y") in ("22", "23")]


def test_the_bonus_suit_is_shown_under_kozi() -> None:
    kozi = RuleSet.named("biriba-kozi")
    deal = Deal.new(kozi, seed=1)
    assert deal.bonus_suit is not None
    assert {"kózi", deal.bonus_suit.symbol} <= set(header(parse(svg.table(deal))))
    assert "kózi" not in header(parse(svg.table(Deal.new(seed=1))))
    # a joker up-card: the suit is not named yet; the first player takes the joker (V1)
    deal = Deal.new(kozi, seed=7)
    assert deal.bonus_suit is None
    assert {"kózi", "?"} <= set(header(parse(svg.table(deal))))
    seat = deal.to_move
    deal.play("kozi H")
    assert {"kózi", "♥"} <= set(header(parse(svg.table(deal.view(seat or 0)))))
    root = parse(svg.table(deal))
    assert f"last: seat {seat}: kozi H" in header(root)
    (corner,) = highlighted(root)  # the joker taken into the hand
    assert corner in placed(root, "JK")


def test_buraco_mortos_canastras_and_the_redraw() -> None:
    deal = Deal.new(BURACO, seed=1)
    shown = texts(parse(svg.table(deal)))
    assert "mortos · 2 left" in shown
    assert "discard pile · 0" in shown
    seat = deal.to_move
    deal.play("draw")
    replaced = deal.stock[-1]
    deal.play("redraw")
    root = parse(svg.table(deal))
    assert f"last: seat {seat}: redraw" in header(root)
    (corner,) = highlighted(root)  # the card drawn instead
    assert corner in placed(root, str(replaced))
    canastra = texts(parse(svg.meld(Meld.parse("3H 4H 5H 6H 7H 8H 9H", BURACO))))
    assert "clean canastra" in canastra
    wild = Meld.parse("JK 2C 2D 2H 2S JK 2C", BURACO)
    assert wild.kind is MeldKind.WILD and wild.is_biriba
    assert "wild canastra" in texts(parse(svg.meld(wild)))


def test_a_received_reserve_is_noted() -> None:
    deal = deal_at(
        hands={0: "5C 6C 7C"}, melds=(["3H 4H 5H 6H 7H 8H 9H"], []), received=(True, False)
    )
    shown = " ".join(texts(parse(svg.table(deal))))
    assert "reserve received" in shown
    assert "reserves · 1 left" in shown


# ---------------------------------------------------------------------- options and errors
def test_bottom_puts_a_seat_at_the_bottom() -> None:
    deal = played(4, 10)
    for bottom in range(4):
        root = parse(svg.table(deal, bottom=bottom))
        labels = [t for t in texts(root) if t.startswith("seat ") and " · team " in t]
        assert labels[-1].startswith(f"seat {bottom} ")  # the bottom box is drawn last
        # along the top, left to right: the seat before, across, the seat after
        assert [int(t.split()[1]) for t in labels[:-1]] == [
            (bottom - 1) % 4,
            (bottom + 2) % 4,
            (bottom + 1) % 4,
        ]
    labels = [t for t in texts(parse(svg.table(deal.view(3)))) if " · team " in t]
    assert labels[-1].startswith("seat 3 ")  # a view has its own seat at the bottom


def test_size_sets_the_width_in_pixels() -> None:
    root = parse(svg.table(played(4, 10), size=600))
    assert root.get("width") == "600"
    _, _, w, h = (float(v) for v in (root.get("viewBox") or "").split())
    assert float(root.get("height") or 0) == pytest.approx(600 * h / w, abs=0.1)
    assert parse(svg.card(Card.parse("5S"), size=120)).get("width") == "120"


def test_colors_override_the_defaults() -> None:
    root = parse(svg.card(Card.parse("5H"), colors={"hearts": "#0000ff", "card": "ivory"}))
    assert {t.get("fill") for t in root.iter(f"{NS}text")} == {"#0000ff"}
    assert "ivory" in {r.get("fill") for r in root.iter(f"{NS}rect")}


def test_a_colour_is_a_colour_css_knows() -> None:
    # pictures.rst: a value that is not a colour raises BiribaError. Names are CSS's,
    # in any case; hex colours have 3, 4, 6 or 8 digits.
    card = Card.parse("5H")
    for good in ("navy", "RebeccaPurple", "transparent", "#abc", "#abcd", "#aabbcc", "#aabbccdd"):
        assert good in svg.card(card, colors={"card": good})
    for bad in ("notacolour", "#1234567", "#12345", "#ab", "bluish", "red;", "url(#x)"):
        with pytest.raises(BiribaError, match="is not a colour"):
            svg.card(card, colors={"card": bad})


def test_bottom_is_a_seat_of_any_integer_type() -> None:
    np = pytest.importorskip("numpy")
    deal = played(4, 1)
    assert svg.table(deal, bottom=np.int64(1)) == svg.table(deal, bottom=1)
    with pytest.raises(TypeError, match="got bool"):
        svg.table(deal, bottom=True)


def _seat_labels(picture: str) -> dict[int, ET.Element]:
    return {
        int(t.text.split()[1]): t
        for t in parse(picture).iter(f"{NS}text")
        if t.text and t.text.startswith("seat ") and " · " in t.text
    }


def test_seat_labels_fit_their_boxes_with_six_players() -> None:
    # Six seats: five narrow boxes along the top. A label ends before the turn's mark in
    # the box of the seat to move: the team goes first, then "this view" (the header
    # names the view's seat), then the label is squeezed into its room.
    rules = RuleSet.named("biriba-6")
    deal = Deal.new(rules, seed=1, dealer=0)
    rng = random.Random(1)
    while deal.to_move != 0 or deal.phase is not Phase.DRAW:
        deal.play(rng.choice(deal.legal_moves()))
    labels = _seat_labels(svg.table(deal.view(0), bottom=5))
    assert labels[4].text == "seat 4 · team 1 · 2 cards"  # room enough: all of it
    mover = labels[0]  # to move, the dealer, the view's seat, in a narrow box
    assert mover.text == "seat 0 · 11 cards · dealer"
    assert mover.get("textLength") == "128"
    # At the bottom, the whole width: the whole label, unsqueezed.
    labels = _seat_labels(svg.table(deal.view(0), bottom=0))
    assert labels[0].text == "seat 0 · team 0 · 11 cards · dealer · this view"
    assert labels[0].get("textLength") is None


def test_a_long_rule_set_name_is_cut_short_in_the_header() -> None:
    rules = RuleSet.named("biriba-kozi").evolve(name="W" * 80)
    texts = [t.text for t in parse(svg.table(Deal.new(rules, seed=1))).iter(f"{NS}text")]
    assert "W" * 23 + "… · dealer seat 0" in texts
    assert not any(text and "W" * 24 in text for text in texts)


def test_bad_options_are_refused() -> None:
    deal = played(4, 1)
    with pytest.raises(BiribaError, match="no colour named"):
        svg.table(deal, colors={"felt": "#000"})
    with pytest.raises(BiribaError, match="is not a colour"):
        svg.card(Card.parse("5H"), colors={"hearts": '"/><script>'})
    with pytest.raises(TypeError):
        svg.card(Card.parse("5H"), colors={"hearts": 5})  # type: ignore[dict-item]
    with pytest.raises(TypeError):
        svg.card(Card.parse("5H"), colors={5: "#fff"})  # type: ignore[dict-item]
    with pytest.raises(BiribaError, match="no colour named") as long_name:
        svg.card(Card.parse("5H"), colors={"x" * 5000: "#fff"})
    assert len(str(long_name.value)) < 300  # an excerpt, not the whole name
    with pytest.raises(TypeError):
        svg.card(Card.parse("5H"), colors=["red"])  # type: ignore[arg-type]
    with pytest.raises(BiribaError):
        svg.table(deal, size=0)
    with pytest.raises(TypeError):
        svg.table(deal, size="big")  # type: ignore[arg-type]
    with pytest.raises(BiribaError) as error:
        svg.table(deal, bottom=4)
    assert error.value.rule == "B1.1"
    with pytest.raises(TypeError):
        svg.card("7H")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        svg.meld("7H 8H 9H")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        svg.hand("7H 8H")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        svg.table(Meld.parse("7H 8H 9H"))  # type: ignore[arg-type]


# ---------------------------------------------------------------------- notebooks
def test_notebook_pictures() -> None:
    card, meld = Card.parse("QS"), Meld.parse("7H 8H 9H")
    deal = played(6, 20)
    assert card._repr_svg_() == svg.card(card)
    assert meld._repr_svg_() == svg.meld(meld)
    assert deal._repr_svg_() == svg.table(deal, size=900)
    assert deal.view(2)._repr_svg_() == svg.table(deal.view(2), size=900)


def test_the_hook_is_installed_by_importing_any_module() -> None:
    code = "import biriba.cards as c; print(c.Card.parse('7H')._repr_svg_()[:4])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "<svg"


# ---------------------------------------------------------------------- golden files
@pytest.mark.parametrize("name", sorted(pictures()))
def test_golden_pictures(name: str) -> None:
    """Regenerate with ``python -m tests.data.regenerate`` after a deliberate change, and
    look at the pictures before committing them."""
    expected = (GOLDEN / name).read_text(encoding="utf-8")
    assert pictures()[name] + "\n" == expected
    parse(expected)


def test_a_buraco_rule_set_of_any_name_speaks_of_mortos() -> None:
    from biriba import BURACO, Deal
    from biriba import svg as pictures

    drawn = pictures.table(Deal.new(BURACO.evolve(name="club"), seed=1))
    assert "morto" in drawn and "reserve" not in drawn
