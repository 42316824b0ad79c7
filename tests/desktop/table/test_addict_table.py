"""addict at the table: surprise segments, three rounds, declarations changed, moved and taken
back, Ctrl+Z after each; the GUI resolves as the CLI does."""

import pytest
from PySide6.QtWidgets import QApplication

from desktop.encounter.letter_board import LetterBoard
from desktop.main_window import MainWindow
from tests.desktop.table.conftest import IdWatch
from tests.desktop.table.letter_fight import Lanes, fight
from tests.desktop.table.letter_helpers import (  # noqa: F401 (letter_ids is a fixture)
    drop_card,
    fill,
    lane,
    letter_ids,
    start_fight,
)


def test_a_three_round_addict_fight_from_surprise_to_the_last_blow(
        table: MainWindow, letter_ids: IdWatch) -> None:  # noqa: F811
    fight(table, letter_ids, "addict", Lanes(
        blow="G · strike [G]", blow_key="G", spell="D · missile, spell [D]", spell_key="D",
        move="E · move [E]", other="H · grapple [H]", other_key="H"))


@pytest.mark.parametrize("size", [(1280, 720), (1380, 860)])
def test_the_lanes_hold_still_when_the_declaration_form_opens(
        table: MainWindow, size: tuple[int, int]) -> None:
    table.resize(*size)
    ws = start_fight(table, "addict")
    board = ws.board
    assert isinstance(board, LetterBoard)
    QApplication.processEvents()
    before = {key: box.geometry() for key, box in board.lanes.items()}
    drop_card(board, "Brannoc the Bold", "G · strike [G]")
    QApplication.processEvents()
    assert not board.editor.isHidden()
    assert {key: box.geometry() for key, box in board.lanes.items()} == before
    fill(board, Target="Orc 1")
    QApplication.processEvents()
    text = lane(board, "G · strike [G]").model.texts()[0]
    assert text == "Brannoc the Bold → Orc 1"
    view = lane(board, "G · strike [G]").view
    rect = view.visualRect(view.model().index(0, 0))
    assert view.viewport().rect().contains(rect)  # the whole card, target included, is shown
