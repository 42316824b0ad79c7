"""The roster as a tree (group rows PCs / Henchmen / Hirelings / Monster templates).

The model adapts value lists the window reads from the store; it owns no campaign data and is
rebuilt (a model reset) whenever the window refreshes the lists.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QBrush, QColor, QFont

from core.model.values import Kind
from core.printout.words import status_words
from core.roster.checks import ascending_ac
from core.roster.entries import MonsterTemplate, RosterEntry, RosterStatus, level_text
from desktop.plain_text import elide_name

Index = QModelIndex | QPersistentModelIndex
Item = RosterEntry | MonsterTemplate

SORT_ROLE = Qt.ItemDataRole.UserRole
ITEM_ROLE = Qt.ItemDataRole.UserRole + 1
"""The RosterEntry or MonsterTemplate behind a row (None on group rows)."""
GROUP_ROLE = Qt.ItemDataRole.UserRole + 2
"""The group key of a row: a Kind, or TEMPLATES."""

TEMPLATES = "templates"
GROUPS: tuple[tuple[Kind | str, str], ...] = (
    (Kind.PC, "PCs"),
    (Kind.HENCHMAN, "Henchmen"),
    (Kind.HIRELING, "Hirelings"),
    (TEMPLATES, "Monster templates"),
)
MONSTER_GROUP = (Kind.MONSTER, "Monsters")
"""Shown only when a roster entry is a monster (imported ones can be)."""

COLUMNS = ("Name", "Class / HD", "Level", "HP", "AC (AAC)", "Move", "Side", "Status")
_LEVEL_COLUMN = COLUMNS.index("Level")
STATUS_COLUMN = COLUMNS.index("Status")
_GROUP_ID = 0  # internalId of group rows; entry rows carry their group number + 1


def _num(value: int | None) -> str:
    return "" if value is None else str(value)


def _entry_cells(e: RosterEntry) -> tuple[str, ...]:
    hp = "" if e.hp is None else (f"{e.hp} / {e.max_hp}" if e.max_hp is not None else str(e.hp))
    ac = "" if e.ac is None else f"{e.ac} ({ascending_ac(e.ac)})"
    cls = " ".join(p for p in (e.race, e.char_class) if p)
    status = status_words(e.status)
    return (elide_name(e.name), cls, level_text(e), hp, ac, _num(e.movement), e.side, status)


def fight_words(names: Sequence[str]) -> str:
    """Gets how the roster's Status column says an entry is in open fights ("fighting",
    "fighting in 2 fights"). The fights' names are in the entry's form and the cell's tip:
    the last column of a 1280x720 roster cut "Active · fighting in …" after three words."""
    if not names:
        return ""
    return "fighting" if len(names) == 1 else f"fighting in {len(names)} fights"


def fight_tip(name: str, names: Sequence[str]) -> str:
    """Explains that an open fight offers its own result for the entry when it ends."""
    fights = " and ".join(names)
    when = "that fight ends" if len(names) == 1 else "each ends"
    return (f"{name} is fighting in {fights}, still open. When {when} (Encounter › End) it "
            "offers its own results for HP, status and spells beside the roster as it is "
            "then; you choose what is written.")


def _template_cells(t: MonsterTemplate) -> tuple[str, ...]:
    ac = "" if t.ac is None else f"{t.ac} ({ascending_ac(t.ac)})"
    return (elide_name(t.name), f"HD {t.hit_dice}", "", "", ac, _num(t.movement), "monsters", "")


def _sort_key(item: Item, column: int) -> Any:
    if column == _LEVEL_COLUMN and isinstance(item, RosterEntry) and item.level is not None:
        return float(item.level)  # a multi-class ("2/3") sorts by its highest level
    cells = _entry_cells(item) if isinstance(item, RosterEntry) else _template_cells(item)
    text = cells[column]
    head = text.split(" ")[0]
    try:
        return float(head)  # numbers as numbers; "" sorts as text below
    except ValueError:
        return text.casefold()


TOOLTIP_NOTES = 600
"""Characters of an entry's notes shown when hovering its name."""

class RosterTreeModel(QAbstractItemModel):
    """Groups of roster entries and monster templates, read-only, one row a value."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._groups: list[tuple[Kind | str, str]] = list(GROUPS)
        self._rows: list[list[Item]] = [[] for _ in self._groups]
        self._fighting: dict[int, list[str]] = {}
        """Entry id → the open encounters it fights in (shown beside its status)."""

    # --- our API -------------------------------------------------------------------------------

    def set_values(
        self, entries: Sequence[RosterEntry], templates: Sequence[MonsterTemplate]
    ) -> None:
        """Shows these values (the window calls this after every reload from the store)."""
        self.beginResetModel()
        groups = list(GROUPS)
        if any(e.kind is Kind.MONSTER for e in entries):
            groups.insert(3, MONSTER_GROUP)
        self._groups = groups
        keys = [key for key, _ in groups]
        self._rows = [[] for _ in groups]
        for entry in entries:
            self._rows[keys.index(entry.kind)].append(entry)
        self._rows[keys.index(TEMPLATES)] = list(templates)
        self.endResetModel()

    def set_fighting(self, fighting: Mapping[int, Sequence[str]]) -> None:
        """Shows which entries fight in an open encounter (names of those encounters)."""
        fresh = {k: list(v) for k, v in fighting.items() if v}
        if fresh == self._fighting:
            return
        self._fighting = fresh
        for g, rows in enumerate(self._rows):
            if rows:
                self.dataChanged.emit(self.createIndex(0, STATUS_COLUMN, g + 1),
                                      self.createIndex(len(rows) - 1, STATUS_COLUMN, g + 1))

    def fighting(self, entry_id: int | None) -> list[str]:
        """Gets the open encounters the entry ``entry_id`` fights in."""
        return list(self._fighting.get(entry_id, ())) if entry_id is not None else []

    def item(self, index: Index) -> Item | None:
        """Gets the entry or template at ``index`` (None for group rows)."""
        if not index.isValid() or index.internalId() == _GROUP_ID:
            return None
        return self._rows[index.internalId() - 1][index.row()]

    def group_index(self, key: Kind | str) -> QModelIndex:
        """Gets the group row holding ``key`` (a Kind or TEMPLATES)."""
        keys = [k for k, _ in self._groups]
        return self.index(keys.index(key), 0) if key in keys else QModelIndex()

    def index_of_entry(self, entry_id: int) -> QModelIndex:
        """Gets the row showing the roster entry with ``entry_id`` (invalid if none)."""
        for g, rows in enumerate(self._rows):
            for r, item in enumerate(rows):
                if isinstance(item, RosterEntry) and item.id == entry_id:
                    return self.createIndex(r, 0, g + 1)
        return QModelIndex()

    def index_of_template(self, template_id: int) -> QModelIndex:
        """Gets the row showing the monster template with ``template_id`` (invalid if none)."""
        for g, rows in enumerate(self._rows):
            for r, item in enumerate(rows):
                if isinstance(item, MonsterTemplate) and item.id == template_id:
                    return self.createIndex(r, 0, g + 1)
        return QModelIndex()

    def entries(self) -> list[RosterEntry]:
        """Gets every roster entry shown, group by group."""
        return [i for rows in self._rows for i in rows if isinstance(i, RosterEntry)]

    # --- Qt overrides --------------------------------------------------------------------------

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        if not self.hasIndex(row, column, parent):
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, _GROUP_ID)
        return self.createIndex(row, column, parent.row() + 1)

    def parent(self, index: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        if not index.isValid() or index.internalId() == _GROUP_ID:
            return QModelIndex()
        return self.createIndex(index.internalId() - 1, 0, _GROUP_ID)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        if not parent.isValid():
            return len(self._groups)
        if parent.internalId() == _GROUP_ID and parent.column() == 0:
            return len(self._rows[parent.row()])
        return 0

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return len(COLUMNS)

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        if index.internalId() == _GROUP_ID:
            return self._group_data(index, role)
        item = self._rows[index.internalId() - 1][index.row()]
        column = index.column()
        fights = (self.fighting(item.id) if isinstance(item, RosterEntry)
                  and column == STATUS_COLUMN else [])
        if role == Qt.ItemDataRole.DisplayRole:
            cells = _entry_cells(item) if isinstance(item, RosterEntry) else _template_cells(item)
            return f"{cells[column]} · {fight_words(fights)}" if fights else cells[column]
        if role == Qt.ItemDataRole.ToolTipRole and fights:
            return fight_tip(item.name, fights)
        if role == Qt.ItemDataRole.FontRole and fights:
            font = QFont()
            font.setBold(True)
            return font
        if role == SORT_ROLE:
            return _sort_key(item, column)
        if role == ITEM_ROLE:
            return item
        if role == GROUP_ROLE:
            return self._groups[index.internalId() - 1][0]
        if role == Qt.ItemDataRole.ForegroundRole and isinstance(item, RosterEntry):
            if item.status in (RosterStatus.DEAD, RosterStatus.RETIRED, RosterStatus.FLED):
                return QBrush(QColor(128, 128, 128))
            if item.status is RosterStatus.UNCONSCIOUS:
                return QBrush(QColor(176, 96, 0))
        if role == Qt.ItemDataRole.ToolTipRole and column == 0 and isinstance(item, RosterEntry):
            # Qt renders a tooltip that looks like HTML; escaped, the DM's notes show as typed.
            # Long notes are cut for the tooltip (an 8 MB note took 22 s to show): the whole
            # text is in the editor.
            shown = item.notes[:TOOLTIP_NOTES]
            more = len(item.notes) - len(shown)
            notes = html.escape(shown) + (f"… <i>({more:,} more characters in the editor)</i>"
                                          if more > 0 else "")
            return f"<p style='white-space:pre-wrap'>{notes}</p>" if notes else None
        return None

    def _group_data(self, index: Index, role: int) -> Any:
        key, title = self._groups[index.row()]
        if role == Qt.ItemDataRole.DisplayRole and index.column() == 0:
            return f"{title} ({len(self._rows[index.row()])})"
        if role == Qt.ItemDataRole.FontRole:
            font = QFont()
            font.setBold(True)
            return font
        if role == SORT_ROLE:
            return index.row()
        if role == GROUP_ROLE:
            return key
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None


ANY = ""


class RosterFilterProxy(QSortFilterProxyModel):
    """Sorts within groups (groups keep their order) and filters by name, side and status."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self.setRecursiveFilteringEnabled(True)  # a group shows while a child matches
        self._text = ""
        self._side = ANY
        self._status = ANY

    def set_filter(self, text: str = "", side: str = ANY, status: str = ANY) -> None:
        """Shows only rows whose name holds ``text`` and whose side and status match."""
        self.beginFilterChange()
        self._text = text.strip().casefold()
        self._side = side
        self._status = status
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def is_filtering(self) -> bool:
        """Tells whether any filter is set."""
        return bool(self._text or self._side or self._status)

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        if not source_parent.isValid():
            return not self.is_filtering()  # groups: shown by their matching children
        source = self.sourceModel()
        item = source.index(source_row, 0, source_parent).data(ITEM_ROLE)
        if self._text and self._text not in item.name.casefold():
            return False
        side = item.side if isinstance(item, RosterEntry) else "monsters"
        if self._side and side != self._side:
            return False
        if self._status:
            return isinstance(item, RosterEntry) and str(item.status) == self._status
        return True

    def lessThan(self, left: Index, right: Index) -> bool:
        if not left.parent().isValid():  # group rows stay in their fixed order
            ascending = self.sortOrder() == Qt.SortOrder.AscendingOrder
            return (left.row() < right.row()) == ascending
        a, b = left.data(SORT_ROLE), right.data(SORT_ROLE)
        if type(a) is not type(b):  # a number against an empty cell: numbers first
            return isinstance(a, float)
        return bool(a < b)
