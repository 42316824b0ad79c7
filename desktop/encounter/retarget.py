"""A new target for an attack whose target fell before it came (time-units.attacks.fallen-target).

The outcome panel embeds this row; it shows only when the selected step is such an attack.
"Attack This One" is one command that changes the action (one Ctrl+Z): the attacks already
made stay on the creatures they struck, this one and the rest go at the new target.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPushButton, QWidget

from core.fight.encounter import replace_entry
from core.model.values import Status, Step
from desktop.encounter.controller import EncounterController
from desktop.encounter.options_form import WheelOnlyWhenFocused
from desktop.encounter.step_entries import EntryRef, entry_for_step
from desktop.plain_text import elide_name
from desktop.resolution.step_identity import step_source


def fallen_target(step: Step | None) -> str | None:
    """Gets whom ``step``'s attack was meant for when that one had already fallen (None: not
    such a step)."""
    if step is None or str(step.event) != "attacks":
        return None
    fallen = step.detail.get("fallen_target")
    return str(fallen) if fallen else None


def retargeted(entry: dict[str, Any], step: Step, steps: Sequence[Step],
               new: str) -> dict[str, Any]:
    """Gets the action with ``step``'s attack (and any after it) aimed at ``new``.

    The attacks before it keep the creatures they went at: ``targets`` lists them in order,
    then ``new`` (the engine's split-targets: one at each, the rest at the last).
    """
    attack = step.detail.get("attack")
    number = attack if isinstance(attack, int) else 1
    source = step_source(step)
    earlier: list[str] = []
    for n in range(1, number):
        aimed = next((s.target for s in steps if step_source(s) == source
                      and s.actor == step.actor and s.detail.get("attack") == n
                      and str(s.event) in ("attacks", "hits", "misses")), None)
        earlier.append(aimed or new)
    out = {k: v for k, v in entry.items() if k not in ("target", "targets")}
    targets = [*earlier, new]
    out["target"] = targets[0]
    if len(targets) > 1:
        out["targets"] = targets
    return out


class RetargetControls(QWidget):
    """``Orc 1 has fallen. New target: [Orc 2] [Attack This One]``."""

    refused = Signal(str)
    """Why a click changed nothing, in words (the outcome panel shows it)."""

    def __init__(self, controller: EncounterController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("retargetControls")
        self.controller = controller
        self.step: Step | None = None
        self.label = QLabel()
        self.target = QComboBox()
        self.target.setObjectName("newTarget")
        self.target.installEventFilter(WheelOnlyWhenFocused(self))
        self.button = QPushButton("Attack This One")
        self.button.setObjectName("attackThisOne")
        self.button.setToolTip("This attack (and any after it in the same action) goes at the "
                               "creature chosen; the attacks already made stay as they were")
        self.button.clicked.connect(self.retarget)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.label)
        row.addWidget(self.target, 1)
        row.addWidget(self.button)
        self.set_step(None)

    def _names(self) -> dict[str, str]:
        return {c.id: elide_name(c.label) for c in self.controller.state.combatants.values()}

    def set_step(self, step: Step | None) -> None:
        """Shows the row for an attack whose target fell, with who is still standing."""
        self.step = step
        fallen = fallen_target(step)
        self.setVisible(fallen is not None)
        if step is None or fallen is None:
            return
        names = self._names()
        self.label.setText(f"{names.get(fallen, 'Its target')} has fallen. New target:")
        resolution = self.controller.resolution
        status = resolution.combatants if resolution is not None else {}
        actor = self.controller.state.combatants.get(step.actor)
        self.target.clear()
        standing = [c for c in self.controller.state.combatants.values()
                    if c.id != step.actor and (
                        c.id not in status or status[c.id].status is Status.ACTIVE)]
        # The other side first: that is whom an attack is usually at.
        standing.sort(key=lambda c: actor is not None and c.side == actor.side)
        for c in standing:
            self.target.addItem(names[c.id], c.id)

    def retarget(self) -> bool:
        """Aims the selected attack (and the rest of its action) at the chosen creature."""
        step = self.step
        new = self.target.currentData()
        if step is None or fallen_target(step) is None:
            self.refused.emit("Select an attack whose target has fallen.")
            return False
        if not new:
            self.refused.emit("Nobody else is standing to attack.")
            return False
        found = entry_for_step(self.controller.state, step)
        if not isinstance(found, EntryRef):
            self.refused.emit(found)
            return False
        resolution = self.controller.resolution
        steps = resolution.steps if resolution is not None else ()
        entry = found.rebuilt(retargeted(found.part(), step, steps, str(new)))
        names = self._names()
        attack = step.detail.get("attack")
        which = f"attack {attack}" if isinstance(attack, int) else "attack"
        words = (f"{names.get(step.actor, 'A creature')}'s {which}: at {names.get(str(new))} "
                 f"instead of {names.get(str(fallen_target(step)))}, who had fallen")
        command = replace_entry(found.which, found.index, entry, found.round_number)
        reason = self.controller.why_refused(command)
        if reason is not None:
            self.refused.emit(f"Refused: {reason}")
            return False
        return self.controller.run(command, check=False, text=words)
