"""Biriba as an OpenSpiel game, ``python_biriba`` (``pip install biriba[openspiel]``).

Importing this module registers the game with OpenSpiel; then::

    import pyspiel
    import biriba.openspiel

    game = pyspiel.load_game("python_biriba")               # the biriba rules
    game = pyspiel.load_game("python_biriba", {"max_moves": 800})

One game is one deal. The deal is dealt by chance nodes, one card each: the outcome is the
card's :attr:`Card.index <biriba.Card.index>`, with the probability of its copies left in
the pack; the cards fill the pack in order and :meth:`Deal.from_pack
<biriba.Deal.from_pack>` deals it by B2. Then the seats play: the actions are the ids of
:func:`biriba.encoding.codec_for`, the legal ones sorted. The game ends with the deal or,
truncated, after ``max_moves`` moves (default :data:`biriba.encoding.MAX_MOVES`). Each
seat's return is :func:`biriba.encoding.team_returns`: its team's score less the mean of
the other teams', divided by ``scale`` (default :data:`biriba.encoding.REWARD_SCALE`), at
a truncation the table's score as if the deal ended there; the sum over seats is zero.

Observations come from :func:`biriba.encoding.observe` of the seat's
:class:`~biriba.PlayerView`: the observation tensor is its full form; the information-state
tensor adds, by seat from the observer, the cards it has discarded during the deal (a
summary of fixed size, not perfect recall). The information-state string is perfect
recall: the hand the seat was dealt, its hand, the discard pile and the public history,
with what the seat alone saw at its own moves (the cards it drew, a packet it received).
The observation string is the view's data without the history.
:meth:`BiribaState.resample_from_infostate` deals the cards the seat cannot see at random
through :meth:`PlayerView.sample <biriba.PlayerView.sample>`, as OpenSpiel's
information-set search needs.
"""

from __future__ import annotations

import base64
import binascii
import json
import random
from typing import Any, Final

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from biriba import records
from biriba.bots import moves_to_choose
from biriba.bots.heuristics import greedy_choice, table_of
from biriba.cards import CARDS, DISTINCT_CARDS, Card
from biriba.deal import Deal, PlayerView
from biriba.encoding import (
    MAX_MOVES,
    REWARD_SCALE,
    check_max_moves,
    check_scale,
    codec_for,
    observation_layout,
    observe_sparse,
    team_returns,
)
from biriba.errors import BiribaError
from biriba.limits import MAX_JSON, check_count, check_real, check_seed, excerpt, parse_json
from biriba.moves import Discard, DrawStock, Move, Redraw
from biriba.rules import RuleSet, check_number, check_rules, cited, full_pack

__all__ = [
    "GAME_NAME",
    "BiribaGame",
    "BiribaObserver",
    "BiribaState",
    "ISMCTSPlayer",
    "TableEvaluator",
    "rules_of",
    "rules_parameter",
]

#: The name the game is registered under.
GAME_NAME: Final = "python_biriba"

_CHANCE: Final = int(pyspiel.PlayerId.CHANCE)
_TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)

_DEFAULTS: Final = {"rules": "biriba", "dealer": 0, "max_moves": MAX_MOVES, "scale": REWARD_SCALE}

_GAME_TYPE: Final = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Biriba (biriba library)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def _bound(rules: RuleSet, scale: float) -> float:
    """A bound on any return: every card's value, the largest biriba bonus per seven
    cards, the closing bonus and both reserve penalties."""
    cards = rules.cards_value(full_pack(rules))
    bonuses = max(
        *rules.sequence_bonus,
        *rules.group_bonus,
        *(rules.full_sequence_bonus or (0,)),
        rules.wild_meld_bonus,
    )
    if rules.bonus_suit_bonus is not None:
        bonuses += max(*rules.bonus_suit_bonus, *rules.full_bonus_suit_bonus)
    most = cards + rules.pack_size // rules.biriba_size * bonuses
    most += rules.closing_bonus + rules.reserve_penalty + rules.unactivated_reserve_penalty
    return 2 * most / scale


def rules_parameter(rules: RuleSet) -> str:
    """The game parameter ``rules`` for ``rules``: a preset's name, or ``data:`` and the
    rule set's data (:meth:`RuleSet.to_dict <biriba.RuleSet.to_dict>`) as JSON in
    URL-safe base64, which survives OpenSpiel's game strings (``name(key=value,...)``).
    :class:`TypeError` when ``rules`` is not a :class:`~biriba.RuleSet`."""
    check_rules(rules)
    if rules.is_preset:
        return rules.name
    data = json.dumps(rules.to_dict(), separators=(",", ":")).encode()
    return _DATA + base64.urlsafe_b64encode(data).decode().rstrip("=")


def rules_of(parameter: str) -> RuleSet:
    """The rule set a ``rules`` game parameter names: a preset's name, the form of
    :func:`rules_parameter`, or the rule set's data as plain JSON. Raises
    :class:`TypeError` when ``parameter`` is not a str and :class:`~biriba.BiribaError`
    when it names no rule set (its data too large, too deep, not base64 or not JSON
    included), quoting an excerpt."""
    if not isinstance(parameter, str):
        raise TypeError(f"a rules parameter is a str, got {type(parameter).__name__}")
    if parameter.startswith(_DATA):
        text = parameter[len(_DATA) :]
        if len(text) > _MAX_DATA:
            raise BiribaError(f"a rules parameter is at most {_MAX_DATA:,} characters of base64")
        try:
            data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        except (binascii.Error, ValueError):  # not base64, or not ASCII
            raise BiribaError(
                f"{excerpt(parameter)} is no rules parameter: not URL-safe base64"
            ) from None
        return _rules_from_json(data)
    if parameter.lstrip().startswith("{"):
        return _rules_from_json(parameter)
    return RuleSet.named(parameter)


def _rules_from_json(text: str | bytes) -> RuleSet:
    """The rule set of JSON ``text``, read as the library reads JSON (its size and depth
    checked first, :func:`biriba.limits.parse_json`)."""
    data = parse_json(text, "rule set", BiribaError)
    if not isinstance(data, dict):
        raise BiribaError(f"a rule set's data is a JSON object, got {excerpt(data)}")
    return RuleSet.from_dict(data)


_DATA: Final = "data:"
#: The most base64 characters of a ``data:`` parameter: those of the most bytes of JSON
#: that :func:`biriba.limits.parse_json` reads.
_MAX_DATA: Final = -(-MAX_JSON // 3) * 4  # four characters for each three bytes


class BiribaGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game: parameters ``rules`` (a preset's name, or a rule set's data as
    JSON: :func:`rules_parameter`), ``dealer`` (its seat), ``max_moves`` (the move cap)
    and ``scale`` (scores are divided by it)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {**_DEFAULTS, **(params or {})}
        rules = rules_of(given["rules"])
        self.rules = rules
        self.dealer = check_number(given["dealer"], "dealer", rules.players, rules)
        self.max_moves = check_max_moves(given["max_moves"])
        self.scale = check_scale(given["scale"])
        self.codec = codec_for(rules)
        self.layout = observation_layout(rules)
        bound = _bound(rules, self.scale)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.size,
            max_chance_outcomes=DISTINCT_CARDS,
            num_players=rules.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=rules.pack_size + self.max_moves,
        )
        # The rules as rules_parameter() writes them (a preset's name, or ``data:``): a rule
        # set given as plain JSON has commas, which OpenSpiel's game string cannot hold, so
        # that load_game(str(game)), and the pickling that goes through it, would fail.
        kept = dict(params or {})
        if "rules" in kept:
            kept["rules"] = rules_parameter(rules)
        super().__init__(_GAME_TYPE, info, kept)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its game string, loaded again by ``pyspiel.load_game``: pyspiel's
        own pickling of a game gives back an object that has none of the attributes
        set here (its rules, its codec), so that it could not make a state."""
        return (pyspiel.load_game, (str(self),))

    def new_initial_state(self) -> BiribaState:
        """The state before the first card is dealt."""
        return BiribaState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> BiribaObserver:
        """The observer of OpenSpiel's observation API: with perfect recall, the
        information state (its string perfect recall; its tensor a summary of fixed size,
        the observation and each seat's discards); otherwise the observation.
        ``iig_obs_type`` is ``None`` or a ``pyspiel.IIGObservationType`` (else
        :class:`TypeError`); ``params`` must be empty (else
        :class:`~biriba.BiribaError`)."""
        if params:
            raise BiribaError(f"{GAME_NAME} takes no observation parameters, got {excerpt(params)}")
        perfect = False
        if iig_obs_type is not None:
            found = getattr(iig_obs_type, "perfect_recall", None)
            if not isinstance(found, bool):
                raise TypeError(
                    "iig_obs_type is None or a pyspiel.IIGObservationType, "
                    f"got {type(iig_obs_type).__name__}"
                )
            perfect = found
        return BiribaObserver(self, perfect)


class _Cursor:
    """Everything a state holds, in one object that OpenSpiel's clone copies cheaply
    (the game and its codec shared, the deal copied) and its serialization writes as the
    game's parameters and the deal's record."""

    __slots__ = (
        "deal",
        "dealt",
        "discarded",
        "game",
        "left",
        "legal",
        "moves",
        "pack",
        "player",
        "private",
        "public",
        "total",
    )

    def __init__(self, game: BiribaGame) -> None:
        rules = game.rules
        self.game = game
        self.pack: list[Card] = []
        self.left = [rules.copies(c) for c in CARDS]
        self.total = rules.pack_size
        self.deal: Deal | None = None
        self.moves = 0
        self.discarded: list[list[int]] = [[0] * DISTINCT_CARDS for _ in range(rules.players)]
        self.legal: dict[int, Move] | None = None
        #: OpenSpiel's player to act, worked out after each action (it is asked often).
        self.player = _CHANCE
        #: The text of every move played, as every seat saw it (a draw is ``draw``).
        self.public: list[str] = []
        #: By seat, what the seat alone saw at its own moves, by the move's place in
        #: :attr:`public`: the card it drew, the packet it received (:func:`_seen`).
        self.private: list[dict[int, str]] = [{} for _ in range(rules.players)]
        #: By seat, the hand it was dealt, as text (``None`` where it is not known: the
        #: other seats of a sampled deal).
        self.dealt: list[str | None] = [None] * rules.players

    def set_deal(self, deal: Deal) -> None:
        """Start playing ``deal``: what each seat was dealt and saw alone is worked out
        by playing its moves again from its start, where it has one (a sampled deal,
        which cannot be undone past the view it was sampled from, has none: see
        :meth:`BiribaState.resample_from_infostate`)."""
        self.deal = deal
        self.total = 0
        self.public = [str(m) for m in deal.history]
        self.moves = len(self.public)
        players = self.game.rules.players
        self.private = [{} for _ in range(players)]
        start = deal.copy()
        try:
            for _ in deal.history:
                start.undo()
        except BiribaError:  # a sampled deal: nothing known of its start
            self.dealt = [None] * players
        else:
            self.dealt = [_cards(start.hand(seat)) for seat in range(players)]
            for place, move in enumerate(deal.history):
                self.see(start, move, place)
        self.update()

    def see(self, deal: Deal, move: Move, place: int) -> None:
        """Play ``move`` (legal) on ``deal``, noting under ``place`` what its mover alone
        sees by it."""
        seat = deal.to_move
        assert seat is not None
        seen = _seen(deal, move, seat)
        if seen:
            self.private[seat][place] = seen

    def update(self) -> None:
        """Work :attr:`player` out after a move."""
        deal = self.deal
        assert deal is not None
        seat = deal.to_move
        self.player = _TERMINAL if seat is None or self.moves >= self.game.max_moves else seat

    def copy(self) -> _Cursor:
        other = _Cursor.__new__(_Cursor)
        other.game = self.game
        other.pack = self.pack.copy()
        other.left = self.left.copy()
        other.total = self.total
        other.deal = None if self.deal is None else self.deal.copy()
        other.moves = self.moves
        other.discarded = [row.copy() for row in self.discarded]
        other.legal = None
        other.player = self.player
        other.public = self.public.copy()
        other.private = [notes.copy() for notes in self.private]
        other.dealt = self.dealt.copy()
        return other

    def __deepcopy__(self, memo: object) -> _Cursor:
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        deal = self.deal
        if deal is None:
            written = None
        elif deal.seed is None and deal.start is None:  # a sampled deal: its position,
            # the public moves (a position holds no history) and what the seats saw alone
            private = [{str(k): v for k, v in notes.items()} for notes in self.private]
            written = json.dumps(
                {
                    "position": deal.to_dict(),
                    "public": self.public,
                    "private": private,
                    "dealt": self.dealt,
                }
            )
        else:
            written = records.dumps(records.record_deal(deal))
        params = dict(self.game.get_parameters())
        state = ([c.index for c in self.pack], written, self.moves, self.discarded)
        return (_restore, (params, state))


def _restore(params: dict[str, Any], state: tuple[Any, ...]) -> _Cursor:
    """A :class:`_Cursor` from what its ``__reduce__`` wrote."""
    game = pyspiel.load_game(GAME_NAME, params)
    cursor = _Cursor(game)
    pack, written, cursor.moves, cursor.discarded = state
    for index in pack:
        cursor.left[index] -= 1
        cursor.total -= 1
        cursor.pack.append(CARDS[index])
    if written is not None:
        data = json.loads(written)
        moves = cursor.moves
        if "position" in data:
            cursor.set_deal(Deal.from_dict(data["position"], game.rules))
            cursor.public = list(data["public"])
            # What the seats saw alone, as written (a state written before the seats'
            # notes were kept has none: nothing is known of them then).
            players = game.rules.players
            notes = data.get("private", [{}] * players)
            cursor.private = [{int(k): v for k, v in n.items()} for n in notes]
            cursor.dealt = list(data.get("dealt", [None] * players))
        else:
            found = records.replay(records.loads(written), game.rules)
            assert isinstance(found, Deal)
            cursor.set_deal(found)
        cursor.moves = moves
        cursor.update()
    return cursor


class BiribaState(pyspiel.State):  # type: ignore[misc]
    """One deal in progress: its chance part (the pack dealt so far) and then a
    :class:`~biriba.Deal`."""

    def __init__(self, game: BiribaGame, deal: Deal | None = None) -> None:
        super().__init__(game)
        self._c = _Cursor(game)
        if deal is not None:
            self._c.set_deal(deal)

    @property
    def deal(self) -> Deal | None:
        """The deal, once every card is dealt (``None`` while dealing)."""
        return self._c.deal

    @property
    def pack(self) -> tuple[Card, ...]:
        """The cards dealt so far, in pack order."""
        return tuple(self._c.pack)

    @property
    def moves(self) -> int:
        """The moves played so far."""
        return self._c.moves

    # ------------------------------------------------------------------ the game API
    def current_player(self) -> int:
        """The seat to move, OpenSpiel's chance or terminal player id."""
        return self._c.player

    def is_terminal(self) -> bool:
        """Whether the deal is over or truncated."""
        return self._c.player == _TERMINAL

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next card of the pack: each distinct card left, by its copies left."""
        c = self._c
        total = c.total
        return [(i, n / total) for i, n in enumerate(c.left) if n]

    def _legal_map(self) -> dict[int, Move]:
        c = self._c
        found = c.legal
        if found is None:
            assert c.deal is not None
            found = c.legal = c.game.codec.legal_actions(c.deal)
        return found

    def _legal_actions(self, player: int) -> list[int]:
        if player != self._c.player or self._c.deal is None:
            return []
        return list(self._legal_map())

    def _apply_action(self, action: int) -> None:
        c = self._c
        deal = c.deal
        if deal is None:
            left = c.left
            if not 0 <= action < len(left):
                raise BiribaError(
                    f"{action} is no chance outcome: cards are dealt by index, 0 to {len(left) - 1}"
                )
            if not left[action]:
                rule = cited(c.game.rules, "B1.2")
                raise BiribaError(f"no copy of {CARDS[action]} is left to deal ({rule})", rule=rule)
            left[action] -= 1
            c.total -= 1
            c.pack.append(CARDS[action])
            if not c.total:
                game = c.game
                c.set_deal(Deal.from_pack(c.pack, game.rules, dealer=game.dealer))
            return
        if c.player == _TERMINAL and not deal.is_over:
            raise BiribaError(
                f"the game was cut off after max_moves ({c.game.max_moves}) moves: it takes "
                f"no more actions"
            )
        move = self._legal_map().get(action)
        if move is None:  # the codec says why, with the rule (IllegalMoveError)
            move = c.game.codec.decode(action, deal)
        if type(move) is Discard:
            c.discarded[deal.to_move or 0][move.card.index] += 1
        c.see(deal, move, len(c.public))
        c.public.append(str(move))
        c.moves += 1
        c.legal = None
        c.update()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if not 0 <= action < len(CARDS):
                raise BiribaError(
                    f"{excerpt(action)} is no chance outcome: "
                    f"cards are dealt by index, 0 to {len(CARDS) - 1}"
                )
            return f"deal {CARDS[action]}"
        if self._c.deal is not None and player == self.current_player():
            move = self._legal_map().get(action)
            if move is not None:
                return str(move)
        return str(self._c.game.codec.describe(action))

    def returns(self) -> list[float]:
        """Each seat's team score less the mean of the others', scaled; zeros until the
        game ends."""
        c = self._c
        deal = c.deal
        rules = c.game.rules
        if deal is None or not self.is_terminal():
            return [0.0] * rules.players
        return team_returns(deal, c.game.scale)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> BiribaState:
        """A state the seat cannot tell from this one: the cards it cannot see dealt at
        random (:meth:`PlayerView.sample <biriba.PlayerView.sample>`), seeded from
        ``probability_sampler``, a function that returns a float in [0, 1) (else
        :class:`TypeError` or :class:`~biriba.BiribaError`). The sampled deal has the
        public history but cannot be undone past the view."""
        c = self._c
        if c.deal is None:
            clone: BiribaState = self.clone()
            return clone
        drawn = check_real(probability_sampler(), "probability_sampler()", 0)
        if drawn >= 1:
            raise BiribaError(f"probability_sampler() must be below 1, got {excerpt(drawn)}")
        rng = random.Random(int(drawn * 2**52))
        state = BiribaState(c.game, c.deal.view(player_id).sample(rng))
        cursor = state._c
        cursor.moves = c.moves
        cursor.discarded = [row.copy() for row in c.discarded]
        # What the seat was dealt and saw alone, as here: its information state is this
        # one's (the other seats' are not known in the sample).
        cursor.dealt[player_id] = c.dealt[player_id]
        cursor.private[player_id] = c.private[player_id].copy()
        cursor.update()
        return state

    def __str__(self) -> str:
        c = self._c
        if c.deal is None:
            return f"dealing: {len(c.pack)} of {c.game.rules.pack_size} cards"
        return json.dumps(c.deal.to_dict(), separators=(",", ":"))


def _info_string(state: BiribaState, player: int, *, history: bool) -> str:
    """The information-state string (``history``) or the observation string of
    ``player``."""
    c = state._c
    deal = c.deal
    if deal is None:
        rules = c.game.rules
        n = rules.players
        dealer = c.game.dealer
        # In the library's order of cards, as once the deal is dealt (deal.hand): the
        # order they came in is no part of what the seat knows.
        mine = sorted(
            card
            for i, card in enumerate(c.pack[: n * rules.hand_size])
            if (dealer + 1 + i) % n == player
        )
        return f"seat {player} dealt {_cards(tuple(mine))}"
    if history:
        hand = _cards(deal.hand(player))
        pile = _cards(deal.discard_pile)
        dealt = c.dealt[player]
        seen = c.private[player]
        moves = "; ".join(
            f"{text} ({seen[place]})" if place in seen else text
            for place, text in enumerate(c.public)
        )
        return (
            f"seat {player} dealt {'?' if dealt is None else dealt} hand {hand} pile {pile} "
            f"moves {moves}"
        )
    data = deal.view(player).to_dict()
    del data["history"]
    return json.dumps(data, separators=(",", ":"))


def _cards(cards: tuple[Card, ...]) -> str:
    """Cards as text, separated by spaces."""
    return " ".join(map(str, cards))


def _seen(deal: Deal, move: Move, seat: int) -> str:
    """Play ``move`` (legal, ``seat``'s) on ``deal`` and say what ``seat`` alone saw by
    it: the card drawn from the stock (also by a redraw, Z2.2), the packet received
    (B5.3, B5.4, Z4.1); empty when it saw nothing the table did not."""
    kind = type(move)
    drawn = CARDS[deal.position.stock[-1]] if kind is DrawStock or kind is Redraw else None
    team = deal.rules.team_of(seat)
    had_packet = deal.reserve_received(team)
    deal.play_unchecked(move)
    seen = [] if drawn is None else [f"drew {drawn}"]
    if not had_packet and deal.reserve_received(team):  # the packet is the hand now
        seen.append(f"received {_cards(deal.hand(seat))}")
    return ", ".join(seen)


class BiribaObserver:
    """OpenSpiel's observer: ``tensor`` (float32) and ``dict`` (its named parts)."""

    def __init__(self, game: BiribaGame, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        layout = game.layout
        parts = dict(layout.parts)
        size = layout.size
        if perfect_recall:
            parts["discarded"] = (size, game.rules.players * DISTINCT_CARDS)
            size += game.rules.players * DISTINCT_CARDS
        self.tensor: Any = np.zeros(size, np.float32)
        self.dict = {name: self.tensor[s : s + n] for name, (s, n) in parts.items()}
        self._observation = self.tensor[: layout.size]
        self._discarded = self.tensor[layout.size :]

    def set_from(self, state: BiribaState, player: int) -> None:
        """Fill :attr:`tensor` from ``player``'s point of view (zeros while dealing)."""
        self._check(state, player, "set_from")
        deal = state.deal
        self.tensor.fill(0)
        if deal is None:
            return
        found = observe_sparse(deal.view(player))
        self._observation[list(found)] = list(found.values())
        if self.perfect_recall:
            discarded = state._c.discarded
            n = len(discarded)
            rows: list[int] = []
            for step in range(n):
                rows += discarded[(player + step) % n]
            self._discarded[:] = rows

    def string_from(self, state: BiribaState, player: int) -> str:
        """The information-state or observation string of ``player``."""
        self._check(state, player, "string_from")
        return _info_string(state, player, history=self.perfect_recall)

    def _check(self, state: object, player: object, method: str) -> None:
        """:class:`TypeError` unless ``state`` is a :class:`BiribaState`, and the error of
        :func:`~biriba.rules.check_number` unless ``player`` is a seat of its game."""
        _check_state(state, f"BiribaObserver.{method}")
        rules = self.game.rules
        check_number(player, "seat", rules.players, rules)


def _check_state(state: object, what: str) -> None:
    """:class:`TypeError` unless ``state`` is a :class:`BiribaState` (for ``what``)."""
    if not isinstance(state, BiribaState):
        raise TypeError(f"{what} expects a BiribaState, got {type(state).__name__}")


class TableEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """A leaf evaluator for OpenSpiel's tree searches (``mcts``, ``ismcts``): the deal
    played on for ``horizon`` moves by the greedy heuristic of
    :class:`~biriba.bots.GreedyBot` for every seat, then scored as if it ended there
    (:func:`biriba.encoding.team_returns`). Uniform priors. Much cheaper than random play
    to the end of a deal, which takes about 240 moves."""

    def __init__(self, horizon: int = 0, seed: int | str | None = None) -> None:
        self.horizon = check_count(horizon, "horizon", 0)
        self.rng = random.Random(check_seed(seed))

    def evaluate(self, state: BiribaState) -> Any:
        """The returns of ``state`` after the greedy play-out."""
        _check_state(state, "TableEvaluator.evaluate")
        c = state._c
        deal = c.deal
        if deal is None or state.is_terminal():
            return np.array(state.returns())
        if self.horizon:
            deal = deal.copy()
            for _ in range(self.horizon):
                if deal.is_over:
                    break
                deal.play_unchecked(greedy_choice(table_of(deal), deal.legal_moves(), self.rng))
        return np.array(team_returns(deal, c.game.scale))

    def prior(self, state: BiribaState) -> list[tuple[int, float]]:
        """Equal priors over the legal actions (the chance outcomes at a chance node)."""
        _check_state(state, "TableEvaluator.prior")
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


class ISMCTSPlayer:
    """A :class:`~biriba.bots.Bot` that plays by OpenSpiel's information-set Monte Carlo
    tree search (``open_spiel.python.algorithms.ismcts``) through this game.

    At each decision with a choice it builds a state from a deal consistent with the view
    (:meth:`PlayerView.sample <biriba.PlayerView.sample>`) and asks the search, which
    samples worlds again at each of its ``simulations`` simulations through
    :meth:`BiribaState.resample_from_infostate`; leaves are valued by
    :class:`TableEvaluator` (``horizon`` greedy moves, then the table's score). Seeded, so
    a game between bots is reproducible.
    """

    def __init__(
        self,
        seed: int | str | None = None,
        *,
        simulations: int = 100,
        uct_c: float = 2.0,
        horizon: int = 0,
    ) -> None:
        self.simulations = check_count(simulations, "simulations")
        self.uct_c = check_real(uct_c, "uct_c", 0)
        self.horizon = check_count(horizon, "horizon", 0)
        self.rng = random.Random(check_seed(seed))
        self._search_seed = self.rng.getrandbits(31)
        self._searches: dict[str, Any] = {}

    def _search(self, rules: RuleSet) -> tuple[BiribaGame, Any]:
        parameter = rules_parameter(rules)
        found = self._searches.get(parameter)
        if found is None:
            game = pyspiel.load_game(GAME_NAME, {"rules": parameter})
            bot = ismcts.ISMCTSBot(
                game,
                TableEvaluator(self.horizon, seed=self._search_seed),
                uct_c=self.uct_c,
                max_simulations=self.simulations,
                random_state=np.random.RandomState(self._search_seed),
            )
            # The worlds the search samples, from a generator of its own, seeded (without
            # it the search draws them from a sampler seeded anew at each run).
            sampler = random.Random(self._search_seed).random
            bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
            found = self._searches[parameter] = (game, bot)
        return found

    def choose(self, view: PlayerView) -> Move:
        """The move the search finds best."""
        moves = moves_to_choose(view, "ISMCTSPlayer")
        if len(moves) == 1:
            return moves[0]
        game, bot = self._search(view.rules)
        state = BiribaState(game, view.sample(self.rng))
        action = int(bot.step(state))
        return game.codec.decode(action, view)

    def __repr__(self) -> str:
        return f"ISMCTSPlayer(simulations={self.simulations}, horizon={self.horizon})"


pyspiel.register_game(_GAME_TYPE, BiribaGame)
