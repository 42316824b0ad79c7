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


def test_one_creature_marked_surprised_at_the_table_starts_from_tu_10(start) -> None:  # type: ignore[no-untyped-def]
    """time-units.surprise.d6 ("a combatant may be marked surprised on its own") and
    time-units.surprise.first-action-from-tu-10: the DM selects Orc 1's card and presses Mark
    Surprised; its card says so, its first action counts from TU 10 as a scenario's
    ``surprised: true`` does, and one Ctrl+Z takes the mark back."""
    from PySide6.QtWidgets import QApplication

    document = scenario("time-units/bolog.json")
    document["combatants"][1]["name"] = "Orc 1"
    ws = start(document)
    board = ws.board
    assert isinstance(board, TimeUnitBoard)
    board.cards.select_id("orc-1")
    assert board.surprised_button.text() == "Mark Surprised"
    board.surprised_button.click()

    def card(cid: str) -> str:
        model = board.cards_model
        return str(model.index(model.row_of(cid), 0).data())

    assert "surprised: first action from TU 10" in card("orc-1")
    assert "next at TU 0" not in card("orc-1")  # its surprise mark is no action to come
    assert "surprised" not in card("orc-2")
    assert board.surprised_button.text() == "Not Surprised"
    assert ws.controller.stack.undoText() == "Mark Orc 1 surprised"
    press_on_card(board, "orc-1", "M")
    fill_and_declare(board, target="bolog")
    type_die(ws, "initiative orc-1 (melee)", "4")
    marked = {**document, "actions": [{"actor": "orc-1", "action": "melee", "target": "bolog",
                                       "roll": 4}]}
    marked["combatants"] = [dict(c) for c in document["combatants"]]
    marked["combatants"][1]["surprised"] = True
    assert gui_steps(ws) == cli_steps(marked)
    orc_steps = [s for s in ws.controller.resolution.steps if s.actor == "orc-1"]
    assert str(orc_steps[0].event) == "surprised"
    assert "time-units.surprise.first-action-from-tu-10" in orc_steps[0].because
    unmarked = {**marked, "combatants": document["combatants"]}
    alone = [s["tu"] for s in cli_steps(unmarked) if s["actor"] == "orc-1"]
    assert [(str(s.event), s.tu) for s in orc_steps[1:]] == [("attacks", alone[0] + 10)]

    ws.controller.stack.undo()  # the d10
    ws.controller.stack.undo()  # the action
    assert ws.controller.stack.undoText() == "Mark Orc 1 surprised"
    ws.controller.stack.undo()  # the mark: one Ctrl+Z
    QApplication.processEvents()
    assert "surprised" not in card("orc-1")
    assert ws.controller.state.combatants["orc-1"].surprised is None
    board.cards.select_id("orc-1")
    assert board.surprised_button.text() == "Mark Surprised"
    ws.controller.stack.redo()
    board.cards.select_id("orc-1")
    board.surprised_button.click()  # pressed again: back to its side's die
    assert ws.controller.state.combatants["orc-1"].surprised is None
    assert ws.controller.stack.undoText() == "Orc 1: surprised as the side's die says"
    board.cards.setCurrentIndex(board.cards_model.index(-1, 0))
    board.surprised_button.click()  # nobody selected: refused in words
    assert board.message.text() == "Refused: select a creature to mark it surprised"
