"""time-units through the GUI: palette drops onto combatants, d10s typed, the TU clock."""

from __future__ import annotations

from PySide6.QtCore import Qt

from desktop.encounter.tu_board import TimeUnitBoard
from tests.desktop.encounter.conftest import (
    cli_steps,
    fill_and_declare,
    gui_steps,
    press_on_card,
    scenario,
    type_die,
)


def test_bolog_built_in_the_gui_resolves_as_the_cli(start) -> None:  # type: ignore[no-untyped-def]
    document = scenario("time-units/bolog.json")
    ws = start(document)
    board = ws.board
    assert isinstance(board, TimeUnitBoard)
    palette = board.palette_model
    spell = palette.mimeData([palette.index(2, 0)])
    assert spell.hasFormat("application/x-combatdesk-action")
    bolog = board.cards_model.index(board.cards_model.row_of("bolog"), 0)
    assert board.cards_model.canDropMimeData(spell, Qt.DropAction.CopyAction, -1, 0, bolog)
    assert board.cards_model.dropMimeData(spell, Qt.DropAction.CopyAction, -1, 0, bolog)
    fill_and_declare(board, spell="magic missile", target="orc-1")
    assert [r.purpose for r in ws.controller.rolls_needed()] == ["initiative bolog (spell)"]
    row = type_die(ws, "initiative bolog (spell)", "11")
    assert "1–10" in row.error.text() and "roll" not in ws.controller.state.actions[0]
    type_die(ws, "initiative bolog (spell)", "8")
    press_on_card(board, "bolog", "M")  # M: melee from the palette, by keyboard
    fill_and_declare(board, target="orc-2", weapon="quarterstaff")
    type_die(ws, "initiative bolog (melee, 2nd action)", "7")
    assert gui_steps(ws) == cli_steps(document)

    assert board.advance() == 1
    assert ws.sync.selected_step() == 1 and ws.timeline.highlighted_step == 1
    assert "TU clock: 14" in board.clock_label.text()
    board.advance()
    assert board.advance() == 3 and "TU clock: 28" in board.clock_label.text()
    assert board.advance() is None
