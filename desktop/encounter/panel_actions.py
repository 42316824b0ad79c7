"""View › Workspace Panels: show, hide and go to each panel of the encounter shown; Reset Layout.

The actions belong to the main window and act on the encounter tab in front (each tab has its
own docks, desktop/encounter/panels.py); on the roster tab they are off.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QTabWidget, QWidget

from desktop.encounter.panels import PANELS

if TYPE_CHECKING:
    from desktop.encounter.workspace import EncounterWorkspace


class _Fights(Protocol):
    def current(self) -> EncounterWorkspace | None: ...


class PanelsHost(Protocol):
    """The main window as these actions use it."""

    @property
    def tabs(self) -> QTabWidget: ...

    @property
    def encounter_actions(self) -> _Fights: ...

    def focusWidget(self) -> QWidget | None: ...

RESET_TIP = "Put every panel of the encounter back where it starts (made for a 1280×720 screen)"


class PanelActions(QObject):
    """One checkable action per panel (Alt+1…), and Reset Layout."""

    def __init__(self, window: PanelsHost, parent: QWidget) -> None:
        super().__init__(parent)
        self.window = window
        self.actions: dict[str, QAction] = {}
        for number, panel in enumerate(PANELS, start=1):
            action = QAction(panel.title, parent)
            action.setObjectName(f"show-{panel.name}")
            action.setCheckable(True)
            action.setShortcut(QKeySequence(f"Alt+{number}"))
            action.setStatusTip(f"Show the {panel.title.lower()} panel and go to it (Alt+{number}"
                                " again in it hides it)")
            action.triggered.connect(lambda _checked=False, n=panel.name: self.go_to(n))
            self.actions[panel.name] = action
        self.reset_action = QAction("&Reset Layout", parent)
        self.reset_action.setObjectName("resetLayout")
        self.reset_action.setStatusTip(RESET_TIP)
        self.reset_action.triggered.connect(self.reset)
        window.tabs.currentChanged.connect(lambda _index: self.update())
        self.update()

    def fill_menu(self, menu: QMenu) -> None:
        """Adds the panels' section to the View menu."""
        menu.addSection("Workspace Panels")
        for action in self.actions.values():
            menu.addAction(action)
        menu.addAction(self.reset_action)
        menu.aboutToShow.connect(self.update)

    def update(self) -> None:
        """Ticks the panels shown in the encounter in front; all off on the roster tab."""
        workspace = self.window.encounter_actions.current()
        for name, action in self.actions.items():
            action.setEnabled(workspace is not None)
            action.setChecked(workspace is not None
                              and not workspace.panels.docks[name].isHidden())
        self.reset_action.setEnabled(workspace is not None)

    def go_to(self, name: str) -> None:
        """Shows the panel and moves the keyboard to it; in it already, hides it."""
        workspace = self.window.encounter_actions.current()
        if workspace is None:
            return
        dock = workspace.panels.docks[name]
        focus = self.window.focusWidget()
        inside = focus is not None and dock.isAncestorOf(focus)
        workspace.panels.show_panel(name, visible=dock.isHidden() or not inside)
        self.update()

    def reset(self) -> None:
        workspace = self.window.encounter_actions.current()
        if workspace is not None:
            workspace.reset_layout()
        self.update()
