"""Bad input never escapes as a traceback: every parser is fuzzed with hypothesis.

Each parser may only answer with its value or its own error (which the app shows as one
line). The CLI is run in-process on fuzzed scenario files and must return an exit code. The
number of cases is counted in the reliability figures.
"""

from __future__ import annotations

import copy
import io
import json
import random
from contextlib import redirect_stderr, suppress
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.cli import commands as cli
from core.model.dice import DiceError, Roller, manual_roll, parse_dice
from core.model.scenario import ScenarioError, parse_scenario
from core.roster.files import RosterImportError, read_roster_file
from core.rules import UnknownSystemError, find_system
from tests.reliability import figures

SCENARIOS = sorted(Path(__file__).resolve().parents[1].glob("scenarios/*/*.json"))
VALID = [
    json.loads(p.read_text(encoding="utf-8")) for p in SCENARIOS if ".expected" not in p.name
]
KEYS = sorted(
    {"format", "system", "options", "seed", "combatants", "rounds", "actions", "id", "side",
     "hp", "ac", "weapons", "spells", "declarations", "turns", "actor", "action", "target",
     "segment", "surprise", "initiative", "dice", "roll", "name", "speed_factor", "level"}
)  # fmt: skip
FUZZ = settings(
    max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck), derandomize=False
)

scalars = (
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats()
    | st.text(max_size=12) | st.sampled_from(["side-d6", "addict", "popcorn", "time-units",
                                              "1d6", "d20+1", "pc", "monster", "party"])
)  # fmt: skip
json_ish = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5)
    | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6), inner, max_size=6),
    max_leaves=30,
)


def _paths(doc: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [here]
    if isinstance(doc, dict):
        for key, value in doc.items():
            found += _paths(value, (*here, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            found += _paths(value, (*here, i))
    return found


def mutated(doc: Any, seed: int, replacement: Any) -> Any:
    """Puts ``replacement`` at a random place of a copy of a valid document (or drops it)."""
    rng = random.Random(seed)
    doc = copy.deepcopy(doc)
    path = rng.choice(_paths(doc)[1:] or [()])
    if not path:
        return replacement
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    if rng.random() < 0.2 and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = replacement
    return doc


def check_scenario(document: Any) -> None:
    figures.add("fuzz cases: scenario documents")
    try:
        scenario = parse_scenario(document)
    except ScenarioError:
        return
    with suppress(ScenarioError, UnknownSystemError, DiceError):
        find_system(scenario.system).resolve(scenario, Roller.seeded(scenario.seed))


@FUZZ
@given(json_ish)
def test_arbitrary_json_documents_are_refused_as_scenarios_not_crashed_on(document: Any) -> None:
    check_scenario(document)


@FUZZ
@given(st.sampled_from(range(len(VALID))), st.integers(0, 2**32), json_ish)
def test_damaged_real_scenarios_resolve_or_are_refused(which: int, seed: int, value: Any) -> None:
    check_scenario(mutated(VALID[which], seed, value))


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(range(len(VALID))), st.integers(0, 2**32), json_ish,
       st.sampled_from(["json", "text", "bytes"]))  # fmt: skip
def test_the_simulate_command_answers_every_file_with_an_exit_code(
    tmp_path_factory: Any, which: int, seed: int, value: Any, form: str
) -> None:
    figures.add("fuzz cases: `python -m core simulate` files")
    path = tmp_path_factory.mktemp("sim") / "scenario.json"
    document = mutated(VALID[which], seed, value)
    if form == "json":
        path.write_text(json.dumps(document), encoding="utf-8")
    elif form == "text":
        path.write_text(json.dumps(document)[: seed % 200], encoding="utf-8")
    else:
        path.write_bytes(random.Random(seed).randbytes(seed % 64))
    err = io.StringIO()
    with redirect_stderr(err):
        code = cli.main(["simulate", str(path), *(["--json"] if seed % 2 else [])], io.StringIO())
    assert code in (0, cli.EXIT_BAD_INPUT)
    if code:
        assert err.getvalue().startswith("error: ") and "Traceback" not in err.getvalue()


dice_text = st.text(alphabet="0123456789dD+-*/ x%.", max_size=16) | st.text(max_size=16)


@FUZZ
@given(dice_text, st.integers(-(2**40), 2**40))
def test_dice_expressions_parse_or_say_why(text: str, total: int) -> None:
    figures.add("fuzz cases: dice expressions")
    try:
        expression = parse_dice(text)
    except DiceError as exc:
        assert str(exc)
        return
    assert expression.minimum <= Roller(random.Random(total)).roll(text).total <= expression.maximum
    with suppress(DiceError):
        manual_roll(text, total)


csv_text = st.lists(
    st.lists(st.text(alphabet=st.characters(codec="utf-8"), max_size=8) | st.sampled_from(
        ["name", "kind", "hp", "ac", "weapons", "spells", "pc", "[1,", '"', "[]", "12"]),
        max_size=6),
    max_size=6,
).map(lambda rows: "\n".join(",".join(r) for r in rows))  # fmt: skip


@FUZZ
@given(st.one_of(json_ish.map(json.dumps), csv_text, st.text(max_size=80)),
       st.sampled_from(["roster.json", "roster.csv"]))  # fmt: skip
def test_roster_import_files_load_or_name_the_bad_field(text: str, name: str) -> None:
    figures.add("fuzz cases: roster import files")
    try:
        read_roster_file(name, text)
    except RosterImportError as exc:
        assert str(exc)
