"""Conditions shared by the four systems (core/rules/care.py), and popcorn's use."""

from __future__ import annotations

from typing import Any

import pytest

from core.model.dice import Roller
from core.model.scenario import ScenarioError, parse_scenario
from core.model.values import Resolution
from core.rules import all_systems
from core.rules.care import Conditions, care_rule_ids, read_care
from core.rules.popcorn import SYSTEM as POPCORN


def test_every_system_lists_the_care_rules() -> None:
    for system in all_systems():
        for rule_id in care_rule_ids(system.id):
            assert rule_id in system.rules, rule_id


def test_fields_are_read_and_bad_ones_named() -> None:
    ids = {"a", "b"}
    care = read_care({"conditions": ["Asleep", {"name": "held", "target": "a", "rounds": 2}]},
                     "rounds[0].turns[1]", "a", "b", ids)
    assert [(c.name, c.target, c.rounds) for c in care.conditions] == [
        ("asleep", "b", None), ("held", "a", 2)]
    assert not read_care({}, "x", "a", None, ids)
    for raw, where in (({"conditions": "asleep"}, r"x\.conditions"),
                       ({"conditions": [{"name": ""}]}, r"x\.conditions\[0\]\.name"),
                       ({"conditions": [{"name": "held", "rounds": -1}]},
                        r"x\.conditions\[0\]\.rounds"),
                       ({"conditions": [{"name": "held", "ends": "yes"}]},
                        r"x\.conditions\[0\]\.ends")):
        with pytest.raises(ScenarioError, match=where):
            read_care(raw, "x", "a", None, ids)


def test_conditions_run_out_and_block_only_when_incapacitating() -> None:
    running = Conditions()
    running.start("a", "prone", 2)
    assert running.blocking("a") is None
    running.start("a", "held", None)
    assert running.blocking("a") == "held"
    assert running.due(2) == [("a", "prone")]
    assert running.names("a") == ("held",)
    assert running.end("a", "held") and not running.end("a", "held")


# --- popcorn ------------------------------------------------------------------------------------

def pc(cid: str, **kw: Any) -> dict[str, Any]:
    return {"id": cid, "side": "party", "kind": "pc", "hp": 10, **kw}


def mon(cid: str, **kw: Any) -> dict[str, Any]:
    return {"id": cid, "side": "monsters", "kind": "monster", "hp": 10, **kw}


def resolve(combatants: list[dict[str, Any]], rounds: list[dict[str, Any]],
            **extra: Any) -> Resolution:
    given = {"ann": 18, "cleric": 15, "orc": 3}
    ids = {c["id"] for c in combatants}
    doc = {"system": "popcorn", "seed": 3, "combatants": combatants, "rounds": rounds,
           "initiative": {k: v for k, v in given.items() if k in ids}, **extra}
    return POPCORN.resolve(parse_scenario(doc), Roller.seeded(3))


def test_popcorn_an_asleep_creature_takes_no_turn_until_the_sleep_ends() -> None:
    """popcorn.care.condition, popcorn.care.cannot-act: Ann's sleep (this round and one more)
    takes the orc out of the order of play: it cannot be nominated, its turn is refused, and
    in round 3 it acts again."""
    people = [pc("ann"), mon("orc")]
    sleep = {"actor": "ann", "action": "spell", "spell": "sleep", "target": "orc",
             "conditions": [{"name": "asleep", "rounds": 1}], "nominates": "ann"}
    rounds = [{"turns": [sleep]}, {"turns": [{"actor": "ann", "action": "other",
                                               "nominates": "ann"}]},
              {"turns": [{"actor": "ann", "action": "other", "nominates": "orc"},
                         {"actor": "orc", "action": "other"}]}]
    res = resolve(people, rounds)
    orc = [(s.round, str(s.event)) for s in res.steps if s.actor == "orc"]
    assert orc == [(1, "condition-starts"), (2, "cannot-act"), (2, "condition-ends"),
                   (3, "acts")]
    three = [pc("ann"), pc("cleric"), mon("orc")]
    nominated = [{"turns": [{**sleep, "nominates": "cleric"},
                            {"actor": "cleric", "action": "other", "nominates": "ann"}]},
                 {"turns": [{"actor": "ann", "action": "other", "nominates": "orc"}]}]
    with pytest.raises(ScenarioError, match=r"rounds\[1\]\.turns\[0\]\.nominates: orc is "
                                            r"asleep and cannot be nominated"):
        resolve(three, nominated)
    forever = {**sleep, "conditions": [{"name": "asleep"}], "nominates": "orc"}
    with pytest.raises(ScenarioError, match=r"rounds\[0\]\.turns\[0\]\.nominates: orc is "
                                            r"asleep and cannot be nominated"):
        resolve(people, [{"turns": [forever]}])  # it would still sleep next round
    with pytest.raises(ScenarioError, match=r"rounds\[1\]\.turns\[0\]\.actor: orc is asleep"):
        resolve(people, [{"turns": [sleep]},
                         {"turns": [{"actor": "orc", "action": "other"}]}])
