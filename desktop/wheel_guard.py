"""The mouse wheel changes a list or number only in the field the DM clicked into.

Scrolling a form past a resting Kind list once turned a PC into a monster (and enabled Save).
One guard, on the whole application, covers every form and dialog, including widgets made
later: a list or spin box takes focus by click or Tab only (never by the wheel passing over
it), and a wheel over one that has no focus goes on to what holds it (the form scrolls).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QComboBox, QWidget

GUARDED = (QComboBox, QAbstractSpinBox)


class WheelGuard(QObject):
    """The application's event filter: cheap (three event types are looked at, the rest pass)."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind in (QEvent.Type.Polish, QEvent.Type.Show) and isinstance(watched, GUARDED):
            # Qt gives WheelFocus widgets focus before a wheel event reaches any filter.
            if watched.focusPolicy() == Qt.FocusPolicy.WheelFocus:
                watched.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        elif kind == QEvent.Type.Wheel and isinstance(watched, GUARDED) and not (
                isinstance(watched, QWidget) and watched.hasFocus()):
            event.ignore()  # ignored: Qt passes it on to the parent (the scroll area)
            return True
        return False


def install_wheel_guard() -> None:
    """Guards every list and spin box of the running application (once; later calls keep it)."""
    app = QApplication.instance()
    if app is None or app.findChild(WheelGuard) is not None:
        return
    app.installEventFilter(WheelGuard(app))
