"""Small table editors for an entry's weapons and memorised spells."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemDelegate,
    QCompleter,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.model.resources import load_weapon_table
from core.model.values import Spell, Weapon
from core.model.weapons import WeaponTable, WeaponTableError, facts_words

FROM_TABLE = Qt.ItemDataRole.UserRole + 1
"""Marks a weapon cell the weapon table filled (not typed): a new name may refill it."""
_FACT_COLUMNS = ((1, "speed_factor"), (2, "length"), (3, "missile"), (4, "slow"),
                 (5, "rate_of_fire"))  # fmt: skip


class TableError(ValueError):
    """A cell that does not hold what its column needs."""


def _int_cell(text: str, what: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise TableError(f"{what}: {text!r} is not a whole number") from None


def _float_cell(text: str, what: str) -> float | None:
    text = text.strip().replace(",", ".")
    if not text:
        return None
    try:
        return float(text)
    except ValueError:
        raise TableError(f"{what}: {text!r} is not a number of feet") from None


class _RowsEditor(QWidget):
    """A table with Add/Remove buttons; text columns plus check-box columns."""

    changed = Signal()

    def __init__(
        self, name: str, headers: Sequence[str], checks: Sequence[int], parent: QWidget | None
    ) -> None:
        super().__init__(parent)
        self._checks = set(checks)
        self.table = QTableWidget(0, len(headers))
        self.table.setObjectName(f"{name}Table")
        self.table.setHorizontalHeaderLabels(list(headers))
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.setMinimumHeight(90)
        self.table.setTabKeyNavigation(False)  # Tab leaves the table, arrows move inside it
        self.table.itemChanged.connect(lambda _item: self.changed.emit())
        self.add_button = QPushButton(f"Add {name[:-1]}")
        self.add_button.setObjectName(f"add{name.capitalize()[:-1]}")
        self.add_button.clicked.connect(self._on_add)
        self.remove_button = QPushButton("Remove")
        self.remove_button.clicked.connect(self._on_remove)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table)
        layout.addLayout(buttons)

    def _set_rows(self, rows: Sequence[Sequence[object]]) -> None:
        self.table.blockSignals(True)
        self.table.setRowCount(0)
        for values in rows:
            self._append(values)
        self.table.blockSignals(False)
        self.table.resizeColumnsToContents()

    def _append(self, values: Sequence[object]) -> None:
        row = self.table.rowCount()
        self.table.insertRow(row)
        for col, value in enumerate(values):
            item = QTableWidgetItem()
            if col in self._checks:
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(Qt.CheckState.Checked if value else Qt.CheckState.Unchecked)
            else:  # 4.0 feet reads "4", as the DM typed it
                item.setText("" if value is None else f"{value:g}" if isinstance(value, float)
                             else str(value))
            self.table.setItem(row, col, item)

    def _text(self, row: int, col: int) -> str:
        item = self.table.item(row, col)
        return item.text() if item is not None else ""

    def _checked(self, row: int, col: int) -> bool:
        item = self.table.item(row, col)
        return item is not None and item.checkState() == Qt.CheckState.Checked

    def _blank(self) -> Sequence[object]:
        raise NotImplementedError

    def _on_add(self) -> None:
        self._append(self._blank())
        self.table.setCurrentCell(self.table.rowCount() - 1, 0)
        self.table.editItem(self.table.item(self.table.rowCount() - 1, 0))
        self.changed.emit()

    def _on_remove(self) -> None:
        rows = sorted({i.row() for i in self.table.selectedIndexes()}, reverse=True)
        if not rows and self.table.currentRow() >= 0:
            rows = [self.table.currentRow()]
        for row in rows:
            self.table.removeRow(row)
        self.changed.emit()


def weapon_table() -> tuple[WeaponTable | None, str]:
    """Gets the weapon table, or None and the reason it could not be read."""
    try:
        return load_weapon_table(), ""
    except WeaponTableError as exc:
        return None, f"The weapon table could not be read ({exc}); type the numbers in."


class _NameEdit(QLineEdit):
    """A weapon name's cell editor: Tab leaves the name for the next cell, names offered or not.

    While the offered names are open they take the keys, and the completer hands Tab straight
    to the editor past the delegate; the editor then passed the focus on out of the table (to
    the next button), the name was committed only as it lost focus, and the speed and length
    the DM went on to type landed nowhere. Here Tab does what the delegate does with the list
    closed: commits the name (the highlighted one if the DM picked one) and opens the next cell.
    """

    def __init__(self, parent: QWidget, delegate: QAbstractItemDelegate) -> None:
        super().__init__(parent)
        self._delegate = delegate

    def event(self, event: QEvent) -> bool:
        completer = self.completer()
        if (
            event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab)
            and completer is not None
            and completer.popup().isVisible()
        ):
            picked = completer.popup().currentIndex()
            if picked.isValid():
                self.setText(str(picked.data(completer.completionRole())))
            completer.popup().hide()
            hint = QAbstractItemDelegate.EndEditHint
            forward = event.key() == Qt.Key.Key_Tab and not (
                event.modifiers() & Qt.KeyboardModifier.ShiftModifier
            )
            self._delegate.commitData.emit(self)
            self._delegate.closeEditor.emit(
                self, hint.EditNextItem if forward else hint.EditPreviousItem
            )
            event.accept()
            return True
        return super().event(event)


class _NameDelegate(QStyledItemDelegate):
    """Edits a weapon's name with the weapon table's names offered as you type."""

    def __init__(self, names: Sequence[str], parent: QWidget) -> None:
        super().__init__(parent)
        self._names = list(names)

    def createEditor(
        self, parent: QWidget, option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> QWidget:  # fmt: skip
        editor = _NameEdit(parent, self)
        editor.setFrame(False)  # as the default cell editor
        editor.setObjectName("weaponNameEdit")
        completer = QCompleter(self._names, editor)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        editor.setCompleter(completer)
        return editor


class WeaponsEditor(_RowsEditor):
    """Name, speed factor, length, missile, slow, rate of fire.

    Naming a weapon the weapon table knows fills its facts; a value the DM typed stays (only
    blank cells and cells the table itself filled are refilled).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        headers = ("Weapon", "Speed", "Length ft", "Missile", "Slow", "Rate of fire")
        super().__init__("weapons", headers, checks=(3, 4), parent=parent)
        self.system_id: str | None = None
        self.table_problem = QLabel()
        self.table_problem.setObjectName("weaponTableProblem")
        self.table_problem.setWordWrap(True)
        self.weapon_table, problem = weapon_table()
        self.table_problem.setText(problem)
        self.table_problem.setVisible(bool(problem))
        layout = self.layout()
        assert isinstance(layout, QVBoxLayout)
        layout.addWidget(self.table_problem)
        self._filling = False
        self._delegate = _NameDelegate(self._names(), self.table)
        self.table.setItemDelegateForColumn(0, self._delegate)
        header = self.table.horizontalHeaderItem(0)
        if header is not None:
            header.setToolTip(
                "A weapon from the weapon table fills its speed factor, length, "
                "missile, slow and rate of fire; what you type stays"
            )
        self.table.itemChanged.connect(self._on_item_changed)

    def set_system(self, system_id: str | None) -> None:
        """Offers and fills from one system's list (None: every list, facts joined)."""
        self.system_id = system_id
        self._delegate._names = self._names()

    def _names(self) -> list[str]:
        return list(self.weapon_table.names(self.system_id)) if self.weapon_table else []

    def _facts(self, name: str) -> Weapon | None:
        if self.weapon_table is None:
            return None
        return self.weapon_table.facts(name, self.system_id)

    def set_weapons(self, weapons: Sequence[Weapon]) -> None:
        """Shows ``weapons``; cells holding exactly the table's value count as filled by it."""
        self._filling = True
        self._set_rows(
            [(w.name, w.speed_factor, w.length, w.missile, w.slow, w.rate_of_fire) for w in weapons]
        )
        for row, weapon in enumerate(weapons):
            facts = self._facts(weapon.name)
            for col, key in _FACT_COLUMNS:
                item = self.table.item(row, col)
                value = getattr(weapon, key)
                if (
                    item is not None
                    and facts is not None
                    and value == getattr(facts, key)
                    and (value not in (None, False))
                ):
                    item.setData(FROM_TABLE, True)
            self._show_name_tip(row, facts)
        self._filling = False

    def _on_item_changed(self, item: QTableWidgetItem) -> None:
        if self._filling:
            return
        if item.column() == 0:
            self.fill_row(item.row())
        elif item.data(FROM_TABLE):
            # the DM changed a value the table filled: from now on it is theirs
            self.table.blockSignals(True)
            item.setData(FROM_TABLE, None)
            item.setToolTip("")
            self.table.blockSignals(False)

    def fill_row(self, row: int) -> None:
        """Fills row ``row``'s blank and table-filled cells from the table entry its name has."""
        facts = self._facts(self._text(row, 0).strip())
        self._filling = True
        self.table.blockSignals(True)
        try:
            for col, key in _FACT_COLUMNS:
                item = self.table.item(row, col)
                if item is None:
                    continue
                typed = (
                    self._checked(row, col) if col in self._checks else bool(item.text().strip())
                )
                if typed and not item.data(FROM_TABLE):
                    continue  # the DM's value wins
                value = getattr(facts, key) if facts is not None else None
                if col in self._checks:
                    item.setCheckState(Qt.CheckState.Checked if value else Qt.CheckState.Unchecked)
                else:
                    item.setText(
                        ""
                        if value is None
                        else f"{value:g}"
                        if isinstance(value, float)
                        else str(value)
                    )
                filled = value not in (None, False)
                item.setData(FROM_TABLE, True if filled else None)
                item.setToolTip(
                    "From the weapon table; type over it to change it" if filled else ""
                )
            self._show_name_tip(row, facts)
        finally:
            self.table.blockSignals(False)
            self._filling = False
        self.changed.emit()

    def _show_name_tip(self, row: int, facts: Weapon | None) -> None:
        item = self.table.item(row, 0)
        if item is None or self.weapon_table is None:
            return
        found = self.weapon_table.find_all(item.text()) if facts is not None else ()
        lines = [
            f"{wl.title}: {facts_words(w) or 'no facts'}"
            for w in found
            for wl in self.weapon_table.lists
            if wl.id == w.list_id
        ]
        rate = next(
            (
                w.rate_of_fire
                for w in found
                if w.rate_of_fire is not None and w.whole_rate_of_fire is None
            ),
            None,
        )
        if rate is not None:
            lines.append(
                f"Rate of fire {rate} a round: leave the cell blank or type a whole number"
            )
        item.setToolTip("\n".join(lines))

    def _blank(self) -> Sequence[object]:
        return ("New weapon", None, None, False, False, None)

    def weapons(self) -> tuple[Weapon, ...]:
        """Gets the weapons as typed; raises TableError naming the row and column."""
        out = []
        for row in range(self.table.rowCount()):
            what = f"Weapon {row + 1}"
            out.append(
                Weapon(
                    name=self._text(row, 0).strip(),
                    speed_factor=_int_cell(self._text(row, 1), f"{what} speed factor"),
                    length=_float_cell(self._text(row, 2), f"{what} length"),
                    missile=self._checked(row, 3),
                    slow=self._checked(row, 4),
                    rate_of_fire=_int_cell(self._text(row, 5), f"{what} rate of fire"),
                )
            )
        return tuple(out)


class SpellsEditor(_RowsEditor):
    """Memorised spells: name, level, casting time (segments), and whether it is spent.

    A spent spell stays memorised: an encounter ticks it, a rest clears the tick.
    """

    SPENT = 3

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            "spells", ("Spell", "Level", "Casting time", "Spent"), checks=(self.SPENT,),
            parent=parent,
        )  # fmt: skip
        header = self.table.horizontalHeaderItem(self.SPENT)
        if header is not None:
            header.setToolTip("Ticked: cast or lost since the last rest (still memorised)")
        self.summary = QLabel()
        self.summary.setObjectName("spellsSummary")
        self.summary.setToolTip("A rest makes the spent spells available again")
        self.table.setMinimumHeight(130)  # three spells and the header without scrolling
        layout = self.layout()
        assert isinstance(layout, QVBoxLayout)
        layout.insertWidget(0, self.summary)
        self.changed.connect(self._show_summary)

    def set_spells(self, spells: Sequence[Spell], spent: Sequence[int] = ()) -> None:
        """Shows ``spells``, ticking the spent ones (positions in ``spells``)."""
        marked = set(spent)
        self._set_rows(
            [(s.name, s.level, s.casting_time, i in marked) for i, s in enumerate(spells)]
        )
        self._show_summary()

    def _blank(self) -> Sequence[object]:
        return ("New spell", 1, 1, False)

    def spent(self) -> tuple[int, ...]:
        """Gets the positions of the rows ticked spent."""
        return tuple(r for r in range(self.table.rowCount()) if self._checked(r, self.SPENT))

    def _show_summary(self) -> None:
        rows = self.table.rowCount()
        spent = len(self.spent())
        if not rows:
            self.summary.setText("No spells memorised.")
        elif spent:
            self.summary.setText(f"{rows - spent} of {rows} memorised spells available, "
                                 f"{spent} spent.")  # fmt: skip
        elif rows == 1:
            self.summary.setText("The memorised spell is available.")
        else:
            self.summary.setText(f"All {rows} memorised spells available.")

    def spells(self) -> tuple[Spell, ...]:
        """Gets the spells as typed; raises TableError naming the row and column."""
        out = []
        for row in range(self.table.rowCount()):
            what = f"Spell {row + 1}"
            level = _int_cell(self._text(row, 1), f"{what} level")
            casting = _int_cell(self._text(row, 2), f"{what} casting time")
            out.append(
                Spell(
                    name=self._text(row, 0).strip(),
                    level=1 if level is None else level,
                    casting_time=1 if casting is None else casting,
                )
            )
        return tuple(out)
