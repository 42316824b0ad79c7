"""A mouse wheel passing over a resting list or spin box changes nothing: the roster form's
Kind stays PC (Save stays off), and the same holds in a dialog; clicked into, the wheel works."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QComboBox, QWidget
from pytestqt.qtbot import QtBot

from core.roster.entries import Kind
from desktop.main_window import MainWindow
from tests.desktop.roster.test_editing import select


def _wheel(widget: QWidget, notches: int = -1) -> None:
    """One real wheel event over the widget's middle (a notch down, as scrolling a form)."""
    middle = QPointF(widget.rect().center())
    event = QWheelEvent(middle, QPointF(widget.mapToGlobal(middle.toPoint())), QPoint(0, 0),
                        QPoint(0, 120 * notches), Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


def test_the_wheel_over_a_resting_kind_list_leaves_the_entry_alone(
    qtbot: QtBot, window: MainWindow
) -> None:
    try:
        select(window, "Brannoc the Bold")
        editor = window.editor
        assert editor.kind_box.currentData() == Kind.PC and not editor.save_button.isEnabled()
        window.roster_panel.view.setFocus()
        assert not editor.kind_box.hasFocus()
        for _ in range(3):
            _wheel(editor.kind_box)
        assert editor.kind_box.currentData() == Kind.PC, "a passing wheel changed the Kind"
        assert not editor.save_button.isEnabled()
        # Only a click or Tab gives it focus (Qt would focus a WheelFocus list before any filter).
        for box in editor.findChildren(QComboBox) + editor.findChildren(QAbstractSpinBox):
            assert box.focusPolicy() != Qt.FocusPolicy.WheelFocus, box.objectName()
        # Clicked into, the wheel chooses as before.
        editor.kind_box.setFocus()
        assert editor.kind_box.hasFocus()
        _wheel(editor.kind_box)
        assert editor.kind_box.currentData() != Kind.PC and editor.save_button.isEnabled()
    finally:  # no unsaved edit left for the window's closing to ask about (a modal box)
        window.editor.revert_button.click()


def test_the_wheel_over_a_dialogs_resting_lists_and_numbers_changes_nothing(
    qtbot: QtBot, window: MainWindow
) -> None:
    dialog = window.encounter_actions.ask_new_encounter()
    assert dialog is not None
    qtbot.addWidget(dialog)
    QApplication.processEvents()
    boxes = [b for b in dialog.findChildren(QComboBox) + dialog.findChildren(QAbstractSpinBox)
             if b.isVisible() and b.isEnabled()]
    assert boxes, "the New Encounter dialog has lists or numbers to scroll past"
    for box in boxes:
        box.clearFocus()
        assert not box.hasFocus()
        before = box.currentText() if isinstance(box, QComboBox) else box.text()
        _wheel(box)
        _wheel(box, notches=1)
        _wheel(box, notches=1)
        after = box.currentText() if isinstance(box, QComboBox) else box.text()
        assert after == before, box.objectName()
        assert box.focusPolicy() != Qt.FocusPolicy.WheelFocus, box.objectName()
    dialog.close()
