"""The procedure stepper: the system's phases, the dice the engine still needs, the dice made."""

from __future__ import annotations

from PySide6.QtGui import QColor, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from core.encounter import enter_phase, set_field
from core.rules import Phase, find_system
from core.rules.base import RollRequest
from desktop.encounter.controller import EncounterController
from desktop.encounter.roll_row import RollRow
from desktop.resolution.step_text import rule_in_words

AUTO_MARK = "[auto]"
MANUAL_MARK = "[typed]"


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
            item.setToolTip("\n".join(f"• {rule_in_words(self.system.id, r)}"
                                      for r in phase.rule_ids))
        self.phase_list.itemActivated.connect(
            lambda item: self.go_to_phase(self.phase_list.row(item)))
        self.next_button = QPushButton("&Next Phase")
        self.next_button.setToolTip("Move the stepper to the next phase (Ctrl+])")
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
        if self.system.id == "time-units":
            self.surprise_button = QPushButton("&Encounter Dice")
            self.surprise_button.setToolTip("Ask for the encounter d6 per side")
            self.surprise_button.clicked.connect(
                lambda: controller.run(set_field("initiative", {})))
            extra.addWidget(self.surprise_button)

        self.needed_box = QGroupBox("Dice needed")
        self.needed_layout = QVBoxLayout(self.needed_box)
        self.nothing_needed = QLabel("The engine needs no dice now.")
        self.needed_layout.addWidget(self.nothing_needed)
        self.rows: list[RollRow] = []

        self.made_model = QStandardItemModel(self)
        self.made_view = QListView()
        self.made_view.setObjectName("rollsMade")
        self.made_view.setModel(self.made_model)
        self.reroll_button = QPushButton("Re&roll Last")
        self.reroll_button.setToolTip("Undo the last roll and roll it again")
        self.reroll_button.clicked.connect(lambda: self._show_change(controller.change_last_roll()))
        self.type_over = QLineEdit()
        self.type_over.setObjectName("typeOver")
        self.type_over.setPlaceholderText("type over last")
        self.type_over.setToolTip("Replace the last roll by the total you type, then Enter")
        self.type_over.returnPressed.connect(
            lambda: self._show_change(controller.change_last_roll(self.type_over.text())))
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

        phases_box = QGroupBox("Procedure")
        phases_layout = QVBoxLayout(phases_box)
        system_label = QLabel(f"<b>{self.system.title}</b>")
        system_label.setWordWrap(True)
        phases_layout.addWidget(system_label)
        phases_layout.addWidget(self.phase_list)
        phases_layout.addLayout(extra)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(phases_box, 3)
        layout.addWidget(self.needed_box)
        layout.addWidget(made_box, 2)
        self._shown: list[RollRequest] = []

    # --- phases ---------------------------------------------------------------------------------

    def current_index(self) -> int:
        """Gets the index of the phase the encounter is in (the first one at the start)."""
        phase = self.controller.state.phase
        return next((i for i, p in enumerate(self.phases) if p.id == phase), 0)

    def current_phase(self) -> Phase:
        return self.phases[self.current_index()]

    def go_to_phase(self, index: int) -> None:
        phase = self.phases[index % len(self.phases)]
        if phase.id != self.controller.state.phase:
            self.controller.run(enter_phase(phase.id, phase.title), check=False)

    def next_phase(self) -> None:
        """Moves to the next phase (after the last, back to the first)."""
        self.go_to_phase(self.current_index() + 1)

    # --- dice -----------------------------------------------------------------------------------

    def refresh(self) -> None:
        self.phase_list.setCurrentRow(self.current_index())
        needed = self.controller.rolls_needed()
        if needed != self._shown:
            for row in self.rows:
                row.setParent(None)
                row.deleteLater()
            self.rows = []
            for request in needed:
                row = RollRow(request)
                row.roll_requested.connect(self.controller.roll)
                row.typed.connect(self._on_typed)
                self.needed_layout.addWidget(row)
                row.show()
                self.rows.append(row)
            self._shown = needed
        self.nothing_needed.setVisible(not needed)
        self.made_model.clear()
        for roll in reversed(self.controller.state.rolls):
            mark = MANUAL_MARK if roll.manual else AUTO_MARK
            item = QStandardItem(f"{mark} {roll.purpose}: {roll.total}")
            if roll.manual:
                item.setForeground(QColor("#1f6f43"))
            faces = f" faces {list(roll.dice)}" if roll.dice else ""
            item.setToolTip(f"{roll.expression}{faces} — "
                            f"{'typed in from the table' if roll.manual else 'rolled by the app'}")
            item.setEditable(False)
            self.made_model.appendRow(item)
        can_change = self.controller.last_command_is_roll()
        self.reroll_button.setEnabled(can_change)
        self.type_over.setEnabled(can_change)

    def row_for(self, purpose: str) -> RollRow | None:
        """Gets the row of a needed die by its purpose (``initiative party``)."""
        return next((r for r in self.rows if r.request.purpose == purpose), None)

    def _on_typed(self, request: RollRequest, text: str) -> None:
        error = self.controller.type_roll(request, text)
        row = self.row_for(request.purpose)
        if row is not None and error is not None:
            row.show_error(error)

    def _show_change(self, error: str | None) -> None:
        self.change_error.setText(error or "")
        if error is None:
            self.type_over.clear()
