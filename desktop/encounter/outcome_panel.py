"""Records what happened at the selected step: hit with damage, miss, a failed save, or clears.

Recording replaces the step's declaration, turn or action (of any round) with the outcome
fields, and the engine resolves again (a caster damaged before completion then loses the
spell by itself). A failed saving throw is popcorn's ``fails_save`` (Disrupting Spells).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QResizeEvent
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

from core.fight.encounter import replace_entry
from core.fight.log import Command
from core.model.values import Step
from core.printout.words import Names, step_why
from desktop.encounter.board_base import entry_text
from desktop.encounter.condition_controls import ConditionControls
from desktop.encounter.controller import EncounterController
from desktop.encounter.retarget import RetargetControls, fallen_target
from desktop.encounter.step_entries import (
    EntryRef,
    OutcomeOrderError,
    attack_index,
    entry_for_step,
    with_outcome,
    with_save,
)
from desktop.plain_text import elide_name, plain
from desktop.resolution.step_identity import step_key, step_source
from desktop.step_text import step_sentence, step_when


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _recorded_damage(step: Step | None) -> int:
    """Gets the damage a hit step already has recorded (0 for any other step)."""
    if step is None or str(step.event) != "hits":
        return 0
    damage = step.detail.get("damage")
    return damage if isinstance(damage, int) and not isinstance(damage, bool) else 0


class OutcomePanel(QGroupBox):
    """Hit / Miss / Clear for the step selected in the resolution list."""

    def __init__(self, controller: EncounterController, parent: QWidget | None = None) -> None:
        # No title of its own: its dock says "Outcome", and the line is the header's (issue 24:
        # the header says the selected step whole, why it came then included).
        super().__init__(parent)
        self.setObjectName("outcomePanel")
        self.controller = controller
        self.step: Step | None = None
        self.label = QLabel("Select a step in the resolution list.")
        self.label.setObjectName("outcomeHeader")
        self.label.setWordWrap(True)
        # Three lines are kept for the header: the splitter cannot squeeze it to a cut line.
        self.label.setMinimumHeight(3 * self.label.fontMetrics().lineSpacing())
        self.label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.damage = QSpinBox()
        self.damage.setRange(0, 999)
        self.damage.setToolTip("Damage of a hit")
        self.another = QCheckBox("another attack")
        self.another.setToolTip("Add this as one more attack of the same declaration")
        self.hit_button = QPushButton("&Hit")
        self.hit_button.setShortcut(QKeySequence("Ctrl+H"))
        self.hit_button.clicked.connect(lambda: self.record(True))
        self.miss_button = QPushButton("&Miss")
        self.miss_button.setShortcut(QKeySequence("Ctrl+M"))
        self.miss_button.clicked.connect(lambda: self.record(False))
        self.clear_button = QPushButton("Clear")
        self.clear_button.clicked.connect(lambda: self.record(None))
        self.heal_button = QPushButton("H&eals")
        self.heal_button.setObjectName("heals")
        self.heal_button.setToolTip("The selected spell heals its target by the figure in the "
                                    "box (cure light wounds…): hit points back, up to the most")
        self.heal_button.clicked.connect(self.record_heal)
        # Only popcorn's scenarios read a failed save (docs/systems/popcorn.md, fails_save).
        self.save_button = QPushButton("Fails &Save")
        self.save_button.setObjectName("failsSave")
        self.save_button.setCheckable(True)
        self.save_button.setToolTip("The step's creature (or its target) failed a saving "
                                    "throw: a caster's spell is disrupted (fails_save)")
        self.save_button.clicked.connect(lambda checked: self.record_save(bool(checked)))
        self.save_button.setVisible(controller.system_id == "popcorn")
        self.error = QLabel()
        self.error.setObjectName("outcomeError")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #c0392b;")
        self.error.hide()
        row = QHBoxLayout()
        row.addWidget(QLabel("Damage"))
        for widget in (self.damage, self.hit_button, self.miss_button, self.heal_button,
                       self.clear_button):
            row.addWidget(widget)
        # Fails Save (popcorn only) sits beside "another attack": the first row is full at
        # 1280x720.
        second = QHBoxLayout()
        second.addWidget(self.another)
        second.addStretch(1)
        second.addWidget(self.save_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.label)
        layout.addLayout(row)
        layout.addLayout(second)
        self.conditions = ConditionControls(controller)
        self.conditions.refused.connect(lambda text: self._show_error(plain(text)))
        layout.addWidget(self.conditions)
        self.retarget = RetargetControls(controller)
        self.retarget.refused.connect(lambda text: self._show_error(plain(text)))
        layout.addWidget(self.retarget)
        layout.addWidget(self.error)
        self.set_step(None)

    def set_step(self, step: Step | None) -> None:
        """Shows which entry an outcome would change for ``step``."""
        if step is None or self.step is None or step_key(step) != step_key(self.step):
            # Another step: the box shows this step's recorded damage (or 0), never the last
            # step's figure, so one click on Hit cannot hurt the wrong creature.
            self.damage.setValue(_recorded_damage(step))
            self.another.setChecked(False)
        self.step = step
        self._show_error("")
        self.conditions.set_step(step)
        self.retarget.set_step(step)
        found = entry_for_step(self.controller.state, step) if step is not None else None
        usable = isinstance(found, EntryRef)
        for button in (self.hit_button, self.miss_button, self.clear_button, self.save_button):
            button.setEnabled(usable)
        self.heal_button.setEnabled(usable and step is not None and str(step.event) in (
            "begins-casting", "spell-takes-effect"))
        self.save_button.setChecked(isinstance(found, EntryRef)
                                    and bool(found.part().get("fails_save")))
        if step is None:
            self.label.setText("Select a step in the resolution list.")
        elif isinstance(found, EntryRef):
            sentence = step_sentence(step, self._labels(), brief=True)
            self.label.setText(plain(f"#{step.seq} · {step_when(step)} · {sentence} — records "
                                     f"on {self._describe(found)}{self._why(step)}"))
        else:
            self.label.setText(plain(f"#{step.seq} · {step_when(step)} · "
                                     f"{step_sentence(step, self._labels(), brief=True)}: {found}"
                                     f"{self._why(step)}"))
        self._fit_header()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_header()

    def _fit_header(self) -> None:
        """Keeps the header's lines whole: at least three, more when the step's words need
        them (the list beside it gives up a row; the header is where a cut row reads whole)."""
        lines = 3 * self.label.fontMetrics().lineSpacing()
        needed = self.label.heightForWidth(max(1, self.label.width()))
        height = max(lines, needed)
        if self.label.minimumHeight() != height:
            self.label.setMinimumHeight(height)

    def _why(self, step: Step) -> str:
        """Gets ``. Why then: …``: the list's Why column in full (it is cut in a narrow list)."""
        why = step_why(step, Names(self._labels()), self.controller.system_id)
        return f". Why then: {why}" if why else ""

    def _show_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.setVisible(bool(text))

    def _labels(self) -> dict[str, str]:
        return {c.id: elide_name(c.label) for c in self.controller.state.combatants.values()}

    def _describe(self, found: EntryRef) -> str:
        """Gets ``its 3rd action (melee → Orc 1)`` (``Orc 1's 1st turn…`` for another's entry,
        a readied action it sets off): the entry as the DM declared it."""
        labels = self._labels()
        entry = found.entry
        actor = str(entry.get("actor"))
        entries = (self.controller.state.actions if found.which == "actions" else
                   (self.controller.state.rounds[(found.round_number or
                                                  len(self.controller.state.rounds)) - 1]
                    .get(found.which) or ()))
        nth = sum(1 for e in list(entries)[:found.index + 1] if e.get("actor") == actor)
        noun = {"actions": "action", "turns": "turn", "declarations": "declaration"}[found.which]
        own = self.step is not None and self.step.actor == actor  # the sentence named it
        owner = "its" if own else f"{labels.get(actor, actor)}'s"
        text = f"{owner} {_ordinal(nth)} {noun}"
        what = entry_text(entry, labels).split(": ", 1)[-1].split(" (")[0]
        if own and self.step is not None and self.step.target:
            what = what.split(" → ")[0]  # the sentence named the target too
        text += f" ({what})"
        if found.trigger is not None:
            text += f", {found.item_words()}"
        if found.round_number is not None:
            text += f" of round {found.round_number}"
        return text

    def _selected_entry(self) -> EntryRef | None:
        """Gets the entry the selected step records on (None: the reason is shown)."""
        if self.step is None:
            self._show_error("Select a step first.")
            return None
        found = entry_for_step(self.controller.state, self.step)
        if not isinstance(found, EntryRef):
            self._show_error(found)
            return None
        return found

    def record(self, hit: bool | None) -> bool:
        """Records hit (with the damage shown), miss, or no outcome on the step's entry."""
        found = self._selected_entry()
        if found is None:
            return False
        assert self.step is not None
        fallen = fallen_target(self.step)
        if hit is not None and fallen is not None:
            self._show_error(plain(
                f"Refused: {self._labels().get(fallen, 'its target')} has already fallen, so "
                "this attack has no one to land on. Choose a new target (Attack This One) "
                "first."))
            return False
        if hit and not (self.step.target or found.part().get("target")
                        or found.part().get("targets")):
            self._show_error(plain(
                f"Refused: {self._doer(found, owner=True)} names no target, so a hit would "
                "land on nobody. Change the declaration (Enter on its card) to name one."))
            return False
        resolution = self.controller.resolution
        index = attack_index(resolution.steps if resolution is not None else (), self.step)
        try:
            changed = with_outcome(found.part(), hit, self.damage.value(),
                                   self.another.isChecked(), index)
        except OutcomeOrderError as exc:
            self._show_error(plain(f"Refused: {exc}{self._waiting_strike()}."))
            return False
        target = self._target_name(found)
        adds = bool(hit is not None and self.another.isChecked())
        if hit is None:
            words = f"Clear what {self._doer(found, owner=True)} did"
        elif hit:
            damage = self.damage.value()
            words = f"{self._doer(found, noun='attack')} hits {target}" + (
                f" for {damage}" if damage else "")
        else:
            words = f"{self._doer(found, noun='attack')} misses {target}"
        return self._push(found, changed, words, adds)

    def _waiting_strike(self) -> str:
        """Gets `` — that is step #9 at TU 13: Wolfgang attacks Orc 1``: the earlier attack of the
        same entry still without an outcome, so the DM knows which row to record first."""
        resolution = self.controller.resolution
        if self.step is None or resolution is None:
            return ""
        source = step_source(self.step)
        earlier = next((s for s in resolution.steps
                        if s.seq < self.step.seq and s.actor == self.step.actor
                        and step_source(s) == source and str(s.event) == "attacks"), None)
        if earlier is None:
            return ""
        what = step_sentence(earlier, self._labels(), brief=True)
        return f" — that is step #{earlier.seq} at {step_when(earlier)}: {what}"

    def _doer(self, found: EntryRef, owner: bool = False, noun: str = "action") -> str:
        """Gets who did it in words: ``Kobold 2`` or ``Kobold 2's readied attack``."""
        actor = self._labels().get(str(found.part().get("actor")), "a creature")
        if found.trigger is not None:
            kind = "readied" if found.items == "triggers" else "interrupting"
            return f"{actor}'s {kind} {noun}"
        return f"{actor}'s {noun}" if owner else actor

    def _target_name(self, found: EntryRef) -> str:
        """Gets the name of what the step's action is aimed at (the step's own target first)."""
        labels = self._labels()
        target = (self.step.target if self.step is not None else None) or \
            found.part().get("target") or found.entry.get("target")
        return labels.get(str(target), "its target") if target else "its target"

    def record_heal(self) -> bool:
        """Records that the selected spell heals its target by the figure in the box."""
        found = self._selected_entry()
        if found is None:
            return False
        part = dict(found.part())
        amount = self.damage.value()
        if amount:
            part["heal"] = amount
        else:
            part.pop("heal", None)
        target = self._target_name(found)
        words = (f"{self._doer(found)} heals {target} {amount} hp" if amount
                 else f"{self._doer(found)} heals {target} nothing")
        return self._push(found, part, words)

    def record_save(self, fails: bool) -> bool:
        """Records (or takes back) a failed saving throw on the step's entry."""
        found = self._selected_entry()
        if found is None:
            return False
        words = (f"{self._doer(found)}: a saving throw failed" if fails
                 else f"{self._doer(found)}: the failed saving throw taken back")
        return self._push(found, with_save(found.part(), fails), words)

    def _push(self, found: EntryRef, part: dict[str, object], words: str,
              adds_attack: bool = False) -> bool:
        """Saves the changed entry; ``words`` say what the DM did (status bar and Undo).

        ``adds_attack``: the change records one more attack; refused when the engine would
        show no step for it (the creature makes no more attacks), so no outcome is lost.
        """
        command = replace_entry(found.which, found.index, found.rebuilt(part), found.round_number)
        reason = self.controller.why_refused(command)
        if reason is None and adds_attack and not self._shows_one_more(command):
            reason = (f"{self._doer(found)} makes no more attacks here (its attacks per "
                      "round): one more outcome would be lost")
        if reason is not None:
            self._show_error(plain(f"Refused: {reason}"))
            self.save_button.setChecked(bool(found.part().get("fails_save")))
            return False
        return self.controller.run(command, check=False, text=words)

    def _shows_one_more(self, command: Command) -> bool:
        """Tells whether ``command`` gives the selected step's entry one more recorded strike."""
        step = self.step
        before = self.controller.resolution
        after = self.controller.resolution_after(command)
        if step is None or before is None or after is None:
            return True  # nothing to compare: the engine's own refusal (if any) decides

        def recorded(steps: Sequence[Step]) -> int:
            source = step_source(step)
            # an attack whose target had fallen keeps its outcome until it is aimed anew
            return sum(1 for s in steps if s.actor == step.actor and step_source(s) == source
                       and s.round == step.round and (str(s.event) in ("hits", "misses")
                                                      or fallen_target(s) is not None))

        return recorded(after.steps) > recorded(before.steps)
