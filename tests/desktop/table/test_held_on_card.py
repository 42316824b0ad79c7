"""A creature held (or asleep) shows so on its card in the Combatants list, as unconscious and
fled do; once the condition ends, the card no longer says it."""

from __future__ import annotations

from desktop.encounter.letter_board import LetterBoard
from desktop.main_window import MainWindow
from tests.desktop.table.conftest import IdWatch, button
from tests.desktop.table.letter_helpers import (  # noqa: F401 (letter_ids is a fixture)
    drop_card,
    fill,
    letter_ids,
    start_fight,
    type_die,
)


def _card(board: LetterBoard, name: str) -> str:
    model = board.cards_model
    texts = [str(model.data(model.index(row, 0))) for row in range(model.rowCount())]
    return next(t for t in texts if t.startswith(name))


def test_a_held_creature_says_held_on_its_card(
        table: MainWindow, letter_ids: IdWatch) -> None:  # noqa: F811
    ws = start_fight(table, "side-d6")
    board = ws.board
    assert isinstance(board, LetterBoard)
    drop_card(board, "Halvaine the Arcane", "spell")
    fill(board, Target="Orc 1", Spell="Sleep")
    type_die(ws, "initiative party", 6)
    type_die(ws, "initiative monsters", 1)
    assert "held" not in _card(board, "Orc 1")
    resolution = ws.controller.resolution
    assert resolution is not None
    effect = next(s for s in resolution.steps if s.event == "spell-takes-effect")
    ws.select_step(effect.seq)
    conditions = ws.outcome.conditions
    conditions.condition.setCurrentText("held")
    assert conditions.on.currentText() == "Orc 1"
    button(conditions, "Start").click()
    assert "held" in _card(board, "Orc 1"), _card(board, "Orc 1")
    assert "held" not in _card(board, "Orc 2")
    button(conditions, "Remove").click()  # the condition taken off: the card forgets it
    assert "held" not in _card(board, "Orc 1")
    letter_ids.check()
