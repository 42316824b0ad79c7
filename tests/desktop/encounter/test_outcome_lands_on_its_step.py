"""A Hit or Miss clicked for a step is recorded on that step's own entry (issue 24, "clicks
land on the wrong step"): a side-d6 fleeing attack is an ``interrupts`` item of the flight it
interrupts, and its outcome used to land on the striker's own declaration (another step, seen
as a hit there), while the fleeing attack itself stayed without one."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from core.model.values import Step
from desktop.encounter.workspace import EncounterWorkspace
from tests.desktop.encounter.conftest import scenario


@pytest.fixture
def fleeing(qtbot: Any, played: Any) -> EncounterWorkspace:
    """The goblins flee; the fighter's and the ranger's fleeing attacks wait for outcomes."""
    document = copy.deepcopy(scenario("side-d6/fleeing-attack-interrupt.json"))
    for entry in document["rounds"][0]["declarations"]:
        for item in entry.get("interrupts", ()):
            item.pop("hit", None)
            item.pop("damage", None)
    workspace: EncounterWorkspace = played(document)
    qtbot.waitExposed(workspace)
    return workspace


def _click_row(workspace: EncounterWorkspace, step: Step) -> None:
    """Clicks the step's row in the resolution list, as the DM does."""
    view = workspace.steps_view
    row = workspace.steps_model.row_of_seq(step.seq)
    assert row is not None
    index = workspace.steps_model.index(row, 2)
    view.scrollTo(index)
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.NoModifier, view.visualRect(index).center())


def _steps(workspace: EncounterWorkspace) -> tuple[Step, ...]:
    resolution = workspace.controller.known_resolution()
    assert resolution is not None
    return resolution.steps


def test_a_fleeing_attack_s_hit_is_recorded_on_the_fleeing_attack(
    fleeing: EncounterWorkspace,
) -> None:
    workspace = fleeing
    blow = next(s for s in _steps(workspace)
                if s.actor == "fighter" and s.detail.get("interrupt") is not None)
    assert str(blow.event) == "attacks" and blow.target == "goblin-1"
    _click_row(workspace, blow)
    assert workspace.outcome.step == blow
    header = workspace.outcome.label.text()
    assert "interrupting blow" in header and "1st declaration (attack" not in header, header
    workspace.outcome.damage.setValue(4)
    QTest.mouseClick(workspace.outcome.hit_button, Qt.MouseButton.LeftButton)
    assert workspace.outcome.error.text() == ""

    declarations = workspace.controller.state.rounds[0]["declarations"]
    # the fighter's own attack (segment 5) is untouched; the flight's interrupt has the hit
    assert "hit" not in declarations[0] and "hits" not in declarations[0]
    assert declarations[2]["interrupts"][0] == {"actor": "fighter", "hit": True, "damage": 4}
    # the engine: the fighter's fleeing attack hits goblin 1, which dies before it gets away
    steps = _steps(workspace)
    struck = [s for s in steps if s.actor == "fighter" and str(s.event) in ("hits", "misses")]
    assert [(str(s.event), s.target, s.detail.get("interrupt") is not None)
            for s in struck] == [("hits", "goblin-1", True)]
    assert any(str(s.event) == "dies" and s.actor == "goblin-1" for s in steps)
    # (this scenario's fighters have no names: their labels are what the file calls them)
    assert workspace.controller.stack.undoText() == \
        "fighter's interrupting attack hits goblin-1 for 4"

    # The selection stayed on the blow (a "dies" row came in): Miss now changes that blow.
    assert workspace.outcome.step is not None
    assert workspace.outcome.step.actor == "fighter"
    assert workspace.outcome.step.detail.get("interrupt") is not None
    QTest.mouseClick(workspace.outcome.miss_button, Qt.MouseButton.LeftButton)
    declarations = workspace.controller.state.rounds[0]["declarations"]
    assert "hit" not in declarations[0]
    assert declarations[2]["interrupts"][0] == {"actor": "fighter", "hit": False}

    # Ctrl+Z twice: the fleeing attack has no outcome again, the fighter's attack never had one
    workspace.controller.stack.undo()
    workspace.controller.stack.undo()
    declarations = workspace.controller.state.rounds[0]["declarations"]
    assert declarations[2]["interrupts"][0] == {"actor": "fighter"}
    assert "hit" not in declarations[0]


def test_the_striker_s_own_attack_keeps_its_own_outcome(fleeing: EncounterWorkspace) -> None:
    """The ranger's arrow at the fleeing goblin misses; his own attack is another step."""
    workspace = fleeing
    blow = next(s for s in _steps(workspace)
                if s.actor == "ranger" and s.detail.get("interrupt") is not None)
    _click_row(workspace, blow)
    QTest.mouseClick(workspace.outcome.miss_button, Qt.MouseButton.LeftButton)
    declarations = workspace.controller.state.rounds[0]["declarations"]
    assert declarations[3]["interrupts"][0] == {"actor": "ranger", "hit": False}
    assert "hit" not in declarations[1]


def test_a_morale_flight_takes_no_hit_meant_for_a_blow(qtbot: Any, played: Any) -> None:
    """Goblin 2 flees after the End of Round morale check (a row the morale die brought in):
    Hit there is refused in words, and no turn of the goblin gets it."""
    document = scenario("popcorn/death-and-morale.json")
    workspace: EncounterWorkspace = played(document)
    qtbot.waitExposed(workspace)
    flight = next(s for s in _steps(workspace)
                  if s.actor == "goblin-2" and str(s.event) == "flees")
    before = workspace.controller.state.rounds  # immutable: kept as it stands
    count = workspace.controller.stack.count()
    _click_row(workspace, flight)
    assert workspace.outcome.step == flight
    assert not workspace.outcome.hit_button.isEnabled()
    assert workspace.outcome.record(True) is False
    assert "follows from other steps" in workspace.outcome.error.text()
    assert workspace.controller.state.rounds == before
    assert workspace.controller.stack.count() == count
