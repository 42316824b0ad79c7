"""A time-units fight at the table, to TU 30 and beyond, driven only by what a DM touches.

Encounter menu → New Encounter (time units, seed typed in, two PCs, two orcs); actions dragged
from the palette onto cards (the views' own MIME data); targets picked by name; d10s typed into
the stepper's fields with Enter; resolution-list rows clicked; damage typed; Hit / Miss clicked;
Ctrl+Z and Ctrl+Shift+Z after every change. Brannoc's second and third melee actions get their
own outcomes (the bug: they landed on his first); new dice re-sort the list while a step is
selected and the selection stays on that step. At the end the GUI's steps equal the CLI's
resolution of the same encounter written as a scenario.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from core.cli.commands import resolve_scenario
from core.fight.encounter import scenario_document
from core.model.scenario import parse_scenario
from desktop.encounter.tu_board import TimeUnitBoard
from desktop.encounter.workspace import EncounterWorkspace
from desktop.main_window import MainWindow
from tests.desktop.table.conftest import IdWatch, button, make_active
from tests.desktop.table.tu_helpers import (
    choose,
    click_row,
    declare,
    drop_action,
    new_time_units_encounter,
    type_next_d10,
    visible_rows,
)


# Ids that other work of this round takes off the screen (dice purposes in the stepper, undo
# names of declarations, the cards' tooltips). Everything else this fight shows is checked
# strictly; the integrator empties this once those branches are merged.
def check_ids(ids: IdWatch) -> None:
    """Fails if an id, field path or Python literal reaches the screen."""
    ids.check()


def steps_json(ws: EncounterWorkspace) -> list[dict[str, Any]]:
    resolution = ws.controller.resolution
    assert resolution is not None and ws.controller.error is None, ws.controller.error
    return resolution.to_json()["steps"]


def press(window: MainWindow, modifiers: Qt.KeyboardModifier) -> None:
    """Presses Z with ``modifiers`` in the window, once Qt holds it active."""
    make_active(window)
    QTest.keyClick(window, Qt.Key.Key_Z, modifiers)


def undo_then_redo(window: MainWindow, ws: EncounterWorkspace) -> None:
    """Ctrl+Z takes the last change back; Ctrl+Shift+Z puts it back, exactly."""
    before = (steps_json(ws), list(ws.controller.state.actions))
    press(window, Qt.KeyboardModifier.ControlModifier)
    assert (steps_json(ws), list(ws.controller.state.actions)) != before, "Ctrl+Z did nothing"
    press(window, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert (steps_json(ws), list(ws.controller.state.actions)) == before


def hp_of(ws: EncounterWorkspace, name: str) -> str:
    """Gets the HP cell of the combatant status list, as the DM reads it (``5 / 8``)."""
    model = ws.status_view.model()
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    column = headers.index("HP")
    for row in range(model.rowCount()):
        if model.index(row, 0).data() == name:
            return str(model.index(row, column).data())
    raise AssertionError(name)


def type_damage(ws: EncounterWorkspace, value: int) -> None:
    box = ws.outcome.damage
    box.setFocus()
    box.selectAll()
    QTest.keyClicks(box, str(value))
    assert box.value() == value


def test_time_units_fight_outcomes_land_on_the_right_actions(
    table: MainWindow, ids: IdWatch,
) -> None:
    ws = new_time_units_encounter(table, orcs=2, seed=11)
    board = ws.board
    assert isinstance(board, TimeUnitBoard)
    check_ids(ids)

    def act(actor: str, kind: str, target: str, d10: int) -> None:
        drop_action(board, kind, actor)
        assert actor not in [board.editor.target.itemText(i)
                             for i in range(board.editor.target.count())]
        declare(board, target)
        undo_then_redo(table, ws)
        type_next_d10(ws, d10)
        undo_then_redo(table, ws)
        check_ids(ids)

    # Three rounds' worth of time units: Brannoc (Dex 13: 1 TU off) melees three times.
    act("Brannoc the Bold", "melee", "Orc 1", 4)       # actions[0]: TU 8
    act("Orc 1", "melee", "Brannoc the Bold", 6)       # actions[1]: TU 11
    act("Sister Ysolde", "melee", "Orc 2", 7)          # actions[2]: TU 12
    act("Orc 2", "melee", "Sister Ysolde", 9)          # actions[3]: TU 14
    act("Brannoc the Bold", "melee", "Orc 1", 5)       # actions[4]: TU 17, his 2nd
    act("Brannoc the Bold", "melee", "Orc 2", 6)       # actions[5]: TU 27, his 3rd
    act("Orc 1", "melee", "Brannoc the Bold", 8)       # actions[6]: TU 24
    act("Orc 2", "melee", "Brannoc the Bold", 10)      # actions[7]: TU 29
    act("Brannoc the Bold", "melee", "Orc 2", 2)       # actions[8]: TU 33, his 4th
    when = {(cells[1], cells[2]) for cells in visible_rows(ws)}
    assert {("TU 8", "Brannoc the Bold"), ("TU 17", "Brannoc the Bold"),
            ("TU 27", "Brannoc the Bold"), ("TU 33", "Brannoc the Bold")} <= when

    # The clock walks to TU 33 and reads in full.
    advance = button(board, "Advance to Next Action")
    for _ in range(len(visible_rows(ws))):
        advance.click()
    assert board.clock_label.text() == "TU clock: 33"
    assert board.clock_step.text() == "Brannoc the Bold attacks Orc 2 (no outcome recorded)"
    check_ids(ids)

    orc1, orc2 = hp_of(ws, "Orc 1"), hp_of(ws, "Orc 2")
    full1, full2 = int(orc1.split(" / ")[1]), int(orc2.split(" / ")[1])

    # His SECOND action (TU 17): the header names it, Hit records on actions[4] only.
    click_row(ws, "TU 17", "Brannoc the Bold")
    header = ws.outcome.label.text()
    assert "Brannoc the Bold attacks Orc 1" in header and "2nd action" in header, header
    type_damage(ws, 3)
    button(ws.outcome, "Hit").click()
    actions = ws.controller.state.actions
    assert actions[4].get("hit") is True and actions[4].get("damage") == 3
    assert "hit" not in actions[0] and "hit" not in actions[5]
    assert hp_of(ws, "Orc 1") == f"{full1 - 3} / {full1}" and hp_of(ws, "Orc 2") == orc2
    assert ws.outcome.step is not None and ws.outcome.step.tu == 17  # still that step
    check_ids(ids)
    undo_then_redo(table, ws)

    # His THIRD action (TU 27): a new step, so the Damage box is back to 0; Miss lands there.
    click_row(ws, "TU 27", "Brannoc the Bold")
    assert ws.outcome.damage.value() == 0
    assert "3rd action" in ws.outcome.label.text()
    button(ws.outcome, "Miss").click()
    actions = ws.controller.state.actions
    assert actions[5].get("hit") is False and "hit" not in actions[8]
    assert actions[4].get("damage") == 3 and "hit" not in actions[0]
    check_ids(ids)
    undo_then_redo(table, ws)

    # New dice re-sort the list while his third action is selected: Sister Ysolde's next
    # blow (d10 1: TU 18) now comes before it, so its row number changes; the selection and
    # the outcome panel stay on Brannoc's third action, never on the row's new occupant.
    click_row(ws, "TU 27", "Brannoc the Bold")
    type_damage(ws, 5)
    row_before = ws.steps_view.currentIndex().row()
    act("Sister Ysolde", "melee", "Orc 1", 1)          # actions[9]: TU 18
    selected = ws.outcome.step
    assert selected is not None
    who = ws.controller.state.combatants[selected.actor].label
    assert (selected.tu, who, str(selected.event)) == (27, "Brannoc the Bold", "misses")
    assert ws.steps_view.currentIndex().row() == row_before + 1
    assert visible_rows(ws)[row_before + 1][1:4] == ["TU 27", "Brannoc the Bold", "misses"]
    assert ws.timeline.highlighted_step == selected.seq

    # Another step selected: the 5 typed for Brannoc never hurts Orc 1 by a stray click.
    click_row(ws, "TU 18", "Sister Ysolde")
    assert ws.outcome.damage.value() == 0
    button(ws.outcome, "Hit").click()
    assert ws.controller.state.actions[9] == {**ws.controller.state.actions[9], "hit": True,
                                              "damage": 0}
    assert hp_of(ws, "Orc 1") == f"{full1 - 3} / {full1}"
    undo_then_redo(table, ws)

    # His FIRST action (TU 8) last: it records on actions[0], the others keep theirs.
    click_row(ws, "TU 8", "Brannoc the Bold")
    assert "1st action" in ws.outcome.label.text()
    type_damage(ws, 2)
    button(ws.outcome, "Hit").click()
    actions = ws.controller.state.actions
    assert [(a.get("hit"), a.get("damage")) for a in (actions[0], actions[4], actions[5])] == [
        (True, 2), (True, 3), (False, None)]
    assert hp_of(ws, "Orc 1") == f"{full1 - 5} / {full1}"
    assert hp_of(ws, "Orc 2") == f"{full2} / {full2}"
    check_ids(ids)
    undo_then_redo(table, ws)

    # His FOURTH action (TU 33) kills Orc 2: the death is its own step, on which no Hit can be
    # recorded, and Orc 2 is no longer offered as a target.
    click_row(ws, "TU 33", "Brannoc the Bold")
    assert "4th action" in ws.outcome.label.text()
    type_damage(ws, full2)
    button(ws.outcome, "Hit").click()
    assert ws.controller.state.actions[8].get("damage") == full2
    assert any(cells[2:4] == ["Orc 2", "dies"] for cells in visible_rows(ws))
    click_row(ws, "TU 33", "Orc 2")
    assert not ws.outcome.hit_button.isEnabled()
    assert "record the blow on the attack" in ws.outcome.label.text()
    check_ids(ids)
    undo_then_redo(table, ws)
    drop_action(board, "melee", "Sister Ysolde")
    offered = [board.editor.target.itemText(i) for i in range(board.editor.target.count())]
    assert "Orc 1" in offered and "Orc 2" not in offered and "Sister Ysolde" not in offered
    QTest.keyClick(board.editor.target, Qt.Key.Key_Escape)
    assert board.editor.isHidden()

    # The same encounter as a scenario file, resolved by the command line, gives these steps.
    document = scenario_document(ws.controller.state)
    assert resolve_scenario(parse_scenario(document)).to_json()["steps"] == steps_json(ws)
    assert max(s["tu"] for s in steps_json(ws)) >= 30
    QApplication.processEvents()
    check_ids(ids)


def test_time_units_heal_and_hold_at_the_table(table: MainWindow, ids: IdWatch) -> None:
    """A cure recorded with Heals gives Brannoc hit points back; Hold person recorded as a
    condition keeps Orc 1's next blow from happening; Ctrl+Z after each; the CLI agrees."""
    ws = new_time_units_encounter(table, orcs=1, seed=5)
    board = ws.board
    assert isinstance(board, TimeUnitBoard)

    def act(actor: str, kind: str, target: str, d10: int, spell: str = "") -> None:
        drop_action(board, kind, actor)
        if spell:
            choose(board.editor.spell, spell)
        declare(board, target)
        type_next_d10(ws, d10)

    act("Orc 1", "melee", "Brannoc the Bold", 1)
    act("Sister Ysolde", "spell", "Orc 1", 1, spell="Hold person")
    act("Orc 1", "melee", "Brannoc the Bold", 9)
    act("Sister Ysolde", "spell", "Brannoc the Bold", 1, spell="Cure light wounds")
    rows = visible_rows(ws)
    orc_blows = [r[1] for r in rows if r[2] == "Orc 1" and r[3] == "attacks"]
    assert len(orc_blows) == 2, rows
    full = hp_of(ws, "Brannoc the Bold")

    click_row(ws, orc_blows[0], "Orc 1")
    type_damage(ws, 4)
    button(ws.outcome, "Hit").click()
    hurt = hp_of(ws, "Brannoc the Bold")
    assert hurt != full
    undo_then_redo(table, ws)

    # Hold person takes effect: the condition row of the outcome panel, by names.
    hold = next(r for r in visible_rows(ws) if r[2] == "Sister Ysolde"
                and r[3] == "spell takes effect")
    click_row(ws, hold[1], "Sister Ysolde")
    controls = ws.outcome.conditions
    assert controls.on.currentText() == "Orc 1"
    controls.condition.setCurrentText("held")
    button(controls, "Start").click()
    assert ws.outcome.error.isHidden(), ws.outcome.error.text()
    rows = visible_rows(ws)
    assert any(r[2] == "Orc 1" and r[3] == "cannot act" for r in rows), rows
    assert [r[1] for r in rows if r[2] == "Orc 1" and r[3] == "attacks"] == [], rows
    status = ws.status_view.model()
    orc_row = next(r for r in range(status.rowCount()) if status.index(r, 0).data() == "Orc 1")
    assert status.index(orc_row, 4).data().startswith("held since TU ")
    check_ids(ids)
    undo_then_redo(table, ws)

    # The cure: Heals with the figure typed, never above the maximum.
    cure = [r for r in visible_rows(ws) if r[2] == "Sister Ysolde"
            and r[3] == "spell takes effect"][-1]
    click_row(ws, cure[1], "Sister Ysolde")
    type_damage(ws, 3)
    button(ws.outcome, "Heals").click()
    assert ws.outcome.error.isHidden(), ws.outcome.error.text()
    now, most = (int(x) for x in hp_of(ws, "Brannoc the Bold").split(" / "))
    assert now == min(int(hurt.split(" / ")[0]) + 3, most)
    check_ids(ids)
    undo_then_redo(table, ws)

    document = scenario_document(ws.controller.state)
    assert resolve_scenario(parse_scenario(document)).to_json()["steps"] == steps_json(ws)


def test_roll_all_pending_rolls_every_action_of_one_fighter_in_one_click(
    table: MainWindow, ids: IdWatch,
) -> None:
    """Three melee actions declared for Brannoc and one for the orc, no dice typed: the dice
    list tells his three apart, and one click on Roll All Pending rolls all four (one undo)."""
    ws = new_time_units_encounter(table, orcs=1, seed=3)
    board = ws.board
    assert isinstance(board, TimeUnitBoard)
    for actor, target in (("Brannoc the Bold", "Orc 1"), ("Brannoc the Bold", "Orc 1"),
                          ("Brannoc the Bold", "Orc 1"), ("Orc 1", "Brannoc the Bold")):
        drop_action(board, "melee", actor)
        declare(board, target)
    labels = [row.label.text() for row in ws.stepper.rows]
    assert len(labels) == 4 and len(set(labels)) == 4, labels
    assert any("2nd action" in t for t in labels) and any("3rd action" in t for t in labels)
    check_ids(ids)
    button(ws.stepper, "Roll All Pending").click()
    assert ws.controller.rolls_needed() == []
    assert all(a.get("roll") is not None for a in ws.controller.state.actions)
    ws.controller.stack.undo()
    assert len(ws.controller.rolls_needed()) == 4
