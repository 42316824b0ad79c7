"""Issue 22, point 5: every attack step of every multi-attack shape holds its own outcome.

Attacks per round, rate of fire, a volley split between targets and "another attack", in each
system that has the shape. The outcome panel's own functions record each outcome on the
entry the step came from (:func:`attack_index` says which attack the selected step is, and
:func:`with_outcome` writes it in that place); the engine resolves again after each, as the
workspace does, and the next step is picked from the new resolution as the DM clicks it.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from core.cli.commands import resolve_scenario
from core.model.scenario import SCENARIO_FORMAT, parse_scenario
from core.model.values import Step
from desktop.encounter.step_entries import (
    OutcomeOrderError,
    attack_index,
    with_outcome,
)
from desktop.resolution.step_identity import step_source

Record = tuple[int, bool | None, int, bool]
"""(which attack, counted from 0, in the order shown; hit; damage; "another attack")."""


def _doc(system: str, combatants: list[dict[str, Any]], entry: dict[str, Any]) -> dict[str, Any]:
    doc: dict[str, Any] = {"format": SCENARIO_FORMAT, "system": system, "seed": 3,
                           "combatants": combatants}
    if system == "time-units":
        doc["actions"] = [{**entry, "roll": 2}]
    elif system == "popcorn":
        doc["initiative"] = {c["id"]: 20 - i for i, c in enumerate(combatants)}
        doc["rounds"] = [{"turns": [entry]}]
    else:
        doc["rounds"] = [{"initiative": {"party": 5, "monsters": 2}, "declarations": [entry]}]
    return doc


def _path(doc: dict[str, Any]) -> tuple[list[dict[str, Any]], str]:
    if "actions" in doc:
        return doc["actions"], "actions[0]"
    which = "turns" if "turns" in doc["rounds"][0] else "declarations"
    return doc["rounds"][0][which], f"rounds[0].{which}[0]"


def _strikes(doc: dict[str, Any]) -> list[Step]:
    _, path = _path(doc)
    steps = resolve_scenario(parse_scenario(doc)).steps
    return [s for s in steps if step_source(s) == path
            and str(s.event) in ("attacks", "hits", "misses")]


def play(doc: dict[str, Any], records: list[Record]) -> dict[str, Any]:
    """Records each outcome on the step the DM would click; gets the document after.

    An attack not shown yet (the engines show one step until an outcome says there are more)
    is recorded as the DM does: "another attack" ticked on the last one shown.
    """
    doc = copy.deepcopy(doc)
    for k, hit, damage, another in records:
        entries, path = _path(doc)
        steps = resolve_scenario(parse_scenario(doc)).steps
        strikes = [s for s in steps if step_source(s) == path
                   and str(s.event) in ("attacks", "hits", "misses")]
        if k == len(strikes):
            step, another = strikes[-1], True
        else:
            step = strikes[k]
        entries[0] = with_outcome(entries[0], hit, damage, another, attack_index(steps, step))
    return doc


def shown(doc: dict[str, Any]) -> list[tuple[str, str | None, int | None]]:
    """Gets each strike of the entry as the resolution list shows it: event, target, damage."""
    return [(str(s.event), s.target, s.detail.get("damage")) for s in _strikes(doc)]


BUGBEAR = {"id": "bugbear", "side": "monsters", "kind": "monster", "hp": 14}
GOBLINS = [{"id": "goblin-1", "side": "monsters", "kind": "monster", "hp": 10},
           {"id": "goblin-2", "side": "monsters", "kind": "monster", "hp": 10}]
FIGHTER = {"id": "fighter", "side": "party", "hp": 10, "attacks": 2,
           "weapons": [{"name": "sword"}]}
ONE_BLOW = {"id": "fighter", "side": "party", "hp": 10, "weapons": [{"name": "sword"}]}
ARCHER = {"id": "elf", "side": "party", "hp": 7,
          "weapons": [{"name": "short bow", "missile": True, "rate_of_fire": 2}]}
TWO_BLOWS = [(0, True, 4, False), (1, True, 6, False)]
ANOTHER = [(0, True, 4, False), (0, True, 6, True)]
BLOW = {"addict": "G", "side-d6": "attack", "popcorn": "attack", "time-units": "melee"}
SHOOT = {"addict": "D", "side-d6": "missile", "popcorn": "missile", "time-units": "missile"}


def _case(system: str, shape: str) -> tuple[dict[str, Any], list[Record]]:
    if shape == "attacks per round":
        entry: dict[str, Any] = {"actor": "fighter", "action": BLOW[system], "target": "bugbear"}
        if system == "time-units":
            entry["attacks"] = 2
        return _doc(system, [FIGHTER, BUGBEAR], entry), TWO_BLOWS
    if shape == "rate of fire":
        entry = {"actor": "elf", "action": SHOOT[system], "target": "bugbear",
                 "weapon": "short bow"}
        return _doc(system, [ARCHER, BUGBEAR], entry), TWO_BLOWS
    if shape == "split volley":
        actor = ARCHER if system == "addict" else FIGHTER
        action = SHOOT[system] if system == "addict" else BLOW[system]
        entry = {"actor": actor["id"], "action": action, "targets": ["goblin-1", "goblin-2"]}
        if system == "time-units":
            entry["attacks"] = 2
        return _doc(system, [actor, *GOBLINS], entry), TWO_BLOWS
    # "another attack": beyond the one step shown; side-d6 and popcorn read the creature's
    # attacks a round, so there it is a creature of two attacks.
    entry = {"actor": "fighter", "action": BLOW[system], "target": "bugbear"}
    who = FIGHTER if system in ("side-d6", "popcorn") else ONE_BLOW
    return _doc(system, [who, BUGBEAR], entry), ANOTHER


CASES = [
    ("addict", "attacks per round"), ("addict", "rate of fire"), ("addict", "split volley"),
    ("addict", "another attack"),
    ("side-d6", "attacks per round"), ("side-d6", "split volley"), ("side-d6", "another attack"),
    ("popcorn", "attacks per round"), ("popcorn", "split volley"), ("popcorn", "another attack"),
    ("time-units", "attacks per round"), ("time-units", "rate of fire"),
    ("time-units", "split volley"), ("time-units", "another attack"),
]


@pytest.mark.parametrize(("system", "shape"), CASES, ids=[f"{s}-{h}" for s, h in CASES])
def test_each_attack_step_holds_its_own_outcome(system: str, shape: str) -> None:
    doc, records = _case(system, shape)
    both = play(doc, records)
    targets = [t for _, t, _ in shown(both)]
    assert shown(both) == [("hits", targets[0], 4), ("hits", targets[1], 6)]
    if shape == "split volley":
        assert targets == ["goblin-1", "goblin-2"]
    # The DM changes the first attack's outcome, then the second's: each keeps the other.
    first_changed = play(both, [(0, False, 0, False)])
    assert shown(first_changed) == [("misses", targets[0], None), ("hits", targets[1], 6)]
    second_changed = play(first_changed, [(1, True, 2, False)])
    assert shown(second_changed) == [("misses", targets[0], None), ("hits", targets[1], 2)]
    cleared = play(second_changed, [(1, None, 0, False)])
    assert [e for e, _, _ in shown(cleared)][:1] == ["misses"]


def test_time_units_two_attacks_on_the_bugbear_both_land() -> None:
    """The issue's fight: 4 then 6 on a 14-hp bugbear leaves it at 4 (it showed 10)."""
    doc, _ = _case("time-units", "attacks per round")
    after = play(doc, TWO_BLOWS)
    resolution = resolve_scenario(parse_scenario(after))
    assert resolution.combatants["bugbear"].hp == 4


def test_an_attack_recorded_before_the_earlier_ones_is_refused_in_words() -> None:
    doc, _ = _case("time-units", "attacks per round")
    with pytest.raises(OutcomeOrderError, match="record the 1st attack first"):
        play(doc, [(1, True, 6, False)])
