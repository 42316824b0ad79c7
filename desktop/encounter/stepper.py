"""The procedure stepper: the system's phases, the dice the engine still needs, the dice made."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QListWidget,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from core.dice_words import labels_of, roll_label, where_words
from core.encounter import set_field, set_round_field
from core.log import EncounterState
from core.procedure import current_phase
from core.rules import Phase, find_system
from core.rules.base import RollRequest
from desktop.encounter.controller import EncounterController
from desktop.encounter.roll_row import RollRow
from desktop.plain_text import plain
from desktop.resolution.step_text import rule_in_words

AUTO_MARK = "[auto]"
MANUAL_MARK = "[typed]"
REPLACED_MARK = "(replaced)"
ROLL_INDEX = Qt.ItemDataRole.UserRole + 1
"""Gets a 'Dice made' row's index in the encounter's rolls."""
NOW_MARK = "▶ "
"""Marks the phase the engine waits for in the procedure list."""


def _request_key(request: RollRequest) -> tuple[object, ...]:
    return (tuple(request.where), request.expression, request.purpose)


class ProcedureStepper(QWidget):
    """Phases (current one selected), rolls needed (roll or type), rolls made (auto/manual)."""

    def __init__(self, controller: EncounterController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("stepper")
        self.controller = controller
        self.system = find_system(controller.system_id)
        self.phases: list[Phase] = list(self.system.phases())
        self.phase_list = QListWidget()
        self.phase_list.setObjectName("phaseList")
        for phase in self.phases:
            self.phase_list.addItem(phase.title)
            item = self.phase_list.item(self.phase_list.count() - 1)
            item.setToolTip("\n".join([phase.title, *(f"• {rule_in_words(self.system.id, r)}"
                                                      for r in phase.rule_ids)]))
        self.phase_list.itemActivated.connect(
            lambda item: self.go_to_phase(self.phase_list.row(item)))
        self.phase_list.itemClicked.connect(
            lambda item: self.go_to_phase(self.phase_list.row(item)))
        self.now_label = QLabel()
        self.now_label.setObjectName("phaseNow")
        self.now_label.setWordWrap(True)
        self.next_button = QPushButton("&Next Phase")
        self.next_button.setToolTip("Read the next phase of the procedure (Ctrl+]). Only the "
                                    "view moves: play itself decides the phase, so nothing is "
                                    "added to Undo")
        self.next_button.setShortcut("Ctrl+]")
        self.next_button.clicked.connect(self.next_phase)
        self._viewed: tuple[EncounterState, int] | None = None
        """A phase the DM paged to by hand, and the state it was chosen in."""
        extra = QHBoxLayout()
        extra.addWidget(self.next_button)
        self.surprise_button: QPushButton | None = None
        if self.system.id in ("addict", "side-d6"):
            self.surprise_button = QPushButton("Check &Surprise")
            self.surprise_button.setToolTip("Ask for a surprise d6 per side")
            self.surprise_button.clicked.connect(
                lambda: controller.run(set_field("surprise", {})))
            extra.addWidget(self.surprise_button)
        if self.system.id == "time-units":
            self.surprise_button = QPushButton("&Encounter Dice")
            self.surprise_button.setToolTip("Ask for the encounter d6 per side")
            self.surprise_button.clicked.connect(
                lambda: controller.run(set_field("initiative", {})))
            extra.addWidget(self.surprise_button)

        self.morale_who: QComboBox | None = None
        if self.system.id == "addict":
            # addict's morale checks are asked for by naming who checks (docs/systems/addict.md:
            # opening_morale and a round's morale); the die then shows under "Dice needed".
            self.morale_who = QComboBox()
            self.morale_who.setObjectName("moraleWho")
            self.morale_who.setToolTip("The side or combatant that checks morale")
            opening = QPushButton("&Opening")
            opening.setObjectName("openingMorale")
            opening.setToolTip("Phase 4: a morale check of the chosen side or combatant before "
                               "the first round")
            opening.clicked.connect(lambda: self.ask_morale(opening=True))
            in_round = QPushButton("&In Round")
            in_round.setObjectName("roundMorale")
            in_round.setToolTip("A morale check of the chosen side or combatant this round, "
                                "made at that side's turn")
            in_round.clicked.connect(lambda: self.ask_morale(opening=False))
            # Who checks, then when: two short lines that fit the stepper's narrowest width.
            self.morale_who.setToolTip("Morale check: the side or combatant that checks")
            self.morale_who.setPlaceholderText("Morale check: who")
            self.morale_who.setMinimumContentsLength(8)
            self.morale_who.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            morale_row = QVBoxLayout()
            morale_row.addWidget(self.morale_who)
            when_row = QHBoxLayout()
            when_row.addWidget(opening)
            when_row.addWidget(in_round)
            morale_row.addLayout(when_row)
            self.morale_row = morale_row

        self.needed_box = QGroupBox("Dice needed")
        needed_outer = QVBoxLayout(self.needed_box)
        needed_outer.setContentsMargins(4, 4, 4, 4)
        self.roll_all_button = QPushButton("Roll &All Pending")
        self.roll_all_button.setObjectName("rollAllPending")
        self.roll_all_button.setToolTip("Roll every die listed here with the app's dice, as "
                                        "one step (one Ctrl+Z takes them all back)")
        self.roll_all_button.clicked.connect(self.roll_all_pending)
        needed_outer.addWidget(self.roll_all_button)
        self.nothing_needed = QLabel("The engine needs no dice now.")
        needed_outer.addWidget(self.nothing_needed)
        # Many dice scroll; each keeps its natural height (no 8-px fields at 1280×720).
        self.needed_scroll = QScrollArea()
        self.needed_scroll.setObjectName("diceNeededScroll")
        self.needed_scroll.setWidgetResizable(True)
        self.needed_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.needed_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.needed_inner = QWidget()
        self.needed_layout = QVBoxLayout(self.needed_inner)
        self.needed_layout.setContentsMargins(0, 0, 4, 0)
        self.needed_layout.addStretch(1)
        self.needed_scroll.setWidget(self.needed_inner)
        self.needed_scroll.setMinimumHeight(72)
        needed_outer.addWidget(self.needed_scroll, 1)
        self.rows: list[RollRow] = []
        self._headers: list[QLabel] = []
        self._focus_index: int | None = None
        """After a typed die is taken, the position of the die that gets the focus."""

        self.made_model = QStandardItemModel(self)
        self.made_view = QListView()
        self.made_view.setObjectName("rollsMade")
        self.made_view.setModel(self.made_model)
        self.made_view.setToolTip("Select a roll to reroll it or type over it "
                                  "(the newest one when none is selected)")
        self.reroll_button = QPushButton("Re&roll")
        self.reroll_button.setObjectName("rerollButton")
        self.reroll_button.setToolTip("Roll the selected die again (the old roll stays in the "
                                      "history; Ctrl+Z brings it back)")
        self.reroll_button.clicked.connect(self.reroll_selected)
        self.type_over = QLineEdit()
        self.type_over.setObjectName("typeOver")
        self.type_over.setPlaceholderText("type over selected")
        self.type_over.setToolTip("Replace the selected roll by the total you type, then Enter")
        self.type_over.returnPressed.connect(self.type_over_selected)
        self.change_error = QLabel()
        self.change_error.setWordWrap(True)
        self.change_error.setStyleSheet("color: #c0392b;")
        made_box = QGroupBox("Dice made")
        made_layout = QVBoxLayout(made_box)
        made_layout.setContentsMargins(4, 4, 4, 4)
        self.made_view.setMinimumHeight(2 * self.made_view.fontMetrics().height() + 8)
        made_layout.addWidget(self.made_view)
        change = QHBoxLayout()
        change.addWidget(self.reroll_button)
        change.addWidget(self.type_over)
        made_layout.addLayout(change)
        made_layout.addWidget(self.change_error)

        phases_box = QGroupBox("Procedure")
        phases_layout = QVBoxLayout(phases_box)
        phases_layout.setContentsMargins(4, 4, 4, 4)
        # The system's name is the group's tooltip: the height goes to the dice at 1280×720.
        phases_box.setToolTip(self.system.title)
        self.now_label.setToolTip(self.system.title)
        phases_layout.addWidget(self.now_label)
        row = self.phase_list.sizeHintForRow(0) if self.phases else 16
        frame = 2 * self.phase_list.frameWidth() + 2
        self.phase_list.setMinimumHeight(min(len(self.phases), 3) * row + frame)
        self.phase_list.setMaximumHeight(min(len(self.phases), 6) * row + frame)
        self.phase_list.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.phase_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.phase_list.setTextElideMode(Qt.TextElideMode.ElideRight)
        phases_layout.addWidget(self.phase_list)
        phases_layout.addLayout(extra)
        if self.morale_who is not None:
            phases_layout.addLayout(self.morale_row)
        # Everything scrolls as one when the window is very short, so nothing ever overlaps.
        content = QWidget()
        layout = QVBoxLayout(content)
        self._content = layout
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(phases_box, 2)
        layout.addWidget(self.needed_box, 4)
        layout.addWidget(made_box, 2)
        outer = QScrollArea()
        outer.setObjectName("stepperScroll")
        outer.setWidgetResizable(True)
        outer.setFrameShape(QFrame.Shape.NoFrame)
        outer.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        outer.setWidget(content)
        own = QVBoxLayout(self)
        own.setContentsMargins(0, 0, 0, 0)
        own.addWidget(outer)
        self._shown: list[RollRequest] = []

    # --- phases ---------------------------------------------------------------------------------

    def engine_phase_index(self) -> int:
        """Gets the index of the phase the engine waits for, read from the encounter's state."""
        controller = self.controller
        resolution = None if controller.error else controller.resolution
        phase = current_phase(controller.state, resolution)
        return next((i for i, p in enumerate(self.phases) if p.id == phase), 0)

    def current_index(self) -> int:
        """Gets the index of the phase shown: the engine's, unless the DM paged to another
        since the last change."""
        if self._viewed is not None and self._viewed[0] is self.controller.state:
            return self._viewed[1]
        self._viewed = None
        return self.engine_phase_index()

    def current_phase(self) -> Phase:
        return self.phases[self.current_index()]

    def go_to_phase(self, index: int) -> None:
        """Shows another phase to read (no command: the next change of play follows the
        engine again)."""
        index %= len(self.phases)
        engine = self.engine_phase_index()
        self._viewed = None if index == engine else (self.controller.state, index)
        self._show_phases()

    def next_phase(self) -> None:
        """Shows the next phase (after the last, the first); nothing goes on the undo stack."""
        self.go_to_phase(self.current_index() + 1)

    def _show_phases(self) -> None:
        engine = self.engine_phase_index()
        shown = self.current_index()
        for row, phase in enumerate(self.phases):
            item = self.phase_list.item(row)
            now = row == engine
            item.setText(f"{NOW_MARK}{phase.title}" if now else phase.title)
            font = item.font()
            font.setBold(now)
            item.setFont(font)
            item.setBackground(QBrush(QColor("#fff3c4")) if now else QBrush())
        self.phase_list.setCurrentRow(shown)
        self.phase_list.scrollToItem(self.phase_list.item(shown))
        title = self.phases[engine].title
        text = f"Now: <b>{escape(title)}</b>"
        if shown != engine:
            text += (f"<br><i>Reading {escape(self.phases[shown].title)}; play stays at the "
                     "marked phase.</i>")
        self.now_label.setText(text)

    # --- dice -----------------------------------------------------------------------------------

    def refresh(self) -> None:
        self._show_phases()
        needed = self.controller.rolls_needed()
        if needed != self._shown:
            self._rebuild_rows(needed)
            self._shown = needed
        self.nothing_needed.setVisible(not needed)
        self.needed_scroll.setVisible(bool(needed))
        # The dice take the room while any is needed; otherwise 'Dice made' has it.
        self._content.setStretchFactor(self.needed_box, 4 if needed else 0)
        self.roll_all_button.setEnabled(bool(needed))
        self.roll_all_button.setText(f"Roll &All Pending ({len(needed)})" if needed
                                     else "Roll &All Pending")
        self._refresh_morale_who()
        kept = self.selected_roll()
        self.made_model.clear()
        state = self.controller.state
        labels = labels_of(state)
        for index in reversed(range(len(state.rolls))):
            roll = state.rolls[index]
            mark = MANUAL_MARK if roll.manual else AUTO_MARK
            replaced = index in state.replaced_rolls
            text = f"{mark} {roll_label(roll.purpose, labels)} = {roll.total}"
            item = QStandardItem(f"{text} {REPLACED_MARK}" if replaced else text)
            item.setData(index, ROLL_INDEX)
            if replaced:
                item.setForeground(QColor("#888888"))
                font = QFont()
                font.setStrikeOut(True)
                item.setFont(font)
            elif roll.manual:
                item.setForeground(QColor("#1f6f43"))
            faces = (" (faces " + " + ".join(str(d) for d in roll.dice) + ")"
                     if len(roll.dice) > 1 else "")
            how = "typed in from the table" if roll.manual else "rolled by the app"
            later = "; a later roll replaced it" if replaced else ""
            item.setToolTip(f"{roll.expression}{faces} — {how}{later}")
            item.setEditable(False)
            self.made_model.appendRow(item)
        if kept is not None:
            self.select_roll(kept)
        can_change = self.controller.changeable_roll(self.selected_roll()) is not None
        self.reroll_button.setEnabled(can_change)
        self.type_over.setEnabled(can_change)

    def _rebuild_rows(self, needed: list[RollRequest]) -> None:
        """Shows one row per die needed, keeping the rows (and anything typed) still asked.

        A run of dice of one kind (``Initiative (1d20)``) gets the kind once, above it; each
        row then names only whose die it is.
        """
        state = self.controller.state
        labels = labels_of(state)
        old = {_request_key(r.request): r for r in self.rows}
        rows: list[RollRow] = []
        for request in needed:
            row = old.pop(_request_key(request), None)
            if row is None:
                row = RollRow(request, roll_label(request.purpose, labels),
                              where_words(request.where, state), short=True)
                row.roll_requested.connect(self.controller.roll)
                row.typed.connect(self._on_typed)
            rows.append(row)
        for row in old.values():
            self.needed_layout.removeWidget(row)
            row.setParent(None)
            row.deleteLater()
        for row in self.rows:
            self.needed_layout.removeWidget(row)
        for header in self._headers:
            self.needed_layout.removeWidget(header)
            header.setParent(None)
            header.deleteLater()
        self._headers = []
        position, previous = 0, None
        for row in rows:
            kind, _, who = row.text.partition(": ")
            heading = (kind, row.request.expression)
            if who and heading != previous:
                header = QLabel(f"<b>{escape(kind)}</b> ({escape(row.request.expression)})")
                header.setObjectName("diceKind")
                self._headers.append(header)
                self.needed_layout.insertWidget(position, header)
                position += 1
            previous = heading if who else None
            self.needed_layout.insertWidget(position, row)
            position += 1
            row.show()
        self.rows = rows
        if self._focus_index is not None and rows:
            target = rows[min(self._focus_index, len(rows) - 1)]
            target.field.setFocus(Qt.FocusReason.OtherFocusReason)
            self.needed_scroll.ensureWidgetVisible(target)

    def roll_all_pending(self) -> bool:
        """Rolls every die the engine asks for now, as one undoable command."""
        return self.controller.roll_all(list(self._shown))

    def row_for(self, purpose: str) -> RollRow | None:
        """Gets the row of a needed die by its purpose (``initiative party``)."""
        return next((r for r in self.rows if r.request.purpose == purpose), None)

    def _on_typed(self, request: RollRequest, text: str) -> None:
        position = next((i for i, r in enumerate(self.rows) if r.request == request), None)
        # The rows are rebuilt while the die is saved; the die after it then takes the focus.
        self._focus_index = position
        try:
            error = self.controller.type_roll(request, text)
        finally:
            self._focus_index = None
        row = self.row_for(request.purpose)
        if row is not None and error is not None:
            row.show_error(plain(error))
            row.field.setFocus(Qt.FocusReason.OtherFocusReason)
            row.field.selectAll()

    # --- changing a roll made -------------------------------------------------------------------

    def selected_roll(self) -> int | None:
        """Gets the index (in the encounter's rolls) of the roll selected in 'Dice made'."""
        index = self.made_view.currentIndex()
        value = index.data(ROLL_INDEX) if index.isValid() else None
        return int(value) if value is not None else None

    def select_roll(self, roll_index: int) -> None:
        """Selects a roll in 'Dice made' by its index in the encounter's rolls."""
        for row in range(self.made_model.rowCount()):
            item = self.made_model.item(row)
            if item.data(ROLL_INDEX) == roll_index:
                self.made_view.setCurrentIndex(item.index())
                can_change = self.controller.changeable_roll(roll_index) is not None
                self.reroll_button.setEnabled(can_change)
                self.type_over.setEnabled(can_change)
                return

    def reroll_selected(self) -> None:
        """Rolls the selected die again (the newest one when none is selected)."""
        self._show_change(self.controller.change_roll(self.selected_roll()))

    def type_over_selected(self) -> None:
        """Records the typed total instead of the selected roll."""
        self._show_change(self.controller.change_roll(self.selected_roll(),
                                                      self.type_over.text()))

    # --- addict morale checks ---------------------------------------------------------------

    def _refresh_morale_who(self) -> None:
        if self.morale_who is None:
            return
        state = self.controller.state
        # Sides first (their names are the DM's own), then every combatant by name.
        sides = dict.fromkeys(c.side for c in state.combatants.values())
        choices = [(side, side) for side in sides]
        choices += [(c.label, c.id) for c in state.combatants.values()]
        shown = [(self.morale_who.itemText(i), self.morale_who.itemData(i))
                 for i in range(self.morale_who.count())]
        if shown != choices:
            current = self.morale_who.currentData()
            self.morale_who.clear()
            for text, who in choices:
                self.morale_who.addItem(text, who)
            index = self.morale_who.findData(current)
            if index >= 0:
                self.morale_who.setCurrentIndex(index)

    def ask_morale(self, opening: bool, who: str | None = None) -> bool:
        """Asks for a morale check of a side or combatant (its die then shows as needed)."""
        if who is None:
            data = self.morale_who.currentData() if self.morale_who is not None else None
            who = str(data) if data is not None else ""
        if not who:
            self._show_change("Choose who checks morale.")
            return False
        state = self.controller.state
        if opening:
            current = state.fields.get("opening_morale") or {}
            command = set_field("opening_morale", {**current, who: None})
        else:
            current = state.rounds[-1].get("morale") or {} if state.rounds else {}
            command = set_round_field("morale", {**current, who: None})
        if who in current:
            name = labels_of(state).get(who, who)
            self._show_change(f"{name} already checks morale there; change its die in "
                              "'Dice made'.")
            return False
        return self.controller.run(command)

    def _show_change(self, error: str | None) -> None:
        self.change_error.setText(plain(error or ""))
        if error is None:
            self.type_over.clear()
