"""time-units: the Timeline shows the TU clock. At TU 54 it showed TU 0–22 only (103-tu-timeline):
the later steps were off the panel until the DM zoomed out, and then the axis ran to the
panel's edge near 40 (104-tl-wheel)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF
from pytestqt.qtbot import QtBot

from core.store import Store
from desktop.encounter.tu_board import TimeUnitBoard
from desktop.encounter.workspace import EncounterWorkspace
from tests.desktop.encounter.conftest import fill_and_declare, press_on_card, scenario, type_die


def _on_panel(ws: EncounterWorkspace, tu: float) -> bool:
    """True when the place of ``tu`` on the Timeline's axis is inside the Timeline's panel."""
    timeline = ws.timeline
    box = timeline.plot_item.getViewBox()
    lo, hi = box.viewRange()[0]
    if not lo <= tu <= hi:
        return False
    scene = box.mapViewToScene(QPointF(tu, box.viewRange()[1][0]))
    at = timeline.view.mapFromScene(scene)
    inside = timeline.view.mapTo(timeline, QPoint(at.x(), 1)).x()
    return 0 <= inside < timeline.width() - 4


def test_the_timeline_shows_every_step_up_to_the_clock_as_it_advances(
        start, store: Store, qtbot: QtBot) -> None:  # type: ignore[no-untyped-def]
    document = scenario("time-units/bolog.json")
    document["combatants"][0]["name"] = "Bolog"
    document["combatants"][1]["name"] = "Orc 1"
    ws = start(document)
    ws.resize(1272, 640)  # the encounter tab at 1280x720
    ws.show()
    qtbot.waitExposed(ws)
    ws.panels.docks["timelineDock"].raise_()  # the Timeline tab in front
    qtbot.waitUntil(lambda: ws.timeline.width() > 300)
    board = ws.board
    assert isinstance(board, TimeUnitBoard)
    for nth in ("", ", 2nd action", ", 3rd action", ", 4th action", ", 5th action"):
        press_on_card(board, "orc-1", "M")
        fill_and_declare(board, target="bolog")
        type_die(ws, f"initiative orc-1 (melee{nth})", "10")
    seen = []
    while board.advance() is not None:
        qtbot.wait(1)
        clock = int(board.clock_label.text().removeprefix("TU clock: "))
        seen.append(clock)
        assert _on_panel(ws, 0) and _on_panel(ws, clock), (seen, ws.timeline.width())
    assert seen[-1] >= 50, seen
