"""biriba: the rules of Biriba, the Greek partnership rummy game, and of Buraco.

Cards, rule sets and melds::

    >>> import biriba
    >>> meld = biriba.Meld.parse("3H 4H 5H 6H 7H 8H 9H")
    >>> meld.is_biriba, meld.is_clean, meld.points, meld.bonus
    (True, True, 45, 200)
"""

from biriba import native, records, svg
from biriba.cards import JOKER, Card, Rank, Suit, format_cards, parse_cards
from biriba.checking import Verdict, check_move
from biriba.deal import Deal, Phase, PlayerView, team_of
from biriba.enumeration import enumerate_melds
from biriba.errors import (
    AmbiguousMoveError,
    BiribaError,
    IllegalMoveError,
    InvalidMeldError,
    InvalidPositionError,
    NotationError,
    RecordError,
)
from biriba.match import Match
from biriba.melds import Meld, MeldKind
from biriba.moves import (
    AddToMeld,
    Discard,
    DrawStock,
    LayMeld,
    Move,
    NameSuit,
    Pass,
    Redraw,
    TakeDiscard,
)
from biriba.rules import (
    BIRIBA,
    BIRIBA_KOZI,
    BURACO,
    RULE_IDS,
    PileRestriction,
    RuleSet,
    StockExhausted,
    full_pack,
)
from biriba.scoring import DealScore, TeamScore, score_team
from biriba.version import __version__

#: Whether this is the compiled build of the library (its hottest modules made into C
#: extensions by mypyc, ``docs/compiled.rst``) rather than its pure-Python sources.
compiled: bool = native.compiled_modules() == native.COMPILED_MODULES

__all__ = [
    "BIRIBA",
    "BIRIBA_KOZI",
    "BURACO",
    "JOKER",
    "RULE_IDS",
    "AddToMeld",
    "AmbiguousMoveError",
    "BiribaError",
    "Card",
    "Deal",
    "DealScore",
    "Discard",
    "DrawStock",
    "IllegalMoveError",
    "InvalidMeldError",
    "InvalidPositionError",
    "LayMeld",
    "Match",
    "Meld",
    "MeldKind",
    "Move",
    "NameSuit",
    "NotationError",
    "Pass",
    "Phase",
    "PileRestriction",
    "PlayerView",
    "Rank",
    "RecordError",
    "Redraw",
    "RuleSet",
    "StockExhausted",
    "Suit",
    "TakeDiscard",
    "TeamScore",
    "Verdict",
    "__version__",
    "check_move",
    "compiled",
    "enumerate_melds",
    "format_cards",
    "full_pack",
    "parse_cards",
    "records",
    "score_team",
    "svg",
    "team_of",
]
