"""No widget of ours holds the application's screen or style as a child.

PySide records an object that a widget's method hands back (``QWidget.screen()``,
``style()``) as that widget's child. Python's garbage collector, freeing the widget in a
reference cycle, could then delete the application's own screen, and the next window built
crashed in ``QScreen::virtualSiblings`` (test workers did, now and then). Combat Desk asks the
application instead (desktop/screens.py); these tests walk the places that look for a screen
or a style and check that nothing of the kind is left held by a widget.
"""

from __future__ import annotations

import gc
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtGui import QScreen
from PySide6.QtWidgets import QStyle, QWidget
from pytestqt.qtbot import QtBot

from desktop.main_window import MainWindow
from desktop.screens import screen_of
from tests.desktop.players.fights import SIDE_D6
from tests.desktop.players.helpers import main_window, store_with_fight


def _held_by_widgets() -> list[str]:
    """Gets the application's screens and styles that some widget keeps a reference to."""
    held = []
    for thing in gc.get_objects():
        if isinstance(thing, (QScreen, QStyle)):
            holders = [type(r).__name__ for r in gc.get_referrers(thing) if isinstance(r, QWidget)]
            if holders:
                held.append(f"{type(thing).__name__} held by {', '.join(holders)}")
    return held


def test_a_widget_asked_for_its_screen_keeps_no_hold_on_it(qtbot: QtBot) -> None:
    widget = QWidget()
    qtbot.addWidget(widget)
    widget.show()
    screen = screen_of(widget)
    assert screen is not None and screen.geometry().contains(
        widget.mapToGlobal(widget.rect().center()))
    assert not [r for r in gc.get_referrers(screen) if isinstance(r, QWidget)]
    del screen
    widget.screen()  # what Combat Desk no longer does: the widget now holds the screen
    assert _held_by_widgets(), "the check finds the hold it is there to find"


def test_the_windows_that_look_for_a_screen_or_a_style_hold_neither(
        qtbot: QtBot, tmp_path: Path) -> None:
    store = store_with_fight(tmp_path, SIDE_D6)
    window = main_window(qtbot, store, tmp_path)  # sized within its screen at first start
    window.resize(1280, 720)
    workspace = window.encounter_actions.workspaces[0]
    window.tabs.setCurrentWidget(workspace)
    workspace.grab()  # the lanes paint their cards with the style
    players = window.players
    players.screen_menu.aboutToShow.emit()
    players.screen_menu.actions()[0].trigger()  # placed on a screen
    players.full_action.trigger()  # full screen on it
    assert players.players_window is not None and players.players_window.isFullScreen()
    players.full_action.trigger()
    dialog = window.encounter_actions.ask_new_encounter()  # sized to its screen when shown
    assert dialog is not None and dialog.isVisible()
    dialog.reject()
    window.close()  # its geometry saved, then restored by the next window on the same file
    again = MainWindow(store, QSettings(str(tmp_path / "dm.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(again)
    again.show()
    assert _held_by_widgets() == []
