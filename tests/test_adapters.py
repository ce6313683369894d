"""The optional adapters: PettingZoo (biriba[pettingzoo]), OpenSpiel (biriba[openspiel]) and
simulations on a Dask cluster (biriba[dask]). Each test is skipped, with the reason, when
its extra is not installed."""

from __future__ import annotations

import math
import random
import re
from typing import Any

import pytest

from biriba import BiribaError, Deal, IllegalMoveError, full_pack
from biriba.encoding import codec_for, team_returns

from .helpers import openspiel_adapter as _openspiel
from .helpers import pettingzoo_adapter as _pettingzoo
from .helpers import position


# ------------------------------------------------------------------------------ PettingZoo
def test_pettingzoo_api_test() -> None:
    adapter = _pettingzoo()
    from pettingzoo.test import api_test

    api_test(adapter.env(render_mode="ansi"), num_cycles=400)


def test_pettingzoo_render_test_and_the_human_mode(capsys: pytest.CaptureFixture[str]) -> None:
    """PettingZoo's own render_test makes the environment with ``render_mode="human"``
    first, which was refused; it prints the table after the reset and each step (as
    PettingZoo's environments do), and on ``render()``; ``"ansi"`` returns it."""
    adapter = _pettingzoo()
    from pettingzoo.test import render_test

    render_test(adapter.env)
    capsys.readouterr()
    game = adapter.env(render_mode="human")
    text = adapter.env(render_mode="ansi")
    game.reset(seed=3)
    text.reset(seed=3)
    assert capsys.readouterr().out == text.render() + "\n"
    for _ in range(3):
        action = int(text.observe(text.agent_selection)["action_mask"].argmax())
        game.step(action)
        text.step(action)
        assert capsys.readouterr().out == text.render() + "\n"
    assert game.render() is None
    shown = capsys.readouterr().out
    assert shown == text.render() + "\n" and "discard pile" in shown


def test_pettingzoo_seed_test() -> None:
    adapter = _pettingzoo()
    from pettingzoo.test import seed_test

    seed_test(adapter.env, num_cycles=100)


def test_pettingzoo_plays_a_deal_to_its_rewards() -> None:
    adapter = _pettingzoo()
    env = adapter.raw_env(render_mode="ansi")
    env.reset(seed=7)
    rng = random.Random(7)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        mask = observation["action_mask"]
        legal = [i for i, bit in enumerate(mask) if bit]
        assert legal == codec_for(env.rules).legal_ids(env.deal)
        env.step(rng.choice(legal))
    assert env.deal.is_over
    expected = team_returns(env.deal, env.scale)
    assert [totals[a] for a in env.possible_agents] == expected
    assert "seat 0" in env.render()


def test_pettingzoo_an_illegal_action_says_which_rule_refuses_it() -> None:
    # API.md: an illegal move's error names the rule, and changes nothing.
    adapter = _pettingzoo()
    env = adapter.raw_env()
    env.reset(seed=7)
    deal = env.deal
    seat = deal.to_move
    before = deal.to_dict()
    discard = codec_for(env.rules).discard_base + deal.hand(seat)[0].index
    with pytest.raises(IllegalMoveError) as info:
        env.step(discard)  # before the draw
    assert info.value.rule == "B4.1" and env.deal.to_dict() == before
    with pytest.raises(ValueError, match="None is no action"):
        env.step(None)


def test_pettingzoo_truncates_at_the_move_cap() -> None:
    adapter = _pettingzoo()
    env = adapter.raw_env(max_moves=30)
    env.reset(seed=1)
    steps = 0
    for _agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            assert truncation and not termination
            env.step(None)
            continue
        legal = [i for i, bit in enumerate(observation["action_mask"]) if bit]
        env.step(legal[0])
        steps += 1
    assert steps == 30 and not env.deal.is_over


def test_pettingzoo_checks_its_arguments() -> None:
    adapter = _pettingzoo()
    for wrong_type in (
        {"max_moves": "800"},
        {"max_moves": 2.5},
        {"scale": "1000"},
        {"compact": "yes"},
        {"compact": 1},
        {"render_mode": 5},
    ):
        with pytest.raises(TypeError):
            adapter.raw_env(**wrong_type)
    for wrong_value in (
        {"max_moves": 0},
        {"max_moves": -5},
        {"scale": 0},
        {"scale": -1000},
        {"scale": math.nan},
        {"render_mode": "rgb_array"},
    ):
        with pytest.raises(BiribaError):
            adapter.raw_env(**wrong_value)
    with pytest.raises(BiribaError) as info:
        adapter.raw_env(render_mode="x" * 10_000)
    assert len(str(info.value)) < 200  # an excerpt, not the whole text


# ------------------------------------------------------------------------------ OpenSpiel
@pytest.mark.parametrize("serialize", [False, True])
def test_openspiel_random_sim_test(serialize: bool) -> None:
    pyspiel, _ = _openspiel()
    game = pyspiel.load_game("python_biriba")
    pyspiel.random_sim_test(game, num_sims=2, serialize=serialize, verbose=False)


@pytest.mark.parametrize("name", ["buraco", "biriba-kozi", "biriba-6"])
def test_openspiel_other_rule_sets(name: str) -> None:
    pyspiel, adapter = _openspiel()
    from biriba import RuleSet

    game = pyspiel.load_game("python_biriba", {"rules": name})
    assert game.num_players() == RuleSet.named(name).players
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    variant = RuleSet.named(name).evolve(name="mine", keep_after_melding=1)
    parameter = adapter.rules_parameter(variant)
    assert adapter.rules_of(parameter) == variant
    pyspiel.random_sim_test(
        pyspiel.load_game("python_biriba", {"rules": parameter}),
        num_sims=1,
        serialize=True,
        verbose=False,
    )


def test_pettingzoo_buraco() -> None:
    adapter = _pettingzoo()
    from pettingzoo.test import api_test

    from biriba import BURACO

    api_test(adapter.env(rules=BURACO), num_cycles=200)


def _dealt_state(game: Any, seed: int) -> Any:
    """The state after dealing the pack that ``Deal.new(seed=seed)`` deals."""
    pack = list(full_pack(game.rules))
    random.Random(seed).shuffle(pack)
    state = game.new_initial_state()
    for card in pack:
        assert state.is_chance_node()
        assert card.index in dict(state.chance_outcomes())
        state.apply_action(card.index)
    return state


def _played_state(game: Any, seed: int, moves: int) -> Any:
    """:func:`_dealt_state`, then ``moves`` random moves (seeded by ``seed``)."""
    state = _dealt_state(game, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_openspiel_deals_by_chance_and_plays_the_library() -> None:
    pyspiel, _ = _openspiel()
    game = pyspiel.load_game("python_biriba")
    state = _dealt_state(game, 4)
    deal = Deal.new(seed=4)
    assert state.deal.to_dict() == deal.to_dict()
    codec = codec_for(deal.rules)
    rng = random.Random(4)
    while not state.is_terminal():
        assert state.legal_actions() == codec.legal_ids(deal)
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        deal.play(codec.decode(action, deal))
    assert deal.is_over
    assert state.returns() == team_returns(deal, game.scale)
    copy = game.deserialize_state(state.serialize())
    assert str(copy) == str(state) and copy.returns() == state.returns()


def test_openspiel_tensors_and_resampling() -> None:
    pyspiel, _ = _openspiel()
    game = pyspiel.load_game("python_biriba")
    state = _played_state(game, 8, 70)
    seat = state.current_player()
    assert len(state.observation_tensor(seat)) == game.observation_tensor_size()
    assert len(state.information_state_tensor(seat)) == game.information_state_tensor_size()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(3):
        other = state.resample_from_infostate(seat, sampler)
        assert other.information_state_string(seat) == state.information_state_string(seat)
        assert other.observation_tensor(seat) == state.observation_tensor(seat)
        assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
        assert other.legal_actions() == state.legal_actions()
        assert str(other) != str(state)  # the hidden cards were dealt again


def _state_of_pack(game: Any, pack: list[Any]) -> Any:
    state = game.new_initial_state()
    for card in pack:
        state.apply_action(card.index)
    return state


def test_openspiel_information_state_is_perfect_recall() -> None:
    """OpenSpiel's information state remembers all the seat saw. Two packs that differ
    only in the first player's first draw and a card of its hand: once it draws, its hand
    is the same in both, and the string (its hand and the public moves) was too, though
    the seat saw other hands dealt and other cards drawn."""
    pyspiel, _ = _openspiel()
    game = pyspiel.load_game("python_biriba")
    pack = list(full_pack(game.rules))
    random.Random(4).shuffle(pack)
    other = pack[:]
    other[0], other[67] = other[67], other[0]  # seat 1's first card and the stock's top
    one, two = _state_of_pack(game, pack), _state_of_pack(game, other)
    seat = one.current_player()
    assert seat == 1 and two.current_player() == 1
    assert one.deal.hand(1) != two.deal.hand(1)
    for state in (one, two):
        state.apply_action(state.legal_actions()[0])  # both draw
        assert str(state.deal.history[-1]) == "draw"
    assert one.deal.hand(1) == two.deal.hand(1) and one.deal.view(1) == two.deal.view(1)
    assert one.information_state_string(1) != two.information_state_string(1)
    assert one.information_state_string(1).endswith(f"moves draw (drew {pack[67]})")
    assert two.information_state_string(1).endswith(f"moves draw (drew {other[67]})")
    # The other seats saw nothing of it: their strings are alike.
    for seat in (0, 2, 3):
        seen_one = one.information_state_string(seat).split(" hand ")[1]
        seen_two = two.information_state_string(seat).split(" hand ")[1]
        assert seen_one == seen_two


def test_openspiel_information_state_holds_what_the_seat_saw_through_the_deal() -> None:
    """Along random deals, each seat's string names the hand it was dealt and each card
    it drew; a deserialized state, and a state resampled for the seat (pickled too), give
    the seat the same string."""
    import pickle

    pyspiel, _ = _openspiel()
    game = pyspiel.load_game("python_biriba")
    for seed in range(3):
        state = _played_state(game, seed, 0)
        start = state.deal.copy()
        rng = random.Random(seed)
        while not state.is_terminal() and state.moves < 120:
            state.apply_action(rng.choice(state.legal_actions()))
        drawn: dict[int, list[str]] = {seat: [] for seat in range(game.rules.players)}
        for move in state.deal.history:
            seat = start.to_move
            if str(move) in ("draw", "redraw"):
                drawn[seat].append(f"drew {start.stock[-1]}")
            start.play(move)
        for seat in range(game.rules.players):
            text = state.information_state_string(seat)
            dealt = " ".join(map(str, Deal.new(seed=seed).hand(seat)))
            assert text.startswith(f"seat {seat} dealt {dealt} hand ")
            assert re.findall(r"\((drew [^)]*)\)", text) == drawn[seat]
            copy = game.deserialize_state(state.serialize())
            assert copy.information_state_string(seat) == text
        if state.is_terminal():
            continue
        seat = state.current_player()
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        other = state.resample_from_infostate(seat, sampler)
        assert other.information_state_string(seat) == state.information_state_string(seat)
        again = pickle.loads(pickle.dumps(other))
        assert again.information_state_string(seat) == state.information_state_string(seat)


def test_openspiel_information_state_holds_the_packet_the_seat_received() -> None:
    # B5.3: the hand emptied by melding takes the reserve packet at once; the seat alone
    # sees its cards, and its string says so (the table sees a meld).
    pyspiel, adapter = _openspiel()
    game = pyspiel.load_game("python_biriba")
    data = position(hands={0: "5C 6C 7C"}, melds=(["3H 4H 5H 6H 7H 8H 9H"], []))
    state = adapter.BiribaState(game, Deal.from_dict(data))
    meld = next(a for a in state.legal_actions() if state.action_to_string(0, a) == "meld 5C 6C 7C")
    state.apply_action(meld)
    packet = " ".join(map(str, state.deal.hand(0)))
    assert state.deal.reserve_received(0) and len(state.deal.hand(0)) == 11
    assert state.information_state_string(0).endswith(f"moves meld 5C 6C 7C (received {packet})")
    assert state.information_state_string(2).endswith("moves meld 5C 6C 7C")


def test_openspiel_ismcts_plays_full_deals() -> None:
    """OpenSpiel's ISMCTS, resampling through the adapter, plays both seats of team 0 to
    the end of two deals against random play."""
    pyspiel, adapter = _openspiel()
    import numpy as np
    from open_spiel.python.algorithms import ismcts

    game = pyspiel.load_game("python_biriba")
    bot = ismcts.ISMCTSBot(
        game,
        adapter.TableEvaluator(horizon=2, seed=1),
        uct_c=2.0,
        max_simulations=8,
        random_state=np.random.RandomState(1),
    )
    for seed in range(2):
        state = _dealt_state(game, 100 + seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.current_player() % 2 == 0:
                action = bot.step(state)
            else:
                action = rng.choice(state.legal_actions())
            assert action in state.legal_actions()
            state.apply_action(action)
        assert state.deal.is_over or state.moves == game.max_moves
        assert sum(state.returns()) == pytest.approx(0)


def test_ismcts_player_is_a_bot() -> None:
    _, adapter = _openspiel()
    from biriba.bots import RandomBot, play_deal

    deal = Deal.new(seed=21)
    players = [adapter.ISMCTSPlayer(seed=1, simulations=4), RandomBot(seed=2)] * 2
    assert play_deal(deal, players).is_over


def test_ismcts_players_seeded_alike_play_alike() -> None:
    # Seeded, so a game between bots is reproducible: the worlds the search samples come
    # from the seed too (OpenSpiel's own sampler is seeded anew at each run).
    _, adapter = _openspiel()
    from biriba.bots import GreedyBot, play_deal

    def history() -> tuple[object, ...]:
        players = [adapter.ISMCTSPlayer(1, simulations=5), GreedyBot(2)] * 2
        return play_deal(Deal.new(seed=4), players).history

    assert history() == history()


def _resampled() -> tuple[Any, Any, int, Any]:
    """A game, a state 40 moves into a deal, its seat to move and a state resampled for
    that seat."""
    pyspiel, _ = _openspiel()
    game = pyspiel.load_game("python_biriba")
    state = _played_state(game, 8, 40)
    seat = state.current_player()
    other = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    return game, state, seat, other


def test_openspiel_a_resampled_state_pickles_with_its_public_moves() -> None:
    import pickle

    _, state, seat, other = _resampled()
    again = pickle.loads(pickle.dumps(other))
    assert again.information_state_string(seat) == state.information_state_string(seat)
    assert again.legal_actions() == state.legal_actions() and str(again) == str(other)


def test_openspiel_a_resampled_state_written_without_the_seats_notes_still_loads() -> None:
    # A state pickled before the seats' notes (the hand dealt, the cards drawn) were kept:
    # it loads, its strings those of the public moves alone.
    import json

    game, _, _, other = _resampled()
    restore, (params, saved) = other._c.__reduce__()
    pack, written, moves, discarded = saved
    data = json.loads(written)
    del data["private"], data["dealt"]
    old = restore(params, (pack, json.dumps(data), moves, discarded))
    assert old.deal.to_dict() == other.deal.to_dict() and old.public == other._c.public
    assert old.dealt == [None] * game.rules.players
    assert old.private == [{} for _ in range(game.rules.players)]


def test_openspiel_checks_the_game_parameters_when_the_game_is_loaded() -> None:
    pyspiel, _ = _openspiel()
    # (pyspiel checks each parameter's type against its default: ints here.)
    for params, message in (
        ({"scale": 0}, "scale must be a finite number more than 0"),
        ({"scale": -1000}, "scale must be a finite number more than 0"),
        ({"max_moves": 0}, "max_moves must be at least 1"),
        ({"dealer": 4}, r"dealer 4 is out of range 0\.\.3 \(B1\.1\)"),
        ({"dealer": -1}, r"dealer -1 is out of range"),
    ):
        with pytest.raises(BiribaError, match=message):
            pyspiel.load_game("python_biriba", params)


def test_openspiel_chance_outcomes_are_card_indices() -> None:
    pyspiel, _ = _openspiel()
    state = pyspiel.load_game("python_biriba").new_initial_state()
    for bad in (-2, 53):
        with pytest.raises(BiribaError, match="is no chance outcome"):
            state.apply_action(bad)
    assert not state.deal and state.is_chance_node()


def test_openspiel_an_illegal_action_says_which_rule_refuses_it() -> None:
    # API.md: an illegal move's error names the rule; through OpenSpiel too (the codec's).
    pyspiel, _ = _openspiel()
    game = pyspiel.load_game("python_biriba")
    state = _dealt_state(game, 4)  # seat 1 to draw
    before = str(state)
    with pytest.raises(IllegalMoveError) as info:
        state.apply_action(game.codec.discard_base + state.deal.hand(1)[0].index)
    assert info.value.rule == "B4.1" and str(state) == before


def test_openspiel_a_game_of_rules_given_as_json_loads_again_from_its_string() -> None:
    """OpenSpiel rebuilds a game from ``str(game)`` (``load_game``, pickling, and
    ``serialize_game_and_state``). A rule set given as plain JSON was kept so in the game
    string, whose commas OpenSpiel's parser cannot read: every one of them failed. And
    a game pickled came back without its rules, under every rule set."""
    import json
    import pickle

    from biriba import RuleSet

    pyspiel, adapter = _openspiel()
    rules = RuleSet.named("buraco").evolve(name="mine", keep_after_melding=1)
    game = pyspiel.load_game("python_biriba", {"rules": json.dumps(rules.to_dict())})
    assert game.rules == rules
    assert game.get_parameters()["rules"] == adapter.rules_parameter(rules)
    again = pyspiel.load_game(str(game))
    assert again.rules == rules and str(again) == str(game)
    state = game.new_initial_state()
    for _ in range(rules.pack_size + 3):
        state.apply_action(state.legal_actions()[0])
    assert str(pickle.loads(pickle.dumps(state))) == str(state)
    # A game pickled comes back whole: it makes states (pyspiel's own pickling of a
    # game gave back one without its rules, which could not).
    unpickled = pickle.loads(pickle.dumps(game))
    assert str(unpickled) == str(game) and unpickled.rules == rules
    assert unpickled.new_initial_state().is_chance_node()
    _, restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(restored) == str(state)
    # A preset's name stays its name.
    assert str(pyspiel.load_game("python_biriba", {"rules": "buraco"})).count("rules=buraco")


def test_openspiel_a_game_cut_off_at_max_moves_takes_no_more_actions() -> None:
    """At the move cap the state is terminal with no legal action, and its returns are
    final: an action applied there still played on, and the returns changed."""
    pyspiel, _ = _openspiel()
    game = pyspiel.load_game("python_biriba", {"max_moves": 10})
    state = _dealt_state(game, 4)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[-1])
    assert not state.deal.is_over and state.legal_actions() == []
    before, returns = str(state), state.returns()
    with pytest.raises(BiribaError, match="cut off after max_moves"):
        state.apply_action(game.codec.legal_ids(state.deal)[-1])
    assert str(state) == before and state.returns() == returns


def test_openspiel_the_dealt_hand_reads_alike_while_dealing_and_after() -> None:
    """The information state names the hand a seat was dealt in one order, the
    library's, while the cards come and once they are all dealt: the order they came in
    told two deals of the same hand apart while dealing, and not after."""
    pyspiel, _ = _openspiel()
    game = pyspiel.load_game("python_biriba")
    pack = list(full_pack(game.rules))
    random.Random(4).shuffle(pack)
    other = pack[:]
    # Seat 1, after the dealer, gets the pack's cards 0, 4, 8, ...: its first two, swapped.
    other[0], other[4] = other[4], other[0]
    assert pack[0] != pack[4]
    one, two = game.new_initial_state(), game.new_initial_state()
    for dealt, (first, second) in enumerate(zip(pack, other, strict=True), 1):
        one.apply_action(first.index)
        two.apply_action(second.index)
        if dealt > 4:  # both cards dealt: the same hand so far
            assert one.information_state_string(1) == two.information_state_string(1)
    dealt = one.information_state_string(1).split(" hand ")[0]
    assert dealt == "seat 1 dealt " + " ".join(map(str, one.deal.hand(1)))


# ------------------------------------------------------------------------------ Dask
def test_simulate_on_a_dask_cluster() -> None:
    """``simulate`` on a Dask LocalCluster of two worker processes gives what it gives in
    one process with the same seed."""
    pytest.importorskip("distributed", reason="biriba[dask] is not installed")
    from distributed import Client, LocalCluster

    from biriba.simulate import simulate

    local = simulate(["greedy", "random"], deals=12, seed="dask", workers=1)
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        remote = simulate(
            ["greedy", "random"], deals=12, seed="dask", executor=client.get_executor()
        )
    assert remote == local


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"simulations": 0}, BiribaError),
        ({"simulations": -1}, BiribaError),
        ({"simulations": "5"}, TypeError),
        ({"horizon": -1}, BiribaError),
        ({"horizon": 1.5}, TypeError),
        ({"uct_c": math.inf}, BiribaError),
        ({"uct_c": math.nan}, BiribaError),
        ({"uct_c": -(10**5000)}, BiribaError),
        ({"uct_c": -0.5}, BiribaError),
        ({"uct_c": "2"}, TypeError),
        ({"seed": 1.5}, TypeError),
        ({"seed": 10**1001}, BiribaError),
    ],
)
def test_ismcts_player_arguments_are_checked(
    kwargs: dict[str, Any], error: type[Exception]
) -> None:
    _, adapter = _openspiel()
    with pytest.raises(error) as caught:
        adapter.ISMCTSPlayer(**kwargs)
    assert type(caught.value) is error
    assert len(str(caught.value)) < 200


def test_table_evaluator_arguments_are_checked() -> None:
    _, adapter = _openspiel()
    for kwargs, error in (
        ({"horizon": -1}, BiribaError),
        ({"horizon": 2.5}, TypeError),
        ({"horizon": "3"}, TypeError),
        ({"seed": 1.5}, TypeError),
    ):
        with pytest.raises(error) as caught:
            adapter.TableEvaluator(**kwargs)
        assert type(caught.value) is error
    assert adapter.TableEvaluator(horizon=0).horizon == 0


def test_B4_1_ismcts_player_is_given_a_view_of_the_seat_to_move() -> None:
    _, adapter = _openspiel()
    player = adapter.ISMCTSPlayer(seed=1, simulations=2)
    deal = Deal.new(seed=5)
    with pytest.raises(TypeError, match=r"ISMCTSPlayer\.choose expects a PlayerView"):
        player.choose(deal)
    with pytest.raises(BiribaError, match="is not to move") as caught:
        player.choose(deal.view((deal.dealer + 2) % 4))
    assert caught.value.rule == "B4.1"
