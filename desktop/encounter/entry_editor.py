"""The inline editor a drop opens: target, weapon or spell, trigger… then Declare (Enter).

It only builds the entry a scenario would hold; empty fields are left out so that the engine
applies its own defaults exactly as it does for a scenario file.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from html import escape
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from core.model.values import Combatant, Weapon
from core.model.weapons import DeclaredWeapon, declare_weapon, fold
from desktop.encounter.lanes import AIMED
from desktop.encounter.options_form import WheelOnlyWhenFocused
from desktop.encounter.weapon_box import WeaponBox, unknown_weapon
from desktop.plain_text import elide_name
from desktop.roster.tables import weapon_table

NONE = "—"

MOVING = frozenset({"move", "charge", "E"})
"""Actions that cover a distance (side-d6's move and charge, the DMG's close letter E)."""
ATTACKING = frozenset({"attack", "missile"})
"""popcorn actions whose roll the attack-roll rules modify (range, cover)."""
FROM_TIMER = -1
"""The Delay field's "from the timer": below 0, so that a typed 0 s is a figure of its own."""

NAMED_ACTIONS = frozenset({"popcorn", "time-units"})
"""Systems whose actions are words (attack, spell…), not DMG letters that mix kinds."""
WEAPON_ACTIONS = frozenset({"attack", "missile", "melee"})

FIELDS_BY_SYSTEM: dict[str, tuple[str, ...]] = {
    "addict": ("segment", "target", "area", "weapon", "spell", "charge", "distance",
               "prepared", "trigger_actor", "delay_seconds"),
    "side-d6": ("segment", "target", "weapon", "spell", "charge", "distance", "hold"),
    "popcorn": ("target", "weapon", "range", "cover", "spell", "ready", "triggers",
                "effect_name", "effect_duration", "nominates"),
    "time-units": ("target", "weapon", "spell", "attacks"),
}


def offered_spells(actor: Combatant, spent: Iterable[str], kept: object = None) -> list[str]:
    """Gets the names of the spells ``actor`` can still cast, in its memorised order.

    Each name in ``spent`` takes away one memorised copy (two magic missiles memorised, one
    cast: one is still offered). ``kept``, the spell of the declaration being changed, stays.
    """
    left = Counter(str(name) for name in spent)
    names = []
    for spell in actor.spells:
        if left[spell.name] > 0:
            left[spell.name] -= 1
        else:
            names.append(spell.name)
    if isinstance(kept, str) and kept not in names and any(
            s.name == kept for s in actor.spells):
        names.append(kept)
    return names


class EntryEditor(QGroupBox):
    """Edits one declaration, turn or time-unit action before it is pushed."""

    submitted = Signal(dict)
    cancelled = Signal()
    edited = Signal()
    """The DM changed a field (not the form filling itself in as it opened)."""

    def __init__(self, system_id: str, parent: QWidget | None = None) -> None:
        super().__init__("Declare", parent)
        self.setObjectName("entryEditor")
        self.fields = FIELDS_BY_SYSTEM.get(system_id, ("target",))
        self.actor: str = ""
        self.action: str = ""
        self.target = QComboBox()
        self.area = QLineEdit()
        # The row is labelled "Area": a longer hint was cut ("area of a spell, e.g. t…").
        self.area.setPlaceholderText("e.g. the doorway")
        self.area.setToolTip("Where an area spell lands, e.g. the doorway")
        self.weapon = WeaponBox()
        # The weapon table's facts for the chosen weapon (issue 13); see declare_weapon.
        self.system_id = system_id
        self.weapon_table, _problem = weapon_table()
        self.weapon_facts = QLabel()
        self.weapon_facts.setObjectName("weaponFacts")
        self.weapon_facts.setWordWrap(True)
        self._carried: tuple[Weapon, ...] = ()
        self._actor_name = ""
        self._given: tuple[Any, Any] = (None, None)  # weapon and weapon_facts being edited
        self.weapon.currentIndexChanged.connect(self._show_weapon_facts)
        self.weapon.editTextChanged.connect(self._show_weapon_facts)
        self.spell = QComboBox()
        self.charge = QCheckBox("charge")
        self.charge.toggled.connect(lambda _on: self._show_rows())
        self.distance = QSpinBox()
        self.distance.setRange(0, 9999)
        self.distance.setSpecialValueText("not given")
        if system_id == "addict":  # footnote 19 in feet, the move's inches ×10 (an option)
            self.distance.setSuffix(" ft")
            self.distance.setToolTip(
                "How far the mover is from its target, in feet: it covers a tenth of its move a "
                "segment (a charge twice that indoors) and strikes once within its weapon's "
                "length. Not given: the usual count of segments.")
        else:  # side-d6 counts the distance in the unit of the combatant's Move: inches
            # "(Move's unit)" left a DM typing 20 for 20 ft, read as 20″ = 200 ft (issue 25).
            self.distance.setSuffix("″ (1″ = 10 ft)")
            self.distance.setToolTip(
                "How far the mover is from its target, in inches as its Move is (1″ = 10 ft "
                "indoors): it covers a tenth of its Move a segment. Not given: the usual "
                "count of segments.")
        self.distance_note = QLabel()
        self.distance_note.setObjectName("distanceNote")
        self.distance_note.setWordWrap(True)
        self._mover: Combatant | None = None
        self._surprise = False
        self.distance.valueChanged.connect(lambda _v: self._show_distance_note())
        self.range = QComboBox()
        for text, value in ((NONE, None), ("short (+1)", "short"), ("medium", "medium"),
                            ("long (−1)", "long"), ("beyond long (no attack)", "beyond")):
            self.range.addItem(text, value)
        self.range.setToolTip("Range band of a missile (Missile Attacks: Range Modifiers)")
        self.cover = QComboBox()
        for text, value in ((NONE, None), ("none", "none"), ("partial", "partial"),
                            ("complete (cannot be hit)", "complete")):
            self.cover.addItem(text, value)
        self.cover.setToolTip("The target's cover (Targets Behind Cover)")
        self.attack_notes = QLabel()
        self.attack_notes.setObjectName("attackNotes")
        self.attack_notes.setWordWrap(True)
        self.describe_attack: Callable[[dict[str, Any]], str] | None = None
        """Set by a board whose system has attack-roll rules: the notes for an entry, in words."""
        for combo in (self.range, self.cover, self.target):
            combo.currentIndexChanged.connect(lambda _i: self.show_attack_notes())
        self.prepared = QLineEdit()
        self.prepared.setPlaceholderText("prepare with trigger, e.g. when the orc moves")
        self.trigger_actor = QComboBox()
        self.delay_seconds = QSpinBox()
        # FROM_TIMER, not 0, is "from the timer": a DM who types 0 s means no delay at all.
        self.delay_seconds.setRange(FROM_TIMER, 600)
        self.delay_seconds.setSuffix(" s")
        self.delay_seconds.setSpecialValueText("from the timer")
        self.delay_seconds.setValue(FROM_TIMER)
        self.delay_seconds.setToolTip("Real seconds the player took to declare: left at 'from "
                                      "the timer', the timer's figure is used; a figure typed "
                                      "here (0 s too) wins over the timer")
        self.hold = QSpinBox()
        self.hold.setRange(0, 10)
        self.hold.setSpecialValueText("no hold")
        self.hold.setToolTip("Hold the action to this segment")
        self.waits = QCheckBox("waits (acts when named again)")
        self.ready = QLineEdit()
        self.ready.setPlaceholderText("ready with trigger, e.g. when the orc moves")
        self.triggers = QComboBox()
        self.triggers.setToolTip("A creature whose readied action this turn sets off (its "
                                 "outcome is then recorded on its own step)")
        self.nominates = QComboBox()
        self.nominates.setToolTip("Who acts next (or drop a card on 'Acts next')")
        self.attacks = QSpinBox()
        self.attacks.setRange(0, 8)
        self.attacks.setSpecialValueText("as the combatant")
        self.effect_name = QLineEdit()
        self.effect_name.setPlaceholderText("timed effect started, e.g. protection from evil")
        self.effect_duration = QSpinBox()
        self.effect_duration.setRange(0, 999)
        self.effect_duration.setSuffix(" rounds")
        self.segment = QSpinBox()
        self.segment.setRange(0, 10)
        self.segment.setSpecialValueText("next free")
        self.segment.setToolTip("The surprise segment this is done in (next free: the first "
                                "one this combatant has not used yet)")
        # Lists as wide as about twelve letters, not as their longest name: the editor shares
        # its column with the cards, and every pixel it takes is lost to the lanes at 1280x720.
        for combo in (self.target, self.weapon, self.spell, self.trigger_actor, self.triggers,
                      self.nominates):
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(12)
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.submit_button = QPushButton("&Declare")
        self.submit_button.setDefault(True)
        self.submit_button.clicked.connect(self.submit)
        cancel = QPushButton("Cancel")
        cancel.clicked.connect(self.close_editor)

        form = self.form = QFormLayout(self)
        form.addRow(self.heading)
        # What stops the declaration, at the top: the form scrolls at 1280x720, and a line
        # beside the buttons would be below the fold where the Target list is.
        self.problem = QLabel()
        self.problem.setObjectName("declarationProblem")
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #c0392b;")
        form.addRow(self.problem)
        form.setRowVisible(self.problem, False)
        labels = {"target": "Target", "area": "Area", "weapon": "Weapon", "spell": "Spell",
                  "charge": "", "prepared": "Prepared", "trigger_actor": "Trigger by",
                  "delay_seconds": "Delay", "hold": "Hold to", "waits": "", "ready": "Ready",
                  "triggers": "Sets off", "nominates": "Nominates", "attacks": "Attacks",
                  "effect_name": "Effect", "segment": "Surprise segment",
                  "effect_duration": "Lasts", "distance": "Distance", "range": "Range",
                  "cover": "Cover"}
        for name in self.fields:
            form.addRow(labels[name], getattr(self, name))
            if name == "weapon":
                form.addRow("", self.weapon_facts)
            if name == "cover":
                form.addRow("", self.attack_notes)
            if name == "distance":
                form.addRow("", self.distance_note)
        # Declare and Cancel live in a bar of their own that the board puts below the form's
        # scroll area: in view whatever the form's length, and never moving as text wraps.
        self.button_bar = QWidget()
        self.button_bar.setObjectName("formButtons")
        buttons = QHBoxLayout(self.button_bar)
        buttons.setContentsMargins(0, 2, 0, 2)
        buttons.addWidget(self.submit_button)
        buttons.addWidget(cancel)
        buttons.addStretch(1)
        self.cancel_button = cancel
        bar_policy = self.button_bar.sizePolicy()
        bar_policy.setRetainSizeWhenHidden(True)
        self.button_bar.setSizePolicy(bar_policy)
        self.button_bar.hide()
        # Scrolling the form past a list or spin box must not change it (a target became
        # someone else after two notches): the wheel changes only the field clicked into.
        self._wheel_guard = WheelOnlyWhenFocused(self)
        for widget in (*self.findChildren(QComboBox), *self.findChildren(QSpinBox)):
            widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            widget.installEventFilter(self._wheel_guard)
        self.editing: int | None = None
        """The index of the declaration being changed (None: a new one)."""
        self._opening = False
        for combo in self.findChildren(QComboBox):
            combo.currentIndexChanged.connect(self._on_edited)
            if combo.isEditable():
                combo.editTextChanged.connect(self._on_edited)
        for spin in self.findChildren(QSpinBox):
            spin.valueChanged.connect(self._on_edited)
        for box in self.findChildren(QCheckBox):
            box.toggled.connect(self._on_edited)
        self.set_surprise(False)
        self.hide()

    def _on_edited(self, *_args: object) -> None:
        if not self._opening and self.isVisible():
            self.edited.emit()

    def setVisible(self, visible: bool) -> None:
        """Shows or hides the form and its button bar together."""
        super().setVisible(visible)
        self.button_bar.setVisible(visible)

    def _show_rows(self) -> None:
        """Shows Distance only for a move or charge, Range and Cover only for an attack."""
        moving = self.action in MOVING or self.charge.isChecked()
        if "distance" in self.fields:
            self.form.setRowVisible(self.distance, moving)
            self.form.setRowVisible(self.distance_note, moving)
            self._show_distance_note()
        attacking = self.action in ATTACKING
        for name in ("range", "cover"):
            if name in self.fields:
                self.form.setRowVisible(getattr(self, name), attacking)
        if "cover" in self.fields:
            self.form.setRowVisible(self.attack_notes, attacking)
        if self.system_id in NAMED_ACTIONS:
            # Popcorn and time units name the action itself: a spell turn asks for no weapon,
            # a blow for no spell, a move for neither (the form stays short at 1280x720).
            self.form.setRowVisible(self.spell, self._asks("spell"))
            armed = self._asks("weapon")
            self.form.setRowVisible(self.weapon, armed)
            self.form.setRowVisible(self.weapon_facts, armed)
            if "ready" in self.fields:
                self.form.setRowVisible(self.ready, self._asks("ready"))
        self.show_attack_notes()

    def _asks(self, name: str) -> bool:
        """Tells whether the form asks for ``name`` for this action (hidden rows write nothing)."""
        if self.system_id not in NAMED_ACTIONS:
            return True
        if name == "spell":
            return self.action == "spell"
        if name == "weapon":
            return self.action in WEAPON_ACTIONS
        if name == "ready":  # popcorn: a creature either waits or readies, never both
            return self.action != "wait"
        return True

    def _show_distance_note(self) -> None:
        """Says what the typed distance is and how long the mover takes (side-d6: a tenth of
        its Move a segment; side-d6.move.contact-segment)."""
        mover, value = self._mover, self.distance.value()
        if self.system_id != "side-d6" or mover is None or not value:
            self.distance_note.clear()
            return
        charge = self.action == "charge" or self.charge.isChecked()
        raw = mover.extra.get("charge_movement") if charge else None
        rate = raw if isinstance(raw, int | float) and not isinstance(raw, bool) else (
            mover.movement)
        text = f"{value}″ is {value * 10} ft."
        if rate:
            segments = max(1, math.ceil(value * 10 / rate))
            text += (f" {mover.label} moves {rate:g}″ a round, {rate / 10:g}″ a segment: "
                     f"{segments} segment{'s' if segments > 1 else ''} to reach")
            if self._surprise:  # side-d6.surprise.charge-a-round-allows
                text += (", within a round's move: done in this surprise segment"
                         if segments <= 10 else ", more than a round's move: not in one "
                         "surprise segment")
            text += "."
        self.distance_note.setText(text)

    def show_attack_notes(self) -> None:
        """Shows what modifies the attack's roll as the form stands (popcorn)."""
        if self.describe_attack is None or self.action not in ATTACKING or not self.actor:
            self.attack_notes.clear()
            return
        self.attack_notes.setText(self.describe_attack(self.entry()))

    def set_surprise(self, surprise: bool) -> None:
        """Shows the surprise-segment field only while declaring in the surprise segments."""
        if "segment" in self.fields:
            self.form.setRowVisible(self.segment, surprise)
        self._surprise = surprise
        self._show_distance_note()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        # Fields pass Enter and Escape up to here (line edits after emitting returnPressed).
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.submit()
        elif event.key() == Qt.Key.Key_Escape:
            self.close_editor()
        else:
            super().keyPressEvent(event)

    def open_for(
        self, actor: Combatant, action: str, combatants: Sequence[Combatant], verb: str = "Declare",
        unavailable: Iterable[str] = (), values: Mapping[str, Any] | None = None,
        editing: int | None = None, spent_spells: Iterable[str] = (),
    ) -> None:
        """Shows the editor for ``actor`` doing ``action``, every field reset (or to ``values``).

        Lists offer combatants by name; the actor itself and ``unavailable`` ones (the dead)
        are left out. The Spell list leaves out ``spent_spells`` (one memorised copy for each
        name given: cast or lost earlier in the fight), except the spell of the declaration
        being changed.
        """
        self._opening = True  # the form filling itself in is no edit of the DM's
        try:
            self._fill(actor, action, combatants, verb, unavailable, values, editing,
                       spent_spells)
        finally:
            self._opening = False
        self.show()
        self.target.setFocus()

    def _fill(
        self, actor: Combatant, action: str, combatants: Sequence[Combatant], verb: str,
        unavailable: Iterable[str], values: Mapping[str, Any] | None, editing: int | None,
        spent_spells: Iterable[str],
    ) -> None:
        self.actor, self.action, self.editing = actor.id, action, editing
        self.show_problem("")
        self._mover = actor
        # The title is the verb alone and the heading below wraps: a frame's title never
        # wraps, and a long name in it made the form wider than its panel (36-key-d).
        self.setTitle(verb)
        self.heading.setText(f"<b>{escape(actor.label)}</b> → <b>{escape(action)}</b>")
        self.submit_button.setText(f"&{verb}")
        # Creatures are offered by name (the id rides along as item data); a creature is never
        # its own target, except of a spell (a cleric may cure herself).
        gone = set(unavailable)
        # The other side first in the Target list: a PC's blow is for a monster, not for the
        # DM's own party at the top of the roster (issue 24).
        foes_first = sorted(combatants, key=lambda c: c.side == actor.side)
        for combo in (self.target, self.trigger_actor, self.nominates, self.triggers):
            combo.clear()
            combo.addItem(NONE, None)
            for c in (foes_first if combo is self.target else combatants):
                # popcorn's last actor may name itself to go first next round
                itself = combo is self.nominates or (combo is self.target
                                                    and action in ("spell", "D"))
                if c.id not in gone and (c.id != actor.id or itself):
                    combo.addItem(elide_name(c.label), c.id)
        # The engine uses the first weapon when none is named: say so instead of a bare dash.
        self.weapon.clear()
        self.weapon.addItem(f"default: {actor.weapons[0].name}" if actor.weapons
                            else "none (natural attack)", None)
        for w in actor.weapons:
            self.weapon.addItem(w.name, w.name)
        self._carried = actor.weapons
        self._given = ((values or {}).get("weapon"), (values or {}).get("weapon_facts"))
        if self.weapon_table is not None:  # then the system's weapon list, what it lacks
            carried = {fold(w.name) for w in actor.weapons}
            listed = self.weapon_table.list_for(self.system_id)
            names = [n for n in listed.names() if fold(n) not in carried] if listed else []
            if names:
                self.weapon.insertSeparator(self.weapon.count())
            for n in sorted(names, key=str.casefold):
                self.weapon.addItem(n, n)
        self.weapon.set_names([self.weapon.itemText(i) for i in range(1, self.weapon.count())
                               if self.weapon.itemData(i)])
        self._actor_name = actor.label
        self.spell.clear()
        self.spell.addItem(NONE, None)
        for name in offered_spells(actor, spent_spells, (values or {}).get("spell")):
            self.spell.addItem(name, name)
        for line in (self.area, self.prepared, self.ready, self.effect_name):
            line.clear()
        for box in (self.charge, self.waits):
            box.setChecked(False)
        for spin in (self.delay_seconds, self.hold, self.attacks, self.effect_duration,
                     self.segment, self.distance):
            spin.setValue(spin.minimum())  # each one's "not given" (Delay: from the timer)
        for combo in (self.range, self.cover):
            combo.setCurrentIndex(0)
        # A missile action shoots the first missile weapon carried, not the engine's default
        # (the first weapon, often a sword): it is chosen, so the entry names it.
        shooting = next((w.name for w in actor.weapons if w.missile), None)
        if action == "missile" and shooting is not None:
            self.weapon.setCurrentIndex(self.weapon.findData(shooting))
        for name, value in (values or {}).items():
            if name in self.fields and value is not None:
                self.set_value(name, value[0] if isinstance(value, list) and value else value)
        self._show_weapon_facts()
        self._show_rows()
        edit = self.weapon.lineEdit()
        if edit is not None:
            edit.setCursorPosition(0)  # "none (natural attack)" reads from its start

    def set_value(self, name: str, value: Any) -> None:
        """Sets one field as the DM would (tests and the board's keyboard paths use it)."""
        widget = getattr(self, name)
        if isinstance(widget, QComboBox):
            index = widget.findData(value) if value is not None else -1
            if index < 0:
                index = widget.findText(str(value))
            if index < 0 and widget.isEditable():
                widget.setEditText(str(value))
            else:
                widget.setCurrentIndex(max(index, 0))
        elif isinstance(widget, QCheckBox):
            widget.setChecked(bool(value))
        elif isinstance(widget, QSpinBox):
            widget.setValue(int(value))
        else:
            widget.setText(str(value))

    def entry(self) -> dict[str, Any]:
        """Gets the entry as a scenario holds it (empty fields left out)."""
        entry: dict[str, Any] = {"actor": self.actor, "action": self.action}
        for name in self.fields:
            if name.startswith("effect_"):
                continue
            widget = getattr(self, name)
            if name == "segment" and not self._surprise:
                continue
            if name == "distance" and not (self.action in MOVING or self.charge.isChecked()):
                continue
            if name in ("range", "cover") and self.action not in ATTACKING:
                continue
            if not self._asks(name):
                continue
            if isinstance(widget, QComboBox):
                data = widget.currentData()
                typed = widget.currentText().strip()
                if widget.isEditable() and typed and typed != widget.itemText(
                        widget.currentIndex()):
                    data = typed  # a weapon typed in, not picked
                if data not in (None, ""):  # the "—" item: nothing chosen
                    entry[name] = [data] if name == "triggers" else data
            elif isinstance(widget, QCheckBox):
                if widget.isChecked():
                    entry[name] = True
            elif widget is self.delay_seconds:
                if widget.value() != FROM_TIMER:  # 0 s typed is written: it wins over the timer
                    entry[name] = widget.value()
            elif isinstance(widget, QSpinBox):
                if widget.value():
                    entry[name] = widget.value()
            elif widget.text().strip():
                entry[name] = widget.text().strip()
        if "weapon" in self.fields and self._asks("weapon"):
            self._declare_weapon(entry)
        if "effect_name" in self.fields and self.effect_name.text().strip():
            entry["effect"] = {"name": self.effect_name.text().strip(),
                               "duration": self.effect_duration.value(),
                               "target": entry.get("target") or self.actor}
        return entry

    def kept_from(self, old: Mapping[str, Any], entry: Mapping[str, Any]) -> dict[str, Any]:
        """Gets what a changed entry keeps of the saved one: every field this form does not
        edit (recorded hits and damage, conditions, heals, a failed save, interrupts…), so
        changing a target never drops an outcome the DM recorded elsewhere."""
        managed = {*self.fields, "actor", "action", "waits", "weapon_facts"} - {
            "effect_name", "effect_duration"}
        return {k: v for k, v in old.items() if k not in managed and k not in entry}

    def declared_weapon(self) -> DeclaredWeapon:
        """Gets the weapon as chosen: what to write and its facts in words."""
        data = self.weapon.currentData()
        typed = self.weapon.currentText().strip()
        if typed and typed != self.weapon.itemText(self.weapon.currentIndex()):
            data = typed  # typed in, not picked
        return declare_weapon(self._carried, data, self.weapon_table, self.system_id)

    def _declare_weapon(self, entry: dict[str, Any]) -> None:
        chosen = self.declared_weapon()
        given_weapon, given_facts = self._given
        if given_facts is not None and chosen.name == given_weapon:
            entry["weapon_facts"] = given_facts  # facts already in the entry win
        elif chosen.facts:
            entry["weapon_facts"] = dict(chosen.facts)
        if chosen.name is not None:
            entry["weapon"] = chosen.name

    def weapon_problem(self) -> str | None:
        """Says why the weapon typed names no weapon (None: it names one, or one is picked)."""
        if not ("weapon" in self.fields and self._asks("weapon")):
            return None
        return unknown_weapon(self.weapon.typed(), self._actor_name, self._carried,
                              self.weapon_table, self.system_id)

    def _show_weapon_facts(self, *_args: object) -> None:
        problem = self.weapon_problem() if self.actor else None
        words = self.declared_weapon().words
        mover = getattr(self, "_mover", None)
        if self.system_id == "popcorn" and "rate of fire" in words and mover is not None:
            # popcorn.attack.per-round: OSE counts attacks a round, not shots a weapon looses
            count = mover.attacks
            words += (f" — in popcorn (OSE) {elide_name(mover.label)} makes "
                      f"{count} attack{'' if count == 1 else 's'} a round (Attacks Per Round), "
                      "whatever the rate of fire")
        self.weapon_facts.setText(problem or words)
        self.weapon_facts.setStyleSheet("color: #c0392b;" if problem else "")

    def submit(self) -> None:
        if self.isHidden():  # only while open (even if the window itself is not shown)
            return
        problem = self.weapon_problem()
        if problem is not None:  # never written as typed, nor turned into another weapon
            self.show_problem(problem)
            self.weapon.setFocus()
            return
        entry = self.entry()
        if self.action in AIMED.get(self.system_id, ()) and not entry.get("target"):
            # A blow at nobody: its hit would land nowhere (issue 22, point 6).
            self.show_problem("Choose a target: a blow or a shot is made at someone.")
            self.target.setFocus()
            return
        self.show_problem("")
        self.submitted.emit(entry)

    def show_problem(self, text: str) -> None:
        """Shows (or clears) what stops the declaration, above the buttons."""
        self.problem.setText(text)
        self.form.setRowVisible(self.problem, bool(text))

    def close_editor(self) -> None:
        self.hide()
        self.cancelled.emit()
