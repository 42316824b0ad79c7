"""The encounter workspace tab: stepper, action board, resolution list, status, timeline.

Every view is redrawn from the session after each change (command, undo or redo), so what the
DM sees is always the log as saved.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QSettings, Qt
from PySide6.QtWidgets import QLabel, QSplitter, QVBoxLayout, QWidget

from core.dice import Roller
from core.dice_words import pending_morale_steps
from core.model import Step
from core.session import EncounterSession
from desktop.encounter.board_base import BoardBase
from desktop.encounter.controller import EncounterController
from desktop.encounter.letter_board import LetterBoard
from desktop.encounter.outcome_panel import OutcomePanel
from desktop.encounter.popcorn_board import PopcornBoard
from desktop.encounter.status_model import StatusModel, make_status_view
from desktop.encounter.stepper import ProcedureStepper
from desktop.encounter.tu_board import TimeUnitBoard
from desktop.plain_text import plain
from desktop.resolution.step_selection import StepSelectionSync
from desktop.resolution.steps_model import StepsModel, make_steps_view
from desktop.timeline import TimelineWidget

LAYOUT_KEY = "encounter/splitters"


def make_board(controller: EncounterController) -> BoardBase:
    """Gets the action board of the encounter's system."""
    system = controller.system_id
    if system == "popcorn":
        return PopcornBoard(controller)
    if system == "time-units":
        return TimeUnitBoard(controller)
    return LetterBoard(controller)


class EncounterWorkspace(QWidget):
    """One encounter in play, as a tab of the main window."""

    def __init__(
        self, session: EncounterSession, settings: QSettings | None = None,
        roller: Roller | None = None, parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("encounterWorkspace")
        self.session = session
        self._settings = settings
        seed = session.state.config.get("seed")
        # The app's dice follow the seed and the log's length, so a resumed encounter goes on
        # with fresh (not repeated) rolls.
        self.controller = EncounterController(
            session, roller or Roller.seeded(None if seed is None else
                                             int(seed) + len(session.log.commands)), self)
        self.stepper = ProcedureStepper(self.controller)
        self.board = make_board(self.controller)
        self.steps_model = StepsModel(self)
        self.steps_view = make_steps_view(self.steps_model)
        self.steps_view.setObjectName("resolutionList")
        self.timeline = TimelineWidget()
        self.timeline.setObjectName("timeline")
        self.timeline.setMinimumHeight(170)
        self.sync = StepSelectionSync(self.steps_view, self.timeline)
        self.sync.step_selected.connect(self._on_step_selected)
        self.outcome = OutcomePanel(self.controller)
        self.status_model = StatusModel(self)
        self.status_view = make_status_view(self.status_model)
        self.engine_error = QLabel()
        self.engine_error.setObjectName("engineError")
        self.engine_error.setWordWrap(True)
        self.engine_error.setStyleSheet("color: #c0392b; font-weight: bold;")
        if isinstance(self.board, TimeUnitBoard):
            self.board.advanced.connect(self.sync.select_step)

        side = QSplitter(Qt.Orientation.Vertical)
        side.setObjectName("sideSplitter")
        side.addWidget(self.steps_view)
        side.addWidget(self.outcome)
        side.addWidget(self.status_view)
        side.setSizes([360, 110, 200])
        self.top = QSplitter(Qt.Orientation.Horizontal)
        self.top.setObjectName("topSplitter")
        self.top.addWidget(self.stepper)
        self.top.addWidget(self.board)
        self.top.addWidget(side)
        # Explicit minimums (not the children's hints) keep the tab within a 1440 px screen.
        self.stepper.setMinimumWidth(220)
        self.board.setMinimumWidth(480)
        side.setMinimumWidth(340)
        self.top.setSizes([250, 730, 440])
        self.main = QSplitter(Qt.Orientation.Vertical)
        self.main.setObjectName("mainSplitter")
        self.main.addWidget(self.top)
        self.main.addWidget(self.timeline)
        self.main.setSizes([560, 220])
        self._splitters = (self.main, self.top, side)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.engine_error)
        layout.addWidget(self.main, 1)
        self.controller.changed.connect(self.refresh)
        self.restore_layout()
        self.refresh()

    @property
    def title(self) -> str:
        return f"Encounter: {self.session.info.name}"

    def refresh(self) -> None:
        """Redraws every view from the encounter as it stands."""
        state = self.controller.state
        combatants = list(state.combatants.values())
        self.stepper.refresh()
        self.board.refresh()
        self.sync.set_resolution(self.controller.resolution, combatants)
        self.steps_model.set_pending_morale(pending_morale_steps(
            state, None if self.controller.error else self.controller.resolution))
        self.status_model.set_state(state, self.controller.resolution)
        self.outcome.set_step(self._selected_step())
        error = self.controller.error
        reason = f"The engine cannot resolve this yet: {error}" if error else ""
        self.engine_error.setText(plain(reason))
        self.engine_error.setVisible(bool(error))

    def _selected_step(self) -> Step | None:
        seq = self.sync.selected_step()
        resolution = self.controller.resolution
        if seq is None or resolution is None:
            return None
        return next((s for s in resolution.steps if s.seq == seq), None)

    def select_step(self, seq: int | None) -> None:
        """Selects a step in the list (the timeline and outcome panel follow)."""
        self.sync.select_step(seq)
        self.outcome.set_step(self._selected_step())

    def _on_step_selected(self, _seq: int) -> None:
        self.outcome.set_step(self._selected_step())

    # --- layout ---------------------------------------------------------------------------------

    def restore_layout(self) -> None:
        if self._settings is None:
            return
        for splitter in self._splitters:
            value = self._settings.value(f"{LAYOUT_KEY}/{splitter.objectName()}")
            if isinstance(value, QByteArray):
                splitter.restoreState(value)

    def save_layout(self) -> None:
        """Remembers the splitter positions for the next encounter."""
        if self._settings is None:
            return
        for splitter in self._splitters:
            self._settings.setValue(f"{LAYOUT_KEY}/{splitter.objectName()}",
                                    splitter.saveState())
