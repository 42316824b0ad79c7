"""time-units: a card says how the creature stands now — "asleep" once Sleep took it, no
"surprised: first action from TU 10" once it is dead — and the outcome panel's Condition
"on" box never offers a dead creature first."""

from __future__ import annotations

from desktop.encounter.tu_board import TimeUnitBoard
from tests.desktop.encounter.conftest import fill_and_declare, press_on_card, record, type_die

FIGHT = {"format": "combatdesk/scenario-1", "system": "time-units",
         "combatants": [
             {"id": "brannoc", "name": "Brannoc", "side": "party", "hp": 24},
             {"id": "halvaine", "name": "Halvaine", "side": "party", "hp": 6,
              "spells": [{"name": "Sleep", "level": 1}]},
             {"id": "orc-1", "name": "Orc 1", "side": "monsters", "hp": 3},
             {"id": "orc-3", "name": "Orc 3", "side": "monsters", "hp": 7}]}


def _card(board: TimeUnitBoard, cid: str) -> str:
    model = board.cards_model
    return str(model.index(model.row_of(cid), 0).data())


def test_cards_drop_surprise_when_dead_and_show_asleep(start) -> None:  # type: ignore[no-untyped-def]
    ws = start(FIGHT)
    board = ws.board
    assert isinstance(board, TimeUnitBoard)
    board.cards.select_id("orc-3")
    board.surprised_button.click()
    assert "surprised: first action from TU 10" in _card(board, "orc-3")
    press_on_card(board, "halvaine", "S")
    fill_and_declare(board, target="orc-3", spell="Sleep")
    press_on_card(board, "brannoc", "M")
    fill_and_declare(board, target="orc-3")
    type_die(ws, "initiative halvaine (spell)", "2")
    type_die(ws, "initiative brannoc (melee)", "5")
    spell = next(s for s in ws.controller.resolution.steps
                 if str(s.event) == "spell-takes-effect")
    ws.select_step(spell.seq)
    controls = ws.outcome.conditions
    assert controls.on.currentData() == "orc-3"
    controls.condition.setCurrentText("asleep")
    controls.start_button.click()
    assert "asleep" in _card(board, "orc-3")
    starts = next(s for s in ws.controller.resolution.steps
                  if str(s.event) == "condition-starts")
    ws.select_step(starts.seq)
    assert "Orc 3 is asleep, from Halvaine's action, until the DM ends it" in \
        ws.outcome.label.text()
    record(ws, "brannoc", hit=True, damage=10)
    assert str(ws.controller.resolution.combatants["orc-3"].status) == "dead"
    assert "surprised" not in _card(board, "orc-3")
    blow = next(s for s in ws.controller.resolution.steps if s.actor == "brannoc")
    ws.select_step(blow.seq)
    offered = [controls.on.itemData(i) for i in range(controls.on.count())]
    assert "orc-3" not in offered and controls.on.currentData() == "brannoc"
