"""The main window: the campaign's roster and monster templates, and switching campaigns."""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QCloseEvent,
    QKeySequence,
    QUndoGroup,
    QUndoStack,
)
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDockWidget,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QStackedWidget,
    QToolBar,
    QWidget,
)

from core import __version__
from core.roster.entries import Campaign, MonsterTemplate, RosterEntry
from desktop.backup_actions import install_store_actions
from desktop.campaign_access import CampaignAccess
from desktop.dialog_help import HelpShown, use_help_window
from desktop.encounter.actions import EncounterActions
from desktop.encounter.panel_actions import PanelActions
from desktop.encounter.quickref import add_card_menu
from desktop.front_tabs import FrontTabWidget
from desktop.plain_text import plain
from desktop.players.actions import PlayersActions
from desktop.roster.actions import RosterActions
from desktop.roster.commands import (
    EditEntryCommand,
    EditTemplateCommand,
    RemoveEntryCommand,
    RemoveTemplateCommand,
    RosterCommand,
    RosterContext,
)
from desktop.roster.conflict_dialog import Choice, ConflictDialog
from desktop.roster.editor import EntryEditor, RecordEditor
from desktop.roster.panel import RosterPanel
from desktop.roster.template_editor import TemplateEditor
from desktop.screens import screen_of
from desktop.store_retry import asker, is_retryable, with_retry
from desktop.wheel_guard import guard_wheels
from desktop.window_geometry import restore_geometry

if TYPE_CHECKING:
    from core.store import Store, StoreError

# core.store is imported where it is used: it brings SQLAlchemy, and at start-up the window's
# first frame comes before it (desktop/app.py).

LAST_CAMPAIGN_KEY = "campaign/last_id"
_T = TypeVar("_T")


def _help_for_dialog(dialog: QDialog) -> HelpShown:
    from desktop.encounter.help_browser import HelpWindow  # on first F1 (start-up time)

    return HelpWindow(dialog)


class MainWindow(QMainWindow):
    """Shows one campaign of a store; the DM creates and switches campaigns here."""

    def __init__(self, store: Store | None, settings: QSettings,
                 parent: QWidget | None = None) -> None:
        """Builds the window and shows ``store``'s campaigns; with None, :meth:`use_store` is
        called after: at start-up the window's first frame comes before the store is opened."""
        super().__init__(parent)
        use_help_window(_help_for_dialog)  # F1 in any of the app's dialogs opens its help
        self.setObjectName("MainWindow")
        self._store: Store  # set by use_store, before anything the DM does can reach it
        self._settings = settings
        self._campaigns: list[Campaign] = []
        self._leaving_guard = False
        self.campaign: Campaign | None = None
        self.ask_retry = asker(self)
        """Retry / Cancel over this window when the database is busy or does not answer."""

        self.entries: list[RosterEntry] = []
        self.templates: list[MonsterTemplate] = []
        self.ctx: RosterContext | None = None
        self.undo_stack = QUndoStack(self)
        """The shown campaign's roster history (each campaign keeps its own: _use_undo_of)."""
        self._histories: dict[int, tuple[QUndoStack, RosterContext]] = {}
        # One Edit menu for the roster and every encounter tab: the group follows the tab shown.
        self.undo_group = QUndoGroup(self)
        self.undo_group.addStack(self.undo_stack)
        self.undo_group.setActiveStack(self.undo_stack)
        self.roster_panel = RosterPanel()
        self.roster_panel.setObjectName("rosterPanel")
        self.roster_panel.current_changed.connect(self._on_current_item)
        self.tabs = FrontTabWidget()
        self.tabs.addTab(self.roster_panel, "&Roster")
        self.setCentralWidget(self.tabs)
        self.editor = EntryEditor()
        self.editor.save_requested.connect(self._on_save_requested)
        self.template_editor = TemplateEditor()
        self.template_editor.save_requested.connect(self._on_template_save_requested)
        self.editor_stack = QStackedWidget()
        self.editor_stack.addWidget(self.editor)
        self.editor_stack.addWidget(self.template_editor)
        self.conflict_dialog: ConflictDialog | None = None  # the last one shown (tests reach it)
        self.editor_dock = QDockWidget("Entry", self)
        self.editor_dock.setObjectName("editorDock")
        self.editor_dock.setWidget(self.editor_stack)
        self.editor_dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetFloatable
        )
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.editor_dock)
        self.roster_actions = RosterActions(self)
        self.encounter_actions = EncounterActions(self)

        self.campaign_box = QComboBox()
        self.campaign_box.setObjectName("campaignBox")
        self.campaign_box.setMinimumContentsLength(28)
        # As wide as its longest name (40 letters at most): sized once on first show, it cut
        # "The Keep on the Borderlands (sample" at 1280x720.
        self.campaign_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.campaign_box.setToolTip("The campaign shown (Ctrl+1…9 to switch)")
        self.campaign_box.activated.connect(self._on_campaign_chosen)
        self._build_actions()
        install_store_actions(self)

        self.db_label = QLabel()
        self.statusBar().addPermanentWidget(self.db_label)
        self.access = CampaignAccess(self)  # a player's campaign is read-only up front
        self._restore_layout()
        if store is not None:
            self.use_store(store)
        guard_wheels(self)  # a passing wheel changes no field of the roster form

    def use_store(self, store: Store) -> None:
        """Shows the campaigns of ``store``: the one shown last time, else the first."""
        self._store = store
        self.db_label.setText(store.label)
        self.reload_campaigns()
        last = self._settings.value(LAST_CAMPAIGN_KEY)
        chosen = next((c for c in self._campaigns if str(c.id) == str(last)), None)
        if chosen is None and self._campaigns:
            chosen = self._campaigns[0]
        if chosen is not None:
            self.show_campaign(chosen)

    # --- construction --------------------------------------------------------------------------

    def _build_actions(self) -> None:
        self.new_campaign_action = QAction("&New Campaign…", self)
        self.new_campaign_action.setShortcut(QKeySequence.StandardKey.New)
        self.new_campaign_action.setStatusTip("Create an empty campaign and switch to it")
        self.new_campaign_action.triggered.connect(self.ask_new_campaign)
        # F5: the encounter shown, or the campaign; its name follows the tab (EncounterActions).
        self.reload_action = QAction("&Reload Campaign", self)
        self.reload_action.setShortcut(QKeySequence.StandardKey.Refresh)
        self.reload_action.setStatusTip("Read the campaign again from the database")
        self.reload_action.triggered.connect(self.reload_shown)
        quit_action = QAction("&Quit", self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)

        self.undo_action = self.undo_group.createUndoAction(self, "&Undo")
        self.undo_action.setShortcut(QKeySequence.StandardKey.Undo)
        self.redo_action = self.undo_group.createRedoAction(self, "&Redo")
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])

        self.file_menu = self.menuBar().addMenu("&File")
        self.file_menu.addAction(self.new_campaign_action)
        self.file_menu.addAction(self.reload_action)
        self.file_menu.addSeparator()
        self.file_menu.addAction(quit_action)
        self.edit_menu = self.menuBar().addMenu("&Edit")
        self.edit_menu.addAction(self.undo_action)
        self.edit_menu.addAction(self.redo_action)
        self.roster_menu = self.menuBar().addMenu("R&oster")
        self.roster_actions.fill_menu(self.roster_menu)
        self.encounter_menu = self.menuBar().addMenu("E&ncounter")
        self.encounter_actions.fill_menu(self.encounter_menu)
        # The View menu: what the DM's window and the table see (the players' screen has its
        # section; the workspace's panels add theirs).
        self.view_menu = self.menuBar().addMenu("&View")
        self.players = PlayersActions(self)
        self.players.fill_menu(self.view_menu)
        self.panel_actions = PanelActions(self, self)
        self.panel_actions.fill_menu(self.view_menu)
        self.campaign_menu = self.menuBar().addMenu("&Campaign")
        self.campaign_group = QActionGroup(self)
        self.campaign_group.setExclusive(True)
        help_menu = self.menuBar().addMenu("&Help")
        help_menu.addAction(self.encounter_actions.help_action)
        add_card_menu(help_menu, self)
        about = QAction("&About Combat Desk", self)
        about.triggered.connect(self._on_about)
        help_menu.addAction(about)

        toolbar = QToolBar("Campaign")
        toolbar.setObjectName("campaignToolbar")
        toolbar.addWidget(QLabel(" Campaign: "))
        toolbar.addWidget(self.campaign_box)
        toolbar.addAction(self.new_campaign_action)
        toolbar.addSeparator()
        toolbar.addAction(self.roster_actions.new_action)
        toolbar.addAction(self.roster_actions.remove_action)
        toolbar.addAction(self.roster_actions.stamp_action)
        self.addToolBar(toolbar)

    def _restore_layout(self) -> None:
        if not restore_geometry(self, self._settings.value("window/geometry")):
            self._fit_default_size()
        state = self._settings.value("window/state")
        if state is not None:
            self.restoreState(state)
            # The state may hold the form hidden (saved with an encounter tab in front).
            QTimer.singleShot(0, lambda: self.show_editor_dock(
                self.encounter_actions.current() is None))

    def show_editor_dock(self, visible: bool = True) -> None:
        """Shows (or hides) the entry form; shown, it gets at least the width its form needs.

        A dock hidden while an encounter tab was in front came back from a restart squeezed to
        a sliver, its fields cut at the right edge.
        """
        self.editor_dock.setVisible(visible)
        if visible:
            QTimer.singleShot(0, self._widen_editor_dock)

    def _widen_editor_dock(self) -> None:
        needed = self.editor_dock.widget().minimumSizeHint().width()
        if self.editor_dock.isVisible() and self.editor_dock.width() < needed:
            self.resizeDocks([self.editor_dock], [needed], Qt.Orientation.Horizontal)

    def _fit_default_size(self) -> None:
        """Sizes a first window for the roster's columns beside the editor, within the screen.

        A laptop at 1280×720 must see the whole window, buttons at the bottom included.
        """
        width, height = 1240, 760
        screen = screen_of(self)
        if screen is not None:
            room = screen.availableGeometry()
            width, height = min(width, room.width()), min(height, room.height())
            self.move(room.topLeft())
        self.resize(width, height)

    # --- campaigns -----------------------------------------------------------------------------

    def reload_shown(self) -> None:
        """F5 (File › Reload): reads again what the tab shown holds — its encounter, or the
        campaigns. One key for both: two actions on F5 made Qt call neither ("ambiguous")."""
        if self.encounter_actions.current() is not None:
            self.encounter_actions.reload_current()
        else:
            self.reload_campaigns()

    def reload_campaigns(self) -> None:
        """Reads the campaign list (and the shown campaign) again from the store."""
        from core.store import StoreError

        try:
            self._campaigns = self.store_call(self._store.campaigns.all)
        except StoreError as exc:
            self.store_failed(exc, "The campaigns were not read again")
            return
        self._forget_gone_campaigns()
        self.campaign_box.clear()
        for action in self.campaign_group.actions():
            self.campaign_group.removeAction(action)
            self.campaign_menu.removeAction(action)
        for number, campaign in enumerate(self._campaigns, start=1):
            self.campaign_box.addItem(campaign.name, campaign.id)
            action = QAction(campaign.name, self.campaign_group)
            action.setCheckable(True)
            action.setData(campaign.id)
            if number <= 9:
                action.setShortcut(QKeySequence(f"Ctrl+{number}"))
            action.triggered.connect(lambda _=False, c=campaign: self.show_campaign(c))
            self.campaign_menu.addAction(action)
        if self.campaign is not None:
            current = next((c for c in self._campaigns if c.id == self.campaign.id), None)
            if current is not None:
                self.show_campaign(current)

    def show_campaign(self, campaign: Campaign) -> bool:
        """Shows ``campaign``'s roster, templates and encounters and remembers it for the next
        start; False (the campaign shown before still shown) when it cannot be read."""
        from core.store import StoreError

        store = self._store
        try:
            # Everything the switch shows is read first: a refusal leaves no half-switched window.
            roster, templates, active, count, level = self.store_call(lambda: (
                store.roster.entries(campaign.id), store.templates.all(campaign.id),
                store.encounters.all(campaign.id, with_options=False, status="active"),
                store.encounters.count(campaign.id), store.access.level(campaign.id)))
        except StoreError as exc:
            self.store_failed(exc, f"{campaign.name} is not shown")
            self._mark_shown_campaign()  # the box and the menu go back to the one shown
            return False
        if self.campaign is None or self.campaign.id != campaign.id:
            self._use_undo_of(campaign.id)
            self.editor.load(None)
            self.template_editor.load(None)
        self.campaign = campaign
        self._show_values(roster, templates)
        self._mark_shown_campaign()
        self.setWindowTitle(f"{campaign.name} — Combat Desk")
        self.statusBar().showMessage(
            f"{len(roster)} in the roster, {len(templates)} monster templates", 5000
        )
        self._settings.setValue(LAST_CAMPAIGN_KEY, campaign.id)
        self.access.campaign_shown(campaign, level)  # before its encounters: a player watches
        self.encounter_actions.campaign_shown(campaign, active, count)
        self.players.follow()  # the players' screen: this campaign's fight, or its name
        return True

    def _use_undo_of(self, campaign_id: int) -> None:
        """Makes ``campaign_id``'s own undo history (and the versions its commands carry) the
        Edit menu's: a switch to another campaign and back left Ctrl+Z greyed, and a PC the
        dialog promised Ctrl+Z would bring back was gone for good."""
        shown = self.undo_stack
        kept = self._histories.get(campaign_id)
        if kept is not None and kept[1].store is not self._store:
            kept[0].clear()  # written against a database no longer open (a restored backup)
            kept = None
        if kept is None:
            owned = any(stack is shown for stack, _ctx in self._histories.values())
            stack = QUndoStack(self) if owned else shown  # the first campaign takes the first
            stack.clear()
            ctx = RosterContext(
                self._store,
                campaign_id,
                self._on_store_changed,
                self._on_store_failed,
                self._on_template_changed,
            )
            ctx.ask_retry = self.ask_retry
            ctx.stack = stack
            ctx.on_cancelled = lambda exc, command: self.store_failed(
                exc, f"Cancelled: {command.text()}")
            self.undo_group.addStack(stack)
            kept = self._histories[campaign_id] = (stack, ctx)
        self.undo_stack, self.ctx = kept
        if self.undo_group.activeStack() in (shown, None):
            self.undo_group.setActiveStack(self.undo_stack)

    def _forget_gone_campaigns(self) -> None:
        """Drops the histories of campaigns no longer in the store (a new campaign may get a
        removed one's number: it must not inherit its steps)."""
        present = {c.id for c in self._campaigns}
        for campaign_id in [i for i in self._histories if i not in present]:
            stack, _ctx = self._histories.pop(campaign_id)
            if stack is not self.undo_stack:
                self.undo_group.removeStack(stack)
                stack.deleteLater()

    def _mark_shown_campaign(self) -> None:
        """Sets the campaign box and the Campaign menu's check on the campaign shown."""
        shown = self.campaign.id if self.campaign is not None else None
        self.campaign_box.setCurrentIndex(self.campaign_box.findData(shown))
        for action in self.campaign_group.actions():
            action.setChecked(action.data() == shown)

    def create_campaign(self, name: str) -> Campaign | None:
        """Creates a campaign and switches to it; reports a refused name to the DM."""
        from core.store import StoreError

        try:
            campaign = self.store_call(lambda: self._store.campaigns.create(name),
                                       f"Creating the campaign '{name}'")
        except StoreError as exc:
            self.store_failed(exc, f"{name.strip()} was not created")
            return None
        self.reload_campaigns()
        self.show_campaign(campaign)
        return campaign

    def ask_new_campaign(self) -> None:
        """Asks the DM for a name and creates the campaign."""
        name, ok = QInputDialog.getText(self, "New Campaign", "Name of the new campaign:")
        if ok and name.strip():
            self.create_campaign(name)

    def _on_campaign_chosen(self, index: int) -> None:
        campaign_id = self.campaign_box.itemData(index)
        chosen = next((c for c in self._campaigns if c.id == campaign_id), None)
        if chosen is not None:
            self.show_campaign(chosen)

    # --- roster ----------------------------------------------------------------------------------

    @property
    def settings(self) -> QSettings:
        """Gets the settings the window and its encounter tabs keep their layout in."""
        return self._settings

    @property
    def store(self) -> Store:
        """Gets the campaign store this window shows."""
        return self._store

    def _show_values(
        self,
        roster: list[RosterEntry],
        templates: list[MonsterTemplate],
        keep: int | None = None,
        keep_template: int | None = None,
    ) -> None:
        self.entries = roster
        self.templates = templates
        self.roster_panel.set_values(roster, templates, keep, keep_template)
        self.refresh_fighting()
        shown = self.editor.before
        if shown is not None and not self.editor.is_dirty:
            fresh = next((e for e in roster if e.id == shown.id), None)
            self.editor.load(fresh)  # None: it was removed
        shown_template = self.template_editor.before
        if shown_template is not None and not self.template_editor.is_dirty:
            self.template_editor.load(self.template(shown_template.id))

    def refresh_roster(self, keep: int | None = None, keep_template: int | None = None) -> None:
        """Reads the shown campaign's roster and templates again from the store."""
        from core.store import StoreError

        if self.campaign is None:
            return
        store, campaign_id = self._store, self.campaign.id
        try:
            roster, templates = self.store_call(
                lambda: (store.roster.entries(campaign_id), store.templates.all(campaign_id)))
        except StoreError as exc:
            self.store_failed(exc, "The roster was not read again")
            return
        self._show_values(roster, templates, keep, keep_template)

    def refresh_fighting(self) -> None:
        """Reads which roster entries fight in an open encounter (in this window or another)
        and shows it in the roster and the entry form."""
        from core.play.session import encounters_holding
        from core.store import StoreError

        fighting: dict[int, list[str]] = {}
        campaign, store = self.campaign, self._store
        ids = [e.id for e in self.entries if e.id is not None]
        if campaign is not None and ids:
            try:
                fighting = self.store_call(lambda: encounters_holding(store, campaign.id, ids))
            except StoreError:
                fighting = {}  # only a hint: the roster shows as it was read
        self.roster_panel.model.set_fighting(fighting)
        self.editor.set_fighting(fighting)

    def entry(self, entry_id: int | None) -> RosterEntry | None:
        """Gets the roster entry with ``entry_id`` as last read from the store."""
        return next((e for e in self.entries if e.id == entry_id), None)

    def template(self, template_id: int | None) -> MonsterTemplate | None:
        """Gets the monster template with ``template_id`` as last read from the store."""
        return next((t for t in self.templates if t.id == template_id), None)

    def _fresh(self, item: object) -> RosterEntry | MonsterTemplate | None:
        """Gets ``item`` as last read from the store (None if it is gone or not a record)."""
        if isinstance(item, MonsterTemplate):
            return self.template(item.id)
        if isinstance(item, RosterEntry):
            return self.entry(item.id)
        return None

    @property
    def current_editor(self) -> RecordEditor:
        """Gets the form shown in the dock: the entry form or the template form."""
        shown = self.editor_stack.currentWidget()
        return self.template_editor if shown is self.template_editor else self.editor

    def show_in_editor(self, item: object, new: bool = False) -> RecordEditor:
        """Shows ``item`` in its form (entry or template) and brings that form forward."""
        editor: RecordEditor = (
            self.template_editor if isinstance(item, MonsterTemplate) else self.editor
        )
        if item is None and not new:
            editor = self.current_editor  # a group row: the form shown goes blank
        other = self.editor if editor is self.template_editor else self.template_editor
        if not other.is_dirty:
            other.load(None)
        self.editor_stack.setCurrentWidget(editor)
        self.editor_dock.setWindowTitle(
            "Monster template" if editor is self.template_editor else "Entry"
        )
        editor.load(item, new=new)
        return editor

    def reload_after_conflict(self) -> None:
        """Drops the undo history and unsaved edits and shows the database's current roster."""
        self.undo_stack.clear()
        if self.ctx is not None:
            self.ctx.versions.clear()
            self.ctx.template_versions.clear()
        editor = self.current_editor
        shown = editor.before
        self.editor.load(None)
        self.template_editor.load(None)
        self.refresh_roster()
        fresh = self._fresh(shown)
        if fresh is not None:
            self.roster_panel.select_item(fresh)
            self.show_in_editor(fresh)
        self.statusBar().showMessage("Reloaded the roster from the database.", 5000)

    def confirm_unsaved_edits(self) -> bool:
        """Asks what to do with unsaved edits; True when the DM may move on (saved or dropped)."""
        for editor in (self.current_editor, self.editor, self.template_editor):
            if not editor.is_dirty:
                continue
            if isinstance(editor.before, MonsterTemplate):
                name = f"the {editor.before.name} template"
            elif editor.before is not None:
                name = editor.before.name
            else:
                name = "the new template" if editor is self.template_editor else "the new entry"
            answer = QMessageBox.question(
                self,
                "Unsaved changes",
                plain(f"Save your changes to {name}?"),
                QMessageBox.StandardButton.Save
                | QMessageBox.StandardButton.Discard
                | QMessageBox.StandardButton.Cancel,
                QMessageBox.StandardButton.Save,
            )
            if answer == QMessageBox.StandardButton.Save:
                return editor.save()  # False (and the reason shown) while a field is bad
            if answer != QMessageBox.StandardButton.Discard:
                return False
            editor.revert()
            return True
        return True

    @staticmethod
    def same_record(a: object, b: object) -> bool:
        """Tells whether ``a`` and ``b`` are the same entry or template (any version)."""
        return a is not None and type(a) is type(b) and a.id == b.id  # type: ignore[attr-defined]

    def _on_current_item(self, item: object) -> None:
        editor = self.current_editor
        shown = editor.before
        if editor.is_dirty and self.same_record(item, shown):
            return  # a refresh re-selected it: keep the DM's unsaved typing
        if self._leaving_guard:
            return
        if not editor.is_dirty:
            self.show_in_editor(item if isinstance(item, RosterEntry | MonsterTemplate) else None)
            return
        # Asking, saving (which refreshes the model) or re-selecting must not happen inside the
        # view's selection signal: Qt crashes when the selection changes under its own feet.
        QTimer.singleShot(0, lambda: self._leave_dirty_entry(item, shown))

    def _leave_dirty_entry(self, item: object, shown: RosterEntry | MonsterTemplate | None) -> None:
        self._leaving_guard = True  # selections made here must not ask again
        try:
            if not self.confirm_unsaved_edits():
                if shown is not None:
                    self.roster_panel.select_item(shown)
                return
            fresh = self._fresh(item)
            if fresh is not None:
                self.roster_panel.select_item(fresh)
            self.show_in_editor(fresh)
        finally:
            self._leaving_guard = False

    def _on_save_requested(self, before: RosterEntry | None, after: RosterEntry) -> None:
        self.roster_actions.save(before, after)

    def _on_template_save_requested(
        self, before: MonsterTemplate | None, after: MonsterTemplate
    ) -> None:
        self.roster_actions.save_template(before, after)

    def _on_store_changed(self, entry_id: int | None) -> None:
        shown = self.editor.before
        if entry_id is not None and (
            shown is None or shown.id == entry_id or not self.editor.is_dirty
        ):
            self.editor.load(None)  # not dirty any more: the refresh shows the saved values
            self.refresh_roster(keep=entry_id)
            self.show_in_editor(self.entry(entry_id))
        else:
            self.refresh_roster(keep=entry_id)

    def _on_template_changed(self, template_id: int | None) -> None:
        editor = self.template_editor
        shown = editor.before
        if template_id is not None and (
            shown is None or shown.id == template_id or not editor.is_dirty
        ):
            editor.load(None)  # not dirty any more: the refresh shows the saved values
            self.refresh_roster(keep_template=template_id)
            self.show_in_editor(self.template(template_id))
        else:
            self.refresh_roster(keep_template=template_id)

    # --- conflicts with another Combat Desk ------------------------------------------------------

    def _on_store_failed(self, exc: StoreError, command: RosterCommand | None = None) -> None:
        from core.store import ConflictError

        if isinstance(exc, ConflictError):
            attempt = command.attempt if command is not None else None
            if (
                attempt is not None
                and attempt.action in ("save", "remove")
                and exc.saved is not None
                and type(exc.saved) is type(attempt.values)
            ):
                self.statusBar().showMessage(str(exc), 10000)
                self.show_conflict(attempt.values, exc.saved, attempt.action == "remove")
                return
            answer = QMessageBox.question(
                self,
                "Changed elsewhere",
                plain(f"{exc}\n\nReload the roster from the database? Your undo history and "
                      "unsaved changes will be dropped."),
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            )
            self.statusBar().showMessage(str(exc), 10000)
            if answer == QMessageBox.StandardButton.Yes:
                self.reload_after_conflict()
            return
        self.report(exc)

    def show_conflict(
        self,
        mine: RosterEntry | MonsterTemplate,
        theirs: RosterEntry | MonsterTemplate,
        removing: bool = False,
    ) -> ConflictDialog:
        """Opens (window-modal, not blocking) both versions for the DM to choose from."""
        dialog = ConflictDialog(mine, theirs, removing, self)
        dialog.finished.connect(lambda _result: self._on_conflict_chosen(dialog))
        self.conflict_dialog = dialog
        dialog.open()
        return dialog

    def _on_conflict_chosen(self, dialog: ConflictDialog) -> None:
        ctx = self.ctx
        mine, theirs = dialog.mine, dialog.theirs
        what = theirs.name if isinstance(theirs, RosterEntry) else f"the {theirs.name} template"
        if ctx is None:
            return
        if dialog.choice is Choice.CANCEL:
            kept = "" if dialog.removing else "; your edits are still in the form"
            self.statusBar().showMessage(f"Nothing saved for {what}{kept}.", 8000)
            return
        if dialog.choice is Choice.THEIRS:
            self._keep_theirs(theirs)
            dropped = "it was not removed" if dialog.removing else "your change was dropped"
            self.statusBar().showMessage(
                f"Kept the version of {what} saved elsewhere; {dropped}.", 8000
            )
            return
        # Keep mine: a new undoable step, version-checked against theirs (a third save refuses).
        command: RosterCommand
        if isinstance(theirs, RosterEntry) and isinstance(mine, RosterEntry):
            if dialog.removing:
                command = RemoveEntryCommand(ctx, theirs)
            else:
                command = EditEntryCommand(
                    ctx,
                    theirs,
                    replace(mine, version=theirs.version),
                    f"Edit {mine.name} (over the other edit)",
                )
        elif isinstance(theirs, MonsterTemplate) and isinstance(mine, MonsterTemplate):
            if dialog.removing:
                command = RemoveTemplateCommand(ctx, theirs)
            else:
                command = EditTemplateCommand(
                    ctx,
                    theirs,
                    replace(mine, version=theirs.version),
                    f"Edit template {mine.name} (over the other edit)",
                )
        else:
            return
        self.undo_stack.push(command)

    def _keep_theirs(self, theirs: RosterEntry | MonsterTemplate) -> None:
        """Shows the saved version; unsaved edits of that record in the form are dropped."""
        if isinstance(theirs, MonsterTemplate):
            if self.same_record(self.template_editor.before, theirs):
                self.template_editor.load(None)
            self.refresh_roster(keep_template=theirs.id)
        else:
            if self.same_record(self.editor.before, theirs):
                self.editor.load(None)
            self.refresh_roster(keep=theirs.id)
        fresh = self._fresh(theirs)
        if fresh is not None:
            self.roster_panel.select_item(fresh)
            self.show_in_editor(fresh)

    # --- housekeeping --------------------------------------------------------------------------

    def report(self, exc: Exception) -> None:
        """Shows a refusal in a message box (and for a while in the status bar)."""
        self.statusBar().showMessage(str(exc), 10000)
        QMessageBox.warning(self, "Combat Desk", plain(str(exc)))

    def store_call(self, call: Callable[[], _T],
                   what: str = "Reading the campaign from its database",
                   whole_file: bool = False) -> _T:
        """Runs one store call (or one retry-safe group of them); while the database is busy
        or does not answer the DM gets Retry / Cancel. Cancel raises the failure.

        ``what`` is what a slow call's progress message says is being waited for; it promises
        an answer within the store's wait limit unless the call copies the ``whole_file``
        (a backup or restore takes as long as the campaign is large).
        """
        limit = None if whole_file else self._store.wait_limit
        return with_retry(call, self.ask_retry, what, limit)

    def store_failed(self, exc: StoreError, what: str) -> None:
        """Reports a store call that failed; ``what`` says what did not happen.

        After Cancel (a busy or unreachable database: the DM has just read why) it goes to the
        status bar; any other refusal keeps its message box.
        """
        if is_retryable(exc):
            self.statusBar().showMessage(plain(f"{what}: {exc}"), 15000)
        else:
            self.report(exc)

    def _on_about(self) -> None:
        QMessageBox.about(
            self,
            "About Combat Desk",
            f"<b>Combat Desk {__version__}</b><p>Runs old-school combat at the table: "
            "AD&amp;D segment initiative, side d6, popcorn and time units.</p>"
            f"<p>Campaign database: {html.escape(self._store.label)}</p>",
        )

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.confirm_unsaved_edits():
            event.ignore()
            return
        self.encounter_actions.save_layouts()
        self.encounter_actions.release_leases()
        self.players.close()
        self._settings.setValue("window/geometry", self.saveGeometry())
        self._settings.setValue("window/state", self.saveState())
        self._settings.sync()
        super().closeEvent(event)
