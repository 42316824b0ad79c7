"""One key, one menu item: no two actions of the main window's menus share a shortcut (or show
the same key in their text), on the roster's tab and on an encounter's; F5 is File › Reload,
named after the tab shown."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from desktop.main_window import MainWindow
from tests.desktop.encounter.test_two_windows import _guardroom
from tests.desktop.table.conftest import make_active


def _menu_actions(menu: QMenu) -> list[QAction]:
    """Every action of a menu and of its submenus (the Open Encounter list is filled when it
    opens: its aboutToShow is emitted, as opening it does)."""
    menu.aboutToShow.emit()
    found: list[QAction] = []
    for action in menu.actions():
        if action.menu() is not None:
            found += _menu_actions(action.menu())
        elif not action.isSeparator():
            found.append(action)
    return found


def _keys_shown(window: MainWindow) -> Counter[str]:
    """Each key as the menus bind or show it ("Reload\\tF5" shows F5 without binding it)."""
    keys: Counter[str] = Counter()
    actions = {id(a): a for m in window.menuBar().actions() if m.menu() is not None
               for a in _menu_actions(m.menu())}
    for action in actions.values():
        shown = {k.toString(QKeySequence.SequenceFormat.PortableText)
                 for k in action.shortcuts()}
        if "\t" in action.text():
            shown.add(QKeySequence(action.text().split("\t", 1)[1]).toString(
                QKeySequence.SequenceFormat.PortableText))
        keys.update(shown - {""})
    return keys


def test_no_two_menu_items_share_a_key_and_f5_follows_the_tab(
    qtbot: QtBot, tmp_path: Path
) -> None:
    _url, store, window = _guardroom(qtbot, tmp_path, round_begun=True)
    try:
        make_active(window)
        for index in range(window.tabs.count()):
            window.tabs.setCurrentIndex(index)
            keys = _keys_shown(window)
            shared = sorted(k for k, n in keys.items() if n > 1)
            assert not shared, f"{window.tabs.tabText(index)}: {shared} on two items"
            assert keys["F5"] == 1
        # F5 is File › Reload: named after the tab, and doing what its name says.
        window.tabs.setCurrentIndex(0)
        assert window.reload_action.text().replace("&", "") == "Reload Campaign"
        store.campaigns.create("Made elsewhere")
        QTest.keyClick(window, Qt.Key.Key_F5)
        assert window.campaign_box.findText("Made elsewhere") >= 0
        mine = window.encounter_actions.workspaces[0]
        window.tabs.setCurrentWidget(mine)
        assert window.reload_action.text().replace("&", "") == "Reload Encounter"
        QTest.keyClick(window, Qt.Key.Key_F5)
        assert window.encounter_actions.current() is not mine, "the encounter was read again"
    finally:
        store.close()
