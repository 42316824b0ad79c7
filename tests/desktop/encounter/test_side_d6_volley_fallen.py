"""side-d6.routine.split-targets at the table: a long bow's first arrow kills the goblin; the
second is not shot at the corpse (the tester saw "hits Goblin 1 for 3, now at -3 hp", printed
as its death at -3). Its step says the target has fallen, Hit is refused, and "Attack This
One" sends it at another goblin in one Ctrl+Z."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QPushButton

from tests.desktop.encounter.conftest import record

FIGHT = {
    "format": "combatdesk/scenario-1", "system": "side-d6", "seed": 3,
    "combatants": [
        {"id": "wolf", "name": "Wolfgang Ironbeard-Smith", "side": "party", "hp": 12,
         "weapons": [{"name": "long bow", "missile": True, "rate_of_fire": 2}]},
        {"id": "gob", "name": "Goblin 1", "side": "monsters", "hp": 4},
        {"id": "gob-2", "name": "Goblin 2", "side": "monsters", "hp": 5},
    ],
    "rounds": [{"initiative": {"party": 6, "monsters": 2}, "declarations": [
        {"actor": "wolf", "action": "missile", "target": "gob"}]}],
}


def test_the_second_arrow_is_not_shot_at_a_goblin_the_first_killed(played: Any) -> None:
    ws = played(FIGHT, "Bridge")
    record(ws, "wolf", True, 4)  # Goblin 1 down at 0
    record(ws, "wolf", True, 3, another=True, events=("hits",))  # the second arrow
    resolution = ws.controller.resolution
    assert resolution is not None
    shots = [s for s in resolution.steps if s.actor == "wolf"]
    assert [(str(s.event), s.target) for s in shots] == [("hits", "gob"), ("attacks", None)]
    assert resolution.combatants["gob"].hp == 0  # not -3: no arrow in a corpse
    second = shots[1]
    ws.select_step(second.seq)
    assert "has already fallen" in ws.outcome.label.text()
    ws.outcome.hit_button.click()
    assert "has already fallen" in ws.outcome.error.text()  # refused, nothing changed
    row = ws.outcome.retarget
    assert row.isVisible()
    row.target.setCurrentIndex(row.target.findData("gob-2"))
    ws.findChild(QPushButton, "attackThisOne").click()
    resolution = ws.controller.resolution
    assert [(str(s.event), s.target) for s in resolution.steps if s.actor == "wolf"] == [
        ("hits", "gob"), ("hits", "gob-2")]
    assert resolution.combatants["gob-2"].hp == 2 and resolution.combatants["gob"].hp == 0
    ws.controller.stack.undo()  # one Ctrl+Z: the arrow is aimed at no one again
    assert [s.target for s in ws.controller.resolution.steps if s.actor == "wolf"] == [
        "gob", None]
