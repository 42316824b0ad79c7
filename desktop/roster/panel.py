"""The roster panel: a filter bar over the grouped, sortable roster tree."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from core.roster.entries import MonsterTemplate, RosterEntry, RosterStatus
from desktop.roster.tree_model import (
    ANY,
    GROUP_ROLE,
    ITEM_ROLE,
    RosterFilterProxy,
    RosterTreeModel,
)

Item = RosterEntry | MonsterTemplate
RESIZE_ROWS_LIMIT = 500


class RosterPanel(QWidget):
    """Shows the campaign's roster and templates; tells the window what is selected."""

    current_changed = Signal(object)
    """The RosterEntry or MonsterTemplate now current (None on a group row)."""
    activated = Signal(object)
    """Enter or a double click on an entry or template."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = RosterTreeModel(self)
        self.proxy = RosterFilterProxy(self)
        self.proxy.setSourceModel(self.model)

        self.filter_edit = QLineEdit()
        self.filter_edit.setObjectName("rosterFilter")
        self.filter_edit.setPlaceholderText("Filter by name (Ctrl+F)")
        self.filter_edit.setClearButtonEnabled(True)
        self.side_box = QComboBox()
        self.side_box.setObjectName("sideFilter")
        self.status_box = QComboBox()
        self.status_box.setObjectName("statusFilter")
        self.status_box.addItem("Any status", ANY)
        for status in RosterStatus:
            self.status_box.addItem(str(status).capitalize(), str(status))
        self._set_sides(["party", "monsters"])

        self.view = QTreeView()
        self.view.setObjectName("rosterTree")
        self.view.setModel(self.proxy)
        self.view.setSortingEnabled(True)
        self.view.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # the campaign's own order first
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        # Shift/Ctrl+click pick several rows: Delete and Rest act on all of them at once.
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.view.setAlternatingRowColors(True)
        self.view.setUniformRowHeights(True)  # keeps 5,000 rows quick
        self.view.setAllColumnsShowFocus(True)
        self.view.header().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.view.header().setStretchLastSection(True)
        self.view.selectionModel().currentRowChanged.connect(self._on_current_row)
        self.view.activated.connect(self._on_activated)

        self.filter_edit.textChanged.connect(self._on_filter)
        self.side_box.currentIndexChanged.connect(self._on_filter)
        self.status_box.currentIndexChanged.connect(self._on_filter)

        bar = QHBoxLayout()
        bar.addWidget(self.filter_edit, 1)
        bar.addWidget(QLabel("Side"))
        bar.addWidget(self.side_box)
        bar.addWidget(self.status_box)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(bar)
        layout.addWidget(self.view, 1)
        self.setFocusProxy(self.view)
        self._sized = False

    def _set_sides(self, sides: Sequence[str]) -> None:
        current = self.side_box.currentData()
        self.side_box.blockSignals(True)
        self.side_box.clear()
        self.side_box.addItem("Any side", ANY)
        for side in sides:
            self.side_box.addItem(side, side)
        found = self.side_box.findData(current)
        self.side_box.setCurrentIndex(max(found, 0))
        self.side_box.blockSignals(False)

    def set_values(
        self,
        entries: Sequence[RosterEntry],
        templates: Sequence[MonsterTemplate],
        keep: int | None = None,
        keep_template: int | None = None,
    ) -> None:
        """Shows fresh values; re-selects entry ``keep`` or template ``keep_template`` (or the
        previously current one)."""
        current = self.current_item()
        if keep is None and keep_template is None:
            if isinstance(current, RosterEntry):
                keep = current.id
            elif isinstance(current, MonsterTemplate):
                keep_template = current.id
        self._set_sides(sorted({e.side for e in entries} | {"party", "monsters"}))
        self.model.set_values(entries, templates)
        self.view.expandAll()
        if not self._sized or len(entries) <= RESIZE_ROWS_LIMIT:
            # Measuring every row is what makes a big roster slow to show: do it once.
            for column in range(self.model.columnCount() - 1):
                self.view.resizeColumnToContents(column)
            self._sized = bool(entries)
        if keep is not None:
            self.select_entry(keep)
        elif keep_template is not None:
            self.select_template(keep_template)

    def select_entry(self, entry_id: int) -> bool:
        """Makes the entry with ``entry_id`` current (if it is shown); tells whether it is."""
        index = self.proxy.mapFromSource(self.model.index_of_entry(entry_id))
        if not index.isValid():
            return False
        self.view.setCurrentIndex(index)
        self.view.scrollTo(index)
        return True

    def select_template(self, template_id: int) -> bool:
        """Makes the template with ``template_id`` current (if it is shown); tells whether it is."""
        index = self.proxy.mapFromSource(self.model.index_of_template(template_id))
        if not index.isValid():
            return False
        self.view.setCurrentIndex(index)
        self.view.scrollTo(index)
        return True

    def select_item(self, item: Item) -> bool:
        """Makes ``item`` (an entry or a template, by id) current; tells whether it is shown."""
        if item.id is None:
            return False
        if isinstance(item, MonsterTemplate):
            return self.select_template(item.id)
        return self.select_entry(item.id)

    def current_item(self) -> Item | None:
        """Gets the current entry or template (None for a group row or nothing)."""
        index = self.view.currentIndex()
        return index.data(ITEM_ROLE) if index.isValid() else None

    def selected_items(self) -> list[Item]:
        """Gets the selected entries and templates in the order shown (the current one if no
        row is selected); group rows count for nothing."""
        rows = self.view.selectionModel().selectedRows(0)
        rows.sort(key=lambda i: (i.parent().row(), i.row()))
        items = [i.data(ITEM_ROLE) for i in rows]
        chosen = [i for i in items if i is not None]
        if not chosen:
            current = self.current_item()
            return [current] if current is not None else []
        return chosen

    def current_group(self) -> object:
        """Gets the group key (a Kind, or "templates") of the current row."""
        index = self.view.currentIndex()
        return index.sibling(index.row(), 0).data(GROUP_ROLE) if index.isValid() else None

    def _on_filter(self, *_args: object) -> None:
        self.proxy.set_filter(
            self.filter_edit.text(), self.side_box.currentData(), self.status_box.currentData()
        )
        self.view.expandAll()

    def _on_current_row(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self.current_changed.emit(current.data(ITEM_ROLE) if current.isValid() else None)

    def _on_activated(self, index: QModelIndex) -> None:
        item = index.data(ITEM_ROLE)
        if item is not None:
            self.activated.emit(item)
