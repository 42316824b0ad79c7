"""The Encounter menu: start, reopen, end, print and explain encounters in the main window.

Each open encounter is a tab with its own undo stack; the window's QUndoGroup makes Ctrl+Z act
on the roster or on the encounter shown.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence, QPainter, QPaintEvent
from PySide6.QtWidgets import QMenu, QMessageBox, QWidget

from core.fight.encounter import arriving, scenario_document
from core.fight.log import EncounterState, add_combatant, hide_from_players
from core.model.scenario import ScenarioError, parse_scenario
from core.model.values import Combatant, StepEvent, frozen_mapping
from core.roster.entries import Campaign, MonsterTemplate
from core.roster.results import ROSTER_ID_KEY
from core.rules import UnknownSystemError, find_system
from desktop.plain_text import plain
from desktop.running_instances import RunningInstances, process_gone

if TYPE_CHECKING:
    from core.play.session import EncounterSession
    from core.printout.rows import Summary
    from core.store import EncounterInfo, LeaseHolder
    from desktop.encounter.help_browser import HelpWindow
    from desktop.encounter.start_dialog import EncounterPlan, StartEncounterDialog
    from desktop.encounter.window import EncounterWindow
    from desktop.encounter.workspace import EncounterWorkspace
    from desktop.printing import PrintChoice

# core.store and core.play are imported where they are used: they bring SQLAlchemy, which the
# main window's first frame does not wait for (desktop/app.py).


LAST_SYSTEM_KEY = "encounter/last_system"
"""The settings key of the system the DM started the last fight in (New Encounter offers it)."""


def open_label(info: EncounterInfo) -> str:
    """Gets an encounter's line in Open Encounter: its name, its system's title, ended or not.

    The ampersand is doubled: a menu would take ``AD&D``'s ``&`` for a shortcut letter.
    """
    try:
        system = find_system(info.system).title
    except UnknownSystemError:
        system = "a system this version does not know"
    label = f"{info.name} — {system}" + (" (ended)" if info.status == "ended" else "")
    return label.replace("&", "&&")


class WaitingTab(QWidget):
    """The tab of an open encounter not read from the store yet (it is, when first shown)."""

    def __init__(self, info: EncounterInfo) -> None:
        super().__init__()
        self.info = info  # no child widgets: hundreds of these are made at start-up

    def paintEvent(self, event: QPaintEvent) -> None:
        """Says what is coming for the instant before the encounter is read."""
        QPainter(self).drawText(self.rect().adjusted(12, 12, -12, -12),
                                Qt.AlignmentFlag.AlignLeft, f"Opening {self.info.name}…")


def _and(names: Sequence[str]) -> str:
    """Gets "A", "A and B" or "A, B and C"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


class EncounterActions:
    """Creates the Encounter menu's actions and manages the encounter tabs."""

    def __init__(self, window: EncounterWindow) -> None:
        self.window = window
        self.widget = window.window()
        """The main window as a widget: the actions, menus and dialogs belong to it."""
        self._identity: tuple[LeaseHolder, RunningInstances] | None = None
        self.workspaces: list[EncounterWorkspace] = []
        self.dialog: QWidget | None = None  # the last non-modal dialog (tests reach it here)
        self.new_action = self._action("&New Encounter…", self.ask_new_encounter,
                                       ["Ctrl+Alt+N"], "Start an encounter from the roster")
        self.end_action = self._action("&End Encounter…", self.end_current, [],
                                       "End the encounter shown; results go back to the roster")
        self.reopen_action = self._action("&Reopen Encounter…", self.reopen_current, [],
                                          "Play on in the ended encounter shown")
        # F5 belongs to File › Reload alone, named after the tab shown (Reload Encounter on an
        # encounter's tab): one key, one menu item (update_enabled).
        self.reload_action = self._action(
            "Re&load Encounter", self.reload_current, [],
            "Read the encounter shown again from the campaign (after another window changed it)")
        self.print_action = self._action("&Print Summary…", self.print_current,
                                         [QKeySequence.StandardKey.Print],
                                         "Print preview of the encounter's summary")
        self.help_action = self._action("&Combat Desk Help", self.help_current,
                                        [QKeySequence.StandardKey.HelpContents],
                                        "Help for the tab shown, at the current phase")
        self.help_window: HelpWindow | None = None
        self.menu = QMenu("E&ncounter", self.widget)
        self.open_menu = QMenu("&Open Encounter", self.widget)
        self._listed: list[EncounterInfo] | None = []
        """The Open Encounter menu's list; None until the menu next opens (read then)."""
        self._count = 0
        self.open_menu.aboutToShow.connect(self._fill_open_menu)
        window.tabs.currentChanged.connect(self._on_tab_changed)
        self.update_enabled()

    @property
    def holder(self) -> LeaseHolder:
        """This window's lease identity: who plays an encounter, in other windows' banners."""
        return self._here()[0]

    @property
    def running(self) -> RunningInstances:
        """The running Combat Desks on this computer; this window's lock file among them."""
        return self._here()[1]

    def _here(self) -> tuple[LeaseHolder, RunningInstances]:
        """Makes the lease identity and its lock file together, when first needed (core.store
        is not imported before the first frame): a lease claimed under the identity always has
        the lock file that tells other apps this one still runs."""
        if self._identity is None:
            from core.store import LeaseHolder

            holder = LeaseHolder.here()
            self._identity = (holder, RunningInstances(holder.instance))
        return self._identity

    def _action(self, text: str, slot: object, keys: Sequence[object], tip: str) -> QAction:
        action = QAction(text, self.widget)
        action.setShortcuts([k if isinstance(k, QKeySequence) else QKeySequence(k)  # type: ignore[arg-type]
                             for k in keys])
        action.setStatusTip(tip)
        action.triggered.connect(lambda _checked=False: slot())  # type: ignore[operator]
        return action

    def fill_menu(self, menu: QMenu) -> None:
        """Adds the Encounter menu's actions to ``menu``."""
        menu.addAction(self.new_action)
        menu.addMenu(self.open_menu)
        menu.addSeparator()
        menu.addAction(self.print_action)
        menu.addAction(self.end_action)
        menu.addAction(self.reopen_action)
        menu.addAction(self.reload_action)

    # --- which encounter is shown -----------------------------------------------------------------

    def current(self) -> EncounterWorkspace | None:
        """Gets the encounter tab shown (None: the roster, or a tab not read yet)."""
        widget = self.window.tabs.currentWidget()
        return next((w for w in self.workspaces if w is widget), None)

    def _on_tab_changed(self, _index: int) -> None:
        waiting = self.window.tabs.currentWidget()
        if isinstance(waiting, WaitingTab):  # first look at this fight: read it now
            self.open_encounter(waiting.info)
            return
        workspace = self.current()
        stack = workspace.controller.stack if workspace is not None else self.window.undo_stack
        self.window.undo_group.setActiveStack(stack)
        # The entry form edits the roster: on an encounter tab its room goes to the board.
        self.window.show_editor_dock(workspace is None)
        self.update_enabled()

    def update_enabled(self) -> None:
        """Switches Print, Reload, End and Reopen on or off for the tab shown."""
        workspace = self.current()
        shown = workspace is not None
        ended = workspace is not None and workspace.session.ended
        watching = workspace is not None and workspace.session.watching
        for action in (self.print_action, self.reload_action):
            action.setEnabled(shown)
        file_reload = getattr(self.window, "reload_action", None)  # None while it is built
        if file_reload is not None:
            file_reload.setText("&Reload Encounter" if shown else "&Reload Campaign")
            file_reload.setStatusTip(
                "Read the encounter shown again from the campaign" if shown
                else "Read the campaign again from the database")
        self.end_action.setEnabled(shown and not ended and not watching)
        self.reopen_action.setEnabled(ended and not watching)

    # --- campaign -----------------------------------------------------------------------------

    def campaign_shown(self, campaign: Campaign, active: list[EncounterInfo] | None = None,
                       count: int | None = None) -> None:
        """Notes the campaign's encounters and reopens the active ones where they stopped
        (``active`` and ``count``: the open encounters and how many there are, as just read).

        Every open encounter gets its tab, but only the newest is read from the store now;
        the others are read when their tab is first shown, so start-up does not grow with
        the number of open fights (bench/bench_many_encounters.py).
        """
        from core.store import StoreError

        for workspace in list(self.workspaces):
            if workspace.session.info.campaign_id != campaign.id:
                self.close_workspace(workspace)
        for waiting in self.window.tabs.findChildren(WaitingTab):
            # removeTab hides the page (QStackedLayout.takeAt), so Qt's queued "show" of a page
            # added moments ago finds it hidden on purpose: orphaned, it never becomes a window
            # (test_a_waiting_tab_taken_away_before_qt_shows_it_never_becomes_a_window).
            self.window.tabs.removeTab(self.window.tabs.indexOf(waiting))
            waiting.setParent(None)
            waiting.deleteLater()
        self.campaign_list_changed(count)
        if active is None:
            try:
                active = self.window.store_call(lambda: self.window.store.encounters.all(
                    campaign.id, with_options=False, status="active"))
            except StoreError as exc:
                self.window.store_failed(exc, "The open encounters were not read")
                return
        for info in active[:-1]:
            self.window.tabs.addTab(WaitingTab(info), f"Encounter: {info.name}")
        if active and self.open_encounter(active[-1], focus=False) is None:
            # Not read now (cancelled or refused): it is read when its tab is first shown.
            self.window.tabs.addTab(WaitingTab(active[-1]), f"Encounter: {active[-1].name}")

    def _take_back_from_ended_app(self, session: EncounterSession) -> bool:
        """Plays on a fight whose lease a Combat Desk on this computer, run by this user, still
        holds although it is no longer running (killed, crashed): no need to wait for its lease
        to run out or to press Take Over. Tells whether it did."""
        lease = session.lease
        if (not session.watching or session.read_only is not None or lease is None
                or lease.holder.host != self.holder.host
                or lease.holder.user != self.holder.user
                or not self._has_ended(lease.holder)):
            return False
        self.window.store_call(lambda: session.claim(take_over=True))  # the same lease: safe
        self.window.statusBar().showMessage(
            f"{session.info.name} was open in a Combat Desk on this computer that is no longer "
            "running; you play it here now.", 10000)
        return True

    def _play_on_if_holder_ended(self, workspace: EncounterWorkspace) -> None:
        """A watching tab's check at each read: the Combat Desk it watched may have been killed
        since the tab opened (at opening, :meth:`_claim` checks the same)."""
        from core.store import StoreError

        try:
            taken = self._take_back_from_ended_app(workspace.session)
        except StoreError:
            return  # the database is busy or away: the next watching read checks again
        if taken:
            workspace.played_here()

    def _has_ended(self, holder: LeaseHolder) -> bool:
        """Tells whether a holder on this computer no longer runs: its lock file is free, or
        the process the lease records (schema 0011) is gone."""
        if self.running.has_ended(holder.instance):
            return True
        return holder.pid is not None and holder.pid != os.getpid() and process_gone(holder.pid)

    def _waiting(self, encounter_id: int) -> WaitingTab | None:
        return next((w for w in self.window.tabs.findChildren(WaitingTab)
                     if w.info.id == encounter_id), None)

    def open_encounter(self, info: EncounterInfo, focus: bool = True) -> EncounterWorkspace | None:
        """Shows an encounter's tab, resuming it from the store at its last command."""
        from core.store import StoreError

        existing = next((w for w in self.workspaces if w.session.info.id == info.id), None)
        if existing is None:
            try:
                session = self.window.store_call(lambda: self._read(info))
                self._claim(session)
            except StoreError as exc:
                self.window.store_failed(exc, f"{info.name} was not opened")
                return None
            except ValueError as exc:
                self.window.report(exc)
                return None
            waiting = self._waiting(info.id)
            at = self.window.tabs.indexOf(waiting) if waiting is not None else None
            existing = self._add_tab(session, at)
            if waiting is not None:
                if self.window.tabs.currentWidget() is waiting:
                    self.window.tabs.setCurrentWidget(existing)  # before its neighbour shows
                self.window.tabs.removeTab(self.window.tabs.indexOf(waiting))  # hides it too
                waiting.setParent(None)  # gone from the tabs now, not at the next event loop
                waiting.deleteLater()
        if focus:
            self.window.tabs.setCurrentWidget(existing)
        return existing

    def _claim(self, session: EncounterSession) -> None:
        """Takes an open encounter's lease for this window, or learns who plays it (then the
        tab only watches); a player's never claims: it watches read-only."""
        session.read_only = self.window.access.reason
        if session.ended or session.read_only is not None:
            return
        self.window.store_call(session.claim)
        self._take_back_from_ended_app(session)

    def _read(self, info: EncounterInfo) -> EncounterSession:
        """Reads an encounter whole from the store, at its last command (reads only)."""
        from core.play.session import EncounterSession

        fresh = self.window.store.encounters.get(info.id)  # the menu's copy may be old
        return EncounterSession.resume(self.window.store, fresh, self.holder)

    def _add_tab(self, session: EncounterSession, at: int | None = None) -> EncounterWorkspace:
        # Imported on first use: the workspace brings pyqtgraph and numpy, which a DM who only
        # edits the roster should not wait for at start-up (bench/bench_startup.py).
        from desktop.encounter.workspace import EncounterWorkspace

        workspace = EncounterWorkspace(session, self.window.settings)
        self.workspaces.append(workspace)
        self.window.undo_group.addStack(workspace.controller.stack)
        if at is None:
            self.window.tabs.addTab(workspace, workspace.title)
        else:
            self.window.tabs.insertTab(at, workspace, workspace.title)
        workspace.controller.completed.connect(
            lambda name: self.window.statusBar().showMessage(f"Saved: {name}", 4000))
        workspace.controller.stepped.connect(
            lambda words: self.window.statusBar().showMessage(words, 4000))
        workspace.reopen_requested.connect(lambda: self.reopen_current(workspace))
        workspace.watching_changed.connect(lambda: self._on_workspace_changed(workspace))
        workspace.watched.connect(lambda: self._play_on_if_holder_ended(workspace))
        workspace.controller.changed.connect(lambda: self._on_workspace_changed(workspace))
        return workspace

    def _on_workspace_changed(self, workspace: EncounterWorkspace) -> None:
        """Keeps the tab's title and the menu in step with an encounter ended or reopened."""
        index = self.window.tabs.indexOf(workspace)
        if index >= 0 and self.window.tabs.tabText(index) != workspace.title:
            self.window.tabs.setTabText(index, workspace.title)
            self.campaign_list_changed()
        if workspace is self.current():
            self.update_enabled()

    def close_workspace(self, workspace: EncounterWorkspace) -> None:
        """Closes a tab (everything is saved already)."""
        workspace.save_layout()
        workspace.let_go()
        self.window.undo_group.removeStack(workspace.controller.stack)
        index = self.window.tabs.indexOf(workspace)
        if index >= 0:
            self.window.tabs.removeTab(index)
        self.workspaces.remove(workspace)
        workspace.deleteLater()

    def save_layouts(self) -> None:
        """Keeps each open tab's layout in the settings (the window closes)."""
        for workspace in self.workspaces:
            workspace.save_layout()

    def release_leases(self) -> None:
        """Lets every encounter this window plays go (the window closes)."""
        if self._identity is not None:
            self._identity[1].close()
        for workspace in self.workspaces:
            workspace.let_go()

    # --- starting -----------------------------------------------------------------------------

    def ask_new_encounter(self) -> StartEncounterDialog | None:
        """Opens the New Encounter dialog (non-modal)."""
        if self.window.campaign is None:
            self.window.statusBar().showMessage("Open a campaign first.", 4000)
            return None
        number = self._count + 1
        from desktop.encounter.start_dialog import StartEncounterDialog  # on first use

        dialog = StartEncounterDialog(self.window.entries, self.window.templates,
                                      f"Encounter {number}", self.widget)
        last = self.window.settings.value(LAST_SYSTEM_KEY)
        if isinstance(last, str) and dialog.system.findData(last) >= 0:
            dialog.set_system(last)  # the system of the DM's last fight, not always the first
        dialog.accepted.connect(lambda: self._on_start_accepted(dialog))
        dialog.open()
        self.dialog = dialog
        return dialog

    def start_with(self, name: str, count: int, hp: str) -> StartEncounterDialog | None:
        """Opens New Encounter with ``count`` of the monster ``name`` in it, HP ``hp`` (as
        rolled or typed when they were stamped)."""
        dialog = self.ask_new_encounter()
        if dialog is not None:
            dialog.set_count(name, count)
            dialog.set_hp(name, hp)
        return dialog

    def open_names(self) -> list[str]:
        """Gets the names of the encounters open in tabs and not ended."""
        return [w.session.info.name for w in self.workspaces if not w.session.ended]

    def add_stamped(self, name: str, template: MonsterTemplate,
                    combatants: Sequence[Combatant]) -> list[Combatant] | None:
        """Adds monsters stamped from ``template`` to the open encounter ``name`` (one undoable
        step), numbered on after those of the template already fighting, and shows its tab;
        gets those added (None: it is no longer open)."""
        workspace = next((w for w in self.workspaces
                          if w.session.info.name == name and not w.session.ended), None)
        if workspace is None:
            return None
        from core.roster.stamping import stamp

        taken = {c.name for c in workspace.controller.state.combatants.values()}
        first = 1
        while any(f"{template.name} {first + i}" in taken for i in range(len(combatants))):
            first += 1  # number on after the ones already fighting
        numbered = stamp(template, len(combatants), [c.hp or 1 for c in combatants],
                         first_number=first)
        numbered = arriving(workspace.controller.state, numbered)
        stack = workspace.controller.stack
        stack.beginMacro(f"Stamp {template.name} ×{len(numbered)}")
        added = [c for c in numbered if workspace.controller.run(add_combatant(c), check=False)]
        stack.endMacro()
        self.window.tabs.setCurrentWidget(workspace)
        return added

    def _on_start_accepted(self, dialog: StartEncounterDialog) -> None:
        plan = dialog.plan()
        if plan is not None:
            self.window.settings.setValue(LAST_SYSTEM_KEY, plan.system)
            self.start(plan)

    def start(self, plan: EncounterPlan) -> EncounterWorkspace | None:
        """Starts an encounter: its configuration and each combatant are saved commands."""
        from core.play.session import EncounterSession
        from core.store import StoreError

        campaign = self.window.campaign
        if campaign is None or not self._fine_to_share(plan):
            return None
        store = self.window.store
        adds = [add_combatant(c) for c in plan.combatants]  # made once: Retry saves the same
        if plan.hidden:  # among the first commands: an ambusher never shows on the players' TV
            adds.append(hide_from_players(plan.hidden))
        try:
            # One transaction: a cancelled or refused start leaves no half-built encounter.
            session = self.window.store_call(lambda: EncounterSession.create(
                store, campaign.id, plan.name, plan.system, plan.options, plan.seed, adds,
                self.holder), f"Saving the new encounter '{plan.name}'")
        except StoreError as exc:
            self.window.store_failed(exc, f"{plan.name} was not started")
            return None
        except ValueError as exc:
            self.window.report(exc)
            return None
        try:
            session.claim()  # nobody else knows it yet; if this fails the next redraw claims
        except StoreError as exc:
            self.window.statusBar().showMessage(str(exc), 10000)
        workspace = self._add_tab(session)
        self.window.tabs.setCurrentWidget(workspace)
        self.campaign_list_changed()
        return workspace

    def _fine_to_share(self, plan: EncounterPlan) -> bool:
        """Warns, naming the other encounters, when an entry already fights in an open one."""
        from core.play.session import encounters_holding
        from core.store import StoreError

        campaign = self.window.campaign
        linked = {c.extra.get(ROSTER_ID_KEY): c.name for c in plan.combatants}
        ids = [i for i in linked if isinstance(i, int)]
        if campaign is None or not ids:
            return True
        try:
            shared = self.window.store_call(
                lambda: encounters_holding(self.window.store, campaign.id, ids))
        except StoreError as exc:
            self.window.store_failed(exc, f"{plan.name} was not started")
            return False
        if not shared:
            return True
        lines = [f"{linked[i]} is also in {_and(names)}, which "
                 f"{'is' if len(names) == 1 else 'are'} still open."
                 for i, names in shared.items()]
        fights = 1 + len({name for names in shared.values() for name in names})
        every = "Both fights" if fights == 2 else f"All {fights} fights"
        answer = QMessageBox.question(
            self.widget, "Already in an open encounter",
            plain("\n".join(lines) + f"\n\n{every} will count: when each one ends, what it "
                  "changed is added to the roster as it is then, and anything changed in "
                  "between is shown to you to choose. Start this encounter anyway?"),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes

    def campaign_list_changed(self, count: int | None = None) -> None:
        """Notes that the campaign's encounters changed: the Open Encounter menu re-reads them
        when it next opens, so a campaign of thousands of fights starts quickly (only their
        count is read now, for the menu's state and a new encounter's name; ``count``: as
        just read)."""
        from core.store import StoreError

        self._listed = None
        campaign = self.window.campaign
        if count is None:
            try:
                count = 0 if campaign is None else self.window.store_call(
                    lambda: self.window.store.encounters.count(campaign.id))
            except StoreError as exc:
                self.window.store_failed(exc, "The Open Encounter menu was not updated")
                count = self._count
        self._count = count
        self.open_menu.setEnabled(self._count > 0)
        self.window.refresh_fighting()  # the roster shows who is in an open fight

    def _fill_open_menu(self) -> None:
        from core.store import StoreError

        if self._listed is not None:
            return
        campaign = self.window.campaign
        self.open_menu.clear()
        try:
            # Headers only: opening one reads it whole (store.encounters.get in open_encounter).
            self._listed = [] if campaign is None else self.window.store_call(
                lambda: self.window.store.encounters.all(campaign.id, with_options=False))
        except StoreError as exc:  # the menu stays empty; it is read again when next opened
            self.window.store_failed(exc, "The Open Encounter menu was not read")
            return
        for info in self._listed:
            action = self.open_menu.addAction(open_label(info))
            action.triggered.connect(lambda _=False, i=info: self.open_encounter(i))

    def open_menu_actions(self) -> list[QAction]:
        """Gets the Open Encounter menu's entries (filling it first, as opening it does)."""
        self._fill_open_menu()
        return list(self.open_menu.actions())

    # --- ending, printing, help ---------------------------------------------------------------

    def end_current(self) -> bool:
        """Ends the encounter shown: its roster changes are offered first, and it ends when
        the DM applies them (at once when there are none); Cancel leaves it open."""
        from core.store import StoreError

        workspace = self.current()
        if workspace is None:
            return False
        name = workspace.session.info.name
        answer = QMessageBox.question(
            self.widget, "End encounter",
            plain(f"End {name}? Its results will be offered for the roster; the encounter "
                  "stays readable in Encounter › Open Encounter."),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
        if answer != QMessageBox.StandardButton.Yes:
            return False
        state, spells, lost = self._end_state(workspace)
        baseline = workspace.session.info.results_baseline  # set when it was reopened
        campaign_id = workspace.session.info.campaign_id
        try:
            # The roster the results are offered against, as the database holds it now.
            roster = self.window.store_call(lambda: self.window.store.roster.entries(campaign_id))
        except StoreError as exc:
            self.window.store_failed(exc, f"{name} was not ended")
            return False

        def end() -> bool:
            """Ends the fight (once: Apply again after a failed write finds it ended)."""
            if workspace.session.ended:
                return True
            try:
                self.window.store_call(workspace.session.end,  # ending twice is refused
                                       f"Ending '{name}'")
            except StoreError as exc:
                self.window.store_failed(exc, f"{name} was not ended")
                return False
            if workspace in self.workspaces:
                self.close_workspace(workspace)
            self.campaign_list_changed()
            return True

        self.dialog = self.window.roster_actions.review_results(state, name, spells, baseline,
                                                                roster, end, spells_lost=lost)
        return True

    def _logged_defeats(self, campaign_id: int, name: str) -> set[str]:
        """Gets the names of the foes whose defeat the session log holds for encounter
        ``name`` (its results applied, not undone)."""
        from collections import Counter

        lines: Counter[str] = Counter()
        for entry in self.window.store.roster.session_log(campaign_id):
            if entry.summary == f"Results of {name}":
                lines.update(entry.details)
            elif entry.summary == f"Undone: Results of {name}":
                lines.subtract(entry.details)
        out = set()
        for line, count in lines.items():
            if count <= 0 or ": " not in line:
                continue
            head = line.rsplit(": ", 1)[0]
            if head.startswith("Killed "):
                out.add(head.removeprefix("Killed "))
            elif head.startswith("Defeated ") and head.endswith(" (lives)"):
                out.add(head.removeprefix("Defeated ").removesuffix(" (lives)"))
        return out

    def _results_written(self, campaign_id: int, name: str) -> bool:
        """Tells whether the encounter's results are in the roster (applied, not undone)."""
        log = self.window.store.roster.session_log(campaign_id)  # a read: safe to repeat
        applied = sum(e.summary == f"Results of {name}" for e in log)
        return applied > sum(e.summary == f"Undone: Results of {name}" for e in log)

    def reload_current(self) -> EncounterWorkspace | None:
        """Reads the encounter shown again from the store, where another window may have
        played on; its tab stays where it was (this window's undo history starts afresh)."""
        from core.store import StoreError

        workspace = self.current()
        if workspace is None:
            return None
        info = workspace.session.info
        try:
            # Read before the tab goes: a cancelled reload leaves the tab as it was.
            session = self.window.store_call(lambda: self._read(info))
        except StoreError as exc:
            self.window.store_failed(exc, f"{info.name} was not read again")
            return None
        except ValueError as exc:
            self.window.report(exc)
            return None
        at = self.window.tabs.indexOf(workspace)
        self.close_workspace(workspace)  # lets its lease go: the new tab takes it again
        try:
            self._claim(session)
        except StoreError as exc:  # it watches; commands still only follow the log seen
            self.window.statusBar().showMessage(plain(str(exc)), 10000)
        reloaded = self._add_tab(session, at)
        self.window.tabs.setCurrentWidget(reloaded)
        self.window.statusBar().showMessage(
            plain(f"Read {info.name} again from the campaign."), 5000)
        return reloaded

    def reopen_current(self, workspace: EncounterWorkspace | None = None) -> bool:
        """Reopens the ended encounter shown, after saying what happens to its results."""
        from core.store import StoreError

        workspace = workspace or self.current()
        campaign = self.window.campaign
        if workspace is None or campaign is None or not workspace.session.ended:
            return False
        name = workspace.session.info.name
        try:
            roster, applied, defeats = self.window.store_call(lambda: (
                self.window.store.roster.entries(campaign.id), self._results_written(
                    campaign.id, name), self._logged_defeats(campaign.id, name)))
        except StoreError as exc:
            self.window.store_failed(exc, f"{name} was not reopened")
            return False
        what = ("Results already applied to the roster stay; ending it again will offer only "
                "what changes after reopening." if applied else
                "None of its results were written to the roster; ending it again will offer "
                "everything it changed.")
        answer = QMessageBox.question(
            self.widget, "Reopen encounter",
            plain(f"Reopen {name} to play on? {what} Ctrl+Z takes the reopening back."),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
        if answer != QMessageBox.StandardButton.Yes:
            return False
        from core.roster.results import reopen_baseline
        from desktop.encounter.reopen_command import ReopenCommand

        state, spells, _lost = self._end_state(workspace)
        defeated = [cid for cid, c in state.combatants.items()
                    if ROSTER_ID_KEY not in c.extra and c.label in defeats]
        baseline = reopen_baseline(roster, state, spells,
                                   workspace.session.info.results_baseline,
                                   defeated) if applied else None
        command = ReopenCommand(workspace.session, baseline,
                                lambda text: self.window.statusBar().showMessage(text, 10000),
                                self.window.ask_retry)
        workspace.controller.stack.push(command)
        if command.error is not None:
            self.window.statusBar().showMessage(command.error, 10000)
            return False
        self.window.statusBar().showMessage(f"Reopened {name}.", 5000)
        return True

    @staticmethod
    def _end_state(
        workspace: EncounterWorkspace,
    ) -> tuple[EncounterState, dict[str, list[str]], dict[str, list[str]]]:
        """Gets the state with the engine's end HP and status, the spells each one spent (cast
        or lost), and those of them it lost (disrupted)."""
        state = workspace.controller.state
        resolution = workspace.controller.resolution
        if resolution is None:
            return state, {}, {}
        spent: dict[str, list[str]] = {}
        lost: dict[str, list[str]] = {}
        for step in resolution.steps:
            spell = step.detail.get("spell")
            if spell and step.event in (StepEvent.SPELL_TAKES_EFFECT, StepEvent.SPELL_DISRUPTED):
                spent.setdefault(step.actor, []).append(str(spell))
                if step.event == StepEvent.SPELL_DISRUPTED:
                    lost.setdefault(step.actor, []).append(str(spell))
        from core.roster.results import death_saves_left, with_death_saves

        saves = death_saves_left(resolution.steps)  # popcorn: a PC that spent a Death save
        combatants = {
            cid: with_death_saves(replace(c, hp=resolution.combatants[cid].hp,
                                          status=resolution.combatants[cid].status), saves)
            if cid in resolution.combatants else c
            for cid, c in state.combatants.items()
        }
        return replace(state, combatants=frozen_mapping(combatants)), spent, lost

    def summary_html(
        self, workspace: EncounterWorkspace, first: int | None = None,
        last: int | None = None, appendix: bool = True,
    ) -> str | None:
        """Gets the printout of rounds ``first``–``last`` (default: the whole encounter)."""
        from core.printout.html import render_html  # only when a summary is asked for

        summary = self._summary(workspace, first, last)
        return None if summary is None else render_html(summary, appendix)

    def _summary(
        self, workspace: EncounterWorkspace, first: int | None = None, last: int | None = None,
    ) -> Summary | None:
        from core.printout.summary import SummaryError, build_summary
        from core.printout.words import Names

        state = workspace.controller.state
        resolution = workspace.controller.known_resolution()  # no result before its die
        if resolution is None:
            return None
        campaign = self.window.campaign
        info = workspace.session.info
        try:
            scenario = parse_scenario(scenario_document(state))
            return build_summary(
                scenario, resolution, first, last_round=last,
                campaign=campaign.name if campaign is not None else "", encounter=info.name,
                recorded_rolls=[r for i, r in enumerate(state.rolls)
                                if i not in state.replaced_rolls],
                running=info.status != "ended")
        except (ScenarioError, SummaryError) as exc:
            why = Names.from_state(state).text(str(exc))
            self.window.statusBar().showMessage(f"No summary yet: {why}", 8000)
            return None

    def print_current(self, choice: PrintChoice | None = None) -> None:
        """Asks which rounds to print (this one, N–M or all), then opens the preview (Ctrl+P)."""
        workspace = self.current()
        summary = self._summary(workspace) if workspace is not None else None
        if workspace is None or summary is None:
            return
        from desktop import printing  # QtPrintSupport loads when the DM first prints

        if choice is not None:
            self._preview(workspace, choice)
            return
        round_tu = None
        if workspace.controller.system_id == "time-units":  # no rounds: stretches of the clock
            options = workspace.controller.state.config.get("options") or {}
            round_tu = int(options.get("round_tu") or 10)
        dialog = printing.PrintChoiceDialog(summary.round_count, summary.round_count, self.widget,
                                            round_tu)
        dialog.accepted.connect(lambda: self._preview(workspace, dialog.choice()))
        dialog.open()
        self.dialog = dialog

    def _preview(self, workspace: EncounterWorkspace, choice: PrintChoice) -> None:
        from core.model.limits import printout_problem
        from core.printout.html import render_html
        from desktop import printing

        summary = self._summary(workspace, choice.first, choice.last)
        if summary is None:
            return
        problem = printout_problem(summary)
        if problem is not None:  # Qt's page layout would run for minutes and eat the memory
            QMessageBox.information(self.widget, "Print", plain(problem))
            return
        printing.show_print_preview(render_html(summary, choice.appendix), self.widget,
                                    choice.page)

    def help_current(self) -> HelpWindow:
        """Opens the help (F1): at the current phase of an encounter, else at the roster page."""
        from desktop.encounter.help_browser import ROSTER_PAGE, HelpWindow  # on first use

        if self.help_window is None:
            self.help_window = HelpWindow(self.widget)
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
