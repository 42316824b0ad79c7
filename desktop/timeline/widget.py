"""The graphical timeline: one row per combatant, a mark per step, bars for spans.

Redrawing is cheap on purpose: every kind of mark is ONE ScatterPlotItem (the point's data is the
step's seq), every kind of bar ONE BarGraphItem, lines one PlotCurveItem each; a new resolution
only feeds them new arrays.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QColor, QFontMetrics, QPalette
from PySide6.QtWidgets import QGraphicsItem, QVBoxLayout, QWidget

from core.model import Combatant, Resolution, Step
from desktop.resolution.step_text import step_tooltip
from desktop.timeline.layout import (
    Axis,
    Mark,
    MarkKind,
    SpanKind,
    TimelineLayout,
    build_layout,
)
from desktop.timeline.style import (
    MARK_STYLES,
    ORANGE,
    SPAN_HEIGHT,
    SPAN_STYLES,
    is_dark,
    resolve_colour,
)

AXIS_TITLES = {Axis.SEGMENT: "segment", Axis.TU: "time units (TU)", Axis.SEQ: "order of play"}


def _array(values: Sequence[float]) -> np.ndarray:
    return np.asarray(values, dtype=float)


def _skip_empty(item: pg.GraphicsObject, count: int) -> bool:
    """Hides an item with nothing to draw (a hidden item costs no paint); True: nothing to feed."""
    was_empty = not item.isVisible()
    item.setVisible(count > 0)
    if count == 0 and not was_empty:
        if isinstance(item, pg.ScatterPlotItem):
            item.setData(x=[], y=[])
        else:
            item.setOpts(x0=_array([]), x1=_array([]), y0=_array([]), height=SPAN_HEIGHT)
    return count == 0


class TimelineWidget(QWidget):
    """Draws a resolution; emits ``step_selected(seq)`` when the DM clicks a mark."""

    step_selected = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._resolution: Resolution | None = None
        self._combatants: tuple[Combatant, ...] | None = None
        self._steps: dict[int, Step] = {}
        self._labels: dict[str, str] = {}
        self._layout = TimelineLayout(axis=Axis.SEGMENT)
        self._highlighted: int | None = None
        # What the axes and legend show now: only a change is worth their costly repaint.
        self._drawn_ticks: dict[str, list[tuple[float, str]] | None] = {}
        self._drawn_ranges: object = None
        self._legend_kinds: object = None
        self._measured_labels: tuple[str, ...] = ()
        self._drawn_bands: object = None

        self.view = pg.GraphicsLayoutWidget()
        self.plot_item: pg.PlotItem = self.view.addPlot(row=0, col=0)
        self.legend = pg.LegendItem(colCount=5, horSpacing=18, verSpacing=-4)
        self.view.addItem(self.legend, row=1, col=0)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)

        plot = self.plot_item
        plot.hideButtons()
        plot.setMenuEnabled(False)
        plot.invertY(True)  # first side at the top
        plot.showAxis("top")
        plot.getAxis("top").setStyle(tickLength=0)
        plot.getAxis("left").setStyle(tickLength=0)
        for name in ("left", "bottom", "top"):
            # Axes and legend rarely change between redraws: repaint them from a pixmap.
            plot.getAxis(name).setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.legend.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

        self.band_item = pg.BarGraphItem(x0=[], x1=[], y0=[], y1=[], pen=None)
        self.round_lines = pg.PlotCurveItem(connect="pairs")
        self.guide_item = pg.PlotCurveItem(connect="pairs")
        self.arrow_item = pg.PlotCurveItem(connect="pairs")
        self.arrow_heads = pg.ScatterPlotItem(pxMode=True)
        self.bar_items: dict[SpanKind, pg.BarGraphItem] = {
            kind: pg.BarGraphItem(x0=[], x1=[], y0=[], y1=[], pen=None) for kind in SpanKind
        }
        self.scatter_items: dict[MarkKind, pg.ScatterPlotItem] = {}
        # A weak tip: a strong self-reference cycle through the items crashes Qt when collected.
        tip_for = weakref.WeakMethod(self._tip_for)

        def tip(x: float, y: float, data: Any) -> str:
            method = tip_for()
            return method(x, y, data) if method else ""

        for kind in MarkKind:
            item = pg.ScatterPlotItem(hoverable=True, tip=tip, name=kind.value)
            item.sigClicked.connect(self._on_points_clicked)
            self.scatter_items[kind] = item
        self.highlight_item = pg.ScatterPlotItem(pxMode=True)
        self.highlight_line = pg.InfiniteLine(angle=90, movable=False)
        self.highlight_line.hide()

        for z, item in enumerate(
            [self.band_item, self.round_lines, self.guide_item, *self.bar_items.values(),
             self.arrow_item, self.arrow_heads, self.highlight_line,
             *self.scatter_items.values(), self.highlight_item]
        ):
            item.setZValue(z - 100)
            plot.addItem(item)
        box = plot.getViewBox()
        box.sigYRangeChanged.connect(self._on_view_changed)
        box.sigResized.connect(self._on_view_changed)
        self._apply_palette()

    # --- public -------------------------------------------------------------------------------

    @property
    def timeline_layout(self) -> TimelineLayout:
        """Gets where everything was placed by the last redraw."""
        return self._layout

    @property
    def highlighted_step(self) -> int | None:
        return self._highlighted

    def set_resolution(
        self, resolution: Resolution | None, combatants: Sequence[Combatant] | None = None
    ) -> None:
        """Redraws for ``resolution``; ``combatants`` gives sides, names and row order."""
        self._resolution = resolution
        if combatants is not None:
            self._combatants = tuple(combatants)
        self._steps = {s.seq: s for s in resolution.steps} if resolution else {}
        self._labels = {c.id: c.label for c in self._combatants or ()}
        if resolution is None:
            self._layout = TimelineLayout(axis=Axis.SEGMENT)
        else:
            self._layout = build_layout(resolution, self._combatants)
        self._redraw()
        keep = self._highlighted if self._highlighted in self._steps else None
        self.highlight_step(keep)

    def highlight_step(self, seq: int | None) -> None:
        """Rings the mark of step ``seq`` (None clears it); emits nothing."""
        self._highlighted = seq
        if seq is None or seq not in self._layout.step_x:
            self._highlighted = None
            self.highlight_item.setData(x=[], y=[])
            self.highlight_item.hide()
            self.highlight_line.hide()
            return
        x, y = self._layout.step_x[seq], self._layout.step_y[seq]
        self.highlight_item.setData(
            x=[x], y=[y], symbol="o", size=26, brush=None, pen=pg.mkPen(self._fg, width=2.5)
        )
        self.highlight_line.setValue(x)
        self.highlight_item.show()
        self.highlight_line.show()

    # --- Qt overrides ---------------------------------------------------------------------------

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._apply_palette()
            self._legend_kinds = None  # legend labels take the new text colour
            self._redraw()

    # --- drawing -------------------------------------------------------------------------------

    def _apply_palette(self) -> None:
        palette = self.palette()
        self._bg = palette.color(QPalette.ColorRole.Base)
        self._fg = palette.color(QPalette.ColorRole.Text)
        self._dark = is_dark(self._bg)
        self.view.setBackground(self._bg)
        for name in ("left", "bottom", "top"):
            axis = self.plot_item.getAxis(name)
            axis.setPen(self._fg)
            axis.setTextPen(self._fg)
        self.legend.setLabelTextColor(self._fg)
        faint = QColor(self._fg)
        faint.setAlpha(70)
        self.round_lines.setPen(pg.mkPen(faint, width=1))
        faint.setAlpha(60)
        self.guide_item.setPen(pg.mkPen(faint, width=1, style=Qt.PenStyle.DashLine))
        self.arrow_item.setPen(pg.mkPen(self._fg, width=1.3))
        self.highlight_line.setPen(pg.mkPen(self._fg, width=1, style=Qt.PenStyle.DotLine))
        self._style_items()

    def _colour(self, colour: str, alpha: int = 255) -> QColor:
        return resolve_colour(colour, self._fg, self._dark, alpha)

    def _redraw(self) -> None:
        lay = self._layout
        self._draw_background(lay)
        self._draw_spans(lay)
        self._draw_marks(lay)
        self._draw_arrows(lay)
        self._draw_axes(lay)
        self._draw_legend(lay)

    def _draw_background(self, lay: TimelineLayout) -> None:
        x_lo, x_hi = lay.x_range
        y_lo, y_hi = lay.y_range
        x0, x1, y0, y1, brushes = [], [], [], [], []
        for i, side in enumerate(lay.sides):  # alternate faint bands tell the sides apart
            x0.append(x_lo)
            x1.append(x_hi)
            y0.append(side.y0)
            y1.append(side.y1)
            brushes.append(pg.mkBrush(self._colour("fg", 22 if i % 2 == 0 else 10)))
        for block in lay.rounds:
            if block.surprise:
                x0.append(block.x0)
                x1.append(block.x1)
                y0.append(y_lo)
                y1.append(y_hi)
                brushes.append(pg.mkBrush(self._colour(ORANGE, 45)))
        bands = (x0, x1, y0, y1, self._fg.rgba(), self._bg.rgba())
        if bands != self._drawn_bands:
            self._drawn_bands = bands
            self.band_item.setOpts(
                x0=_array(x0), x1=_array(x1), y0=_array(y0), y1=_array(y1), brushes=brushes,
                pen=None,
            )
        edges = sorted({b.x0 for b in lay.rounds} | {b.x1 for b in lay.rounds})
        self.round_lines.setData(
            x=_array([x for x in edges for _ in (0, 1)]),
            y=_array([y for _ in edges for y in (y_lo, y_hi)]),
        )
        gx = [g.x for g in lay.guides for _ in (0, 1)]
        gy = [y for g in lay.guides for y in (g.y0, g.y1)]
        self.guide_item.setData(x=_array(gx), y=_array(gy))
        self.guide_item.setVisible(bool(gx))

    def _style_items(self) -> None:
        """Sets each kind's look once per palette; redraws then only feed coordinates."""
        for span_kind, bar in self.bar_items.items():
            span_style = SPAN_STYLES[span_kind]
            bar.setOpts(brush=pg.mkBrush(self._colour(span_style.colour, span_style.alpha)))
        for mark_kind, item in self.scatter_items.items():
            style = MARK_STYLES[mark_kind]
            colour = self._colour(style.colour)
            item.setSymbol(style.symbol)
            item.setSize(style.size)
            item.setPen(pg.mkPen(colour, width=1.0 if style.filled else 2.0))
            item.setBrush(pg.mkBrush(colour) if style.filled else pg.mkBrush(None))

    def _draw_spans(self, lay: TimelineLayout) -> None:
        for kind, item in self.bar_items.items():
            spans = [s for s in lay.spans if s.kind is kind]
            if _skip_empty(item, len(spans)):
                continue
            item.setOpts(
                x0=_array([s.x0 for s in spans]),
                x1=_array([s.x1 for s in spans]),
                y0=_array([s.y - SPAN_HEIGHT / 2 for s in spans]),
                height=SPAN_HEIGHT,
            )

    def _draw_marks(self, lay: TimelineLayout) -> None:
        by_kind: dict[MarkKind, list[Mark]] = {kind: [] for kind in MarkKind}
        for mark in lay.marks:
            by_kind[mark.kind].append(mark)
        for kind, item in self.scatter_items.items():
            marks = by_kind[kind]
            if _skip_empty(item, len(marks)):
                continue
            item.setData(
                x=_array([m.x for m in marks]),
                y=_array([m.y for m in marks]),
                data=[m.seq for m in marks],
            )

    def _draw_arrows(self, lay: TimelineLayout) -> None:
        xs: list[float] = []
        ys: list[float] = []
        hx: list[float] = []
        hy: list[float] = []
        symbols: list[str] = []
        for arrow in lay.arrows:
            down = arrow.y1 > arrow.y0  # y grows downwards on screen (inverted axis)
            sign = 1.0 if down else -1.0
            xs += [arrow.x, arrow.x]
            ys += [arrow.y0 + 0.3 * sign, arrow.y1 - 0.42 * sign]
            hx.append(arrow.x)
            hy.append(arrow.y1 - 0.36 * sign)
            symbols.append("t" if down else "t1")
        self.arrow_item.setVisible(bool(xs))
        self.arrow_heads.setVisible(bool(xs))
        if not xs and not self.arrow_heads.points().size:
            return
        self.arrow_item.setData(x=_array(xs), y=_array(ys))
        self.arrow_heads.setData(
            x=_array(hx), y=_array(hy), symbol=symbols, size=9,
            pen=pg.mkPen(self._fg), brush=pg.mkBrush(self._fg),
        )

    def _draw_axes(self, lay: TimelineLayout) -> None:
        # Labels are axis ticks, not TextItems: cheaper, never overlap the marks, and TextItems
        # left in a discarded scene crash the interpreter at exit (PySide6 6.12).
        self._update_row_labels()
        self._set_ticks("top", [((b.x0 + b.x1) / 2, b.label) for b in lay.rounds])
        self._set_ticks("bottom", list(lay.ticks) or None)
        if self._drawn_ticks.get("title") != [(0.0, lay.axis.value)]:
            self._drawn_ticks["title"] = [(0.0, lay.axis.value)]
            self.plot_item.getAxis("bottom").setLabel(AXIS_TITLES[lay.axis])
        ranges = (lay.x_range, lay.y_range)
        if ranges != self._drawn_ranges:  # a new range repaints every axis from scratch
            self._drawn_ranges = ranges
            self.plot_item.setXRange(*lay.x_range, padding=0.01)
            self.plot_item.setYRange(*lay.y_range, padding=0)

    def _update_row_labels(self) -> None:
        lay = self._layout
        labels = [(side.header_y, f"{side.side.upper()} ▾") for side in lay.sides]
        labels += [(row.y, row.label) for row in lay.rows]
        left = self.plot_item.getAxis("left")
        metrics = QFontMetrics(left.style.get("tickFont") or self.font())
        texts = tuple(text for _, text in labels)
        if texts != self._measured_labels:
            # The axis does not grow for explicit ticks: it drops labels that do not fit.
            self._measured_labels = texts
            left.setWidth(max((metrics.horizontalAdvance(t) for t in texts), default=0) + 14)
        # Too many rows for the height: label every k-th row rather than print a black smear.
        box = self.plot_item.getViewBox()
        y_lo, y_hi = box.viewRange()[1]
        pitch = box.height() / max(y_hi - y_lo, 1.0)
        every = max(1, math.ceil(metrics.height() / pitch)) if pitch > 0 else 1
        headers = labels[: len(lay.sides)]
        rows = labels[len(lay.sides) :: every]
        if every > 1:  # keep side names legible: no row label right against a header
            rows = [r for r in rows if all(abs(r[0] - h[0]) >= every for h in headers)]
        shown = headers + rows
        self._set_ticks("left", shown)

    def _set_ticks(self, name: str, ticks: list[tuple[float, str]] | None) -> None:
        if self._drawn_ticks.get(name, ()) != ticks:  # setTicks always repaints the axis
            self._drawn_ticks[name] = ticks
            self.plot_item.getAxis(name).setTicks([ticks, []] if ticks is not None else None)

    def _draw_legend(self, lay: TimelineLayout) -> None:
        span_kinds = {s.kind for s in lay.spans}
        mark_kinds = {m.kind for m in lay.marks}
        spans = [k for k in SpanKind if k in span_kinds]
        marks = [k for k in MarkKind if k in mark_kinds]
        if (spans, marks) == self._legend_kinds:
            return  # rebuilding the legend's labels costs more than all the marks
        self._legend_kinds = (spans, marks)
        self.legend.clear()
        self.legend.setColumnCount(max(1, min(6, len(spans) + len(marks))))
        for span_kind in spans:
            self.legend.addItem(self.bar_items[span_kind], SPAN_STYLES[span_kind].label)
        for mark_kind in marks:
            self.legend.addItem(self.scatter_items[mark_kind], MARK_STYLES[mark_kind].label)

    # --- events --------------------------------------------------------------------------------

    def _on_view_changed(self, *args: Any) -> None:
        self._update_row_labels()

    def _tip_for(self, x: float, y: float, data: Any) -> str:
        step = self._steps.get(data)
        if step is None or self._resolution is None:
            return ""
        return step_tooltip(step, self._resolution.system, self._labels)

    def _on_points_clicked(self, item: pg.ScatterPlotItem, points: Sequence[Any], ev: Any) -> None:
        if len(points) == 0:
            return
        seq = int(points[0].data())
        self.highlight_step(seq)
        self.step_selected.emit(seq)
