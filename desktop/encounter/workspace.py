"""The encounter workspace tab: stepper, action board, resolution list, status, timeline.

Every view is redrawn from the session after each change (command, undo or redo), so what the
DM sees is always the log as saved.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QSettings, Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from core.dice import Roller
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
from desktop.store_retry import asker
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

    reopen_requested = Signal()
    """The DM asked to reopen this ended encounter (the Encounter menu does it, undoably)."""

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
        self.controller.ask_retry = asker(self)
        self.stepper = ProcedureStepper(self.controller)
        self.board = make_board(self.controller)
        self.steps_model = StepsModel(self)
        self.steps_view = make_steps_view(self.steps_model)
        self.steps_view.setObjectName("resolutionList")
        self.timeline = TimelineWidget()
        self.timeline.setObjectName("timeline")
        self.timeline.setMinimumHeight(130)
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
        # On a 720 px screen the stepper scrolls rather than push the window off the screen.
        stepper_area = QScrollArea()
        stepper_area.setObjectName("stepperArea")
        stepper_area.setWidget(self.stepper)
        stepper_area.setWidgetResizable(True)
        stepper_area.setFrameShape(QScrollArea.Shape.NoFrame)
        stepper_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.top.addWidget(stepper_area)
        self.top.addWidget(self.board)
        self.top.addWidget(side)
        # Explicit minimums (not the children's hints) keep the tab within a 1440 px screen.
        stepper_area.setMinimumWidth(230)
        self.stepper.setMinimumWidth(220)
        self.board.setMinimumWidth(480)
        side.setMinimumWidth(340)
        self.top.setSizes([250, 730, 440])
        self.main = QSplitter(Qt.Orientation.Vertical)
        self.main.setObjectName("mainSplitter")
        self.main.addWidget(self.top)
        self.main.addWidget(self.timeline)
        self.main.setSizes([600, 170])
        self._splitters = (self.main, self.top, side)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.engine_error)
        layout.addWidget(self._ended_banner())
        layout.addWidget(self.main, 1)
        self.controller.changed.connect(self.refresh)
        self.restore_layout()
        self.refresh()

    def _ended_banner(self) -> QWidget:
        """Builds the strip that tells an ended encounter is read-only, with its way out."""
        self.ended_banner = QWidget()
        self.ended_banner.setObjectName("endedBanner")
        self.ended_label = QLabel()
        self.ended_label.setWordWrap(True)
        self.ended_label.setStyleSheet("font-weight: bold;")
        self.reopen_button = QPushButton("Reopen Encounter…")
        self.reopen_button.setToolTip("Play on in this encounter; results already applied stay")
        self.reopen_button.clicked.connect(self.reopen_requested)
        row = QHBoxLayout(self.ended_banner)
        row.setContentsMargins(6, 2, 6, 2)
        row.addWidget(self.ended_label, 1)
        row.addWidget(self.reopen_button)
        self.ended_banner.setStyleSheet("#endedBanner { background: #e8e0c8; }")
        return self.ended_banner

    @property
    def title(self) -> str:
        ended = " (ended)" if self.session.ended else ""
        return f"Encounter: {self.session.info.name}{ended}"

    def _show_ended(self) -> None:
        """An ended encounter is read-only: view, timeline and print, but no new commands."""
        ended = self.session.ended
        for widget in (self.stepper, self.board, self.outcome):
            widget.setEnabled(not ended)
        self.ended_label.setText(plain(
            f"{self.session.info.name} has ended: you can read it, follow the timeline and "
            "print it, but not play on. Its results were offered to the roster when it ended."))
        self.ended_banner.setVisible(ended)

    def refresh(self) -> None:
        """Redraws every view from the encounter as it stands."""
        state = self.controller.state
        combatants = list(state.combatants.values())
        self.stepper.refresh()
        self.board.refresh()
        # Steps hanging on a die not yet entered are not shown as known (segment systems).
        shown = self.controller.known_resolution()
        self.sync.set_resolution(shown, combatants)
        self.status_model.set_state(state, shown)
        self.outcome.set_step(self._selected_step())
        error = self.controller.error
        reason = f"The engine cannot resolve this yet: {error}" if error else ""
        self.engine_error.setText(plain(reason))
        self.engine_error.setVisible(bool(error))
        self._show_ended()

    def _selected_step(self) -> Step | None:
        seq = self.sync.selected_step()
        resolution = self.controller.known_resolution()
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
