"""Small roster dialogs: stamping monsters, reviewing an encounter's results, the session log."""

from __future__ import annotations

import random
from collections.abc import Sequence

from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QRadioButton,
    QSpinBox,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.model.dice import Roller
from core.model.values import Combatant
from core.roster.entries import MonsterTemplate, SessionLogEntry
from core.roster.stamping import MAX_STAMP, StampError, stamp
from desktop.dialog_help import add_dialog_help

NEW_ENCOUNTER = "A new encounter"


class StampDialog(QDialog):
    """Stamps numbered combatants from a template, HP rolled or typed in from real dice."""

    def __init__(
        self,
        template: MonsterTemplate,
        rng: random.Random | None = None,
        parent: QWidget | None = None,
        targets: Sequence[str] = (),
    ) -> None:
        super().__init__(parent)
        add_dialog_help(self)  # F1 opens the help at this dialog's section
        self.setWindowTitle(f"Stamp {template.name}")
        self.target = QComboBox()  # where they go: a new encounter or one still open
        self.target.setObjectName("stampTarget")
        self.target.addItem(NEW_ENCOUNTER)
        self.target.addItems(list(targets))
        self.template = template
        self._roller = Roller(rng or random.Random())
        self.combatants: list[Combatant] = []
        self.count = QSpinBox()
        self.count.setObjectName("stampCount")
        self.count.setRange(1, MAX_STAMP)
        self.count.setValue(4)
        self.roll_radio = QRadioButton(f"&Roll {template.hit_dice} each")
        self.hand_radio = QRadioButton("&Enter rolled totals:")
        self.roll_radio.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.roll_radio)
        group.addButton(self.hand_radio)
        self.hp_edit = QLineEdit()
        self.hp_edit.setObjectName("stampHp")
        self.hp_edit.setPlaceholderText("e.g. 5, 3, 8, 6")
        self.reason = QLabel()
        self.reason.setStyleSheet("color: #b00020;")
        self.reason.setWordWrap(True)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self._on_ok)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow("&Into", self.target)
        form.addRow("&How many", self.count)
        form.addRow(self.roll_radio)
        form.addRow(self.hand_radio, self.hp_edit)
        form.addRow(self.reason)
        form.addRow(self.buttons)
        self.hp_edit.textEdited.connect(lambda _t: self.hand_radio.setChecked(True))

    def make(self) -> list[Combatant]:
        """Stamps the combatants; raises StampError saying what is wrong."""
        if self.roll_radio.isChecked():
            return stamp(self.template, self.count.value(), self._roller)
        parts = [p for p in self.hp_edit.text().replace(";", ",").split(",") if p.strip()]
        try:
            totals = [int(p) for p in parts]
        except ValueError:
            raise StampError("Hit points are whole numbers separated by commas.") from None
        return stamp(self.template, self.count.value(), totals)

    def _on_ok(self) -> None:
        try:
            self.combatants = self.make()
        except StampError as exc:
            self.reason.setText(str(exc))
            return
        self.accept()


class SessionLogDialog(QDialog):
    """Shows what changed in the campaign's roster, newest first."""

    def __init__(self, log: Sequence[SessionLogEntry], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        add_dialog_help(self)  # F1 opens the help at this dialog's section
        self.setWindowTitle("Session log")
        self.resize(560, 380)
        self.tree = QTreeWidget()
        self.tree.setObjectName("sessionLog")
        self.tree.setHeaderLabels(["When", "What"])
        for entry in log:
            when = entry.created_at.astimezone().strftime("%Y-%m-%d %H:%M")
            top = QTreeWidgetItem([when, entry.summary])
            for line in entry.details:
                top.addChild(QTreeWidgetItem(["", line]))
            self.tree.addTopLevelItem(top)
        self.tree.expandAll()
        self.tree.resizeColumnToContents(0)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tree)
        layout.addWidget(buttons)
