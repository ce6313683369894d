"""Pictures: cards, melds, hands and whole tables drawn as SVG, in pure Python.

Each function returns the text of one SVG picture::

    >>> from biriba import Card, Deal, Meld, svg
    >>> svg.card(Card.parse("7H")).startswith("<svg")
    True
    >>> picture = svg.meld(Meld.parse("3H 4H JK 6H 7H 8H 9H"))   # the joker marked as 5♥
    >>> picture = svg.table(Deal.new(seed=1), size=600)          # a whole position
    >>> picture = svg.table(Deal.new(seed=1).view(2))            # what seat 2 may see

Cards show their rank and suit symbol in the suit's colour; a joker is a star. In a meld, a
card acting as a substitute is framed in the wild colour and tagged with the rank (and
suit) it stands for, and a biriba (a canastra under Buraco) is framed and labelled clean
or dirty. A table shows every hand (face down where the picture is a
:class:`~biriba.PlayerView` and the seat cannot see it, with the count, and the cards
publicly known to be there face up), the stock and the reserves (mortos) with their
counts, the discard pile's top cards and size, each team's melds by index (the index of
``add 0 5H``) and score, the seat to move, the bonus suit where the position has one
(kózi, V1), and the last move, written out and framed on the table.

Options: ``size``, the picture's width in pixels, a whole number from 1 to 10,000
(``None``: its natural size, one unit a pixel; another type raises :class:`TypeError`, a
number out of range :class:`~biriba.BiribaError`); ``bottom``, the seat drawn at the
bottom of a table (the other seats run along the top, the seat after it in playing order
on its right, as play goes to the right at a real table); ``colors``, a mapping that
overrides some of :data:`DEFAULT_COLORS`.

In a notebook, cards, melds, deals and views show as these pictures by themselves
(their ``_repr_svg_``, through :mod:`biriba.display`). :func:`frames` draws a series of
tables in one layout, for :mod:`biriba.replay_page`.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from html import escape
from types import MappingProxyType
from typing import Final

import attrs

from biriba import display
from biriba.cards import Card, Rank, Suit
from biriba.deal import Deal, PlayerView
from biriba.errors import BiribaError
from biriba.limits import check_count, excerpt, whole_number
from biriba.melds import Meld, MeldKind
from biriba.moves import AddToMeld, Discard, LayMeld, Move, Pass
from biriba.position import Phase
from biriba.rules import RuleSet, cited

__all__ = [
    "DEFAULT_COLORS",
    "Frames",
    "Table",
    "card",
    "frames",
    "hand",
    "meld",
    "table",
    "table_of",
]

#: The colours of every picture, by name; pass ``colors={"table": "#333"}`` to change some.
#: ``table`` the felt, ``text`` and ``muted`` the writing on it, ``card`` and ``edge`` a
#: card's face and border, ``back`` and ``back_edge`` a face-down card, ``clubs``,
#: ``diamonds``, ``hearts`` and ``spades`` the suits, ``joker``, ``wild`` a card acting as
#: a substitute, ``clean`` and ``dirty`` the frames of biribas, ``turn`` the seat to move,
#: ``highlight`` the last move.
DEFAULT_COLORS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "table": "#1d5c3a",
        "text": "#f6f4ea",
        "muted": "#b8d4c3",
        "card": "#fffdf6",
        "edge": "#4a4a4a",
        "back": "#27489a",
        "back_edge": "#dbe3f6",
        "clubs": "#161616",
        "diamonds": "#c8102e",
        "hearts": "#c8102e",
        "spades": "#161616",
        "joker": "#6a1b9a",
        "wild": "#e65c00",
        "clean": "#8ef0a0",
        "dirty": "#ffb347",
        "turn": "#ffe45c",
        "highlight": "#ff3fa4",
    }
)

#: A colour's value: ``#rgb``, ``#rgba``, ``#rrggbb`` or ``#rrggbbaa``, or ``rgb(...)``,
#: ``rgba(...)``, ``hsl(...)`` or ``hsla(...)`` of numbers; or else one of
#: :data:`_COLOR_NAMES`.
_COLOR_VALUE: Final = re.compile(
    r"#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})"
    r"|(?:rgb|rgba|hsl|hsla)\([0-9.,%\s]{1,60}\)"
)
#: The colours SVG and CSS know by name (CSS Color Module Level 4), in lower case (a
#: name is matched in any case), and ``transparent``.
_COLOR_NAMES: Final = frozenset(
    """aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue
    blueviolet brown burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk
    crimson cyan darkblue darkcyan darkgoldenrod darkgray darkgreen darkgrey darkkhaki
    darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen
    darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue
    dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro
    ghostwhite gold goldenrod gray green greenyellow grey honeydew hotpink indianred indigo
    ivory khaki lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral
    lightcyan lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon
    lightseagreen lightskyblue lightslategray lightslategrey lightsteelblue lightyellow
    lime limegreen linen magenta maroon mediumaquamarine mediumblue mediumorchid
    mediumpurple mediumseagreen mediumslateblue mediumspringgreen mediumturquoise
    mediumvioletred midnightblue mintcream mistyrose moccasin navajowhite navy oldlace
    olive olivedrab orange orangered orchid palegoldenrod palegreen paleturquoise
    palevioletred papayawhip peachpuff peru pink plum powderblue purple rebeccapurple red
    rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell sienna silver
    skyblue slateblue slategray slategrey snow springgreen steelblue tan teal thistle
    tomato turquoise violet wheat white whitesmoke yellow yellowgreen transparent""".split()  # noqa: SIM905 (a list this long reads better so)
)
_FONT: Final = "DejaVu Sans, Verdana, Arial, sans-serif"

# Geometry, in the picture's units: a card, and how much of a card shows when cards overlap.
_CW: Final = 50
_CH: Final = 70
_MELD_STEP: Final = 18  # a meld's cards, left to right
_BACK_STEP: Final = 5  # face-down cards of a hand
_MIN_STEP: Final = 13  # below this a hand of faces wraps to a second row
_ROW_STEP: Final = 38  # the rows of one hand, or of melds squeezed together
_PAD: Final = 10
_LABEL: Final = 18  # a box's label line
_WIDTH: Final = 1200
#: The widest picture drawn, in pixels (the ``size`` option): ten times a wide screen's
#: width, beyond which a size is a mistake (and a huge int one no float can hold).
_MAX_SIZE: Final = 10_000
_COLUMN: Final = 180  # the stock, the pile and the reserves
#: About how wide a character of 12 units is, in the picture's units (DejaVu Sans'
#: digits and lower-case letters, a little over): what a seat's label is measured by.
_CHAR_12: Final = 6.2
#: The room kept at the right of the label of the seat to move, for the turn's mark
#: (``▶ to draw``).
_MARK_ROOM: Final = 80
#: The most characters of a rule set's name the header shows.
_HEADER_NAME: Final = 24


# ---------------------------------------------------------------------- options
def _colors(colors: Mapping[str, str] | None) -> dict[str, str]:
    merged = dict(DEFAULT_COLORS)
    if colors is None:
        return merged
    if not isinstance(colors, Mapping):
        raise TypeError(
            f"colors must be a mapping of names to colours, got {type(colors).__name__}"
        )
    for name, value in colors.items():
        if not isinstance(name, str):
            raise TypeError(f"a colour's name is a str, got {type(name).__name__}")
        if name not in DEFAULT_COLORS:
            known = ", ".join(DEFAULT_COLORS)
            raise BiribaError(f"no colour named {excerpt(name)}; the colours are {known}")
        if not isinstance(value, str):
            raise TypeError(f"colour {name!r} must be a str, got {type(value).__name__}")
        written = value.strip()
        if not (_COLOR_VALUE.fullmatch(written) or written.lower() in _COLOR_NAMES):
            raise BiribaError(
                f"colour {name!r}: {excerpt(value)} is not a colour (write #rgb, #rrggbb, a "
                f"colour's name such as 'navy', or rgb(...))"
            )
        merged[name] = value.strip()
    return merged


def _size(size: int | None) -> int | None:
    """``size`` checked: ``None``, or a whole number of pixels (an int or any integer type,
    not a bool) from 1 to :data:`_MAX_SIZE`; else :class:`TypeError` for another type,
    :class:`~biriba.BiribaError` out of range, with an excerpt of a huge one."""
    if size is None:
        return None
    pixels = check_count(size, "size")
    if pixels > _MAX_SIZE:
        raise BiribaError(f"size must be at most {_MAX_SIZE:,} pixels, got {excerpt(pixels)}")
    return pixels


def _seat(seat: object, rules: RuleSet, what: str) -> int:
    """``seat`` as an ``int`` if it is a seat of ``rules`` (an ``int`` or any integer type,
    NumPy's too, but not a ``bool``); else :class:`TypeError` or
    :class:`~biriba.BiribaError` (B1.1)."""
    seat = whole_number(seat, what)
    if not 0 <= seat < rules.players:
        seats = cited(rules, "B1.1")
        raise BiribaError(
            f"{what}: seat {excerpt(seat)} is out of range 0..{rules.players - 1} ({seats})",
            rule=seats,
        )
    return seat


# ---------------------------------------------------------------------- writing SVG
def _n(value: float) -> str:
    """A coordinate, written short."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _text(
    x: float,
    y: float,
    text: str,
    *,
    size: float,
    fill: str,
    anchor: str = "start",
    bold: bool = False,
    extra: str = "",
) -> str:
    weight = ' font-weight="bold"' if bold else ""
    align = "" if anchor == "start" else f' text-anchor="{anchor}"'
    return (
        f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" fill="{fill}"'
        f"{align}{weight}{extra}>{escape(text)}</text>"
    )


def _empty_spot(x: float, y: float, colors: Mapping[str, str]) -> str:
    """The dashed outline of a card's place left empty (an empty stock or discard pile)."""
    return _rect(x, y, _CW, _CH, stroke=colors["muted"], radius=5, extra=' stroke-dasharray="4 3"')


def _rect(
    x: float,
    y: float,
    w: float,
    h: float,
    *,
    fill: str = "none",
    stroke: str = "none",
    width: float = 1,
    radius: float = 4,
    extra: str = "",
) -> str:
    line = "" if stroke == "none" else f' stroke="{stroke}" stroke-width="{_n(width)}"'
    return (
        f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="{_n(radius)}" '
        f'fill="{fill}"{line}{extra}/>'
    )


def _document(body: str, width: float, height: float, size: int | None, title: str) -> str:
    if size is None:
        shown_w, shown_h = _n(width), _n(height)
    else:
        shown_w, shown_h = str(size), _n(round(size * height / width, 1))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 {_n(width)} '
        f'{_n(height)}" width="{shown_w}" height="{shown_h}" font-family="{_FONT}">'
        f"<title>{escape(title)}</title>{body}</svg>"
    )


def _rank_text(rank: int) -> str:
    """A rank as a card face shows it: ``A 2 … 10 J Q K`` (14, a high ace, is ``A``)."""
    rank = 1 if rank == 14 else rank
    return "10" if rank == Rank.TEN else Rank(rank).letter


def _suit_color(suit: Suit, colors: Mapping[str, str]) -> str:
    return colors[suit.name.lower()]


def _face(card: Card | None, colors: Mapping[str, str]) -> str:
    """A card at the origin, ``None`` for a face-down card."""
    if card is None:
        return _rect(0, 0, _CW, _CH, fill=colors["back"], stroke=colors["edge"], radius=5) + _rect(
            4, 4, _CW - 8, _CH - 8, stroke=colors["back_edge"], width=1.5, radius=3
        )
    parts = [_rect(0, 0, _CW, _CH, fill=colors["card"], stroke=colors["edge"], radius=5)]
    if card.suit is None or card.rank is None:
        ink = colors["joker"]
        parts.append(_text(3, 18, "★", size=16, fill=ink))
        parts.append(_text(4, 30, "JK", size=9, fill=ink, bold=True))
        parts.append(_text(32, 48, "★", size=30, fill=ink, anchor="middle"))
        parts.append(_text(32, 63, "JOKER", size=7, fill=ink, anchor="middle", bold=True))
        return "".join(parts)
    ink = _suit_color(card.suit, colors)
    rank = _rank_text(card.rank)
    squeeze = ' textLength="15" lengthAdjust="spacingAndGlyphs"' if len(rank) > 1 else ""
    parts.append(_text(3, 18, rank, size=17, fill=ink, bold=True, extra=squeeze))
    parts.append(_text(3.5, 34, card.suit.symbol, size=15, fill=ink))
    parts.append(_text(32, 52, card.suit.symbol, size=30, fill=ink, anchor="middle"))
    return "".join(parts)


def _card_id(card: Card | None) -> str:
    return "bb-back" if card is None else f"bb-{card}"


class _Painter:
    """Writes the cards of a picture: each in full (a picture that stands alone), or as a
    reference to one definition per distinct card (:func:`frames`)."""

    def __init__(self, colors: Mapping[str, str], linked: bool) -> None:
        self.colors = colors
        self.linked = linked
        self.used: dict[Card | None, str] = {}

    def card(self, card: Card | None, x: float, y: float) -> str:
        face = self.used.get(card)
        if face is None:
            face = self.used[card] = _face(card, self.colors)
        if self.linked:
            return f'<use href="#{_card_id(card)}" x="{_n(x)}" y="{_n(y)}"/>'
        name = "back" if card is None else str(card)
        return f'<g transform="translate({_n(x)},{_n(y)})" data-card="{name}">{face}</g>'

    def definitions(self) -> str:
        """The ``<defs>`` of a linked picture: every card it used, and the back."""
        faces = dict(self.used)
        faces.setdefault(None, _face(None, self.colors))
        return (
            "<defs>"
            + "".join(f'<g id="{_card_id(c)}">{face}</g>' for c, face in faces.items())
            + "</defs>"
        )


# ---------------------------------------------------------------------- melds
def _stands_for(meld: Meld, place: int) -> tuple[str, Suit | None] | None:
    """The rank (as written on a face) and suit a substitute at ``place`` stands for."""
    if meld.kind is MeldKind.SEQUENCE and meld.low is not None:
        return _rank_text(meld.low + place), meld.suit
    if meld.kind is MeldKind.GROUP and meld.rank is not None:
        return _rank_text(meld.rank), None
    return None


def _meld_width(meld: Meld) -> float:
    return _CW + (len(meld) - 1) * _MELD_STEP


def _draw_meld(
    meld: Meld, index: int | None, x: float, y: float, painter: _Painter
) -> tuple[str, list[tuple[float, float, float]]]:
    """A meld with its label line above it at (x, y): its SVG, and where each card shows
    (x, y, visible width)."""
    colors = painter.colors
    parts = []
    word = meld.rules.words[1]
    label = "" if index is None else str(index)
    frame = None
    if meld.is_biriba:
        if meld.kind is MeldKind.WILD:  # Z3.7: neither clean nor dirty
            state, frame = "wild", colors["wild"]
        else:
            state = "clean" if meld.is_clean else "dirty"
            frame = colors[state]
        label = f"{label} · {state} {word}" if label else f"{state} {word}"
    if label:
        parts.append(
            _text(x, y + 12, label, size=12, fill=frame or colors["muted"], bold=frame is not None)
        )
    top = y + _LABEL
    spots: list[tuple[float, float, float]] = []
    substitutes = set(meld.substitute_positions)
    last = len(meld) - 1
    for place, card in enumerate(meld.cards):
        cx = x + place * _MELD_STEP
        parts.append(painter.card(card, cx, top))
        spots.append((cx, top, _CW if place == last else _MELD_STEP))
        if place in substitutes:
            parts.append(
                _rect(cx + 1, top + 1, _CW - 2, _CH - 2, stroke=colors["wild"], width=2, radius=4)
            )
            stood = _stands_for(meld, place)
            if stood is not None:
                rank, suit = stood
                parts.append(_rect(cx + 2, top + 38, 14.5, 29, fill=colors["wild"], radius=3))
                parts.append(
                    _text(
                        cx + 9.25,
                        top + 51,
                        rank,
                        size=11,
                        fill="#ffffff",
                        anchor="middle",
                        bold=True,
                        extra=' textLength="12" lengthAdjust="spacingAndGlyphs"'
                        if len(rank) > 1
                        else "",
                    )
                )
                if suit is not None:
                    parts.append(
                        _text(
                            cx + 9.25,
                            top + 63,
                            suit.symbol,
                            size=11,
                            fill="#ffffff",
                            anchor="middle",
                        )
                    )
    if frame is not None:
        parts.append(
            _rect(x - 3, top - 3, _meld_width(meld) + 6, _CH + 6, stroke=frame, width=2.5, radius=7)
        )
    return "".join(parts), spots


def _meld_rows(melds: Sequence[Meld], width: float) -> list[list[int]]:
    """The melds' indices, row by row, flowing left to right within ``width``."""
    rows: list[list[int]] = [[]]
    used = 0.0
    for i, meld in enumerate(melds):
        need = _meld_width(meld)
        if rows[-1] and used + need > width:
            rows.append([])
            used = 0.0
        rows[-1].append(i)
        used += need + 2 * _PAD
    return rows if rows[-1] else []


# ---------------------------------------------------------------------- hands
def _hand_shape(faces: int, hidden: int, width: float, widest: float) -> tuple[int, float]:
    """How a hand of ``faces`` cards face up (and ``hidden`` face down after them) fits in
    ``width``: its cards per row and the step between them (at most ``widest``)."""
    room = width - (_CW + (min(hidden, 20) - 1) * _BACK_STEP + _PAD if hidden else 0)
    if faces <= 1:
        return max(faces, 1), 0.0
    per_row_most = max(1, int((room - _CW) // _MIN_STEP) + 1)
    rows = math.ceil(faces / per_row_most)
    per_row = math.ceil(faces / rows)
    step = widest if per_row == 1 else min(widest, (room - _CW) / (per_row - 1))
    return per_row, step


def _hand_rows(faces: int, hidden: int, width: float, widest: float) -> int:
    per_row, _ = _hand_shape(faces, hidden, width, widest)
    return max(1, math.ceil(faces / per_row))


def _draw_hand(
    faces: Sequence[Card],
    hidden: int,
    x: float,
    y: float,
    width: float,
    widest: float,
    painter: _Painter,
) -> tuple[str, list[tuple[float, float, float]], tuple[float, float, float, float] | None]:
    """A hand at (x, y): its SVG, where each face-up card shows, and the box of the
    face-down cards (``None`` if there are none)."""
    parts = []
    spots = []
    per_row, step = _hand_shape(len(faces), hidden, width, widest)
    right = x
    for i, card in enumerate(faces):
        row, col = divmod(i, per_row)
        cx, cy = x + col * step, y + row * _ROW_STEP
        parts.append(painter.card(card, cx, cy))
        shown = _CW if (col == per_row - 1 or i == len(faces) - 1) else step
        spots.append((cx, cy, shown))
        right = max(right, cx + _CW)
    backs = None
    if hidden:
        bx = right + _PAD if faces else x
        drawn = min(hidden, 20)
        for i in range(drawn):
            parts.append(painter.card(None, bx + i * _BACK_STEP, y))
        bw = _CW + (drawn - 1) * _BACK_STEP
        parts.append(
            _text(
                bx + bw - _CW / 2,
                y + _CH / 2 + 8,
                str(hidden),
                size=22,
                bold=True,
                fill=painter.colors["back_edge"],
                anchor="middle",
            )
        )
        backs = (bx, y, bw, _CH)
    return "".join(parts), spots, backs


# ---------------------------------------------------------------------- the table
@attrs.frozen
class Table:
    """What a picture of a table shows: one moment of a deal, as a seat or an onlooker
    sees it. Build one with :func:`table_of`; :func:`table` and :func:`frames` draw it."""

    #: The rule set.
    rules: RuleSet
    #: The dealer's seat.
    dealer: int
    #: The seat to act, ``None`` once the deal is over.
    to_move: int | None
    #: The phase of the turn.
    phase: Phase
    #: By seat, the cards drawn face up.
    faces: tuple[tuple[Card, ...], ...]
    #: By seat, the number of cards drawn face down.
    hidden: tuple[int, ...]
    #: Each team's melds.
    melds: tuple[tuple[Meld, ...], ...]
    #: The number of cards in the stock.
    stock: int
    #: The discard pile, bottom to top.
    pile: tuple[Card, ...]
    #: The size of each reserve packet (morto) not yet given.
    reserves: tuple[int, ...]
    #: By team, whether it has received its reserve.
    received: tuple[bool, ...]
    #: By team, the seat holding a reserve received by its final discard and not yet
    #: played (B5.4), else ``None``.
    unactivated: tuple[int | None, ...]
    #: The seat that closed, else ``None``.
    closed_by: int | None
    #: Each team's score as it stands.
    scores: tuple[int, ...]
    #: Whether :attr:`scores` count the hands (a deal) or only the table (a view).
    full_score: bool
    #: The bonus suit under kózi (V1), else ``None`` (also while a joker up-card waits for
    #: its suit to be named).
    bonus_suit: Suit | None = None
    #: Whether the deal's last turn is being played (Z4.3).
    last_turn: bool = False
    #: The last move played, else ``None``.
    last_move: Move | None = None
    #: The seat that played it, where known.
    last_seat: int | None = None
    #: The cards the last move brought into that seat's hand, where known.
    arrived: tuple[Card, ...] = ()
    #: The seat whose view this is, ``None`` for a whole deal.
    viewer: int | None = None
    #: The deal's index in a match (from 0; the picture writes it from 1), else ``None``.
    deal_index: int | None = None
    #: The match's totals before this deal, else ``None``.
    match_totals: tuple[int, ...] | None = None

    def turn_text(self) -> str:
        """Whose turn it is, in words: ``seat 1 to draw``, or how the deal ended."""
        if self.to_move is None:
            if self.closed_by is not None:
                return f"deal over: seat {self.closed_by} closed"
            return "deal over"
        turn = f"seat {self.to_move} to {self.phase.value}"
        return turn + " · last turn" if self.last_turn else turn

    def move_text(self) -> str:
        """The last move in words: ``seat 2: discard 7H`` (empty before the first move)."""
        if self.last_move is None:
            return ""
        who = "" if self.last_seat is None else f"seat {self.last_seat}: "
        return f"{who}{self.last_move}"

    def score_text(self) -> str:
        """The score as it stands: ``team 0 120 · team 1 45``, with the match's totals."""
        kind = "score" if self.full_score else "on the table"
        parts = " · ".join(f"team {t} {s}" for t, s in enumerate(self.scores))
        text = f"{kind}: {parts}"
        if self.match_totals is not None:
            totals = " · ".join(str(t) for t in self.match_totals)
            text += f" (match before this deal: {totals})"
        return text


def _mover(move: Move, to_move: int | None, closed_by: int | None, players: int) -> int | None:
    """Who played ``move``, from the position after it: a discard or a pass hands the
    turn on, every other move leaves it with the player."""
    if isinstance(move, Discard | Pass):
        if to_move is None:
            return closed_by
        return (to_move - 1) % players
    return to_move


def table_of(value: Deal | PlayerView) -> Table:
    """The :class:`Table` of a deal (every card face up but the stock and the reserves) or
    of a player view (the cards the seat cannot see face down)."""
    if isinstance(value, Deal):
        return _table_of_deal(value)
    if isinstance(value, PlayerView):
        return _table_of_view(value)
    raise TypeError(f"a table is drawn from a Deal or a PlayerView, got {type(value).__name__}")


def _table_of_deal(deal: Deal) -> Table:
    rules = deal.rules
    position = deal.position
    history = deal.history
    last = history[-1] if history else None
    seat = None
    arrived: tuple[Card, ...] = ()
    if last is not None:
        seat = _mover(last, deal.to_move, deal.closed_by, rules.players)
        before = deal.copy()
        try:
            before.undo()
        except BiribaError:  # a deal that starts with a public history (a sampled view)
            pass
        else:
            seat = before.to_move
            if seat is not None:
                gained = Counter(deal.hand(seat)) - Counter(before.hand(seat))
                arrived = tuple(sorted(gained.elements()))
    return Table(
        rules=rules,
        dealer=deal.dealer,
        to_move=deal.to_move,
        phase=deal.phase,
        faces=tuple(deal.hand(s) for s in range(rules.players)),
        hidden=(0,) * rules.players,
        melds=position.melds,
        stock=len(position.stock),
        pile=position.pile,
        reserves=tuple(len(packet) for packet in position.reserves),
        received=position.received,
        unactivated=position.unactivated,
        closed_by=position.closed_by,
        scores=tuple(t.total for t in deal.score().teams),
        full_score=True,
        bonus_suit=deal.bonus_suit,
        last_turn=deal.last_turn,
        last_move=last,
        last_seat=seat,
        arrived=arrived,
    )


def _table_of_view(view: PlayerView) -> Table:
    rules = view.rules
    faces = []
    hidden = []
    for s in range(rules.players):
        shown = view.hand if s == view.seat else view.known[s]
        faces.append(tuple(shown))
        hidden.append(view.hand_sizes[s] - len(shown))
    last = view.history[-1] if view.history else None
    seat = None
    if last is not None:
        seat = _mover(last, view.to_move, view.closed_by, rules.players)
    return Table(
        rules=rules,
        dealer=view.dealer,
        to_move=view.to_move,
        phase=view.phase,
        faces=tuple(faces),
        hidden=tuple(hidden),
        melds=view.melds,
        stock=view.stock_size,
        pile=view.discard_pile,
        reserves=(rules.reserve_size,) * view.reserves_left,
        received=view.reserve_received,
        unactivated=view.unactivated,
        closed_by=view.closed_by,
        scores=tuple(t.total for t in view.public_score().teams),
        full_score=False,
        bonus_suit=view.bonus_suit,
        last_turn=view.last_turn,
        last_move=last,
        last_seat=seat,
        viewer=view.seat,
    )


@attrs.frozen
class _Layout:
    """Where everything of a table goes, fixed for a series of tables (:func:`frames`)."""

    players: int
    bottom: int
    top_seats: tuple[int, ...]
    team_order: tuple[int, ...]
    top_rows: int
    bottom_rows: int
    team_rows: tuple[int, ...]  # by team

    @property
    def box_width(self) -> float:
        """The width of each seat's box along the top."""
        return (_WIDTH - _PAD * (len(self.top_seats) + 1)) / max(1, len(self.top_seats))

    @property
    def melds_width(self) -> float:
        return _WIDTH - 3 * _PAD - _COLUMN

    def hand_height(self, rows: int) -> float:
        return _CH + (rows - 1) * _ROW_STEP

    def team_height(self, team: int) -> float:
        rows = self.team_rows[team]
        return _LABEL + 4 + max(1, rows) * (_LABEL + _CH + _PAD)

    @property
    def top_y(self) -> float:
        return 34.0

    @property
    def middle_y(self) -> float:
        if not self.top_seats:
            return self.top_y
        return self.top_y + _LABEL + self.hand_height(self.top_rows) + 2 * _PAD

    @property
    def middle_height(self) -> float:
        column = 3 * (_LABEL + _CH + _PAD) + _PAD
        teams = sum(self.team_height(t) + _PAD for t in self.team_order)
        return max(column, teams)

    @property
    def bottom_y(self) -> float:
        return self.middle_y + self.middle_height + _PAD

    @property
    def height(self) -> float:
        return self.bottom_y + _LABEL + self.hand_height(self.bottom_rows) + 2 * _PAD


_TOP_STEP: Final = 24
_BOTTOM_STEP: Final = 36


def _layout(tables: Sequence[Table], bottom: int) -> _Layout:
    rules = tables[0].rules
    n = rules.players
    top = tuple(reversed([(bottom + k) % n for k in range(1, n)]))
    own_team = bottom % rules.teams
    teams = tuple([t for t in range(rules.teams) if t != own_team] + [own_team])
    shape = _Layout(n, bottom, top, teams, 1, 1, (1,) * rules.teams)
    top_rows = bottom_rows = 1
    team_rows = [1] * rules.teams
    for t in tables:
        for seat in top:
            top_rows = max(
                top_rows,
                _hand_rows(
                    len(t.faces[seat]), t.hidden[seat], shape.box_width - 2 * _PAD, _TOP_STEP
                ),
            )
        bottom_rows = max(
            bottom_rows,
            _hand_rows(len(t.faces[bottom]), t.hidden[bottom], _WIDTH - 4 * _PAD, _BOTTOM_STEP),
        )
        for team, melds in enumerate(t.melds):
            team_rows[team] = max(
                team_rows[team], len(_meld_rows(melds, shape.melds_width - 2 * _PAD))
            )
    return attrs.evolve(
        shape, top_rows=top_rows, bottom_rows=bottom_rows, team_rows=tuple(team_rows)
    )


_Spot = tuple[float, float, float, float]


class _Drawing:
    """One table drawn in a layout: its parts (header, each seat, the middle column, each
    team, the marks of the turn and the last move) and where things are."""

    def __init__(self, t: Table, layout: _Layout, painter: _Painter) -> None:
        self.t = t
        self.layout = layout
        self.painter = painter
        self.colors = painter.colors
        self.hand_spots: dict[int, list[tuple[float, float, float]]] = {}
        self.back_spots: dict[int, _Spot | None] = {}
        self.seat_boxes: dict[int, _Spot] = {}
        self.meld_spots: dict[tuple[int, int], list[tuple[float, float, float]]] = {}
        self.pile_spot: _Spot | None = None
        self.parts: list[str] = [self._header()]
        for seat in layout.top_seats:
            self.parts.append(self._seat(seat))
        self.parts.append(self._seat(layout.bottom))
        self.parts.append(self._column())
        self.parts.append(self._team_labels())
        for team in layout.team_order:
            self.parts.append(self._team_melds(team))
        self.parts.append(self._marks())

    # -- header
    def _header(self) -> str:
        t, colors = self.t, self.colors
        before = "" if t.deal_index is None else f"deal {t.deal_index + 1} · "
        after = f" · dealer seat {t.dealer}"
        if t.viewer is not None:
            after += f" · seen by seat {t.viewer}"
        # The left of the header ends before the turn, centred: a rule set's long name (up
        # to 80 characters) is cut short, with an ellipsis, to _HEADER_NAME characters
        # (even of the widest letters, the header's left then ends before the middle).
        name = t.rules.name
        if len(name) > _HEADER_NAME:
            name = name[: _HEADER_NAME - 1] + "…"
        left = before + name + after
        parts = []
        x = _PAD
        if t.rules.bonus_suit_bonus is not None:  # kózi (V1): the suit, or "?" until named
            parts.append(_text(x, 22, "kózi", size=14, fill=colors["text"], bold=True))
            parts.append(_rect(x + 38, 5, 22, 24, fill=colors["card"], radius=4))
            suit = t.bonus_suit
            parts.append(
                _text(
                    x + 49,
                    23,
                    "?" if suit is None else suit.symbol,
                    size=17,
                    anchor="middle",
                    fill=colors["edge"] if suit is None else _suit_color(suit, colors),
                )
            )
            x += 70
        parts.append(_text(x, 22, left, size=14, fill=colors["text"]))
        parts.append(
            _text(
                _WIDTH / 2,
                22,
                t.turn_text(),
                size=15,
                bold=True,
                fill=colors["turn"],
                anchor="middle",
            )
        )
        if t.last_move is not None:
            last = "last: " + t.move_text()
            room = _WIDTH / 2 - 140
            if len(last) * 8.5 > room:  # a long addition: squeeze it into its room
                squeeze = f' textLength="{_n(room)}" lengthAdjust="spacingAndGlyphs"'
            else:
                squeeze = ""
            parts.append(
                _text(
                    _WIDTH - _PAD,
                    22,
                    last,
                    size=14,
                    fill=colors["highlight"],
                    anchor="end",
                    bold=True,
                    extra=squeeze,
                )
            )
        return "".join(parts)

    # -- seats
    def _seat_box(self, seat: int) -> _Spot:
        layout = self.layout
        if seat == layout.bottom:
            y = layout.bottom_y
            return (
                _PAD,
                y,
                _WIDTH - 2 * _PAD,
                _LABEL + layout.hand_height(layout.bottom_rows) + _PAD,
            )
        i = layout.top_seats.index(seat)
        w = layout.box_width
        x = _PAD + i * (w + _PAD)
        return (x, layout.top_y, w, _LABEL + layout.hand_height(layout.top_rows) + _PAD)

    def _seat(self, seat: int) -> str:
        t, colors = self.t, self.colors
        x, y, w, h = box = self._seat_box(seat)
        self.seat_boxes[seat] = box
        rules = t.rules
        count = len(t.faces[seat]) + t.hidden[seat]
        team = f" · team {seat % rules.teams}"
        rest = f" · {count} card{'s' if count != 1 else ''}"
        if seat == t.dealer:
            rest += " · dealer"
        viewer = " · this view" if seat == t.viewer else ""
        # The label ends before the box's edge, and in the box of the seat to move before
        # the turn's mark. In the narrow boxes of five or six players the team goes first
        # (the team labels by the melds name it), then "this view" (the header names the
        # seat the view is of), then the label is squeezed to fit.
        room = w - 2 * _PAD - (_MARK_ROOM if seat == t.to_move else 0)
        squeeze = ""
        for label in (f"seat {seat}{team}{rest}{viewer}", f"seat {seat}{rest}{viewer}"):
            if len(label) * _CHAR_12 <= room:
                break
        else:
            label = f"seat {seat}{rest}"
            if len(label) * _CHAR_12 > room:
                squeeze = f' textLength="{_n(room)}" lengthAdjust="spacingAndGlyphs"'
        parts = [
            _rect(x, y, w, h, fill="#000000", extra=' fill-opacity="0.12"', radius=6),
            _text(x + _PAD, y + 14, label, size=12, fill=colors["muted"], extra=squeeze),
        ]
        widest = _BOTTOM_STEP if seat == self.layout.bottom else _TOP_STEP
        svg, spots, backs = _draw_hand(
            t.faces[seat], t.hidden[seat], x + _PAD, y + _LABEL, w - 2 * _PAD, widest, self.painter
        )
        parts.append(svg)
        self.hand_spots[seat] = spots
        self.back_spots[seat] = backs
        return "".join(parts)

    # -- the middle column: stock, pile, reserves
    def _column(self) -> str:
        t, colors, painter = self.t, self.colors, self.painter
        x = _PAD
        y = self.layout.middle_y
        parts = []
        parts.append(_text(x, y + 13, f"stock · {t.stock}", size=12, fill=colors["muted"]))
        if t.stock:
            parts.append(painter.card(None, x, y + _LABEL))
            parts.append(
                _text(
                    x + _CW / 2,
                    y + _LABEL + _CH / 2 + 8,
                    str(t.stock),
                    size=20,
                    bold=True,
                    fill=colors["back_edge"],
                    anchor="middle",
                )
            )
        else:
            parts.append(_empty_spot(x, y + _LABEL, colors))
        y += _LABEL + _CH + _PAD
        pile = t.pile
        parts.append(_text(x, y + 13, f"discard pile · {len(pile)}", size=12, fill=colors["muted"]))
        shown = pile[-7:]
        if shown:
            for i, c in enumerate(shown):
                parts.append(painter.card(c, x + i * 14, y + _LABEL))
            top_x = x + (len(shown) - 1) * 14
            self.pile_spot = (top_x, y + _LABEL, _CW, _CH)
        else:
            parts.append(_empty_spot(x, y + _LABEL, colors))
        y += _LABEL + _CH + _PAD
        word = t.rules.words[0]
        plural = f"{word}s"
        parts.append(
            _text(x, y + 13, f"{plural} · {len(t.reserves)} left", size=12, fill=colors["muted"])
        )
        step = 0.0 if len(t.reserves) < 2 else min(_CW + 6, (_COLUMN - _CW) / (len(t.reserves) - 1))
        for i, size in enumerate(t.reserves):
            px = x + i * step
            parts.append(painter.card(None, px, y + _LABEL))
            parts.append(
                _text(
                    px + _CW / 2,
                    y + _LABEL + _CH / 2 + 8,
                    str(size),
                    size=20,
                    bold=True,
                    fill=colors["back_edge"],
                    anchor="middle",
                )
            )
        return "".join(parts)

    # -- the teams' melds
    def _team_y(self, team: int) -> float:
        layout = self.layout
        y = layout.middle_y
        for other in layout.team_order:
            if other == team:
                break
            y += layout.team_height(other) + _PAD
        return y

    def _team_labels(self) -> str:
        """Each team's box and label (its score changes more often than its melds)."""
        t, colors, layout = self.t, self.colors, self.layout
        x = 2 * _PAD + _COLUMN
        word = t.rules.words[0]
        parts = []
        for team in layout.team_order:
            y = self._team_y(team)
            parts.append(
                _rect(
                    x,
                    y,
                    layout.melds_width,
                    layout.team_height(team),
                    fill="#000000",
                    radius=6,
                    extra=' fill-opacity="0.18"',
                )
            )
            seats = ", ".join(str(s) for s in range(team, t.rules.players, t.rules.teams))
            label = f"team {team} · seat{'s' if ',' in seats else ''} {seats} · " + (
                f"score {t.scores[team]}" if t.full_score else f"on the table {t.scores[team]}"
            )
            if t.unactivated[team] is not None:
                label += f" · {word} received by seat {t.unactivated[team]}, not yet played"
            elif t.received[team]:
                label += f" · {word} received"
            parts.append(_text(x + _PAD, y + 15, label, size=13, fill=colors["text"], bold=True))
        return "".join(parts)

    def _team_melds(self, team: int) -> str:
        t, layout = self.t, self.layout
        x: float = 2 * _PAD + _COLUMN
        melds = t.melds[team]
        if not melds:
            return _text(
                x + _PAD,
                self._team_y(team) + _LABEL + 30,
                "no melds yet",
                size=12,
                fill=self.colors["muted"],
            )
        parts = []
        my = self._team_y(team) + _LABEL + 4
        for row in _meld_rows(melds, layout.melds_width - 2 * _PAD):
            mx = x + _PAD
            for index in row:
                svg, spots = _draw_meld(melds[index], index, mx, my, self.painter)
                parts.append(svg)
                self.meld_spots[(team, index)] = spots
                mx += _meld_width(melds[index]) + 2 * _PAD
            my += _LABEL + _CH + _PAD
        return "".join(parts)

    # -- the turn and the last move
    def _marks(self) -> str:
        t, colors = self.t, self.colors
        parts = []
        if t.to_move is not None and t.to_move in self.seat_boxes:
            x, y, w, h = self.seat_boxes[t.to_move]
            parts.append(_rect(x, y, w, h, stroke=colors["turn"], width=3, radius=6))
            parts.append(
                _text(
                    x + w - _PAD,
                    y + 14,
                    f"▶ to {t.phase.value}",
                    size=12,
                    fill=colors["turn"],
                    anchor="end",
                    bold=True,
                )
            )
        for spot in self._last_move_spots():
            x, y, w, h = spot
            parts.append(
                _rect(x - 2, y - 2, w + 4, h + 4, stroke=colors["highlight"], width=3, radius=6)
            )
        return "".join(parts)

    def _last_move_spots(self) -> list[_Spot]:
        t = self.t
        move, seat = t.last_move, t.last_seat
        if move is None:
            return []
        if isinstance(move, Discard):
            return [self.pile_spot] if self.pile_spot is not None else []
        if seat is None:
            return []
        team = seat % t.rules.teams
        if isinstance(move, LayMeld):
            melds = t.melds[team]
            found = [i for i, m in enumerate(melds) if m == move.meld]
            index = found[-1] if found else len(melds) - 1
            return self._meld_box(team, index)
        if isinstance(move, AddToMeld):
            spots = self.meld_spots.get((team, move.index), [])
            cards = t.melds[team][move.index].cards if spots else ()
            hit = [
                (x, y, w, float(_CH))
                for (x, y, w), c in zip(spots, cards, strict=True)
                if c is move.card
            ]
            return hit or self._meld_box(team, move.index)
        # A draw, a take, a reserve received, a joker up-card taken (V1): the cards that
        # came into the hand, where the picture knows them.
        return self._arrived_spots(seat)

    def _meld_box(self, team: int, index: int) -> list[_Spot]:
        spots = self.meld_spots.get((team, index))
        if not spots:
            return []
        x0, y0, _ = spots[0]
        x1, _, w1 = spots[-1]
        return [(x0, y0, x1 + w1 - x0, _CH)]

    def _arrived_spots(self, seat: int) -> list[_Spot]:
        """Where the cards the last move brought into the hand are (the first copies)."""
        wanted = Counter(self.t.arrived)
        found = []
        faces = self.t.faces[seat]
        spots = self.hand_spots.get(seat, [])
        for (x, y, w), c in zip(spots, faces, strict=True):
            if wanted[c] > 0:
                wanted[c] -= 1
                found.append((x, y, w, float(_CH)))
        return found


# ---------------------------------------------------------------------- public drawing
def card(card: Card, *, size: int | None = None, colors: Mapping[str, str] | None = None) -> str:
    """The SVG picture of one card."""
    if not isinstance(card, Card):
        raise TypeError(f"svg.card expects a Card, got {type(card).__name__}")
    pixels = _size(size)
    painter = _Painter(_colors(colors), linked=False)
    body = painter.card(card, 1, 1)
    return _document(body, _CW + 2, _CH + 2, pixels, f"card {card}")


def meld(meld: Meld, *, size: int | None = None, colors: Mapping[str, str] | None = None) -> str:
    """The SVG picture of a meld: its cards in table order, each substitute tagged with what
    it stands for, a biriba framed and labelled clean or dirty."""
    if not isinstance(meld, Meld):
        raise TypeError(f"svg.meld expects a Meld, got {type(meld).__name__}")
    pixels = _size(size)
    painter = _Painter(_colors(colors), linked=False)
    body, _ = _draw_meld(meld, None, 8, 2, painter)
    width, height = _meld_width(meld) + 16, _LABEL + _CH + 8
    background = _rect(0, 0, width, height, fill=painter.colors["table"], radius=6)
    return _document(background + body, width, height, pixels, f"meld {meld}")


def hand(
    cards: Iterable[Card], *, size: int | None = None, colors: Mapping[str, str] | None = None
) -> str:
    """The SVG picture of cards in a row, in the order given (``deal.hand(seat)`` is sorted)."""
    if isinstance(cards, str):
        raise TypeError("svg.hand expects cards; read text with parse_cards first")
    shown = tuple(cards)
    for c in shown:
        if not isinstance(c, Card):
            raise TypeError(f"svg.hand expects cards, got {type(c).__name__}")
    pixels = _size(size)
    painter = _Painter(_colors(colors), linked=False)
    width = _CW + max(0, len(shown) - 1) * _BOTTOM_STEP + 2
    body, _, _ = _draw_hand(shown, 0, 1, 1, width, _BOTTOM_STEP, painter)
    return _document(body, width, _CH + 2, pixels, f"hand {' '.join(map(str, shown))}")


def _check_bottom(t: Table, bottom: int | None) -> int:
    if bottom is None:
        return t.viewer if t.viewer is not None else 0
    return _seat(bottom, t.rules, "bottom")


def table(
    value: Deal | PlayerView | Table,
    *,
    bottom: int | None = None,
    size: int | None = None,
    colors: Mapping[str, str] | None = None,
) -> str:
    """The SVG picture of a whole table: a :class:`~biriba.Deal` (every hand face up), a
    :class:`~biriba.PlayerView` (what its seat may see; ``bottom`` defaults to that seat)
    or a :class:`Table`."""
    t = value if isinstance(value, Table) else table_of(value)
    seat = _check_bottom(t, bottom)
    pixels = _size(size)
    painter = _Painter(_colors(colors), linked=False)
    layout = _layout([t], seat)
    drawing = _Drawing(t, layout, painter)
    background = _rect(0, 0, _WIDTH, layout.height, fill=painter.colors["table"], radius=0)
    title = f"{t.rules.name} table, {t.turn_text()}"
    return _document(background + "".join(drawing.parts), _WIDTH, layout.height, pixels, title)


@attrs.frozen
class Frames:
    """A series of tables drawn in one layout, each card a reference to one definition:
    what a page needs to step through a deal (see :mod:`biriba.replay_page`)."""

    #: The width and height of every frame, in the pictures' units.
    width: float
    height: float
    #: The ``<defs>`` element every frame refers to, and the background.
    defs: str
    #: For each table, its parts in drawing order (header, each seat, the middle column,
    #: the teams, the marks); consecutive tables share most parts, so a page stores each
    #: distinct part once.
    parts: tuple[tuple[str, ...], ...]


def frames(
    tables: Sequence[Table],
    *,
    bottom: int = 0,
    colors: Mapping[str, str] | None = None,
) -> Frames:
    """Draw ``tables`` (of one rule set) in one layout that fits them all."""
    if not tables or not all(isinstance(t, Table) for t in tables):
        raise TypeError("frames expects a non-empty sequence of Table")
    rules = tables[0].rules
    if any(t.rules != rules for t in tables):
        raise BiribaError("the tables of one series share a rule set")
    seat = _seat(bottom, rules, "bottom")
    painter = _Painter(_colors(colors), linked=True)
    layout = _layout(tables, seat)
    parts = tuple(tuple(_Drawing(t, layout, painter).parts) for t in tables)
    background = _rect(0, 0, _WIDTH, layout.height, fill=painter.colors["table"], radius=0)
    return Frames(_WIDTH, layout.height, painter.definitions() + background, parts)


def _picture(value: object) -> str:
    """The notebook picture of a card, a meld, a deal or a view."""
    if isinstance(value, Card):
        return card(value)
    if isinstance(value, Meld):
        return meld(value)
    if isinstance(value, Deal | PlayerView):
        return table(value, size=900)
    raise TypeError(f"no picture of a {type(value).__name__}")


display.install(_picture)
