"""popcorn through the GUI: turns, nominations by drop and by key, refused nominations."""

from __future__ import annotations

from desktop.encounter.popcorn_board import PopcornBoard
from tests.desktop.encounter.conftest import (
    cli_steps,
    drop_card,
    gui_steps,
    press_on_card,
    record,
    scenario,
    type_die,
)


def _turn(board: PopcornBoard, actor: str, action: str, nominee: str, by_key: bool,
          **values: object) -> None:
    if by_key:
        key = {"attack": "1", "spell": "3", "other": "9"}[action]
        press_on_card(board, actor, key)
    else:
        assert drop_card(board, board.action_lanes[action].model, actor)
    for name, value in values.items():
        board.editor.set_value(name, value)
    if by_key:
        press_on_card(board, nominee, "N")
    else:
        assert drop_card(board, board.next_lane.model, nominee)


def test_alice_example_built_in_the_gui_resolves_as_the_cli(start) -> None:  # type: ignore[no-untyped-def]
    document = scenario("popcorn/effect-durations-alice-example.json")
    ws = start(document)
    board = ws.board
    assert isinstance(board, PopcornBoard)
    for cid, total in document["initiative"].items():
        type_die(ws, f"initiative {cid}", str(total))
    assert board.active == "goblin"  # the engine says who opens
    _turn(board, "goblin", "attack", "bob", by_key=False, target="bob")
    record(ws, "goblin", False)
    assert board.active == "bob" and board.cards_model.active == "bob"

    # bob may not name the goblin: it has acted this round (the engine's own reason)
    press_on_card(board, "bob", "1")
    board.editor.set_value("target", "goblin")
    assert board.nominate("goblin")
    assert "goblin" in board.message.text() and board.message.text().startswith("Refused")
    assert len(ws.controller.state.rounds[-1]["turns"]) == 1
    press_on_card(board, "alice", "N")
    record(ws, "bob", False)
    _turn(board, "alice", "spell", "alice", by_key=False, target="bob",
          spell="protection from evil", effect_name="protection from evil", effect_duration=1)
    assert [box.model.texts() for key, box in board.status_lanes.items() if key == "acted"] == [
        ["alice", "bob", "goblin"]]
    notes = " ".join(ws.status_model.notes_of(r) for r in range(ws.status_model.rowCount()))
    assert "protection from evil: 1 more round" in notes
    board.start_next_round()
    _turn(board, "alice", "other", "goblin", by_key=True)
    _turn(board, "goblin", "attack", "bob", by_key=False, target="bob")
    record(ws, "goblin", False, events=("attacks",))
    _turn(board, "bob", "attack", "alice", by_key=True, target="goblin")
    record(ws, "bob", False, events=("attacks",))
    assert gui_steps(ws) == cli_steps(document)
