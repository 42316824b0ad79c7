"""popcorn: a readied action is set off from its card (popcorn.ready.trigger), and the wait
form offers nothing it refuses."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMenu

from desktop.encounter.popcorn_board import SET_OFF, PopcornBoard
from tests.desktop.encounter.conftest import (
    popcorn_dag_readied,
    popcorn_rolled,
    press_on_card,
    scenario,
)


def _readied_fight(start):  # type: ignore[no-untyped-def]
    """Dag readies an attack on the shaman, then the shaman moves (its turn saved)."""
    ws, board = popcorn_dag_readied(start, "when the shaman closes")
    assert isinstance(board, PopcornBoard)
    press_on_card(board, "shaman", "4")
    press_on_card(board, "wolf", "N")
    assert board.status_lanes["readied"].model.texts() == ["dag"]
    return ws, board


def _readied_card_rect(board: PopcornBoard):  # type: ignore[no-untyped-def]
    view = board.status_lanes["readied"].view
    return view, view.visualRect(view.model().index(0, 0))


def _double_click(view, rect) -> None:  # type: ignore[no-untyped-def]
    """Double-clicks as a mouse does: a click, then the second press that makes it double."""
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    QTest.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def _set_off(ws) -> bool:  # type: ignore[no-untyped-def]
    return any(s.event == "readied-triggers" and s.actor == "dag"
               for s in ws.controller.resolution.steps)


def test_double_clicking_a_readied_card_sets_off_its_action_as_one_undo(start) -> None:  # type: ignore[no-untyped-def]
    """popcorn.ready.trigger: the readied attack interrupts the turn just taken."""
    ws, board = _readied_fight(start)
    view, rect = _readied_card_rect(board)
    tip = view.model().index(0, 0).data(Qt.ItemDataRole.ToolTipRole)
    assert "dag readied attack on shaman, when: when the shaman closes" in tip
    assert "double-click" in tip and SET_OFF in tip
    _double_click(view, rect)
    assert ws.controller.state.rounds[0]["turns"][1]["triggers"] == ["dag"]
    assert _set_off(ws)
    assert ws.controller.stack.undoText() == "dag's readied action, set off by shaman's turn"
    assert board.status_lanes["readied"].model.texts() == []
    assert board.status_lanes["acted"].model.texts() == ["dag", "shaman"]
    ws.controller.stack.undo()
    assert "triggers" not in ws.controller.state.rounds[0]["turns"][1]
    assert board.status_lanes["readied"].model.texts() == ["dag"] and not _set_off(ws)


def test_the_context_menu_and_enter_set_off_a_readied_action(start) -> None:  # type: ignore[no-untyped-def]
    ws, board = _readied_fight(start)
    menu: QMenu = board.readied_menu("dag")
    [item] = menu.actions()
    assert item.text() == SET_OFF
    item.trigger()
    assert _set_off(ws)
    ws.controller.stack.undo()
    view, _rect = _readied_card_rect(board)
    view.setCurrentIndex(view.model().index(0, 0))
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_Return)
    assert _set_off(ws) and ws.controller.stack.count() >= 1


def test_a_readied_card_set_off_while_a_turn_is_filled_in_goes_in_its_sets_off(start) -> None:  # type: ignore[no-untyped-def]
    ws, board = popcorn_dag_readied(start, "the shaman starts a spell")
    assert isinstance(board, PopcornBoard)
    press_on_card(board, "shaman", "3")  # the shaman's spell turn, open in the form
    board.editor.set_value("spell", "sleep")
    board.editor.set_value("target", "dag")
    view, rect = _readied_card_rect(board)
    _double_click(view, rect)
    assert board.editor.triggers.currentData() == "dag"
    press_on_card(board, "wolf", "N")
    assert ws.controller.state.rounds[0]["turns"][1]["triggers"] == ["dag"] and _set_off(ws)


def test_the_help_says_how_to_set_off_a_readied_action() -> None:
    text = (Path(__file__).parents[3] / "resources/help/popcorn.html").read_text(
        encoding="utf-8")
    take_action = text.split('name="phase-take-action"')[1].split("<h2>")[0]
    assert "Readied" in take_action and "double-click" in take_action


def test_the_wait_form_offers_no_ready_field_and_a_new_form_clears_a_refusal(start) -> None:  # type: ignore[no-untyped-def]
    """popcorn Waiting / Readying an Action: a creature either waits or readies; the wait
    form offers no Ready, and a waiting turn with nominee is taken."""
    document = scenario("popcorn/readied-attack-disrupts-spell.json")
    ws, board = popcorn_rolled(start, document)
    press_on_card(board, "shaman", "N")  # no turn open: refused, the reason shown
    assert board.message.text().startswith("Refused")
    press_on_card(board, "dag", "0")  # wait [0]
    assert board.editor.isVisible() and board.message.text() == ""
    assert not board.editor.ready.isVisible()
    assert board.editor.form.isRowVisible(board.editor.nominates)
    board.editor.set_value("ready", "when the orc moves")  # left from another form: not written
    press_on_card(board, "shaman", "N")
    assert board.message.text() == ""
    [turn] = ws.controller.state.rounds[0]["turns"]
    assert turn.get("waits") and "ready" not in turn
    assert board.status_lanes["waiting"].model.texts() == ["dag"]
    press_on_card(board, "shaman", "1")  # an attack form still offers Ready
    assert board.editor.ready.isVisible()


def _press_in_lane(board: PopcornBoard, lane: str, cid: str, key: str) -> None:
    """Selects a creature's card in a status lane and types a key there."""
    view = board.status_lanes[lane].view
    row = board.status_lanes[lane].model.texts().index(cid)
    view.setCurrentIndex(view.model().index(row, 0))
    view.setFocus()
    QTest.keyClicks(view, key)


def test_n_and_the_action_keys_work_on_a_card_selected_in_a_status_lane(start) -> None:  # type: ignore[no-untyped-def]
    """The hint says "select a card and press N": a card in To act takes N, and the action
    keys open its turn (popcorn.pass.nominate-next)."""
    document = scenario("popcorn/readied-attack-disrupts-spell.json")
    ws, board = popcorn_rolled(start, document)
    _press_in_lane(board, "not-acted", "dag", "4")  # the active creature: its move turn
    assert board.editor.isVisible() and board.editor.action == "move"
    QTest.keyClick(board.editor.target, Qt.Key.Key_Return)  # saved, no one named yet
    assert board.editor.isHidden() and board.status_lanes["acted"].model.texts() == ["dag"]
    assert "press N" in board.active_label.text()
    _press_in_lane(board, "not-acted", "wolf", "n")
    assert ws.controller.state.rounds[0]["turns"][0]["nominates"] == "wolf"
    assert board.active == "wolf"
    _press_in_lane(board, "not-acted", "wolf", "0")  # wolf waits…
    _press_in_lane(board, "not-acted", "shaman", "N")  # …and names the shaman, while open
    assert ws.controller.state.rounds[0]["turns"][1] == {
        "actor": "wolf", "waits": True, "nominates": "shaman"}
    assert board.status_lanes["waiting"].model.texts() == ["wolf"]
