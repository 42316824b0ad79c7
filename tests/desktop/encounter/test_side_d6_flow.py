"""side-d6 through the GUI: the Halvaine example built by drops, keys and typed dice."""

from __future__ import annotations

from desktop.encounter.letter_board import LetterBoard
from desktop.encounter.stepper import AUTO_MARK, MANUAL_MARK
from tests.desktop.encounter.conftest import (
    cli_steps,
    drop_card,
    fill_and_declare,
    gui_steps,
    press_on_card,
    record,
    scenario,
    type_die,
)


def test_halvaine_example_built_in_the_gui_resolves_as_the_cli(start) -> None:  # type: ignore[no-untyped-def]
    document = scenario("side-d6/halvaine-example.json")
    ws = start(document)
    board = ws.board
    assert isinstance(board, LetterBoard)
    assert drop_card(board, board.lanes["spell"].model, "halvaine")
    fill_and_declare(board, spell="sleep", target="orc-1")
    press_on_card(board, "orc-1", "1")  # key 1: the attack lane
    assert board.editor.action == "attack"
    fill_and_declare(board, target="halvaine")
    assert board.lanes["attack"].model.texts() == ["orc-1 → Halvaine the Arcane"]

    row = type_die(ws, "initiative party", "7")
    assert "1–6" in row.error.text() and "7 is not possible" in row.error.text()
    assert "initiative" not in ws.controller.state.rounds[-1]
    type_die(ws, "initiative party", "5")
    type_die(ws, "initiative monsters", "4")
    assert ws.controller.rolls_needed() == []
    assert all(MANUAL_MARK in ws.stepper.made_model.item(i).text() for i in range(2))

    record(ws, "orc-1", hit=False)
    assert gui_steps(ws) == cli_steps(document)
    assert ws.timeline.timeline_layout is not None


def test_ctrl_z_undoes_the_last_command_including_a_roll_and_redo_restores_it(  # type: ignore[no-untyped-def]
    start, qtbot
) -> None:
    ws = start(scenario("side-d6/halvaine-example.json"))
    board = ws.board
    drop_card(board, board.lanes["attack"].model, "orc-1")
    fill_and_declare(board, target="halvaine")
    request = ws.controller.rolls_needed()[0]
    assert ws.controller.roll(request)
    assert AUTO_MARK in ws.stepper.made_model.item(0).text()
    before = len(ws.session.log.commands)
    ws.controller.stack.undo()
    assert len(ws.session.log.commands) == before - 1 and not ws.controller.state.rolls
    ws.controller.stack.redo()
    assert len(ws.session.log.commands) == before and len(ws.controller.state.rolls) == 1
    # reroll: undo + a fresh roll of the same die, one command
    assert ws.controller.change_last_roll() is None
    assert len(ws.session.log.commands) == before
    # type over it: a bad value changes nothing, a good one replaces it
    assert ws.controller.change_last_roll("9") is not None
    assert len(ws.controller.state.rolls) == 1
    assert ws.controller.change_last_roll("3") is None
    assert ws.controller.state.rolls[-1].manual and ws.controller.state.rolls[-1].total == 3


def test_damage_to_the_caster_before_completion_shows_the_spell_lost(start) -> None:  # type: ignore[no-untyped-def]
    ws = start(scenario("side-d6/halvaine-example.json"))
    board = ws.board
    drop_card(board, board.lanes["spell"].model, "halvaine")
    fill_and_declare(board, spell="sleep", target="orc-1")
    drop_card(board, board.lanes["attack"].model, "orc-1")
    fill_and_declare(board, target="halvaine")
    type_die(ws, "initiative party", "5")
    type_die(ws, "initiative monsters", "4")
    record(ws, "orc-1", hit=True, damage=3)
    events = [s.event for s in ws.controller.resolution.steps]
    assert "spell-disrupted" in events and "spell-takes-effect" not in events
    notes = [ws.status_model.notes_of(r) for r in range(ws.status_model.rowCount())]
    assert any("spell lost: sleep" in n for n in notes)
