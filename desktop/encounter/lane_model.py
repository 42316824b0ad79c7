"""A drop lane of the action board: the declarations in it, card drops onto it, and the cards
on it as things a DM can open (change), drag to another lane (move) and take back.

An entry wraps onto as many lines as it needs (actor → target first), or onto at most
``max_lines`` lines where the lane asks for it; its tooltip holds the full text as well.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QMimeData,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    Qt,
    Signal,
)
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGroupBox,
    QLabel,
    QListView,
    QMenu,
    QVBoxLayout,
    QWidget,
)

from desktop.encounter.card_delegate import ClippedCardDelegate
from desktop.encounter.mime import COMBATANT_MIME, DECLARATION_MIME, decode, encode

ENTRY_ROLE = Qt.ItemDataRole.UserRole + 2
"""Gets a row's entry index in its list (declarations, turns or actions)."""
_Index = QModelIndex | QPersistentModelIndex


class LaneModel(QAbstractListModel):
    """Rows of ``(text, entry index)``; a drop is announced, never applied here."""

    combatant_dropped = Signal(str, str)
    """``(combatant id, lane key)``: a combatant card was dropped (a new declaration)."""
    declaration_dropped = Signal(int, str)
    """``(entry index, lane key)``: a declaration was dragged here from another lane."""

    def __init__(self, key: str, editable: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.key = key
        self.editable = editable
        self._rows: list[tuple[str, int | None]] = []

    def set_rows(self, rows: Sequence[tuple[str, int | None]]) -> None:
        rows = list(rows)
        if rows == self._rows:
            return  # a lane the command left alone is neither laid out nor painted again
        self.beginResetModel()
        self._rows = rows
        self.endResetModel()

    def texts(self) -> list[str]:
        return [text for text, _ in self._rows]

    def row_of_entry(self, entry: int) -> int | None:
        return next((i for i, (_, e) in enumerate(self._rows) if e == entry), None)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        text, entry = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return text
        if role == Qt.ItemDataRole.ToolTipRole:
            if not self.editable:
                return text
            return (f"{text}\nDouble-click or Enter: change · drag or press another lane's key: "
                    "move · Delete: take back")
        if role == ENTRY_ROLE:
            return entry
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        base = super().flags(index)
        if index.isValid():
            return base | Qt.ItemFlag.ItemIsDragEnabled if self.editable else base
        return base | Qt.ItemFlag.ItemIsDropEnabled

    def mimeTypes(self) -> list[str]:
        return [COMBATANT_MIME, DECLARATION_MIME]

    def mimeData(self, indexes: Sequence[QModelIndex]) -> QMimeData:
        rows = [i.row() for i in indexes if i.isValid()]
        entry = self._rows[rows[0]][1] if rows else None
        return encode(DECLARATION_MIME, {"index": entry, "from": self.key})

    def supportedDragActions(self) -> Qt.DropAction:
        return Qt.DropAction.MoveAction

    def supportedDropActions(self) -> Qt.DropAction:
        return Qt.DropAction.CopyAction | Qt.DropAction.MoveAction

    def canDropMimeData(
        self, data: QMimeData, action: Qt.DropAction, row: int, column: int, parent: _Index
    ) -> bool:
        return data.hasFormat(COMBATANT_MIME) or data.hasFormat(DECLARATION_MIME)

    def dropMimeData(
        self, data: QMimeData, action: Qt.DropAction, row: int, column: int, parent: _Index
    ) -> bool:
        moved = decode(data, DECLARATION_MIME)
        if moved is not None:
            if not self.editable or not isinstance(moved.get("index"), int) \
                    or moved.get("from") == self.key:
                return False
            self.declaration_dropped.emit(moved["index"], self.key)
            # Copy, not Move: the source view must not delete the row itself; the command does.
            return True
        payload = decode(data, COMBATANT_MIME)
        if payload is None or not isinstance(payload.get("id"), str):
            return False
        self.combatant_dropped.emit(payload["id"], self.key)
        return True


class LaneView(QListView):
    """The cards on a lane: Enter or double-click changes one, Delete takes it back, another
    lane's key moves it there, and the context menu offers the same."""

    change_requested = Signal(int)
    take_back_requested = Signal(int)
    move_requested = Signal(int, str)
    """``(entry index, key text)``: the keyboard equivalent of dragging it to that lane."""

    def __init__(self, editable: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.editable = editable
        self.lane_names: list[tuple[str, str]] = []
        """``(key, title)`` of every lane, for the context menu's Move to."""
        self.doubleClicked.connect(self._on_double_clicked)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._on_menu)

    def current_entry(self) -> int | None:
        index = self.currentIndex()
        value = index.data(ENTRY_ROLE) if index.isValid() else None
        return int(value) if value is not None else None

    def _on_double_clicked(self, index: QModelIndex) -> None:
        value = index.data(ENTRY_ROLE)
        if value is not None and self.editable:
            self.change_requested.emit(int(value))

    def keyPressEvent(self, event: QKeyEvent) -> None:
        entry = self.current_entry()
        text = event.text().upper()
        if entry is None or not self.editable:
            super().keyPressEvent(event)
            return
        elif event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.change_requested.emit(entry)
        elif event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
            self.take_back_requested.emit(entry)
        elif text.strip() and text.isalnum() and event.modifiers() in (
                Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.ShiftModifier):
            self.move_requested.emit(entry, text)
        else:
            super().keyPressEvent(event)
            return
        event.accept()

    def menu_for(self, entry: int) -> QMenu:
        """Builds the context menu of one card (Change, Move to, Take back)."""
        menu = QMenu(self)
        menu.addAction("Change…", lambda: self.change_requested.emit(entry))
        move = menu.addMenu("Move to")
        for key, title in self.lane_names:
            move.addAction(f"{title}", lambda k=key: self.move_requested.emit(entry, k))
        menu.addAction("Take back", lambda: self.take_back_requested.emit(entry))
        return menu

    def _on_menu(self, pos: QPoint) -> None:
        index = self.indexAt(pos)
        value = index.data(ENTRY_ROLE) if index.isValid() else None
        if value is not None and self.editable:
            self.setCurrentIndex(index)
            self.menu_for(int(value)).exec(self.viewport().mapToGlobal(pos))


class LaneBox(QGroupBox):
    """A titled lane: its list view accepts card drops anywhere in it."""

    def __init__(
        self, key: str, title: str, meaning: str = "", parent: QWidget | None = None,
        editable: bool = False, wrap_title: bool = False, max_lines: int | None = None,
    ) -> None:
        # A group box cuts a long title in a narrow lane ("withdraw [" at 1280x720); with
        # ``wrap_title`` the title is a label that goes onto a second line instead.
        super().__init__("" if wrap_title else title, parent)
        self._title = title
        self.heading: QLabel | None = None
        if wrap_title:
            self.heading = QLabel(title)
            self.heading.setWordWrap(True)
        self.setObjectName(f"lane-{key}")
        self.setToolTip(meaning)
        self.model = LaneModel(key, editable, self)
        self.view = LaneView(editable)
        self.view.setModel(self.model)
        self.view.setAcceptDrops(True)
        self.view.setDragEnabled(editable)
        self.view.setDropIndicatorShown(True)
        self.view.setDragDropMode(QAbstractItemView.DragDropMode.DragDrop if editable
                                  else QAbstractItemView.DragDropMode.DropOnly)
        self.view.setDefaultDropAction(Qt.DropAction.CopyAction)
        self.view.setToolTip(meaning)
        self.view.setMinimumHeight(26)  # an empty lane stays a drop target, small
        # A card wraps rather than losing its target; the tooltip has the full text too.
        self.view.setWordWrap(True)
        self.view.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.view.setUniformItemSizes(False)
        # wrapped cards must still read as separate cards
        self.view.setAlternatingRowColors(True)
        self.view.setSpacing(1)
        self.view.setResizeMode(QListView.ResizeMode.Adjust)
        if max_lines is not None:  # cards cut to a few lines, so a narrow lane shows several
            self.view.setItemDelegate(ClippedCardDelegate(max_lines, self.view))
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # An explicit minimum wins over the title's width: lanes may narrow on small screens.
        self.setMinimumWidth(80)
        self.meaning = QLabel(f"<small>{meaning}</small>")
        self.meaning.setWordWrap(True)
        self.meaning.setVisible(bool(meaning))
        layout = QVBoxLayout(self)
        side = 2 if wrap_title else 4  # the narrow lanes keep every pixel for their words
        layout.setContentsMargins(side, 2, side, 4)
        layout.setSpacing(2)
        if self.heading is not None:
            layout.addWidget(self.heading)
        layout.addWidget(self.meaning)
        layout.addWidget(self.view, 1)

    def title(self) -> str:
        """Gets the lane's title, shown as the box's or as the wrapping heading."""
        return self._title

    def set_title(self, title: str) -> None:
        """Changes the title wherever it is shown."""
        self._title = title
        if self.heading is not None:
            self.heading.setText(title)
        else:
            self.setTitle(title)

    def current_entry(self) -> int | None:
        return self.view.current_entry()
