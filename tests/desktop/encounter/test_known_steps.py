"""Nothing is shown as known before the dice it hangs on: the engine fills missing dice from
the seed, but the resolution list and timeline must not read that as fact (addict, side-d6)."""

from __future__ import annotations

from core.cli.commands import resolve_scenario
from core.fight.encounter import (
    add_entry,
    commands_for_scenario,
    rolls_needed,
    scenario_document,
    set_field,
    set_round_field,
    start_round,
)
from core.fight.log import replay
from core.model.scenario import parse_scenario
from desktop.encounter.known_steps import known_resolution
from desktop.timeline.layout import _segment_blocks

FIGHT = {"system": "side-d6", "combatants": [
    {"id": "brannoc", "name": "Brannoc", "side": "party", "hp": 24},
    {"id": "orc-1", "name": "Orc 1", "side": "monsters", "hp": 6}]}


def shown(commands):  # type: ignore[no-untyped-def]
    state = replay(commands)
    resolution = resolve_scenario(parse_scenario(scenario_document(state)))
    return resolution, known_resolution(resolution, rolls_needed(state), len(state.rounds))


def test_nobody_is_surprised_on_screen_until_every_surprise_die_is_in() -> None:
    log = [*commands_for_scenario(FIGHT), set_field("surprise", {"monsters": 1})]
    engine, screen = shown(log)
    assert any(str(s.event) == "surprised" for s in engine.steps)  # the seed filled the party
    assert not any(str(s.event) == "surprised" for s in screen.steps)
    log[-1] = set_field("surprise", {"monsters": 1, "party": 4})
    _engine, screen = shown(log)
    assert any(str(s.event) == "surprised" for s in screen.steps)


def test_a_rounds_segments_wait_for_its_initiative_dice() -> None:
    log = [*commands_for_scenario(FIGHT), start_round(1),
           add_entry("declarations", {"actor": "brannoc", "action": "attack",
                                      "target": "orc-1"})]
    engine, screen = shown(log)
    assert engine.steps and not screen.steps
    log.append(set_round_field("initiative", {"party": 4, "monsters": 2}))
    engine, screen = shown(log)
    assert screen.steps == engine.steps


def test_round_one_after_a_surprise_check_is_not_numbered_as_surprise_segments() -> None:
    log = [*commands_for_scenario(FIGHT), set_field("surprise", {"monsters": 1, "party": 4}),
           start_round(1), add_entry("declarations", {"actor": "brannoc", "action": "attack",
                                                      "target": "orc-1"}),
           set_round_field("initiative", {"party": 4, "monsters": 2})]
    engine, _screen = shown(log)
    _rounds, _base, ticks = _segment_blocks(engine.steps)
    assert ticks and not any(label.startswith("S") for _x, label in ticks)
