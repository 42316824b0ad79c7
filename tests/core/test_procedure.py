"""The stepper's phase follows play: each system's procedure read from the encounter's state."""

from __future__ import annotations

from typing import Any

from core.cli.commands import resolve_scenario
from core.fight.encounter import (
    add_entry,
    commands_for_scenario,
    scenario_document,
    set_field,
    set_round_field,
    start_round,
)
from core.fight.log import Command, EncounterState, replay
from core.fight.procedure import current_phase
from core.model.scenario import parse_scenario

PARTY = {"id": "brannoc", "name": "Brannoc", "side": "party", "hp": 24}
ORC = {"id": "orc-1", "name": "Orc 1", "side": "monsters", "hp": 6}


def setup(system: str, **fields: Any) -> list[Command]:
    return commands_for_scenario({"system": system, "combatants": [PARTY, ORC], **fields})


def phase(commands: list[Command]) -> str:
    state: EncounterState = replay(commands)
    try:
        resolution = resolve_scenario(parse_scenario(scenario_document(state)))
    except Exception:
        resolution = None
    return current_phase(state, resolution)


def test_side_d6_walks_surprise_declare_initiative_act() -> None:
    log = setup("side-d6")
    assert phase(log) == "surprise"
    log.append(set_field("surprise", {}))
    assert phase(log) == "surprise"  # the dice are asked for, not in
    log.append(set_field("surprise", {"party": 3, "monsters": 4}))
    assert phase(log) == "declare"
    log.append(start_round(1))
    assert phase(log) == "declare"
    log.append(add_entry("declarations", {"actor": "brannoc", "action": "melee",
                                          "target": "orc-1"}))
    assert phase(log) == "declare"  # the orc has not declared yet (issue 24)
    log.append(add_entry("declarations", {"actor": "orc-1", "action": "melee",
                                          "target": "brannoc"}))
    assert phase(log) == "initiative"
    log.append(set_round_field("initiative", {"party": 4, "monsters": 2}))
    assert phase(log) == "act"
    log.append(start_round(2))
    assert phase(log) == "declare"  # a new round is declared before its dice


def test_addict_waits_on_surprise_then_declarations_then_initiative() -> None:
    log = setup("addict")
    assert phase(log) == "addict.phase-1"
    log.append(set_field("surprise", {}))
    assert phase(log) == "addict.phase-2"
    log.append(set_field("surprise", {"party": 1, "monsters": 5}))
    assert phase(log) == "addict.phase-5"  # the party is surprised: surprise segments next
    log.append(start_round(1, {"surprise": True}))
    assert phase(log) == "addict.phase-5"
    log.append(start_round(2))
    assert phase(log) == "addict.phase-6"
    log.append(add_entry("declarations", {"actor": "orc-1", "action": "G",
                                          "target": "brannoc"}))
    assert phase(log) == "addict.phase-6"  # Brannoc still declares (issue 24)
    log.append(add_entry("declarations", {"actor": "brannoc", "action": "G",
                                          "target": "orc-1"}))
    assert phase(log) == "addict.phase-7"
    log.append(set_round_field("initiative", {"party": 3, "monsters": 5}))
    assert phase(log) == "addict.phase-8"
    log.append(start_round(3))
    assert phase(log) == "addict.phase-6"  # never Phase 11 while round 3 is declared


def test_popcorn_rolls_then_acts_passes_and_ends_the_round() -> None:
    log = setup("popcorn")
    assert phase(log) == "roll-initiative"
    log.append(set_field("initiative", {"brannoc": 15, "orc-1": 9}))
    assert phase(log) == "take-action"
    log.append(start_round(1))
    log.append(add_entry("turns", {"actor": "brannoc", "action": "attack", "target": "orc-1",
                                   "hit": False}))
    assert phase(log) == "pass-action"  # acted, nobody nominated yet
    log[-1] = add_entry("turns", {"actor": "brannoc", "action": "attack", "target": "orc-1",
                                  "hit": False, "nominates": "orc-1"})
    assert phase(log) == "take-action"
    log.append(add_entry("turns", {"actor": "orc-1", "action": "attack",
                                   "target": "brannoc", "hit": False}))
    assert phase(log) == "end-of-round"


def test_popcorn_asks_to_pass_again_when_the_nominee_fell() -> None:
    log = setup("popcorn", combatants=[PARTY, ORC, {**ORC, "id": "orc-2", "name": "Orc 2"}])
    log.append(set_field("initiative", {"brannoc": 15, "orc-1": 9, "orc-2": 5}))
    log.append(start_round(1))
    log.append(add_entry("turns", {"actor": "brannoc", "action": "attack", "target": "orc-1",
                                   "hit": True, "damage": 9, "nominates": "orc-1"}))
    assert phase(log) == "pass-action"  # Orc 1 died of the blow: Brannoc names another


def test_time_units_encounter_dice_then_declarations_then_the_clock() -> None:
    log = setup("time-units")
    assert phase(log) == "encounter"
    log.append(set_field("initiative", {"party": 2, "monsters": 5}))
    assert phase(log) == "declare"
    log.append(add_entry("actions", {"actor": "brannoc", "action": "melee",
                                     "target": "orc-1"}))
    assert phase(log) == "declare"  # its d10 is still needed
    log[-1] = add_entry("actions", {"actor": "brannoc", "action": "melee", "target": "orc-1",
                                    "roll": 4})
    assert phase(log) == "clock"
    # time-units.surprise.d6, time-units.encounter.reaction-2d6: dice the DM asked for
    # belong to the encounter phase until they are in
    log.append(set_field("surprise", {}))
    assert phase(log) == "encounter"
    log.append(set_field("surprise", {"party": 5, "monsters": 1}))
    log.append(set_field("reaction", {}))
    assert phase(log) == "encounter"
    log.append(set_field("reaction", {"monsters": 7}))
    assert phase(log) == "clock"


def test_time_units_without_encounter_dice_moves_on_to_declarations_and_the_clock() -> None:
    """The encounter d6 per side is the DM's choice: a fight declared without it (surprise
    checked only) is at "declare" while d10s are awaited, then at the clock."""
    log = setup("time-units")
    log.append(set_field("surprise", {"party": 5, "monsters": 1}))
    assert phase(log) == "encounter"
    log.append(add_entry("actions", {"actor": "brannoc", "action": "melee",
                                     "target": "orc-1"}))
    assert phase(log) == "declare"
    log[-1] = add_entry("actions", {"actor": "brannoc", "action": "melee", "target": "orc-1",
                                    "roll": 4})
    assert phase(log) == "clock"


def test_side_d6_surprise_round_is_the_surprise_phase_not_segments_1_to_10() -> None:
    log = setup("side-d6")
    log.append(set_field("surprise", {"party": 5, "monsters": 1}))
    log.append(start_round(1, {"surprise": True}))
    assert phase(log) == "surprise"
    log.append(add_entry("declarations", {"actor": "brannoc", "action": "melee",
                                          "target": "orc-1"}))
    assert phase(log) == "surprise"  # the surprise segments, never "Play segments 1–10"
    log.append(start_round(2))
    assert phase(log) == "declare"


def test_the_dead_need_not_declare() -> None:
    """side-d6.initiative.d6-per-side: the round's dice follow the living fighters' declarations."""
    goblin = {"id": "gob-1", "name": "Goblin", "side": "monsters", "hp": 1}
    log = setup("side-d6", combatants=[PARTY, ORC, goblin])
    log.append(set_field("surprise", {"party": 3, "monsters": 4}))
    log.append(start_round(1))
    log.append(add_entry("declarations", {"actor": "brannoc", "action": "melee",
                                          "target": "gob-1", "hit": True, "damage": 5}))
    log.append(add_entry("declarations", {"actor": "orc-1", "action": "melee",
                                          "target": "brannoc"}))
    log.append(set_round_field("initiative", {"party": 4, "monsters": 2}))
    log.append(start_round(2))
    log.append(add_entry("declarations", {"actor": "brannoc", "action": "melee",
                                          "target": "orc-1"}))
    log.append(add_entry("declarations", {"actor": "orc-1", "action": "melee",
                                          "target": "brannoc"}))
    assert phase(log) == "initiative"  # the goblin fell in round 1
