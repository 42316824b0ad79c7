"""Lanes keep their place from round to round (tester's 106-sd6-r2-drag): after Start Round 2
the rows of lanes shared their height again by the (now empty) lanes, and Pip, dropped where
"attack" had been, landed in "move". A DM finds a lane where it was last round."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QApplication

from core.store import Store
from desktop.encounter.letter_board import LetterBoard
from desktop.main_window import MainWindow
from tests.desktop.encounter.laptop_shots import open_fight


def _settle() -> None:
    for _ in range(4):
        QApplication.processEvents()


def _places(board: LetterBoard) -> dict[str, QRect]:
    return {action: QRect(box.mapTo(board, box.rect().topLeft()), box.size())
            for action, box in board.lanes.items()}


@pytest.mark.parametrize("system", ["side-d6", "addict"])
def test_a_lane_does_not_move_when_a_new_round_starts(qtbot: Any, sample_store: Store,
                                                      settings: Any, system: str) -> None:
    window = MainWindow(sample_store, settings)
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    _settle()
    ws = open_fight(window, sample_store, system)  # 12 declarations, all in one lane
    _settle()
    board = ws.board
    assert isinstance(board, LetterBoard)
    full = [a for a, box in board.lanes.items() if box.model.rowCount()]
    assert full, "the fight has cards in its lanes"
    before = _places(board)

    board.new_round_button.click()
    _settle()
    assert ws.controller.state.round == 2
    assert not any(box.model.rowCount() for box in board.lanes.values())
    after = _places(board)
    moved = {a: (before[a], after[a]) for a in before if before[a] != after[a]}
    assert not moved, moved

    # and back: undoing the new round (the cards return) moves nothing either
    ws.controller.stack.undo()
    _settle()
    assert _places(board) == before
