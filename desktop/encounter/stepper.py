"""The procedure stepper: the system's phases, the dice the engine still needs, the dice made."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QBoxLayout,
    QComboBox,
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

from core.fight.encounter import set_field, set_round_field
from core.fight.log import Command
from core.printout.words import Names, entered_words, purpose_words, request_words
from core.rules import Phase, find_system
from core.rules.base import RollRequest
from desktop.encounter.controller import EncounterController
from desktop.encounter.roll_modifiers import added_to_dice
from desktop.encounter.roll_row import RollRow
from desktop.plain_text import elide_name
from desktop.resolution.step_identity import step_source
from desktop.step_text import rule_in_words

AUTO_MARK = "[auto]"
MANUAL_MARK = "[typed]"
REPLACED_MARK = "(replaced)"
ROLL_INDEX = Qt.ItemDataRole.UserRole + 1
"""Gets a 'Dice made' row's index in the encounter's rolls."""


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
        # About five phases show (the current one kept in view): the dice below need the room.
        self.phase_list.setMaximumHeight(4 * self.phase_list.fontMetrics().lineSpacing() + 12)
        # A long title wraps onto a second line in the narrow column instead of being cut.
        self.phase_list.setWordWrap(True)
        self.phase_list.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.phase_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.phase_list.setResizeMode(QListView.ResizeMode.Adjust)
        for phase in self.phases:
            self.phase_list.addItem(phase.title)
            item = self.phase_list.item(self.phase_list.count() - 1)
            item.setToolTip("\n".join(f"• {rule_in_words(self.system.id, r)}"
                                      for r in phase.rule_ids))
        self.phase_list.itemActivated.connect(
            lambda item: self.go_to_phase(self.phase_list.row(item)))
        # A click highlights a row: that is the phase read (F1 opens there), and the note below
        # says so, so the highlighted row never silently disagrees with ▶.
        self._showing = False
        self.phase_list.currentRowChanged.connect(self._on_row_chosen)
        self.reading_note = QLabel()
        self.reading_note.setObjectName("readingNote")
        self.reading_note.setWordWrap(True)
        self.reading_note.setStyleSheet("color: #555;")
        self.reading_note.setVisible(False)
        self.phase_list.setToolTip("▶ marks the phase play is in; it moves by itself as you "
                                   "declare, roll and record")
        self._looking: int | None = None
        """A phase the DM chose to read ahead or back; play itself does not move."""
        self.next_button = QPushButton("&Next Phase")
        self.next_button.setToolTip("Read the next phase (Ctrl+]); the stepper comes back to "
                                    "the phase play is in at your next action")
        self.next_button.setShortcut("Ctrl+]")
        self.next_button.clicked.connect(self.next_phase)
        extra = QHBoxLayout()
        extra.addWidget(self.next_button)
        self.surprise_button: QPushButton | None = None
        if self.system.id in ("addict", "side-d6"):
            self.surprise_button = QPushButton("Check &Surprise")
            self.surprise_button.setToolTip("Ask for a surprise d6 per side")
            self.surprise_button.clicked.connect(
                lambda: controller.run(set_field("surprise", {})))
            extra.addWidget(self.surprise_button)
        self.encounter_button: QPushButton | None = None
        if self.system.id == "time-units":
            # The Encounter Sequence: a d6 per side, then the DM's 2d6 reaction for the
            # monsters; one command, so one Ctrl+Z takes both requests back.
            self.encounter_button = QPushButton("&Encounter Dice")
            self.encounter_button.setToolTip("Ask for the encounter d6 per side and the "
                                             "monsters' 2d6 reaction roll")
            self.encounter_button.clicked.connect(lambda: controller.run(Command(
                "Ask for the encounter dice",
                (*set_field("initiative", {}).events, *set_field("reaction", {}).events))))
            # A row of their own: three buttons beside Next Phase were cut at 1280x720.
            self.encounter_row = QHBoxLayout()
            self.encounter_row.addWidget(self.encounter_button)
            # "Surprised creatures add their first initiative roll to TU = 10": a surprise d6
            # per side (1–2 surprised, time-units.surprise.d6).
            self.surprise_button = QPushButton("Check &Surprise")
            self.surprise_button.setToolTip("Ask for a surprise d6 per side: a side rolling "
                                            "1–2 is surprised and starts counting at TU 10")
            self.surprise_button.clicked.connect(
                lambda: controller.run(set_field("surprise", {})))
            self.encounter_row.addWidget(self.surprise_button)

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
                                "made at that side's turn, or after the last blow recorded "
                                "against it if that came later")
            in_round.clicked.connect(lambda: self.ask_morale(opening=False))
            morale_row = QVBoxLayout()
            who_row = QHBoxLayout()
            who_row.addWidget(QLabel("Morale check:"))
            who_row.addWidget(self.morale_who, 1)
            buttons_row = QHBoxLayout()
            buttons_row.addWidget(opening)
            buttons_row.addWidget(in_round)
            morale_row.addLayout(who_row)
            morale_row.addLayout(buttons_row)
            self.morale_row = morale_row

        self.needed_box = QGroupBox("Dice needed")
        box_layout = QVBoxLayout(self.needed_box)
        self.roll_all_button = QPushButton("Roll &All Pending")
        self.roll_all_button.setObjectName("rollAll")
        self.roll_all_button.setToolTip("Roll every die still needed with the app's dice "
                                        "(one step: Ctrl+Z takes them all back)")
        self.roll_all_button.clicked.connect(self.controller.roll_all)
        box_layout.addWidget(self.roll_all_button)
        # Many pending dice scroll instead of squeezing each field to a sliver.
        rows_widget = QWidget()
        self.needed_layout = QVBoxLayout(rows_widget)
        self.needed_layout.setContentsMargins(0, 0, 0, 0)
        self.nothing_needed = QLabel("The engine needs no dice now.")
        self.needed_layout.addWidget(self.nothing_needed)
        self.needed_layout.addStretch(1)
        self.needed_scroll = QScrollArea()
        self.needed_scroll.setWidgetResizable(True)
        self.needed_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        self.needed_scroll.setWidget(rows_widget)
        self.needed_scroll.setMinimumHeight(70)  # a die with its field; more scroll
        box_layout.addWidget(self.needed_scroll)
        self.rows: list[RollRow] = []
        self._typing = False
        """A die was just typed: the next pending die's field takes the focus."""

        self.made_model = QStandardItemModel(self)
        self.made_view = QListView()
        self.made_view.setObjectName("rollsMade")
        self.made_view.setModel(self.made_model)
        # Four rolls show (the newest first): the panel fits a 720-line screen's column.
        self.made_view.setMaximumHeight(4 * self.made_view.fontMetrics().lineSpacing() + 10)
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
        made_layout.addWidget(self.made_view)
        change = QHBoxLayout()
        change.addWidget(self.reroll_button)
        change.addWidget(self.type_over)
        made_layout.addLayout(change)
        made_layout.addWidget(self.change_error)

        phases_box = QGroupBox("Phases")
        phases_layout = QVBoxLayout(phases_box)
        system_label = self.system_label = QLabel(f"<b>{self.system.title}</b>")
        system_label.setWordWrap(True)
        phases_layout.addWidget(system_label)
        phases_layout.addWidget(self.phase_list)
        phases_layout.addWidget(self.reading_note)
        phases_layout.addLayout(extra)
        if self.encounter_button is not None:
            phases_layout.addLayout(self.encounter_row)
        if self.morale_who is not None:
            phases_layout.addLayout(self.morale_row)
        layout = self.box_layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(phases_box, 2)
        layout.addWidget(self.needed_box, 3)
        layout.addWidget(made_box, 2)
        self._shown: list[RollRequest] = []
        self._made: tuple[object, ...] | None = None
        """What the list of dice made shows (rolls, replaced, names): made again on a change."""

    def set_horizontal(self, horizontal: bool) -> None:
        """Lays the procedure, the dice needed and the dice made side by side (a panel under
        or over the board) or one above the other (a panel at a side)."""
        self.box_layout.setDirection(QBoxLayout.Direction.LeftToRight if horizontal
                                     else QBoxLayout.Direction.TopToBottom)
        # Side by side the height is short: the system's name is the panel's title then.
        self.system_label.setVisible(not horizontal)

    # --- phases ---------------------------------------------------------------------------------

    def engine_index(self) -> int:
        """Gets the index of the phase the engine is waiting for (core.fight.procedure)."""
        phase = self.controller.phase()
        return next((i for i, p in enumerate(self.phases) if p.id == phase), 0)

    def current_index(self) -> int:
        """Gets the index of the phase shown: the engine's, unless the DM is reading another."""
        return self._looking if self._looking is not None else self.engine_index()

    def current_phase(self) -> Phase:
        return self.phases[self.current_index()]

    def go_to_phase(self, index: int) -> None:
        """Shows another phase to read (F1 opens there); no command, nothing to undo."""
        index %= len(self.phases)
        self._looking = None if index == self.engine_index() else index
        self._show_phases()

    def next_phase(self) -> None:
        """Shows the next phase (after the last, back to the first)."""
        self.go_to_phase(self.current_index() + 1)

    def _on_row_chosen(self, row: int) -> None:
        if self._showing or row < 0:
            return
        self.go_to_phase(row)

    def _show_phases(self) -> None:
        engine = self.engine_index()
        self._showing = True
        try:
            for row, phase in enumerate(self.phases):
                item = self.phase_list.item(row)
                item.setText(f"▶ {phase.title}" if row == engine else f"    {phase.title}")
                font = item.font()
                font.setBold(row == engine)
                item.setFont(font)
            self.phase_list.setCurrentRow(self.current_index())
            self.phase_list.scrollToItem(self.phase_list.item(self.current_index()))
        finally:
            self._showing = False
        reading = self._looking is not None
        self.reading_note.setVisible(reading)
        self.reading_note.setText(
            f"Reading: {self.phases[self.current_index()].title}. Play is at ▶ "
            f"{self.phases[engine].title}; it comes back there at your next action."
            if reading else "")

    # --- dice -----------------------------------------------------------------------------------

    def refresh(self) -> None:
        self._looking = None  # play moved on: show where it is
        self._show_phases()
        needed = self.controller.rolls_needed()
        if needed != self._shown:
            for row in self.rows:
                # Hidden on purpose, and kept in its parent until deleted: inserting it in the
                # layout queued a "show if not hidden" for it, and a row orphaned before that
                # ran (two refreshes with no event loop between) became a window of its own,
                # took the activation from the DM's window and left the next Ctrl+Z nowhere.
                row.hide()
                self.needed_layout.removeWidget(row)
                row.deleteLater()
            self.rows = []
            names = Names.from_state(self.controller.state)
            added = added_to_dice(self.controller.state) if needed else {}
            for request in needed:
                words = request_words(request.purpose, request.expression, names)
                row = RollRow(request, words=words, modifier=added.get(request.purpose, 0))
                row.roll_requested.connect(self.controller.roll)
                row.typed.connect(self._on_typed)
                self.needed_layout.insertWidget(self.needed_layout.count() - 1, row)
                row.show()
                self.rows.append(row)
            self._shown = needed
            if self._typing and self.rows:  # Enter moves on to the next die still needed
                self.rows[0].field.setFocus()
                self.needed_scroll.ensureWidgetVisible(self.rows[0])
        self._typing = False
        self.nothing_needed.setVisible(not needed)
        self.roll_all_button.setEnabled(bool(needed))
        self._refresh_morale_who()
        self._show_made()
        can_change = self.controller.changeable_roll(self.selected_roll()) is not None
        self.reroll_button.setEnabled(can_change)
        self.type_over.setEnabled(can_change)

    def _show_made(self) -> None:
        """Lists the dice made, newest first; again only when they (or a name) changed: the
        list made again at every redraw laid the whole window out and painted it again."""
        state = self.controller.state
        names = Names.from_state(state)  # who each roll was for is told by name
        added = added_to_dice(state) if state.rolls else {}  # what the app adds to a die
        made = (state.rolls, state.replaced_rolls, names, tuple(sorted(added.items())))
        if made == self._made:
            return
        self._made = made
        kept = self.selected_roll()
        self.made_model.clear()
        for index in reversed(range(len(state.rolls))):
            roll = state.rolls[index]
            mark = MANUAL_MARK if roll.manual else AUTO_MARK
            replaced = index in state.replaced_rolls
            plus = added.get(roll.purpose, 0)
            total = (f"{roll.expression.removeprefix('1')} {roll.total} {plus:+d} = "
                     f"{roll.total + plus}") if plus else str(roll.total)
            text = f"{mark} {purpose_words(roll.purpose, names)}: {total}"
            item = QStandardItem(f"{text} {REPLACED_MARK}" if replaced else text)
            item.setData(index, ROLL_INDEX)
            if replaced:
                item.setForeground(QColor("#888888"))
                font = QFont()
                font.setStrikeOut(True)
                item.setFont(font)
            elif roll.manual:
                item.setForeground(QColor("#1f6f43"))
            faces = f" faces {list(roll.dice)}" if roll.dice else ""
            how = entered_words(roll.manual)
            later = "; a later roll replaced it" if replaced else ""
            item.setToolTip(f"{roll.expression}{faces} — {how}{later}")
            item.setEditable(False)
            self.made_model.appendRow(item)
        if kept is not None:
            self.select_roll(kept)

    def row_for(self, purpose: str) -> RollRow | None:
        """Gets the row of a needed die by its purpose (``initiative party``)."""
        return next((r for r in self.rows if r.request.purpose == purpose), None)

    def _on_typed(self, request: RollRequest, text: str) -> None:
        self._typing = True
        error = self.controller.type_roll(request, text)
        self._typing = False
        row = self.row_for(request.purpose)
        if row is not None and error is not None:
            row.show_error(error)

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
        choices = [(side, f"{side} (whole side)") for side in
                   dict.fromkeys(c.side for c in state.combatants.values())]
        choices += [(c.id, elide_name(c.label)) for c in state.combatants.values()]
        shown = [(self.morale_who.itemData(i), self.morale_who.itemText(i))
                 for i in range(self.morale_who.count())]
        if shown != choices:
            current = self.morale_who.currentData()
            self.morale_who.clear()
            for who, text in choices:
                self.morale_who.addItem(text, who)
            index = self.morale_who.findData(current)
            if index >= 0:
                self.morale_who.setCurrentIndex(index)

    def ask_morale(self, opening: bool, who: str | None = None) -> bool:
        """Asks for a morale check of a side or combatant (its die then shows as needed)."""
        if who is None:
            who = str(self.morale_who.currentData() or "") if self.morale_who is not None else ""
        if not who:
            self._show_change("Choose who checks morale.")
            return False
        state = self.controller.state
        if opening:
            current = state.fields.get("opening_morale") or {}
            command = set_field("opening_morale", {**current, who: None})
        else:
            current = state.rounds[-1].get("morale") or {} if state.rounds else {}
            after = self._last_blow_recorded(who)
            command = set_round_field(
                "morale", {**current, who: None if after is None else {"after": after}})
        if who in current:
            label = Names.from_state(state)(who)
            self._show_change(f"{label} already checks morale there; change its die in "
                              "'Dice made'.")
            return False
        return self.controller.run(command)

    def _last_blow_recorded(self, who: str) -> int | None:
        """Gets the index of the current round's declaration whose recorded hit on ``who`` (a
        side or a combatant) came last in the order of play: a check asked for now was set
        off by it, and is made after it (addict.morale.after-trigger)."""
        state = self.controller.state
        resolution = self.controller.resolution
        if not state.rounds or resolution is None:
            return None
        members = {cid for cid, c in state.combatants.items() if cid == who or c.side == who}
        prefix = f"rounds[{len(state.rounds) - 1}].declarations["
        last = None
        for step in resolution.steps:
            source = step_source(step) or ""
            if step.event == "hits" and step.target in members and source.startswith(prefix):
                last = int(source[len(prefix):].split("]")[0])
        return last

    def _show_change(self, error: str | None) -> None:
        self.change_error.setText(error or "")
        if error is None:
            self.type_over.clear()
