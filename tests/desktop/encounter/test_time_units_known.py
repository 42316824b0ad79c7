"""time-units shows only what is known (issue 24): no TU for an action whose d10 is not rolled
(it moved as others declared), nothing next for the dead, words instead of "d10 ?", and the
print dialog speaks of TU stretches, not rounds."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from desktop.encounter.tu_board import TimeUnitBoard
from desktop.printing import PrintChoiceDialog
from tests.desktop.encounter.laptop_fights import MONSTER_IDS, PC_IDS, fight


def _note(board: TimeUnitBoard, cid: str) -> str:
    row = board.cards_model.row_of(cid)
    assert row is not None
    return str(board.cards_model.index(row, 0).data(Qt.ItemDataRole.DisplayRole))


def test_unrolled_and_dead_show_no_next_tu(played: Any) -> None:
    document = fight("time-units")
    last = document["actions"][-1]
    del last["roll"]  # Lizardman Shaman Ssask's d10 is still to be rolled
    document["actions"][0].update(hit=True, damage=40)  # Brannoc fells the Hobgoblin at once
    ws = played(document)
    board = ws.board
    assert isinstance(board, TimeUnitBoard)
    assert "next at TU" not in _note(board, last["actor"]), _note(board, last["actor"])
    assert "next at TU" not in _note(board, MONSTER_IDS[0]), _note(board, MONSTER_IDS[0])
    assert "next at TU" in _note(board, PC_IDS[1])
    texts = board.actions_lane.model.texts()
    assert not any("?" in t for t in texts), texts
    assert "d10 not rolled yet" in texts[-1]


def test_the_print_dialog_of_the_tu_clock_speaks_of_tu(qtbot: Any) -> None:
    dialog = PrintChoiceDialog(3, 3, round_tu=10)
    qtbot.addWidget(dialog)
    words = " ".join(b.text() for b in (dialog.this_round, dialog.some_rounds, dialog.whole))
    assert "round" not in words.lower(), words
    assert "TU 20–29" in dialog.this_round.text() and "TU 0–29" in dialog.whole.text()


def test_an_unrolled_action_is_not_in_the_list_until_its_d10(played: Any) -> None:
    document = fight("time-units")
    last = document["actions"][-1]
    del last["roll"]
    ws = played(document)
    shown = ws.controller.known_resolution()
    assert shown is not None
    assert not [s for s in shown.steps if s.actor == last["actor"]]
    assert ws.steps_model.rowCount() == len(shown.steps)
