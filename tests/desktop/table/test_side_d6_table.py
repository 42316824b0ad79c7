"""side-d6 at the table: surprise segments, three rounds, declarations changed, moved and taken
back, Ctrl+Z after each; the GUI resolves as the CLI does."""

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


def test_a_three_round_side_d6_fight_from_surprise_to_the_last_blow(
        table: MainWindow, letter_ids: IdWatch) -> None:  # noqa: F811
    fight(table, letter_ids, "side-d6", Lanes(
        blow="attack", blow_key="1", spell="spell", spell_key="3",
        move="move", other="other", other_key="0"))


def test_a_cards_context_menu_changes_moves_and_takes_back_one_command_each(
        table: MainWindow, letter_ids: IdWatch) -> None:  # noqa: F811
    ws = start_fight(table, "side-d6")
    board = ws.board
    assert isinstance(board, LetterBoard)
    drop_card(board, "Garrick", "attack")
    fill(board, Target="Orc 2")
    stack = ws.controller.stack
    view = lane(board, "attack").view
    menu = view.menu_for(0)
    titles = [a.text() for a in menu.actions()]
    assert titles == ["Change…", "Move to", "Take back"]
    move_to = menu.actions()[1].menu()
    assert "missile · D" in [a.text() for a in move_to.actions()]
    count = stack.count()
    next(a for a in move_to.actions() if a.text() == "missile · D").trigger()
    assert stack.count() == count + 1 and stack.text(count) == "Move Garrick to missile · D"
    assert lane(board, "missile").model.texts() == ["Garrick → Orc 2"]
    letter_ids.check()
    table.undo_action.trigger()
    assert lane(board, "attack").model.texts() == ["Garrick → Orc 2"]
    menu = view.menu_for(0)
    menu.actions()[0].trigger()  # Change…
    assert board.editor.submit_button.text() == "&Change"
    fill(board, Target="Orc 1")
    assert lane(board, "attack").model.texts() == ["Garrick → Orc 1"]
    view.menu_for(0).actions()[2].trigger()  # Take back
    assert lane(board, "attack").model.texts() == []
    assert stack.text(stack.index() - 1) == "Take back Garrick: attack · G/H"
    letter_ids.check()
    table.undo_action.trigger()
    assert lane(board, "attack").model.texts() == ["Garrick → Orc 1"]


def test_no_declaration_form_until_a_card_is_put_on_a_lane(table: MainWindow) -> None:
    """A fresh fight shows no empty form whose Declare would be refused with a blank name;
    the form opens for the card dropped, and Escape closes it again."""
    ws = start_fight(table, "side-d6")
    board = ws.board
    assert isinstance(board, LetterBoard)
    assert board.editor.isHidden()
    drop_card(board, "Brannoc the Bold", "attack")
    assert not board.editor.isHidden() and "Brannoc the Bold" in board.editor.heading.text()
    board.editor.close_editor()
    assert board.editor.isHidden() and board.message.text() == ""
