"""The View menu's Players' Screen actions, and the screen following the DM's fight.

The players' window follows the fight the DM has in front (the last one shown while the DM is
on the roster), and names the campaign when no fight is open. It is redrawn from the same
state the DM's workspace has just shown, in the same event — no second read of the store —
and only while it is open. A watching Combat Desk (another one plays the fight) follows the
same way, so a second computer at the table can be the players' screen.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QPoint, QRect, QSize
from PySide6.QtGui import QAction, QActionGroup, QGuiApplication, QKeySequence, QScreen
from PySide6.QtWidgets import QMenu

from core.fight.log import hide_from_players
from desktop.players.host import PlayersHost
from desktop.screens import screen_of

if TYPE_CHECKING:
    from core.printout.players import PlayersView
    from desktop.encounter.workspace import EncounterWorkspace
    from desktop.players.hide_dialog import HideDialog
    from desktop.players.window import PlayersWindow

# The window and the players' view are imported when the players' screen first opens: the
# window brings pyqtgraph, which the main window's first frame does not wait for.

SCREEN_KEY = "players/screen"
SHOW_HP_KEY = "players/show_party_hp"


def screen_words(screen: QScreen, number: int, own: bool) -> str:
    """Gets ``2: HDMI-1, 1920×1080`` (``— this window's`` for the DM's own screen)."""
    size = screen.geometry()
    name = screen.name() or screen.model() or "screen"
    mine = " — this window's" if own else ""
    return f"&{number}: {name}, {size.width()}×{size.height()}{mine}".replace("&&", "&")


class PlayersActions(QObject):
    """Opens the players' screen where the DM wants it and keeps it on the current fight."""

    def __init__(self, host: PlayersHost) -> None:
        super().__init__(host.window())
        self.host = host
        self.widget = host.window()
        self.players_window: PlayersWindow | None = None
        self.dialog: HideDialog | None = None  # the last one opened (tests reach it)
        self.workspace: EncounterWorkspace | None = None
        """The fight the players' screen follows (None: none is open)."""
        settings = host.settings
        self.show_action = self._action(
            "&Players' Screen", "Ctrl+Alt+P",
            "Open a window for the players (on a second monitor or TV): the fight as they "
            "may know it", checkable=True)
        self.show_action.toggled.connect(self._on_show_toggled)
        self.full_action = self._action(
            "Players' Screen &Full Screen", "F11",
            "Show the players' screen full screen on the screen it is on (Esc or F11 in it "
            "comes back)", checkable=True)
        self.full_action.toggled.connect(self._on_full_toggled)
        self.hp_action = self._action(
            "Show the Party's &HP", None,
            "Let the players' screen show the PCs' hit points (never a monster's)",
            checkable=True)
        self.hp_action.setChecked(str(settings.value(SHOW_HP_KEY, "false")) == "true")
        self.hp_action.toggled.connect(self._on_hp_toggled)
        self.freeze_action = self._action(
            "&Freeze Players' Screen", "Ctrl+Alt+F",
            "Keep the players' screen as it is while you set up (a new fight, an ambush); "
            "untick to show play again", checkable=True)
        self.freeze_action.toggled.connect(lambda _on: self.refresh())
        self.hide_action = self._action(
            "&Hide From the Players…", "Ctrl+Alt+H",
            "Choose the creatures the players have not seen yet (one step Ctrl+Z takes back)")
        self.hide_action.triggered.connect(lambda _checked=False: self.ask_hidden())
        self.screen_menu = QMenu("Players' Screen &On", self.widget)
        self.screen_menu.setObjectName("playersScreenMenu")
        self.screen_menu.aboutToShow.connect(self.fill_screen_menu)
        self.screen_group = QActionGroup(self)
        self.screen_group.setExclusive(True)
        host.tabs.currentChanged.connect(lambda _index: self.follow())
        self.update_enabled()

    def _action(self, text: str, key: str | None, tip: str, checkable: bool = False) -> QAction:
        action = QAction(text, self.widget)
        if key:
            action.setShortcut(QKeySequence(key))
        action.setStatusTip(tip)
        action.setToolTip(tip)
        action.setCheckable(checkable)
        return action

    def fill_menu(self, menu: QMenu) -> None:
        """Adds the players' screen's actions to ``menu``, together under their own heading."""
        menu.addSection("Players' Screen")
        menu.addAction(self.show_action)
        menu.addMenu(self.screen_menu)
        menu.addAction(self.full_action)
        menu.addAction(self.hp_action)
        menu.addAction(self.freeze_action)
        menu.addAction(self.hide_action)

    # --- which fight ----------------------------------------------------------------------------

    def _pick(self) -> EncounterWorkspace | None:
        fights = self.host.encounter_actions
        current = fights.current()
        if current is not None:
            return current
        open_now = list(fights.workspaces)
        if self.workspace is not None and self.workspace in open_now:
            return self.workspace  # the DM went to the roster: the table keeps the fight
        return open_now[-1] if open_now else None

    def follow(self) -> None:
        """Follows the fight the DM has in front (after a tab, campaign or fight change)."""
        chosen = self._pick()
        if chosen is not self.workspace:
            if self.workspace is not None:
                with contextlib.suppress(RuntimeError, TypeError):  # it may be gone already
                    self.workspace.controller.resolved.disconnect(self._on_changed)
                    self.workspace.destroyed.disconnect(self._on_workspace_gone)
            self.workspace = chosen
            if chosen is not None:
                # Before the DM's window redraws (``resolved`` comes before ``changed``), and
                # painted at once: the table sees the command first, the DM a moment later.
                chosen.controller.resolved.connect(self._on_changed)
                chosen.destroyed.connect(self._on_workspace_gone)
        self.update_enabled()
        self.refresh()

    def _on_changed(self) -> None:
        self.update_enabled()  # the fight may have ended, or another window taken it over
        self.refresh(paint=True)

    def _on_workspace_gone(self, *_args: object) -> None:
        self.workspace = None  # its tab was closed and deleted: nothing left to disconnect
        with contextlib.suppress(RuntimeError):  # the main window itself is going
            self.follow()

    def view(self) -> PlayersView:
        """Gets what the players' screen shows now."""
        from core.printout.players import campaign_view, players_view

        workspace = self.workspace
        if workspace is None:
            campaign = self.host.campaign
            return campaign_view(campaign.name if campaign is not None else "Combat Desk")
        controller = workspace.controller
        return players_view(controller.state, controller.known_resolution(),
                            heading=workspace.session.info.name,
                            show_party_hp=self.hp_action.isChecked())

    def refresh(self, paint: bool = False) -> None:
        """Redraws the players' screen (only when it is open and not frozen); ``paint``: on
        the screen now, not when the DM's window is done."""
        window = self.players_window
        if window is None or not window.isVisible() or self.freeze_action.isChecked():
            return
        view = self.view()
        if view == window.view:
            return  # a command the players see nothing of (a declaration, a die): no redraw
        window.show_view(view)
        if paint:
            window.paint_now()

    def update_enabled(self) -> None:
        """Hide From the Players works on the fight in front, if this window plays it."""
        shown = self.host.encounter_actions.current()
        self.hide_action.setEnabled(shown is not None and not shown.session.ended
                                    and not shown.session.watching)

    # --- the window and its screen --------------------------------------------------------------

    def open(self) -> PlayersWindow:
        """Opens the players' screen: full screen on the chosen (or another) monitor, else as
        a window beside this one."""
        if self.players_window is None:
            from desktop.players.window import PlayersWindow

            self.players_window = PlayersWindow()
            self.players_window.closed.connect(self._on_window_closed)
            self.players_window.full_screen_changed.connect(self._on_full_screen_changed)
        window = self.players_window
        self.place(self.chosen_screen())
        self.follow()
        window.show_view(self.view())
        if not self.show_action.isChecked():
            self.show_action.setChecked(True)
        return window

    def close(self) -> None:
        """Closes the players' screen (the DM's menu, or the main window closing)."""
        if self.players_window is not None and self.players_window.isVisible():
            self.players_window.close()
        self.show_action.setChecked(False)

    def _on_show_toggled(self, on: bool) -> None:
        if on and (self.players_window is None or not self.players_window.isVisible()):
            self.open()
        elif not on:
            self.close()

    def _on_window_closed(self) -> None:
        self.show_action.setChecked(False)
        self.full_action.setChecked(False)

    def _on_full_toggled(self, on: bool) -> None:
        window = self.players_window
        if on and (window is None or not window.isVisible()):
            window = self.open()
        if window is not None and window.isFullScreen() != on:
            window.set_full_screen(on)

    def _on_full_screen_changed(self, full: bool) -> None:
        if self.full_action.isChecked() != full:
            self.full_action.setChecked(full)
        if not full:
            self.widget.activateWindow()  # Esc on a single screen: back to the DM's window

    def own_screen(self) -> QScreen | None:
        return screen_of(self.widget)

    def chosen_screen(self) -> QScreen | None:
        """Gets the screen the DM chose last time if it is still there, else another screen
        than this window's, else this window's."""
        screens = QGuiApplication.screens()
        saved = str(self.host.settings.value(SCREEN_KEY, "") or "")
        found = next((s for s in screens if s.name() == saved), None) if saved else None
        if found is not None:
            return found
        own = self.own_screen()
        return next((s for s in screens if s is not own), own)

    def place(self, screen: QScreen | None) -> None:
        """Puts the players' window on ``screen``: full screen when it is another screen than
        the DM's; a window over part of the DM's own screen otherwise."""
        window = self.players_window
        if window is None or screen is None:
            return
        room = screen.availableGeometry()
        if window.isFullScreen():
            window.set_full_screen(False)  # first: leaving it puts the window back where it was
        window.setScreen(screen)
        window.placed_on = screen.name()
        # A window in the middle of that screen: where Esc brings a full screen back to.
        size = QSize(min(1280, room.width() * 3 // 4), min(720, room.height() * 3 // 4))
        window.setGeometry(QRect(room.center() - QPoint(size.width(), size.height()) / 2,
                                 size))
        window.show()
        if screen is not self.own_screen():
            window.set_full_screen(True)
        window.raise_()

    def fill_screen_menu(self) -> None:
        """Lists the screens Qt knows now (a TV plugged in since shows up)."""
        self.screen_menu.clear()
        for action in self.screen_group.actions():
            self.screen_group.removeAction(action)
        own, chosen = self.own_screen(), self.chosen_screen()
        for number, screen in enumerate(QGuiApplication.screens(), start=1):
            action = QAction(screen_words(screen, number, screen is own), self.screen_group)
            action.setCheckable(True)
            action.setChecked(screen is chosen)
            action.setStatusTip("Full screen there" if screen is not own
                                else "A window on this screen (F11: full screen)")
            action.triggered.connect(lambda _checked=False, s=screen: self.choose_screen(s))
            self.screen_menu.addAction(action)

    def choose_screen(self, screen: QScreen) -> None:
        """Shows the players' screen on ``screen`` from now on (remembered for next time)."""
        self.host.settings.setValue(SCREEN_KEY, screen.name())
        if self.players_window is None or not self.players_window.isVisible():
            self.open()
        else:
            self.place(screen)

    # --- what it may show -----------------------------------------------------------------------

    def _on_hp_toggled(self, on: bool) -> None:
        self.host.settings.setValue(SHOW_HP_KEY, "true" if on else "false")
        self.refresh()

    def ask_hidden(self) -> HideDialog | None:
        """Opens Hide From the Players for the fight shown (non-modal; OK saves)."""
        from desktop.players.hide_dialog import HideDialog

        workspace = self.host.encounter_actions.current()
        if workspace is None or workspace.session.ended or workspace.session.watching:
            self.host.statusBar().showMessage(
                "Show a fight you play to choose who the players do not see.", 5000)
            return None
        state = workspace.controller.state
        dialog = HideDialog(workspace.session.info.name, state.combatants.values(),
                            state.hidden, self.widget)
        dialog.accepted.connect(lambda: self.apply_hidden(workspace, *dialog.changes()))
        dialog.open()
        self.dialog = dialog
        return dialog

    def apply_hidden(self, workspace: EncounterWorkspace, hide: list[str],
                     reveal: list[str]) -> bool:
        """Saves who is hidden and who revealed as one step Ctrl+Z takes back."""
        commands = [hide_from_players(ids, flag) for ids, flag in ((hide, True),
                                                                    (reveal, False)) if ids]
        if not commands:
            return False
        controller = workspace.controller
        if len(commands) == 1:
            return controller.run(commands[0])
        texts = [controller.command_text(c) for c in commands]
        controller.stack.beginMacro("; ".join(texts))
        try:
            return all(controller.run(c) for c in commands)
        finally:
            controller.stack.endMacro()
