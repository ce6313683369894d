"""The ``biriba`` command line: ``play``, ``simulate``, ``validate``, ``replay``, ``rules`` and
``demo``.

Also available as ``python -m biriba``. Every command works with the core dependencies
alone.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final, TextIO

import attrs

from biriba.cards import DEFAULT_CARD_VALUES, Rank
from biriba.errors import BiribaError
from biriba.limits import excerpt, parse_json
from biriba.rules import FIELD_RULES, PRESET_DESCRIPTIONS, RuleSet, differing_fields
from biriba.version import __version__

__all__ = ["describe_rules", "load_rules", "main"]

#: The largest rule-set file ``--rules`` reads.
_MAX_RULES_FILE = 64 * 1024


def load_rules(text: str) -> RuleSet:
    """The rule set ``--rules`` names: a preset's name (``buraco``), or a JSON file holding
    a rule set's data (:meth:`RuleSet.to_dict <biriba.RuleSet.to_dict>`) or a preset's
    name as a JSON string."""
    if not text.lower().endswith(".json"):
        return RuleSet.named(text)
    path = Path(text)
    try:
        with path.open("rb") as handle:
            raw = handle.read(_MAX_RULES_FILE + 1)
    except OSError as error:
        raise BiribaError(f"cannot read {text[:80]}: {error.strerror}") from None
    if len(raw) > _MAX_RULES_FILE:
        raise BiribaError(f"{text[:80]} is larger than a rule set can be ({_MAX_RULES_FILE} bytes)")
    data = parse_json(raw, "rule set", BiribaError)  # its size and depth checked first
    if isinstance(data, str):
        return RuleSet.named(data)
    if not isinstance(data, dict):
        raise BiribaError(f"{text[:80]} must hold a rule set (a JSON object) or a preset's name")
    if "name" not in data:  # (a position or a record, say: tell which)
        kind = "a record" if "format" in data else "a position" if "hands" in data else ""
        raise BiribaError(
            f"{text[:80]} holds {kind or 'no rule set'}{', not a rule set' if kind else ''}: "
            "a rule set's file is RuleSet.to_dict() as JSON, with its 'name'"
        )
    return RuleSet.from_dict(data)


def describe_rules(rules: RuleSet) -> str:
    """How the command line names a rule set: its name, and for one that is not a preset
    unchanged, what it changes of the preset of its name (or that it is its own)."""
    if rules.is_preset:
        return repr(rules.name)
    try:
        preset = RuleSet.named(rules.name)
    except BiribaError:
        return f"{rules.name!r} (a rule set of its own, not a preset)"
    differ = differing_fields(rules, preset)
    if not differ:  # the preset's rules under another spelling of its name
        return f"{rules.name!r} (the preset {preset.name!r})"
    return f"{rules.name!r} (the preset {preset.name!r} with {', '.join(differ)} changed)"


def _demo(args: argparse.Namespace, out: TextIO) -> int:
    from biriba.demo import run_demo

    run_demo(seed=args.seed, out=out, rules=load_rules(args.rules))
    return 0


def _play(args: argparse.Namespace, out: TextIO) -> int:
    from biriba.terminal import run_play

    return run_play(sys.stdin, out, seed=args.seed, seat=args.seat, rules=load_rules(args.rules))


def _simulate(args: argparse.Namespace, out: TextIO) -> int:
    from biriba.simulate import simulate

    def progress(done: int, total: int) -> None:
        width = 30
        filled = width * done // total
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    rules = load_rules(args.rules)
    bots = args.bots or ["greedy"] + ["random"] * (rules.teams - 1)
    kind = {"matches": args.matches} if args.matches else {"deals": args.deals}
    # The bar redraws itself with carriage returns: only on a terminal, never into a log.
    shown = not args.quiet and sys.stderr.isatty()
    result = simulate(
        bots,
        rules=rules,
        seed=args.seed,
        workers=args.workers,
        progress=progress if shown else None,
        **kind,
    )
    print(f"rule set {describe_rules(rules)}", file=out)
    print(result.summary(), file=out)
    return 0


def _validate(args: argparse.Namespace, out: TextIO) -> int:
    from biriba import records
    from biriba.checking import check_move
    from biriba.deal import Deal
    from biriba.errors import InvalidPositionError
    from biriba.limits import MAX_JSON, parse_json

    rules = None if args.rules is None else load_rules(args.rules)
    try:
        with open(args.file, "rb") as handle:
            raw = handle.read(4 * MAX_JSON + 1)
    except OSError as error:
        print(f"biriba: cannot read {args.file[:80]}: {error.strerror}", file=sys.stderr)
        return 2
    try:
        data: object = parse_json(raw, "position or record", InvalidPositionError)
    except BiribaError as error:
        if args.move is None:
            return _report(out, args.json, {"valid": False, "error": "json", "reason": str(error)})
        data = None  # check_move gives the verdict on text that is not JSON
    if isinstance(data, dict) and data.get("format") == records.FORMAT:
        if args.move is not None:
            print(
                "biriba: --move checks a move against a position, and this file is a "
                "record: leave --move out to replay it",
                file=sys.stderr,
            )
            return 2
        try:
            replayed = records.replay(records.from_dict(data), rules)
        except BiribaError as error:
            reason = str(error).removeprefix("invalid record: ")
            return _report(
                out,
                args.json,
                {"valid": False, "error": "record", "rule": error.rule, "reason": reason},
                f"invalid record: {reason}",
            )
        kind = type(replayed).__name__.lower()
        return _report(
            out,
            args.json,
            {"valid": True, "kind": kind},
            f"valid record: every move replays ({kind})",
        )
    if args.move is not None:
        # The file's text itself, as a program would send it: whatever it holds (not
        # JSON, JSON that is not an object), the verdict is check_move's.
        verdict = check_move(raw, args.move, rules=rules)
        if args.json:
            print(json.dumps(verdict.to_dict()), file=out)
        elif verdict.legal:
            print(f"legal: {verdict.move}", file=out)
        else:
            # The rules refuse the move (or its cards form no meld), or the input is bad.
            bad_input = verdict.error in ("notation", "position")
            print(f"{'invalid' if bad_input else 'illegal'}: {verdict.reason}", file=out)
        return 0 if verdict.legal else 1
    try:
        if not isinstance(data, dict):
            raise InvalidPositionError("invalid position: a position is a JSON object")
        deal = Deal.from_dict(data, rules)
    except BiribaError as error:
        return _report(
            out,
            args.json,
            {"valid": False, "error": "position", "rule": error.rule, "reason": str(error)},
        )
    moves = [str(m) for m in deal.legal_moves()]
    return _report(
        out,
        args.json,
        {"valid": True, "legal_moves": moves},
        f"valid position; legal moves: {', '.join(moves) or 'none: the deal is over'}",
    )


def _report(out: TextIO, as_json: bool, answer: dict[str, object], text: str = "") -> int:
    """Print ``answer`` as JSON, or as ``text`` (default: its reason); 0 if it is valid."""
    print(json.dumps(answer) if as_json else text or str(answer["reason"]), file=out)
    return 0 if answer["valid"] else 1


def _replay(args: argparse.Namespace, out: TextIO) -> int:
    from biriba import records
    from biriba.replay_page import write_replay_html

    try:
        with open(args.file, encoding="utf-8") as fp:
            record = records.load(fp)
    except OSError as error:
        print(f"biriba: cannot read {args.file[:80]}: {error.strerror}", file=sys.stderr)
        return 2
    # (a page that cannot be written is a RecordError, which main() reports)
    write_replay_html(record, args.html, bottom=args.bottom)
    print(f"wrote {args.html}: open it in a browser, step with the arrow keys", file=out)
    return 0


def _rules(args: argparse.Namespace, out: TextIO) -> int:
    if args.name is None:
        print("The presets (biriba rules NAME prints one; --rules NAME or FILE.json", file=out)
        print("chooses one for play, simulate, demo and validate):", file=out)
        for name in RuleSet.preset_names():
            print(f"  {name:<18} {PRESET_DESCRIPTIONS[name]}", file=out)
        return 0
    rules = load_rules(args.name)
    print(f"rule set {describe_rules(rules)}", file=out)
    if rules.is_preset:
        print(f"  {PRESET_DESCRIPTIONS[rules.name]}", file=out)
    rows = [
        (field.name, _shown(field.name, getattr(rules, field.name)))
        for field in attrs.fields(RuleSet)
        if field.init and field.name != "name"
    ]
    width = max(len(shown) for _, shown in rows)
    for name, shown in rows:
        print(f"  {name:<28} {shown:<{width}}  {FIELD_RULES[name]}", file=out)
    return 0


def _shown(name: str, value: object) -> str:
    """A rule set's field as ``biriba rules`` prints it: an enumeration by its value, the
    card values by rank (``A:15 2:10 …``, or ``B8.1 values`` for B8.1's own)."""
    if name == "card_values" and isinstance(value, tuple):
        if value == DEFAULT_CARD_VALUES:
            return "B8.1 values"
        return " ".join(f"{Rank(r)}:{v}" for r, v in enumerate(value) if r)
    return str(getattr(value, "value", value))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="biriba", description="Biriba, the Greek partnership rummy game, and Buraco."
    )
    parser.add_argument("--version", action="version", version=f"biriba {__version__}")
    sub = parser.add_subparsers(dest="command")
    rules_help = "a preset's name (biriba rules lists them) or a rule set's FILE.json"
    demo = sub.add_parser("demo", help="play a whole seeded deal between bots")
    demo.add_argument("--seed", type=_whole, default=2026, help="the seed (default 2026)")
    demo.add_argument("--rules", default="biriba", help=rules_help)
    demo.set_defaults(func=_demo)
    play = sub.add_parser("play", help="play a deal against bots in the terminal")
    play.add_argument("--seed", type=_whole, default=None, help="the deal's seed")
    play.add_argument("--seat", type=_whole, default=0, help="your seat (default 0)")
    play.add_argument("--rules", default="biriba", help=rules_help)
    play.set_defaults(func=_play)
    simulate = sub.add_parser("simulate", help="bot against bot, with a summary table")
    simulate.add_argument(
        "--bots",
        nargs="+",
        default=None,
        metavar="BOT",
        help="one per team, each random, greedy or montecarlo (default: greedy, then random)",
    )
    simulate.add_argument("--rules", default="biriba", help=rules_help)
    games = simulate.add_mutually_exclusive_group()
    games.add_argument(
        "--deals", type=_at_least_one, default=100, help="single deals (default 100)"
    )
    games.add_argument("--matches", type=_at_least_one, default=None, help="whole matches instead")
    simulate.add_argument("--seed", default="0", help="the seed (default 0)")
    simulate.add_argument(
        "--workers", type=_at_least_one, default=None, help="processes (default: all)"
    )
    simulate.add_argument("--quiet", action="store_true", help="no progress bar")
    simulate.set_defaults(func=_simulate)
    validate = sub.add_parser("validate", help="replay a record, or check a position and a move")
    validate.add_argument("file", help="a record or a position, as JSON")
    validate.add_argument("--move", default=None, help="a move to check against the position")
    validate.add_argument(
        "--json", action="store_true", help="answer as JSON (a move's verdict: check_move's)"
    )
    validate.add_argument(
        "--rules", default=None, help="the rule set the position must be of (NAME or FILE.json)"
    )
    validate.set_defaults(func=_validate)
    replay = sub.add_parser("replay", help="a record as a web page that steps through it")
    replay.add_argument("file", help="a deal or match record, as JSON")
    replay.add_argument("--html", required=True, metavar="PAGE", help="the page to write")
    replay.add_argument("--bottom", type=_whole, default=0, help="the seat drawn at the bottom")
    replay.set_defaults(func=_replay)
    rules = sub.add_parser("rules", help="list the presets, or print one rule set")
    rules.add_argument("name", nargs="?", default=None, help="a preset's name or FILE.json")
    rules.set_defaults(func=_rules)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit code."""
    stream = out if out is not None else sys.stdout
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:  # a command is needed: say which there are
        parser.print_help(sys.stderr)
        return 2
    try:
        result: int = args.func(args, stream)
    except BrokenPipeError:  # the output was cut short (``| head``): not an error
        sys.stderr.close()
        return 0
    except BiribaError as error:
        print(f"biriba: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C: one line, and the shell's code for SIGINT
        print("\nbiriba: interrupted", file=sys.stderr)
        return 130
    return result


def _whole(text: str) -> int:
    """An argument that must be a whole number (a seed, a seat), quoted in short when it
    is not: one of more digits than Python reads (4,300) is said to be too long."""
    try:
        return int(text)
    except ValueError:
        if _DIGITS.fullmatch(text.strip()):
            raise argparse.ArgumentTypeError(
                f"{excerpt(text)} has too many digits for a whole number"
            ) from None
        raise argparse.ArgumentTypeError(f"{excerpt(text)} is not a whole number") from None


def _at_least_one(text: str) -> int:
    """An argument that must be a whole number of at least 1."""
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {excerpt(value)}")
    return value


#: A whole number's text: digits, with a sign.
_DIGITS: Final = re.compile(r"[+-]?[0-9]+")
