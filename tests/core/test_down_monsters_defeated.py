"""Issue 22: a monster down at the end of a fight (0 hp or below) counts as defeated for XP in
every system: AD&D awards experience for defeating a foe, and its procedure leaves a monster
at 0 to -9 unconscious and bleeding (addict-procedure.md, Phase 9), where OSE's dies at 0."""

from __future__ import annotations

from dataclasses import replace

import pytest

from core.cli.commands import resolve_scenario
from core.fight.log import EncounterLog, add_combatant
from core.model.scenario import SCENARIO_FORMAT, parse_scenario
from core.model.values import Combatant, Status, frozen_mapping
from core.roster.entries import MonsterTemplate
from core.roster.kills import Kill, encounter_kills, is_down, kill_lines
from core.roster.results import DEFEATED_KEY, defeated_in

FIGHTER = {"id": "fighter", "side": "party", "hp": 10}
ORCS = [{"id": "orc-1", "side": "monsters", "kind": "monster", "name": "Orc 1", "hp": 5},
        {"id": "orc-2", "side": "monsters", "kind": "monster", "name": "Orc 2", "hp": 6}]
BLOW = {"addict": "G", "side-d6": "attack", "popcorn": "attack", "time-units": "melee"}


def _document(system: str) -> dict[str, object]:
    """The fighter drops Orc 1 to 0 and Orc 2 to -3."""
    blows = [{"actor": "fighter", "action": BLOW[system], "target": "orc-1", "hit": True,
              "damage": 5},
             {"actor": "fighter", "action": BLOW[system], "target": "orc-2", "hit": True,
              "damage": 9}]
    doc: dict[str, object] = {"format": SCENARIO_FORMAT, "system": system, "seed": 1,
                              "combatants": [FIGHTER, *ORCS]}
    if system == "time-units":
        doc["actions"] = [{**blows[0], "roll": 1}, {**blows[1], "roll": 1}]
    elif system == "popcorn":  # one turn, two attacks (every creature acts in a round)
        doc["combatants"] = [{**FIGHTER, "attacks": 2}, *ORCS]
        doc["initiative"] = {"fighter": 20, "orc-1": 5, "orc-2": 4}
        doc["rounds"] = [{"turns": [{"actor": "fighter", "action": "attack",
                                     "targets": ["orc-1", "orc-2"],
                                     "hits": [{"hit": True, "damage": 5},
                                              {"hit": True, "damage": 9}]}]}]
    else:
        dice = {"party": 5, "monsters": 2}
        doc["rounds"] = [{"initiative": dice, "declarations": [blows[0]]},
                         {"initiative": dice, "declarations": [blows[1]]}]
    return doc


@pytest.mark.parametrize("system", ["addict", "side-d6", "popcorn", "time-units"])
def test_monsters_at_0_or_below_are_down_and_counted_as_defeated(system: str) -> None:
    resolution = resolve_scenario(parse_scenario(_document(system)))
    log = EncounterLog()
    for data in ORCS:
        cid = str(data["id"])
        end = resolution.combatants[cid]
        assert end.hp is not None and end.hp <= 0
        log.execute(add_combatant(Combatant(id=cid, side="monsters", name=str(data["name"]),
                                            hp=end.hp, status=end.status)))
    assert all(is_down(c) for c in log.state.combatants.values()), system
    kills = encounter_kills(log.state, [MonsterTemplate(name="Orc", xp=10)])
    assert kills == [Kill("Orc 1", "Orc", 10), Kill("Orc 2", "Orc", 10)]
    if system == "addict":  # AD&D: down, not dead, until -10
        assert {resolution.combatants[c].status for c in ("orc-1", "orc-2")} == {
            Status.UNCONSCIOUS}


def test_a_reopened_fight_does_not_count_a_logged_defeat_again_and_one_may_live() -> None:
    log = EncounterLog()
    for cid, name in (("orc-1", "Orc 1"), ("orc-2", "Orc 2")):
        log.execute(add_combatant(Combatant(id=cid, side="monsters", name=name, hp=-2,
                                            status=Status.UNCONSCIOUS)))
    baseline = {"orc-1": frozen_mapping({DEFEATED_KEY: True})}
    assert defeated_in(baseline) == {"orc-1"}
    kills = encounter_kills(log.state, [MonsterTemplate(name="Orc", xp=10)],
                            defeated_in(baseline))
    assert [k.name for k in kills] == ["Orc 2"]
    assert kill_lines([replace(kills[0], lives=True)]) == [
        "Defeated Orc 2 (lives): 10 XP", "XP for kills: 10"]
