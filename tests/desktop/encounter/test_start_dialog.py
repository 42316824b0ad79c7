"""The New Encounter dialog: sides are chosen from a list (or a new side is named)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from desktop.encounter.start_dialog import NEW_SIDE, SIDE_COLUMN
from desktop.main_window import MainWindow


def test_sides_are_chosen_from_a_list_and_a_new_side_is_named_once(window: MainWindow) -> None:
    dialog = window.encounter_actions.ask_new_encounter()
    assert dialog is not None
    dialog.set_system("side-d6")
    roster_box = dialog.side_box("fighters", 0)
    choices = [roster_box.itemText(i) for i in range(roster_box.count())]
    assert choices[:2] == ["party", "monsters"] and choices[-1] == NEW_SIDE
    assert not roster_box.isEditable()  # a list, not free text
    for row, entry in enumerate(dialog.roster):  # roster entries default to their own side
        assert dialog.side_box("fighters", row).currentText() == entry.side
    names = [t.name for t in dialog.templates]
    for row in range(len(names)):  # monsters default to "monsters"
        assert dialog.side_box("monsters", row).currentText() == "monsters"

    # the second template's row: "new side…", type the name, Enter
    box = dialog.side_box("monsters", 1)
    box.setCurrentIndex(box.findText(NEW_SIDE))
    box.activated.emit(box.currentIndex())
    assert box.isEditable() and box.currentText() == ""
    QTest.keyClicks(box.lineEdit(), "goblin tribe")
    QTest.keyClick(box.lineEdit(), Qt.Key.Key_Return)
    assert dialog.monsters.item(1, SIDE_COLUMN).text() == "goblin tribe"
    other = dialog.side_box("monsters", 0)
    assert other.findText("goblin tribe") >= 0 and "goblin tribe" in dialog.sides()
    # choosing from the list commits at once
    other.setCurrentIndex(other.findText("goblin tribe"))
    other.activated.emit(other.currentIndex())
    assert dialog.monsters.item(0, SIDE_COLUMN).text() == "goblin tribe"
    other.setCurrentIndex(other.findText("monsters"))
    other.activated.emit(other.currentIndex())

    dialog.monsters.item(0, 1).setData(2, Qt.ItemDataRole.EditRole)
    dialog.monsters.item(1, 1).setData(1, Qt.ItemDataRole.EditRole)
    plan = dialog.build_plan()
    sides = {c.id: c.side for c in plan.combatants}
    assert {s for s in sides.values()} >= {"monsters", "goblin tribe"}
    assert sum(1 for s in sides.values() if s == "goblin tribe") == 1


def test_the_wheel_scrolls_past_options_and_bad_house_rules_are_refused_in_words(
        window: MainWindow, qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QPoint, QPointF
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication, QSpinBox

    dialog = window.encounter_actions.ask_new_encounter()
    assert dialog is not None
    dialog.set_system("addict")
    form = dialog.options_form
    assert form is not None
    spin = form.editors["fixed_surprise_segments"]
    assert isinstance(spin, QSpinBox)
    labels = [form.layout().labelForField(e).text() for e in form.editors.values()]
    assert "Fixed surprise segments" in labels and not any("_" in t for t in labels)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.options_area.ensureWidgetVisible(spin)

    def wheel_up() -> None:
        QApplication.sendEvent(spin, QWheelEvent(
            QPointF(5, 5), spin.mapToGlobal(QPointF(5, 5)), QPoint(0, 0), QPoint(0, 120),
            Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
            Qt.ScrollPhase.NoScrollPhase, False))

    # The wheel over a spin box the DM did not click into changes nothing ...
    before = spin.value()
    wheel_up()
    assert spin.value() == before
    # ... in the one the DM clicked into, it does.
    spin.setFocus()
    QApplication.processEvents()
    wheel_up()
    assert spin.value() == before + 1
    # Segments cannot be typed below 0 ...
    spin.setValue(-3)
    assert spin.value() == 0
    # ... and what only the engine knows is refused with the option's name in words.
    seconds = form.editors["seconds_per_segment"]
    assert isinstance(seconds, QSpinBox)
    seconds.setValue(0)
    dialog.fighters.item(0, 0).setCheckState(Qt.CheckState.Checked)
    dialog.monsters.item(0, 1).setData(1, Qt.ItemDataRole.EditRole)
    dialog.accept()
    message = dialog.error.text()
    assert "Seconds per segment" in message and "at least 1" in message, message
    assert "options." not in message and "seconds_per_segment" not in message


def test_kinds_and_statuses_are_shown_in_words(window: MainWindow) -> None:
    """The Kind column showed "pc", the conflict dialog "Pc", the status panel "active"."""
    from core.model.values import Kind, Status
    from core.roster.entries import RosterStatus
    from desktop.roster.conflict_dialog import value_text

    dialog = window.encounter_actions.ask_new_encounter()
    assert dialog is not None
    kinds = {dialog.fighters.item(r, 1).text() for r in range(dialog.fighters.rowCount())}
    assert kinds and kinds <= {"PC", "Henchman", "Hireling", "Monster"}
    assert value_text(Kind.PC, "kind") == "PC" and value_text("pc", "kind") == "PC"
    assert value_text(RosterStatus.ACTIVE, "status") == "Active"

    from desktop.encounter.status_model import StatusModel

    model = StatusModel()
    model._rows = [("Orc", "monsters", "6 / 6", Status.ACTIVE, "")]
    assert model.data(model.index(0, 3)) == "Active"


def test_choosing_a_side_commits_to_its_own_table_only(window: MainWindow, qtlog: Any) -> None:
    """Issue 24: the terminal printed "QAbstractItemView::commitData called with an editor
    that does not belong to this view" at each side chosen: one delegate served both tables,
    so its commitData reached the other table too. Chosen with the keyboard, as a DM does."""
    dialog = window.encounter_actions.ask_new_encounter()
    assert dialog is not None
    dialog.set_system("side-d6")
    for table, model, key in (("fighters", dialog.fighters, Qt.Key.Key_Down),
                              ("monsters", dialog.monsters, Qt.Key.Key_Up)):
        box = dialog.side_box(table, 0)
        box.setFocus()
        was = box.currentText()
        QTest.keyClick(box, key)  # the next side of the list (not "new side…"): chosen at once
        assert box.currentText() != was
        assert model.item(0, SIDE_COLUMN).text() == box.currentText()
    warned = [r.message for r in qtlog.records if "commitData" in r.message]
    assert not warned, warned
