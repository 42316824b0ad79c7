"""The declaration form's weapon box: pick a weapon, or type (part of) its name.

Issue 24: the box was free text with the cursor left in "default: Short sword"; "Sling" typed
there became "default: Short Slingsword", and the declaration was refused later. Now a click
or Tab into the box selects its text (typing replaces it), a list of the weapons whose names
contain what is typed pops up (any case), and a name matching no weapon of the combatant or of
the weapon table is said at once, by the box, and stops Declare.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, QObject, QStringListModel, Qt, QTimer
from PySide6.QtGui import QFocusEvent
from PySide6.QtWidgets import QComboBox, QCompleter, QWidget

from core.model.values import Weapon
from core.model.weapons import WeaponTable, fold


class WeaponBox(QComboBox):
    """An editable list of weapons whose typed text must name one."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setEditable(True)
        self.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)  # typing never adds an item
        self._names = QStringListModel(self)
        completer = QCompleter(self._names, self)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.setCompleter(completer)
        edit = self.lineEdit()
        if edit is not None:
            edit.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # A click into a box that shows a weapon picked (not one being typed) selects it
        # whole, so that typing replaces it: the click itself put the cursor inside it.
        if (event.type() == QEvent.Type.MouseButtonRelease and watched is self.lineEdit()
                and self.typed() is None):
            QTimer.singleShot(0, self._select_all)
        return super().eventFilter(watched, event)

    def _select_all(self) -> None:
        edit = self.lineEdit()
        if edit is not None and self.typed() is None:
            edit.selectAll()

    def set_names(self, names: Sequence[str]) -> None:
        """Sets the weapon names the completer offers (the "default: …" item is not one)."""
        self._names.setStringList(list(names))

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        edit = self.lineEdit()
        if edit is not None:
            # after the click that gave the focus has placed its cursor: typing replaces
            QTimer.singleShot(0, self._select_all)

    def typed(self) -> str | None:
        """Gets the text typed over the picked item (None: an item is shown as picked)."""
        text = self.currentText().strip()
        return text if text and text != self.itemText(self.currentIndex()) else None


def unknown_weapon(typed: str | None, who: str, carried: Sequence[Weapon],
                   table: WeaponTable | None, system_id: str) -> str | None:
    """Says why ``typed`` names no weapon (None: it names one, in any case, or nothing was
    typed): what was typed, what the combatant carries, where else it was looked for."""
    if typed is None or any(fold(w.name) == fold(typed) for w in carried):
        return None
    listed = table.list_for(system_id) if table is not None else None
    if listed is not None and listed.find(typed) is not None:
        return None
    has = ", ".join(w.name for w in carried) or "no weapon"
    book = f"the {listed.title} weapon table" if listed is not None else "any weapon table"
    return (f"No weapon is called “{typed}”: {who} carries {has}, and {book} has no such "
            "name. Pick one from the list (type a few letters of its name).")
