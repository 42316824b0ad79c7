"""The encounter workspace's panels: the board in the middle, the rest as dock widgets.

Each encounter tab holds its own QMainWindow (a plain child widget, not a window) so its docks
belong to its fight: the roster tab keeps the main window's entry form, and two fights open in
two tabs keep their own panels. One arrangement is remembered for every encounter tab
(QMainWindow.saveState in the settings), so the DM arranges once and each fight opens that way;
View › Reset Layout puts back the arrangement made for a 1280×720 laptop.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QByteArray, QSettings, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QDockWidget, QMainWindow, QTabWidget, QWidget

DOCKS_KEY = "encounter/docks"
"""The settings key of the arrangement (QMainWindow.saveState) shared by every fight."""
STATE_VERSION = 24
"""Bumped when the docks change: an older saved arrangement is then ignored."""


@dataclass(frozen=True, slots=True)
class Panel:
    """One dock: its object name (the saved state's key), title and where it starts."""

    name: str
    title: str


PANELS = (
    Panel("combatantsDock", "Combatants"),
    Panel("procedureDock", "Procedure"),
    Panel("resolutionDock", "Resolution list"),
    Panel("timelineDock", "Timeline"),
    Panel("statusDock", "Status"),
    Panel("outcomeDock", "Outcome"),
)


PANEL_FOR_PHASE = {
    # dice and checks the stepper asks for
    "addict.phase-1": "procedureDock", "addict.phase-2": "procedureDock",
    "addict.phase-4": "procedureDock", "addict.phase-7": "procedureDock",
    "surprise": "procedureDock", "initiative": "procedureDock",
    "roll-initiative": "procedureDock", "encounter": "procedureDock",
    # declarations and turns: the cards and their form
    "addict.phase-6": "combatantsDock", "declare": "combatantsDock",
    "take-action": "combatantsDock", "pass-action": "combatantsDock",
}
"""The panel a phase works in: when play enters the phase, that panel comes forward if it
shares its place with another as tabs (the default puts the procedure beside the cards)."""
DICE_PHASES = frozenset({"surprise", "initiative", "roll-initiative", "encounter"})
"""Phases whose procedure is the dice: it comes forward only while a die is awaited (side-d6's
surprise segments are the "surprise" phase too, declared on the cards)."""


class WorkspacePanels(QMainWindow):
    """The board as central widget and the workspace's docks around it."""

    def __init__(self, board: QWidget, widgets: dict[str, QWidget],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowFlags(Qt.WindowType.Widget)  # a part of the tab, never a window
        self.setObjectName("workspacePanels")
        self.setDockOptions(QMainWindow.DockOption.AnimatedDocks
                            | QMainWindow.DockOption.AllowNestedDocks
                            | QMainWindow.DockOption.AllowTabbedDocks)
        self.setTabPosition(Qt.DockWidgetArea.AllDockWidgetAreas,
                            QTabWidget.TabPosition.North)
        # The side columns run from top to bottom: a panel put under the board leaves them.
        self.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        self.setCorner(Qt.Corner.TopRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        self.setCorner(Qt.Corner.TopLeftCorner, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.board = board
        self.setCentralWidget(board)
        self.docks: dict[str, QDockWidget] = {}
        for panel in PANELS:
            dock = QDockWidget(panel.title, self)
            dock.setObjectName(panel.name)
            dock.setWidget(widgets[panel.name])
            dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                             | QDockWidget.DockWidgetFeature.DockWidgetFloatable
                             | QDockWidget.DockWidgetFeature.DockWidgetClosable)
            self.docks[panel.name] = dock
        self.arrange_default()
        # F6 / Shift+F6 walk the keyboard focus through the board and the panels shown.
        for keys, step in (("F6", 1), ("Shift+F6", -1)):
            shortcut = QShortcut(QKeySequence(keys), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(lambda s=step: self.focus_next_panel(s))

    def arrange_default(self) -> None:
        """Puts the docks where a 1280×720 laptop shows what each phase needs: on the left
        the combatants with their form, and the procedure (phases, dice) as a tab beside them;
        on the right the resolution list, timeline and status as tabs, the outcome below;
        the board keeps the whole height of the middle for its lanes."""
        for dock in self.docks.values():
            self.removeDockWidget(dock)
        area = Qt.DockWidgetArea
        docks = self.docks
        self.addDockWidget(area.LeftDockWidgetArea, docks["combatantsDock"])
        self.tabifyDockWidget(docks["combatantsDock"], docks["procedureDock"])
        self.addDockWidget(area.RightDockWidgetArea, docks["resolutionDock"])
        self.addDockWidget(area.RightDockWidgetArea, docks["outcomeDock"],
                           Qt.Orientation.Vertical)
        self.tabifyDockWidget(docks["resolutionDock"], docks["timelineDock"])
        self.tabifyDockWidget(docks["timelineDock"], docks["statusDock"])
        for dock in docks.values():
            dock.setFloating(False)
            dock.show()
        docks["resolutionDock"].raise_()
        docks["combatantsDock"].raise_()
        self.resizeDocks([docks["combatantsDock"], docks["resolutionDock"]], [280, 430],
                         Qt.Orientation.Horizontal)
        self.resizeDocks([docks["resolutionDock"], docks["outcomeDock"]], [400, 200],
                         Qt.Orientation.Vertical)

    def tabbed_together(self, one: str, other: str) -> bool:
        """Tells whether two panels share one place as tabs (only one shows at a time)."""
        return self.docks[other] in self.tabifiedDockWidgets(self.docks[one])

    def bring_forward(self, name: str) -> None:
        """Raises a panel that shares its place with others as tabs (nothing else moves)."""
        dock = self.docks[name]
        if dock.isVisible() and self.tabifiedDockWidgets(dock):
            dock.raise_()

    def show_panel(self, name: str, visible: bool = True) -> None:
        """Shows (raised, with the keyboard focus) or hides one panel."""
        dock = self.docks[name]
        dock.setVisible(visible)
        if visible:
            dock.raise_()
            widget = dock.widget()
            if widget is not None:
                widget.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def focus_next_panel(self, step: int = 1) -> QWidget | None:
        """Moves the keyboard focus to the next panel shown (the board counts as one)."""
        shown = [self.board, *(d.widget() for d in self.docks.values()
                               if d.isVisible() and not d.visibleRegion().isEmpty())]
        focus = self.focusWidget()
        here = next((i for i, w in enumerate(shown)
                     if focus is not None and (w is focus or w.isAncestorOf(focus))), -1)
        target = shown[(here + step) % len(shown)]
        takers = [w for w in (target, *target.findChildren(QWidget))
                  if w.isVisible() and w.isEnabled()
                  and w.focusPolicy() & Qt.FocusPolicy.TabFocus]
        if takers:
            takers[0].setFocus(Qt.FocusReason.TabFocusReason)
        return target

    def save(self, settings: QSettings) -> None:
        settings.setValue(DOCKS_KEY, self.saveState(STATE_VERSION))

    def restore(self, settings: QSettings) -> bool:
        """Puts back the DM's own arrangement, if one was saved (False: the default stays)."""
        value = settings.value(DOCKS_KEY)
        if not isinstance(value, QByteArray):
            return False
        return bool(self.restoreState(value, STATE_VERSION))
