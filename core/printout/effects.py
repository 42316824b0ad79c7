"""The printout's effects: the spells and effects a fight began, and which still run in a
round (with the rounds or time units left), for the round summary's "Effects" table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from core.model.scenario import Declaration, Scenario, TimedAction, Turn
from core.model.values import Step, StepEvent
from core.printout.rows import EffectRow
from core.printout.text import Names, plural

SEGMENT_SYSTEMS = frozenset({"addict", "side-d6"})
"""The systems played in segments, whose texts do not track when effects end."""


@dataclass(frozen=True, slots=True)
class StartedEffect:
    """A spell or effect begun in the fight: who, on whom, when, for how long."""

    path: str
    name: str
    duration: int
    target: str | None
    source: str
    start_round: int
    start_tu: int | None
    area: str = ""
    """The area the spell was cast at, for an effect on no one creature (Sleep on "the
    orcs"): printed where the target goes."""


def area_of(item: Declaration | Turn | TimedAction) -> str:
    """Gets the area a declaration's spell was cast at ("" if none)."""
    area = item.raw.get("area")
    return area.strip() if isinstance(area, str) else ""


def effects_started(
    scenario: Scenario, steps: Sequence[Step], round_of: Mapping[int, int], round_tu: int
) -> list[StartedEffect]:
    """Gets every effect the scenario's declarations, turns and actions began, in order."""
    out: list[StartedEffect] = []
    for i, spec in enumerate(scenario.rounds):
        items: list[Declaration | Turn] = [*spec.declarations, *spec.turns]
        for item in items:
            if item.effect:
                e = item.effect
                out.append(
                    StartedEffect(item.path, e.name, e.duration, e.target, item.actor, i + 1,
                                   None, area_of(item))
                )
    for action in scenario.actions:
        if not action.effect:
            continue
        own = [
            s
            for s in steps
            if s.detail.get("declaration") == action.path
            and s.event != StepEvent.EFFECT_EXPIRES
            and s.tu is not None
        ]
        if not own:
            continue  # the action never happened (its actor fell first)
        last = own[-1]
        assert last.tu is not None
        e = action.effect
        out.append(
            StartedEffect(
                action.path, e.name, e.duration, e.target, action.actor, round_of[last.seq],
                last.tu, area_of(action),
            )
        )
    return out


def effect_rows(
    started: Sequence[StartedEffect],
    steps: Sequence[Step],
    round_no: int,
    round_of: Mapping[int, int],
    system: str,
    round_tu: int,
    names: Names,
) -> tuple[EffectRow, ...]:
    """Gets the rows of the effects still running in round ``round_no``."""
    rows = []
    for eff in started:
        if eff.start_round > round_no:
            continue
        expired = any(
            s.event == StepEvent.EFFECT_EXPIRES
            and s.detail.get("effect") == eff.name
            and (s.target or None) == (eff.target or s.target or None)
            and round_of[s.seq] <= round_no
            for s in steps
        )
        if expired:
            continue
        if eff.start_tu is not None:
            end_tu = eff.start_tu + eff.duration * round_tu
            left = end_tu - round_no * round_tu
            if left <= 0:
                continue
            remaining = f"until TU {end_tu} ({left} TU left)"
            started_text = f"TU {eff.start_tu}"
        else:
            left = eff.start_round + eff.duration - round_no
            if left < 0:
                continue  # run out (popcorn also reports the expiry: see ``expired``)
            # popcorn.end.effect-durations: at Duration 0 an effect still runs through the
            # round; it expires at that round's End of Round (a 1-round Bless cast in round 1
            # lasts all of round 2), so it is shown until its expiry step.
            remaining = (
                "ends at the end of this round" if left == 0 else f"{plural(left, 'more round')}"
            )
            started_text = f"round {eff.start_round}"
        rows.append(
            EffectRow(
                name=eff.name,
                target=names(eff.target) or (f"area: {eff.area}" if eff.area else ""),
                source=names(eff.source),
                started=started_text,
                remaining=remaining,
            )
        )
    return tuple(rows)


def effects_note(system: str) -> str:
    """Says how a system's effect durations are counted, where the rules leave it to us."""
    if system in SEGMENT_SYSTEMS:
        return (
            "This system does not track when effects end; the remaining rounds are counted "
            "from the round the effect started."
        )
    return ""
