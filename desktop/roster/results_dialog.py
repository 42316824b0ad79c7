"""The end-of-encounter results: each change beside the roster as it is now, for the DM to pick.

An entry changed since the fight began (another fight, another window, an edit) is never
silently replaced: its lines are highlighted and offer a choice instead of a tick.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.roster.results import ChangeField, Choice, ProposedChange
from desktop.dialog_help import add_dialog_help
from desktop.plain_text import elide_name, plain

COLUMNS = ("Roster entry", "What", "When the fight began", "In the roster now",
           "This fight ended with", "Write to the roster")
CHANGED_SINCE = QColor(255, 236, 179)
"""Background of a line whose entry was changed since the fight began."""


def _text(value: object) -> str:
    if value is None:
        return "?"
    if isinstance(value, tuple):
        return ", ".join(str(v) for v in value) or "none"
    return str(value)


def _what(field: ChangeField) -> str:
    return {ChangeField.HP: "HP", ChangeField.STATUS: "Status",
            ChangeField.DEATH_SAVES: "Death saves"}.get(field, "Spells used")


def _ended_with(change: ProposedChange) -> str:
    if change.field is ChangeField.SPELLS:
        spent = change.new if isinstance(change.new, (tuple, list)) else (str(change.new),)
        cast = list(spent)
        for name in change.lost:  # one taken out of the cast list per spell lost
            cast.remove(name)
        parts = [f"cast {', '.join(cast)}"] if cast else []
        if change.lost:
            parts.append(f"lost {', '.join(change.lost)}")
        return "; ".join(parts)
    return _text(change.end if change.end is not None else change.new)


def _now(change: ProposedChange) -> str:
    return _text(change.old)


LAST_SHARE = 0.5
"""The most of the width left by the name and "What" columns that "Write to the roster"
takes; the three value columns share the rest and wrap their words."""


SPENT_TIP = ("Spent spells stay memorised, marked spent, until the party rests (Rest the "
             "Party brings them back). Untick to leave them unspent.")


def _new(change: ProposedChange) -> str:
    if change.field is ChangeField.SPELLS:
        # spent, not forgotten: the roster keeps them memorised until a rest
        return f"mark spent until a rest: {_text(change.new)}"
    return f"{_now(change)} → {_text(change.new)}"


def choice_texts(change: ProposedChange) -> list[tuple[Choice, str]]:
    """Gets the choices offered for a change to an entry changed since the fight began."""
    added = (f"Add this fight's change — {_new(change)}" if change.field is ChangeField.SPELLS
             else f"Add this fight's change: {_new(change)}")
    out = [(Choice.ON_TOP, added)]
    if change.field is not ChangeField.SPELLS:
        out.append((Choice.FIGHT_END,
                    f"Use this fight's end: {_now(change)} → {_text(change.end)}"))
    out.append((Choice.KEEP, f"Keep the roster: {_now(change)}"))
    return out


class ResultsDialog(QDialog):
    """Lists an encounter's proposed roster changes side by side with the roster now."""

    def __init__(
        self, changes: Sequence[ProposedChange], parent: QWidget | None = None,
        title: str = "",
    ) -> None:
        super().__init__(parent)
        add_dialog_help(self)  # F1 opens the help at this dialog's section
        self.setWindowTitle(f"Results of {title} for the roster" if title
                            else "Encounter results for the roster")
        # As large as a 1280x720 screen allows: every column reads whole, rows wrap.
        self.resize(1200, 580)
        self.changes = list(changes)
        self.choices: dict[int, QComboBox] = {}
        conflicted = sorted({c.entry_name for c in self.changes if c.changed_since})
        self.warning = QLabel(plain(
            f"{', '.join(conflicted)} {'was' if len(conflicted) == 1 else 'were'} changed since "
            "this fight began (another fight, another window or an edit). Their lines are "
            "highlighted: choose for each what to write. Nothing is replaced without your choice."
        ) if conflicted else "")
        self.warning.setObjectName("resultsConflict")
        self.warning.setWordWrap(True)
        self.warning.setStyleSheet("color: #8a4b00; font-weight: bold;")
        self.warning.setVisible(bool(conflicted))
        self.table = QTableWidget(len(self.changes), len(COLUMNS))
        self.table.setObjectName("resultsTable")
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        # Issue 24: the "Write to the roster" column was off the dialog's right edge at
        # 1280x720. Rows wrap their words; no column needs a sideways scroll.
        self.table.setWordWrap(True)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setTextElideMode(Qt.TextElideMode.ElideNone)
        for row, change in enumerate(self.changes):
            self._fill(row, change)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        for column in (0, 1):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.detail = QLabel()
        self.detail.setObjectName("resultsDetail")
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.table.currentCellChanged.connect(lambda row, *_: self._show_detail(row))
        for combo in self.choices.values():
            combo.currentIndexChanged.connect(lambda _i: self._show_detail(
                self.table.currentRow()))
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Apply | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons = buttons
        buttons.button(QDialogButtonBox.StandardButton.Apply).clicked.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        self.intro = QLabel(
            "Each line is what this fight changed, added to the roster as it is now. Untick a "
            "line to leave it out; Apply writes the rest in one step (Ctrl+Z takes it back).")
        self.intro.setWordWrap(True)
        layout.addWidget(self.intro)
        layout.addWidget(self.warning)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.detail)
        self._show_detail(-1)
        if not self.changes:  # only kills to log: no empty table
            self.table.hide()
            self.detail.hide()
            self.intro.setText("This fight changed nothing in the roster's entries. Apply "
                               "writes the kills below to the session log (Ctrl+Z takes it "
                               "back).")
        layout.addWidget(buttons)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.fit_columns()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.fit_columns()

    def fit_columns(self) -> None:
        """Gives "Write to the roster" the width its words (or choices) need, up to half of
        the room left; the three value columns share the rest and rows grow to their words."""
        table, header = self.table, self.table.horizontalHeader()
        last = len(COLUMNS) - 1
        room = table.viewport().width() - header.sectionSize(0) - header.sectionSize(1)
        wanted = max([table.sizeHintForColumn(last), header.sectionSizeHint(last),
                      *(c.sizeHint().width() for c in self.choices.values())])
        width = max(header.minimumSectionSize(), min(wanted, int(room * LAST_SHARE)))
        header.resizeSection(last, width)
        each = max(header.minimumSectionSize(), (room - width) // 3)
        for column in (2, 3, 4):
            header.resizeSection(column, each)
        header.resizeSection(4, max(header.minimumSectionSize(), room - width - 2 * each))
        table.resizeRowsToContents()

    def _show_detail(self, row: int) -> None:
        """Shows the line whole below the table: what changes, why it is offered, what is
        written (a cut choice or a long list of spells reads here in full)."""
        if not 0 <= row < len(self.changes):
            self.detail.setText("Select a line to read it whole here.")
            return
        change = self.changes[row]
        combo = self.choices.get(row)
        item = self.table.item(row, len(COLUMNS) - 1)
        written = combo.currentText() if combo is not None else (
            item.text() if item is not None else "")
        tip = item.toolTip() if item is not None else (combo.toolTip() if combo else "")
        said = f"{change.description}. Write to the roster: {written}."
        # The tip adds why a line is offered; where it starts by repeating the line, that part
        # is left out.
        if tip.startswith(change.description):
            tip = tip[len(change.description):].lstrip(" .\n")
        self.detail.setText(plain(f"{said} {tip}".strip()))

    def set_ending(self, ending: bool) -> None:
        """Says that Apply also ends the encounter, and Cancel leaves it open."""
        if ending:
            self.intro.setText(self.intro.text() + " Apply also ends the encounter; Cancel "
                               "leaves it open, with nothing written.")
            self.buttons.button(QDialogButtonBox.StandardButton.Apply).setToolTip(
                "End the encounter and write the lines ticked")
            self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setToolTip(
                "Leave the encounter open; nothing is written")

    def _fill(self, row: int, change: ProposedChange) -> None:
        cells = (elide_name(change.entry_name), _what(change.field),
                 _text(change.start) if change.field is not ChangeField.SPELLS
                 else f"memorised {_text(change.start)}",
                 _now(change), _ended_with(change))
        tip = ("Changed since this fight began: another fight, another window or an edit. "
               "Choose what to write.") if change.changed_since else change.description
        if change.field is ChangeField.SPELLS and not change.changed_since:
            tip = f"{tip}. {SPENT_TIP}"
        if change.gone:
            cells = (*cells[:3], "deleted from the roster", cells[4])
            tip = ("This entry was deleted from the roster during the fight: its result is "
                   "written to the session log only (undo the deletion first to write it to "
                   "the roster).")
        for column, text in enumerate(cells):
            item = QTableWidgetItem(text)
            item.setToolTip(tip)
            if change.changed_since:
                item.setBackground(QBrush(CHANGED_SINCE))
            self.table.setItem(row, column, item)
        last = len(COLUMNS) - 1
        if change.changed_since:
            combo = QComboBox()
            combo.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # no change by a passing wheel
            for choice, text in choice_texts(change):
                combo.addItem(text, choice.value)
            combo.setToolTip(tip)
            self.choices[row] = combo
            self.table.setCellWidget(row, last, combo)
        else:
            item = QTableWidgetItem("log it (deleted from the roster)" if change.gone
                                    else _new(change))
            item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked)
            item.setToolTip(tip)
            self.table.setItem(row, last, item)

    # --- what the DM chose ------------------------------------------------------------------------

    def descriptions(self) -> list[str]:
        """Gets each proposed change in words, as listed."""
        return [c.description for c in self.changes]

    def _tick_item(self, row: int) -> QTableWidgetItem:
        item = self.table.item(row, len(COLUMNS) - 1)
        assert item is not None, "a line with a choice has no tick"
        return item

    def set_ticked(self, row: int, ticked: bool) -> None:
        """Ticks or unticks a line of an entry not changed since the fight began."""
        state = Qt.CheckState.Checked if ticked else Qt.CheckState.Unchecked
        self._tick_item(row).setCheckState(state)

    def choose(self, row: int, choice: Choice) -> None:
        """Picks what to write for a line of an entry changed since the fight began."""
        combo = self.choices[row]
        combo.setCurrentIndex(combo.findData(choice.value))

    def accepted_changes(self) -> list[ProposedChange]:
        """Gets the changes to write: those ticked, and each choice made."""
        out: list[ProposedChange] = []
        for row, change in enumerate(self.changes):
            combo = self.choices.get(row)
            if combo is not None:
                chosen = change.chosen(Choice(str(combo.currentData())))
                if chosen is not None:
                    out.append(chosen)
            elif self._tick_item(row).checkState() == Qt.CheckState.Checked:
                out.append(change)
        return out
