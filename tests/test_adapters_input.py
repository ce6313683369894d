"""The adapters' checks of their input (API.md): a wrong type is a TypeError, a wrong
value a BiribaError quoting at most an excerpt, and a call refused changes nothing. Each
test is skipped, with the reason, when its extra (PettingZoo, OpenSpiel) is not
installed."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from biriba import BiribaError, full_pack
from biriba.limits import MAX_JSON

from .helpers import openspiel_adapter as _openspiel
from .helpers import pettingzoo_adapter as _pettingzoo

#: The longest message an error about a large input may have (an excerpt, not the input).
SHORT = 300


def _refused(error: type[Exception], call: Any, *args: Any) -> str:
    """The message of the ``error`` (of exactly that type) that ``call(*args)`` raises,
    checked to be short."""
    with pytest.raises(error) as caught:
        call(*args)
    assert type(caught.value) is error, repr(caught.value)[:SHORT]
    message = str(caught.value)
    assert len(message) < SHORT
    return message


# ------------------------------------------------------------------------------ PettingZoo
def _env(seed: int = 1) -> Any:
    env = _pettingzoo().raw_env()
    env.reset(seed=seed)
    return env


def _snapshot(env: Any) -> tuple[object, ...]:
    """What a refused call must leave as it was: the deal, the moves, the agent, the
    generator."""
    return (env.deal.to_dict(), env.moves, env.agent_selection, env._rng.getstate())


def test_pettingzoo_none_for_the_agent_to_move_is_a_biriba_error() -> None:
    env = _env()
    before = _snapshot(env)
    message = _refused(BiribaError, env.step, None)
    assert "None is no action" in message
    assert _snapshot(env) == before


def test_pettingzoo_an_action_is_an_integer_of_any_integer_type() -> None:
    env = _env()
    np = pytest.importorskip("numpy")
    before = _snapshot(env)
    for wrong in ("abc", math.inf, math.nan, 0.9, 1.0, "1", b"0", np.float64(1.0), True, [0]):
        _refused(TypeError, env.step, wrong)
        assert _snapshot(env) == before, wrong
    for out_of_range in (-1, env.codec.size, 10**5000, np.int64(-3)):
        message = _refused(BiribaError, env.step, out_of_range)
        assert "is no action id" in message  # the codec's error
        assert _snapshot(env) == before
    legal = sorted(env._legal)
    env.step(np.int64(legal[0]))  # NumPy's integers are actions, as the spaces sample them
    assert env.moves == 1


def test_pettingzoo_reset_checks_its_options_before_touching_anything() -> None:
    adapter = _pettingzoo()
    env, twin = adapter.raw_env(), adapter.raw_env()
    env.reset(seed=3)
    twin.reset(seed=3)
    before = _snapshot(env)
    for options in ("abc", ["dealer"], {"dealer": "abc"}, {"dealer": 1.7}, {"dealer": math.inf}):
        _refused(TypeError, env.reset, 9, options)
        assert _snapshot(env) == before, options
    for out_of_range in ({"dealer": 7}, {"dealer": -1}, {"dealer": 10**5000}):
        _refused(BiribaError, env.reset, 9, out_of_range)
        assert _snapshot(env) == before, out_of_range
    _refused(TypeError, env.reset, 1.5)  # a seed is an int or a str
    _refused(TypeError, env.reset, True)
    _refused(BiribaError, env.reset, 10**5000)
    assert _snapshot(env) == before
    # The generator was neither reseeded nor advanced: the next deal is the twin's.
    env.reset()
    twin.reset()
    assert env.deal.to_dict() == twin.deal.to_dict()
    env.reset(seed=4, options={"dealer": 2})
    assert env.deal.dealer == 2
    np = pytest.importorskip("numpy")
    env.reset(seed=4, options={"dealer": np.int64(3)})  # an integer of NumPy's, as actions
    assert env.deal.dealer == 3
    env.reset(seed=4, options={"options": 1})  # other keys are ignored (PettingZoo's api_test)
    assert env.deal.dealer == 0
    # A seed of NumPy's integers, as RL code draws them, is its int.
    env.reset(seed=np.int64(5))
    twin.reset(seed=5)
    assert env.deal.to_dict() == twin.deal.to_dict()


def test_pettingzoo_env_refuses_a_number_that_is_no_action_with_a_biriba_error() -> None:
    # env(), wrapped as PettingZoo's environments are: the same error as raw_env() gives,
    # not the AssertionError of PettingZoo's AssertOutOfBoundsWrapper.
    wrapped = _pettingzoo().env()
    wrapped.reset(seed=1)
    before = wrapped.unwrapped.deal.to_dict()
    for out_of_range in (-1, 19_564, 10**6):
        message = _refused(BiribaError, wrapped.step, out_of_range)
        assert "is no action id" in message
    assert wrapped.unwrapped.deal.to_dict() == before


def test_pettingzoo_an_unknown_agent_is_refused_with_an_excerpt() -> None:
    env = _env()
    message = _refused(BiribaError, env.observe, "x" * 100_000)
    assert "100000 characters" in message
    _refused(BiribaError, env.observation_space, "x")
    _refused(BiribaError, env.action_space, "player_4")
    for call in (env.observe, env.observation_space, env.action_space):
        _refused(TypeError, call, None)
        _refused(TypeError, call, 0)
    assert env.action_space("player_3").n == env.codec.size


def test_pettingzoo_reset_comes_first() -> None:
    env = _pettingzoo().raw_env()
    for call, args in (
        (env.step, (0,)),
        (env.step, (None,)),
        (env.last, ()),
        (env.observe, ("player_0",)),
    ):
        message = _refused(BiribaError, call, *args)
        assert "reset() comes first" in message
    assert env.deal is None and env.agents == []


def test_pettingzoo_once_the_deal_is_over() -> None:
    env = _pettingzoo().raw_env(max_moves=3)
    env.reset(seed=2)
    for _ in range(3):
        env.step(sorted(env._legal)[0])
    assert all(env.truncations.values())
    agent = env.agent_selection
    message = _refused(BiribaError, env.step, 0)  # a done agent's only action is None
    assert agent in message and env.agent_selection == agent and agent in env.agents
    while env.agents:
        env.step(None)
    _refused(BiribaError, env.step, None)
    _refused(BiribaError, env.last)
    env.reset(seed=2)
    assert env.agents == env.possible_agents


# ------------------------------------------------------------------------------ OpenSpiel
def _dealt_state(game: Any, seed: int) -> Any:
    """The state after dealing a pack shuffled by ``seed``."""
    pack = list(full_pack(game.rules))
    random.Random(seed).shuffle(pack)
    state = game.new_initial_state()
    for card in pack:
        state.apply_action(card.index)
    return state


def test_openspiel_a_chance_action_out_of_range_has_no_text() -> None:
    pyspiel, _ = _openspiel()
    state = pyspiel.load_game("python_biriba").new_initial_state()
    chance = pyspiel.PlayerId.CHANCE
    for action in (99, 53, -1, -53):
        message = _refused(BiribaError, state.action_to_string, chance, action)
        assert "is no chance outcome" in message
        _refused(BiribaError, state.action_to_string, action)  # the chance node's
    assert state.action_to_string(chance, 0) == "deal AC"
    assert state.action_to_string(52) == "deal JK"


def test_openspiel_resampling_checks_the_samplers_value() -> None:
    pyspiel, _ = _openspiel()
    state = _dealt_state(pyspiel.load_game("python_biriba"), 5)
    before = str(state)
    for value, error in (
        (math.nan, BiribaError),
        (math.inf, BiribaError),
        (-0.5, BiribaError),
        (1.0, BiribaError),
        (10**400, BiribaError),
        ("x", TypeError),
        (None, TypeError),
        (True, TypeError),
    ):
        _refused(error, state.resample_from_infostate, 0, lambda value=value: value)
        assert str(state) == before
    other = state.resample_from_infostate(0, lambda: 0.999)
    assert other.information_state_string(0) == state.information_state_string(0)


def test_openspiel_rules_parameters_are_read_safely() -> None:
    pyspiel, adapter = _openspiel()
    for parameter in (
        "data:!!!!",
        "data:AAAAAAA",
        "data:é",
        "data:WzFd",  # [1]: JSON, but no object
        '{"a":' * 100_000,
        "{" + "x" * 100_000,
        '{"name": "mine", "players": "x' + "y" * 100_000 + '"}',
    ):
        _refused(BiribaError, adapter.rules_of, parameter)
    _refused(TypeError, adapter.rules_of, None)
    # The base64 of the most JSON the library reads (MAX_JSON bytes, four characters for
    # each three) is the longest data: parameter; one character more is refused unread.
    longest = -(-MAX_JSON // 3) * 4
    message = _refused(BiribaError, adapter.rules_of, "data:" + "A" * (longest + 1))
    assert f"at most {longest:,} characters of base64" in message
    _refused(TypeError, adapter.rules_parameter, None)
    _refused(TypeError, adapter.rules_parameter, "biriba")
    # Through OpenSpiel's game strings too.
    _refused(BiribaError, pyspiel.load_game, "python_biriba(rules=data:!!!!)")
    assert adapter.rules_of("buraco").name == "buraco"


def test_openspiel_game_parameters_out_of_range_are_library_errors() -> None:
    """A rules parameter that is no text is a TypeError (an int of 5,000 digits raised
    Python's ValueError when written as text); a move cap past the most moves a record
    holds is a BiribaError (2**63 reached OpenSpiel's GameInfo, whose TypeError quoted
    its whole signature), through both adapters."""
    _, adapter = _openspiel()
    _refused(TypeError, adapter.BiribaGame, {"rules": 10**5000})
    _refused(TypeError, adapter.BiribaGame, {"rules": 5})
    for cap in (2**63, 100_001):
        message = _refused(BiribaError, adapter.BiribaGame, {"max_moves": cap})
        assert "max_moves must be at most 100,000" in message
    assert adapter.BiribaGame({"max_moves": 100_000}).max_moves == 100_000
    _refused(BiribaError, lambda: _pettingzoo().raw_env(max_moves=2**63))


def test_openspiel_observer_parameters_are_quoted_in_short() -> None:
    pyspiel, _ = _openspiel()
    game = pyspiel.load_game("python_biriba")
    message = _refused(BiribaError, game.make_py_observer, None, {"x": "y" * 100_000})
    assert "no observation parameters" in message
    _refused(TypeError, game.make_py_observer, "perfect")
    recall = pyspiel.IIGObservationType(perfect_recall=True)
    assert game.make_py_observer(recall).perfect_recall


def test_openspiel_evaluator_and_observer_take_states() -> None:
    pyspiel, adapter = _openspiel()
    game = pyspiel.load_game("python_biriba")
    evaluator = adapter.TableEvaluator()
    _refused(TypeError, evaluator.evaluate, None)
    _refused(TypeError, evaluator.prior, None)
    observer = game.make_py_observer()
    _refused(TypeError, observer.set_from, None, 0)
    _refused(TypeError, observer.string_from, None, 0)
    dealing = game.new_initial_state()
    _refused(BiribaError, observer.string_from, dealing, 9)
    state = _dealt_state(game, 6)
    observer.set_from(state, 0)
    tensor = observer.tensor.copy()
    _refused(BiribaError, observer.set_from, state, 4)
    _refused(TypeError, observer.set_from, state, "0")
    assert (observer.tensor == tensor).all()
