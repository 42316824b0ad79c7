"""Records what happened at the selected step: hit with damage, miss, a failed save, or clears.

Recording replaces the step's declaration, turn or action (of any round) with the outcome
fields, and the engine resolves again (a caster damaged before completion then loses the
spell by itself). A failed saving throw is popcorn's ``fails_save`` (Disrupting Spells).
"""

from __future__ import annotations

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from core.encounter import replace_entry
from core.model import Step
from desktop.encounter.controller import EncounterController
from desktop.encounter.step_entries import EntryRef, entry_for_step, with_outcome, with_save
from desktop.plain_text import plain


class OutcomePanel(QGroupBox):
    """Hit / Miss / Clear for the step selected in the resolution list."""

    def __init__(self, controller: EncounterController, parent: QWidget | None = None) -> None:
        super().__init__("Outcome of the selected step", parent)
        self.setObjectName("outcomePanel")
        self.controller = controller
        self.step: Step | None = None
        self.label = QLabel("Select a step in the resolution list.")
        self.label.setWordWrap(True)
        self.damage = QSpinBox()
        self.damage.setRange(0, 999)
        self.damage.setToolTip("Damage of a hit")
        self.another = QCheckBox("another attack")
        self.another.setToolTip("Add this as one more attack of the same declaration (hits list)")
        self.hit_button = QPushButton("&Hit")
        self.hit_button.setShortcut(QKeySequence("Ctrl+H"))
        self.hit_button.clicked.connect(lambda: self.record(True))
        self.miss_button = QPushButton("&Miss")
        self.miss_button.setShortcut(QKeySequence("Ctrl+M"))
        self.miss_button.clicked.connect(lambda: self.record(False))
        self.clear_button = QPushButton("Clear")
        self.clear_button.clicked.connect(lambda: self.record(None))
        # Only popcorn's scenarios read a failed save (docs/systems/popcorn.md, fails_save).
        self.save_button = QPushButton("Fails &Save")
        self.save_button.setObjectName("failsSave")
        self.save_button.setCheckable(True)
        self.save_button.setToolTip("The step's creature (or its target) failed a saving "
                                    "throw: a caster's spell is disrupted (fails_save)")
        self.save_button.clicked.connect(lambda checked: self.record_save(bool(checked)))
        self.save_button.setVisible(controller.system_id == "popcorn")
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #c0392b;")
        row = QHBoxLayout()
        row.addWidget(QLabel("Damage"))
        for widget in (self.damage, self.hit_button, self.miss_button, self.clear_button,
                       self.save_button):
            row.addWidget(widget)
        layout = QVBoxLayout(self)
        layout.addWidget(self.label)
        layout.addLayout(row)
        layout.addWidget(self.another)
        layout.addWidget(self.error)
        self.set_step(None)

    def set_step(self, step: Step | None) -> None:
        """Shows which entry an outcome would change for ``step``."""
        self.step = step
        self.error.clear()
        found = entry_for_step(self.controller.state, step) if step is not None else None
        usable = isinstance(found, EntryRef)
        for button in (self.hit_button, self.miss_button, self.clear_button, self.save_button):
            button.setEnabled(usable)
        self.save_button.setChecked(isinstance(found, EntryRef)
                                    and bool(found.part().get("fails_save")))
        if step is None:
            self.label.setText("Select a step in the resolution list.")
        elif isinstance(found, EntryRef):
            self.label.setText(plain(f"#{step.seq} {step.actor} {step.event} — records on "
                                     f"{found.describe()}"))
        else:
            self.label.setText(plain(f"#{step.seq}: {found}"))

    def record(self, hit: bool | None) -> bool:
        """Records hit (with the damage shown), miss, or no outcome on the step's entry."""
        if self.step is None:
            self.error.setText("Select a step first.")
            return False
        found = entry_for_step(self.controller.state, self.step)
        if not isinstance(found, EntryRef):
            self.error.setText(found)
            return False
        changed = with_outcome(found.part(), hit, self.damage.value(), self.another.isChecked())
        return self._push(found, changed)

    def record_save(self, fails: bool) -> bool:
        """Records (or takes back) a failed saving throw on the step's entry."""
        if self.step is None:
            self.error.setText("Select a step first.")
            return False
        found = entry_for_step(self.controller.state, self.step)
        if not isinstance(found, EntryRef):
            self.error.setText(found)
            return False
        return self._push(found, with_save(found.part(), fails))

    def _push(self, found: EntryRef, part: dict[str, object]) -> bool:
        command = replace_entry(found.which, found.index, found.rebuilt(part), found.round_number)
        reason = self.controller.why_refused(command)
        if reason is not None:
            self.error.setText(plain(f"Refused: {reason}"))
            self.save_button.setChecked(bool(found.part().get("fails_save")))
            return False
        return self.controller.run(command, check=False)
