"""time-units: recording a later attack before the first is refused naming the step to record
first (its # in the list, its TU and what it is), not only "record the 1st attack first"."""

from __future__ import annotations

from desktop.encounter.tu_board import TimeUnitBoard
from tests.desktop.encounter.conftest import fill_and_declare, press_on_card, type_die

FIGHT = {"format": "combatdesk/scenario-1", "system": "time-units",
         "combatants": [
             {"id": "garrick", "name": "Garrick", "side": "party", "hp": 20, "attacks": 2},
             {"id": "orc-2", "name": "Orc 2", "side": "monsters", "hp": 30}]}


def test_the_second_attack_first_is_refused_naming_the_first(start) -> None:  # type: ignore[no-untyped-def]
    ws = start(FIGHT)
    board = ws.board
    assert isinstance(board, TimeUnitBoard)
    press_on_card(board, "garrick", "M")
    fill_and_declare(board, target="orc-2")
    type_die(ws, "initiative garrick (melee)", "3")
    first, second = [s for s in ws.controller.resolution.steps if s.actor == "garrick"]
    ws.select_step(second.seq)
    ws.outcome.damage.setValue(2)
    before = ws.controller.stack.count()
    ws.outcome.hit_button.click()
    error = ws.outcome.error.text()
    assert "record the 1st attack first" in error
    assert f"that is step #{first.seq} at TU {first.tu}: Garrick attacks Orc 2" in error, error
    assert ws.controller.stack.count() == before
