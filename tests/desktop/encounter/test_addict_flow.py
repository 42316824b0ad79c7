"""addict through the GUI: letters P, A–H, typed initiative, outcomes, the declaration timer."""

from __future__ import annotations

from desktop.encounter.letter_board import LetterBoard
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


def test_winner_first_letter_order_built_in_the_gui_resolves_as_the_cli(start) -> None:  # type: ignore[no-untyped-def]
    document = scenario("addict/winner-first-letter-order.json")
    ws = start(document)
    board = ws.board
    assert isinstance(board, LetterBoard)
    assert list(board.lanes) == list("PABCDEFGH")
    assert "Strike blows" in board.lanes["G"].toolTip()
    assert len(ws.stepper.phases) == 11
    for actor, letter, target in (("orc-2", "G", "fighter"), ("fighter", "G", "orc-1"),
                                  ("orc-1", "G", "fighter"), ("archer", "D", "orc-2")):
        assert drop_card(board, board.lanes[letter].model, actor)
        fill_and_declare(board, target=target)
    type_die(ws, "initiative party", "4")
    type_die(ws, "initiative monsters", "2")
    record(ws, "orc-1", True, 5)  # before the fighter's blow takes it out of the round
    record(ws, "orc-2", True, 4)
    record(ws, "fighter", True, 6)
    record(ws, "archer", False)
    record(ws, "archer", True, 3, another=True)
    assert gui_steps(ws) == cli_steps(document)


def test_the_declaration_timer_turns_real_seconds_into_delay(start, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    ws = start(scenario("addict/winner-first-letter-order.json"))
    board = ws.board
    assert isinstance(board, LetterBoard)
    board.cards.select_id("fighter")  # the fighter's turn to declare begins: the clock starts
    assert board.timing == "fighter" and board.timer.isValid()
    monkeypatch.setattr(board.timer, "elapsed", lambda: 13_400)
    board._show_timer()
    assert "13 s" in board.timer_label.text() and "delay 2 segments" in board.timer_label.text()
    press_on_card(board, "fighter", "G")
    assert board.editor.delay_seconds.value() == 13
    fill_and_declare(board, target="orc-1")
    entry = ws.controller.state.rounds[-1]["declarations"][0]
    assert entry["delay_seconds"] == 13 and entry["action"] == "G"
    step = next(s for s in ws.controller.resolution.steps if s.actor == "fighter")
    assert step.segment == 3  # 1 + floor(13 / 6)


def test_a_spell_without_target_is_refused_with_the_engines_reason(start) -> None:  # type: ignore[no-untyped-def]
    document = scenario("addict/winner-first-letter-order.json")
    document["combatants"][1]["spells"] = [{"name": "sleep", "casting_time": 1}]
    ws = start(document)
    board = ws.board
    drop_card(board, board.lanes["D"].model, "archer")
    fill_and_declare(board, spell="sleep")
    assert board.message.text().startswith("Refused: ")
    assert "target" in board.message.text()
    assert not ws.controller.state.rounds[-1]["declarations"]
