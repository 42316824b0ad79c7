"""popcorn.pass.fallen-nominee: the DM's new choice after a nominee falls is saved in the log.

Before, N on a living creature only changed the DM's board (a widget's memory): the players'
screen said "Acts next: to be named" while the DM's screen named Pip, and a restart lost it.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from desktop.encounter.popcorn_board import PopcornBoard
from desktop.encounter.workspace import EncounterWorkspace
from desktop.main_window import MainWindow
from tests.desktop.table.popcorn_helpers import drop_on, key_on_card, lane, pick, type_die

BRANNOC, PIP, KOBOLD1, KOBOLD2 = "Brannoc the Bold", "Pip Underbough", "Kobold 1", "Kobold 2"


def _start(window: MainWindow) -> EncounterWorkspace:
    dialog = window.encounter_actions.ask_new_encounter()
    assert dialog is not None
    dialog.set_system("popcorn")
    for row in range(dialog.fighters.rowCount()):
        item = dialog.fighters.item(row, 0)
        if item.text() not in (BRANNOC, PIP):
            item.setCheckState(Qt.CheckState.Unchecked)
    dialog.set_count("Kobold", 2)
    dialog.accept()
    ws = window.encounter_actions.current()
    assert ws is not None and isinstance(ws.board, PopcornBoard)
    return ws


def test_the_new_choice_after_a_fallen_nominee_is_saved_and_the_players_see_it(
        table: MainWindow) -> None:
    ws = _start(table)
    board = ws.board
    assert isinstance(board, PopcornBoard)
    for name, d20 in ((BRANNOC, 17), (PIP, 9), (KOBOLD1, 5), (KOBOLD2, 4)):
        type_die(ws, f"initiative {name}", d20)
    assert drop_on(board, lane(board, "missile ["), BRANNOC)
    pick(board.editor.target, KOBOLD1)
    pick(board.editor.nominates, KOBOLD1)
    QTest.keyClick(board.editor.target, Qt.Key.Key_Return)
    steps = [s for s in ws.controller.resolution.steps if s.event == "attacks"]
    ws.select_step(steps[-1].seq)
    ws.outcome.damage.setValue(9)
    ws.outcome.hit_button.click()  # the arrow kills the nominee
    table.players.show_action.trigger()  # View › Players' Screen
    players = table.players.players_window
    assert players is not None
    assert "Acts next: to be named" in players.turn.text()

    depth = ws.controller.stack.count()
    key_on_card(board, PIP, "N")  # Brannoc names Pip instead
    assert board.message.text() == ""
    assert ws.controller.stack.count() == depth + 1
    assert ws.controller.stack.undoText() == \
        f"{BRANNOC} names {PIP} to act next instead ({KOBOLD1} fell)"
    pip = next(c.id for c in ws.controller.state.combatants.values() if c.label == PIP)
    assert ws.controller.state.rounds[-1]["turns"][-1]["nominates_again"] == pip
    assert f"active: <b>{PIP}</b>" in board.active_label.text()
    assert f"Acts next: {PIP}" in players.turn.text()  # both screens name Pip
    again = [s for s in ws.controller.resolution.steps if s.detail.get("chosen_again")]
    assert [s.target for s in again] == [pip]

    ws.controller.stack.undo()  # one Ctrl+Z: nobody is named again
    assert "Acts next: to be named" in players.turn.text()
    assert f"{KOBOLD1} fell before acting" in board.active_label.text()
    ws.controller.stack.redo()
    assert f"Acts next: {PIP}" in players.turn.text()
