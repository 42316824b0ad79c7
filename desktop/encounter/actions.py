"""The Encounter menu: start, reopen, end, print and explain encounters in the main window.

Each open encounter is a tab with its own undo stack; the window's QUndoGroup makes Ctrl+Z act
on the roster or on the encounter shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QMessageBox, QWidget

from core.encounter import scenario_document
from core.log import EncounterState, add_combatant
from core.model import StepEvent, frozen_mapping
from core.roster import Campaign
from core.scenario import ScenarioError, parse_scenario
from core.session import EncounterSession
from core.store import EncounterInfo, StoreError
from desktop.plain_text import plain

if TYPE_CHECKING:
    from desktop.encounter.help_browser import HelpWindow
    from desktop.encounter.start_dialog import EncounterPlan, StartEncounterDialog
    from desktop.encounter.workspace import EncounterWorkspace
    from desktop.main_window import MainWindow


class EncounterActions:
    """Creates the Encounter menu's actions and manages the encounter tabs."""

    def __init__(self, window: MainWindow) -> None:
        self.window = window
        self.workspaces: list[EncounterWorkspace] = []
        self.dialog: QWidget | None = None  # the last non-modal dialog (tests reach it here)
        self.new_action = self._action("&New Encounter…", self.ask_new_encounter,
                                       ["Ctrl+Alt+N"], "Start an encounter from the roster")
        self.end_action = self._action("&End Encounter…", self.end_current, [],
                                       "End the encounter shown; results go back to the roster")
        self.print_action = self._action("&Print Summary…", self.print_current,
                                         [QKeySequence.StandardKey.Print],
                                         "Print preview of the encounter's summary")
        self.help_action = self._action("&Combat Desk Help", self.help_current,
                                        [QKeySequence.StandardKey.HelpContents],
                                        "Help for the tab shown, at the current phase")
        self.help_window: HelpWindow | None = None
        self.menu = QMenu("E&ncounter", window)
        self.open_menu = QMenu("&Open Encounter", window)
        window.tabs.currentChanged.connect(self._on_tab_changed)
        self._update_enabled()

    def _action(self, text: str, slot: object, keys: Sequence[object], tip: str) -> QAction:
        action = QAction(text, self.window)
        action.setShortcuts([k if isinstance(k, QKeySequence) else QKeySequence(k)  # type: ignore[arg-type]
                             for k in keys])
        action.setStatusTip(tip)
        action.triggered.connect(lambda _checked=False: slot())  # type: ignore[operator]
        return action

    def fill_menu(self, menu: QMenu) -> None:
        menu.addAction(self.new_action)
        menu.addMenu(self.open_menu)
        menu.addSeparator()
        menu.addAction(self.print_action)
        menu.addAction(self.end_action)

    # --- which encounter is shown -----------------------------------------------------------------

    def current(self) -> EncounterWorkspace | None:
        widget = self.window.tabs.currentWidget()
        return next((w for w in self.workspaces if w is widget), None)

    def _on_tab_changed(self, _index: int) -> None:
        workspace = self.current()
        stack = workspace.controller.stack if workspace is not None else self.window.undo_stack
        self.window.undo_group.setActiveStack(stack)
        # The entry form edits the roster: on an encounter tab its room goes to the board.
        self.window.editor_dock.setVisible(workspace is None)
        self._update_enabled()

    def _update_enabled(self) -> None:
        shown = self.current() is not None
        for action in (self.end_action, self.print_action):
            action.setEnabled(shown)

    # --- campaign -----------------------------------------------------------------------------

    def campaign_shown(self, campaign: Campaign) -> None:
        """Lists the campaign's encounters and reopens the active ones where they stopped."""
        for workspace in list(self.workspaces):
            if workspace.session.info.campaign_id != campaign.id:
                self.close_workspace(workspace)
        for info in self.campaign_list_changed():
            if info.status == "active":
                self.open_encounter(info, focus=False)

    def open_encounter(self, info: EncounterInfo, focus: bool = True) -> EncounterWorkspace | None:
        """Shows an encounter's tab, resuming it from the store at its last command."""
        existing = next((w for w in self.workspaces if w.session.info.id == info.id), None)
        if existing is None:
            try:
                session = EncounterSession.resume(self.window.store, info)
            except (StoreError, ValueError) as exc:
                self.window._report(exc)
                return None
            existing = self._add_tab(session)
        if focus:
            self.window.tabs.setCurrentWidget(existing)
        return existing

    def _add_tab(self, session: EncounterSession) -> EncounterWorkspace:
        # Imported on first use: the workspace brings pyqtgraph and numpy, which a DM who only
        # edits the roster should not wait for at start-up (bench/bench_startup.py).
        from desktop.encounter.workspace import EncounterWorkspace

        workspace = EncounterWorkspace(session, self.window.settings)
        self.workspaces.append(workspace)
        self.window.undo_group.addStack(workspace.controller.stack)
        self.window.tabs.addTab(workspace, workspace.title)
        workspace.controller.completed.connect(
            lambda name: self.window.statusBar().showMessage(f"Saved: {name}", 4000))
        return workspace

    def close_workspace(self, workspace: EncounterWorkspace) -> None:
        """Closes a tab (everything is saved already)."""
        workspace.save_layout()
        self.window.undo_group.removeStack(workspace.controller.stack)
        index = self.window.tabs.indexOf(workspace)
        if index >= 0:
            self.window.tabs.removeTab(index)
        self.workspaces.remove(workspace)
        workspace.deleteLater()

    def save_layouts(self) -> None:
        for workspace in self.workspaces:
            workspace.save_layout()

    # --- starting -----------------------------------------------------------------------------

    def ask_new_encounter(self) -> StartEncounterDialog | None:
        """Opens the New Encounter dialog (non-modal)."""
        if self.window.campaign is None:
            self.window.statusBar().showMessage("Open a campaign first.", 4000)
            return None
        number = len(self.open_menu.actions()) + 1
        from desktop.encounter.start_dialog import StartEncounterDialog  # on first use

        dialog = StartEncounterDialog(self.window.entries, self.window.templates,
                                      f"Encounter {number}", self.window)
        dialog.accepted.connect(lambda: self._on_start_accepted(dialog))
        dialog.open()
        self.dialog = dialog
        return dialog

    def _on_start_accepted(self, dialog: StartEncounterDialog) -> None:
        plan = dialog.plan()
        if plan is not None:
            self.start(plan)

    def start(self, plan: EncounterPlan) -> EncounterWorkspace | None:
        """Starts an encounter: its configuration and each combatant are saved commands."""
        campaign = self.window.campaign
        if campaign is None:
            return None
        try:
            session = EncounterSession.start(self.window.store, campaign.id, plan.name,
                                             plan.system, plan.options, plan.seed)
            for combatant in plan.combatants:
                session.execute(add_combatant(combatant))
        except (StoreError, ValueError) as exc:
            self.window._report(exc)
            return None
        workspace = self._add_tab(session)
        self.window.tabs.setCurrentWidget(workspace)
        self.campaign_list_changed()
        return workspace

    def campaign_list_changed(self) -> list[EncounterInfo]:
        """Re-lists the campaign's encounters in the menu (without reopening any)."""
        campaign = self.window.campaign
        if campaign is None:
            return []
        try:
            encounters = self.window.store.encounters(campaign.id)
        except StoreError as exc:
            self.window.statusBar().showMessage(str(exc), 10000)
            return []
        self.open_menu.clear()
        for info in encounters:
            label = f"{info.name} ({info.system}{', ended' if info.status == 'ended' else ''})"
            action = self.open_menu.addAction(label)
            action.triggered.connect(lambda _=False, i=info: self.open_encounter(i))
        self.open_menu.setEnabled(bool(encounters))
        return encounters

    # --- ending, printing, help ---------------------------------------------------------------

    def end_current(self) -> bool:
        """Ends the encounter shown: the roster changes are proposed, then it is marked ended."""
        workspace = self.current()
        if workspace is None:
            return False
        name = workspace.session.info.name
        answer = QMessageBox.question(
            self.window, "End encounter",
            plain(f"End {name}? Its results will be offered for the roster; the encounter "
                  "stays readable in Encounter › Open Encounter."),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
        if answer != QMessageBox.StandardButton.Yes:
            return False
        state, spells = self._end_state(workspace)
        try:
            self.window.store.end_encounter(workspace.session.info.id)
        except StoreError as exc:
            self.window._report(exc)
            return False
        self.close_workspace(workspace)
        self.campaign_list_changed()
        self.dialog = self.window.roster_actions.review_results(state, name, spells)
        return True

    @staticmethod
    def _end_state(
        workspace: EncounterWorkspace,
    ) -> tuple[EncounterState, dict[str, list[str]]]:
        """Gets the state with the engine's end HP and status, and the spells each one spent."""
        state = workspace.controller.state
        resolution = workspace.controller.resolution
        if resolution is None:
            return state, {}
        spent: dict[str, list[str]] = {}
        for step in resolution.steps:
            spell = step.detail.get("spell")
            if spell and step.event in (StepEvent.SPELL_TAKES_EFFECT, StepEvent.SPELL_DISRUPTED):
                spent.setdefault(step.actor, []).append(str(spell))
        combatants = {
            cid: replace(c, hp=resolution.combatants[cid].hp,
                         status=resolution.combatants[cid].status)
            if cid in resolution.combatants else c
            for cid, c in state.combatants.items()
        }
        return replace(state, combatants=frozen_mapping(combatants)), spent

    def summary_html(self, workspace: EncounterWorkspace) -> str | None:
        state = workspace.controller.state
        resolution = workspace.controller.resolution
        if resolution is None:
            return None
        from core.summary import SummaryError, build_summary  # only when a summary is asked for
        from core.summary_html import render_html

        try:
            scenario = parse_scenario(scenario_document(state))
            return render_html(build_summary(scenario, resolution))
        except (ScenarioError, SummaryError) as exc:
            self.window.statusBar().showMessage(f"No summary yet: {exc}", 8000)
            return None

    def print_current(self) -> None:
        """Opens the print preview of the shown encounter's summary (Ctrl+P)."""
        workspace = self.current()
        html = self.summary_html(workspace) if workspace is not None else None
        if html is not None:
            from desktop import printing  # QtPrintSupport loads when the DM first prints

            printing.show_print_preview(html, self.window)

    def help_current(self) -> HelpWindow:
        """Opens the help (F1): at the current phase of an encounter, else at the roster page."""
        from desktop.encounter.help_browser import ROSTER_PAGE, HelpWindow  # on first use

        if self.help_window is None:
            self.help_window = HelpWindow(self.window)
        self.help_window.show()  # first, so that the page is laid out when it scrolls
        self.help_window.raise_()
        workspace = self.current()
        if workspace is not None:
            self.help_window.show_phase(workspace.controller.system_id,
                                        workspace.stepper.current_phase())
        else:
            self.help_window.open_page(ROSTER_PAGE)
        self.dialog = self.help_window
        return self.help_window
