"""A 24-letter name in the side-d6 declare form at 1280×720: the heading shows it whole (it
wraps), and no line of the form is wider than its place."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from desktop.encounter.letter_board import LetterBoard
from tests.desktop.encounter.conftest import press_on_card

NAME = "Wolfgang Ironbeard-Smith"
FIGHT = {"format": "combatdesk/scenario-1", "system": "side-d6",
         "combatants": [
             {"id": "wolfgang", "name": NAME, "side": "party", "hp": 14},
             {"id": "goblin", "name": "Goblin 1", "side": "monsters", "hp": 4}]}


def test_the_declare_heading_shows_a_long_name_whole(start) -> None:  # type: ignore[no-untyped-def]
    ws = start(FIGHT)
    ws.resize(1280, 720)
    ws.panels.resizeDocks([ws.panels.docks["combatantsDock"]], [200],
                          Qt.Orientation.Horizontal)
    board = ws.board
    assert isinstance(board, LetterBoard)
    press_on_card(board, "wolfgang", "2")  # missile
    QApplication.processEvents()
    heading = board.editor.heading
    assert NAME in heading.text() and "missile" in heading.text()
    assert heading.wordWrap()
    assert heading.height() >= heading.heightForWidth(heading.width())  # every line shown
    area = board.editor_area
    assert heading.mapTo(area, heading.rect().topRight()).x() <= area.viewport().width()
    assert NAME not in board.editor.title()  # a box's title never wraps: the verb alone
