"""An inline error never moves a field: a click aimed at a field lands in it.

A long reason once wrapped beside its field, the row grew, and every field below moved down
by a line or two while the DM was typing: the next click landed in a gap.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from desktop.main_window import MainWindow

LONG_LEVEL = "2/41"  # "Each class level is 1–40, so 2/41 cannot be saved."


def _geometry(window: MainWindow) -> dict[str, QRect]:
    editor = window.editor
    out: dict[str, QRect] = {}
    for key, field in editor.fields.items():
        out[key] = QRect(field.mapTo(editor, QPoint(0, 0)), field.size())
    out["notes"] = QRect(editor.notes.mapTo(editor, QPoint(0, 0)), editor.notes.size())
    return out


def test_a_long_inline_error_leaves_every_field_where_it_was(
        qtbot: QtBot, window: MainWindow) -> None:
    window.resize(1280, 720)
    qtbot.keyClick(window.roster_panel.view, Qt.Key.Key_Insert)
    editor = window.editor
    try:
        qtbot.keyClicks(editor.fields["name"], "Mordo the Grey")
        QApplication.processEvents()
        editor.scroll.verticalScrollBar().setValue(0)
        before = _geometry(window)
        level = editor.fields["level"]
        level.setFocus()
        qtbot.keyClicks(level, LONG_LEVEL)
        qtbot.keyClicks(editor.fields["dex"], "a very long thing that is no number at all")
        editor.weapons.add_button.click()  # a weapon with no name: the table's own reason
        QApplication.processEvents()
        reason = editor.reasons["level"]
        assert reason.text() == f"Each class level is 1–40, so {LONG_LEVEL} cannot be saved."
        assert reason.width() < reason.fontMetrics().horizontalAdvance(reason.text()), \
            "the reason is longer than its place (else this test proves nothing)"
        assert reason.toolTip() == reason.text()  # the whole reason, on hovering it
        assert "Cannot save:" in editor.save_reason.text()  # and under the form, in full
        assert editor.reasons["dex"].text()
        assert _geometry(window) == before

        # A click aimed at Side (under Level) lands in Side, not in a gap.
        side = editor.fields["side"]
        target = editor.childAt(before["side"].center())
        assert target is side or (target is not None and side.isAncestorOf(target))
        qtbot.mouseClick(side, Qt.MouseButton.LeftButton, pos=side.rect().center())
        assert side.hasFocus() and not editor.fields["name"].hasFocus()
    finally:
        editor.load(None)  # nothing to keep: the window closes without asking
