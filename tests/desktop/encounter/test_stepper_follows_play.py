"""The stepper shows the phase the engine waits for, no further (issue 24): declarations stay
the phase while anyone still declares; side-d6's surprise round is the surprise phase; the
highlighted row and ▶ agree, or a note says which phase is only being read."""

from __future__ import annotations

from typing import Any

from core.fight.encounter import set_field, start_round
from desktop.encounter.letter_board import LetterBoard
from tests.desktop.encounter.conftest import drop_card, fill_and_declare, scenario


def _marked(ws: Any) -> str:
    items = [ws.stepper.phase_list.item(r) for r in range(ws.stepper.phase_list.count())]
    return next(i.text() for i in items if i.text().startswith("▶"))


def _highlighted(ws: Any) -> str:
    return str(ws.stepper.phase_list.currentItem().text())


def test_addict_stays_on_declarations_until_everyone_declared(start: Any) -> None:
    ws = start(scenario("addict/winner-first-letter-order.json"))
    board = ws.board
    assert isinstance(board, LetterBoard)
    plays = [("orc-2", "G", "fighter"), ("fighter", "G", "orc-1"),
             ("orc-1", "G", "fighter"), ("archer", "D", "orc-2")]
    for n, (actor, letter, target) in enumerate(plays):
        assert drop_card(board, board.lanes[letter].model, actor)
        fill_and_declare(board, target=target)
        expected = "Phase 7" if n == len(plays) - 1 else "Phase 6"
        assert expected in _marked(ws), (actor, _marked(ws))
        assert _highlighted(ws) == _marked(ws)
        assert not ws.stepper.reading_note.isVisible()


def test_a_clicked_phase_is_read_and_said_so_until_the_next_action(start: Any) -> None:
    ws = start(scenario("addict/winner-first-letter-order.json"))
    playing = _marked(ws)
    last = ws.stepper.phase_list.count() - 1
    ws.stepper.phase_list.setCurrentRow(last)  # what a click on the last row does
    assert ws.stepper.current_index() == last
    assert ws.stepper.reading_note.isVisibleTo(ws.stepper)
    note = ws.stepper.reading_note.text()
    assert "Reading: Phase 11" in note and playing.removeprefix("▶ ") in note
    board = ws.board
    assert drop_card(board, board.lanes["G"].model, "fighter")
    fill_and_declare(board, target="orc-1")
    assert _highlighted(ws) == _marked(ws)
    assert not ws.stepper.reading_note.isVisibleTo(ws.stepper)


def test_side_d6_surprise_round_never_shows_segments_1_to_10(start: Any) -> None:
    ws = start({"system": "side-d6", "seed": 1, "combatants": [
        {"id": "kell", "name": "Kell", "side": "party", "hp": 10},
        {"id": "orc-1", "name": "Orc 1", "side": "monsters", "hp": 6}]})
    ws.controller.run(set_field("surprise", {"party": 5, "monsters": 1}))
    ws.controller.run(start_round(1, {"surprise": True}))
    assert "surprise" in _marked(ws).lower() and "1–10" not in _marked(ws)
    board = ws.board
    assert drop_card(board, board.lanes[next(iter(board.lanes))].model, "kell")
    fill_and_declare(board, target="orc-1")
    assert "surprise" in _marked(ws).lower() and "1–10" not in _marked(ws)
