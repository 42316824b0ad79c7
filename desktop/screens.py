"""The screen a widget is on, asked of the application, never of the widget.

``QWidget.screen()``, ``windowHandle()`` and ``style()`` hand back an object Qt owns (the
application's screen, window handle or style) through a method of one of our widgets, and
PySide then records it as that widget's child. When Python's garbage collector frees the
widget in a reference cycle, it may clear that "child" first and, doing so, hand it over to
Python, which deletes it: the application's own screen was deleted that way, and the next
window built crashed in ``QScreen::virtualSiblings`` (test workers, now and then). The
application's static functions record no such link, so Combat Desk asks them.
"""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication, QScreen
from PySide6.QtWidgets import QWidget


def screen_of(widget: QWidget) -> QScreen | None:
    """Gets the screen under the middle of ``widget`` (the primary screen when none is, as
    for a window not placed yet)."""
    centre = widget.mapToGlobal(widget.rect().center())
    return QGuiApplication.screenAt(centre) or QGuiApplication.primaryScreen()
