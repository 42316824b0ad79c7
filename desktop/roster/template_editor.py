"""The form for one monster template, with each problem shown beside its field.

Like the entry form it never writes: Save emits ``save_requested(before, after)`` and the window
pushes an undoable command. Hit dice are read with the parser stamping uses, and the parser's
own reason (where and why the notation is wrong) is shown beside the field.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PySide6.QtWidgets import QGroupBox, QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from core.model.dice import DiceError, parse_dice
from core.roster.checks import ascending_ac, check_template
from core.roster.entries import MonsterTemplate
from desktop.plain_text import plain
from desktop.roster.editor import ERROR_STYLE, RecordEditor
from desktop.roster.tables import TableError, WeaponsEditor

TEMPLATE_INT_FIELDS = {
    "ac": "AC",
    "movement": "Movement",
    "morale": "Morale",
    "attacks": "Attacks",
    "surprises_on": "Surprises on",
    "xp": "XP a kill",
}
TEMPLATE_REQUIRED = {"attacks"}
NO_TEMPLATE = "Select a monster template, or press Insert in the templates group for a new one."


class TemplateEditor(RecordEditor):
    """Edits one monster template (or a new one); emits ``save_requested`` with valid values."""

    NOUN = "template"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("templateEditor")
        self.before: MonsterTemplate | None = None
        self.title.setText(NO_TEMPLATE)
        self.dice_label = QLabel()
        self.dice_label.setObjectName("diceLabel")
        self.aac_label = QLabel()
        self.aac_label.setObjectName("templateAacLabel")
        self.weapons = WeaponsEditor()
        self.notes = QPlainTextEdit()
        self.notes.setObjectName("templateNotesEdit")
        self.notes.setTabChangesFocus(True)
        self.notes.setMaximumHeight(80)
        self.table_reason = QLabel()
        self.table_reason.setObjectName("templateWeaponsReason")
        self.table_reason.setStyleSheet(ERROR_STYLE)
        self.table_reason.setWordWrap(True)

        short = 70
        monster = self._grid(
            "Monster",
            [
                ("&Name", self._line("name"), "name"),
                ("&Hit dice", self._pair(self._line("hit_dice", 120), self.dice_label), None),
                ("", self.reasons["hit_dice"], None),
                ("&AC", self._pair(self._line("ac", short), self.aac_label), "ac"),
                ("&Movement", self._line("movement", short), "movement"),
                ("M&orale", self._line("morale", short), "morale"),
                ("A&ttacks / round", self._line("attacks", short), "attacks"),
                (
                    "S&urprises on",
                    self._pair(self._line("surprises_on", short), QLabel("in 6")),
                    "surprises_on",
                ),
                ("&XP a kill", self._line("xp", short), "xp"),
            ],
        )
        self.fields["xp"].setToolTip(
            "Experience for killing one; the session log counts it. Blank: you enter it at the end"
        )
        self.fields["hit_dice"].setPlaceholderText("e.g. 1d8+1")
        self.fields["surprises_on"].setToolTip(
            "Surprises others on 1–X in 6; blank = the system's normal (2 in 6)"
        )
        gear = QGroupBox("Weapons")
        gear_layout = QVBoxLayout(gear)
        gear_layout.addWidget(self.weapons)
        gear_layout.addWidget(self.table_reason)
        notes = QGroupBox("Notes")
        QVBoxLayout(notes).addWidget(self.notes)
        self._finish_layout([monster, gear, notes])

        for edit in self.fields.values():
            edit.textEdited.connect(self._on_edited)
        self.weapons.changed.connect(self._on_edited)
        self.notes.textChanged.connect(self._on_edited)
        self.load(None)

    # --- loading ---------------------------------------------------------------------------------

    def load(self, value: MonsterTemplate | None, new: bool = False) -> None:
        """Shows ``value`` (``new``: a blank template to be added; None and not new: nothing)."""
        self.before = None if new else value
        shown = value or MonsterTemplate(name="")
        self._loading = True
        for key, edit in self.fields.items():
            item = getattr(shown, key)
            edit.setText("" if item is None else str(item))
        self.weapons.set_weapons(shown.weapons)
        self.notes.setPlainText(shown.notes)
        self._loading = False
        self._dirty = False
        self.setEnabled(value is not None or new)
        if new:
            self.title.setText("New monster template")
        elif value is not None:
            self.title.setText(plain(f"Monster template: {value.name}"))
        else:
            self.title.setText(NO_TEMPLATE)
        self._validate()

    # --- values ----------------------------------------------------------------------------------

    def values(self) -> tuple[MonsterTemplate | None, dict[str, str]]:
        """Gets the template as typed and the reason each bad field cannot be saved."""
        problems: dict[str, str] = {}
        ints: dict[str, Any] = {}
        for key, label in TEMPLATE_INT_FIELDS.items():
            text = self.fields[key].text().strip().replace("−", "-")
            if not text:
                if key in TEMPLATE_REQUIRED:
                    problems[key] = f"{label} is needed."
                ints[key] = 1 if key in TEMPLATE_REQUIRED else None
                continue
            try:
                ints[key] = int(text)
            except ValueError:
                problems[key] = f"{label} must be a whole number, not {text!r}."
                ints[key] = 1 if key in TEMPLATE_REQUIRED else None
        try:
            weapons = self.weapons.weapons()
        except TableError as exc:
            problems["weapons"] = f"{exc}."
            weapons = ()
        base = self.before or MonsterTemplate(name="")
        template = replace(
            base,
            name=self.fields["name"].text().strip(),
            hit_dice=self.fields["hit_dice"].text().strip(),
            weapons=weapons,
            notes=self.notes.toPlainText(),
            **ints,
        )
        for key, reason in check_template(template).items():
            problems.setdefault(key, reason)
        return template, problems

    def _validate(self) -> dict[str, str]:
        template, problems = self.values()
        editable = self.isEnabled()
        shown = problems if editable else {}  # an empty, disabled form has nothing to correct
        for key, label in self.reasons.items():
            label.setText(shown.get(key, ""))
        self.table_reason.setText(shown.get("weapons", ""))
        self.reasons["hit_dice"].setVisible(bool(shown.get("hit_dice")))  # a row of its own
        ac = template.ac if template is not None and "ac" not in problems else None
        self.aac_label.setText("" if ac is None else f"AAC {ascending_ac(ac)}")
        self.dice_label.setText(self._dice_text(template) if editable else "")
        self._show_buttons(problems)
        return problems

    @staticmethod
    def _dice_text(template: MonsterTemplate | None) -> str:
        if template is None:
            return ""
        try:
            dice = parse_dice(template.hit_dice)
        except DiceError:
            return ""
        low, high = max(1, dice.minimum), max(1, dice.maximum)
        return f"{low}–{high} hp" if low != high else f"{low} hp"
