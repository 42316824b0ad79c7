"""The timeline as a picture, for the printed summary and anyone else who needs one."""

from __future__ import annotations

import os
from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QApplication

from core.model.values import Combatant, Resolution
from desktop.timeline.widget import TimelineWidget


def paper_palette() -> QPalette:
    """Gets black-on-white colours: a printed timeline ignores the screen's dark theme."""
    palette = QPalette()
    for role, colour in (
        (QPalette.ColorRole.Base, QColor("white")),
        (QPalette.ColorRole.Window, QColor("white")),
        (QPalette.ColorRole.Text, QColor("black")),
        (QPalette.ColorRole.WindowText, QColor("black")),
    ):
        palette.setColor(role, colour)
    return palette


def _ensure_app() -> None:
    if QApplication.instance() is None:
        # A script or CLI with no display still gets a picture.
        if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
            os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        QApplication([])


def render_timeline_image(
    resolution: Resolution,
    width: int,
    height: int,
    combatants: Sequence[Combatant] | None = None,
    palette: QPalette | None = None,
) -> QImage:
    """Draws ``resolution`` into a ``width`` × ``height`` image (paper colours by default)."""
    _ensure_app()
    widget = TimelineWidget(scroll_rows=False)
    widget.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
    widget.setPalette(palette or paper_palette())
    widget.resize(width, height)
    widget.set_resolution(resolution, combatants)
    widget.show()
    QApplication.processEvents()
    image = widget.grab().toImage()
    widget.close()
    widget.deleteLater()
    return image
