"""Time to redraw the timeline for 200 combatants × one round, against bare pyqtgraph.

Run by hand: ``.venv/bin/python bench/bench_timeline.py`` (offscreen). One redraw is
``set_resolution`` + ``processEvents`` + a forced repaint (``widget.grab()``); the baseline feeds
the same number of scatter points and bars to one ScatterPlotItem and one BarGraphItem in a bare
PlotWidget of the same size and repaints it the same way. Prints both medians and the ratio
(target: at most 1.5×). Asserts nothing.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QApplication

from core.cli.commands import resolve_scenario
from core.model.scenario import parse_scenario
from desktop.timeline import TimelineWidget

COMBATANTS = 200
SIZE = (1280, 800)
REPEATS = 40


def scenario_document(n: int) -> dict[str, Any]:
    """Gets a side-d6 round where everyone acts: every fifth party member casts, others fight."""
    half = n // 2
    cast: list[dict[str, Any]] = []
    declarations: list[dict[str, Any]] = []
    for i in range(n):
        party = i < half
        cid = f"p{i}" if party else f"m{i - half}"
        foe = f"m{i % (n - half)}" if party else f"p{(i - half) % half}"
        entry: dict[str, Any] = {"id": cid, "side": "party" if party else "monsters", "hp": 30}
        if party and i % 5 == 0:
            entry["spells"] = [{"name": "sleep", "level": 1, "casting_time": 1 + i % 3}]
            declarations.append({"actor": cid, "action": "spell", "spell": "sleep", "target": foe})
        else:
            hit = i % 3 == 0
            declarations.append(
                {"actor": cid, "action": "attack", "target": foe, "hit": hit,
                 "damage": 2 if hit else 0}
            )
        cast.append(entry)
    return {
        "format": "combatdesk/scenario-1",
        "system": "side-d6",
        "combatants": cast,
        "rounds": [{"initiative": {"party": 3, "monsters": 5}, "declarations": declarations}],
    }


def interleaved_medians(*runs: Callable[[], None]) -> list[float]:
    """Times the runs in turn, REPEATS times, so a busy machine slows all of them alike."""
    for run in runs:
        run()  # warm-up: the first paint builds fonts and symbol atlases
    times: list[list[float]] = [[] for _ in runs]
    for _ in range(REPEATS):
        for run, spent in zip(runs, times, strict=True):
            start = time.perf_counter()
            run()
            spent.append((time.perf_counter() - start) * 1000)
    return [statistics.median(spent) for spent in times]


def main() -> None:
    app = QApplication.instance() or QApplication([])
    scenario = parse_scenario(scenario_document(COMBATANTS))
    resolution = resolve_scenario(scenario)

    timeline = TimelineWidget()
    timeline.resize(*SIZE)
    timeline.show()

    def redraw_timeline() -> None:
        timeline.set_resolution(resolution, scenario.combatants)
        app.processEvents()
        timeline.grab()

    redraw_timeline()
    lay = timeline.timeline_layout
    n_points, n_bars = len(lay.marks), len(lay.spans)

    bare = pg.PlotWidget()
    bare.resize(*SIZE)
    bare.show()
    scatter = pg.ScatterPlotItem()
    bars = pg.BarGraphItem(x0=[], x1=[], y0=[], height=0.3, pen=None)
    bare.addItem(bars)
    bare.addItem(scatter)
    rng = np.random.default_rng(1)
    px, py = rng.uniform(1, 10, n_points), rng.integers(0, COMBATANTS, n_points).astype(float)
    bx0 = rng.integers(1, 9, n_bars).astype(float)
    by = rng.integers(0, COMBATANTS, n_bars).astype(float)

    def redraw_bare() -> None:
        bars.setOpts(x0=bx0, x1=bx0 + 2, y0=by, height=0.3, brush="b", pen=None)
        scatter.setData(x=px, y=py, symbol="t1", size=14, brush="r")
        app.processEvents()
        bare.grab()

    timeline_ms, bare_ms = interleaved_medians(redraw_timeline, redraw_bare)

    print(f"timeline redraw, {COMBATANTS} combatants × 1 round (side-d6): "
          f"{len(resolution.steps)} steps → {n_points} points, {n_bars} bars, "
          f"{SIZE[0]}×{SIZE[1]} px, median of {REPEATS}")
    print(f"  TimelineWidget.set_resolution + processEvents + grab: {timeline_ms:8.2f} ms")
    print(f"  bare pyqtgraph, same points and bars:                 {bare_ms:8.2f} ms")
    print(f"  ratio: {timeline_ms / bare_ms:.2f}× (target ≤ 1.5×)")
    timeline.close()
    bare.close()


if __name__ == "__main__":
    main()
