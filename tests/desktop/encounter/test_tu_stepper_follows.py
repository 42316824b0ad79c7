"""time-units without the encounter d6s (the DM checked surprise only): the stepper moves from
the encounter phase to "Declare actions and roll d10 initiative" while d10s are asked for, then
to "Run the TU clock" while the clock runs (it stayed on the encounter phase)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from desktop.encounter.tu_board import TimeUnitBoard
from tests.desktop.encounter.conftest import fill_and_declare, scenario, type_die
from tests.desktop.encounter.test_stepper_follows_play import _highlighted, _marked


def test_the_tu_stepper_follows_declarations_and_the_clock(start: Any) -> None:
    ws = start(scenario("time-units/bolog.json"))
    board = ws.board
    assert isinstance(board, TimeUnitBoard)
    assert "Encounter" in _marked(ws)
    assert ws.stepper.surprise_button is not None
    ws.stepper.surprise_button.click()
    for purpose in [r.purpose for r in ws.controller.rolls_needed()]:
        type_die(ws, purpose, "5")  # nobody surprised
    assert "Encounter" in _marked(ws), "no action declared yet: the encounter d6s may come"
    palette = board.palette_model
    melee = palette.mimeData([palette.index(0, 0)])
    bolog = board.cards_model.index(board.cards_model.row_of("bolog"), 0)
    assert board.cards_model.dropMimeData(melee, Qt.DropAction.CopyAction, -1, 0, bolog)
    fill_and_declare(board, target="orc-1", weapon="quarterstaff")
    needed = [r.purpose for r in ws.controller.rolls_needed()]
    assert needed and all(p.startswith("initiative bolog") for p in needed)
    assert _marked(ws) == "▶ Declare actions and roll d10 initiative"
    assert _highlighted(ws) == _marked(ws)
    type_die(ws, needed[0], "9")
    assert _marked(ws) == "▶ Run the TU clock"
    assert board.advance() == 1
    assert _marked(ws) == "▶ Run the TU clock" and _highlighted(ws) == _marked(ws)
