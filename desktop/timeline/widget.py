"""The graphical timeline: one row per combatant, a mark per step, bars for spans.

Redrawing is cheap on purpose: ALL marks are ONE ScatterPlotItem with a symbol, size, pen and brush
per point (the point's data is the step's seq; pyqtgraph caches each look once in its symbol
atlas), every kind of bar ONE BarGraphItem, lines one PlotCurveItem each; a new resolution only
feeds them new arrays. The legend shows each mark kind through a small sample item that is never
in the plot; clicking a sample hides (or shows again) the marks of its kind.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontInfo,
    QFontMetrics,
    QPalette,
    QPen,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsView,
    QHBoxLayout,
    QScrollBar,
    QWidget,
)

from core.model.values import Combatant, Resolution, Step
from desktop.step_text import step_tooltip
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

_KIND_RANK = {kind: rank for rank, kind in enumerate(MarkKind)}
_SCROLL_STEPS = 4
"""Scroll bar units per row: the rows scroll by a quarter row."""


def _kind_rank(mark: Mark) -> int:
    return _KIND_RANK[mark.kind]


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


def _objects(values: Sequence[Any]) -> np.ndarray:
    """Gets an object array, filled one by one: numpy probes every item of a list it converts,
    and probing a Qt object (is it a sequence? a buffer?) costs about a microsecond."""
    out = np.empty(len(values), dtype=object)
    for i, value in enumerate(values):
        out[i] = value
    return out


class _MarkScatter(pg.ScatterPlotItem):
    """A ScatterPlotItem that stores per-point pens and brushes given as object arrays as they are.

    The base class turns such an array into a list first, and numpy then probes each QPen/QBrush
    again on the way back into its record array: 0.4 ms per redraw of 200 marks for nothing.
    """

    def setPen(self, *args: Any, **kargs: Any) -> None:
        if not _is_object_array(args, kargs):
            super().setPen(*args, **kargs)
            return
        self._set_per_point("pen", args[0], kargs)

    def setBrush(self, *args: Any, **kargs: Any) -> None:
        if not _is_object_array(args, kargs):
            super().setBrush(*args, **kargs)
            return
        self._set_per_point("brush", args[0], kargs)

    def _set_per_point(self, field: str, values: np.ndarray, kargs: dict[str, Any]) -> None:
        data_set = kargs.get("dataSet")
        data_set = self.data if data_set is None else data_set
        if len(values) != len(data_set):
            raise ValueError(f"{len(values)} {field} values for {len(data_set)} points")
        data_set[field] = values
        data_set["sourceRect"] = 0
        if kargs.get("update", True):
            self.updateSpots(data_set)


def _is_object_array(args: tuple[Any, ...], kargs: dict[str, Any]) -> bool:
    return (
        len(args) == 1
        and isinstance(args[0], np.ndarray)
        and args[0].dtype == object
        and kargs.get("mask") is None
    )


class TimelineWidget(QWidget):
    """Draws a resolution; emits ``step_selected(seq)`` when the DM clicks a mark."""

    step_selected = Signal(int)

    def __init__(self, parent: QWidget | None = None, scroll_rows: bool = True,
                 tips: bool = True) -> None:
        super().__init__(parent)
        self.scroll_rows = scroll_rows
        """On screen the rows scroll so that each is named; a picture (no scrolling) shows all
        rows and names as many as its height allows."""
        self.tips = tips
        """Hovering a mark tells its step and the rules that placed it; the players' screen
        turns that off (the rules and the DM's figures are not theirs to read)."""
        self._resolution: Resolution | None = None
        self._combatants: tuple[Combatant, ...] | None = None
        self._rounds_started = 0
        # Built on the first tooltip after a redraw, not on every redraw.
        self._steps: dict[int, Step] | None = None
        self._labels: dict[str, str] | None = None
        self._fed_kinds: list[MarkKind] = []
        """The kind of each point of ``mark_item``, in the order they were fed."""
        # Per mark kind (in MarkKind order): symbol, size, pen and brush, for indexing by kind.
        self._look_symbols = _objects([MARK_STYLES[kind].symbol for kind in MarkKind])
        self._look_sizes = _array([MARK_STYLES[kind].size for kind in MarkKind])
        self._look_pens = _objects([QPen() for _ in MarkKind])
        self._look_brushes = _objects([QBrush() for _ in MarkKind])
        self._layout = TimelineLayout(axis=Axis.SEGMENT)
        self._highlighted: int | None = None
        # What the axes and legend show now: only a change is worth their costly repaint.
        self._drawn_ticks: dict[str, list[tuple[float, str]] | None] = {}
        self._drawn_ranges: object = None
        self._legend_kinds: object = None
        self._legend_seen: tuple[set[SpanKind], set[MarkKind]] = (set(), set())
        """The kinds this fight's timeline has shown: the legend keeps them (below)."""
        self._measured_labels: tuple[str, ...] = ()
        self._drawn_bands: object = None
        self._drawn_round_lines: object = None
        self._y_window: tuple[float, float] | None = None
        self._fitting = False
        self._by_hand = False
        """The DM zoomed or panned the axis with the mouse: new steps leave that view as it is
        (another fight shown follows its steps again)."""

        self.view = pg.GraphicsLayoutWidget()
        # pyqtgraph caches the plain background in a pixmap; copying that pixmap on every paint
        # costs more than filling the colour again.
        self.view.setCacheMode(QGraphicsView.CacheModeFlag.CacheNone)
        self.plot_item: pg.PlotItem = self.view.addPlot(row=0, col=0)
        self.legend = pg.LegendItem(colCount=5, horSpacing=18, verSpacing=-4)
        self.view.addItem(self.legend, row=1, col=0)
        # Every row is named: when the rows do not fit at a readable height, the plot shows as
        # many as fit and this bar scrolls through the rest (no label is ever dropped).
        self.row_scroll = QScrollBar(Qt.Orientation.Vertical)
        self.row_scroll.setObjectName("timelineRowScroll")
        self.row_scroll.setToolTip("Scroll through the combatants' rows")
        self.row_scroll.hide()
        # A slim, palette-coloured bar: the platform style's bar costs more to paint than all
        # the marks (measured offscreen with bench/bench_timeline.py).
        self.row_scroll.setStyleSheet(
            "QScrollBar:vertical { width: 12px; background: palette(window); margin: 0; }"
            "QScrollBar::handle:vertical { background: palette(mid); min-height: 24px;"
            " border-radius: 4px; }"
            "QScrollBar::add-line:vertical, QScrollBar::sub-line:vertical { height: 0; }"
            "QScrollBar::add-page:vertical, QScrollBar::sub-page:vertical { background: none; }")
        self.row_scroll.valueChanged.connect(lambda _value: self._fit_rows())
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.row_scroll)

        plot = self.plot_item
        plot.hideButtons()
        plot.setMenuEnabled(False)
        plot.invertY(True)  # first side at the top
        plot.setMouseEnabled(x=True, y=False)  # rows move with the scroll bar only
        plot.showAxis("top")
        # The round titles in pixels: a wrapped title measured in points, then played back from
        # pyqtgraph's picture at another resolution, had its first line drawn above the axis.
        titles = QFont(self.font())
        titles.setPixelSize(QFontInfo(self.font()).pixelSize())
        plot.getAxis("top").setStyle(tickLength=0, tickFont=titles)
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
        # A weak tip: a strong self-reference cycle through the items crashes Qt when collected.
        tip_for = weakref.WeakMethod(self._tip_for)

        def tip(x: float, y: float, data: Any) -> str:
            method = tip_for()
            return method(x, y, data) if method else ""

        self.mark_item = _MarkScatter(hoverable=tips, tip=tip if tips else None, name="marks")
        self.mark_item.sigClicked.connect(self._on_points_clicked)
        # Legend samples only: styled like their kind, never added to the plot, never fed points.
        self.mark_samples: dict[MarkKind, pg.ScatterPlotItem] = {
            kind: pg.ScatterPlotItem(name=kind.value) for kind in MarkKind
        }
        self.legend.sigSampleClicked.connect(self._on_legend_clicked)
        self.highlight_item = pg.ScatterPlotItem(pxMode=True)
        self.highlight_line = pg.InfiniteLine(angle=90, movable=False)
        self.highlight_line.hide()

        for z, item in enumerate(
            [self.band_item, self.round_lines, self.guide_item, *self.bar_items.values(),
             self.arrow_item, self.arrow_heads, self.highlight_line,
             self.mark_item, self.highlight_item]
        ):
            item.setZValue(z - 100)
            plot.addItem(item)
        box = plot.getViewBox()
        box.sigYRangeChanged.connect(self._on_view_changed)
        box.sigResized.connect(self._on_view_changed)
        box.sigXRangeChanged.connect(lambda *_args: self._fit_round_titles())
        box.sigRangeChangedManually.connect(self._on_range_changed_by_hand)
        box.sigResized.connect(lambda *_args: self._fit_round_titles())
        self._apply_palette()

    # --- public -------------------------------------------------------------------------------

    @property
    def timeline_layout(self) -> TimelineLayout:
        """Gets where everything was placed by the last redraw."""
        return self._layout

    @property
    def highlighted_step(self) -> int | None:
        return self._highlighted

    def mark_points(self, kind: MarkKind) -> list[Any]:
        """Gets the points of ``mark_item`` that show steps of ``kind``."""
        points = self.mark_item.points()
        return [p for p, k in zip(points, self._fed_kinds, strict=True) if k is kind]

    def set_rounds_started(self, count: int) -> None:
        """Notes how many rounds have begun (drawn at the next set_resolution): a round just
        begun shows its heading before any of its steps is known."""
        self._rounds_started = count

    def set_resolution(
        self, resolution: Resolution | None, combatants: Sequence[Combatant] | None = None
    ) -> None:
        """Redraws for ``resolution``; ``combatants`` gives sides, names and row order."""
        self._resolution = resolution
        if combatants is not None:
            self._combatants = tuple(combatants)
        self._steps = self._labels = None  # for tooltips; built on the next hover
        if resolution is None:
            self._layout = TimelineLayout(axis=Axis.SEGMENT)
            self._by_hand = False
        else:
            self._layout = build_layout(resolution, self._combatants,
                                        self._rounds_started)
        self._redraw()
        keep = self._highlighted if self._highlighted in self._layout.step_x else None
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
        self._scroll_to_y(y)  # the ringed mark is never on a row scrolled out of view
        self.highlight_item.setData(
            x=[x], y=[y], symbol="o", size=26, brush=None, pen=pg.mkPen(self._fg, width=2.5)
        )
        self.highlight_line.setValue(x)
        self.highlight_item.show()
        self.highlight_line.show()

    def set_text_size(self, pixels: int) -> None:
        """Sets the size of every text the timeline draws (row names, axes, legend): large on
        a screen read from across a table."""
        font = QFont(self.font())
        font.setPixelSize(max(6, pixels))
        for name in ("left", "bottom", "top"):
            axis = self.plot_item.getAxis(name)
            axis.setStyle(tickFont=font)
            axis.labelStyle["font-size"] = f"{font.pixelSize()}px"
        self.legend.setLabelTextSize(f"{font.pixelSize()}px")
        self._drawn_ticks.clear()
        self._measured_labels = ()
        self._legend_kinds = None  # the legend's labels are made again at the new size
        self._redraw()

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

    def _over_bg(self, alpha: int) -> QColor:
        """Gets the palette's text colour at ``alpha`` blended over the background, opaque."""
        a = alpha / 255
        fg, bg = self._fg, self._bg
        return QColor.fromRgbF(
            fg.redF() * a + bg.redF() * (1 - a),
            fg.greenF() * a + bg.greenF() * (1 - a),
            fg.blueF() * a + bg.blueF() * (1 - a),
        )

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
            # Opaque, pre-blended over the background: the same pixels as a translucent band,
            # but filling most of the view with a solid colour costs far less than blending.
            brushes.append(pg.mkBrush(self._over_bg(22 if i % 2 == 0 else 10)))
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
        lines = (edges, y_lo, y_hi)
        if lines != self._drawn_round_lines:
            # Like the bands, the round lines only move when rounds or rows do; feeding the same
            # lines again would mark the whole plot dirty and repaint it for nothing.
            self._drawn_round_lines = lines
            self.round_lines.setData(
                x=_array([x for x in edges for _ in (0, 1)]),
                y=_array([y for _ in edges for y in (y_lo, y_hi)]),
            )
        gx = [g.x for g in lay.guides for _ in (0, 1)]
        gy = [y for g in lay.guides for y in (g.y0, g.y1)]
        if gx or self.guide_item.isVisible():  # no guides before, none now: nothing to do
            self.guide_item.setData(x=_array(gx), y=_array(gy))
            self.guide_item.setVisible(bool(gx))

    def _style_items(self) -> None:
        """Sets each kind's look once per palette; redraws then only feed coordinates."""
        for span_kind, bar in self.bar_items.items():
            span_style = SPAN_STYLES[span_kind]
            bar.setOpts(brush=pg.mkBrush(self._colour(span_style.colour, span_style.alpha)))
        for mark_kind, sample in self.mark_samples.items():
            style = MARK_STYLES[mark_kind]
            colour = self._colour(style.colour)
            pen = pg.mkPen(colour, width=1.0 if style.filled else 2.0)
            brush = pg.mkBrush(colour) if style.filled else pg.mkBrush(None)
            # One pen and brush object per kind, shared by all its points: cheap atlas look-ups.
            self._look_pens[_KIND_RANK[mark_kind]] = pen
            self._look_brushes[_KIND_RANK[mark_kind]] = brush
            sample.setSymbol(style.symbol)
            sample.setSize(style.size)
            sample.setPen(pen)
            sample.setBrush(brush)

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
        hidden = {kind for kind, sample in self.mark_samples.items() if not sample.isVisible()}
        marks = [m for m in lay.marks if m.kind not in hidden] if hidden else list(lay.marks)
        # Kinds in MarkKind order, as separate items per kind would stack (later kinds on top).
        marks.sort(key=_kind_rank)
        item = self.mark_item
        if _skip_empty(item, len(marks)):
            self._fed_kinds = []
            return
        seqs, kinds, xs, ys = zip(*marks, strict=True)
        self._fed_kinds = list(kinds)
        rank = np.fromiter(map(_KIND_RANK.__getitem__, kinds), dtype=np.intp, count=len(kinds))
        item.setData(
            x=_array(xs),
            y=_array(ys),
            data=np.array(seqs, dtype=object),
            symbol=self._look_symbols[rank],
            size=self._look_sizes[rank],
            pen=self._look_pens[rank],
            brush=self._look_brushes[rank],
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
        # No rounds (time units): no top axis, no "Round n" marks.
        if self.plot_item.getAxis("top").isVisibleTo(self.plot_item) != bool(lay.rounds):
            self.plot_item.showAxis("top", bool(lay.rounds))  # only on a change: costly
        self._fit_round_titles()
        ticks = list(lay.ticks)
        if not ticks and lay.axis is Axis.SEQ:  # places in the order of play are whole: 1, 2…
            lo, hi = lay.x_range
            every = max(1, math.ceil((hi - lo) / 20))  # about twenty labels at most
            ticks = [(float(n), str(n))
                     for n in range(max(1, math.ceil(lo)), math.floor(hi) + 1, every)]
        self._set_ticks("bottom", ticks or None)
        if self._drawn_ticks.get("title") != [(0.0, lay.axis.value)]:
            self._drawn_ticks["title"] = [(0.0, lay.axis.value)]
            self.plot_item.getAxis("bottom").setLabel(AXIS_TITLES[lay.axis])
        ranges = (lay.x_range, lay.y_range)
        if ranges != self._drawn_ranges:  # a new range repaints every axis from scratch
            self._drawn_ranges = ranges
            if not self._by_hand:  # every step, up to the clock, in view
                self.plot_item.setXRange(*lay.x_range, padding=0.01)
            self._y_window = None
        self._fit_rows()

    def _row_metrics(self) -> QFontMetrics:
        return QFontMetrics(self.plot_item.getAxis("left").style.get("tickFont") or self.font())

    def row_pitch(self) -> float:
        """Gets the fewest pixels a row needs for its name to be read."""
        return float(self._row_metrics().height() + 2)

    def _fit_rows(self) -> None:
        """Shows the rows that fit at a readable pitch; the scroll bar reaches the others."""
        if self._fitting:
            return
        self._fitting = True
        try:
            y_lo, y_hi = self._layout.y_range
            total = y_hi - y_lo
            height = self.plot_item.getViewBox().height()
            fits = height / self.row_pitch() if height > 0 else total
            bar = self.row_scroll
            if fits >= total or not self.scroll_rows:
                bar.hide()
                window = (y_lo, y_hi)
            else:
                bar.setRange(0, math.ceil((total - fits) * _SCROLL_STEPS))
                bar.setPageStep(max(1, int(fits * _SCROLL_STEPS)))
                bar.setSingleStep(_SCROLL_STEPS)
                bar.show()
                top = y_lo + bar.value() / _SCROLL_STEPS
                window = (top, top + fits)
            if window != self._y_window:
                self._y_window = window
                self.plot_item.setYRange(*window, padding=0)
            self._update_row_labels()
        finally:
            self._fitting = False

    def scroll_to_row(self, cid: str) -> None:
        """Scrolls the rows so that ``cid``'s row is shown."""
        row = next((r for r in self._layout.rows if r.cid == cid), None)
        if row is not None:
            self._scroll_to_y(row.y)

    def _scroll_to_y(self, y: float) -> None:
        if self.row_scroll.isHidden() or self._y_window is None:
            return
        top, bottom = self._y_window
        if top <= y - 0.5 and y + 0.5 <= bottom:
            return  # already in view
        wanted = (y - (bottom - top) / 2 - self._layout.y_range[0]) * _SCROLL_STEPS
        self.row_scroll.setValue(max(0, min(self.row_scroll.maximum(), round(wanted))))

    def named_rows(self) -> list[str]:
        """Gets the row names the left axis shows now (what a DM can read)."""
        ticks = self._drawn_ticks.get("left") or []
        return [text for _, text in ticks]

    def _update_row_labels(self) -> None:
        lay = self._layout
        labels = [(side.header_y, f"{side.side.upper()} ▾") for side in lay.sides]
        labels += [(row.y, row.label) for row in lay.rows]
        left = self.plot_item.getAxis("left")
        metrics = self._row_metrics()
        texts = tuple(text for _, text in labels)
        if texts != self._measured_labels:
            # The axis does not grow for explicit ticks: it drops labels that do not fit.
            self._measured_labels = texts
            left.setWidth(max((metrics.horizontalAdvance(t) for t in texts), default=0) + 14)
        # _fit_rows keeps every row at least a text line high: each row in view is named.
        box = self.plot_item.getViewBox()
        y_lo, y_hi = box.viewRange()[1]
        shown = [(y, text) for y, text in labels if y_lo - 0.01 <= y <= y_hi + 0.01]
        pitch = box.height() / max(y_hi - y_lo, 1.0)
        every = max(1, math.ceil(metrics.height() / pitch)) if pitch > 0 else 1
        if every > 1 and not self.scroll_rows:
            # A picture cannot scroll: label every k-th row rather than print a black smear.
            headers = labels[: len(lay.sides)]
            rows = labels[len(lay.sides) :: every]
            rows = [r for r in rows if all(abs(r[0] - h[0]) >= every for h in headers)]
            shown = headers + rows
        self._set_ticks("left", shown)

    def _fit_round_titles(self) -> None:
        """Heads each round over the part of it in view, its title wrapped to that width.

        One line centred on the whole round ran past the plot's edge and was cut ("Round 2 —
        first full round (round 1 was the"): the title is whole in view, on as many lines as
        it needs."""
        rounds = self._layout.rounds
        box = self.plot_item.getViewBox()
        lo, hi = box.viewRange()[0]
        width = box.width()
        if not rounds or width <= 1 or hi <= lo:
            self._set_ticks("top", [((b.x0 + b.x1) / 2, b.label) for b in rounds])
            return
        axis = self.plot_item.getAxis("top")
        metrics = QFontMetrics(axis.style.get("tickFont") or self.font())
        per = width / (hi - lo)  # pixels per unit of the axis
        ticks = []
        gap = 8 / per  # between two titles side by side
        edge = lo  # where the title before ends: a narrow round's words reach past it
        for block in rounds:
            left, right = max(block.x0, lo, edge + gap), min(block.x1, hi)
            if right <= left:
                continue  # scrolled out of view
            lines = wrap_words(block.label, metrics, (right - left) * per)
            half = max(metrics.horizontalAdvance(line) for line in lines) / per / 2
            # a word wider than a narrow round stays inside the plot
            centre = min(max((left + right) / 2, lo + half), hi - half)
            edge = centre + half
            ticks.append((centre, "\n".join(lines)))
        self._set_ticks("top", ticks)
        # As tall as the most lines: pyqtgraph sizes the axis to 0.8 of its text's height, a
        # line short at four lines, and the first line was drawn above the plot.
        most = max((text.count("\n") + 1 for _x, text in ticks), default=1)
        height = most * metrics.lineSpacing() + axis.style["tickTextOffset"][1] + 2
        if axis.fixedHeight != height:
            axis.setHeight(height)

    def _set_ticks(self, name: str, ticks: list[tuple[float, str]] | None) -> None:
        if self._drawn_ticks.get(name, ()) != ticks:  # setTicks always repaints the axis
            self._drawn_ticks[name] = ticks
            self.plot_item.getAxis(name).setTicks([ticks, []] if ticks is not None else None)

    def _draw_legend(self, lay: TimelineLayout) -> None:
        # The key keeps every kind the fight has shown: dropped when the last waiting blow
        # was recorded and back at its Ctrl+Z, it was made again at each (its labels cost
        # more than all the marks) and the plot jumped as the legend's height changed.
        span_kinds, mark_kinds = self._legend_seen
        span_kinds.update(s.kind for s in lay.spans)
        mark_kinds.update(m.kind for m in lay.marks)
        spans = [k for k in SpanKind if k in span_kinds]
        marks = [k for k in MarkKind if k in mark_kinds]
        if (spans, marks) == self._legend_kinds:
            return  # rebuilding the legend's labels costs more than all the marks
        self._legend_kinds = (spans, marks)
        self.legend.clear()
        # One line for up to eight kinds (a second line took the rows' room at 1280x720), as
        # many lines as the width needs (_fit_legend).
        self.legend.setColumnCount(max(1, min(8, len(spans) + len(marks))))
        for span_kind in spans:
            self.legend.addItem(self.bar_items[span_kind], SPAN_STYLES[span_kind].label)
        for mark_kind in marks:
            self.legend.addItem(self.mark_samples[mark_kind], MARK_STYLES[mark_kind].label)
        cached = QGraphicsItem.CacheMode.DeviceCoordinateCache
        for sample, label in self.legend.items:
            # The legend's own cache leaves out its children: each sample would draw its symbol
            # in Python, and each label lay out its text, on every paint.
            sample.setCacheMode(cached)
            label.setCacheMode(cached)
            label.item.setCacheMode(cached)
        self._fit_legend()

    def _fit_legend(self) -> None:
        """Puts the legend on as few lines as the panel's width allows. One line of eight
        kinds was wider than the 1280x720 Timeline panel: it widened the whole plot past the
        panel's edge, and cut the legend's last words and the round titles with it."""
        items = self.legend.items
        if not items:
            return
        room = self.view.viewport().width() - 8
        spacing = self.legend.layout.horizontalSpacing()
        widths = [sample.boundingRect().width() + label.boundingRect().width() + 2 * spacing
                  for sample, label in items]
        columns = 1
        for count in range(min(8, len(items)), 0, -1):
            needed = sum(max(widths[j::count]) for j in range(count))
            if needed <= room:
                columns = count
                break
        if columns != self.legend.columnCount:
            self.legend.setColumnCount(columns)
            # the plot laid out at the old legend's width stays that wide until told again
            self.legend.layout.invalidate()
            self.view.setRange(self.view.range, padding=0, disableAutoPixel=False)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_legend()

    # --- events --------------------------------------------------------------------------------

    def _on_view_changed(self, *args: Any) -> None:
        if not self._fitting:
            self._fit_rows()

    def _on_range_changed_by_hand(self, *_args: Any) -> None:
        self._by_hand = True

    def _on_legend_clicked(self, item: Any) -> None:
        # The sample has just toggled its own visibility: feed the marks again without (or with)
        # that kind. A bar sample toggles the bar item itself, as pyqtgraph does.
        if item in self.mark_samples.values():
            self._draw_marks(self._layout)

    def _tip_for(self, x: float, y: float, data: Any) -> str:
        if self._resolution is None:
            return ""
        if self._steps is None or self._labels is None:
            self._steps = {s.seq: s for s in self._resolution.steps}
            self._labels = {c.id: c.label for c in self._combatants or ()}
        step = self._steps.get(data)
        if step is None:
            return ""
        return step_tooltip(step, self._resolution.system, self._labels)

    def _on_points_clicked(self, item: pg.ScatterPlotItem, points: Sequence[Any], ev: Any) -> None:
        if len(points) == 0:
            return
        seq = int(points[0].data())
        self.highlight_step(seq)
        self.step_selected.emit(seq)


def wrap_words(text: str, metrics: QFontMetrics, width: float) -> list[str]:
    """Gets ``text`` on lines no wider than ``width`` pixels, broken between words (a word
    wider than that is a line of its own, whole)."""
    lines: list[str] = []
    for word in text.split():
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and metrics.horizontalAdvance(joined) <= width:
            lines[-1] = joined
        else:
            lines.append(word)
    return lines or [""]
