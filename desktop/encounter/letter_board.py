"""The action board of the segment systems (addict, side-d6): cards dropped onto letter lanes.

addict also times each declaration: the clock starts when a combatant's turn to declare begins
(its card becomes current) and every full segment's worth of seconds shows as delay.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QElapsedTimer, QModelIndex, QTimer
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from core.encounter import add_entry, remove_entry, start_round
from core.rules import find_system
from desktop.encounter.board_base import BoardBase, entry_text
from desktop.encounter.controller import EncounterController
from desktop.encounter.lane_model import LaneBox
from desktop.encounter.lanes import lanes_for


class LetterBoard(BoardBase):
    """Combatant cards on the left, one drop lane per action letter or kind on the right."""

    def __init__(self, controller: EncounterController, parent: QWidget | None = None) -> None:
        super().__init__(controller, parent=parent)
        self.setObjectName("letterBoard")
        self.lanes = {lane.action: LaneBox(lane.action, f"{lane.title} [{lane.key}]",
                                           lane.meaning)
                      for lane in lanes_for(controller.system_id)}
        self._keys = {lane.key: lane.action for lane in lanes_for(controller.system_id)}
        grid = QGridLayout()
        columns = 3 if len(self.lanes) <= 9 else 4
        for i, box in enumerate(self.lanes.values()):
            box.model.combatant_dropped.connect(self._on_combatant_dropped)
            grid.addWidget(box, i // columns, i % columns)
        self.cards.key_typed.connect(self._on_key_typed)
        self.cards.selectionModel().currentChanged.connect(self._on_card_current)

        self.new_round_button = QPushButton("New &Round")
        self.new_round_button.setToolTip("Start the next round (Ctrl+R)")
        self.new_round_button.setShortcut(QKeySequence("Ctrl+R"))
        self.new_round_button.clicked.connect(self.start_next_round)
        self.take_back_button = QPushButton("&Take Back")
        self.take_back_button.setToolTip("Remove the selected declaration from its lane")
        self.take_back_button.clicked.connect(self.take_back_selected)
        self.round_label = QLabel()
        self.timer_label = QLabel()
        self.timer_label.setObjectName("declarationTimer")
        self.timer = QElapsedTimer()
        self.timing: str | None = None
        self._tick = QTimer(self)
        self._tick.setInterval(250)
        self._tick.timeout.connect(self._show_timer)
        self._timed = controller.system_id == "addict"
        options = find_system(controller.system_id).options_type()
        configured = controller.state.config.get("options") or {}
        self.seconds_per_segment = int(configured.get(
            "seconds_per_segment", getattr(options, "seconds_per_segment", 6)))

        left = QVBoxLayout()
        left.addWidget(QLabel("<b>Combatants</b> — drag onto a lane, or press its key"))
        left.addWidget(self.cards, 1)
        if self._timed:
            left.addWidget(self.timer_label)
        left.addWidget(self.editor)
        buttons = QHBoxLayout()
        buttons.addWidget(self.round_label, 1)
        buttons.addWidget(self.take_back_button)
        buttons.addWidget(self.new_round_button)
        right = QVBoxLayout()
        right.addLayout(buttons)
        right.addLayout(grid, 1)
        right.addWidget(self.message)
        layout = QHBoxLayout(self)
        layout.addLayout(left, 2)
        layout.addLayout(right, 5)

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
                rows[lane].append((entry_text(entry, labels), index))
        for key, box in self.lanes.items():
            box.model.set_rows(rows[key])
        if not state.rounds:
            self.round_label.setText("No round yet: the first declaration starts round 1.")
        else:
            kind = "surprise round" if current.get("surprise") else "round"
            self.round_label.setText(f"<b>{kind.capitalize()} {state.round}</b>")

    def _show_timer(self) -> None:
        if self.timing is None or not self.timer.isValid():
            self.timer_label.setText("Select a combatant to start its declaration timer.")
            return
        seconds = self.timer.elapsed() // 1000
        delay = seconds // max(self.seconds_per_segment, 1)
        name = self.labels().get(self.timing, self.timing)
        self.timer_label.setText(
            f"Timer: {name} declaring for {seconds} s — delay {delay} "
            f"segment{'s' if delay != 1 else ''}"
        )

    # --- declaring ------------------------------------------------------------------------------

    def _on_card_current(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not self._timed or not current.isValid():
            return
        self.start_declaration_timer(self.cards.current_id())

    def start_declaration_timer(self, cid: str | None) -> None:
        """Starts timing a combatant's declaration (its turn to declare has begun)."""
        if not self._timed or cid is None:
            return
        self.timing = cid
        self.timer.start()
        self._tick.start()
        self._show_timer()

    def _on_key_typed(self, cid: str, key: str) -> None:
        lane = self._keys.get(key)
        if lane is not None:
            self.choose_lane(cid, lane)

    def _on_combatant_dropped(self, cid: str, lane: str) -> None:
        self.choose_lane(cid, lane)

    def choose_lane(self, cid: str, lane: str) -> None:
        """A card went to a lane (dropped or keyed): open the editor for its declaration."""
        if not self.open_editor(cid, lane):
            return
        if self._timed and self.timing == cid and self.timer.isValid():
            self.editor.set_value("delay_seconds", self.timer.elapsed() // 1000)

    def _on_entry_submitted(self, entry: dict[str, Any]) -> None:
        if not self.controller.state.rounds and not self.controller.run(start_round(1)):
            return
        if self.controller.run(add_entry("declarations", entry)):
            self.editor.hide()
            if self._timed:
                self.timing = None
                self._tick.stop()
                self._show_timer()
            self.cards.setFocus()

    def start_next_round(self) -> None:
        """Opens the next round (its declarations and initiative dice)."""
        self.controller.run(start_round(self.controller.state.round + 1))

    def take_back_selected(self) -> None:
        """Removes the declaration selected in any lane."""
        for box in self.lanes.values():
            index = box.current_entry()
            if (index is not None and box.view.hasFocus()) or (
                index is not None and box.view.selectionModel().hasSelection()
            ):
                self.controller.run(remove_entry("declarations", index))
                return
        self.show_refusal("select a declaration in a lane to take it back")
