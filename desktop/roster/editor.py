"""The form for one roster entry, with each problem shown beside its field.

The form never writes: Save emits ``save_requested(before, after)`` and the window pushes an
undoable command. Save stays disabled while any field holds a value that could not be saved.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from core.printout.words import KIND_WORDS
from core.roster.checks import adjustments, ascending_ac, check_entry
from core.roster.entries import (
    DEATH_SAVES,
    LevelTextError,
    RosterEntry,
    RosterStatus,
    level_text,
    parse_levels,
)
from desktop.elided_label import ElidedLabel
from desktop.plain_text import plain
from desktop.roster.tables import SpellsEditor, TableError, WeaponsEditor
from desktop.roster.tree_model import fight_tip

KIND_LABELS = KIND_WORDS
INT_FIELDS = {
    "level": "Level",
    "hp": "HP",
    "max_hp": "Max HP",
    "ac": "AC",
    "str_score": "Str",
    "dex": "Dex",
    "wis": "Wis",
    "initiative_adj": "Initiative adj.",
    "surprise_adj": "Surprise adj.",
    "missile_adj": "Missile adj.",
    "reaction_adj": "Reaction adj.",
    "movement": "Movement",
    "morale": "Morale",
    "attack_routines": "Attack routines",
    "attacks": "Attacks / routine",
    "death_saves": "Death saves",
}
REQUIRED_INTS = {"attack_routines", "attacks"}
BLANK_INTS = {"death_saves": DEATH_SAVES}
"""Fields a blank means a value for: Death saves left blank are the full lifetime count."""
TEXT_FIELDS = {"name": "Name", "char_class": "Class", "race": "Race", "side": "Side"}
ERROR_STYLE = "color: #b00020;"
FIGHT_NOTE_STYLE = "background: #fff4d6; color: #5c4300; padding: 4px;"


def _signed(value: int | None) -> str:
    return "—" if value is None else f"{value:+d}"


class RecordEditor(QWidget):
    """What the roster's forms share: a title, a line edit and a reason label a field, Save
    (Ctrl+S) and Revert, and the dirty/new bookkeeping. Subclasses build their boxes, load
    values and say what is wrong with them (``load``, ``values``, ``_validate``).
    """

    save_requested = Signal(object, object)
    """(before: the value loaded, None for a new one; after: the value as typed)."""

    NOUN = "entry"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.before: Any = None
        self._loading = False
        self._dirty = False
        self.fields: dict[str, QLineEdit] = {}
        self.reasons: dict[str, QLabel] = {}

        self.title = QLabel()
        self.title.setObjectName("editorTitle")
        self.title.setWordWrap(True)
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.2)
        font.setBold(True)
        self.title.setFont(font)

        self.save_button = QPushButton("&Save")
        self.save_button.setObjectName("saveButton")
        self.save_button.setToolTip(f"Save the {self.NOUN} (Ctrl+S); Ctrl+Z undoes it")
        self.save_button.clicked.connect(self.save)
        # An action, not the button's own shortcut: that one clicks 100 ms later (animateClick).
        self.save_action = QAction(f"Save {self.NOUN.title()}", self)
        self.save_action.setShortcut(QKeySequence.StandardKey.Save)
        self.save_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.save_action.triggered.connect(self.save)
        self.addAction(self.save_action)
        self.revert_button = QPushButton("Re&vert")
        self.revert_button.clicked.connect(self.revert)
        self.save_reason = QLabel()
        self.save_reason.setObjectName("saveReason")
        self.save_reason.setStyleSheet(ERROR_STYLE)
        self.save_reason.setWordWrap(True)

    # --- layout ----------------------------------------------------------------------------------

    def _line(self, key: str, width: int | None = None) -> QLineEdit:
        edit = QLineEdit()
        edit.setObjectName(f"{key}Edit")
        if width is not None:
            edit.setMaximumWidth(width)
            edit.setPlaceholderText("—")
        self.fields[key] = edit
        # Leaving a field shows the start of what was typed (a long name read from its end
        # looked cut: "ang Ironbeard-Smith"); the Name field also has room for 30 letters.
        edit.editingFinished.connect(lambda: edit.setCursorPosition(0))
        if key == "name":
            edit.setMinimumWidth(edit.fontMetrics().averageCharWidth() * 30)
        # One line of fixed height, cut with "…" (the whole reason in its tooltip and under
        # the form): a wrapping reason grew its row and moved every field below it, so a
        # click aimed at a field landed in a gap.
        reason = ElidedLabel()
        reason.setObjectName(f"{key}Reason")
        reason.setStyleSheet(ERROR_STYLE)
        self.reasons[key] = reason
        return edit

    def _grid(self, title: str, rows: list[tuple[str, QWidget, str | None]]) -> QGroupBox:
        box = QGroupBox(title)
        grid = QGridLayout(box)
        grid.setColumnStretch(2, 1)
        for r, (label, widget, key) in enumerate(rows):
            caption = QLabel(label)
            caption.setBuddy(widget)
            grid.addWidget(caption, r, 0)
            grid.addWidget(widget, r, 1)
            if key is not None:
                grid.addWidget(self.reasons[key], r, 2)
        return box

    def _pair(self, *widgets: QWidget) -> QWidget:
        holder = QWidget()
        layout = QHBoxLayout(holder)
        layout.setContentsMargins(0, 0, 0, 0)
        for w in widgets:
            layout.addWidget(w)
        layout.addStretch(1)
        return holder

    def _finish_layout(self, boxes: list[QWidget]) -> None:
        """Stacks ``boxes`` in a scroll area between the title and the buttons."""
        form = QWidget()
        form_layout = QVBoxLayout(form)
        for box in boxes:
            form_layout.addWidget(box)
        form_layout.addStretch(1)
        scroll = QScrollArea()
        self.scroll = scroll
        scroll.setWidget(form)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # Never narrower than the form: it does not scroll sideways, so a dock restored narrow
        # (or dragged so) would cut every field at its right edge.
        scroll.setMinimumWidth(form.minimumSizeHint().width()
                               + scroll.verticalScrollBar().sizeHint().width())

        buttons = QHBoxLayout()
        buttons.addWidget(self.save_reason, 1)
        buttons.addWidget(self.revert_button)
        buttons.addWidget(self.save_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        for note in self._notes():
            layout.addWidget(note)
        layout.addWidget(scroll, 1)
        layout.addLayout(buttons)

    def _notes(self) -> list[QWidget]:
        """Gets the lines shown under the title, above the fields (none by default)."""
        return []

    # --- state -----------------------------------------------------------------------------------

    def load(self, value: Any, new: bool = False) -> None:
        """Shows ``value`` (``new``: a blank one to be added; None and not new: nothing)."""
        raise NotImplementedError

    def values(self) -> tuple[Any, dict[str, str]]:
        """Gets the value as typed and the reason each bad field cannot be saved."""
        raise NotImplementedError

    def _validate(self) -> dict[str, str]:
        raise NotImplementedError

    def _show_buttons(self, problems: dict[str, str]) -> None:
        editable = self.isEnabled()
        self.save_button.setEnabled(editable and not problems and (self._dirty or self.is_new))
        self.revert_button.setEnabled(editable and self._dirty)
        if problems and editable:
            self.save_reason.setText(f"Cannot save: {next(iter(problems.values()))}")
        else:
            self.save_reason.setText("")

    def revert(self) -> None:
        """Throws away unsaved changes."""
        self.load(self.before)

    @property
    def is_new(self) -> bool:
        """Tells whether the form holds a value not yet in the campaign."""
        return self.isEnabled() and self.before is None

    @property
    def is_dirty(self) -> bool:
        """Tells whether the form holds unsaved changes."""
        return self._dirty

    def _on_edited(self, *_args: object) -> None:
        if self._loading:
            return
        self._dirty = True
        self._validate()

    def save(self) -> bool:
        """Asks the window to save the value; refuses (and says why) while a field is bad."""
        value, problems = self.values()
        if problems or value is None or not self.isEnabled():
            self._validate()
            return False
        self.save_requested.emit(self.before, value)
        return True

    def focus_first_field(self) -> None:
        """Puts the cursor in the name field (Ctrl+E)."""
        self.fields["name"].setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.fields["name"].selectAll()


class EntryEditor(RecordEditor):
    """Edits one roster entry (or a new one); emits ``save_requested`` with valid values."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("entryEditor")
        self.before: RosterEntry | None = None
        self.title.setText("Select a roster entry, or press Insert for a new one.")

        self.kind_box = QComboBox()
        self.kind_box.setObjectName("kindBox")
        for kind, label in KIND_LABELS.items():
            self.kind_box.addItem(label, kind)
        self.status_box = QComboBox()
        self.status_box.setObjectName("statusBox")
        for status in RosterStatus:
            self.status_box.addItem(str(status).capitalize(), status)
        self.aac_label = QLabel()
        self.aac_label.setObjectName("aacLabel")
        self.derived_label = QLabel()
        self.derived_label.setObjectName("derivedLabel")
        self.derived_label.setWordWrap(True)
        self.weapons = WeaponsEditor()
        self.spells = SpellsEditor()
        self.notes = QPlainTextEdit()
        self.notes.setObjectName("notesEdit")
        self.notes.setTabChangesFocus(True)
        self.notes.setMaximumHeight(80)
        self.table_reason = ElidedLabel()  # a fixed line: the notes below never move
        self.table_reason.setObjectName("tableReason")
        self.table_reason.setStyleSheet(ERROR_STYLE)
        self.fighting: Mapping[int, Sequence[str]] = {}
        """Entry id → the open encounters it fights in (see set_fighting)."""
        self.fight_note = QLabel()
        self.fight_note.setObjectName("fightNote")
        self.fight_note.setWordWrap(True)
        self.fight_note.setStyleSheet(FIGHT_NOTE_STYLE)
        self.fight_note.hide()
        self._shown_before: RosterEntry | None = None
        """The entry shown last: loading another one scrolls the form back to its Name."""

        self._build_layout()
        for edit in self.fields.values():
            edit.textEdited.connect(self._on_edited)
        self.kind_box.currentIndexChanged.connect(self._on_edited)
        self.kind_box.currentIndexChanged.connect(self._on_kind_changed)
        self.status_box.currentIndexChanged.connect(self._on_edited)
        self.weapons.changed.connect(self._on_edited)
        self.spells.changed.connect(self._on_edited)
        self.notes.textChanged.connect(self._on_edited)
        self.load(None)

    # --- layout ----------------------------------------------------------------------------------

    def _build_layout(self) -> None:
        short = 70
        identity = self._grid(
            "Who",
            [
                ("&Name", self._line("name"), "name"),
                ("&Kind", self.kind_box, None),
                ("C&lass", self._line("char_class"), "char_class"),
                ("&Race", self._line("race"), "race"),
                ("Le&vel", self._line("level", short), "level"),
                ("S&ide", self._line("side"), "side"),
                ("S&tatus", self.status_box, None),
            ],
        )
        hp_pair = self._pair(self._line("hp", short), QLabel("of"), self._line("max_hp", short))
        hp_reason = QWidget()
        hp_layout = QVBoxLayout(hp_reason)
        hp_layout.setContentsMargins(0, 0, 0, 0)
        hp_layout.addWidget(self.reasons["hp"])
        hp_layout.addWidget(self.reasons["max_hp"])
        combat = self._grid(
            "Combat",
            [
                ("&HP", hp_pair, None),
                ("&AC", self._pair(self._line("ac", short), self.aac_label), "ac"),
                ("&Movement", self._line("movement", short), "movement"),
                ("M&orale", self._line("morale", short), "morale"),
                ("Attack ro&utines", self._line("attack_routines", short), "attack_routines"),
                ("Attacks / routine", self._line("attacks", short), "attacks"),
                ("Death saves", self._line("death_saves", short), "death_saves"),
            ],
        )
        self.fields["death_saves"].setToolTip(
            f"Lifetime Death saves left (0–{DEATH_SAVES}). Under popcorn initiative a PC "
            "brought to 0 hit points spends one and is out of the fight instead of dying; "
            "ending the fight proposes the count going down.")
        combat.layout().addWidget(hp_reason, 0, 2)  # type: ignore[attr-defined]
        abilities = self._grid(
            "Abilities and adjustments (blank adjustment = derived from Dex)",
            [
                ("Str", self._line("str_score", short), "str_score"),
                ("&Dex", self._line("dex", short), "dex"),
                ("Wis", self._line("wis", short), "wis"),
                ("Derived", self.derived_label, None),
                ("Reaction adj.", self._line("reaction_adj", short), "reaction_adj"),
                ("Missile adj.", self._line("missile_adj", short), "missile_adj"),
                ("Surprise adj.", self._line("surprise_adj", short), "surprise_adj"),
                ("Initiative adj.", self._line("initiative_adj", short), "initiative_adj"),
            ],
        )
        gear = QGroupBox("Weapons and memorised spells")
        gear_layout = QVBoxLayout(gear)
        gear_layout.addWidget(self.weapons)
        gear_layout.addWidget(self.spells)
        gear_layout.addWidget(self.table_reason)
        notes = QGroupBox("Notes")
        QVBoxLayout(notes).addWidget(self.notes)

        self._finish_layout([identity, combat, abilities, gear, notes])

    def _notes(self) -> list[QWidget]:
        return [self.fight_note]

    # --- loading ---------------------------------------------------------------------------------

    def set_fighting(self, fighting: Mapping[int, Sequence[str]]) -> None:
        """Notes which entries fight in an open encounter, and says so for the one shown."""
        self.fighting = fighting
        self._show_fighting()

    def _show_fighting(self) -> None:
        entry = self.before
        names = list(self.fighting.get(entry.id, ())) if entry and entry.id is not None else []
        self.fight_note.setText(plain(fight_tip(entry.name, names)) if entry and names else "")
        self.fight_note.setVisible(bool(names))

    def _on_kind_changed(self, *_args: object) -> None:
        if self.is_new and not self._loading:  # the title names what is being added
            self.title.setText(f"New {KIND_LABELS[self.kind_box.currentData()]}")

    def load(self, entry: RosterEntry | None, new: bool = False) -> None:
        """Shows ``entry`` (``new``: a blank entry to be added; None and not new: nothing)."""
        self.before = None if new else entry
        shown = entry or RosterEntry(name="")
        self._loading = True
        for key, edit in self.fields.items():
            value = level_text(shown) if key == "level" else getattr(shown, key)
            edit.setText("" if value is None else str(value))
            edit.setCursorPosition(0)  # a long name shows its start, not "ang Ironbeard-Smith"
        self.kind_box.setCurrentIndex(self.kind_box.findData(shown.kind))
        self.status_box.setCurrentIndex(self.status_box.findData(shown.status))
        self.weapons.set_weapons(shown.weapons)
        self.spells.set_spells(shown.spells, shown.spent_spells)
        self.notes.setPlainText(shown.notes)
        self._loading = False
        self._dirty = False
        self.setEnabled(entry is not None or new)
        if new:
            self.title.setText(f"New {KIND_LABELS[shown.kind]}")
        elif entry is not None:
            self.title.setText(plain(entry.name))  # the form shows the whole name (wrapped)
        else:
            self.title.setText("Select a roster entry, or press Insert for a new one.")
        if new or entry is None or entry.id != getattr(self._shown_before, "id", None):
            self.scroll.verticalScrollBar().setValue(0)  # another entry starts at its Name
        self._shown_before = entry
        self._show_fighting()
        self._validate()

    # --- values ----------------------------------------------------------------------------------

    def values(self) -> tuple[RosterEntry | None, dict[str, str]]:
        """Gets the entry as typed and the reason each bad field cannot be saved."""
        problems: dict[str, str] = {}
        ints: dict[str, Any] = {}
        try:  # "5", or one level a class for a multi-classed character ("2/2")
            ints["level"], class_levels = parse_levels(self.fields["level"].text())
        except LevelTextError as exc:
            problems["level"] = f"Level: {exc}."
            ints["level"], class_levels = None, ()
        for key, label in INT_FIELDS.items():
            if key == "level":
                continue
            text = self.fields[key].text().strip().replace("−", "-")
            if not text and key in BLANK_INTS:
                ints[key] = BLANK_INTS[key]
                continue
            if not text:
                if key in REQUIRED_INTS:
                    problems[key] = f"{label} is needed."
                ints[key] = 1 if key in REQUIRED_INTS else None
                continue
            try:
                ints[key] = int(text)
            except ValueError:
                problems[key] = f"{label} must be a whole number, not {text!r}."
                ints[key] = None
        try:
            weapons = self.weapons.weapons()
        except TableError as exc:
            problems["weapons"] = f"{exc}."
            weapons = ()
        try:
            spells = self.spells.spells()
        except TableError as exc:
            problems["spells"] = f"{exc}."
            spells = ()
        spent = self.spells.spent() if spells else ()
        base = self.before or RosterEntry(name="")
        entry = replace(
            base,
            name=self.fields["name"].text().strip(),
            kind=self.kind_box.currentData(),
            status=self.status_box.currentData(),
            char_class=self.fields["char_class"].text().strip(),
            race=self.fields["race"].text().strip(),
            side=self.fields["side"].text().strip() or "party",
            weapons=weapons,
            spells=spells,
            spent_spells=spent,
            notes=self.notes.toPlainText(),
            class_levels=class_levels,
            **ints,
        )
        for key, reason in check_entry(entry).items():
            problems.setdefault(key, reason)
        return entry, problems

    def _validate(self) -> dict[str, str]:
        entry, problems = self.values()
        editable = self.isEnabled()
        shown = problems if editable else {}  # an empty, disabled form has nothing to correct
        for key, label in self.reasons.items():
            label.setText(shown.get(key, ""))
        self.table_reason.setText(" ".join(shown.get(k, "") for k in ("weapons", "spells")))
        ac = entry.ac if entry is not None and "ac" not in problems else None
        self.aac_label.setText("" if ac is None else f"AAC {ascending_ac(ac)}")
        if entry is not None:
            self.derived_label.setText(self._derived_text(entry, problems))
        self._show_buttons(problems)
        return problems

    @staticmethod
    def _derived_text(entry: RosterEntry, problems: dict[str, str]) -> str:
        if "dex" in problems:
            return "—"
        adj = adjustments(entry)

        def mark(value: int | None, overridden: bool) -> str:
            return _signed(value) + (" (set)" if overridden else "")

        return (
            f"AD&D / OSRIC: reaction {mark(adj.reaction, adj.reaction_overridden)}, "
            f"missile {mark(adj.missile, adj.missile_overridden)}, "
            f"surprise {mark(adj.surprise, adj.surprise_overridden)}\n"
            f"OSE / Labyrinth Lord: initiative {mark(adj.initiative, adj.initiative_overridden)}"
        )
