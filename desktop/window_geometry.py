"""Brings the main window back where and as large as the DM left it, within the screen it
opens on.

Qt 6.11's restoreGeometry refuses (returns False, leaves the window 640×480) a geometry saved
on a screen of another size, and the window then came back at its layout's smallest (848×510
on a 1920×1080 screen after 1278×694 on a 1280×720 one). The saved rectangle is read here from
the same bytes and fitted into the screen's available area instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QByteArray, QDataStream, QRect, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

from desktop.screens import screen_of

_MAGIC = 0x1D9D0CB
"""The first four bytes of every QWidget.saveGeometry()."""


@dataclass(frozen=True, slots=True)
class SavedGeometry:
    """What QWidget.saveGeometry() wrote: the window's area with and without its frame."""

    frame: QRect
    normal: QRect
    maximized: bool
    full_screen: bool


def read_saved_geometry(data: QByteArray) -> SavedGeometry | None:
    """Reads the rectangles QWidget.saveGeometry() wrote (None: not such bytes)."""
    stream = QDataStream(data)
    stream.setByteOrder(QDataStream.ByteOrder.BigEndian)
    if stream.readUInt32() != _MAGIC:
        return None
    major = stream.readUInt16()
    stream.readUInt16()  # minor version

    def rect() -> QRect:
        left, top, right, bottom = (stream.readInt32() for _ in range(4))
        return QRect(left, top, right - left + 1, bottom - top + 1)

    frame, normal = rect(), rect()
    stream.readInt32()  # screen number
    maximized, full_screen = bool(stream.readUInt8()), bool(stream.readUInt8())
    if major >= 3:
        stream.readInt32()  # the screen's width
        normal = rect()  # the window's own area (without its frame) when not maximized
    if stream.status() != QDataStream.Status.Ok or not normal.isValid():
        return None
    return SavedGeometry(frame, normal, maximized, full_screen)


def fit_into(saved: SavedGeometry, room: QRect) -> QRect:
    """The saved window area, shrunk (frame included) to ``room`` where it is larger and
    moved inside it: never larger than the screen, never smaller than it was saved unless the
    screen is smaller."""
    extra_w = max(0, saved.frame.width() - saved.normal.width())
    extra_h = max(0, saved.frame.height() - saved.normal.height())
    width = min(saved.normal.width(), room.width() - extra_w)
    height = min(saved.normal.height(), room.height() - extra_h)
    left_edge = max(0, saved.normal.x() - saved.frame.x())
    top_edge = max(0, saved.normal.y() - saved.frame.y())
    x = min(max(saved.normal.x(), room.left() + left_edge), room.right() + 1 - width)
    y = min(max(saved.normal.y(), room.top() + top_edge), room.bottom() + 1 - height)
    return QRect(x, y, width, height)


def restore_geometry(window: QWidget, data: object) -> bool:
    """Restores ``window`` from saveGeometry() bytes, fitted into the screen it opens on;
    False (nothing changed) when there are none."""
    if not isinstance(data, QByteArray) or data.isEmpty():
        return False
    restored = window.restoreGeometry(data)
    saved = read_saved_geometry(data)
    if saved is None:
        return restored
    screen = QGuiApplication.screenAt(saved.normal.center()) or screen_of(window)
    if screen is None:
        return restored
    window.setGeometry(fit_into(saved, screen.availableGeometry()))
    if saved.full_screen:
        window.setWindowState(Qt.WindowState.WindowFullScreen)
    elif saved.maximized:
        window.setWindowState(Qt.WindowState.WindowMaximized)
    return True
