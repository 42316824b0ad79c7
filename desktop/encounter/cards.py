"""Combatant cards: a list model that drags ``application/x-combatdesk-combatant``.

On the time-unit board the same cards take drops of palette actions; the model never edits
itself on a drop, it only says what was dropped (the board pushes the command).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QMimeData,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QBrush, QColor, QFont, QKeyEvent
from PySide6.QtWidgets import QAbstractItemView, QListView, QWidget

from core.model.values import Combatant, CombatantResult, Resolution, Status, StepEvent
from desktop.encounter.mime import ACTION_MIME, COMBATANT_MIME, decode, encode
from desktop.plain_text import elide_name

ID_ROLE = Qt.ItemDataRole.UserRole + 1
_Index = QModelIndex | QPersistentModelIndex
_SIDE_COLOURS = ("#3b7dd8", "#c0392b", "#8e44ad", "#16a085", "#d35400")


def conditions_on(resolution: Resolution | None) -> dict[str, list[str]]:
    """Gets the conditions still on each creature after the steps resolved (held, asleep…),
    in the order they began; a condition that ended is not there."""
    running: dict[str, dict[str, None]] = {}
    for step in resolution.steps if resolution is not None else ():
        name = str(step.detail.get("condition") or "")
        if not name:
            continue
        if step.event is StepEvent.CONDITION_STARTS:
            running.setdefault(step.actor, {})[name] = None
        elif step.event is StepEvent.CONDITION_ENDS:
            running.get(step.actor, {}).pop(name, None)
    return {cid: list(names) for cid, names in running.items() if names}


class CombatantCardsModel(QAbstractListModel):
    """One row a combatant: name, side, HP now; the active one is bold and highlighted."""

    action_dropped = Signal(str, str)
    """``(combatant id, action)``: a palette action was dropped on a card."""

    def __init__(self, accepts_actions: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._combatants: list[Combatant] = []
        self._results: dict[str, CombatantResult] = {}
        self._sides: list[str] = []
        self._notes: dict[str, str] = {}
        self.active: str | None = None
        self._accepts_actions = accepts_actions

    def set_combatants(
        self, combatants: Sequence[Combatant], results: dict[str, CombatantResult],
        notes: dict[str, str] | None = None, active: str | None = None,
    ) -> None:
        """Shows the combatants with their resolved HP/status and a short note each."""
        combatants, results, notes = list(combatants), dict(results), dict(notes or {})
        if (active == self.active and results == self._results and notes == self._notes
                and combatants == self._combatants):
            return  # nothing to lay out or paint again
        self.beginResetModel()
        self._combatants = combatants
        self._results = results
        self._sides = list(dict.fromkeys(c.side for c in combatants))
        self._notes = notes
        self.active = active
        self.endResetModel()

    def combatant_at(self, row: int) -> Combatant | None:
        return self._combatants[row] if 0 <= row < len(self._combatants) else None

    def row_of(self, cid: str) -> int | None:
        return next((i for i, c in enumerate(self._combatants) if c.id == cid), None)

    def _text(self, c: Combatant) -> str:
        result = self._results.get(c.id)
        hp = result.hp if result is not None else c.hp
        status = result.status if result is not None else c.status
        text = f"{elide_name(c.label)}  [{c.side}]  hp {hp if hp is not None else '?'}"
        if status is not Status.ACTIVE:
            text += f"  — {status}"
        note = self._notes.get(c.id)
        return f"{text}  · {note}" if note else text

    # --- Qt overrides ---------------------------------------------------------------------------

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self._combatants)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        c = self.combatant_at(index.row()) if index.isValid() else None
        if c is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(c)
        if role == ID_ROLE:
            return c.id
        if role == Qt.ItemDataRole.DecorationRole:
            return QColor(_SIDE_COLOURS[self._sides.index(c.side) % len(_SIDE_COLOURS)])
        if role == Qt.ItemDataRole.FontRole and c.id == self.active:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.BackgroundRole and c.id == self.active:
            return QBrush(QColor(255, 214, 102, 150))
        if role == Qt.ItemDataRole.ToolTipRole:
            weapons = ", ".join(w.name for w in c.weapons) or "none"
            spells = ", ".join(s.name for s in c.spells) or "none"
            return f"{c.label}, side {c.side}\nweapons: {weapons}\nspells: {spells}"
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        base = super().flags(index)
        if index.isValid():
            base |= Qt.ItemFlag.ItemIsDragEnabled
            if self._accepts_actions:
                base |= Qt.ItemFlag.ItemIsDropEnabled
        return base

    def mimeTypes(self) -> list[str]:
        return [COMBATANT_MIME, ACTION_MIME] if self._accepts_actions else [COMBATANT_MIME]

    def mimeData(self, indexes: Sequence[QModelIndex]) -> QMimeData:
        rows = [i.row() for i in indexes if i.isValid()]
        c = self.combatant_at(rows[0]) if rows else None
        return encode(COMBATANT_MIME, {"id": c.id if c else None})

    def supportedDragActions(self) -> Qt.DropAction:
        return Qt.DropAction.CopyAction

    def supportedDropActions(self) -> Qt.DropAction:
        return Qt.DropAction.CopyAction

    def canDropMimeData(
        self, data: QMimeData, action: Qt.DropAction, row: int, column: int, parent: _Index
    ) -> bool:
        return self._accepts_actions and parent.isValid() and data.hasFormat(ACTION_MIME)

    def dropMimeData(
        self, data: QMimeData, action: Qt.DropAction, row: int, column: int, parent: _Index
    ) -> bool:
        payload = decode(data, ACTION_MIME)
        target = self.combatant_at(parent.row()) if parent.isValid() else None
        if not self._accepts_actions or payload is None or target is None:
            return False
        self.action_dropped.emit(target.id, str(payload.get("action")))
        return True


class CardsView(QListView):
    """The cards as a drag source; a typed key asks the board to declare for the current card."""

    key_typed = Signal(str, str)
    """``(combatant id, key text)``."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setDragEnabled(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragDrop)
        self.setDefaultDropAction(Qt.DropAction.CopyAction)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        # A long card wraps in a narrow column instead of hiding its hp behind a scroll bar.
        self.setWordWrap(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setResizeMode(QListView.ResizeMode.Adjust)

    def current_id(self) -> str | None:
        index = self.currentIndex()
        value = index.data(ID_ROLE) if index.isValid() else None
        return str(value) if value is not None else None

    def select_id(self, cid: str) -> None:
        model = self.model()
        for row in range(model.rowCount()):
            index = model.index(row, 0)
            if index.data(ID_ROLE) == cid:
                self.setCurrentIndex(index)
                return

    def keyPressEvent(self, event: QKeyEvent) -> None:
        cid = self.current_id()
        text = event.text().upper()
        if cid is not None and text.strip() and event.modifiers() in (
            Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.ShiftModifier
        ) and text.isalnum():
            self.key_typed.emit(cid, text)
            event.accept()
            return
        super().keyPressEvent(event)
