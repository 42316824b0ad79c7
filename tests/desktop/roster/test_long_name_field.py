"""The roster editor's Name field at 1280×720 shows a 24-letter name from its start (it read
"ang Ironbeard-Smith"), after typing it and when an entry is loaded."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from desktop.main_window import MainWindow
from tests.desktop.roster.test_editing import type_into

NAME = "Wolfgang Ironbeard-Smith"


def test_a_long_name_shows_whole_from_its_start(qtbot: QtBot, window: MainWindow) -> None:
    window.resize(1280, 720)
    window.editor.load(window.entries[0])  # a loaded name is read from its start
    edit = window.editor.fields["name"]
    loaded = edit.cursorPosition()
    qtbot.keyClick(window.roster_panel.view, Qt.Key.Key_Insert)
    type_into(qtbot, window, "name", NAME)
    qtbot.keyClick(edit, Qt.Key.Key_Tab)  # on to Kind
    QApplication.processEvents()
    typed = edit.cursorPosition()
    margins = edit.textMargins().left() + edit.textMargins().right() + 8
    room = edit.width() - edit.fontMetrics().horizontalAdvance(NAME) - margins
    window.editor.load(None)  # nothing left unsaved behind (closing would ask)
    assert (loaded, typed) == (0, 0)
    assert room >= 0
