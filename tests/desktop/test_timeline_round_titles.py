"""Round titles on the timeline are whole (tester's 187-print-ended: "Round 2 — first full
round (round 1 was the" was cut at the plot's edge in the 1280×720 timeline panel): each title
wraps to the width of its round in view and is drawn inside the axis, every word of it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtGui import QFontMetrics, QPainter, QPixmap
from PySide6.QtWidgets import QApplication

from core.cli.commands import load_scenario, resolve_scenario
from desktop.timeline.widget import TimelineWidget

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
FIRST_FULL = "Round 2 — first full round (round 1 was the surprise segments)"


def _drawn_titles(widget: TimelineWidget) -> list[tuple[Any, str]]:
    axis = widget.plot_item.getAxis("top")
    image = QPixmap(10, 10)  # measured at the screen's resolution, as the view paints
    painter = QPainter(image)
    painter.setFont(widget.view.font())  # the font the view paints its items with
    try:
        specs = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    assert specs is not None
    return [(rect, text) for rect, _flags, text in specs[2]]


def test_round_titles_are_whole_in_a_laptop_timeline(qtbot: Any) -> None:
    scenario = load_scenario(SCENARIOS / "side-d6" / "surprise-talk-charge-close.json")
    widget = TimelineWidget()
    qtbot.addWidget(widget)
    widget.resize(470, 330)  # the Timeline panel at 1280x720
    widget.show()
    widget.set_resolution(resolve_scenario(scenario), scenario.combatants)
    for _ in range(4):
        QApplication.processEvents()
    axis = widget.plot_item.getAxis("top")
    for _ in range(2):  # the axis grows to its titles' lines as it is painted
        widget.grab()
        for _ in range(4):
            QApplication.processEvents()
    # the plot and its legend are no wider than the panel: nothing is drawn past its edge
    assert widget.view.scene().itemsBoundingRect().width() <= widget.view.viewport().width()
    assert widget.legend.sceneBoundingRect().right() <= widget.view.viewport().width()
    bounds = axis.boundingRect()
    drawn = _drawn_titles(widget)
    assert [" ".join(text.split()) for _rect, text in drawn] == [
        "Round 1 — surprise segments", FIRST_FULL]
    font = axis.style.get("tickFont")
    metrics = QFontMetrics(font) if font is not None else widget.fontMetrics()
    for rect, text in drawn:
        assert bounds.left() <= rect.left() and rect.right() <= bounds.right(), (text, rect,
                                                                                   bounds)
        # the axis holds every line: none is drawn above the plot
        assert axis.height() >= text.count("\n") * metrics.lineSpacing() + metrics.height()
        widest = max(metrics.horizontalAdvance(line) for line in text.split("\n"))
        assert rect.width() >= widest - 1, (text, rect)
        # the axis is as tall as its titles: no line is cut at the top
        assert axis.height() >= rect.height(), (text, rect.height(), axis.height())
    (one, _), (two, _) = drawn
    assert not one.intersects(two), (one, two)


def test_the_plot_narrows_with_its_panel(qtbot: Any) -> None:
    """Drawn wide, then put in a narrow panel (a fight opened in the Timeline dock): the plot
    and its legend follow the panel's width, the last round's title whole inside it."""
    scenario = load_scenario(SCENARIOS / "side-d6" / "surprise-talk-charge-close.json")
    widget = TimelineWidget()
    qtbot.addWidget(widget)
    widget.resize(1000, 330)
    widget.show()
    widget.set_resolution(resolve_scenario(scenario), scenario.combatants)
    for width in (1000, 470):
        widget.resize(width, 330)
        for _ in range(2):
            widget.grab()
            for _ in range(4):
                QApplication.processEvents()
    assert widget.view.scene().itemsBoundingRect().width() <= widget.view.viewport().width()
    axis = widget.plot_item.getAxis("top")
    for rect, text in _drawn_titles(widget):
        assert axis.boundingRect().contains(rect.center()), (text, rect)
        assert rect.right() <= axis.boundingRect().right() + 1, (text, rect)
