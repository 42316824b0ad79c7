"""Starting an encounter of any system as a DM does, for the help tests and screenshots."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QComboBox, QDialog, QTableView, QWidget

from desktop.encounter.workspace import EncounterWorkspace
from desktop.main_window import MainWindow

PARTY = ("Brannoc the Bold", "Sister Ysolde")


def _button(root: QWidget, text: str) -> QAbstractButton:
    return next(b for b in root.findChildren(QAbstractButton)
                if b.isVisibleTo(root) and b.text().replace("&", "") == text)


def new_encounter(window: MainWindow, system_id: str, orcs: int = 2) -> EncounterWorkspace:
    """Encounter menu → New Encounter…: the system, two PCs and ``orcs`` orcs, OK."""
    window.encounter_actions.new_action.trigger()
    dialog = next(w for w in window.findChildren(QDialog)
                  if w.isVisible() and w.windowTitle() == "New Encounter")
    box = dialog.findChild(QComboBox, "systemBox")
    assert box is not None
    box.setCurrentIndex(next(i for i in range(box.count()) if box.itemData(i) == system_id))
    fighters = dialog.findChild(QTableView, "fightersTable")
    monsters = dialog.findChild(QTableView, "monstersTable")
    assert fighters is not None and monsters is not None
    model = fighters.model()
    for row in range(model.rowCount()):  # the check box in the "Fights" column
        index = model.index(row, 0)
        wanted = index.data() in PARTY
        model.setData(index, (Qt.CheckState.Checked if wanted else Qt.CheckState.Unchecked).value,
                      Qt.ItemDataRole.CheckStateRole)
    model = monsters.model()
    row = next(r for r in range(model.rowCount())
               if str(model.index(r, 0).data()).startswith("Orc"))
    model.setData(model.index(row, 1), orcs, Qt.ItemDataRole.EditRole)  # "How many"
    _button(dialog, "OK").click()
    workspace = window.encounter_actions.current()
    assert workspace is not None and workspace.controller.system_id == system_id
    return workspace
