"""Each system lists the dice an encounter still needs; answering them rebuilds the example."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from core.cli.commands import resolve_scenario
from core.fight.encounter import commands_for_scenario, resolve_state, roll_command, rolls_needed
from core.fight.log import EncounterLog
from core.model.dice import Roller, manual_roll
from core.model.scenario import parse_scenario

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"

# (scenario, paths of the dice to strip and ask for again)
CASES = {
    "side-d6": ("side-d6/halvaine-example.json",
                [("rounds", -1, "initiative", "party"), ("rounds", -1, "initiative", "monsters")]),
    "addict": ("addict/source-fn18-caster-die-five.json",
               [("rounds", -1, "initiative", "party"), ("rounds", -1, "initiative", "monsters")]),
    "popcorn": ("popcorn/effect-durations-alice-example.json", None),
    "time-units": ("time-units/bolog.json", [("actions", 0, "roll"), ("actions", 1, "roll")]),
}


def _get(document: dict[str, Any], where: tuple[Any, ...]) -> Any:
    node: Any = document
    for key in where:
        node = node[key]
    return node


def _strip(document: dict[str, Any], where: tuple[Any, ...]) -> None:
    node: Any = document
    for key in where[:-1]:
        node = node[key]
    del node[where[-1]]


@pytest.mark.parametrize("system", list(CASES))
def test_answering_the_listed_dice_by_hand_gives_the_sources_resolution(system: str) -> None:
    name, paths = CASES[system]
    original = json.loads((SCENARIOS / name).read_text())
    if paths is None:  # popcorn: every creature's initiative d20
        paths = [("initiative", cid) for cid in original["initiative"]]
    stripped = copy.deepcopy(original)
    for where in paths:
        _strip(stripped, where)
    log = EncounterLog(commands_for_scenario(stripped))
    requests = rolls_needed(log.state)
    assert sorted(r.where for r in requests) == sorted(paths)
    for request in requests:
        total = _get(original, request.where)
        log.execute(roll_command(log.state, request, manual_roll(request.expression, total)))
    assert rolls_needed(log.state) == []
    assert [r.manual for r in log.state.rolls] == [True] * len(paths)
    got = resolve_state(log.state, Roller.seeded(original.get("seed"))).to_json()
    want = resolve_scenario(parse_scenario(original)).to_json()
    assert got["steps"] == want["steps"] and got["combatants"] == want["combatants"]


def test_a_rolled_die_lands_in_range_and_one_undo_takes_it_back() -> None:
    original = json.loads((SCENARIOS / CASES["time-units"][0]).read_text())
    for action in original["actions"]:
        del action["roll"]
    log = EncounterLog(commands_for_scenario(original))
    request = rolls_needed(log.state)[0]
    roller = Roller.seeded(3)
    log.execute(roll_command(log.state, request, roller.roll(request.expression)))
    assert 1 <= log.state.actions[0]["roll"] <= 10 and not log.state.rolls[-1].manual
    log.undo()
    assert "roll" not in log.state.actions[0] and not log.state.rolls


def test_a_surprise_check_asks_for_every_side_but_an_alerted_one() -> None:
    document = {"system": "side-d6", "surprise": {}, "alerted": ["monsters"],
                "combatants": [{"id": "a", "side": "party"}, {"id": "o", "side": "monsters"}]}
    log = EncounterLog(commands_for_scenario(document))
    assert [r.where for r in rolls_needed(log.state)] == [("surprise", "party")]
