"""Heal and conditions for the selected step's entry, in every system.

A small widget the outcome panel embeds: ``Heal [6] [Heal]`` and ``[asleep] on [Orc 1] for
[5] rounds [Start] [End]``. Each button is one command that changes the step's declaration,
turn or time-unit action (``heal``, ``conditions``; docs/scenario-format.md), so Ctrl+Z takes
it back and the engine resolves again.

Embedding (desktop/encounter/outcome_panel.py)::

    self.care = CareControls(controller)      # in __init__, then layout.addWidget(self.care)
    self.care.set_step(step)                  # at the end of set_step
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QWidget,
)

from core.encounter import replace_entry
from core.model import Step
from core.rules.care import CONDITION_NAMES
from desktop.encounter.controller import EncounterController
from desktop.encounter.options_form import WheelGuard, guard_wheel
from desktop.encounter.step_entries import EntryRef, entry_for_step
from desktop.plain_text import plain

UNTIL_ENDED = "until ended"


def with_heal(entry: Mapping[str, Any], amount: int) -> dict[str, Any]:
    """Gets the entry healing ``amount`` hit points (0 takes the heal off)."""
    out = dict(entry)
    if amount > 0:
        out["heal"] = amount
    else:
        out.pop("heal", None)
    return out


def with_condition(entry: Mapping[str, Any], name: str, target: str | None,
                   rounds: int | None, ends: bool = False) -> dict[str, Any]:
    """Gets the entry starting (or ending) condition ``name`` on ``target``.

    A condition of the same name on the same creature already on the entry is replaced.
    """
    out = dict(entry)
    default = entry.get("target") or entry.get("actor")
    listed = [dict(c) if isinstance(c, Mapping) else {"name": c}
              for c in out.get("conditions") or ()]
    kept = [c for c in listed
            if not (c.get("name") == name and (c.get("target") or default) == (target or default))]
    change: dict[str, Any] = {"name": name}
    if target and target != default:
        change["target"] = target
    if ends:
        change["ends"] = True
    elif rounds is not None:
        change["rounds"] = rounds
    out["conditions"] = [*kept, change]
    return out


def without_care(entry: Mapping[str, Any]) -> dict[str, Any]:
    """Gets the entry with no heal and no conditions."""
    return {k: v for k, v in entry.items() if k not in ("heal", "conditions")}


class CareControls(QWidget):
    """Heal amount and a condition picker acting on the selected step's entry."""

    def __init__(self, controller: EncounterController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("careControls")
        self.controller = controller
        self.step: Step | None = None
        self._where: tuple[object, ...] | None = None
        self.wheel_guard = WheelGuard(self)
        self.heal = QSpinBox()
        self.heal.setObjectName("healAmount")
        self.heal.setRange(0, 999)
        self.heal.setToolTip("Hit points the step's target (or its actor) regains when the "
                             "action takes effect, never above its maximum")
        guard_wheel(self.heal, self.wheel_guard)
        self.heal_button = QPushButton("Heal")
        self.heal_button.setToolTip("Record the heal on this step's declaration, turn or action "
                                    "(0 takes it off)")
        self.heal_button.clicked.connect(self.record_heal)
        self.condition = QComboBox()
        self.condition.setObjectName("conditionName")
        self.condition.setEditable(True)
        self.condition.addItems(list(CONDITION_NAMES))
        self.condition.setMinimumContentsLength(5)
        self.condition.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.condition.setToolTip("Asleep, held, paralysed, stunned and helpless creatures take "
                                  "no action while it lasts; other conditions are shown and "
                                  "timed only")
        guard_wheel(self.condition, self.wheel_guard)
        self.on = QComboBox()
        self.on.setObjectName("conditionOn")
        self.on.setToolTip("The creature the condition is on (the step's target by default)")
        self.on.setMinimumContentsLength(4)
        self.on.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        guard_wheel(self.on, self.wheel_guard)
        self.rounds = QSpinBox()
        self.rounds.setObjectName("conditionRounds")
        self.rounds.setRange(-1, 999)
        self.rounds.setSpecialValueText(UNTIL_ENDED)
        self.rounds.setSuffix(" rounds")
        self.rounds.setMinimumWidth(self.rounds.sizeHint().width())
        self.rounds.setValue(-1)
        self.rounds.setToolTip("Rounds it lasts after the one it starts in (time units: 10 TU "
                               "a round); 'until ended' lasts until an End is recorded")
        guard_wheel(self.rounds, self.wheel_guard)
        self.start_button = QPushButton("Start")
        self.start_button.setToolTip("The condition starts when this step's action takes effect")
        self.start_button.clicked.connect(lambda: self.record_condition(False))
        self.end_button = QPushButton("End")
        for button in (self.heal_button, self.start_button, self.end_button):
            button.setMaximumWidth(56)
        self.end_button.setToolTip("This step's action ends the condition (woken, freed)")
        self.end_button.clicked.connect(lambda: self.record_condition(True))
        self.clear_button = QPushButton("Clear")
        self.clear_button.setToolTip("Take every heal and condition off this step's entry")
        self.clear_button.clicked.connect(self.clear)
        self.error = QLabel()
        self.error.setObjectName("careError")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #c0392b;")
        # Two rows, so the outcome panel grows by little: heal, then the condition.
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(4)
        grid.addWidget(QLabel("Heal"), 0, 0)
        grid.addWidget(self.heal, 0, 1)
        grid.addWidget(self.heal_button, 0, 2)
        grid.addWidget(self.clear_button, 0, 3, 1, 3)
        grid.addWidget(self.condition, 1, 0, 1, 2)
        grid.addWidget(self.on, 1, 2, 1, 2)
        grid.setColumnStretch(1, 1)
        grid.addWidget(self.rounds, 1, 4)
        grid.addWidget(self.start_button, 1, 5)
        grid.addWidget(self.end_button, 1, 6)
        grid.addWidget(self.error, 2, 0, 1, 7)
        grid.setColumnStretch(3, 1)
        self.set_step(None)

    # --- following the selected step ----------------------------------------------------------

    def _found(self) -> EntryRef | str:
        if self.step is None:
            return "Select a step first."
        return entry_for_step(self.controller.state, self.step)

    def set_step(self, step: Step | None) -> None:
        """Shows the heal and creatures of ``step``'s entry (controls off without one)."""
        self.step = step
        self.error.clear()
        found = self._found() if step is not None else "Select a step first."
        usable = isinstance(found, EntryRef)
        for widget in (self.heal, self.heal_button, self.condition, self.on, self.rounds,
                       self.start_button, self.end_button, self.clear_button):
            widget.setEnabled(usable)
        if not isinstance(found, EntryRef):
            self.on.clear()
            return
        part = found.part()
        heal = part.get("heal")
        self.heal.setValue(heal if isinstance(heal, int) and not isinstance(heal, bool) else 0)
        state = self.controller.state
        default = part.get("target") or part.get("actor")
        ordered = [default, *(cid for cid in state.combatants if cid != default)]
        where = (found.which, found.index, found.round_number, found.trigger)
        # The DM's choice stays while the same entry is shown; another entry starts afresh.
        current = self.on.currentData() if where == self._where else default
        self._where = where
        self.on.clear()
        for cid in ordered:
            if cid in state.combatants:
                self.on.addItem(state.combatants[cid].label, cid)
        index = self.on.findData(current)
        self.on.setCurrentIndex(index if index >= 0 else 0)

    # --- recording ----------------------------------------------------------------------------

    def record_heal(self) -> bool:
        """Records the heal amount on the step's entry (one command)."""
        found = self._found()
        if not isinstance(found, EntryRef):
            self.error.setText(plain(found))
            return False
        return self._push(found, with_heal(found.part(), self.heal.value()))

    def record_condition(self, ends: bool) -> bool:
        """Records a condition the step's action starts (or ends) on the chosen creature."""
        found = self._found()
        if not isinstance(found, EntryRef):
            self.error.setText(plain(found))
            return False
        name = self.condition.currentText().strip().lower()
        if not name:
            self.error.setText("Name the condition (asleep, held, prone…).")
            return False
        target = self.on.currentData()
        rounds = None if self.rounds.value() < 0 else self.rounds.value()
        changed = with_condition(found.part(), name, str(target) if target else None, rounds,
                                 ends)
        return self._push(found, changed)

    def clear(self) -> bool:
        """Takes every heal and condition off the step's entry."""
        found = self._found()
        if not isinstance(found, EntryRef):
            self.error.setText(plain(found))
            return False
        return self._push(found, without_care(found.part()))

    def _push(self, found: EntryRef, part: dict[str, Any]) -> bool:
        if part == found.part():
            self.error.setText("Nothing to change.")
            return False
        command = replace_entry(found.which, found.index, found.rebuilt(part),
                                found.round_number)
        reason = self.controller.why_refused(command)
        if reason is not None:
            self.error.setText(plain(f"Refused: {reason}"))
            return False
        self.error.clear()
        return self.controller.run(command, check=False)
