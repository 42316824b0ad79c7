"""Driving a time-units fight as a DM does: the New Encounter dialog, palette drops onto cards,
the editor's lists by name, d10s typed into the stepper, rows of the resolution list clicked."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QSpinBox,
    QTableView,
    QWidget,
)

from core.model.values import Step
from desktop.encounter.tu_board import TimeUnitBoard
from desktop.encounter.workspace import EncounterWorkspace
from desktop.main_window import MainWindow
from tests.desktop.table.conftest import action, button

PARTY = ("Brannoc the Bold", "Sister Ysolde")


def new_time_units_encounter(window: MainWindow, orcs: int = 2,
                             seed: int | None = None) -> EncounterWorkspace:
    """Encounter menu → New Encounter…: time units, the dice seed typed, two PCs, ``orcs``
    orcs, OK."""
    action(window, "New Encounter").trigger()
    dialogs = [w for w in window.findChildren(QDialog)
               if w.isVisible() and w.windowTitle() == "New Encounter"]
    assert len(dialogs) == 1
    dialog = dialogs[0]
    system = dialog.findChild(QComboBox, "systemBox")
    assert system is not None
    system.setCurrentIndex(next(i for i in range(system.count())
                                if "time" in system.itemText(i).lower()))
    if seed is not None:  # the "Seed" box: the stamped orcs' hit points follow it
        box = next(b for b in dialog.findChildren(QSpinBox) if b.toolTip().startswith("Dice seed"))
        box.lineEdit().selectAll()
        QTest.keyClicks(box, str(seed))
        assert box.value() == seed
    fighters = dialog.findChild(QTableView, "fightersTable")
    monsters = dialog.findChild(QTableView, "monstersTable")
    assert fighters is not None and monsters is not None
    model = fighters.model()
    for row in range(model.rowCount()):  # the check box a DM clicks in the "Fights" column
        index = model.index(row, 0)
        wanted = index.data() in PARTY
        model.setData(index, (Qt.CheckState.Checked if wanted else Qt.CheckState.Unchecked).value,
                      Qt.ItemDataRole.CheckStateRole)
    model = monsters.model()
    row = next(r for r in range(model.rowCount())
               if str(model.index(r, 0).data()).startswith("Orc"))
    model.setData(model.index(row, 1), orcs, Qt.ItemDataRole.EditRole)  # "How many"
    button(dialog, "OK").click()
    workspace = window.encounter_actions.current()
    assert workspace is not None and isinstance(workspace.board, TimeUnitBoard)
    return workspace


def card_of(board: TimeUnitBoard, name: str) -> QModelIndex:
    """Gets the card whose visible text starts with the combatant's name."""
    model = board.cards_model
    for row in range(model.rowCount()):
        index = model.index(row, 0)
        if str(index.data()).startswith(name):
            return index
    shown = [model.index(r, 0).data() for r in range(model.rowCount())]
    raise AssertionError(f"no card {name!r}: {shown}")


def drop_action(board: TimeUnitBoard, title: str, name: str) -> None:
    """Drags ``title`` from the palette onto a card: the palette's own MIME data, the cards'
    model's dropMimeData (offscreen drags cannot run)."""
    palette = board.palette_model
    row = next(r for r in range(palette.rowCount())
               if str(palette.index(r, 0).data()).split()[0] == title)
    data = palette.mimeData([palette.index(row, 0)])
    card = card_of(board, name)
    assert board.cards_model.canDropMimeData(data, Qt.DropAction.CopyAction, -1, 0, card)
    assert board.cards_model.dropMimeData(data, Qt.DropAction.CopyAction, -1, 0, card)


def choose(combo: QComboBox, text: str) -> None:
    """Picks the item a DM reads in a drop-down list."""
    index = combo.findText(text)
    assert index >= 0, (text, [combo.itemText(i) for i in range(combo.count())])
    combo.setCurrentIndex(index)


def declare(board: TimeUnitBoard, target: str) -> None:
    """Picks the target by name in the open editor and presses Enter."""
    assert not board.editor.isHidden()
    choose(board.editor.target, target)
    QTest.keyClick(board.editor.target, Qt.Key.Key_Return)
    assert board.editor.isHidden(), board.message.text()


def dice_rows(workspace: EncounterWorkspace) -> list[QWidget]:
    return list(workspace.stepper.rows)


def type_next_d10(workspace: EncounterWorkspace, total: int) -> None:
    """Types a d10 into the first 'Dice needed' field and presses Enter."""
    rows = workspace.stepper.rows
    assert rows, "the stepper asks for no die"
    rows[0].field.setText(str(total))
    QTest.keyClick(rows[0].field, Qt.Key.Key_Return)


def visible_rows(workspace: EncounterWorkspace) -> list[list[str]]:
    """Gets the resolution list as the DM reads it (cell texts)."""
    model = workspace.steps_view.model()
    return [[str(model.index(r, c).data() or "") for c in range(model.columnCount())]
            for r in range(model.rowCount())]


def click_row(workspace: EncounterWorkspace, when: str, actor: str) -> None:
    """Clicks the resolution-list row showing ``when`` (``TU 14``) and the actor's name."""
    view = workspace.steps_view
    model = view.model()
    for r, cells in enumerate(visible_rows(workspace)):
        if cells[1] == when and cells[2] == actor:
            index = model.index(r, 2)
            view.scrollTo(index)
            QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                             Qt.KeyboardModifier.NoModifier, view.visualRect(index).center())
            assert view.selectionModel().currentIndex().row() == r
            return
    raise AssertionError(f"no row {when} {actor}: {visible_rows(workspace)}")


def selected(workspace: EncounterWorkspace) -> Step | None:
    """Gets the step of the row selected in the resolution list."""
    return workspace.outcome.step
