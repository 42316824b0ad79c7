"""The popcorn board: who has acted, who waits or has readied, and who acts next.

The active creature is the one the last turn nominated (at the very start: whoever the engine
lets open). A turn is one command: the creature's action and its nomination together, so the
engine can refuse an illegal nomination with its own reason before anything is saved. The
nominee may also be left empty and named after the outcome is known (N, or a drop on "Acts
next", changes the saved turn), and a saved turn can be opened again (double-click) and changed;
each is one undoable command.
"""

from __future__ import annotations

import re
from dataclasses import replace
from html import escape
from typing import Any

from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPoint,
    Qt,
    QTimer,
)
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from core.fight.encounter import (
    add_entry,
    replace_entry,
    resolve_state,
    scenario_document,
    start_round,
)
from core.fight.log import Command, EncounterState, LogError, replay
from core.model.dice import Roller
from core.model.scenario import ScenarioError, parse_scenario
from core.model.values import Status
from core.rules.popcorn import initiative_standing
from core.rules.popcorn_attack import attack_notes, total_bonus
from desktop.encounter.board_base import (
    BoardBase,
    entry_text,
    form_area,
    with_buttons,
    wrapped_label,
)
from desktop.encounter.controller import EncounterController
from desktop.encounter.lane_model import LaneBox, LaneModel
from desktop.encounter.lanes import POPCORN_ACTIONS
from desktop.plain_text import elide_name

WAIT = "wait"
ACTS_NEXT = "acts-next"
NOMINATE_KEY = "N"
STATUS_LANES = (("not-acted", "To act"), ("waiting", "Waiting"),
                ("readied", "Readied"), ("acted", "Acted"))
SET_OFF = "Set off readied action"
"""The readied card's context-menu item (also double-click and Enter on the card)."""


# "rounds[0].turns[5].nominates: …" as the engine names a field for a scenario file
_TURN_PATH = re.compile(
    r"rounds\[(\d+)\]\.turns\[(\d+)\](?:\.([a-z_]+))?(?:\[\d+\])?(?:\.[a-z_]+)?: ")
_FIELD_WORDS = {"actor": "who acts", "nominates": "Nominates", "waits": "Wait",
                "ready": "Ready", "triggers": "Sets off", "target": "Target",
                "weapon": "Weapon", "hit": "outcome", "damage": "damage"}


def _fired(turns: list[dict[str, Any]]) -> set[str]:
    """Gets the creatures whose readied action a turn of this round set off."""
    out: set[str] = set()
    for turn in turns:
        if turn.get("triggered"):
            out.add(str(turn.get("actor")))
        for item in turn.get("triggers") or ():
            out.add(str(item.get("actor") if isinstance(item, dict) else item))
    return out


def _holding_ready(state: EncounterState, upto: int | None = None) -> set[str]:
    """Gets the creatures holding a readied action before turn ``upto`` of this round (None:
    after every turn), as the engine keeps them (Readying an Action): a creature's own turn
    or its being named again drops what it readied; a turn that sets it off uses it."""
    holding: set[str] = set()
    last = len(state.rounds) - 1
    for r, spec in enumerate(state.rounds):
        turns = list(spec.get("turns") or ())
        if r == last and upto is not None:
            turns = turns[:upto]
        for turn in turns:
            actor = str(turn.get("actor"))
            holding.discard(actor)
            for item in turn.get("triggers") or ():
                holding.discard(str(item.get("actor") if isinstance(item, dict) else item))
            if turn.get("ready") and not turn.get("triggered"):
                holding.add(actor)
            if turn.get("nominates"):
                holding.discard(str(turn["nominates"]))
    return holding


def _last_turn_of(state: EncounterState) -> dict[str, Any] | None:
    """Gets the last turn played (a readied action set off does not pass the action)."""
    for spec in reversed(state.rounds):
        for turn in reversed(spec.get("turns") or ()):
            if not turn.get("triggered"):
                return dict(turn)
    return None


class _StatusModel(LaneModel):
    """A status lane's cards: a tooltip of its own for each (a readied card says how to set
    its action off)."""

    def __init__(self, key: str, parent: QWidget | None = None) -> None:
        super().__init__(key, False, parent)
        self.tips: list[str] = []

    def data(self, index: QModelIndex | QPersistentModelIndex,
             role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.ToolTipRole and index.isValid() \
                and 0 <= index.row() < len(self.tips):
            return self.tips[index.row()]
        return super().data(index, role)


def _last_turn_ref(state: EncounterState) -> tuple[int | None, int, dict[str, Any]] | None:
    """Gets the last turn played as (round number, None for the current round; its index;
    the turn), as :func:`_last_turn_of` finds it."""
    for number, spec in reversed(list(enumerate(state.rounds, start=1))):
        turns = list(spec.get("turns") or ())
        for index in reversed(range(len(turns))):
            if not turns[index].get("triggered"):
                return (None if number == len(state.rounds) else number, index,
                        dict(turns[index]))
    return None


class PopcornBoard(BoardBase):
    """Action lanes for the active creature, status lanes, and the 'acts next' lane."""

    def __init__(self, controller: EncounterController, parent: QWidget | None = None) -> None:
        super().__init__(controller, parent=parent)
        self.editor.describe_attack = self.attack_words
        self.setObjectName("popcornBoard")
        self.active: str | None = None
        self.fallen_actor: str | None = None  # killed on its turn before naming anyone
        self._picked: dict[tuple[int, int], str] = {}  # the DM's pick after that, where
        self.action_lanes: dict[str, LaneBox] = {}
        self._keys: dict[str, str] = {}
        grid = QGridLayout()
        grid.setHorizontalSpacing(3)  # five lanes a row: each pixel goes to their titles
        for i, action in enumerate((*POPCORN_ACTIONS, WAIT)):
            key = str((i + 1) % 10)
            # 16 lines: a turn card with three 24-letter names, whole in a lane 73 px wide
            box = LaneBox(action, f"{action} [{key}]", wrap_title=True, max_lines=16)
            box.setToolTip(f"The active creature's turn: {action} (key {key})")
            # ten lanes in five columns must fit beside 1280×720's list; a title's longest
            # word ("withdraw") stays whole when a column with cards takes the spare width
            longest = max(box.fontMetrics().horizontalAdvance(w) for w in box.title().split())
            box.setMinimumWidth(max(56, longest + 8))
            box.model.combatant_dropped.connect(self._on_action_dropped)
            box.view.doubleClicked.connect(lambda _i, b=box: self.edit_turn(b.current_entry()))
            box.view.setToolTip(f"The active creature's turn: {action} (key {key}); "
                                "double-click a saved turn to change it")
            self.action_lanes[action] = box
            self._keys[key] = action
            grid.addWidget(box, i // 5, i % 5)
        self.status_lanes = {key: LaneBox(key, title, wrap_title=True, max_lines=6)
                             for key, title in STATUS_LANES}
        self.status_ids: dict[str, list[str]] = {key: [] for key, _ in STATUS_LANES}
        """The creature of each card of each status lane, in the lane's order."""
        for key, box in self.status_lanes.items():
            box.setMinimumWidth(56)
            box.model = _StatusModel(key, box)
            box.view.setModel(box.model)
        readied = self.status_lanes["readied"].view
        readied.doubleClicked.connect(
            lambda index: self.set_off(self.status_ids["readied"][index.row()]))
        readied.customContextMenuRequested.connect(self._on_readied_menu)
        # A card selected in any status lane takes the cards' keys (N names it, 1–0 opens its
        # turn) as the hint says; Enter on a readied card sets it off.
        for box in self.status_lanes.values():
            box.view.installEventFilter(self)
        # The meaning goes in the tooltip: at 1280×720 the lane is too narrow for a sentence.
        self.next_lane = LaneBox(ACTS_NEXT, "⇒ Acts next [N]", wrap_title=True, max_lines=6)
        self.next_lane.setToolTip("Drop the creature the active one nominates (key N); after "
                                  "a turn saved without one, this passes it on")
        self.next_lane.view.setToolTip(self.next_lane.toolTip())
        self.next_lane.setMinimumWidth(56)
        self.next_lane.setStyleSheet("QGroupBox { font-weight: bold; }")
        self.next_lane.model.combatant_dropped.connect(self._on_nominee_dropped)
        self.cards.key_typed.connect(self._on_key_typed)
        self.active_label = QLabel()
        self.active_label.setObjectName("activeCreature")
        self.active_label.setWordWrap(True)  # the fallen-nominee advice is a long sentence
        self.fallen: str | None = None
        """The nominee that fell before acting (popcorn.pass.fallen-nominee), if any."""
        self.initiative_label = QLabel()
        self.initiative_label.setObjectName("initiativeTotals")
        self.initiative_label.setWordWrap(True)
        self.editing: int | None = None
        self.new_round_button = QPushButton("New &Round")
        self.new_round_button.setShortcut(QKeySequence("Ctrl+R"))
        self.new_round_button.clicked.connect(self.start_next_round)

        # Three lanes a row: five side by side were too narrow at 1280×720 for a 24-letter
        # name's longest word ("Stoutheart" lost its last letters).
        status_row = QGridLayout()
        status_row.setSpacing(3)
        for i, box in enumerate([*self.status_lanes.values(), self.next_lane]):
            status_row.addWidget(box, i // 3, i % 3)
        left = QVBoxLayout()
        left.addWidget(wrapped_label("<b>Combatants</b> — drop the active one on an action"))
        left.addWidget(self.cards, 2)
        # The turn form scrolls in its own place below the cards, as on the letter boards; its
        # lists as narrow as five letters leave the lanes their width.
        for combo in self.editor.findChildren(QComboBox):
            combo.setMinimumContentsLength(5)
        # The turn form lives in a column about 190 px wide at 1280×720: the heading wraps
        # (the box's title says only the verb), and a field too wide beside its label goes
        # below it, so no list loses its arrow and no note its end.
        self.editor.heading.setWordWrap(True)
        self.editor.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.editor_area = form_area(self.editor, "turnForm")
        left.addWidget(with_buttons(self.editor_area, self.editor), 3)
        self.combatants_panel.setLayout(left)
        top = QHBoxLayout()
        top.addWidget(self.active_label, 1)
        top.addWidget(self.new_round_button)
        right = QVBoxLayout()
        right.addLayout(top)
        right.addWidget(self.initiative_label)
        right.addLayout(grid, 2)  # first, up to what the cards need (share_heights)
        self._action_grid = grid
        right.addLayout(status_row, 1)
        for box in (*self.action_lanes.values(), *self.status_lanes.values(), self.next_lane):
            # each lane asks for the height of its cards, not a list's 192 px: a short
            # board shrinks the lanes in proportion to what they hold
            box.view.setSizeAdjustPolicy(QAbstractScrollArea.SizeAdjustPolicy.AdjustToContents)
        self._sharing = QTimer(self)
        self._sharing.setSingleShot(True)
        self._sharing.timeout.connect(self.share_heights)
        right.addWidget(self.message)
        layout = QHBoxLayout(self)
        layout.addLayout(right, 1)

    # --- the lanes' heights ----------------------------------------------------------------

    @staticmethod
    def _needed(box: LaneBox) -> int:
        """Gets the height a lane's cards need, whole, one card's height for an empty lane."""
        view = box.view
        rows = view.model().rowCount()
        cards = sum(view.sizeHintForRow(r) + 2 * view.spacing() for r in range(rows))
        return max(cards, view.fontMetrics().lineSpacing() + 10) + 2 * view.frameWidth()

    def share_heights(self) -> None:
        """Gives each row of action lanes the height its fullest lane's cards need.

        A busy round's attack lane grows (up to 45% of the board, beyond which it scrolls);
        a row of empty lanes stays one card high; the status lanes take the rest. Only
        maximum heights change, so the board never makes the window taller than the screen.
        """
        lanes = list(self.action_lanes.values())
        # A column with cards gets the width an empty one can spare: a turn card in a lane
        # 95 px wide took 13 lines, higher than the lane at 1280×720.
        for column in range(5):
            cards = max(lanes[i].model.rowCount() for i in range(column, len(lanes), 5))
            stretch = 1 + 3 * min(cards, 3)
            # set only when it changes: setting it, even to the same value, lays the whole
            # board out again (as on the letter boards; bench/bench_command.py)
            if self._action_grid.columnStretch(column) != stretch:
                self._action_grid.setColumnStretch(column, stretch)
        cap = max(int(self.height() * 0.45), 60)
        for row in range(0, len(lanes), 5):
            need = min(max(self._needed(b) for b in lanes[row:row + 5]), cap)
            # the boxes too, with the row's tallest title (one wraps: "withdraw [5]"): a row
            # of empty lanes stays small and what it does not need goes to the status lanes
            # (as wrapped at its narrowest: the columns' widths change with this very call)
            title = max(b.heading.heightForWidth(min(b.heading.width(), b.minimumWidth() - 8))
                        if b.heading else 0 for b in lanes[row:row + 5])
            for box in lanes[row:row + 5]:
                if box.view.maximumHeight() != need:
                    box.view.setMaximumHeight(need)
                margins = box.layout().contentsMargins()
                frame = box.height() - box.contentsRect().height()  # the box's own border
                most = (need + max(title, 0) + margins.top() + margins.bottom()
                        + 2 * box.layout().spacing() + frame)
                if box.maximumHeight() != most:
                    box.setMaximumHeight(most)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._sharing.start(0)  # once the lanes have their new widths

    # --- the attack roll ----------------------------------------------------------------------

    def attack_words(self, entry: dict[str, Any]) -> str:
        """Gets what modifies a declared attack's roll, in words (Attacking, Missile Attacks)."""
        state = self.controller.state
        target = entry.get("target")
        recent = [t for r in state.rounds[-2:] for t in r.get("turns") or ()]
        retreating = bool(target) and any(
            t.get("actor") == target and (t.get("action") == "retreat"
                                          or t.get("move") == "retreat") for t in recent)
        try:
            notes = attack_notes(parse_scenario(scenario_document(state)), entry,
                                 target_retreating=retreating)
        except ScenarioError as exc:
            return escape(self.controller.words(str(exc)))
        total = total_bonus(notes)
        head = f"<b>Attack roll: {total:+d}</b>" if total else "<b>Attack roll</b>"
        return "<br>".join([head, *(escape(n.text) for n in notes)])

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
        labels = self.labels()
        resolved = self.controller.known_resolution()
        last = _last_turn_of(state)
        self.active = str(last["nominates"]) if last and last.get("nominates") else None
        round_no = f"<b>Round {max(state.round, 1)}</b> — "
        if last is None:
            openers = self._openers() if not self.controller.rolls_needed() else []
            self.active = openers[0] if openers else None
            text = "Roll every initiative d20: the engine then names who opens."
        else:
            actor = escape(labels.get(str(last.get("actor")), "the last creature"))
            text = (f"{round_no}{actor} has acted: name who acts next (select a card and "
                    "press N, or drop it on “Acts next”)")
        self.fallen_actor = self._fallen_actor(last, resolved)
        if self.fallen_actor is not None:
            # popcorn.pass.fallen-actor: killed on its own turn, it names no one; the DM gives
            # the turn to any creature still to act (N only marks the DM's pick here).
            actor = escape(labels.get(self.fallen_actor, "the last creature"))
            picked = self._picked.get(self._turn_key())
            # A name written with its turn before the blow was known lapsed: only the DM's
            # pick is shown as acting next.
            self.active = picked if picked in self._still_to_act(resolved) else None
            text = (f"{round_no}{actor} fell during its turn and names no one: you choose who "
                    "acts next — drop any creature still to act on an action (or select it "
                    "and press N)")
        opening = bool(state.rounds) and not state.rounds[-1].get("turns")
        if last is not None and opening and not last.get("nominates") and \
                self.fallen_actor is None:
            # pass.last-nominates-next-round: no one was named, so any creature opens
            text = (f"{round_no}{escape(labels.get(str(last.get('actor')), 'the last creature'))}"
                    f" acted last in round {len(state.rounds) - 1} and named no one: drop any "
                    "creature on an action to open this round")
        self.fallen = None
        if self.active is not None and resolved is not None and self.active in \
                resolved.combatants and resolved.combatants[self.active].status \
                is not Status.ACTIVE:
            # Pass the Action (popcorn.pass.fallen-nominee): the nominee fell before acting, so
            # its nominator chooses again and the engine takes the next turn as that choice.
            self.fallen = self.active
            self.active = None
            fallen = escape(labels.get(self.fallen, "the nominee"))
            by = escape(labels.get(str(last.get("actor") if last else ""), "the nominator"))
            again = last.get("nominates_again") if last else None
            chosen = str(again) if again else None  # saved on the nominator's turn
            if chosen is not None and chosen in resolved.combatants and \
                    resolved.combatants[chosen].status is Status.ACTIVE:
                self.active = chosen
                text = ""
            else:
                text = (f"{round_no}{fallen} fell before acting, so {by} names another "
                        "creature: select one still to act and press N (or drop it on “Acts "
                        "next”), then drop it on an action")
        name = labels.get(self.active or "", self.active)
        self.refresh_cards(active=self.active)
        if name and self.fallen_actor is not None:
            text = (f"{round_no}active: <b>{escape(str(name))}</b> — your choice after "
                    f"{escape(labels.get(self.fallen_actor, 'the last creature'))} fell during "
                    "its turn; drop it on an action")
        elif name and self.fallen is not None:
            text = (f"{round_no}active: <b>{escape(str(name))}</b> — named again after "
                    f"{escape(labels.get(self.fallen, 'the nominee'))} fell; drop it on an "
                    "action")
        elif name:
            text = f"{round_no}active: <b>{escape(str(name))}</b>"
        self.active_label.setText(text)
        self.initiative_label.setText(self._initiative_text())
        current = list(state.rounds[-1].get("turns") or ()) if state.rounds else []
        fired = _fired(current)
        latest: dict[str, dict[str, Any]] = {}
        for turn in current:
            latest[str(turn.get("actor"))] = dict(turn)
        rows: dict[str, list[tuple[str, int | None]]] = {k: [] for k, _ in STATUS_LANES}
        ids: dict[str, list[str]] = {k: [] for k, _ in STATUS_LANES}
        tips: dict[str, list[str]] = {k: [] for k, _ in STATUS_LANES}
        for c in state.combatants.values():
            # The engine says who is out of the fight (dead, fled…): they act no more.
            if resolved is not None and c.id in resolved.combatants and (
                resolved.combatants[c.id].status is not Status.ACTIVE
            ):
                continue
            turn = latest.get(c.id)
            lane = ("not-acted" if turn is None else "waiting" if turn.get("waits")
                    else "readied" if turn.get("ready") and c.id not in fired else "acted")
            rows[lane].append((elide_name(c.label), None))
            ids[lane].append(c.id)
            tips[lane].append(self._readied_tip(turn, labels) if lane == "readied" and turn
                              else elide_name(c.label))
        self.status_ids = ids
        for key, box in self.status_lanes.items():
            if isinstance(box.model, _StatusModel):
                box.model.tips = tips[key]
            box.model.set_rows(rows[key])
        for action, box in self.action_lanes.items():
            box.model.set_rows([(entry_text(t, labels), i) for i, t in enumerate(current)
                                if (t.get("action") or WAIT) == action])
        self.next_lane.model.set_rows([(name, None)] if name else [])
        self._sharing.start(0)

    # --- a readied action set off (Readying an Action) ----------------------------------------

    @staticmethod
    def _readied_tip(turn: dict[str, Any], labels: dict[str, str]) -> str:
        """Gets what a creature readied and how the DM sets it off, in words."""
        who = labels.get(str(turn.get("actor")), "This creature")
        what = str(turn.get("action") or "an action")
        if turn.get("target"):
            what += f" on {labels.get(str(turn['target']), 'another creature')}"
        return (f"{who} readied {what}, when: {turn.get('ready')}.\nWhen that happens, "
                f"double-click this card (or Enter, or right-click › {SET_OFF}): it interrupts "
                "the turn just taken, or the turn being filled in.")

    def selected_in(self, key: str) -> str | None:
        """Gets the creature of the card selected in a status lane, if any."""
        index = self.status_lanes[key].view.currentIndex()
        ids = self.status_ids[key]
        return ids[index.row()] if index.isValid() and index.row() < len(ids) else None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if not (isinstance(event, QKeyEvent) and event.type() == QEvent.Type.KeyPress):
            return super().eventFilter(watched, event)
        key = next((k for k, box in self.status_lanes.items() if box.view is watched), None)
        cid = self.selected_in(key) if key is not None else None
        if cid is None or event.modifiers() not in (Qt.KeyboardModifier.NoModifier,
                                                    Qt.KeyboardModifier.ShiftModifier,
                                                    Qt.KeyboardModifier.KeypadModifier):
            return super().eventFilter(watched, event)
        text = event.text().upper()
        if key == "readied" and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.set_off(cid)
        elif text == NOMINATE_KEY or text in self._keys:
            self._on_key_typed(cid, text)
        else:
            return super().eventFilter(watched, event)
        return True

    def readied_menu(self, cid: str) -> QMenu:
        """Builds the context menu of a readied card."""
        menu = QMenu(self)
        action = QAction(SET_OFF, menu)
        action.triggered.connect(lambda _checked=False: self.set_off(cid))
        menu.addAction(action)
        return menu

    def _on_readied_menu(self, pos: QPoint) -> None:
        view = self.status_lanes["readied"].view
        index = view.indexAt(pos)
        if index.isValid() and index.row() < len(self.status_ids["readied"]):
            view.setCurrentIndex(index)
            self.readied_menu(self.status_ids["readied"][index.row()]).exec(
                view.viewport().mapToGlobal(pos))

    def set_off(self, cid: str) -> bool:
        """Sets off ``cid``'s readied action (popcorn.ready.trigger): it interrupts a turn.

        With the turn form open, the turn being filled in sets it off (its Sets off field):
        saving that turn is the one command. Otherwise the last turn taken this round gets it
        in its ``triggers``: one command, and the engine says if it may not be set off.
        """
        state = self.controller.state
        labels = self.labels()
        who = labels.get(cid, "this creature")
        if cid not in _holding_ready(state):
            self.show_refusal(f"{who} holds no readied action to set off")
            return False
        if not self.editor.isHidden() and self.editor.actor != cid:
            if self.editor.triggers.findData(cid) < 0:
                self.show_refusal(f"{who}'s readied action cannot be set off by this turn")
                return False
            self.editor.set_value("triggers", cid)
            self.message.clear()
            return True
        turns = list(state.rounds[-1].get("turns") or ()) if state.rounds else []
        index = next((i for i in range(len(turns) - 1, -1, -1)
                      if not turns[i].get("triggered")), None)
        if index is None:
            self.show_refusal(f"no turn has been taken this round to set off {who}'s readied "
                              "action: open the turn that does it and choose Sets off")
            return False
        turn = dict(turns[index])
        by = labels.get(str(turn.get("actor")), "the last creature")
        words = f"{who}'s readied action, set off by {by}'s turn"
        return self.controller.run(self._named(replace_entry(
            "turns", index, {**turn, "triggers": [*(turn.get("triggers") or ()), cid]}),
            words), text=words)

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
        """The active creature names ``cid``: its turn is saved with the nomination.

        With no turn open, the last turn saved without a nominee passes to ``cid`` (the DM
        named it after the blow was known): one command that changes that turn.
        """
        if self.editor.isHidden():
            if self.fallen is not None:
                return self.choose_again(cid)
            if self.fallen_actor is not None:
                return self.pick_after_fallen_actor(cid)
            last = self._last_turn()
            if last is not None and not last[1].get("nominates"):
                index, turn = last
                by = self.labels().get(str(turn.get("actor")), "the last creature")
                named = self.labels().get(cid, "another creature")
                words = f"{by} names {named} to act next"
                return self.controller.run(self._named(
                    replace_entry("turns", index, {**turn, "nominates": cid}), words),
                    text=words)
            if self.active is None:
                self.show_refusal("no one was named to open this round: drop the creature "
                                  "that opens it on an action")
                return False
            name = self.labels().get(self.active, "the active creature")
            self.show_refusal(f"choose what {name} does first (drop it on an action)")
            return False
        if self.editor.nominates.findData(cid) < 0:
            # Not offered (it has acted, or is out of the fight): the engine says why, in its
            # own words, rather than the turn being saved with no one named.
            self._on_entry_submitted({**self.editor.entry(), "nominates": cid})
            return True
        self.editor.set_value("nominates", cid)
        self.editor.submit()
        return True

    def pick_after_fallen_actor(self, cid: str) -> bool:
        """The active creature fell during its turn (popcorn.pass.fallen-actor): nothing is
        saved on its turn; ``cid``, a creature still to act, is shown as the one to act next
        and takes the turn when it is dropped on an action (any such creature may)."""
        labels = self.labels()
        name = labels.get(cid, "that creature")
        if cid not in self._still_to_act(self.controller.known_resolution()):
            self.show_refusal(f"{name} cannot take the next turn: choose a creature still to "
                              "act")
            return False
        self._picked = {self._turn_key(): cid}
        self.message.clear()
        self.refresh()
        return True

    def _turn_key(self) -> tuple[int, int]:
        """Where the fight stands (rounds, turns of the last): a pick holds until it moves."""
        state = self.controller.state
        return (len(state.rounds), len(state.rounds[-1].get("turns") or ()) if state.rounds
                else 0)

    def _fallen_actor(self, last: dict[str, Any] | None, resolved: Any) -> str | None:
        """Gets the last turn's creature if it fell during that turn: it names no one (a name
        written with the turn before the blow was known lapses)."""
        if last is None or resolved is None:
            return None
        actor = str(last.get("actor"))
        found = resolved.combatants.get(actor)
        return actor if found is not None and found.status in (
            Status.DEAD, Status.UNCONSCIOUS) else None

    def _still_to_act(self, resolved: Any) -> set[str]:
        """Gets the creatures that may take the next turn: standing, and (unless every one
        has acted) not yet acted this round."""
        state = self.controller.state
        current = list(state.rounds[-1].get("turns") or ()) if state.rounds else []
        done = {str(t.get("actor")) for t in current
                if not t.get("waits") and not t.get("triggered")}
        alive = {c.id for c in state.combatants.values()
                 if resolved is None or c.id not in resolved.combatants
                 or resolved.combatants[c.id].status is Status.ACTIVE}
        return (alive - done) or alive

    def choose_again(self, cid: str) -> bool:
        """The nominator of a fallen creature names ``cid`` instead: saved on the nominator's
        turn as ``nominates_again`` (popcorn.pass.fallen-nominee), one Ctrl+Z, so the players'
        screen, a second window and a restarted app all show who acts next. The engine refuses
        a creature that may not take that turn, in its own words."""
        found = _last_turn_ref(self.controller.state)
        if found is None or self.fallen is None:
            self.show_refusal("no nominee has fallen: name who acts next on the turn itself")
            return False
        round_number, index, turn = found
        labels = self.labels()
        by = labels.get(str(turn.get("actor")), "the last creature")
        words = (f"{by} names {labels.get(cid, 'another creature')} to act next instead "
                 f"({labels.get(self.fallen, 'the nominee')} fell)")
        if not self.controller.run(
                replace_entry("turns", index, {**turn, "nominates_again": cid}, round_number),
                text=words):
            return False
        self.message.clear()
        return True

    def _last_turn(self) -> tuple[int, dict[str, Any]] | None:
        state = self.controller.state
        turns = list(state.rounds[-1].get("turns") or ()) if state.rounds else []
        return (len(turns) - 1, dict(turns[-1])) if turns else None

    def edit_turn(self, index: int | None) -> bool:
        """Opens a saved turn of this round in the editor; saving it changes that turn."""
        state = self.controller.state
        turns = list(state.rounds[-1].get("turns") or ()) if state.rounds else []
        if index is None or not 0 <= index < len(turns):
            return False
        turn = dict(turns[index])
        action = WAIT if turn.get("waits") else str(turn.get("action") or "other")
        if not self.open_editor(str(turn.get("actor")), action, verb="Change turn"):
            return False
        self.editing = index
        self._name_choices(str(turn.get("actor")), upto=index)
        for name in ("target", "weapon", "spell", "ready", "nominates", "range", "cover"):
            if turn.get(name):
                self.editor.set_value(name, turn[name])
        self.editor.show_attack_notes()
        if turn.get("triggers"):
            first = turn["triggers"][0]
            self.editor.set_value("triggers", first.get("actor") if isinstance(first, dict)
                                  else first)
        return True

    def open_editor(self, cid: str, action: str, verb: str = "Declare") -> bool:
        self.editing = None
        if not super().open_editor(cid, action, verb):
            return False
        self.message.clear()  # a refusal of the last form is no news about this one
        self.editor.setTitle(verb)  # a box's title never wraps: the heading names who and what
        self.editor_area.verticalScrollBar().setValue(0)  # Target in sight, not last scroll
        self._name_choices(cid)
        return True

    def _name_choices(self, actor: str, upto: int | None = None) -> None:
        """Fills Nominates, Target and Sets off with names (ids stay in the item data).

        Nominates offers only creatures still to act this round (popcorn.pass.nominate-next),
        never the actor, unless every other creature has acted: then the last one may name
        anyone, itself included, to open the next round (pass.last-nominates-next-round).
        Sets off offers only creatures holding a readied action (ready.trigger). Target leaves
        out the actor except for a spell. Creatures out of the fight are never offered.
        ``upto``: the turn being changed (what came before it counts).
        """
        resolved = self.controller.resolution
        alive = [c for c in self.combatants()
                 if resolved is None or c.id not in resolved.combatants
                 or resolved.combatants[c.id].status is Status.ACTIVE]
        state = self.controller.state
        current = list(state.rounds[-1].get("turns") or ()) if state.rounds else []
        if upto is not None:
            current = current[:upto]
        done = {str(t.get("actor")) for t in current
                if not t.get("waits") and not t.get("triggered")}
        last = all(c.id in done or c.id == actor for c in alive)
        spell = self.editor.action == "spell"  # a cleric may cure herself
        holding = _holding_ready(state, upto) - {actor}
        lists = {"nominates": [c for c in alive if last or (c.id != actor
                                                             and c.id not in done)],
                 "target": [c for c in alive if c.id != actor or spell],
                 "triggers": [c for c in alive if c.id in holding]}
        for name, chosen in lists.items():
            combo = getattr(self.editor, name)
            none = combo.itemText(0) if combo.count() else ""
            combo.clear()
            combo.addItem(none, "")
            for c in chosen:
                combo.addItem(elide_name(c.label), c.id)

    def show_refusal(self, text: str) -> None:
        """Shows the engine's reason with the turn named in words, not as a field path."""
        super().show_refusal(_TURN_PATH.sub(self._turn_words, text))

    def _turn_words(self, match: re.Match[str]) -> str:
        state = self.controller.state
        r, t, field = int(match.group(1)), int(match.group(2)), match.group(3)
        try:
            actor = str(state.rounds[r]["turns"][t]["actor"])
        except (IndexError, KeyError, TypeError):
            actor = ""
        name = self.labels().get(actor, "")
        where = f"round {r + 1}, {name}'s turn" if name else f"round {r + 1}, turn {t + 1}"
        what = _FIELD_WORDS.get(field or "", "")
        return f"{where} ({what}): " if what else f"{where}: "

    def _initiative_text(self) -> str:
        """Shows every initiative total, and how a tie for the first turn was broken."""
        state = self.controller.state
        needed = self.controller.rolls_needed()
        if needed and _last_turn_of(state) is not None:
            # Newcomers of a running fight (popcorn.initiative.newcomer-joins), in words.
            labels = self.labels()
            joining = [escape(labels.get(str(r.where[1]), str(r.where[1]))) for r in needed
                       if r.where and r.where[0] == "initiative" and len(r.where) > 1]
            if joining:
                return (f"Joining the fight: {', '.join(joining)} — waiting for their "
                        "initiative d20 (Dice needed). They do not take the first turn; name "
                        "them like any creature still to act.")
        if needed or not state.combatants:
            return ""
        try:
            standing = initiative_standing(parse_scenario(scenario_document(state)),
                                           Roller.seeded(state.config.get("seed")))
        except (ScenarioError, LogError, KeyError):
            return ""
        labels = self.labels()
        parts = []
        for t in standing.totals:
            sign = f" {t.modifier:+d}" if t.modifier else ""
            parts.append(f"{escape(labels.get(t.actor, t.actor))} <b>{t.total}</b>"
                         f"<small> (d20 {t.d20}{sign})</small>")
        text = "Initiative: " + " · ".join(parts)
        if standing.tied:
            openers = " and ".join(sorted(labels.get(o, o) for o in standing.openers))
            rule = ("players win ties" if "popcorn.initiative.players-win-ties"
                    in standing.because else "tied creatures rolled again")
            text += f" — tie at {standing.totals[0].total}: {escape(openers)} opens ({rule})"
        return text

    def _on_entry_submitted(self, entry: dict[str, Any]) -> None:
        if entry.get("action") == WAIT:
            del entry["action"]
            entry["waits"] = True
        if self.editing is not None:
            index, self.editing = self.editing, None
            turns = list(self.controller.state.rounds[-1].get("turns") or ())
            kept = self.editor.kept_from(dict(turns[index]), entry)
            who = self.labels().get(str(entry.get("actor")), "a creature")
            words = f"Change {who}'s turn"
            command = self._named(replace_entry("turns", index, {**kept, **entry}), words)
            if self.controller.run(command, text=words):
                self.editor.hide()
                self.cards.setFocus()
            else:
                self.editing = index
            return
        if not self.controller.state.rounds and not self.controller.run(start_round(1)):
            return
        words = self._turn_words_for(entry)
        if self.controller.run(self._named(add_entry("turns", entry), words), text=words):
            self.editor.hide()
            self.cards.setFocus()

    def _turn_words_for(self, entry: dict[str, Any]) -> str:
        """Gets ``Pip Underbough: attack on Orc 1, names Brannoc`` for a turn taken."""
        labels = self.labels()
        who = labels.get(str(entry.get("actor")), "a creature")
        text = f"{who}: " + ("waits" if entry.get("waits") else entry.get("action") or "turn")
        if entry.get("target"):
            text += f" on {labels.get(str(entry['target']), 'a creature')}"
        if entry.get("nominates"):
            text += f", names {labels.get(str(entry['nominates']), 'another creature')}"
        return text

    @staticmethod
    def _named(command: Command, name: str) -> Command:
        """Gives a command the words the Undo menu shows (names, never ids)."""
        return replace(command, name=name)

    def start_next_round(self) -> None:
        self.controller.run(start_round(self.controller.state.round + 1))
