"""latest_round: what the status panel reads of the summary's last round, without building
the whole summary (it is asked at every redraw)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from core.cli.commands import InputError, load_scenario, resolve_scenario
from core.model.scenario import Scenario, ScenarioError
from core.model.values import Resolution
from core.printout.summary import SummaryError, build_summary, latest_round

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted(p for p in (ROOT / "tests" / "scenarios").rglob("*.json")
                   if not p.name.endswith(".expected.json")
                   # the scenarios the engine refuses on purpose (their own tests say why)
                   and '"error"' not in p.with_name(p.stem + ".expected.json").read_text())


def _resolved(path: Path) -> tuple[Scenario, Resolution] | None:
    try:
        scenario = load_scenario(path)
        return scenario, resolve_scenario(scenario)
    except (InputError, ScenarioError, ValueError):
        return None  # a scenario the engine refuses (its own tests say why)


def _as_summary(scenario: Scenario, resolution: Resolution) -> tuple[object, str, bool]:
    rounds = build_summary(scenario, resolution).rounds
    if not rounds:
        return (), "", False
    last = rounds[-1]
    return last.effects, last.quiet, bool(last.rolls)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_last_round_reads_as_the_summary_prints_it(path: Path) -> None:
    resolved = _resolved(path)
    if resolved is None:
        pytest.skip("the engine refuses this scenario")
    scenario, resolution = resolved
    try:
        expected = _as_summary(scenario, resolution)
    except SummaryError:
        pytest.skip("no summary of this scenario")
    assert tuple(latest_round(scenario, resolution)) == expected
    # The same with the last steps not known yet (a round still being played, or one in
    # which nothing happened): the effects still running and the quiet words follow.
    for keep in (len(resolution.steps) // 2, 0):
        partial = replace(resolution, steps=resolution.steps[:keep])
        assert tuple(latest_round(scenario, partial)) == _as_summary(scenario, partial)


def test_some_scenario_has_effects_and_some_a_quiet_round() -> None:
    """The comparison above covers both halves of what the status panel shows."""
    effects = quiet = False
    for path in SCENARIOS:
        resolved = _resolved(path)
        if resolved is None:
            continue
        scenario, resolution = resolved
        for steps in (resolution.steps, ()):
            try:
                last = latest_round(scenario, replace(resolution, steps=steps))
            except (SummaryError, ValueError):
                continue
            effects = effects or bool(last.effects)
            quiet = quiet or bool(last.quiet)
    assert effects and quiet
