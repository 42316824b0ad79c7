"""A replayed encounter log gives the same resolution, for every scenario case of every system.

Each scenario file is split into the commands a DM would give; the log (with undone detours,
and after a round trip through a real SQLite store) must resolve exactly as the file does.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.cli.commands import resolve_scenario
from core.fight.encounter import commands_for_scenario, resolve_state, scenario_document
from core.fight.log import Command, EncounterLog, Event, EventKind
from core.model.dice import Roller
from core.model.scenario import parse_scenario
from core.store import Store

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
CASES = sorted(
    p for p in SCENARIOS.glob("*/*.json")
    if not p.name.endswith(".expected.json")
    and "error" not in json.loads(p.with_name(p.stem + ".expected.json").read_text())
)
IDS = [f"{p.parent.name}/{p.stem}" for p in CASES]


def _document(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def _from_file(document: dict[str, Any]) -> dict[str, Any]:
    return resolve_scenario(parse_scenario(document)).to_json()


def _from_log(log: EncounterLog) -> dict[str, Any]:
    seed = log.state.config.get("seed")
    return resolve_state(log.state, Roller.seeded(seed)).to_json()


@pytest.mark.parametrize("path", CASES, ids=IDS)
def test_the_log_built_from_a_scenario_resolves_like_the_file(path: Path) -> None:
    document = _document(path)
    log = EncounterLog(commands_for_scenario(document))
    assert _from_log(log) == _from_file(document)
    assert parse_scenario(scenario_document(log.state)).system == document["system"]


JUNK = Command("Set a detour", (Event(EventKind.SCENARIO_FIELD_SET,
                                      {"name": "distance", "value": 42}),))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CASES), st.lists(st.integers(0, 200), max_size=5))
def test_undone_detours_leave_no_trace_in_the_resolution(path: Path, spots: list[int]) -> None:
    document = _document(path)
    commands = commands_for_scenario(document)
    log = EncounterLog()
    for index, command in enumerate(commands):
        for _ in range(spots.count(index)):
            log.execute(JUNK)
            log.undo()
        log.execute(command)
    assert _from_log(log) == _from_file(document)
    assert _from_log(EncounterLog(log.commands)) == _from_file(document)


@pytest.mark.parametrize("system", sorted({p.parent.name for p in CASES}))
def test_an_encounter_reloaded_from_the_store_resolves_the_same(
    system: str, tmp_path: Path
) -> None:
    path = next(p for p in CASES if p.parent.name == system)
    document = _document(path)
    store = Store.open(f"sqlite:///{tmp_path / 'c.sqlite'}")
    campaign = store.campaigns.create("Replay")
    encounter = store.encounters.create(campaign.id, path.stem, system)
    for command in commands_for_scenario(document):
        store.commands.append(encounter.id, command)
    store.commands.append(encounter.id, JUNK)
    store.commands.undo(encounter.id)
    store.close()
    reopened = Store.open(f"sqlite:///{tmp_path / 'c.sqlite'}")
    log = EncounterLog(reopened.commands.load(encounter.id))
    reopened.close()
    assert _from_log(log) == _from_file(document)
