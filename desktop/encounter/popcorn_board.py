"""The popcorn board: who has acted, who waits or has readied, and who acts next.

The active creature is the one the last turn nominated (at the very start: whoever the engine
lets open). A turn is one command: the creature's action and its nomination together, so the
engine can refuse an illegal nomination with its own reason before anything is saved.
"""

from __future__ import annotations

from html import escape
from typing import Any

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from core.dice import Roller
from core.encounter import add_entry, resolve_state, start_round
from core.log import EncounterState, LogError, replay
from core.model import Status
from core.scenario import ScenarioError
from desktop.encounter.board_base import BoardBase, entry_text
from desktop.encounter.controller import EncounterController
from desktop.encounter.lane_model import LaneBox
from desktop.encounter.lanes import POPCORN_ACTIONS

WAIT = "wait"
ACTS_NEXT = "acts-next"
NOMINATE_KEY = "N"
STATUS_LANES = (("not-acted", "Not yet acted"), ("waiting", "Waiting"),
                ("readied", "Readied"), ("acted", "Acted"))


def _last_nominated(state: EncounterState) -> str | None:
    for spec in reversed(state.rounds):
        for turn in reversed(spec.get("turns") or ()):
            if turn.get("nominates"):
                return str(turn["nominates"])
    return None


class PopcornBoard(BoardBase):
    """Action lanes for the active creature, status lanes, and the 'acts next' lane."""

    def __init__(self, controller: EncounterController, parent: QWidget | None = None) -> None:
        super().__init__(controller, parent=parent)
        self.setObjectName("popcornBoard")
        self.active: str | None = None
        self.action_lanes: dict[str, LaneBox] = {}
        self._keys: dict[str, str] = {}
        grid = QGridLayout()
        for i, action in enumerate((*POPCORN_ACTIONS, WAIT)):
            key = str((i + 1) % 10)
            box = LaneBox(action, f"{action} [{key}]")
            box.setToolTip(f"The active creature's turn: {action} (key {key})")
            box.view.setMaximumHeight(60)
            box.model.combatant_dropped.connect(self._on_action_dropped)
            self.action_lanes[action] = box
            self._keys[key] = action
            grid.addWidget(box, i // 5, i % 5)
        self.status_lanes = {key: LaneBox(key, title) for key, title in STATUS_LANES}
        self.next_lane = LaneBox(ACTS_NEXT, "⇒ Acts next [N]",
                                 "Drop the creature the active one nominates (key N)")
        self.next_lane.setStyleSheet("QGroupBox { font-weight: bold; }")
        self.next_lane.model.combatant_dropped.connect(self._on_nominee_dropped)
        self.cards.key_typed.connect(self._on_key_typed)
        self.active_label = QLabel()
        self.active_label.setObjectName("activeCreature")
        self.new_round_button = QPushButton("New &Round")
        self.new_round_button.setShortcut(QKeySequence("Ctrl+R"))
        self.new_round_button.clicked.connect(self.start_next_round)

        status_row = QHBoxLayout()
        for box in self.status_lanes.values():
            status_row.addWidget(box)
        status_row.addWidget(self.next_lane)
        left = QVBoxLayout()
        left.addWidget(QLabel("<b>Combatants</b> — drop the active one on an action"))
        left.addWidget(self.cards, 1)
        left.addWidget(self.editor)
        top = QHBoxLayout()
        top.addWidget(self.active_label, 1)
        top.addWidget(self.new_round_button)
        right = QVBoxLayout()
        right.addLayout(top)
        right.addLayout(grid)
        right.addLayout(status_row, 1)
        right.addWidget(self.message)
        layout = QHBoxLayout(self)
        layout.addLayout(left, 2)
        layout.addLayout(right, 5)

    # --- who is active ----------------------------------------------------------------------

    def _openers(self) -> list[str]:
        """Asks the engine who may open the combat: each creature's turn tried on a copy."""
        state = self.controller.state
        base = state if state.rounds else replay([start_round(1)], state)
        seed = state.config.get("seed")
        allowed = []
        for cid in state.combatants:
            try:
                trial = replay([add_entry("turns", {"actor": cid, "action": "other"})], base)
                resolve_state(trial, Roller.seeded(seed))
            except (ScenarioError, LogError):
                continue
            allowed.append(cid)
        return allowed

    def refresh(self) -> None:
        state = self.controller.state
        self.active = _last_nominated(state)
        if self.active is None and not any(r.get("turns") for r in state.rounds):
            openers = self._openers() if not self.controller.rolls_needed() else []
            self.active = openers[0] if openers else None
        self.refresh_cards(active=self.active)
        labels = self.labels()
        name = labels.get(self.active or "", self.active)
        self.active_label.setText(
            f"<b>Round {max(state.round, 1)}</b> — active: <b>{escape(str(name))}</b>" if name
            else "Roll every initiative d20: the engine then names who opens.")
        current = list(state.rounds[-1].get("turns") or ()) if state.rounds else []
        latest: dict[str, dict[str, Any]] = {}
        for turn in current:
            latest[str(turn.get("actor"))] = dict(turn)
        rows: dict[str, list[tuple[str, int | None]]] = {k: [] for k, _ in STATUS_LANES}
        resolved = self.controller.resolution
        for c in state.combatants.values():
            # The engine says who is out of the fight (dead, fled…): they act no more.
            if resolved is not None and c.id in resolved.combatants and (
                resolved.combatants[c.id].status is not Status.ACTIVE
            ):
                continue
            turn = latest.get(c.id)
            lane = ("not-acted" if turn is None else "waiting" if turn.get("waits")
                    else "readied" if turn.get("ready") else "acted")
            rows[lane].append((c.label, None))
        for key, box in self.status_lanes.items():
            box.model.set_rows(rows[key])
        for action, box in self.action_lanes.items():
            box.model.set_rows([(entry_text(t, labels), i) for i, t in enumerate(current)
                                if (t.get("action") or WAIT) == action])
        self.next_lane.model.set_rows([(name, None)] if name else [])

    # --- taking a turn --------------------------------------------------------------------------

    def _on_action_dropped(self, cid: str, action: str) -> None:
        self.choose_action(cid, action)

    def _on_key_typed(self, cid: str, key: str) -> None:
        if key == NOMINATE_KEY:
            self.nominate(cid)
        elif key in self._keys:
            self.choose_action(cid, self._keys[key])

    def choose_action(self, cid: str, action: str) -> None:
        """Opens the turn editor for a creature's action (it must be the active one)."""
        self.open_editor(cid, action, verb="Take turn")

    def _on_nominee_dropped(self, cid: str, _lane: str) -> None:
        self.nominate(cid)

    def nominate(self, cid: str) -> bool:
        """The active creature names ``cid``: its turn is saved with the nomination."""
        if self.editor.isHidden():
            name = self.labels().get(self.active or "", "the active creature")
            self.show_refusal(f"choose what {name} does first (drop it on an action)")
            return False
        self.editor.set_value("nominates", cid)
        self.editor.submit()
        return True

    def _on_entry_submitted(self, entry: dict[str, Any]) -> None:
        if entry.get("action") == WAIT:
            del entry["action"]
            entry["waits"] = True
        if not self.controller.state.rounds and not self.controller.run(start_round(1)):
            return
        if self.controller.run(add_entry("turns", entry)):
            self.editor.hide()
            self.cards.setFocus()

    def start_next_round(self) -> None:
        self.controller.run(start_round(self.controller.state.round + 1))
