"""The workspace's panels (issue 24): View › Workspace Panels shows, hides and goes to each,
Reset Layout puts them back, and the DM's arrangement is remembered for the next run."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from core.store import Store
from desktop.encounter.panels import PANELS
from desktop.main_window import MainWindow
from tests.desktop.encounter.laptop_shots import open_fight


def _window(qtbot: Any, store: Store, settings: QSettings) -> MainWindow:
    window = MainWindow(store, settings)
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    return window


def _view_actions(window: MainWindow) -> dict[str, Any]:
    window.view_menu.aboutToShow.emit()
    return {a.text().replace("&", ""): a for a in window.view_menu.actions()}


def test_view_menu_hides_shows_and_resets_the_panels(
    qtbot: Any, sample_store: Store, settings: QSettings
) -> None:
    window = _window(qtbot, sample_store, settings)
    actions = _view_actions(window)
    for panel in PANELS:
        assert not actions[panel.title].isEnabled()  # the roster tab has no panels
    assert "Players' Screen" in actions  # issue 26's section is still there
    ws = open_fight(window, sample_store, "side-d6")
    actions = _view_actions(window)
    docks = ws.panels.docks
    assert all(actions[p.title].isChecked() for p in PANELS)
    # Alt+3 goes to the resolution list: shown, in front, with the keyboard.
    resolution = actions["Resolution list"]
    assert resolution.shortcut().toString() == "Alt+3"
    ws.panels.show_panel("timelineDock")
    resolution.trigger()
    QApplication.processEvents()
    assert not docks["resolutionDock"].visibleRegion().isEmpty()
    assert ws.steps_view.hasFocus() or window.focusWidget() is ws.steps_view
    # Pressed again in it: hidden; pressed again: back.
    resolution.trigger()
    assert docks["resolutionDock"].isHidden() and not resolution.isChecked()
    resolution.trigger()
    assert not docks["resolutionDock"].isHidden() and resolution.isChecked()
    # The DM moves the outcome and hides the status: Reset Layout puts everything back.
    ws.panels.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, docks["outcomeDock"])
    actions["Status"].trigger()  # behind the list's tab: brought forward, the keys in it
    assert not docks["statusDock"].isHidden()
    actions["Status"].trigger()  # in it already: hidden
    assert docks["statusDock"].isHidden()
    actions["Reset Layout"].trigger()
    QApplication.processEvents()
    assert not docks["statusDock"].isHidden()
    assert ws.panels.dockWidgetArea(docks["outcomeDock"]) == Qt.DockWidgetArea.RightDockWidgetArea
    assert ws.panels.tabbed_together("resolutionDock", "timelineDock")
    assert ws.panels.tabbed_together("combatantsDock", "procedureDock")


def test_the_arrangement_is_remembered_for_the_next_run(
    qtbot: Any, sample_store: Store, settings: QSettings
) -> None:
    window = _window(qtbot, sample_store, settings)
    ws = open_fight(window, sample_store, "addict")
    docks = ws.panels.docks
    ws.panels.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, docks["timelineDock"])
    docks["statusDock"].hide()
    QApplication.processEvents()
    window.close()  # saves every tab's layout
    settings.sync()
    again = _window(qtbot, sample_store, settings)
    action = next(a for a in again.encounter_actions.open_menu_actions()
                  if "Laptop addict" in a.text())
    action.trigger()
    later = again.encounter_actions.current()
    assert later is not None and later is not ws
    QApplication.processEvents()
    docks = later.panels.docks
    assert later.panels.dockWidgetArea(docks["timelineDock"]) == \
        Qt.DockWidgetArea.BottomDockWidgetArea
    assert docks["statusDock"].isHidden()
    # Under the board, the stepper lays its boxes side by side.
    later.panels.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, docks["procedureDock"])
    QApplication.processEvents()
    assert later.stepper.box_layout.direction().name == "LeftToRight"


def test_f6_walks_the_keyboard_through_the_panels(
    qtbot: Any, sample_store: Store, settings: QSettings
) -> None:
    window = _window(qtbot, sample_store, settings)
    ws = open_fight(window, sample_store, "time-units")
    window.activateWindow()
    QApplication.processEvents()
    assert QApplication.activeWindow() is window
    ws.board.cards.setFocus()
    assert QApplication.focusWidget() is ws.board.cards
    seen = []
    for _ in range(5):
        QTest.keyClick(QApplication.focusWidget() or ws.board, Qt.Key.Key_F6)
        focus = QApplication.focusWidget()
        seen.append(next(w for w in (ws.board, ws.board.combatants_panel, ws.steps_view,
                                     ws.outcome, ws.timeline, ws.status_view,
                                     ws.panels.docks["procedureDock"].widget())
                         if focus is w or w.isAncestorOf(focus)))
    # the panels in view (the board, the combatants, the list, the outcome; the others wait
    # behind tabs), then round again
    assert len(set(map(id, seen[:4]))) == 4 and seen[4] is seen[0], seen
    assert ws.steps_view in seen and ws.outcome in seen and ws.board in seen
