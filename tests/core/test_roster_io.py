"""Roster import/export: round trips, specific refusals, and fuzzed files that only ever raise
RosterImportError."""

import contextlib
import json
import re
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.roster.files import (
    RosterImportError,
    read_roster_csv,
    read_roster_json,
    write_roster_csv,
    write_roster_json,
)
from core.roster.sample import load_sample


def sample_roster() -> list:  # type: ignore[type-arg]
    _, roster, _ = load_sample()
    return [replace(e, id=i + 1, reaction_adj=1 if i == 0 else None) for i, e in enumerate(roster)]


@pytest.mark.parametrize(("write", "read"), [(write_roster_json, read_roster_json), (write_roster_csv, read_roster_csv)])  # noqa: E501
def test_the_roster_round_trips(write, read) -> None:  # type: ignore[no-untyped-def]
    roster = sample_roster()
    assert read(write(roster)) == [replace(e, id=None) for e in roster]


def test_a_scenario_file_imports_its_combatants() -> None:
    doc = {"format": "combatdesk/scenario-1", "combatants": [
        {"id": "h", "side": "party", "name": "Halvaine", "dex": 16, "spells": [{"name": "Web"}]},
        {"id": "orc-1", "side": "monsters", "hp": 5},
    ]}  # fmt: skip
    first, second = read_roster_json(json.dumps(doc))
    assert (first.name, first.dex, first.spells[0].name) == ("Halvaine", 16, "Web")
    assert (second.name, second.kind, second.side) == ("orc-1", "monster", "monsters")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"combatants": [{"name": "A"}, {"name": "B", "hp": "x"}]}', "entry 2 (B), field hp"),
        ('{"combatants": [{"name": "A", "hp": 9, "max_hp": 4}]}', "HP cannot exceed max HP 4"),
        ('{"combatants": [{"name": "A", "status": "sleepy"}]}', "field status"),
        ('{"combatants": [1, 2', "line 1, column"),
        ('{"roster": []}', "combatants: expected a list"),
    ],
)
def test_json_refusals_name_the_place_and_reason(text: str, message: str) -> None:
    with pytest.raises(RosterImportError, match=re.escape(message)):
        read_roster_json(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name,dex\nA,12\nB,abc\n", "line 3, column dex: 'abc' is not a whole number"),
        ("name,wings\nA,2\n", "unknown column 'wings'"),
        ("dex\n12\n", "a 'name' column is needed"),
        ("name,kind\nA,dragon\n", "line 2, column kind"),
        ("name,weapons\nA,[{\"speed_factor\": 2}]\n", "weapons"),
        ("name\nA,extra\n", "more values than columns"),
        ("", "empty"),
    ],
)
def test_csv_refusals_name_the_line_and_column(text: str, message: str) -> None:
    with pytest.raises(RosterImportError, match=message.replace("[", r"\[")):
        read_roster_csv(text)


KEYS = ["name", "hp", "max_hp", "dex", "kind", "side", "status", "weapons",
        "spells", "level", "attacks", "id", "str", "notes", "ac"]  # fmt: skip
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=5), inner, max_size=6),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_fuzzed_json_only_ever_raises_import_errors(value: object) -> None:
    for document in (value, {"combatants": [value]}, {"combatants": value}):
        try:
            text = json.dumps(document)
        except ValueError:
            return
        with contextlib.suppress(RosterImportError):
            read_roster_json(text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200), st.lists(st.sampled_from(
    ["name", "hp", "max_hp", "dex", "kind", "status", "weapons", "spells", "level", "class"]),
    min_size=1, max_size=5, unique=True))  # fmt: skip
def test_fuzzed_csv_only_ever_raises_import_errors(body: str, header: list[str]) -> None:
    try:
        read_roster_csv(",".join(header) + "\n" + body)
        read_roster_csv(body)
    except RosterImportError:
        pass


@pytest.mark.parametrize(("name", "text", "message"), [
    ("digits.json", '[{"name": "A", "kind": "pc", "hp": ' + "9" * 5000 + "}]",
     "longer than 4,300 digits"),
    ("surrogate.json", '[{"name": "Bad\\ud800name", "kind": "pc"}]', "broken character"),
    ("notes.json", '[{"name": "A", "kind": "pc", "notes": "' + "x" * 100_001 + '"}]',
     "Notes are at most 100,000 characters"),
    ("unclosed.csv", 'name,kind,notes\nAlda,pc,"the rest of the file\nBorin,pc,fine\n',
     "never closed"),
])
def test_hostile_import_files_get_a_message_not_a_traceback(name: str, text: str,
                                                            message: str) -> None:
    from core.roster.files import read_roster_document

    with pytest.raises(RosterImportError, match=message) as caught:
        read_roster_document(name, text)
    str(caught.value).encode("utf-8")  # the message itself can always be shown


def test_csv_export_neutralises_formulas_and_reads_back_unchanged() -> None:
    from core.roster.entries import RosterEntry
    from core.roster.files import read_roster_document, write_roster_csv

    sly = RosterEntry(name="=HYPERLINK(\"http://x\",\"Pip\")", notes="+1 sword; -2 AC; @home",
                      race="-")
    text = write_roster_csv([sly])
    line = text.splitlines()[1]
    assert "'=HYPERLINK" in line and "'+1 sword" in line
    assert ",=" not in line and ',"=' not in line
    (back,) = read_roster_document("roster.csv", text).entries
    assert (back.name, back.notes, back.race) == (sly.name, sly.notes, sly.race)
