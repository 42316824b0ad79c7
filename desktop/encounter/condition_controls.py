"""Conditions for the selected step's entry: ``[asleep] on [Orc 1] for [5 rounds] Start End``.

The outcome panel embeds this row. Start and End are one command each that changes the step's
declaration, turn or time-unit action (its ``conditions`` field; docs/scenario-format.md), so
Ctrl+Z takes it back and the engine resolves again: an asleep or held creature then stops
acting by itself, and the steps say so (``cannot act: asleep``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QWidget,
)

from core.fight.encounter import replace_entry
from core.model.values import Step, StepEvent
from core.rules.care import CONDITION_NAMES
from desktop.encounter.controller import EncounterController
from desktop.encounter.options_form import WheelOnlyWhenFocused
from desktop.encounter.step_entries import EntryRef, entry_for_step
from desktop.plain_text import elide_name

UNTIL_ENDED = "until ended"


def with_condition(entry: Mapping[str, Any], name: str, target: str | None,
                   rounds: int | None, ends: bool = False) -> dict[str, Any]:
    """Gets the entry starting (or ending) condition ``name`` on ``target``.

    A change of the same condition on the same creature already on the entry is replaced, so
    a second Start with other rounds corrects the first instead of piling up.
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


def without_conditions(entry: Mapping[str, Any]) -> dict[str, Any]:
    """Gets the entry with no conditions."""
    return {k: v for k, v in entry.items() if k != "conditions"}


class ConditionControls(QWidget):
    """A condition picker acting on the selected step's entry."""

    refused = Signal(str)
    """Why a click changed nothing, in words (the outcome panel shows it)."""

    def __init__(self, controller: EncounterController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("conditionControls")
        self.controller = controller
        self.step: Step | None = None
        self._where: tuple[object, ...] | None = None
        guard = WheelOnlyWhenFocused(self)
        self.condition = QComboBox()
        self.condition.setObjectName("conditionName")
        self.condition.setEditable(True)
        self.condition.addItems(list(CONDITION_NAMES))
        self.condition.setMinimumContentsLength(7)
        self.condition.setToolTip("Asleep, held, paralysed, stunned and helpless creatures take "
                                  "no action while it lasts; other conditions are shown and "
                                  "timed only. Type any other name.")
        self.on = QComboBox()
        self.on.setObjectName("conditionOn")
        self.on.setMinimumContentsLength(8)
        self.on.setToolTip("The creature the condition is on (the step's target by default)")
        self.rounds = QSpinBox()
        self.rounds.setObjectName("conditionRounds")
        self.rounds.setRange(-1, 999)
        self.rounds.setSpecialValueText(UNTIL_ENDED)
        self.rounds.setSuffix(" more rounds")
        self.rounds.setValue(-1)
        widest = max(self.rounds.fontMetrics().horizontalAdvance(text)
                     for text in (UNTIL_ENDED, "10 more rounds"))
        self.rounds.setMinimumWidth(widest + 30)  # room for the arrows: never "til ended"
        self.rounds.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.rounds.setToolTip("Rounds it lasts after the one it starts in (time units: one "
                               "round's TU each); 'until ended' lasts until an End is recorded")
        for widget in (self.condition, self.on, self.rounds):
            widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            widget.installEventFilter(guard)
        self.start_button = QPushButton("Start")
        self.start_button.setObjectName("conditionStart")
        self.start_button.setToolTip("The condition starts when this step's action takes effect")
        self.start_button.clicked.connect(lambda: self.record(False))
        self.end_button = QPushButton("End")
        self.end_button.setObjectName("conditionEnd")
        self.end_button.setToolTip("This step's action ends the condition (woken, freed)")
        self.end_button.clicked.connect(lambda: self.record(True))
        self.clear_button = QPushButton("Remove")
        self.clear_button.setToolTip("Take every condition off this step's declaration")
        self.clear_button.clicked.connect(self.clear)
        # Two rows, each readable at 1280x720: what and on whom, then how long and the buttons.
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(4)
        grid.addWidget(QLabel("Condition"), 0, 0)
        grid.addWidget(self.condition, 0, 1)
        grid.addWidget(QLabel("on"), 0, 2, Qt.AlignmentFlag.AlignRight)
        grid.addWidget(self.on, 0, 3, 1, 2)
        grid.addWidget(QLabel("Lasts"), 1, 0)
        grid.addWidget(self.rounds, 1, 1)
        buttons = QHBoxLayout()
        for button in (self.start_button, self.end_button, self.clear_button):
            # As wide as the words: the style's wide default cut "Remove" at 1280x720.
            button.setFixedWidth(button.fontMetrics().horizontalAdvance(button.text()) + 18)
            buttons.addWidget(button)
        buttons.addStretch(1)
        grid.addLayout(buttons, 1, 2, 1, 3)
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(3, 1)
        self.set_step(None)

    def set_step(self, step: Step | None) -> None:
        """Offers the creatures of ``step``'s entry, its target first (controls off without)."""
        self.step = step
        found = entry_for_step(self.controller.state, step) if step is not None else None
        usable = isinstance(found, EntryRef)
        for widget in (self.condition, self.on, self.rounds, self.start_button,
                       self.end_button, self.clear_button):
            widget.setEnabled(usable)
        if not isinstance(found, EntryRef):
            self.on.clear()
            self._where = None
            return
        part = found.part()
        state = self.controller.state
        resolution = self.controller.resolution
        # dead once this step is over (the deaths its own blow caused follow it): a condition
        # recorded on an earlier step may still go on a creature that dies later
        assert step is not None
        dead: set[str] = set()
        for later in resolution.steps if resolution is not None else ():
            if later.seq > step.seq and later.event is not StepEvent.DIES:
                break
            if later.event is StepEvent.DIES:
                dead.add(later.actor)
        # the step's target by default; a target the blow killed is no one to put a
        # condition on, so then the actor (and a dead creature is never offered)
        default = next((cid for cid in (part.get("target"), part.get("actor"))
                        if cid and cid not in dead), None)
        ordered = [default, *(cid for cid in state.combatants if cid != default)]
        where = (found.which, found.index, found.round_number, found.trigger, found.items)
        # The DM's choice stays while the same entry is shown; another entry starts afresh.
        current = self.on.currentData() if where == self._where else default
        self._where = where
        self.on.clear()
        for cid in ordered:
            if cid in state.combatants and cid not in dead:
                self.on.addItem(elide_name(state.combatants[cid].label), cid)
        index = self.on.findData(current)
        self.on.setCurrentIndex(max(index, 0))
        self.clear_button.setEnabled(bool(part.get("conditions")))

    def record(self, ends: bool) -> bool:
        """Records a condition the step's action starts (or ends) on the chosen creature."""
        found = self._found()
        if found is None:
            return False
        name = " ".join(self.condition.currentText().split()).lower()
        if not name:
            self.refused.emit("Name the condition first (asleep, held, prone…).")
            return False
        target = self.on.currentData()
        rounds = None if self.rounds.value() < 0 else self.rounds.value()
        changed = with_condition(found.part(), name, str(target) if target else None, rounds,
                                 ends)
        who = self.on.currentText() or "its target"
        by = self._by(found)
        words = f"{who} is no longer {name} ({by})" if ends else f"{who} is {name} ({by})"
        return self._push(found, changed, words)

    def _by(self, found: EntryRef) -> str:
        """Gets ``Sister Ysolde's action``: whose action the condition is recorded on."""
        actor = str(found.part().get("actor"))
        combatant = self.controller.state.combatants.get(actor)
        return f"{combatant.label if combatant else 'a creature'}'s action"

    def clear(self) -> bool:
        """Takes every condition off the step's entry."""
        found = self._found()
        return found is not None and self._push(
            found, without_conditions(found.part()),
            f"Clear the conditions recorded on {self._by(found)}")

    def _found(self) -> EntryRef | None:
        if self.step is None:
            self.refused.emit("Select a step first.")
            return None
        found = entry_for_step(self.controller.state, self.step)
        if not isinstance(found, EntryRef):
            self.refused.emit(found)
            return None
        return found

    def _push(self, found: EntryRef, part: dict[str, Any], words: str) -> bool:
        """Saves the changed entry; ``words`` say what the DM did (status bar and Undo)."""
        if part == found.part():
            self.refused.emit("That is already recorded.")
            return False
        command = replace_entry(found.which, found.index, found.rebuilt(part),
                                found.round_number)
        reason = self.controller.why_refused(command)
        if reason is not None:
            self.refused.emit(f"Refused: {reason}")
            return False
        return self.controller.run(command, check=False, text=words)
