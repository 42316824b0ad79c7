"""A step's outcome goes on the declaration, turn or action that produced it, in every system."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.cli import resolve_scenario
from core.encounter import commands_for_scenario
from core.log import replay
from core.scenario import parse_scenario
from desktop.encounter.step_entries import EntryRef, entry_for_step
from desktop.resolution.step_identity import step_source

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def _fighter_three_times() -> dict[str, Any]:
    cast = [{"id": "brannoc", "name": "Brannoc", "side": "party", "hp": 20},
            {"id": "orc", "name": "Orc", "side": "monsters", "hp": 20}]
    actions = [{"actor": "brannoc", "action": "melee", "target": "orc", "roll": r}
               for r in (4, 5, 6)]
    actions.insert(1, {"actor": "orc", "action": "melee", "target": "brannoc", "roll": 3})
    return {"format": "combatdesk/scenario-1", "system": "time-units", "combatants": cast,
            "actions": actions}


def test_time_units_second_and_third_actions_record_on_themselves() -> None:
    # time-units.initiative.next-from-completion: each action follows the one before, so the
    # three identical "melee → orc" actions are told apart only by where they came from.
    document = _fighter_three_times()
    state = replay(commands_for_scenario(document))
    steps = [s for s in resolve_scenario(parse_scenario(document)).steps
             if s.actor == "brannoc"]
    found = [entry_for_step(state, s) for s in steps]
    assert all(isinstance(f, EntryRef) for f in found)
    assert [f.index for f in found if isinstance(f, EntryRef)] == [0, 2, 3]


@pytest.mark.parametrize("name", [
    "addict/winner-first-letter-order", "addict/surprise-segments-spell-carries-over",
    "side-d6/halvaine-example", "popcorn/effect-durations-alice-example",
])
def test_every_system_names_the_source_of_an_actors_step(name: str) -> None:
    document = json.loads((SCENARIOS / f"{name}.json").read_text())
    scenario = parse_scenario(document)
    resolution = resolve_scenario(scenario)
    acting = [s for s in resolution.steps
              if str(s.event) in ("attacks", "hits", "misses", "begins-casting")]
    assert acting
    for step in acting:
        assert step_source(step) is not None, step
    # The source stays out of the resolution JSON: the output format is unchanged.
    assert all("source" not in s for s in resolution.to_json()["steps"])
