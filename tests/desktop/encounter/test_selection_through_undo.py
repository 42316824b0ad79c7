"""The step the DM selected stays selected through rows inserted above it and through Ctrl+Z
(issue 24): the next Hit or Miss is recorded on that step, never on the one that slid under
the selection. Four systems, 12 fighters mid-round."""

from __future__ import annotations

from typing import Any

import pytest

from core.model.values import Step
from desktop.encounter.workspace import EncounterWorkspace
from tests.desktop.encounter.laptop_fights import RECORDED, SYSTEMS, fight


def _open_steps(workspace: EncounterWorkspace) -> list[Step]:
    resolution = workspace.controller.known_resolution()
    assert resolution is not None
    return [s for s in resolution.steps if str(s.event) == "attacks"]


def _hit(workspace: EncounterWorkspace, step: Step, damage: int) -> None:
    workspace.select_step(step.seq)
    workspace.outcome.damage.setValue(damage)
    workspace.outcome.hit_button.click()
    assert workspace.outcome.error.text() == ""


@pytest.mark.parametrize("system", SYSTEMS)
def test_selection_and_outcome_follow_the_step_through_kills_and_undo(
    played: Any, system: str
) -> None:
    workspace: EncounterWorkspace = played(fight(system))
    first = _open_steps(workspace)[0]
    _hit(workspace, first, 40)  # kills: a "dies" row enters the list
    resolution = workspace.controller.known_resolution()
    assert resolution is not None
    if system != "popcorn":  # popcorn's PCs spend a death save and leave the fight
        assert any(str(s.event) == "dies" for s in resolution.steps)
    # The DM picks another step: the last one waiting, or (popcorn: one turn at a time) the
    # first blow of the round.
    waiting = _open_steps(workspace)
    chosen = waiting[-1] if waiting else resolution.steps[0]
    workspace.select_step(chosen.seq)
    who = (chosen.actor, chosen.target, chosen.round)
    for move in ("undo", "redo", "undo"):
        getattr(workspace.controller.stack, move)()
        selected = workspace.outcome.step
        assert selected is not None, move
        assert (selected.actor, selected.target, selected.round) == who, move
        shown = workspace.steps_view.currentIndex().row()
        assert workspace.steps_model.step_at(shown) == selected, move
    if str(chosen.event) != "attacks":
        return
    workspace.outcome.damage.setValue(2)
    workspace.outcome.miss_button.click()
    resolution = workspace.controller.known_resolution()
    assert resolution is not None
    mine = [s for s in resolution.steps if (s.actor, s.target) == who[:2]]
    assert [str(s.event) for s in mine] == ["misses"]
    others = [s for s in resolution.steps if str(s.event) in ("hits", "misses")]
    assert len(others) == RECORDED + 1  # the five and this miss (the kill was taken back)
