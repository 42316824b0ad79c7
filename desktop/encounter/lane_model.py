"""A drop lane of the action board: the entries already in it, and card drops onto it.

An entry takes one line of its lane; a long one is elided and shows in full as its tooltip.
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
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGroupBox,
    QLabel,
    QListView,
    QVBoxLayout,
    QWidget,
)

from desktop.encounter.mime import COMBATANT_MIME, decode

ENTRY_ROLE = Qt.ItemDataRole.UserRole + 2
"""Gets a row's entry index in its list (declarations, turns or actions)."""
_Index = QModelIndex | QPersistentModelIndex


class LaneModel(QAbstractListModel):
    """Rows of ``(text, entry index)``; a dropped card is announced, never added here."""

    combatant_dropped = Signal(str, str)
    """``(combatant id, lane key)``."""

    def __init__(self, key: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.key = key
        self._rows: list[tuple[str, int | None]] = []

    def set_rows(self, rows: Sequence[tuple[str, int | None]]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def texts(self) -> list[str]:
        return [text for text, _ in self._rows]

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        text, entry = self._rows[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return text
        if role == ENTRY_ROLE:
            return entry
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        base = super().flags(index)
        return base if index.isValid() else base | Qt.ItemFlag.ItemIsDropEnabled

    def mimeTypes(self) -> list[str]:
        return [COMBATANT_MIME]

    def supportedDropActions(self) -> Qt.DropAction:
        return Qt.DropAction.CopyAction | Qt.DropAction.MoveAction

    def canDropMimeData(
        self, data: QMimeData, action: Qt.DropAction, row: int, column: int, parent: _Index
    ) -> bool:
        return data.hasFormat(COMBATANT_MIME)

    def dropMimeData(
        self, data: QMimeData, action: Qt.DropAction, row: int, column: int, parent: _Index
    ) -> bool:
        payload = decode(data, COMBATANT_MIME)
        if payload is None or not isinstance(payload.get("id"), str):
            return False
        self.combatant_dropped.emit(payload["id"], self.key)
        return True


class LaneBox(QGroupBox):
    """A titled lane: its list view accepts card drops anywhere in it."""

    def __init__(
        self, key: str, title: str, meaning: str = "", parent: QWidget | None = None
    ) -> None:
        super().__init__(title, parent)
        self.setObjectName(f"lane-{key}")
        self.setToolTip(meaning)
        self.model = LaneModel(key, self)
        self.view = QListView()
        self.view.setModel(self.model)
        self.view.setAcceptDrops(True)
        self.view.setDropIndicatorShown(True)
        self.view.setDragDropMode(QAbstractItemView.DragDropMode.DropOnly)
        self.view.setDefaultDropAction(Qt.DropAction.CopyAction)
        self.view.setToolTip(meaning)
        self.view.setMinimumHeight(40)
        # One line an entry: a long one is elided, its tooltip holds the full text.
        self.view.setWordWrap(False)
        self.view.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.view.setUniformItemSizes(True)
        self.view.setResizeMode(QListView.ResizeMode.Adjust)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # An explicit minimum wins over the title's width: lanes may narrow on small screens.
        self.setMinimumWidth(80)
        self.meaning = QLabel(f"<small>{meaning}</small>")
        self.meaning.setWordWrap(True)
        self.meaning.setVisible(bool(meaning))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 4)
        layout.setSpacing(2)
        layout.addWidget(self.meaning)
        layout.addWidget(self.view, 1)

    def current_entry(self) -> int | None:
        index = self.view.currentIndex()
        value = index.data(ENTRY_ROLE) if index.isValid() else None
        return int(value) if value is not None else None
