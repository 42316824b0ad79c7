"""A step's outcome goes on the declaration, turn or action that produced it, in every system."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.cli.commands import resolve_scenario
from core.fight.encounter import commands_for_scenario
from core.fight.log import replay
from core.model.scenario import parse_scenario
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


def test_the_heals_button_records_a_cure_on_the_spell_and_the_target_gets_hp_back(
        qtbot) -> None:  # type: ignore[no-untyped-def]
    """side-d6.spell.heals through the outcome panel: select the cure's step, 6, Heals."""
    from core.fight.encounter import add_entry, commands_for_scenario, set_round_field, start_round
    from core.play.session import EncounterSession
    from core.store import Store
    from desktop.encounter.workspace import EncounterWorkspace

    store = Store.open("sqlite://")
    campaign = store.campaigns.create("Greyhawk")
    session = EncounterSession.start(store, campaign.id, "Cure", "side-d6")
    document = {"system": "side-d6", "combatants": [
        {"id": "f", "name": "Brannoc", "side": "party", "hp": 4, "max_hp": 9},
        {"id": "c", "name": "Ysolde", "side": "party", "hp": 7,
         "spells": [{"name": "cure light wounds", "level": 1, "casting_time": 5}]},
        {"id": "o", "name": "Orc 1", "side": "monsters", "hp": 5}]}
    for command in commands_for_scenario(document)[1:]:
        session.execute(command)
    session.execute(start_round(1))
    session.execute(add_entry("declarations", {"actor": "c", "action": "spell",
                                               "spell": "cure light wounds", "target": "f"}))
    session.execute(set_round_field("initiative", {"party": 3, "monsters": 1}))
    workspace = EncounterWorkspace(session)
    qtbot.addWidget(workspace)
    effect = next(s for s in workspace.controller.resolution.steps
                  if str(s.event) == "spell-takes-effect")
    workspace.select_step(effect.seq)
    workspace.outcome.damage.setValue(6)
    assert workspace.outcome.heal_button.isEnabled()
    workspace.outcome.heal_button.click()
    assert workspace.controller.resolution.combatants["f"].hp == 9
    workspace.controller.stack.undo()
    assert workspace.controller.resolution.combatants["f"].hp == 4
    store.close()
