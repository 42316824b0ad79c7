"""Hide From the Players: tick the creatures the table has not seen yet (an ambush, a lurker).

The dialog only chooses; the View menu's action saves the change as one undoable command
(``hidden-from-players`` in the encounter log), so Ctrl+Z takes it back and a watching Combat
Desk used as the players' screen hides them too.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.model.values import Combatant
from core.printout.words import kind_words
from desktop.dialog_help import add_dialog_help

ID_ROLE = Qt.ItemDataRole.UserRole + 1


class HideDialog(QDialog):
    """A checklist of the fight's combatants: ticked ones are hidden from the players."""

    def __init__(self, fight: str, combatants: Iterable[Combatant], hidden: Iterable[str],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        add_dialog_help(self)  # F1 opens the help at this dialog's section
        self.setObjectName("hideDialog")
        self.setWindowTitle("Hide From the Players")
        self._was = set(hidden)
        intro = QLabel(f"Tick the creatures the players have not seen yet in {fight}: the "
                       "players' screen leaves them out, and every step that would give them "
                       "away, until you untick them. The fight itself does not change.")
        intro.setWordWrap(True)
        self.list = QListWidget()
        self.list.setObjectName("hideList")
        for combatant in combatants:
            item = QListWidgetItem(f"{combatant.label} ({kind_words(combatant.kind)}, "
                                   f"{combatant.side})")
            item.setData(ID_ROLE, combatant.id)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if combatant.id in self._was
                               else Qt.CheckState.Unchecked)
            self.list.addItem(item)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.list, 1)
        layout.addWidget(buttons)
        self.resize(440, 420)

    def set_hidden(self, cid: str, hidden: bool) -> None:
        """Ticks (or unticks) ``cid``, as a click on its box does."""
        for row in range(self.list.count()):
            item = self.list.item(row)
            if item.data(ID_ROLE) == cid:
                item.setCheckState(Qt.CheckState.Checked if hidden else Qt.CheckState.Unchecked)
                return
        raise KeyError(cid)

    def changes(self) -> tuple[list[str], list[str]]:
        """Gets (to hide, to reveal): the ids whose box the DM changed."""
        ticked = set()
        order = []
        for row in range(self.list.count()):
            item = self.list.item(row)
            order.append(str(item.data(ID_ROLE)))
            if item.checkState() == Qt.CheckState.Checked:
                ticked.add(str(item.data(ID_ROLE)))
        return ([cid for cid in order if cid in ticked and cid not in self._was],
                [cid for cid in order if cid in self._was and cid not in ticked])
