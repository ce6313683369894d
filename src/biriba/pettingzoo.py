"""Biriba as a PettingZoo environment (``pip install biriba[pettingzoo]``).

An AEC (turn-based) environment with one agent per seat, ``player_0`` … ``player_3``::

    from biriba.pettingzoo import env

    game = env(render_mode="ansi")
    game.reset(seed=42)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        if termination or truncation:
            action = None
        else:
            mask = observation["action_mask"]
            action = game.action_space(agent).sample(mask)
        game.step(action)

One episode is one deal, shuffled from the seed given to ``reset``. Actions are the ids of
:func:`biriba.encoding.codec_for` (a ``Discrete`` space); each observation is a dict of
``"observation"``, the seat's view encoded by :func:`biriba.encoding.observe` (float32;
``compact=True`` for the compact form), and ``"action_mask"``, 1 at each legal id (int8;
all zeros when the agent is not to move). Rewards are 0 until the deal ends; then each
agent gets :func:`biriba.encoding.team_returns`: its team's score less the other team's
(with three teams, less the mean of the other two), divided by ``scale``. A deal still
running after ``max_moves`` moves is truncated and scored as if it ended there.
"""

from __future__ import annotations

import random
from typing import Any, Final

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from biriba.deal import Deal
from biriba.encoding import (
    MAX_MOVES,
    REWARD_SCALE,
    check_max_moves,
    check_scale,
    codec_for,
    observation_layout,
    observe_array,
    team_returns,
)
from biriba.errors import BiribaError
from biriba.limits import check_seed, excerpt, whole_number
from biriba.moves import Move
from biriba.rules import BIRIBA, RuleSet, check_number, check_rules

__all__ = ["BiribaEnv", "env", "raw_env"]

_NAME: Final = "biriba_v0"


class BiribaEnv(AECEnv):  # type: ignore[misc]
    """The AEC environment; :func:`env` wraps it in PettingZoo's order checks."""

    metadata: Final = {
        "render_modes": ["ansi", "human"],
        "name": _NAME,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: RuleSet = BIRIBA,
        *,
        render_mode: str | None = None,
        max_moves: int = MAX_MOVES,
        scale: float = REWARD_SCALE,
        compact: bool = False,
    ) -> None:
        super().__init__()
        check_rules(rules)
        modes = "None, 'ansi' or 'human'"
        if render_mode is not None and not isinstance(render_mode, str):
            raise TypeError(f"render_mode is {modes}, got {type(render_mode).__name__}")
        if render_mode not in (None, "ansi", "human"):
            raise BiribaError(f"render_mode is {modes}, got {excerpt(render_mode)}")
        self.rules = rules
        self.render_mode = render_mode
        self.max_moves = check_max_moves(max_moves)
        self.scale = check_scale(scale)
        self.compact = compact  # (checked by observation_layout, below)
        self.codec = codec_for(rules)
        size = observation_layout(rules, compact=compact).size
        self.possible_agents = [f"player_{seat}" for seat in range(rules.players)]
        self.agents: list[str] = []
        box = spaces.Box(0, rules.pack_size, (size,), np.float32)
        mask = spaces.Box(0, 1, (self.codec.size,), np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": box, "action_mask": mask}) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.codec.size) for a in self.possible_agents}
        self._rng = random.Random()
        self.deal: Deal | None = None
        self.moves = 0
        self._legal: dict[int, Move] = {}

    def _seat(self, agent: object) -> int:
        """The seat of ``agent`` (``"player_0"`` …): else :class:`TypeError` (not a str) or
        :class:`~biriba.BiribaError` (no agent of this environment)."""
        if not isinstance(agent, str):
            raise TypeError(f"an agent is a str such as 'player_0', got {type(agent).__name__}")
        try:
            return self.possible_agents.index(agent)
        except ValueError:
            last = self.possible_agents[-1]
            raise BiribaError(
                f"no agent {excerpt(agent)}: the agents are player_0 to {last}"
            ) from None

    def _dealt(self) -> Deal:
        """The deal of the episode: else :class:`~biriba.BiribaError`, before the first
        :meth:`reset`."""
        deal = self.deal
        if deal is None:
            raise BiribaError(f"{_NAME}: reset() comes first, to deal a deal")
        return deal

    def _playing(self) -> Deal:
        """The deal of the episode while an agent is still in it: else
        :class:`~biriba.BiribaError`, before the first :meth:`reset` and once every
        agent is done."""
        deal = self._dealt()
        if not self.agents:
            raise BiribaError(f"{_NAME}: every agent is done; reset() for another deal")
        return deal

    def observation_space(self, agent: str) -> Any:
        """The agent's observation space (the same for every agent)."""
        self._seat(agent)  # (checked: a str naming one of the agents)
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        """The agent's action space: ``Discrete(codec.size)``."""
        self._seat(agent)  # (checked: a str naming one of the agents)
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new deal: shuffled from ``seed`` (an int of any integer type, NumPy's
        too, or a str; else from the previous episode's generator);
        ``options={"dealer": seat}`` picks the dealer (0 by default). Other keys of
        ``options`` are ignored, as PettingZoo's ``api_test`` expects (it passes
        ``{"options": 1}``). Everything is checked first: a reset refused
        (:class:`TypeError`, :class:`~biriba.BiribaError`) changes nothing, the generator
        included."""
        if seed is not None and not isinstance(seed, str):  # any integer type but a bool
            seed = whole_number(seed, "seed")  # (random.Random takes only an int of them)
        check_seed(seed)
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"options must be a dict or None, got {type(options).__name__}")
        # Any integer type (NumPy's, as actions are) but a bool.
        given = whole_number((options or {}).get("dealer", 0), "the dealer")
        dealer = check_number(given, "seat", self.rules.players, self.rules)
        rng = self._rng if seed is None else random.Random(seed)
        self.deal = Deal.new(self.rules, seed=rng.getrandbits(63), dealer=dealer)
        self._rng = rng
        self.moves = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()
        if self.render_mode == "human":  # as PettingZoo's environments do in that mode
            self.render()

    def _select(self) -> None:
        deal = self.deal
        assert deal is not None and deal.to_move is not None
        self.agent_selection = self.possible_agents[deal.to_move]
        self._legal = self.codec.legal_actions(deal)

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's view, encoded, and its action mask."""
        deal = self._dealt()
        seat = self._seat(agent)
        observation = observe_array(deal.view(seat), compact=self.compact)
        mask: Any = np.zeros(self.codec.size, np.int8)
        if seat == deal.to_move and agent == self.agent_selection:
            mask[list(self._legal)] = 1
        return {"observation": observation, "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation (``None`` unless ``observe``), cumulative
        reward, termination, truncation and info; :class:`~biriba.BiribaError` before
        :meth:`reset` and once every agent is done."""
        self._playing()
        return super().last(observe)  # type: ignore[no-any-return]

    def step(self, action: int | None) -> None:
        """Play the selected agent's action, an action id: any integer type, such as
        NumPy's, but not a ``bool`` (:class:`TypeError`); an id out of range or of no
        legal move raises the codec's :class:`~biriba.BiribaError` or
        :class:`~biriba.IllegalMoveError`. ``None`` once the agent is terminated or
        truncated, and only then. A step refused changes nothing."""
        deal = self._playing()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise BiribaError(f"{agent} is done: its only action is None")
            self._was_dead_step(action)
            return
        if action is None:
            raise BiribaError(f"{agent} is to move: None is no action")
        number = self.codec.check_action(action)  # the codec's own check of an id
        move = self._legal.get(number)
        if move is None:  # the codec says why, with the rule (IllegalMoveError)
            move = self.codec.decode(number, deal)
        deal.play(move)
        self.moves += 1
        self._cumulative_rewards[agent] = 0.0
        if deal.is_over or self.moves >= self.max_moves:
            returns = team_returns(deal, self.scale)
            self.rewards = {a: returns[i] for i, a in enumerate(self.possible_agents)}
            if deal.is_over:
                self.terminations = dict.fromkeys(self.agents, True)
            else:
                self.truncations = dict.fromkeys(self.agents, True)
            self._legal = {}
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The deal as text: returned under ``render_mode="ansi"``, printed under
        ``"human"`` (then ``None``; :meth:`reset` and each :meth:`step` print it too, as
        PettingZoo's environments do), and nothing without a render mode."""
        if self.render_mode is None or self.deal is None:
            return None
        if self.render_mode == "human":
            print(self.deal)
            return None
        return str(self.deal)

    def close(self) -> None:
        """Nothing to release."""


def raw_env(**kwargs: Any) -> BiribaEnv:
    """The environment without PettingZoo's wrappers."""
    return BiribaEnv(**kwargs)


def env(**kwargs: Any) -> Any:
    """The environment in PettingZoo's wrapper that has its methods called in order.
    PettingZoo's ``AssertOutOfBoundsWrapper`` is left out: the environment checks every
    action itself, and a number that is no action id gets a
    :class:`~biriba.BiribaError`, where the wrapper's ``assert`` raised
    :class:`AssertionError` (and nothing under ``python -O``)."""
    return wrappers.OrderEnforcingWrapper(BiribaEnv(**kwargs))
