"""The command line: ``simulate FILE [--json]``, ``summary FILE``, ``rules`` and ``access``.

Every failure a user can cause prints one line naming the file, field and reason and exits
non-zero; a traceback here is a bug.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from core.cli.access import add_parser as add_access_parser
from core.model.dice import DiceError, Roller
from core.model.limits import MAX_FILE_BYTES, size_problem
from core.model.scenario import Scenario, ScenarioError, parse_scenario
from core.model.values import Resolution
from core.printout.report import format_resolution, rules_markdown
from core.rules import UnknownSystemError, find_system

EXIT_BAD_INPUT = 2


class InputError(Exception):
    """A user-supplied file cannot be used; the message says why."""


def load_scenario(path: Path) -> Scenario:
    """Reads and validates a scenario file, turning every failure into :class:`InputError`."""
    try:
        if path.is_file() and path.stat().st_size > MAX_FILE_BYTES:
            raise InputError(f"{path}: larger than {MAX_FILE_BYTES // 2**20} MiB; not a scenario")
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read ({exc})") from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{path}: not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from None
    except RecursionError:
        raise InputError(f"{path}: nested too deeply to be a scenario") from None
    except ValueError:  # Python refuses to read a number of more than 4,300 digits
        raise InputError(f"{path}: holds a number too long to be read (over 4,300 digits)") \
            from None
    problem = size_problem(document)
    if problem is not None:
        raise InputError(f"{path}: {problem}")
    try:
        return parse_scenario(document)
    except ScenarioError as exc:
        raise InputError(f"{path}: {exc}") from None


def resolve_scenario(scenario: Scenario) -> Resolution:
    """Resolves a scenario with its system, rolling missing dice from its seed."""
    system = find_system(scenario.system)
    resolution: Resolution = system.resolve(scenario, Roller.seeded(scenario.seed))
    return resolution


def _simulate(args: argparse.Namespace, out: TextIO) -> int:
    path = Path(args.file)
    try:
        scenario = load_scenario(path)
        resolution = resolve_scenario(scenario)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (ScenarioError, UnknownSystemError, DiceError) as exc:
        where = "system" if isinstance(exc, UnknownSystemError) else ""
        print(f"error: {path}: {where + ': ' if where else ''}{exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.json:
        json.dump(resolution.to_json(), out, indent=2)
        out.write("\n")
    else:
        out.write(format_resolution(resolution))
    return 0


def _summary(args: argparse.Namespace, out: TextIO) -> int:
    from core.printout.html import render_html
    from core.printout.summary import SummaryError, build_summary

    path = Path(args.file)
    try:
        scenario = load_scenario(path)
        resolution = resolve_scenario(scenario)
        html = render_html(build_summary(scenario, resolution, args.round))
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except SummaryError as exc:
        print(f"error: --round: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (ScenarioError, UnknownSystemError, DiceError) as exc:
        where = "system" if isinstance(exc, UnknownSystemError) else ""
        print(f"error: {path}: {where + ': ' if where else ''}{exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.html is None:
        out.write(html)
        return 0
    try:
        Path(args.html).write_text(html, encoding="utf-8")
    except OSError as exc:
        print(f"error: {args.html}: cannot write ({exc.strerror or exc})", file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0


def _rules(args: argparse.Namespace, out: TextIO) -> int:
    out.write(rules_markdown())
    return 0


def build_parser() -> argparse.ArgumentParser:
    """Builds the argument parser (shared with the desktop app's pass-through)."""
    parser = argparse.ArgumentParser(prog="python -m core", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="resolve a combatdesk/scenario-1 file")
    sim.add_argument("file", help="scenario JSON file")
    sim.add_argument("--json", action="store_true", help="print a combatdesk/resolution-1 document")
    sim.set_defaults(run=_simulate)
    summary = sub.add_parser(
        "summary", help="write the printable round summary of a scenario as one HTML file"
    )
    summary.add_argument("file", help="scenario JSON file")
    summary.add_argument(
        "--html", metavar="OUT.html", help="write the page here (default: print it)"
    )
    summary.add_argument(
        "--round",
        type=int,
        metavar="N",
        help="summarise round N only (from 1); default: the whole encounter",
    )
    summary.set_defaults(run=_summary)
    rules = sub.add_parser("rules", help="print the rule catalogue as Markdown (docs/rules.md)")
    rules.set_defaults(run=_rules)
    add_access_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Runs the command line; returns the process exit code."""
    args = build_parser().parse_args(argv)
    run: Any = args.run
    code: int = run(args, out or sys.stdout)
    return code
