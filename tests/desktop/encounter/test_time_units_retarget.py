"""time-units.attacks.fallen-target at the table: Garrick's first blow kills Orc 1, so his
second (still to come) is not swung at the corpse; the step, his card and the outcome panel
say so, Hit is refused, and the DM names Orc 2 in one undoable step."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from desktop.encounter.tu_board import TimeUnitBoard
from tests.desktop.encounter.conftest import (
    fill_and_declare,
    press_on_card,
    record,
    type_die,
)

FIGHT = {"format": "combatdesk/scenario-1", "system": "time-units",
         "combatants": [
             {"id": "garrick", "name": "Garrick", "side": "party", "hp": 20, "attacks": 2},
             {"id": "orc-1", "name": "Orc 1", "side": "monsters", "hp": 3},
             {"id": "orc-2", "name": "Orc 2", "side": "monsters", "hp": 5}]}


def _garrick_steps(ws):  # type: ignore[no-untyped-def]
    return [s for s in ws.controller.resolution.steps if s.actor == "garrick"]


def test_a_second_attack_on_a_target_the_first_killed_asks_for_a_new_one(start) -> None:  # type: ignore[no-untyped-def]
    ws = start(FIGHT)
    board = ws.board
    assert isinstance(board, TimeUnitBoard)
    press_on_card(board, "garrick", "M")
    fill_and_declare(board, target="orc-1")
    type_die(ws, "initiative garrick (melee)", "3")
    record(ws, "garrick", hit=True, damage=4)  # the first attack kills Orc 1
    first, second = _garrick_steps(ws)
    assert (str(first.event), first.target) == ("hits", "orc-1")
    assert (str(second.event), second.target) == ("attacks", None)
    assert "time-units.attacks.fallen-target" in second.because

    ws.select_step(second.seq)
    panel = ws.outcome
    assert "Orc 1 has already fallen: choose a new target" in panel.label.text()
    model = board.cards_model
    card = str(model.index(model.row_of("garrick"), 0).data())
    assert "Orc 1 fell, choose a new target" in card
    panel.damage.setValue(2)
    panel.hit_button.click()  # no blow at a corpse
    assert "Orc 1 has already fallen" in panel.error.text()
    assert _garrick_steps(ws)[1].target is None
    assert panel.retarget.isVisibleTo(panel)
    choices = [panel.retarget.target.itemText(i) for i in range(panel.retarget.target.count())]
    assert choices == ["Orc 2"]  # the standing foes: not the corpse, not himself
    depth = ws.controller.stack.count()
    panel.retarget.button.click()
    assert ws.controller.stack.count() == depth + 1
    assert ws.controller.stack.undoText() == \
        "Garrick's attack 2: at Orc 2 instead of Orc 1, who had fallen"
    first, second = _garrick_steps(ws)
    assert (first.target, first.detail.get("damage")) == ("orc-1", 4)  # the kill stays
    assert (str(second.event), second.target) == ("attacks", "orc-2")
    record(ws, "garrick", hit=True, damage=2, events=("attacks",))
    assert ws.controller.resolution.combatants["orc-2"].hp == 3

    ws.controller.stack.undo()  # the hit on Orc 2
    ws.controller.stack.undo()  # the new target: one Ctrl+Z
    QApplication.processEvents()
    first, second = _garrick_steps(ws)
    assert (first.target, second.target) == ("orc-1", None)
    assert second.detail["fallen_target"] == "orc-1"


def test_the_declaration_card_names_each_attacks_own_target(start) -> None:  # type: ignore[no-untyped-def]
    """After Attack This One, Garrick's declaration in the Actions lane says which hit went
    where (time-units.attacks.split-targets), not both under Orc 1."""
    ws = start(FIGHT)
    board = ws.board
    assert isinstance(board, TimeUnitBoard)
    press_on_card(board, "garrick", "M")
    fill_and_declare(board, target="orc-1")
    type_die(ws, "initiative garrick (melee)", "3")
    [row] = board.actions_lane.model.texts()
    assert "→ Orc 1 —" in row or row.split(" — ")[0].endswith("→ Orc 1")
    record(ws, "garrick", hit=True, damage=4)
    ws.select_step(_garrick_steps(ws)[1].seq)
    ws.outcome.retarget.button.click()
    record(ws, "garrick", hit=True, damage=2, events=("attacks",))
    [row] = board.actions_lane.model.texts()
    assert row.split(" — ")[0] == "Garrick: melee → Orc 1 (hit 4), Orc 2 (hit 2)", row
