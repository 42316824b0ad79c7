"""The dice rows ask for what the die shows (issue 24): popcorn's box said "type the total"
but took the raw d20 and added the DEX modifier itself. Every system's row now asks for the
die as it shows; the modifier the app adds is said beside it, and Dice made shows die,
modifier and total."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from core.fight.encounter import scenario_document
from core.model.dice import Roller
from core.model.scenario import parse_scenario
from core.rules.popcorn import initiative_standing
from tests.desktop.encounter.conftest import drop_card, fill_and_declare, press_on_card

QUICK = {"id": "kell", "name": "Kell", "side": "party", "kind": "pc", "hp": 8, "dex": 16}
SLOW = {"id": "orc", "name": "Orc", "side": "monsters", "kind": "monster", "hp": 6,
        "dex": 10, "morale": 8}


def _document(system: str) -> dict[str, Any]:
    return {"format": "combatdesk/scenario-1", "system": system, "seed": 3,
            "combatants": [QUICK, SLOW]}


def test_popcorn_asks_for_the_d20_as_it_shows_and_adds_dex_itself(start: Any) -> None:
    ws = start(_document("popcorn"))
    row = ws.stepper.row_for("initiative Kell")
    assert row is not None
    assert row.field.placeholderText() == "what the d20 shows"
    assert row.field.toolTip().startswith("Type what the d20 shows on the table")
    assert "type the die alone, +1 added by Combat Desk" in row.label.text()
    other = ws.stepper.row_for("initiative Orc")
    assert other is not None and "added" not in other.label.text()  # DEX 10: nothing added
    row.field.setFocus()
    QTest.keyClicks(row.field, "14")
    QTest.keyClick(row.field, Qt.Key.Key_Return)
    made = [ws.stepper.made_model.item(r).text() for r in range(ws.stepper.made_model.rowCount())]
    assert any(t.endswith("initiative Kell: d20 14 +1 = 15") for t in made), made
    # what the engine took: the die as typed, its modifier, the total shown
    state = ws.controller.state
    standing = initiative_standing(parse_scenario(scenario_document(state)),
                                   Roller.seeded(state.config.get("seed")))
    kell = next(t for t in standing.totals if t.actor == "kell")
    assert (kell.d20, kell.modifier, kell.total) == (14, 1, 15)


@pytest.mark.parametrize(("system", "lane"), [("addict", "G"), ("side-d6", "attack"),
                                              ("time-units", "M")])
def test_every_system_s_row_asks_for_the_die(start: Any, system: str, lane: str) -> None:
    ws = start(_document(system))
    board = ws.board
    if system == "time-units":
        press_on_card(board, "kell", "M")  # M: melee from the palette, by keyboard
        fill_and_declare(board, target="orc")
    else:
        assert drop_card(board, board.lanes[lane].model, "kell")
        fill_and_declare(board, target="orc")
    rows = ws.stepper.rows
    assert rows, "no die asked"
    for row in rows:
        expression = row.request.expression.removeprefix("1")
        assert row.field.placeholderText() == f"what the {expression} shows", row.request
        assert "added" not in row.label.text()  # these systems add nothing to a die


def test_several_dice_are_asked_for_added_up() -> None:
    from desktop.encounter.roll_modifiers import die_words

    assert die_words("2d6") == "what the 2d6 show, added up"
    assert die_words("1d10") == "what the d10 shows"
