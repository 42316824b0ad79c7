"""Steps that deal no blow say so in the Outcome panel (tester's 153-tu-adv1): selecting a
time-units "surprised" step read "step #1 follows from other steps: record the blow on the
attack that dealt it", and no blow dealt a surprise. A surprise, a side's reaction roll and a
popcorn nomination say in plain words that there is no hit or miss to record, and Hit and
Miss stay off; a blow's step still records on its declaration."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from desktop.encounter.workspace import EncounterWorkspace

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def _select(ws: EncounterWorkspace, actor: str, event: str, reason: str | None = None) -> str:
    resolution = ws.controller.resolution
    assert resolution is not None
    step = next(s for s in resolution.steps if s.actor == actor and str(s.event) == event
                and (reason is None or s.detail.get("reason") == reason))
    ws.select_step(step.seq)
    return ws.outcome.label.text()


def test_a_surprise_and_a_reaction_say_they_take_no_hit_or_miss(played: Any) -> None:
    document = json.loads((SCENARIOS / "time-units"
                           / "surprise-and-reaction-asked-at-the-table.json").read_text())
    document["options"] = {"encounter_steps": True}  # the reaction is a step of its own
    ws = played(document)

    text = _select(ws, "orc", "surprised")
    assert "Orc is surprised" in text
    assert "no blow was struck" in text and "no hit or miss to record" in text
    assert "the attack that dealt it" not in text
    assert not ws.outcome.hit_button.isEnabled() and not ws.outcome.miss_button.isEnabled()

    text = _select(ws, "monsters", "acts", "reaction")
    assert "the monsters side's reaction roll deals no blow" in text, text
    assert not ws.outcome.hit_button.isEnabled()
    text = _select(ws, "monsters", "acts", "encounter-initiative")
    assert "the monsters side's encounter roll deals no blow" in text, text
    assert "declaration" not in text

    # a blow's step still records on the action that dealt it
    text = _select(ws, "brannoc", "hits")
    assert "records on" in text and ws.outcome.hit_button.isEnabled()


def test_a_nomination_says_it_takes_no_hit_or_miss(played: Any) -> None:
    document = json.loads((SCENARIOS / "popcorn" / "attack-roll-limits.json").read_text())
    ws = played(document)
    text = _select(ws, "bo", "nominates")
    assert "naming who acts next is no blow" in text, text
    assert not ws.outcome.hit_button.isEnabled() and not ws.outcome.miss_button.isEnabled()
    assert "records on" in _select(ws, "bo", "hits")
