"""Table models adapting roster values for Qt views (the store owns the data, not the model)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from core.roster import MonsterTemplate, RosterEntry

T = TypeVar("T")
Index = QModelIndex | QPersistentModelIndex


KIND_LABELS = {"pc": "PC", "henchman": "Henchman", "hireling": "Hireling", "monster": "Monster"}


def _num(value: int | None) -> str:
    return "" if value is None else str(value)


def _hp(entry: RosterEntry) -> str:
    if entry.hp is None:
        return ""
    return f"{entry.hp} / {entry.max_hp}" if entry.max_hp is not None else str(entry.hp)


class ValuesTableModel(QAbstractTableModel, Generic[T]):
    """A read-only table over a list of frozen values, one column per (title, getter)."""

    def __init__(self, columns: Sequence[tuple[str, Callable[[T], Any]]], parent: Any = None):
        super().__init__(parent)
        self._columns = list(columns)
        self._items: list[T] = []

    def set_items(self, items: Sequence[T]) -> None:
        """Replaces every row (after the campaign changed or was reloaded)."""
        self.beginResetModel()
        self._items = list(items)
        self.endResetModel()

    def item(self, row: int) -> T:
        """Gets the value shown in ``row``."""
        return self._items[row]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._items)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._columns)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        getter = self._columns[index.column()][1]
        value = getter(self._items[index.row()])
        if role == Qt.ItemDataRole.DisplayRole:
            return value
        if role == Qt.ItemDataRole.TextAlignmentRole and str(value)[:1].isdigit():
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.UserRole:  # sort key: numbers as numbers
            try:
                return int(str(value).split(" ")[0])
            except ValueError:
                return str(value).casefold()
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self._columns[section][0]
        return None


def roster_model(parent: Any = None) -> ValuesTableModel[RosterEntry]:
    """Makes the model behind the roster table."""
    return ValuesTableModel[RosterEntry](
        [
            ("Name", lambda e: e.name),
            ("Kind", lambda e: KIND_LABELS[str(e.kind)]),
            ("Class", lambda e: e.char_class),
            ("Race", lambda e: e.race),
            ("Level", lambda e: _num(e.level)),
            ("HP", _hp),
            ("AC", lambda e: _num(e.ac)),
            ("Status", lambda e: str(e.status).capitalize()),
        ],
        parent,
    )


def templates_model(parent: Any = None) -> ValuesTableModel[MonsterTemplate]:
    """Makes the model behind the monster templates table."""
    return ValuesTableModel[MonsterTemplate](
        [
            ("Name", lambda t: t.name),
            ("Hit dice", lambda t: t.hit_dice),
            ("AC", lambda t: _num(t.ac)),
            ("Move", lambda t: _num(t.movement)),
            ("Morale", lambda t: _num(t.morale)),
            ("Weapons", lambda t: ", ".join(w.name for w in t.weapons)),
        ],
        parent,
    )
