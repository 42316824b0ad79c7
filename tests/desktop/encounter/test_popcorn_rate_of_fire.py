"""popcorn.attack.per-round: a long bow's rate of fire 2 is not two arrows in OSE; the turn
form says so beside the weapon, and the refusal of a second hit says it in words."""

from __future__ import annotations

import pytest

from core.model.dice import Roller
from core.model.scenario import ScenarioError, parse_scenario
from core.rules.popcorn import SYSTEM
from desktop.encounter.popcorn_board import PopcornBoard
from tests.desktop.encounter.conftest import press_on_card, type_die

FIGHT = {"format": "combatdesk/scenario-1", "system": "popcorn",
         "combatants": [
             {"id": "wolfgang", "name": "Wolfgang", "side": "party", "kind": "pc", "hp": 14,
              "weapons": [{"name": "Long bow", "missile": True, "rate_of_fire": 2}]},
             {"id": "orc", "name": "Orc", "side": "monsters", "kind": "monster", "hp": 7}],
         "initiative": {"wolfgang": 15, "orc": 3}}


def test_the_turn_form_says_popcorn_counts_attacks_not_rate_of_fire(start) -> None:  # type: ignore[no-untyped-def]
    ws = start(FIGHT)
    board = ws.board
    assert isinstance(board, PopcornBoard)
    type_die(ws, "initiative Wolfgang", "15")
    type_die(ws, "initiative Orc", "3")
    press_on_card(board, "wolfgang", "2")  # missile
    board.editor.set_value("weapon", "Long bow")
    facts = board.editor.weapon_facts.text()
    assert "rate of fire 2" in facts
    assert "Wolfgang makes 1 attack a round (Attacks Per Round), whatever the rate of fire" \
        in facts


def test_a_second_arrow_is_refused_in_words() -> None:
    doc = {**FIGHT, "rounds": [{"turns": [
        {"actor": "wolfgang", "action": "missile", "target": "orc", "weapon": "Long bow",
         "hits": [{"hit": False}, {"hit": False}]}]}]}
    with pytest.raises(ScenarioError) as caught:
        SYSTEM.resolve(parse_scenario(doc), Roller.seeded(1))
    assert "wolfgang makes 1 attack a round (Attacks Per Round; a weapon's rate of fire " \
        "does not count in OSE), not 2" in str(caught.value)
    assert "attack(s)" not in str(caught.value)
