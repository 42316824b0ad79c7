"""Creatures added to a running fight note where they arrived
(popcorn.initiative.newcomer-joins)."""

from __future__ import annotations

from core.fight.encounter import add_entry, arriving, configure, start_round
from core.fight.log import EncounterLog, add_combatant
from core.model.values import Combatant, Kind

ANN = Combatant(id="ann", side="party", name="Ann", kind=Kind.PC, hp=9)
ORC = Combatant(id="orc-1", side="monsters", name="Orc 1", kind=Kind.MONSTER, hp=5)


def _log(system: str) -> EncounterLog:
    log = EncounterLog()
    log.execute(configure(system))
    log.execute(add_combatant(ANN))
    return log


def test_a_popcorn_newcomer_notes_the_round_and_the_turns_already_written() -> None:
    log = _log("popcorn")
    assert arriving(log.state, [ORC]) == [ORC]  # before the fight: one of the first creatures
    log.execute(start_round(1))
    log.execute(add_entry("turns", {"actor": "ann", "action": "other"}))
    (orc,) = arriving(log.state, [ORC])
    assert orc.extra["arrives"] == {"round": 1, "after_turns": 1}
    assert (orc.name, orc.hp) == ("Orc 1", 5)


def test_other_systems_add_creatures_as_they_are() -> None:
    log = _log("side-d6")
    log.execute(start_round(1))
    assert arriving(log.state, [ORC]) == [ORC]
