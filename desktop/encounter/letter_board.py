"""The action board of the segment systems (addict, side-d6): cards dropped onto letter lanes.

When the surprise dice say a side is surprised, the first declarations go into the surprise
segments (a round with ``"surprise": true``), clearly labelled, before round 1 is opened.
Cards on a lane can be changed (double-click, Enter), moved (drag, another lane's key) and
taken back (Delete, context menu); each is one command.

addict also times each declaration: the clock starts when the DM begins declaring for a
combatant (a card goes to a lane) and stops when the declaration is made; the seconds shown
are the ones written into the declaration.
"""

from __future__ import annotations

from dataclasses import replace
from html import escape
from typing import Any

from PySide6.QtCore import QElapsedTimer, Qt, QTimer
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from core.fight.encounter import add_entry, remove_entry, replace_entry, start_round
from core.fight.log import Command
from core.model.values import Combatant, Kind, Status, StepEvent
from core.printout.words import round_title
from core.roster.stamping import MONSTER_SIDE
from core.rules import find_system
from desktop.encounter.board_base import BoardBase, form_area, with_buttons, wrapped_label
from desktop.encounter.controller import EncounterController
from desktop.encounter.elided_label import ElidedLabel
from desktop.encounter.lane_model import LaneBox
from desktop.encounter.lanes import lanes_for
from desktop.plain_text import plain


def lane_text(entry: dict[str, Any], labels: dict[str, str]) -> str:
    """Gets ``Brannoc → Orc 1 · long sword (hit 5)``: who and whom first (the lane is the
    action), then the rest."""
    def name(cid: Any) -> str:
        return labels.get(str(cid), "someone")
    text = name(entry.get("actor"))
    if entry.get("target"):
        text += f" → {name(entry['target'])}"
    details = [str(v) for v in (entry.get("spell") or entry.get("weapon"),) if v]
    if entry.get("segment"):
        details.append(f"surprise segment {entry['segment']}")
    if entry.get("charge"):
        details.append("charging")
    if entry.get("prepared"):
        details.append(f"prepared: {entry['prepared']}")
    if entry.get("hold"):
        details.append(f"held to segment {entry['hold']}")
    if entry.get("delay_seconds"):
        details.append(f"{entry['delay_seconds']} s to decide")
    if details:
        text += " · " + ", ".join(details)
    outcome = []
    if "hit" in entry:
        outcome.append(f"hit {entry.get('damage', 0)}" if entry["hit"] else "miss")
    for hit in entry.get("hits") or ():
        outcome.append(f"hit {hit.get('damage', 0)}" if hit.get("hit") else "miss")
    if outcome:
        text += f" ({', '.join(outcome)})"
    return text


def _declared_by_a_player(combatant: Combatant) -> bool:
    """Tells whether a player declares for ``combatant`` (a PC, or a henchman on the party's
    side): Phase 6 has the DM note the other combatants' declarations privately (hirelings
    too), so their declarations are not timed."""
    return combatant.kind in (Kind.PC, Kind.HENCHMAN) and combatant.side != MONSTER_SIDE


class LetterBoard(BoardBase):
    """Combatant cards on the left, one drop lane per action letter or kind on the right."""

    def __init__(self, controller: EncounterController, parent: QWidget | None = None) -> None:
        super().__init__(controller, parent=parent)
        self.setObjectName("letterBoard")
        lanes = lanes_for(controller.system_id)
        # A card wraps as far as its names need (six lines at most; the full text is also in
        # its tooltip): a cut card hid whom a blow was for.
        self.lanes = {lane.action: LaneBox(lane.action, f"{lane.title} [{lane.key}]",
                                           lane.meaning, editable=True, max_lines=6)
                      for lane in lanes}
        self._keys = {lane.key: lane.action for lane in lanes}
        self._titles = {lane.action: lane.title for lane in lanes}
        grid = self.grid = QGridLayout()
        columns = self.columns = 3  # wide enough for "actor → target" on two lines at 1280×720
        for i, box in enumerate(self.lanes.values()):
            # The meaning stays as the lane's tooltip: at 1280×720 its words took the
            # whole lane and cut the cards in it.
            box.meaning.hide()
            box.model.combatant_dropped.connect(self._on_combatant_dropped)
            box.model.declaration_dropped.connect(self.move_declaration)
            box.view.lane_names = [(lane.action, lane.title) for lane in lanes]
            box.view.change_requested.connect(self.change_declaration)
            box.view.take_back_requested.connect(self.take_back)
            box.view.move_requested.connect(self.move_declaration)
            grid.addWidget(box, i // columns, i % columns)
        self.cards.key_typed.connect(self._on_key_typed)

        self.new_round_button = QPushButton("New &Round")
        self.new_round_button.setToolTip("Start the next round (Ctrl+R)")
        self.new_round_button.setShortcut(QKeySequence("Ctrl+R"))
        self.new_round_button.clicked.connect(self.start_next_round)
        self.take_back_button = QPushButton("&Take Back")
        self.take_back_button.setToolTip("Remove the selected declaration from its lane "
                                         "(or press Delete on it)")
        self.take_back_button.clicked.connect(self.take_back_selected)
        self.round_label = QLabel()
        self.round_label.setObjectName("roundLabel")
        self.round_label.setWordWrap(True)  # "Round 1 — surprise segments: …" wraps, never cut
        self.round_label.setMinimumWidth(120)
        self.dice_label = QLabel()
        self.dice_label.setObjectName("diceState")
        self.dice_label.setWordWrap(True)
        # Two lines kept for each, filled or not: a header that grew or shrank with its words
        # (a new round's "waiting for dice …") moved every lane below it.
        for label in (self.round_label, self.dice_label):
            label.setMinimumHeight(2 * label.fontMetrics().lineSpacing())
            label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        # One line that never grows: a wrapping timer pushed the form down as it started.
        # Three lines across the panel: one line beside the button cut every message at 1280×720
        # ("The timer starts when y…"), and the DM hovered to read how long a player took.
        self.timer_label = ElidedLabel(lines=3)
        self.timer_label.setObjectName("declarationTimer")
        self.timer = QElapsedTimer()
        self.timing: str | None = None
        self.last_timed: tuple[str, int] | tuple[str, int, int] | None = None
        """Who declared last and the seconds used (and the timer's, when the DM typed them)."""
        self._tick = QTimer(self)
        self._tick.setInterval(250)
        self._tick.timeout.connect(self._show_timer)
        self._timed = controller.system_id == "addict"
        self.editor.cancelled.connect(self._stop_timer)
        # The player has decided once the DM writes the answer down: the clock stops at the
        # first change in the form, so filling the form in is no delay of the player's.
        self.editor.edited.connect(self._player_decided)
        self.decided: int | None = None
        """The seconds the player took, frozen when the DM began filling the form in."""
        self.timer_button = QPushButton("Start &Timer")
        self.timer_button.setObjectName("startTimer")
        self.timer_button.setToolTip("Start timing the selected combatant's player now, as you "
                                     "ask (or press T on the card); dropping the card on a lane "
                                     "starts it too")
        self.timer_button.clicked.connect(lambda: self.start_declaration_timer(
            self.cards.current_id(), restart=True))
        options = find_system(controller.system_id).options_type()
        configured = controller.state.config.get("options") or {}
        self.seconds_per_segment = int(configured.get(
            "seconds_per_segment", getattr(options, "seconds_per_segment", 6)))
        # The form keeps its place while hidden, so the lanes never jump when it opens.
        for combo in self.editor.findChildren(QComboBox):
            # long names wrap the lanes' way: the form must not widen the cards column
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(10)
        policy = self.editor.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        self.editor.setSizePolicy(policy)

        left = QVBoxLayout()
        left.addWidget(wrapped_label("<b>Combatants</b> — drag onto a lane, or press its key"))
        left.addWidget(self.cards, 2)
        if self._timed:
            timer_row = QHBoxLayout()
            timer_row.addStretch(1)
            timer_row.addWidget(self.timer_button)
            left.addLayout(timer_row)
            left.addWidget(self.timer_label)
        # The form sits in a fixed, scrollable place below the cards: opening it moves nothing
        # and a long form (addict's) never makes the window taller than the screen.
        self.editor_area = form_area(self.editor, "declarationForm", 250)
        left.addWidget(with_buttons(self.editor_area, self.editor), 3)
        self.combatants_panel.setLayout(left)
        buttons = QHBoxLayout()
        buttons.addWidget(self.round_label, 1)
        buttons.addWidget(self.take_back_button)
        buttons.addWidget(self.new_round_button)
        right = QVBoxLayout()
        right.addLayout(buttons)
        right.addWidget(self.dice_label)
        right.addLayout(grid, 1)
        right.addWidget(self.message)
        layout = QHBoxLayout(self)
        layout.addLayout(right, 1)
        self._show_timer()

    # --- what is known ----------------------------------------------------------------------------

    def _pending(self, word: str) -> list[str]:
        """Gets the sides whose ``word`` die (surprise, initiative) is still to be entered."""
        return [r.purpose.split(" ", 1)[1] for r in self.controller.rolls_needed()
                if r.purpose.startswith(f"{word} ")]

    def surprise_known(self) -> bool:
        """True once the surprise check was asked for and every side's die is in."""
        return "surprise" in self.controller.state.fields and not self._pending("surprise")

    def surprised_names(self) -> list[str]:
        """Gets who the entered surprise dice leave surprised (empty until they are all in)."""
        resolution = self.controller.resolution
        if not self.surprise_known() or resolution is None:
            return []
        labels = self.labels()
        return list(dict.fromkeys(labels.get(s.actor, "someone") for s in resolution.steps
                                  if s.event is StepEvent.SURPRISED))

    def in_surprise_round(self) -> bool:
        rounds = self.controller.state.rounds
        return bool(rounds and rounds[-1].get("surprise"))

    def round_number(self) -> int:
        """Gets the round as the resolution list and timeline number it (the surprise
        segments are round 1 when there are any)."""
        return self.controller.state.round

    def dice_text(self) -> str:
        state = self.controller.state
        parts = []
        if "surprise" in state.fields:
            waiting = self._pending("surprise")
            if waiting:
                parts.append(f"Surprise: waiting for dice ({', '.join(waiting)}).")
            elif not state.rounds or self.in_surprise_round():
                # only while the surprise segments are ahead or being played: from the next
                # round on, "Surprised: …" would be stale (and name the dead)
                names = self.surprised_names()
                parts.append(f"Surprised: {', '.join(names)}." if names
                             else "Surprise: no one is surprised.")
        if state.rounds and not self.in_surprise_round():
            waiting = self._pending("initiative")
            if waiting:
                parts.append(f"Round {self.round_number()} initiative: waiting for dice "
                             f"({', '.join(waiting)}) — segments are not known yet.")
            else:
                dice = state.rounds[-1].get("initiative") or {}
                shown = ", ".join(f"{side} {value}" for side, value in dice.items())
                parts.append(f"Round {self.round_number()} initiative: {shown}.")
        return " ".join(parts)

    # --- showing --------------------------------------------------------------------------------

    def refresh(self) -> None:
        self.refresh_cards()
        state = self.controller.state
        labels = self.labels()
        current = state.rounds[-1] if state.rounds else {}
        rows: dict[str, list[tuple[str, int | None]]] = {key: [] for key in self.lanes}
        for index, entry in enumerate(current.get("declarations") or ()):
            lane = str(entry.get("action"))
            if lane in rows:
                rows[lane].append((lane_text(dict(entry), labels), index))
        for key, box in self.lanes.items():
            box.model.set_rows(rows[key])
        self._share_height(self._fullest_ever(state.rounds))
        surprise = self.in_surprise_round() or (not state.rounds and bool(self.surprised_names()))
        self.editor.set_surprise(surprise)
        if not state.rounds:
            self.round_label.setText(
                "<b>Round 1 — surprise segments</b>: the first declaration goes there."
                if surprise else "No round yet: the first declaration starts round 1.")
            self.new_round_button.setText("Start &Round 1" if not surprise
                                          else "Skip to &Round 2")
        elif self.in_surprise_round():
            self.round_label.setText("<b>Round 1 — surprise segments</b>: declare what the "
                                     "side not surprised does")
            self.new_round_button.setText("Start &Round 2")
        else:
            after = len(state.rounds) > 1 and bool(state.rounds[-2].get("surprise"))
            title = escape(round_title(self.round_number(), False, after))
            self.round_label.setText(f"<b>{title}</b>")  # the timeline's and print's words
            self.new_round_button.setText("New &Round")
        self.new_round_button.setShortcut(QKeySequence("Ctrl+R"))
        self.dice_label.setText(plain(self.dice_text()))

    def _fullest_ever(self, rounds: Any) -> dict[str, int]:
        """Gets each lane's most cards in any round of the fight so far."""
        most = dict.fromkeys(self.lanes, 0)
        for played in rounds:
            counts: dict[str, int] = {}
            for entry in played.get("declarations") or ():
                lane = str(entry.get("action"))
                counts[lane] = counts.get(lane, 0) + 1
            for lane, count in counts.items():
                if lane in most:
                    most[lane] = max(most[lane], count)
        return most

    def _share_height(self, most: dict[str, int]) -> None:
        """Gives a row of lanes height by the most cards its lanes held in any round (capped),
        so a crowded lane shows two or three cards at 1280x720 instead of one and a scroll
        bar; empty rows keep their minimum, still a drop target. Counting every round, not
        this one, keeps each lane where it was when a new round empties them all (Pip,
        dropped where "attack" had been, landed in "move"); opening the form moves nothing."""
        counts = [most[key] for key in self.lanes]
        for row in range(self.grid.rowCount()):
            fullest = max(counts[row * self.columns:(row + 1) * self.columns], default=0)
            stretch = 1 + 4 * min(fullest, 3)
            if self.grid.rowStretch(row) != stretch:  # setting it lays the whole board out
                self.grid.setRowStretch(row, stretch)

    def _show_timer(self) -> None:
        if self.timing is None or not self.timer.isValid():
            if self.last_timed is not None and len(self.last_timed) == 3:
                name, seconds, clocked = self.last_timed
                self.timer_label.setText(
                    f"{name}: {seconds} s typed — delay {self._delay(seconds)} (used; the "
                    f"timer had {clocked} s).")
            elif self.last_timed is not None:
                name, seconds = self.last_timed[:2]
                self.timer_label.setText(
                    f"{name} declared in {seconds} s — delay {self._delay(seconds)} (used).")
            else:
                self.timer_label.setText("The timer starts when you begin a player's declaration.")
            return
        name = self.labels().get(self.timing, "someone")
        if self.decided is not None:
            self.timer_label.setText(f"{name} decided in {self.decided} s — delay "
                                     f"{self._delay(self.decided)} (filling the form in is not "
                                     "counted)")
            return
        seconds = self.timer.elapsed() // 1000
        self.timer_label.setText(f"Timer: {name} declaring for {seconds} s — delay "
                                 f"{self._delay(seconds)}")

    def _delay(self, seconds: int) -> str:
        delay = seconds // max(self.seconds_per_segment, 1)
        return f"{delay} segment{'s' if delay != 1 else ''}"

    def _stop_timer(self) -> None:
        self.timing = None
        self.decided = None
        self._tick.stop()
        self._show_timer()

    def _player_decided(self) -> None:
        """Freezes the clock: the DM is writing the player's answer down."""
        if self.timing is not None and self.timer.isValid() and self.decided is None \
                and self.timing == self.editor.actor:
            self.decided = int(self.timer.elapsed() // 1000)
            self._tick.stop()
            self._show_timer()

    # --- declaring ------------------------------------------------------------------------------

    def start_declaration_timer(self, cid: str | None, restart: bool = False) -> None:
        """Starts timing a combatant's player (the DM asked, or began declaring for it); one
        already running for that combatant (Start Timer pressed first) keeps going."""
        if not self._timed or cid is None:
            return
        if not restart and self.timing == cid and self.timer.isValid() \
                and self.decided is None:
            return
        self.timing = cid
        self.decided = None
        self.timer.start()
        self._tick.start()
        self._show_timer()

    def _on_key_typed(self, cid: str, key: str) -> None:
        if key.upper() == "T" and "T" not in self._keys:
            self.start_declaration_timer(cid, restart=True)
            return
        lane = self._keys.get(key)
        if lane is not None:
            self.choose_lane(cid, lane)

    def _on_combatant_dropped(self, cid: str, lane: str) -> None:
        self.choose_lane(cid, lane)

    def _unavailable(self) -> list[str]:
        resolution = self.controller.resolution
        if resolution is None:
            return []
        return [cid for cid, r in resolution.combatants.items() if r.status is Status.DEAD]

    def choose_lane(self, cid: str, lane: str) -> None:
        """A card went to a lane (dropped or keyed): open the editor for its declaration."""
        actor = self.combatant(cid)
        if actor is None:
            self.show_refusal("that combatant is not in this encounter")
            return
        if not self.controller.state.rounds and "surprise" in self.controller.state.fields \
                and self._pending("surprise"):
            self.show_refusal("enter the surprise dice first (waiting for "
                              f"{', '.join(self._pending('surprise'))}): they decide whether "
                              "these declarations go into surprise segments")
            return
        self.refresh()
        self.editor.open_for(actor, lane, self.combatants(), "Declare",
                             unavailable=self._unavailable(), spent_spells=self.spells_used(cid))
        self._show_form_top()
        if _declared_by_a_player(actor):  # addict.declare.delay: players are timed
            self.start_declaration_timer(cid)

    def _show_form_top(self) -> None:
        """Scrolls the form to its heading and Target: it opened where the last one was left,
        with Target out of sight."""
        self.editor_area.verticalScrollBar().setValue(0)

    def spells_used(self, cid: str) -> list[str]:
        """Gets the spells ``cid`` has cast or lost so far in this fight, once per casting.

        The roster's spent spells never reach the encounter (a combatant starts with those
        still available); these are the ones this fight used up.
        """
        resolution = self.controller.resolution
        if resolution is None:
            return []
        used = (StepEvent.SPELL_TAKES_EFFECT, StepEvent.SPELL_DISRUPTED)
        return [str(s.detail["spell"]) for s in resolution.steps
                if s.actor == cid and s.event in used and s.detail.get("spell")]

    def change_declaration(self, index: int) -> None:
        """Opens a declaration already on a lane in the form, to change it."""
        entry = self._entry(index)
        actor = self.combatant(str(entry.get("actor"))) if entry else None
        if entry is None or actor is None:
            return
        self.editor.open_for(actor, str(entry.get("action")), self.combatants(), "Change",
                             unavailable=self._unavailable(), values=entry, editing=index,
                             spent_spells=self.spells_used(actor.id))
        self._show_form_top()

    def _entry(self, index: int) -> dict[str, Any] | None:
        rounds = self.controller.state.rounds
        entries = list(rounds[-1].get("declarations") or ()) if rounds else []
        return dict(entries[index]) if 0 <= index < len(entries) else None

    def _run_named(self, command: Command, text: str) -> bool:
        """Runs a command whose name (log and undo text) the board words itself."""
        return self.controller.run(replace(command, name=text), text=text)

    def move_declaration(self, index: int, lane: str) -> None:
        """Moves a declaration to another lane (a drag, a lane key or the menu): one command."""
        lane = self._keys.get(lane, lane)
        entry = self._entry(index)
        if entry is None or lane not in self.lanes:
            return
        if entry.get("action") == lane:
            return
        name = self.labels().get(str(entry.get("actor")), "someone")
        entry["action"] = lane
        self._run_named(replace_entry("declarations", index, entry),
                        f"Move {name} to {self._titles[lane]}")

    def take_back(self, index: int) -> None:
        """Takes one declaration back (Delete on its card, or the menu): one command."""
        entry = self._entry(index)
        if entry is None:
            return
        name = self.labels().get(str(entry.get("actor")), "someone")
        self._run_named(
            remove_entry("declarations", index),
            f"Take back {name}: {self._titles.get(str(entry.get('action')), 'declaration')}")

    def _on_entry_submitted(self, entry: dict[str, Any]) -> None:
        typed, clocked = False, 0
        labels = self.labels()
        name = labels.get(self.editor.actor, "someone")
        what = self._titles.get(str(entry.get("action")), str(entry.get("action")))
        if self.editor.editing is not None:
            old = self._entry(self.editor.editing) or {}
            # outcomes, conditions and the like recorded elsewhere stay with the declaration
            kept = self.editor.kept_from(old, entry)
            if old.get("delay_seconds") and "delay_seconds" not in entry:
                kept["delay_seconds"] = old["delay_seconds"]
            done = self._run_named(
                replace_entry("declarations", self.editor.editing, {**kept, **entry}),
                f"Change {name}: {what}")
        else:
            # Phase 6's declaration delay has no place in the surprise segments (Phase 5): a
            # slow declaration there must not push the blow out of them.
            surprise = self.in_surprise_round() or (
                not self.controller.state.rounds and bool(self.surprised_names()))
            timed = self._timed and self.timing == self.editor.actor and self.timer.isValid()
            clocked = (self.decided if self.decided is not None
                       else self.timer.elapsed() // 1000) if timed else 0
            typed = "delay_seconds" in entry  # the DM's own figure (0 s too) wins
            if timed and not surprise and not typed and clocked:
                entry["delay_seconds"] = clocked
            if not self.controller.state.rounds:
                fields = {"surprise": True} if self.surprised_names() else None
                if not self.controller.run(start_round(1, fields)):
                    return
            done = self._run_named(add_entry("declarations", entry), f"Declare {name}: {what}")
        if done:
            self.editor.hide()
            if self._timed and self.timing is not None:
                used = int(entry.get("delay_seconds", 0))
                self.last_timed = (name, used) if not typed else (name, used, clocked)
                self._stop_timer()
            self.cards.setFocus()

    def start_next_round(self) -> None:
        """Opens the next round (its declarations and initiative dice)."""
        if not self.controller.state.rounds and self.surprised_names():
            self.controller.run(start_round(1, {"surprise": True}))
        self.controller.run(start_round(self.controller.state.round + 1))

    def take_back_selected(self) -> None:
        """Removes the declaration selected in any lane."""
        for box in self.lanes.values():
            index = box.current_entry()
            if (index is not None and box.view.hasFocus()) or (
                index is not None and box.view.selectionModel().hasSelection()
            ):
                self.take_back(index)
                return
        self.show_refusal("select a declaration in a lane to take it back")
