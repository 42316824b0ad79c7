"""Round numbers and turn words the DM reads (issue 27, point 5): the same on screen and in
print, with the convention said where it matters; no markers or field names on screen."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from core.cli.commands import load_scenario, resolve_scenario
from core.printout.summary import build_summary
from desktop.encounter.board_base import entry_text
from desktop.timeline.layout import build_layout

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
SURPRISE = "side-d6/surprise-talk-charge-close.json"  # surprise segments, then one full round
FIRST_FULL = "Round 2 — first full round (round 1 was the surprise segments)"


def test_the_timeline_and_the_printout_head_rounds_alike_and_say_the_convention() -> None:
    scenario = load_scenario(SCENARIOS / SURPRISE)
    resolution = resolve_scenario(scenario)
    printed = [r.title for r in build_summary(scenario, resolution).rounds]
    drawn = [b.label for b in build_layout(resolution, scenario.combatants).rounds]
    assert printed == drawn == ["Round 1 — surprise segments", FIRST_FULL]


def test_a_round_just_begun_is_headed_before_any_of_its_steps_is_known() -> None:
    """Round 2 began, its dice not in yet: the header no longer ends at round 1's surprise."""
    scenario = load_scenario(SCENARIOS / SURPRISE)
    resolution = resolve_scenario(scenario)
    known = replace(resolution, steps=tuple(s for s in resolution.steps if s.round == 1))
    drawn = [b.label for b in build_layout(known, scenario.combatants, rounds_started=2).rounds]
    assert drawn == ["Round 1 — surprise segments", FIRST_FULL]


def test_turns_on_the_board_read_as_the_undo_menu_says_them() -> None:
    labels = {"b": "Brannoc", "y": "Ysolde", "o": "Orc 1"}
    assert entry_text({"actor": "b", "waits": True, "nominates": "y"}, labels) == (
        "Brannoc: waits, names Ysolde")
    assert entry_text({"actor": "y", "action": "attack", "target": "o", "nominates": "b",
                       "ready": "the orc moves"}, labels) == (
        "Ysolde: attack → Orc 1, readied for: the orc moves, names Brannoc")
