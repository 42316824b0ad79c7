"""The encounter workspace tab: stepper, action board, resolution list, status, timeline.

Every view is redrawn from the session after each change (command, undo or redo), so what the
DM sees is always the log as saved.
"""

from __future__ import annotations

import contextlib

from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from core.model.dice import Roller
from core.model.values import Step
from core.play.session import EncounterSession
from core.store import EncounterTakenOverError, StoreError
from core.store.leases import clock
from desktop.encounter.board_base import BoardBase
from desktop.encounter.controller import EncounterController
from desktop.encounter.letter_board import LetterBoard
from desktop.encounter.outcome_panel import OutcomePanel
from desktop.encounter.panels import DICE_PHASES, PANEL_FOR_PHASE, WorkspacePanels
from desktop.encounter.popcorn_board import PopcornBoard
from desktop.encounter.status_model import StatusModel, make_status_view
from desktop.encounter.stepper import ProcedureStepper
from desktop.encounter.tu_board import TimeUnitBoard
from desktop.plain_text import plain
from desktop.resolution.step_selection import StepSelectionSync
from desktop.resolution.steps_model import StepsModel, make_steps_view
from desktop.store_call import busy
from desktop.store_retry import asker, with_retry
from desktop.timeline import TimelineWidget
from desktop.wheel_guard import guard_wheels

HEARTBEAT_MS = 10_000
"""How often a playing window renews its lease (it lasts 30 s: core.store.LEASE_SECONDS)."""
WATCH_MS = 3_000
"""How often a watching window reads the encounter again (another window plays it)."""
REOPEN_TIP = "Play on in this encounter; results already applied stay"


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
    watching_changed = Signal()
    """This window started or stopped only watching (taken over, Take Over): the menus follow."""
    watched = Signal()
    """A watching read is done and this window still only watches: the encounter menu checks
    whether the Combat Desk that plays the fight still runs on this computer."""

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
        self.sync = StepSelectionSync(self.steps_view, self.timeline)
        self.sync.step_selected.connect(self._on_step_selected)
        self.outcome = OutcomePanel(self.controller)
        self.status_model = StatusModel(self)
        self.status_view = make_status_view(self.status_model)
        self.engine_error = QLabel()
        self.engine_error.setObjectName("engineError")
        self.engine_error.setWordWrap(True)
        self.engine_error.setStyleSheet("color: #c0392b; font-weight: bold;")
        self.round_note = QLabel()
        self.round_note.setObjectName("roundNote")
        self.round_note.setWordWrap(True)
        self.round_note.setVisible(False)
        if isinstance(self.board, TimeUnitBoard):
            self.board.advanced.connect(self.sync.select_step)

        # On a 720 px screen the stepper scrolls rather than push the window off the screen.
        stepper_area = QScrollArea()
        stepper_area.setObjectName("stepperArea")
        stepper_area.setWidget(self.stepper)
        stepper_area.setWidgetResizable(True)
        stepper_area.setFrameShape(QScrollArea.Shape.NoFrame)
        self.board.setMinimumWidth(300)
        # Compact rows: twelve steps show in the right column of a 1280x720 screen.
        self.steps_view.verticalHeader().setDefaultSectionSize(
            self.steps_view.fontMetrics().height() + 6)
        self.status_view.verticalHeader().setDefaultSectionSize(
            self.status_view.fontMetrics().height() + 6)
        self.panels = WorkspacePanels(self.board, {
            "combatantsDock": self.board.combatants_panel, "procedureDock": stepper_area,
            "resolutionDock": self.steps_view,
            "timelineDock": self.timeline, "statusDock": self.status_view,
            "outcomeDock": self.outcome})
        procedure = self.panels.docks["procedureDock"]
        procedure.dockLocationChanged.connect(lambda where: self.stepper.set_horizontal(
            where in (Qt.DockWidgetArea.BottomDockWidgetArea, Qt.DockWidgetArea.TopDockWidgetArea)))
        self.stepper.set_horizontal(
            self.panels.dockWidgetArea(procedure) in (Qt.DockWidgetArea.BottomDockWidgetArea,
                                                      Qt.DockWidgetArea.TopDockWidgetArea))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.engine_error)
        layout.addWidget(self.round_note)
        layout.addWidget(self._ended_banner())
        layout.addWidget(self._lease_banner())
        layout.addWidget(self.panels, 1)
        # One window plays, the others watch: the player's heartbeat keeps its lease, a
        # watcher reads the fight again every few seconds (core.store.leases).
        self.heartbeat_timer = QTimer(self)
        self.heartbeat_timer.setInterval(HEARTBEAT_MS)
        self.heartbeat_timer.timeout.connect(self.beat)
        self.watch_timer = QTimer(self)
        self.watch_timer.setInterval(WATCH_MS)
        self.watch_timer.timeout.connect(self.watch)
        self._phase: tuple[str, bool] | None = None
        """The phase play was in at the last redraw, and whether its dice were awaited (its
        panel was brought forward)."""
        self._watching_shown = False
        self.controller.changed.connect(self.refresh)
        self.controller.refused.connect(lambda _text: self._show_lease())
        self.restore_layout()
        self.refresh()
        guard_wheels(self)  # a passing wheel changes no field of the forms and panels

    def _ended_banner(self) -> QWidget:
        """Builds the strip that tells an ended encounter is read-only, with its way out."""
        self.ended_banner = QWidget()
        self.ended_banner.setObjectName("endedBanner")
        self.ended_label = QLabel()
        self.ended_label.setWordWrap(True)
        self.ended_label.setStyleSheet("font-weight: bold;")
        self.reopen_button = QPushButton("Reopen Encounter…")
        self.reopen_button.setToolTip(REOPEN_TIP)
        self.reopen_button.clicked.connect(self.reopen_requested)
        row = QHBoxLayout(self.ended_banner)
        row.setContentsMargins(6, 2, 6, 2)
        row.addWidget(self.ended_label, 1)
        row.addWidget(self.reopen_button)
        self.ended_banner.setStyleSheet("#endedBanner { background: #e8e0c8; }")
        return self.ended_banner

    def _lease_banner(self) -> QWidget:
        """Builds the strip that tells who plays this encounter elsewhere, with Take Over."""
        self.lease_banner = QWidget()
        self.lease_banner.setObjectName("leaseBanner")
        self.lease_label = QLabel()
        self.lease_label.setObjectName("leaseLabel")
        self.lease_label.setWordWrap(True)
        self.lease_label.setStyleSheet("font-weight: bold;")
        self.take_over_button = QPushButton("Take Over…")
        self.take_over_button.setObjectName("takeOverButton")
        self.take_over_button.setToolTip(
            "Play this encounter here; the other window stops saving and only watches")
        self.take_over_button.clicked.connect(lambda _checked=False: self.take_over())
        row = QHBoxLayout(self.lease_banner)
        row.setContentsMargins(6, 2, 6, 2)
        row.addWidget(self.lease_label, 1)
        row.addWidget(self.take_over_button)
        self.lease_banner.setStyleSheet("#leaseBanner { background: #d8e4f0; }")
        self.lease_banner.setVisible(False)
        return self.lease_banner

    @property
    def title(self) -> str:
        ended = " (ended)" if self.session.ended else ""
        return f"Encounter: {self.session.info.name}{ended}"

    def _show_ended(self) -> None:
        """An ended encounter is read-only: view, timeline and print, but no new commands."""
        ended = self.session.ended
        for widget in self._play_controls():
            widget.setEnabled(not ended and not self.session.watching)
        self.ended_label.setText(plain(
            f"{self.session.info.name} has ended: you can read it, follow the timeline and "
            "print it, but not play on. Its results were offered to the roster when it ended."))
        self.ended_banner.setVisible(ended)
        reader = self.session.read_only
        self.reopen_button.setEnabled(reader is None)
        self.reopen_button.setToolTip(reader or REOPEN_TIP)

    def _play_controls(self) -> tuple[QWidget, ...]:
        """What changes the fight: off while it is ended or only watched. The board's
        Combatants panel lives in a dock of its own, not inside the board (Start Timer)."""
        return (self.stepper, self.board, self.board.combatants_panel, self.outcome)

    def refresh(self) -> None:
        """Redraws every view from the encounter as it stands."""
        state = self.controller.state
        combatants = list(state.combatants.values())
        self.stepper.refresh()
        self.board.refresh()
        # Steps hanging on a die not yet entered are not shown as known (segment systems).
        shown = self.controller.known_resolution()
        self.timeline.set_rounds_started(len(state.rounds))  # a round begun shows at once
        self.sync.set_resolution(shown, combatants)
        # the scenario the engine read (not read again); while the engine refuses the state,
        # the state's own, as before
        self.status_model.set_state(
            state, shown, None if self.controller.error else self.controller.scenario)
        # the printout's words for a quiet round, once no die of it is still awaited
        note = "" if self.controller.rolls_needed() else self.status_model.round_note
        self.round_note.setText(plain(note))
        self.round_note.setVisible(bool(note))
        self.outcome.set_step(self._selected_step())
        error = self.controller.error
        reason = f"The engine cannot resolve this yet: {error}" if error else ""
        self.engine_error.setText(plain(reason))
        self.engine_error.setVisible(bool(error))
        self._show_ended()
        self._show_lease()
        self._bring_phase_panel_forward()

    def _bring_phase_panel_forward(self) -> None:
        """When play enters another phase, the panel it works in comes forward (the cards
        to declare, the procedure for dice); within a phase the DM's own choice stays.

        A dice phase counts as entered when its dice are asked for: side-d6's surprise
        segments are the "surprise" phase too, declared on the cards, and the procedure
        must not take them (and the keyboard) from the DM between two declarations.
        """
        phase = self.stepper.phases[self.stepper.engine_index()].id
        rolling = phase in DICE_PHASES and bool(self.controller.rolls_needed())
        if (phase, rolling) == self._phase:
            return
        self._phase = (phase, rolling)
        panel = PANEL_FOR_PHASE.get(phase)
        if panel is not None and (rolling or phase not in DICE_PHASES):
            self.panels.bring_forward(panel)

    # --- the lease: this window plays, or watches another that does --------------------------

    def _show_lease(self) -> None:
        """Shows who plays the encounter when it is not this window, and runs the right timer."""
        session = self.session
        reader = session.read_only  # a player in the campaign: watches, never claims
        if (session.holder is not None and session.lease is None and not session.ended
                and reader is None):
            # A reopened encounter, or one whose lease could not be read when it opened: tried
            # again at the next redraw; meanwhile commands still follow the last one seen.
            with contextlib.suppress(StoreError):
                session.claim()
        watching = session.watching
        lease = session.lease
        for widget in self._play_controls():
            widget.setEnabled(not session.ended and not watching)
        if reader is not None:
            where = f" ({lease.words()})" if lease is not None and lease.live else ""
            self.lease_label.setText(plain(
                f"{reader} This tab follows {session.info.name} as it goes on{where}."))
        elif watching and lease is not None:
            name = session.info.name
            if lease.live:
                text = (f"{name} is {lease.words()}. This window follows the fight as it goes "
                        "on but cannot change it; Take Over to play it here instead.")
            else:
                text = (f"Nobody plays {name} now: Combat Desk on {lease.holder.host} by "
                        f"{lease.holder.user} closed it or stopped answering. Take Over to "
                        "play it here.")
            self.lease_label.setText(plain(text))
        self.lease_banner.setVisible(watching)
        if watching != self._watching_shown:
            self._watching_shown = watching
            self.watching_changed.emit()
        self.take_over_button.setVisible(reader is None)
        self._run(self.heartbeat_timer, session.holding and not session.ended)
        self._run(self.watch_timer, watching)

    @staticmethod
    def _run(timer: QTimer, wanted: bool) -> None:
        if wanted and not timer.isActive():
            timer.start()
        elif not wanted and timer.isActive():
            timer.stop()

    def beat(self) -> None:
        """The heartbeat (every 10 s): keeps the lease; turns read-only once taken over."""
        if busy():
            return  # a command is being saved (it proves this window alive); next beat then
        try:
            self.session.heartbeat()
        except EncounterTakenOverError:
            self.controller.stack.clear()  # this window's undo history is no longer its to undo
            # Nothing was refused (the DM did nothing here): the banner says who plays now,
            # and the status bar says what happened.
            lease = self.session.lease
            top = self.window()
            if isinstance(top, QMainWindow) and lease is not None:
                top.statusBar().showMessage(plain(
                    f"{lease.holder.user} on {lease.holder.host} took {self.session.info.name} "
                    f"over at {clock(lease.since)}: this window now only shows it."), 15000)
        except StoreError:
            return  # the database is busy or away: the next beat tries again
        self._show_lease()

    def watch(self) -> None:
        """Reads the encounter again (every 3 s while watching): the other window's play shows."""
        if busy():
            return  # never beside a store call in flight: the next tick reads it all
        try:
            if self.session.catch_up():
                self.controller.stack.clear()
        except (StoreError, ValueError):
            return  # the next tick tries again
        self._show_lease()
        if self.session.watching and self.session.read_only is None:
            self.watched.emit()

    def let_go(self) -> None:
        """Stops the timers and lets the encounter go (the tab or the window closes)."""
        self.heartbeat_timer.stop()
        self.watch_timer.stop()
        with contextlib.suppress(StoreError):  # unheard, the lease runs out by itself in 30 s
            self.session.release()

    def take_over(self, confirm: bool = True) -> bool:
        """Takes the encounter over from the window that plays it (after asking, if it still
        plays); that window's next command is refused and it only watches from then on."""
        lease = self.session.lease
        if confirm and lease is not None and lease.live:
            answer = QMessageBox.question(
                self, "Take over encounter",
                plain(f"{self.session.info.name} is {lease.words()}. Take it over and play it "
                      f"here? {lease.holder.user}'s window will save nothing more and only "
                      "watch, until they take it back."),
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
            if answer != QMessageBox.StandardButton.Yes:
                return False
        try:
            # Retry is safe: taking over an encounter this window already holds changes nothing.
            with_retry(lambda: self.session.claim(take_over=True), self.controller.ask_retry,
                       f"Taking {self.session.info.name} over",
                       self.session.wait_limit)
        except StoreError as exc:
            self.controller.refused.emit(str(exc))
            top = self.window()
            if isinstance(top, QMainWindow):
                top.statusBar().showMessage(
                    plain(f"{self.session.info.name} was not taken over: {exc}"), 15000)
            return False
        self.played_here()
        return True

    def played_here(self) -> None:
        """Shows that this window plays the encounter now (taken over, or its holder ended)."""
        self.controller.stack.clear()
        self.board.message.clear()  # an earlier "taken over" refusal no longer holds
        self.refresh()

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
        """Puts the panels where the DM left them last (any encounter), else the default."""
        if self._settings is not None:
            self.panels.restore(self._settings)

    def reset_layout(self) -> None:
        """Puts every panel back where it starts (View › Reset Layout)."""
        self.panels.arrange_default()

    def save_layout(self) -> None:
        """Remembers the panels' arrangement for the next encounter."""
        if self._settings is not None:
            self.panels.save(self._settings)
