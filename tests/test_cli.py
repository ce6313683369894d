"""The command line: its version, its help, Ctrl-C, argument errors and ``validate``."""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import time
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import biriba
import biriba.version
from biriba import BiribaError, Deal, records
from biriba.cli import main
from biriba.simulate import simulate

from .helpers import position

#: Where the biriba these tests import lives (the sources, or an installed package), for a
#: subprocess to import the same one.
SOURCE = Path(biriba.__file__).resolve().parents[1]


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out)
    return code, out.getvalue()


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--version"])
    assert caught.value.code == 0
    assert capsys.readouterr().out == f"biriba {biriba.__version__}\n"


def test_the_package_metadata_reads_the_same_version() -> None:
    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    project = tomllib.loads(pyproject.read_text())
    assert "version" in project["project"]["dynamic"]
    attr = project["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    assert attr == "biriba.version.__version__"
    assert biriba.__version__ == biriba.version.__version__


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--workers", "0"],
        ["simulate", "--workers", "-3"],
        ["simulate", "--deals", "0"],
        ["simulate", "--matches", "x"],
    ],
)
def test_counts_below_one_are_argument_errors(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as caught:
        main(argv)
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert "at least 1" in err or "whole number" in err
    assert "Traceback" not in err


def test_a_long_list_of_bots_is_refused_by_its_count_at_once() -> None:
    """simulate() names an unknown bot before the count, looking at the first bots only:
    a list of any length is refused at once (looking at every name of a very long one
    took as long as the list)."""

    class Endless(Sequence[str]):
        def __len__(self) -> int:
            return 10**12

        def __getitem__(self, index: Any) -> Any:
            if isinstance(index, slice) or index >= 10**12:
                raise IndexError
            return "random"

    started = time.perf_counter()
    with pytest.raises(BiribaError, match="one bot per team: 2 under 'biriba', got 1000000000000"):
        simulate(Endless(), deals=1, workers=1)
    assert time.perf_counter() - started < 1


@pytest.mark.parametrize(
    ("bots", "message"),
    [
        (["chess", "random"], "no bot named 'chess'"),
        (["random"], "one bot"),
        # An unknown name is said as such whatever the count (the count was said first).
        (["foo"], "no bot named 'foo'"),
        (["random", "random", "chess"], "no bot named 'chess'"),
    ],
)
def test_wrong_bots_are_clear_errors(
    bots: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = run("simulate", "--bots", *bots, "--deals", "1", "--workers", "1", "--quiet")
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("biriba: ") and message in err and err.count("\n") == 1


def test_ctrl_c_exits_130_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import biriba.demo

    def interrupted(**kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(biriba.demo, "run_demo", interrupted)
    assert run("demo") == (130, "")
    assert capsys.readouterr().err.strip() == "biriba: interrupted"


def _wait_for_workers(pid: int, workers: int, settle: float, limit: float = 60.0) -> None:
    """Wait until process ``pid`` has ``workers`` child processes (its pool is up), read
    from ``/proc`` where there is one, for at most ``limit`` seconds, then ``settle``
    seconds more; elsewhere wait three seconds. (A fixed wait alone was too short on a
    loaded machine: the interrupt then fell while the program was still starting, before
    it handles one.)"""
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if not children.exists():
        time.sleep(3)
        return
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            if len(children.read_text().split()) >= workers:
                time.sleep(settle)
                return
        time.sleep(0.001)
    raise AssertionError(f"the pool of {workers} workers did not start within {limit} s")


def _default_interrupt() -> None:
    """In the child, before the program starts: Ctrl-C's default action."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _interrupt_simulation(settle: float) -> tuple[int, str, str]:
    """Ctrl-C to ``biriba simulate`` on two workers, ``settle`` seconds after its workers
    are made: its exit code, output and error output."""
    env = {**os.environ, "PYTHONPATH": f"{SOURCE}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    command = [sys.executable, "-m", "biriba", "simulate", "--deals", "100000", "--workers", "2"]
    command += ["--quiet"]
    # A process group of its own, as a shell gives a command: Ctrl-C reaches all of it.
    # And Ctrl-C's default action, which a test run in the background of a shell would
    # otherwise pass on as ignored (the program then rightly goes on).
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
        preexec_fn=_default_interrupt,
    )
    try:
        _wait_for_workers(process.pid, 2, settle)
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=30)
    finally:  # whatever happened (a pool that never stops), leave no process behind
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    return process.returncode, out, err


def test_ctrl_c_in_a_parallel_simulation_exits_130_with_one_line() -> None:
    code, out, err = _interrupt_simulation(0.5)  # the workers playing
    assert code == 130, err[-2000:]
    assert out == ""
    assert err.strip() == "biriba: interrupted"


@pytest.mark.skipif(
    not Path("/proc/self/task").exists() or not hasattr(signal, "pthread_sigmask"),
    reason="needs /proc to see the workers made, and Ctrl-C held back (POSIX)",
)
def test_ctrl_c_as_a_parallel_simulation_makes_its_workers_exits_130_with_one_line() -> None:
    """Ctrl-C the moment the workers are made, before they are set to leave it to the
    program: the same one line and 130. (Before, 15 tries in 20 went wrong: the program
    never stopped, or ended on "cannot join thread before it is started", or a worker
    printed a traceback.) Three tries: each went wrong three times in four."""
    for _ in range(3):
        code, out, err = _interrupt_simulation(0.0)
        assert (code, out, err.strip()) == (130, "", "biriba: interrupted"), err[-2000:]


def test_validate_a_move_on_a_record_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "record.json"
    records.dump(records.record_deal(Deal.new(seed=1)), path)
    code, out = run("validate", str(path), "--move", "draw")
    assert code == 2 and out == ""
    assert "--move" in capsys.readouterr().err


def test_validate_names_an_invalid_record_once(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    data = records.record_deal(Deal.new(seed=1)).to_dict()
    data["version"] = 99
    path.write_text(json.dumps(data))
    code, out = run("validate", str(path))
    assert code == 1
    assert out.startswith("invalid record: ") and out.count("invalid record") == 1


@pytest.mark.parametrize("move", ["add ² 9D", "add ٣ 9D", "meld " + "7H " * 5000])
def test_validate_a_strange_move_gives_a_verdict_not_a_traceback(
    tmp_path: Path, move: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position(hands={0: "9D 5H 7C"}, melds=(["3D 4D 5D"], []))))
    code, out = run("validate", str(path), "--move", move)
    assert code == 1 and out.startswith("invalid: ") and len(out) < 400
    assert capsys.readouterr().err == ""
    code, out = run("validate", str(path), "--move", move, "--json")
    assert code == 1
    assert json.loads(out)["error"] == "notation"


@pytest.mark.parametrize(
    ("move", "first_word"),
    [
        ("discard KS", "illegal"),  # B4.1: not in hand
        ("meld 3H 4H 9H", "illegal"),  # B3.2: no meld, which the rules refuse
        ("fold", "invalid"),  # no move
    ],
)
def test_validate_says_illegal_for_what_the_rules_refuse_and_invalid_for_bad_input(
    tmp_path: Path, move: str, first_word: str
) -> None:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position(hands={0: "9D 5H 7C"}, melds=(["3D 4D 5D"], []))))
    code, out = run("validate", str(path), "--move", move)
    assert code == 1 and out.startswith(f"{first_word}: ")
    path.write_text("[1, 2]")  # no position: the move is still read, the input is bad
    code, out = run("validate", str(path), "--move", "discard KS")
    assert code == 1 and out.startswith("invalid: ")


def test_validate_json_prints_check_move_s_verdict(tmp_path: Path) -> None:
    data = position(hands={0: "9D 5H 7C"}, melds=(["3D 4D 5D"], []))
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data))
    for move in ["discard 9D", "add 0 6D", "discard KS", "add 0 9D"]:
        code, out = run("validate", str(path), "--move", move, "--json")
        verdict = biriba.check_move(data, move)
        assert json.loads(out) == verdict.to_dict()
        assert code == (0 if verdict.legal else 1)
    code, out = run("validate", str(path), "--json")
    assert code == 0 and "discard 9D" in json.loads(out)["legal_moves"]
    path.write_text("[1, 2]")
    code, out = run("validate", str(path), "--json")
    assert code == 1 and json.loads(out)["error"] == "position"


@pytest.mark.parametrize(
    "text", ["[]", "5", "null", '"{}"', "{not json", json.dumps(json.dumps({"rules": "biriba"}))]
)
def test_validate_a_move_against_what_is_no_position_prints_check_move_s_verdict(
    tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # The file's text is what check_move reads: JSON that is not an object and text that
    # is not JSON give its verdict (error "position"), never a traceback.
    path = tmp_path / "position.json"
    path.write_text(text)
    code, out = run("validate", str(path), "--move", "draw", "--json")
    assert code == 1
    assert json.loads(out) == biriba.check_move(text, "draw").to_dict()
    assert json.loads(out)["error"] == "position"
    code, out = run("validate", str(path), "--move", "draw")
    assert code == 1 and out.startswith("invalid: ")
    assert capsys.readouterr().err == ""


def test_whole_number_arguments_are_quoted_in_short(capsys: pytest.CaptureFixture[str]) -> None:
    # argparse's own int type quoted the whole text (5,000 digits), and read an int of more
    # digits than Python prints as "not a whole number".
    long_digits = "9" * 5000
    for argv, said in (
        (["demo", "--seed", long_digits], "has too many digits for a whole number"),
        (["play", "--seat", "x" * 300], "is not a whole number"),
        (["replay", "r.json", "--html", "r.html", "--bottom", long_digits], "too many digits"),
        (["simulate", "--deals", "-" + "9" * 4000], "must be at least 1, got an integer of"),
    ):
        with pytest.raises(SystemExit) as caught:
            main(argv)
        assert caught.value.code == 2
        error = capsys.readouterr().err
        assert said in error and len(error) < 600, error[-300:]


def test_simulate_refuses_absurd_workers_and_a_seed_that_is_no_text(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Were an OverflowError from the process pool and a UnicodeEncodeError from inside.
    code, _ = run("simulate", "--deals", "1", "--workers", "9" * 30, "--quiet")
    assert code == 2 and "workers must be at most 256" in capsys.readouterr().err
    code, _ = run("simulate", "--deals", "1", "--workers", "1", "--seed", "\udcff", "--quiet")
    assert code == 2 and "lone surrogate" in capsys.readouterr().err
