"""The Timeline keeps every step up to the clock in view as the fight goes on, inside its panel,
unless the DM has zoomed or panned it by hand (103-tu-timeline: at TU 54 it showed TU 0–22)."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QTabWidget, QTextEdit
from pytestqt.qtbot import QtBot

from desktop.timeline import TimelineWidget
from tests.desktop.test_timeline import resolved


def _x_on_panel(widget: TimelineWidget, x: float) -> int:
    """Where ``x`` of the axis is drawn, in pixels from the Timeline panel's left edge."""
    box = widget.plot_item.getViewBox()
    scene = box.mapViewToScene(QPointF(x, box.viewRange()[1][0]))
    at = widget.view.mapFromScene(scene)
    return widget.view.mapTo(widget, QPoint(at.x(), 1)).x()


def _shown(qtbot: QtBot, width: int) -> tuple[QTabWidget, TimelineWidget]:
    # The Timeline as the DM has it: a tab beside the resolution list, 476 pixels wide at
    # 1280x720 (the tester's layout).
    tabs = QTabWidget()
    qtbot.addWidget(tabs)
    widget = TimelineWidget()
    tabs.addTab(QTextEdit(), "Resolution list")
    tabs.addTab(widget, "Timeline")
    tabs.resize(width, 330)
    tabs.show()
    qtbot.waitExposed(tabs)
    return tabs, widget


def test_every_step_up_to_the_last_is_on_the_panel_as_steps_come(qtbot: QtBot) -> None:
    resolution, cast = resolved("time-units/duration-four-rounds")
    tabs, widget = _shown(qtbot, 476)
    for count in range(1, len(resolution.steps) + 1):
        widget.set_resolution(replace(resolution, steps=resolution.steps[:count]), cast)
        if count == 2:
            tabs.setCurrentWidget(widget)  # the DM looks at the Timeline mid-fight
        QApplication.processEvents()
        last = resolution.steps[count - 1].tu
        assert last is not None
        if widget.isVisible():
            assert 0 <= _x_on_panel(widget, 0) < _x_on_panel(widget, last) <= widget.width()
    assert resolution.steps[-1].tu == 49  # the sleep ends at TU 49: far past the first view


def _wheel(widget: TimelineWidget, notches: int) -> None:
    viewport = widget.view.viewport()
    centre = QPointF(viewport.width() / 2, viewport.height() / 3)
    event = QWheelEvent(centre, viewport.mapToGlobal(centre), QPoint(0, 0),
                        QPoint(0, 120 * notches), Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(viewport, event)


def test_a_view_the_dm_zoomed_by_hand_stays_as_new_steps_come(qtbot: QtBot) -> None:
    resolution, cast = resolved("time-units/duration-four-rounds")
    tabs, widget = _shown(qtbot, 600)
    tabs.setCurrentWidget(widget)
    widget.set_resolution(replace(resolution, steps=resolution.steps[:3]), cast)
    QApplication.processEvents()
    box = widget.plot_item.getViewBox()
    followed = box.viewRange()[0]
    assert followed[0] <= 0 and followed[1] >= 15
    _wheel(widget, 2)  # the DM zooms in on the first steps
    zoomed = box.viewRange()[0]
    assert zoomed[1] - zoomed[0] < followed[1] - followed[0]
    widget.set_resolution(resolution, cast)  # the sleep's end comes, at TU 49
    QApplication.processEvents()
    assert box.viewRange()[0] == zoomed  # the DM's view is left as they made it
    widget.set_resolution(None)  # another fight: its steps are followed again
    widget.set_resolution(resolution, cast)
    QApplication.processEvents()
    lo, hi = box.viewRange()[0]
    assert lo <= 0 and hi >= 49
