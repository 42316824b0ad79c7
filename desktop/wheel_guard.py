"""The mouse wheel changes a list or number only in the field the DM clicked into.

Scrolling a form past a resting Kind list once turned a PC into a monster (and enabled Save).
:func:`guard_wheels` goes through a form or dialog once it is built: each list and spin box
takes focus by click or Tab only (never by the wheel passing over it), and a wheel over one
that has no focus goes on to what holds it (the form scrolls). A filter on the whole
application did the same for widgets made later too, but it met every event of the program,
objects half made or half deleted among them.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractSpinBox, QComboBox, QWidget

GUARDED = (QComboBox, QAbstractSpinBox)


class WheelGuard(QObject):
    """A list's or spin box's filter: a wheel passes it by unless it has the focus."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Wheel and isinstance(watched, QWidget) and not (
                watched.hasFocus()):
            event.ignore()  # ignored: Qt passes it on to the parent (the scroll area)
            return True
        return False


def guard_wheels(root: QWidget) -> None:
    """Guards every list and spin box in ``root`` now (again: the ones added since)."""
    guard = root.findChild(WheelGuard, "wheelGuard")
    if guard is None:
        guard = WheelGuard(root)
        guard.setObjectName("wheelGuard")
    for box in root.findChildren(QComboBox) + root.findChildren(QAbstractSpinBox):
        if box.property("wheelGuarded"):
            continue
        box.setProperty("wheelGuarded", True)
        if box.focusPolicy() == Qt.FocusPolicy.WheelFocus:
            box.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        box.installEventFilter(guard)
