"""Bots, simulation and the command line."""

from __future__ import annotations

import functools
import io
import json
import math
import random
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import attrs
import pytest

from biriba import BIRIBA, BURACO, BiribaError, Card, Deal, Move, RuleSet, parse_cards, records
from biriba.bots import Bot, GreedyBot, MonteCarloBot, RandomBot, moves_to_choose, play_deal
from biriba.bots.heuristics import discard_danger, greedy_choice, pile_use, table_of, take_melds
from biriba.cli import _shown, main
from biriba.demo import run_demo
from biriba.rules import PRESET_DESCRIPTIONS
from biriba.simulate import simulate
from biriba.terminal import choices, help_for, run_play

from .helpers import IntLike, position


def test_bots_follow_the_protocol_and_play_legal_moves() -> None:
    for bot in (RandomBot(seed=1), GreedyBot(seed=1), MonteCarloBot(seed=1, iterations=1)):
        assert isinstance(bot, Bot)
        deal = Deal.new(seed=5)
        for _ in range(12):
            move = bot.choose(deal.view(deal.to_move or 0))
            assert isinstance(move, Move) and deal.is_legal(move)
            deal.play(move)


def test_bots_are_seeded() -> None:
    def game(seed: int) -> tuple[str, ...]:
        deal = Deal.new(seed=9)
        play_deal(deal, [GreedyBot(seed=seed), RandomBot(seed=seed)] * 2)
        return tuple(str(m) for m in deal.history)

    assert game(1) == game(1)
    # The seed is used: other seeds play other games (the random bots choose otherwise).
    assert len({game(seed) for seed in range(1, 5)}) > 1


def test_greedy_beats_random_in_matches() -> None:
    result = simulate([GreedyBot, RandomBot], matches=8, seed="t", workers=1)
    assert result.wins == (8, 0)
    assert result.mean_score(0) > 5000 > result.mean_score(1)


def test_greedy_goes_for_the_reserve() -> None:
    deal = Deal.from_dict(position(hands={0: "8H 9H"}, melds=(["2H 3H 4H 5H 6H 7H"], [])))
    bot = GreedyBot(seed=0)
    deal.play(bot.choose(deal.view(0)))
    deal.play(bot.choose(deal.view(0)))
    assert deal.reserve_received(0)


def test_greedy_never_discards_a_substitute_when_it_can_help_it() -> None:
    deal = Deal.from_dict(position(hands={0: "JK 2C 9S KD"}))
    move = GreedyBot(seed=0).choose(deal.view(0))
    assert str(move) in ("discard 9S", "discard KD")


def test_monte_carlo_bot_budget_and_errors() -> None:
    with pytest.raises(BiribaError):
        MonteCarloBot(iterations=0)
    deal = Deal.new(seed=2)
    deal.play("draw")
    bot = MonteCarloBot(seed=3, time_limit=0.05)
    assert deal.is_legal(bot.choose(deal.view(deal.to_move or 0)))


def test_play_deal_checks_the_number_of_bots() -> None:
    with pytest.raises(BiribaError, match="4 bots"):
        play_deal(Deal.new(seed=1), [RandomBot()])


def test_simulation_is_the_same_whatever_the_workers() -> None:
    one = simulate(["greedy", "random"], deals=6, seed=4, workers=1)
    pool = simulate(["greedy", "random"], deals=6, seed=4, workers=2)
    with ThreadPoolExecutor(max_workers=3) as executor:
        threads = simulate(["greedy", "random"], deals=6, seed=4, executor=executor)
    assert one.results == pool.results == threads.results
    assert one.games == 6 and sum(one.wins) + one.ties == 6
    low, high = one.confidence_interval(0)
    assert 0 <= low <= one.win_rate(0) <= high <= 1
    assert "GreedyBot" in one.summary()


def test_simulation_of_matches() -> None:
    result = simulate([GreedyBot, RandomBot], matches=1, seed=2, workers=1)
    assert result.kind == "matches" and result.results[0].deals >= 1


def test_simulation_errors() -> None:
    with pytest.raises(BiribaError, match="exactly one"):
        simulate(["greedy", "random"])
    with pytest.raises(BiribaError, match="no bot named"):
        simulate(["greedy", "chess"], deals=1)
    with pytest.raises(BiribaError, match="one bot per team: 2"):
        simulate(["greedy"], deals=1)
    with pytest.raises(BiribaError, match="deals must be at least 1"):
        simulate(["greedy", "random"], deals=0)


# ---------------------------------------------------------------- the command line
def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out)
    return code, out.getvalue()


def test_cli_rules() -> None:
    code, text = run("rules")
    assert code == 0
    for name in RuleSet.preset_names():  # every preset listed, with its line
        assert f"  {name:<18} " in text
    code, text = run("rules", "biriba")
    assert code == 0 and "hand_size" in text and "5000" in text
    code, text = run("rules", "buraco")
    assert code == 0 and "2000" in text
    # Every value stands in one column, however long, and card values read by rank.
    rows = [line for line in text.splitlines()[2:] if line.strip()]
    rule_columns = {line.rindex("  ") for line in rows}
    assert len(rule_columns) == 1, rows
    assert "  pile_restriction             no-take-with-one-card  B4.2, Z4.4" in rows
    assert any(line.split()[:4] == ["card_values", "B8.1", "values", "B8.1,"] for line in rows)
    values = BIRIBA.evolve(name="cheap", card_values=(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13))
    assert _shown("card_values", values.card_values) == (
        "A:1 2:2 3:3 4:4 5:5 6:6 7:7 8:8 9:9 T:10 J:11 Q:12 K:13"
    )


def test_cli_rules_from_a_file(tmp_path: Path) -> None:
    variant = BURACO.evolve(name="mine", target=3000, players=6, teams=3)
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(variant.to_dict()))
    code, text = run("rules", str(path))
    assert code == 0 and "3000" in text and "'mine'" in text
    code, text = run("simulate", "--rules", str(path), "--deals", "3", "--workers", "1", "--quiet")
    assert code == 0 and text.count("RandomBot") == 2 and "GreedyBot" in text
    # The rule set is named first, as its own; the two random bots are told apart.
    assert text.startswith("rule set 'mine' (a rule set of its own, not a preset)\n3 deals")
    assert "\nRandomBot #2 " in text and "\nRandomBot #3 " in text


def test_cli_names_a_variant_by_what_it_changes_of_its_preset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "variant.json"
    path.write_text(json.dumps(BIRIBA.evolve(entry_minimum=50, max_substitutes=2).to_dict()))
    code, text = run("rules", str(path))
    assert code == 0
    changed = "rule set 'biriba' (the preset 'biriba' with max_substitutes, entry_minimum changed)"
    assert text.splitlines()[0] == changed
    # The preset's own line is not printed for a variant; the preset's is.
    assert PRESET_DESCRIPTIONS["biriba"] not in text
    assert PRESET_DESCRIPTIONS["biriba"] in run("rules", "biriba")[1]
    code, text = run("simulate", "--rules", str(path), "--deals", "1", "--workers", "1", "--quiet")
    assert code == 0 and text.startswith(changed + "\n1 deal, ")
    # A position or a record given for a rule set: said so, not "needs a 'name'".
    position = tmp_path / "position.json"
    position.write_text(json.dumps(Deal.new(seed=1).to_dict()))
    record = tmp_path / "record.json"
    record.write_text(records.dumps(records.record_deal(Deal.new(seed=1))))
    for file, kind in ((position, "a position"), (record, "a record")):
        assert run("rules", str(file))[0] == 2
        assert f"holds {kind}, not a rule set" in capsys.readouterr().err
    # A variant's position validated against another variant of the same name: which
    # fields differ.
    other = tmp_path / "other.json"
    other.write_text(json.dumps(Deal.new(BIRIBA.evolve(groups=False), seed=1).to_dict()))
    code, text = run("validate", str(other), "--rules", str(path))
    assert code == 1
    assert text.rstrip().endswith("they differ in max_substitutes, groups, entry_minimum")


def test_cli_replay_of_a_position_says_it_is_not_a_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    position = tmp_path / "position.json"
    position.write_text(json.dumps(Deal.new(seed=1).to_dict()))
    assert run("replay", str(position), "--html", str(tmp_path / "page.html"))[0] == 2
    assert "this is a position (Deal.to_dict()), not a record" in capsys.readouterr().err
    assert not (tmp_path / "page.html").exists()


def test_cli_simulate_draws_its_progress_bar_only_on_a_terminal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Under pytest the standard error is no terminal: no bar, no carriage return in logs.
    code, text = run("simulate", "--deals", "2", "--workers", "1")
    assert code == 0 and "2 deals, " in text
    assert capsys.readouterr().err == ""


def test_cli_rules_from_a_broken_file_is_an_error_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A --rules file is read as positions are (biriba.limits.parse_json): JSON nested
    2,000 deep once escaped as a RecursionError with a traceback."""
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 2000)
    broken = tmp_path / "broken.json"
    broken.write_text('{"name": "x", ')
    for path, why in ((deep, "nests brackets at most 32 deep"), (broken, "is JSON, and this")):
        for argv in (("rules", str(path)), ("demo", "--rules", str(path))):
            code, _ = run(*argv)
            assert code == 2
            assert why in capsys.readouterr().err


def test_cli_buraco_commands() -> None:
    code, text = run("demo", "--seed", "5", "--rules", "buraco")
    assert code == 0 and "Score (Z5.1)" in text and "rules 'buraco'" in text
    code, text = run("simulate", "--rules", "buraco", "--deals", "4", "--workers", "1", "--quiet")
    assert code == 0 and "4 deals" in text


def test_cli_demo() -> None:
    code, text = run("demo", "--seed", "5")
    assert code == 0 and "Score (B8)" in text


def test_cli_simulate() -> None:
    code, text = run("simulate", "--deals", "3", "--workers", "1", "--quiet")
    assert code == 0 and "GreedyBot" in text and "RandomBot" in text


def test_cli_validate_record_and_position(tmp_path: Path) -> None:
    deal = Deal.new(seed=1)
    rng = random.Random(1)
    for _ in range(30):
        deal.play(rng.choice(deal.legal_moves()))
    record = tmp_path / "record.json"
    record.write_text(records.dumps(records.record_deal(deal)))
    assert run("validate", str(record)) == (0, "valid record: every move replays (deal)\n")
    data = json.loads(record.read_text())
    data["moves"][3] = "discard 5C" if data["moves"][3] != "discard 5C" else "discard 6C"
    record.write_text(json.dumps(data))
    code, text = run("validate", str(record))
    assert code == 1 and "move 3" in text
    pos = tmp_path / "position.json"
    pos.write_text(json.dumps(deal.to_dict()))
    legal = str(deal.legal_moves()[0])
    assert run("validate", str(pos), "--move", legal) == (0, f"legal: {legal}\n")
    code, text = run("validate", str(pos), "--move", "pass")
    assert code == 1 and "illegal" in text
    code, text = run("validate", str(pos))
    assert code == 0 and "legal moves" in text
    pos.write_text("{")
    assert run("validate", str(pos))[0] == 1
    assert run("validate", str(tmp_path / "missing.json"))[0] == 2


def test_cli_without_a_command_prints_the_help_and_exits_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, text = run()
    assert code == 2 and text == ""
    assert "simulate" in capsys.readouterr().err


def test_play_drives_through_its_input() -> None:
    script = "\n".join(["help", "hint", "nonsense", "0", "999", "-1", "discard ZZ", "1", "undo"])
    script += "\n"
    script += "²\n" + "9" * 5000 + "\n"  # digits int() refuses: not a move, never a crash
    script += "1\n" * 400  # then always the first listed move, to the end of the deal
    out = io.StringIO()
    code = run_play(io.StringIO(script), out, seed=3)
    text = out.getvalue()
    assert code == 0, text[-500:]
    assert "Hint:" in text
    assert "Not allowed: 'nonsense' is not a move" in text
    assert "There is no move 0" in text and "There is no move 999" in text
    assert "There is no move -1" in text  # a number, if none of the list's
    assert "Taken back." in text
    assert "The deal is over" in text and "total" in text
    assert "Not allowed: '²' is not a move" in text


def test_the_demo_says_how_a_buraco_deal_ended() -> None:
    # Going out (Z4.2) or the last turn (Z4.3), as the deal played ended, never Biriba's
    # close (B6.1) or passes (B4.4, B7.1).
    for name in ("buraco", "buraco-6"):
        out = io.StringIO()
        deal = run_demo(out=out, rules=RuleSet.named(name))
        line = next(x for x in out.getvalue().splitlines() if "The deal ended" in x)
        assert "B6.1" not in line and "B4.4" not in line and "B7.1" not in line
        if deal.closed_by is not None:
            assert line.endswith(f": seat {deal.closed_by} went out (Z4.2).")
        else:
            assert deal.last_turn
            assert line.endswith(": the last turn was played (Z4.3).")


def test_play_names_every_partner_of_a_team_of_three() -> None:
    out = io.StringIO()
    run_play(io.StringIO("quit\n"), out, seed=3, rules=RuleSet.named("buraco-6"))
    assert "you are seat 0, your partners are seats 2 and 4." in out.getvalue()
    out = io.StringIO()
    run_play(io.StringIO("quit\n"), out, seed=3)
    assert "you are seat 0, your partner seat 2." in out.getvalue()


def test_play_offers_the_redraw_in_its_prompt_right_after_the_first_draw() -> None:
    # Z2.2: the first player's turn under Buraco, once drawn, lists the redraw first; the
    # prompt names it among the moves.
    out = io.StringIO()
    deal = Deal.new(BURACO, seed=3)
    first = deal.to_move
    assert first is not None
    run_play(io.StringIO("draw\nquit\n"), out, seed=3, seat=first, rules=BURACO)
    text = out.getvalue()
    # The prompt names the moves listed: no take from the empty pile (Z2.1), no add
    # with no meld on the table.
    assert "Your move (draw):" in text and "draw or take" not in text
    assert "Your move (redraw, meld or discard):" in text
    assert "  1. redraw" in text


def test_the_help_names_the_moves_of_the_rule_set_only() -> None:
    """``biriba play``'s help named ``redraw`` (Z2.2) and ``kozi H`` (V1) under every
    rule set; each is named only where the rule set has it."""
    plain = help_for(BIRIBA)
    assert "redraw" not in plain and "kozi" not in plain and "discard 7H" in plain
    assert "redraw" in help_for(BURACO) and "kozi" not in help_for(BURACO)
    kozi = help_for(RuleSet.named("biriba-kozi"))
    assert "kozi H" in kozi and "redraw" not in kozi
    out = io.StringIO()
    run_play(io.StringIO("help\nquit\n"), out, seed=1)
    assert out.getvalue().count(plain) == 2  # at the start, and asked for


def test_the_prompt_names_the_kinds_of_move_listed() -> None:
    """``biriba play`` asked "draw or take" at every draw, also where the pile could not
    be taken, and "meld, add or discard" with no meld to add to: it now names what the
    legal moves offer."""

    def named(*texts: str) -> str:
        return choices(tuple(Move.parse(text) for text in texts))

    assert named("draw", "take") == "draw or take"
    assert named("draw") == "draw"
    assert named("take", "pass") == "take or pass"
    assert named("redraw", "discard 7H", "meld 3H 4H 5H", "add 0 6H") == (
        "redraw, meld, add or discard"
    )
    assert named("kozi C", "kozi D", "kozi H", "kozi S") == "name the bonus suit"


def test_play_stops_cleanly_when_input_ends_or_quits() -> None:
    out = io.StringIO()
    assert run_play(io.StringIO(""), out, seed=3) == 1
    assert "Input ended" in out.getvalue()
    out = io.StringIO()
    assert run_play(io.StringIO("quit\n"), out, seed=3) == 1
    assert "You left the table." in out.getvalue()


def test_greedy_does_not_take_a_pile_it_could_not_meld_from() -> None:
    # J♣ would make J♣ J♦ J♠, but laying it would leave 2♦ alone with no biriba to
    # receive the reserve (B4.5): taking would meld nothing, and with the stock empty
    # the take-discard-pass cycle would never end.
    deal = Deal.from_dict(
        position(hands={1: "2D JD JS"}, to_move=1, phase="draw", stock="", discard="JC")
    )
    assert deal.is_legal("take")
    assert str(GreedyBot(seed=0).choose(deal.view(1))) == "pass"
    assert str(MonteCarloBot(seed=0, iterations=1).choose(deal.view(1))) == "pass"


def test_the_heuristic_asks_the_rule_set_which_cards_are_wild() -> None:
    """A two is a substitute the bots guard under biriba, an ordinary card without wild
    twos: the danger of discarding it drops by the substitute's share."""
    plain = BIRIBA.evolve(name="no-wild-twos", twos_wild=False)
    two = Card.parse("2C")
    dangers = []
    for rules in (BIRIBA, plain):
        view = Deal.new(rules, seed=5).view(1)
        dangers.append(discard_danger(two, view, Counter(view.hand)))
    assert dangers[0] - dangers[1] >= 50


@pytest.mark.parametrize(
    "kwargs",
    [{"iterations": "3"}, {"candidates": 2.5}, {"horizon": None}, {"time_limit": "1"}],
)
def test_monte_carlo_arguments_of_the_wrong_type_raise_type_error(kwargs: dict[str, Any]) -> None:
    with pytest.raises(TypeError, match=next(iter(kwargs))):
        MonteCarloBot(**kwargs)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"iterations": 0},
        {"candidates": -1},
        {"horizon": 0},
        {"time_limit": 0},
        # A search that would never end, or that would never prune: None says so.
        {"time_limit": math.inf},
        {"time_limit": math.nan},
        {"time_limit": 10**400},  # no float holds it: the clock's sum would overflow
        {"prune": math.inf},
        {"prune": -1.0},
        {"prune": -(10**5000)},  # quoted as an excerpt, not written out
    ],
)
def test_monte_carlo_arguments_out_of_range_raise_biriba_error(kwargs: dict[str, Any]) -> None:
    with pytest.raises(BiribaError, match=next(iter(kwargs))):
        MonteCarloBot(**kwargs)


def test_play_deal_checks_its_bots() -> None:
    with pytest.raises(TypeError, match=r"bots\[0\] is not a bot"):
        play_deal(Deal.new(seed=1), [None] * 4)  # type: ignore[list-item]
    with pytest.raises(TypeError):
        play_deal(Deal.new(seed=1), RandomBot())  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        play_deal("deal", [RandomBot()] * 4)  # type: ignore[arg-type]
    with pytest.raises(BiribaError, match="max_moves"):
        play_deal(Deal.new(seed=1), [RandomBot()] * 4, max_moves=0)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"workers": 0}, BiribaError),
        ({"workers": -2}, BiribaError),
        ({"workers": "2"}, TypeError),
        ({"seed": 1.5}, TypeError),
        ({"executor": "pool"}, TypeError),
        ({"progress": 3}, TypeError),
        ({"max_deals_per_match": 0}, BiribaError),
        ({"max_deals_per_match": "3"}, TypeError),
        ({"deals": "3"}, TypeError),
        ({"deals": 0}, BiribaError),
        ({"deals": 2.0}, TypeError),
    ],
)
def test_simulate_arguments_are_checked(kwargs: dict[str, Any], error: type[Exception]) -> None:
    with pytest.raises(error) as caught:
        simulate(["greedy", "random"], **{"deals": 1, **kwargs})
    assert type(caught.value) is error


@pytest.mark.parametrize("bot", [RandomBot(1), GreedyBot(1), MonteCarloBot(1, iterations=1)])
def test_B4_1_a_bot_is_given_a_view_of_the_seat_to_move(bot: Any) -> None:
    """A bot's choose takes a PlayerView (TypeError for anything else, a Deal included),
    of the seat to move (B4.1), in a deal not over (err.rule the rule that ended it)."""
    deal = Deal.new(seed=5)
    name = type(bot).__name__
    for wrong in (None, deal, "draw"):
        with pytest.raises(TypeError, match=rf"{name}\.choose expects a PlayerView"):
            bot.choose(wrong)
    waiting = (deal.dealer + 2) % 4
    with pytest.raises(BiribaError, match=f"seat {waiting} is not to move") as caught:
        bot.choose(deal.view(waiting))
    assert caught.value.rule == "B4.1"
    play_deal(deal, [RandomBot(s) for s in range(4)])
    with pytest.raises(BiribaError, match="the deal is over") as caught:
        bot.choose(deal.view(0))
    assert caught.value.rule == "B7.1"  # closed or passed out, B7.1 ends the deal
    # A view built by hand that leaves the seat to move no move (no deal gives one).
    start = Deal.new(seed=5)
    start.play("draw")
    assert start.to_move is not None
    handless = attrs.evolve(start.view(start.to_move), hand=())
    with pytest.raises(BiribaError, match="no legal move") as caught:
        bot.choose(handless)
    assert caught.value.rule == "B4.5"
    buraco = play_deal(Deal.new(BURACO, seed=5), [RandomBot(s) for s in range(4)])
    with pytest.raises(BiribaError, match="the deal is over") as caught:
        bot.choose(buraco.view(1))
    assert caught.value.rule == ("Z4.2" if buraco.closed_by is not None else "Z4.3")


def test_bots_take_integers_and_numbers_of_other_types_and_seeds_as_deals_do() -> None:
    half = Fraction(1, 2)  # a real number of another type
    bot = MonteCarloBot(iterations=IntLike(5), horizon=IntLike(5), time_limit=half, prune=half)  # type: ignore[arg-type]
    assert (bot.iterations, bot.horizon, bot.time_limit, bot.prune) == (5, 5, 0.5, 0.5)
    assert type(bot.iterations) is int and type(bot.time_limit) is float
    for make in (RandomBot, GreedyBot, MonteCarloBot):
        with pytest.raises(TypeError, match="seed must be an int, a str or None"):
            make(1.5)  # type: ignore[arg-type]
        with pytest.raises(BiribaError, match="at most 1,000 digits"):
            make(10**1001)


def test_monte_carlo_repr_names_its_budget_and_horizon() -> None:
    assert repr(MonteCarloBot(iterations=4, horizon=12)) == (
        "MonteCarloBot(iterations=4, candidates=3, horizon=12, prune=2.0)"
    )
    assert repr(MonteCarloBot(time_limit=0.5, prune=None)) == (
        "MonteCarloBot(time_limit=0.5, candidates=3, horizon=30, prune=None)"
    )


def test_simulate_names_a_partial_factory_by_its_function_and_arguments() -> None:
    result = simulate(
        [functools.partial(MonteCarloBot, iterations=1, horizon=5), functools.partial(GreedyBot)],
        deals=1,
        workers=1,
    )
    assert result.names == ("MonteCarloBot(iterations=1, horizon=5)", "GreedyBot")
    # An argument of any size is quoted as an excerpt.
    huge = functools.partial(lambda seed, x: RandomBot(seed), x=10**5000)
    result = simulate([huge, "random"], deals=1, workers=1)
    assert result.names[0] == "<lambda>(x=an integer of 5001 digits)"
    with pytest.raises(BiribaError, match="deals must be at most 1,000,000,000"):
        simulate(["random", "random"], deals=10**12)


def test_simulate_checks_workers_and_that_the_bots_can_go_to_worker_processes() -> None:
    with pytest.raises(BiribaError, match="workers must be at most 256"):
        simulate(["random", "random"], deals=1, workers=10**30)

    def local_factory(seed: str) -> Bot:
        return RandomBot(seed)

    # A local function cannot be pickled to a worker: said before any process starts
    # (was a PicklingError from the pool); in this process it plays.
    for factory in (local_factory, lambda seed: RandomBot(seed)):
        with pytest.raises(TypeError, match="picklable"):
            simulate([factory, "random"], deals=1, workers=2)
        with ProcessPoolExecutor(1) as pool, pytest.raises(TypeError, match="picklable"):
            simulate([factory, "random"], deals=1, executor=pool)
        assert simulate([factory, "random"], deals=1, workers=1).games == 1


def test_simulation_results_check_the_bot_asked_about() -> None:
    result = simulate(["random", "random"], deals=2, workers=1)
    for method in (result.win_rate, result.mean_score, result.confidence_interval):
        with pytest.raises(BiribaError, match=r"bot 5 is out of range 0\.\.1"):
            method(5)
        with pytest.raises(TypeError):
            method(True)
    for z in (0, -1.0, math.inf, 10**5000):
        with pytest.raises(BiribaError, match="z must be a finite number more than 0"):
            result.confidence_interval(0, z)

    assert result.win_rate(IntLike(1)) == result.win_rate(1)  # type: ignore[arg-type]
    low, high = result.confidence_interval(0, 2.58)  # 99%: wider than 95%
    low95, high95 = result.confidence_interval(0)
    assert low <= low95 <= high95 <= high


def test_play_deal_checks_before_playing_and_keeps_what_it_played() -> None:
    deal = Deal.new(seed=1)
    deal.play("draw")
    before = deal.to_dict()
    with pytest.raises(BiribaError, match="needs 4 bots"):
        play_deal(deal, [RandomBot(0)])
    with pytest.raises(TypeError, match="is not a bot"):
        play_deal(deal, [RandomBot(0), None, RandomBot(2), RandomBot(3)])  # type: ignore[list-item]
    assert deal.to_dict() == before  # refused arguments: nothing played
    # The move cap, or a bot's illegal move, stops the deal where it stands: the moves
    # played before are kept, to be scored or taken back.
    with pytest.raises(BiribaError, match="did not end within 3 moves"):
        play_deal(deal, [RandomBot(i) for i in range(4)], max_moves=3)
    assert len(deal.history) == 4
    for _ in range(3):
        deal.undo()
    assert deal.to_dict() == before

    class Illegal:
        def choose(self, view: object) -> str:
            return "pass"  # not after the draw (B4.1)

    with pytest.raises(BiribaError, match=r"B4\.1"):
        play_deal(deal, [RandomBot(0), Illegal(), RandomBot(2), RandomBot(3)])  # type: ignore[list-item]
    assert deal.to_dict() == before  # seat 1 was to move: nothing was played


def test_the_heuristics_check_what_they_read() -> None:
    deal = Deal.new(seed=1)
    view = deal.view(1)
    rng = random.Random(0)
    for call in (
        lambda: table_of(view),  # type: ignore[arg-type]
        lambda: greedy_choice(deal, deal.legal_moves(), rng),  # type: ignore[arg-type]
        lambda: greedy_choice(view, {}, rng),  # type: ignore[arg-type]
        lambda: greedy_choice(view, view.legal_moves(), None),  # type: ignore[arg-type]
        lambda: pile_use(deal),  # type: ignore[arg-type]
        lambda: pile_use(view, "3"),  # type: ignore[arg-type]
        lambda: take_melds(None),  # type: ignore[arg-type]
        lambda: discard_danger(None, view),  # type: ignore[arg-type]
        lambda: moves_to_choose(view, 10**5000),  # type: ignore[arg-type]
    ):
        with pytest.raises(TypeError):
            call()
    with pytest.raises(BiribaError, match="no move to choose from"):
        greedy_choice(view, [], rng)
    assert greedy_choice(view, view.legal_moves(), rng) in view.legal_moves()
    assert greedy_choice(view, view.legal_moves(), random) in view.legal_moves()  # type: ignore[arg-type]
    assert greedy_choice(table_of(deal), deal.legal_moves(), rng) in deal.legal_moves()


def test_B1_2_a_table_of_another_kind_holding_more_copies_than_the_pack_is_refused() -> None:
    """The heuristics read any object with a view's attributes; one whose hand and pile
    hold more copies of a card than the pack (nine aces of clubs, diamonds and hearts
    under two decks) is refused with B1.2, where the meld enumerator, which trusts its
    counts, raised an IndexError from inside."""
    view = Deal.new(seed=1).view(1)
    aces = parse_cards("AC AC AC AD AD AD AH AH AH 5S")
    odd = SimpleNamespace(
        rules=view.rules,
        seat=view.seat,
        team=view.team,
        phase=view.phase,
        hand=aces,
        discard_pile=parse_cards("7D"),
        melds=view.melds,
        reserve_received=view.reserve_received,
        reserves_left=view.reserves_left,
    )
    refused = r"B1\.2: the table given to \w+ \(its hand and discard pile\) holds 3 copies "
    refused += r"of AC, the pack only 2"
    for call in (
        lambda: pile_use(odd),
        lambda: take_melds(odd),
        lambda: discard_danger(aces[0], odd),
    ):
        with pytest.raises(BiribaError, match=refused) as info:
            call()
        assert info.value.rule == "B1.2"
    # Within the pack, the same kind of table is read.
    fair = SimpleNamespace(**{**vars(odd), "hand": parse_cards("AC AD AH 5S 6S 7S")})
    assert pile_use(fair) == 0  # 7D goes to no meld of the hand
    assert pile_use(SimpleNamespace(**{**vars(fair), "discard_pile": parse_cards("8S")})) == 1
    with pytest.raises(TypeError, match="the table's rules are a RuleSet"):
        pile_use(SimpleNamespace(**{**vars(odd), "rules": "biriba"}))


def test_B7_1_the_heuristics_table_of_a_deal_that_is_over_names_the_rule_that_ended_it() -> None:
    over = play_deal(Deal.new(seed=2), [RandomBot(i) for i in range(4)])
    with pytest.raises(BiribaError, match=r"the deal is over \(B7\.1\)") as info:
        table_of(over)  # was an AssertionError
    assert info.value.rule == "B7.1"
