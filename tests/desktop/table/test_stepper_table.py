"""The procedure stepper at the table: it follows play, names every die, rolls all pending dice
as one step, moves to the next die on Enter, and reading another phase is nothing to undo."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from desktop.encounter.tu_board import TimeUnitBoard
from desktop.main_window import MainWindow
from tests.desktop.table.conftest import IdWatch, button, make_active
from tests.desktop.table.tu_helpers import declare, drop_action, new_time_units_encounter


def engine_phase(ws) -> str:  # type: ignore[no-untyped-def]
    """Gets the phase the stepper marks as the one play is in (▶, bold)."""
    items = [ws.stepper.phase_list.item(i) for i in range(ws.stepper.phase_list.count())]
    marked = [i.text() for i in items if i.text().startswith("▶")]
    assert len(marked) == 1, [i.text() for i in items]
    return marked[0].removeprefix("▶ ")


def test_the_stepper_follows_a_time_units_fight_and_rolls_all_pending_dice(
        table: MainWindow, ids: IdWatch, qtbot) -> None:  # type: ignore[no-untyped-def]
    ws = new_time_units_encounter(table, orcs=2, seed=5)
    board = ws.board
    assert isinstance(board, TimeUnitBoard)
    assert engine_phase(ws) == "Encounter: d6 per side, 2d6 reaction"
    button(ws.stepper, "Encounter Dice").click()
    assert engine_phase(ws) == "Encounter: d6 per side, 2d6 reaction"  # the dice are not in
    for actor, target in (("Brannoc the Bold", "Orc 1"), ("Sister Ysolde", "Orc 2"),
                          ("Orc 1", "Brannoc the Bold"), ("Orc 2", "Sister Ysolde")):
        drop_action(board, "melee", actor)
        declare(board, target)
    rows = ws.stepper.rows
    # two encounter d6s, the monsters' 2d6 reaction (issue 25) and four d10s, each on its
    # own readable line
    assert len(rows) == 7
    assert any(r.request.purpose == "reaction monsters" and r.request.expression == "2d6"
               for r in rows)
    labels = [r.findChild(type(ws.stepper.nothing_needed)).text() for r in rows]
    assert any("Brannoc the Bold" in text for text in labels), labels
    assert all(r.field.width() >= 60 for r in rows if r.isVisible())
    ids.check()

    # Enter in a die's field records it and puts the cursor in the next die still needed.
    first = rows[0]
    make_active(table)  # focus moves only within the active window
    first.field.setFocus()
    first.field.setText("3")
    QTest.keyClick(first.field, Qt.Key.Key_Return)
    assert len(ws.stepper.rows) == 6
    assert QApplication.focusWidget() is ws.stepper.rows[0].field

    # Reading ahead in the procedure is a view: nothing joins the undo stack.
    undo_count = ws.controller.stack.count()
    button(ws.stepper, "Next Phase").click()
    assert ws.stepper.current_phase().title != engine_phase(ws)
    assert ws.controller.stack.count() == undo_count

    # Roll All Pending: every die at once, and one Ctrl+Z takes them all back.
    button(ws.stepper, "Roll All Pending").click()
    assert ws.stepper.rows == [] and ws.controller.error is None
    assert engine_phase(ws) == "Run the TU clock"
    assert ws.stepper.current_phase().title == "Run the TU clock"  # back where play is
    ids.check()
    table.tabs.setCurrentWidget(ws)
    QTest.keySequence(table, "Ctrl+Z")
    assert len(ws.stepper.rows) == 6
    assert engine_phase(ws) == "Encounter: d6 per side, 2d6 reaction"
    QTest.keySequence(table, "Ctrl+Shift+Z")
    assert ws.stepper.rows == []
    ids.check()
