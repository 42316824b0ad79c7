"""Two versions of one roster entry or monster template, side by side, for the DM to choose.

Shown when the store refuses a save (or a removal) because another Combat Desk saved the same
record since this one loaded it. Nothing is overwritten until the DM chooses: keep theirs,
keep mine (saved on top of theirs, undoable), or cancel (the form keeps the unsaved edits).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from enum import Enum

from PySide6.QtCore import Qt
from PySide6.QtGui import QHideEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.model.values import Kind, Spell, Weapon
from core.printout.words import kind_words, status_words
from core.roster.entries import MonsterTemplate, RosterEntry, RosterStatus, level_text
from desktop.dialog_help import add_dialog_help
from desktop.roster.editor import INT_FIELDS, TEXT_FIELDS

Record = RosterEntry | MonsterTemplate

# The editor's own field labels, so the dialog names fields as the form does.
ENTRY_LABELS = {
    **TEXT_FIELDS,
    "kind": "Kind",
    "status": "Status",
    **INT_FIELDS,
    "weapons": "Weapons",
    "spells": "Spells",
    "spent_spells": "Spent spells",
    "notes": "Notes",
}
TEMPLATE_LABELS = {
    "name": "Name",
    "hit_dice": "Hit dice",
    "ac": "AC",
    "movement": "Movement",
    "morale": "Morale",
    "attacks": "Attacks / round",
    "surprises_on": "Surprises on (in 6)",
    "weapons": "Weapons",
    "notes": "Notes",
    "xp": "XP a kill",
}
NOT_COMPARED = {"id", "version"}
ENUM_FIELDS = {"kind", "status"}
YOURS = "Your version"
THEIRS = "Saved by someone else"


class Choice(Enum):
    """What the DM chose to do about the conflict."""

    THEIRS = "theirs"
    """Keep the saved version; drop mine (for a removal: keep the record)."""
    MINE = "mine"
    """Write mine on top of theirs (for a removal: remove it anyway), as a new undoable step."""
    CANCEL = "cancel"
    """Do nothing now; unsaved edits stay in the form."""


def _weapon_text(w: Weapon) -> str:
    parts = []
    if w.speed_factor is not None:
        parts.append(f"speed {w.speed_factor}")
    if w.length is not None:
        parts.append(f"{w.length:g} ft")
    if w.missile:
        parts.append("missile")
    if w.slow:
        parts.append("slow")
    if w.rate_of_fire is not None:
        parts.append(f"rate {w.rate_of_fire}")
    return f"{w.name} ({', '.join(parts)})" if parts else w.name


def _spell_text(s: Spell) -> str:
    return f"{s.name} (level {s.level}, {s.casting_time} seg.)"


def value_text(value: object, field: str = "") -> str:
    """Gets a field's value as the dialog shows it (blank numbers as —)."""
    if value is None or value == "":
        return "—"
    # a combo box hands enum values back as plain text: words for "pc", "active"
    if field == "kind" or isinstance(value, Kind):
        return kind_words(value)
    if field in ENUM_FIELDS or isinstance(value, RosterStatus):
        return status_words(value)
    if isinstance(value, tuple):
        items = [
            _weapon_text(v) if isinstance(v, Weapon) else _spell_text(v)
            for v in value
            if isinstance(v, Weapon | Spell)
        ]
        return "\n".join(items) if items else "none"
    return str(value)


def differences(mine: Record, theirs: Record) -> list[tuple[str, str, str]]:
    """Gets (field label, my value, their value) for each field the two versions differ in."""
    labels = ENTRY_LABELS if isinstance(mine, RosterEntry) else TEMPLATE_LABELS
    out = []
    for f in fields(mine):
        if f.name in NOT_COMPARED:
            continue
        a, b = getattr(mine, f.name), getattr(theirs, f.name)
        if f.name == "class_levels":
            continue  # shown with the level, as the form shows it ("2/2")
        if f.name == "level" and isinstance(mine, RosterEntry) and isinstance(theirs, RosterEntry):
            a, b = level_text(mine) or None, level_text(theirs) or None
        if a != b:
            label = labels.get(f.name, f.name)
            if f.name == "spent_spells":
                out.append((label, _spent_text(mine), _spent_text(theirs)))
                continue
            out.append((label, value_text(a, f.name), value_text(b, f.name)))
    return out


def _spent_text(record: Record) -> str:
    """Gets the spent spells by name ("Bless, Sleep"; "none spent")."""
    if not isinstance(record, RosterEntry):
        return "—"
    names = [record.spells[i].name for i in record.spent_spells if i < len(record.spells)]
    return ", ".join(names) or "none spent"


def _what(record: Record) -> str:
    return record.name if isinstance(record, RosterEntry) else f"The {record.name} template"


class ConflictDialog(QDialog):
    """Shows the fields two versions differ in and asks which to keep.

    ``removing``: the DM asked to remove the record (``mine`` is the record as they saw it);
    the choices read "Remove anyway" / "Keep it" then. Open it with ``open()`` (window-modal,
    non-blocking) and read :attr:`choice` when it finishes.
    """

    def __init__(
        self,
        mine: Record,
        theirs: Record,
        removing: bool = False,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        add_dialog_help(self)  # F1 opens the help at this dialog's section
        self.setObjectName("conflictDialog")
        self.mine = mine
        self.theirs = theirs
        self.removing = removing
        self.choice = Choice.CANCEL
        self.rows = differences(mine, theirs)
        what = _what(theirs)
        self.setWindowTitle(
            "Changed before you removed it" if removing else "Saved elsewhere while you edited"
        )

        if removing:
            intro = (
                f"{what} was changed by someone else (now version {theirs.version}) after you "
                f"loaded it (version {mine.version}), so it was not removed. What they changed:"
            )
        else:
            intro = (
                f"{what} was saved by someone else (now version {theirs.version}) while you "
                f"were changing version {mine.version}; nothing was overwritten. "
                "The fields that differ:"
            )
        if not self.rows:
            intro += "\n(No field differs: they saved the same values.)"
        self.intro = QLabel(intro)
        self.intro.setObjectName("conflictIntro")
        self.intro.setTextFormat(Qt.TextFormat.PlainText)  # names are the DM's own text
        self.intro.setWordWrap(True)

        mine_header = "As you loaded it" if removing else YOURS
        self.table = QTableWidget(len(self.rows), 3)
        self.table.setObjectName("conflictTable")
        self.table.setHorizontalHeaderLabels(["Field", mine_header, THEIRS])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # nothing to pick in it: no focus frame
        self.table.setWordWrap(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        for r, row in enumerate(self.rows):
            for c, text in enumerate(row):
                self.table.setItem(r, c, QTableWidgetItem(text))
        self.table.resizeRowsToContents()

        buttons = QDialogButtonBox()
        mine_text = "&Remove anyway" if removing else "Keep &mine"
        theirs_text = "&Keep it" if removing else "Keep &theirs"
        self.keep_theirs_button = self._button(
            buttons,
            theirs_text,
            "keepTheirs",
            "Keep their version and show it"
            + ("" if removing else "; your unsaved changes are dropped"),
            Choice.THEIRS,
        )
        self.keep_mine_button = self._button(
            buttons,
            mine_text,
            "keepMine",
            "Remove it with their changes (Ctrl+Z brings it back)"
            if removing
            else "Save your version over theirs (Ctrl+Z puts theirs back)",
            Choice.MINE,
        )
        self.cancel_button = self._button(
            buttons,
            "Cancel",
            "cancelConflict",
            "Decide later: nothing is saved"
            + ("" if removing else "; your edits stay in the form"),
            Choice.CANCEL,
        )
        self.cancel_button.setDefault(True)

        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)
        self.resize(640, 160 + 34 * max(len(self.rows), 2))

    def _button(
        self, box: QDialogButtonBox, text: str, name: str, tip: str, choice: Choice
    ) -> QPushButton:
        role = (
            QDialogButtonBox.ButtonRole.RejectRole
            if choice is Choice.CANCEL
            else QDialogButtonBox.ButtonRole.AcceptRole
        )
        button = box.addButton(text, role)
        button.setObjectName(name)
        button.setToolTip(tip)
        button.setAutoDefault(False)
        button.clicked.connect(lambda _=False: self.choose(choice))
        return button

    def choose(self, choice: Choice) -> None:
        """Closes the dialog with ``choice`` (Cancel rejects, the others accept)."""
        self.choice = choice
        if choice is Choice.CANCEL:
            self.reject()
        else:
            self.accept()

    def reject(self) -> None:
        self.choice = Choice.CANCEL  # Escape and the title bar's close button cancel too
        super().reject()

    def hideEvent(self, event: QHideEvent) -> None:
        """Hands the keyboard back to the window under it, after any activation still queued.

        Qt delivers a window's activation later than ``open()``: answered at once (a click
        straight after it opens, keys typed ahead), the dialog's own activation was still on
        the way, and the next event loop (the store call that follows waits in one) made the
        hidden dialog the active window: the main window's Delete and Ctrl+Z went nowhere.
        Asked for now, the window's own activation comes after that one.
        """
        super().hideEvent(event)
        parent = self.parentWidget()
        if parent is not None and not event.spontaneous():
            parent.window().activateWindow()

    def field_rows(self) -> Sequence[tuple[str, str, str]]:
        """Gets the rows shown: (field, my value, their value)."""
        return list(self.rows)
