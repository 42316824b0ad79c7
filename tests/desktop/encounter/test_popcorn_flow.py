"""popcorn through the GUI: turns, nominations by drop and by key, refused nominations."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from desktop.encounter.popcorn_board import PopcornBoard
from tests.desktop.encounter.conftest import (
    cli_steps,
    drop_card,
    gui_steps,
    popcorn_rolled,
    press_on_card,
    record,
    scenario,
    step_of,
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
    ws, board = popcorn_rolled(start, document)
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


def _type_over(ws, purpose_start: str, total: str) -> None:  # type: ignore[no-untyped-def]
    """Selects a roll in 'Dice made' by its text and types a new total over it."""
    stepper = ws.stepper
    rows = [stepper.made_model.item(r) for r in range(stepper.made_model.rowCount())]
    item = next(i for i in rows if purpose_start in i.text() and "(replaced)" not in i.text())
    stepper.made_view.setCurrentIndex(item.index())
    stepper.type_over.setText(total)
    QTest.keyClick(stepper.type_over, Qt.Key.Key_Return)
    assert stepper.change_error.text() == ""


def test_end_of_round_morale_rolled_and_typed_in_the_stepper_resolves_as_the_cli(start) -> None:  # type: ignore[no-untyped-def]
    """popcorn.end.morale-check: the 2d6 the engine would roll from the seed are offered as
    dice to type in (round field `morale`); one rolled with the app's dice is typed over."""
    document = scenario("popcorn/death-and-morale.json")
    ws, board = popcorn_rolled(start, document)
    _turn(board, "hala", "attack", "goblin-2", by_key=True, target="goblin-1")
    record(ws, "hala", True, 3)
    lanes = {key: [box.model.index(r, 0).data() for r in range(box.model.rowCount())]
             for key, box in board.status_lanes.items()}
    assert lanes["not-acted"] == ["goblin-2", "hobgoblin"]  # the dead goblin acts no more
    assert not any("goblin-1" in names for names in lanes.values())
    _turn(board, "goblin-2", "attack", "hobgoblin", by_key=False, target="hala")
    record(ws, "goblin-2", True, 2)
    _turn(board, "hobgoblin", "attack", "hala", by_key=True, target="hala")
    record(ws, "hobgoblin", False)
    # the round is over: the engine checks the monsters still standing (not the dead goblin)
    assert [r.request.purpose for r in ws.stepper.rows] == [
        "morale goblin-2 (round 1)", "morale hobgoblin (round 1)"]
    type_die(ws, "morale goblin-2 (round 1)", "9")
    row = ws.stepper.row_for("morale hobgoblin (round 1)")
    assert row is not None and row.request.expression == "2d6"
    type_die(ws, "morale hobgoblin (round 1)", "13")  # refused: 2d6 shows 2–12
    assert row.error.text() and ws.controller.state.rounds[0].get("morale") == {"goblin-2": 9}
    row.roll_button.click()  # the app's dice…
    rolled = ws.controller.state.rounds[0]["morale"]["hobgoblin"]
    assert 2 <= rolled <= 12 and not ws.controller.state.rolls[-1].manual
    _type_over(ws, "morale hobgoblin", "5")  # …then the table's die instead
    assert ws.controller.state.rounds[0]["morale"] == {"goblin-2": 9, "hobgoblin": 5}
    assert not [r for r in ws.stepper.rows if r.request.purpose.startswith("morale")]
    assert gui_steps(ws) == cli_steps(document)
    assert "(replaced)" in ws.stepper.made_model.item(1).text()  # the app's roll: history
    ws.select_step(step_of(ws, "hobgoblin", "morale-check").seq)  # a die, not a hit or miss
    assert not ws.outcome.hit_button.isEnabled() and "Dice made" in ws.outcome.label.text()
    ws.controller.stack.undo()  # the typed-over roll comes back
    assert ws.controller.state.rounds[0]["morale"]["hobgoblin"] == rolled
    assert not ws.controller.state.replaced_rolls


def test_a_failed_save_on_a_readied_action_disrupts_the_spell_as_the_cli(start) -> None:  # type: ignore[no-untyped-def]
    """popcorn Disrupting Spells: `fails_save` on the readied action the spell sets off."""
    document = scenario("popcorn/readied-attack-disrupts-spell.json")
    turns = document["rounds"][0]["turns"]
    turns[1]["triggers"] = [{"actor": "dag", "fails_save": True}]
    turns[2].pop("hits")
    turns[2].update(hit=True, damage=3)
    ws = start(document)
    board = ws.board
    assert isinstance(board, PopcornBoard)
    assert ws.outcome.save_button.isVisible()
    for cid, total in document["initiative"].items():
        type_die(ws, f"initiative {cid}", str(total))
    _turn(board, "dag", "attack", "shaman", by_key=True, target="shaman",
          ready="the shaman starts a spell")
    _turn(board, "shaman", "spell", "wolf", by_key=False, spell="sleep", target="dag",
          triggers="dag")
    events = [s.event for s in ws.controller.resolution.steps]
    assert "spell-takes-effect" in events and "spell-disrupted" not in events
    ws.select_step(step_of(ws, "dag", "readied-triggers").seq)
    assert "readied action 1" not in ws.outcome.label.text()
    assert "(spell sleep → dag, names wolf), the readied action that turn sets off" in \
        ws.outcome.label.text()
    ws.outcome.save_button.click()
    assert ws.controller.state.rounds[0]["turns"][1]["triggers"] == [
        {"actor": "dag", "fails_save": True}]
    events = [s.event for s in ws.controller.resolution.steps]
    assert "spell-disrupted" in events and "spell-takes-effect" not in events
    _turn(board, "wolf", "attack", "wolf", by_key=True, target="dag")
    record(ws, "wolf", True, 3)
    assert gui_steps(ws) == cli_steps(document)
    ws.select_step(step_of(ws, "dag", "readied-triggers").seq)
    assert ws.outcome.save_button.isChecked()
    ws.outcome.save_button.click()  # taken back: the spell goes off again
    assert "spell-takes-effect" in [s.event for s in ws.controller.resolution.steps]


def test_outcomes_of_an_earlier_round_are_recorded_after_the_next_round_began(start) -> None:  # type: ignore[no-untyped-def]
    """The log's edit events name the round: round 1's misses go in once round 2 is played."""
    document = scenario("popcorn/effect-durations-alice-example.json")
    ws, board = popcorn_rolled(start, document)
    _turn(board, "goblin", "attack", "bob", by_key=True, target="bob")
    _turn(board, "bob", "attack", "alice", by_key=True, target="goblin")
    _turn(board, "alice", "spell", "alice", by_key=False, target="bob",
          spell="protection from evil", effect_name="protection from evil", effect_duration=1)
    board.start_next_round()
    _turn(board, "alice", "other", "goblin", by_key=True)
    _turn(board, "goblin", "attack", "bob", by_key=False, target="bob")
    _turn(board, "bob", "attack", "alice", by_key=True, target="goblin")
    first = [s for s in ws.controller.resolution.steps if s.round == 1 and s.event == "attacks"]
    for step in first:
        ws.select_step(step.seq)
        assert "of round 1" in ws.outcome.label.text()
        ws.outcome.miss_button.click()
        assert ws.outcome.error.text() == ""
    assert all("hit" in t for t in ws.controller.state.rounds[0]["turns"][:2])
    assert all("hit" not in t for t in ws.controller.state.rounds[1]["turns"])
    for actor in ("goblin", "bob"):
        second = [s for s in ws.controller.resolution.steps
                  if s.round == 2 and s.actor == actor and s.event == "attacks"]
        ws.select_step(second[0].seq)
        ws.outcome.miss_button.click()
    assert gui_steps(ws) == cli_steps(document)
    ws.controller.stack.undo()
    ws.controller.stack.undo()
    ws.controller.stack.undo()
    assert "hit" not in ws.controller.state.rounds[0]["turns"][1]
