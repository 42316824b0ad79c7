"""What the screen may say already: steps that hang on a die not yet entered stay hidden.

The engine resolves with seeded dice wherever one is missing, so its resolution "knows" who is
surprised before the second surprise die is in, and where each declaration falls before the
initiative dice are rolled. The table must not read that as fact (addict, side-d6). A popcorn
morale check whose 2d6 the DM has not given yet reads as waiting for its die: no roll, no
result, and the monster is not shown fled or surrendered on the strength of the seed's roll.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from core.model.values import CombatantResult, Resolution, Status, Step, StepEvent, frozen_mapping
from core.rules.base import RollRequest

SEGMENT_SYSTEMS = frozenset({"addict", "side-d6"})


def waiting_for(needed: Sequence[RollRequest]) -> tuple[bool, bool]:
    """Gets (a surprise die is missing, this round's initiative die is missing)."""
    surprise = any(r.where[:1] == ("surprise",) for r in needed)
    initiative = any(r.where[:3] == ("rounds", -1, "initiative") for r in needed)
    return surprise, initiative


def known_resolution(resolution: Resolution | None, needed: Sequence[RollRequest],
                     rounds: int) -> Resolution | None:
    """Gets ``resolution`` without the steps that depend on a missing die.

    ``rounds`` is how many rounds the log holds: the current one is numbered so in the steps
    (a surprise round is round 1 of both).
    """
    if resolution is not None and resolution.system == "popcorn":
        return _morale_known(resolution, needed)
    if resolution is not None and resolution.system == "time-units":
        return _rolled_actions_known(resolution, needed)
    if resolution is None or resolution.system not in SEGMENT_SYSTEMS:
        return resolution
    surprise, initiative = waiting_for(needed)
    if not (surprise or initiative):
        return resolution
    steps = tuple(
        s for s in resolution.steps
        if not (surprise and s.event is StepEvent.SURPRISED)
        and not (initiative and not s.surprise and (s.round or 1) >= rounds)
    )
    return replace(resolution, steps=steps)


def _pending_morale(needed: Sequence[RollRequest]) -> set[tuple[int, str]]:
    """Gets (round, monster) of every popcorn morale die still to be given."""
    return {(int(r.where[1]) + 1, str(r.where[3])) for r in needed
            if len(r.where) == 4 and r.where[0] == "rounds" and r.where[2] == "morale"
            and isinstance(r.where[1], int)}


def _morale_known(resolution: Resolution, needed: Sequence[RollRequest]) -> Resolution:
    """Gets a popcorn resolution with every morale check still waiting for its die unsaid."""
    pending = _pending_morale(needed)
    if not pending:
        return resolution
    steps: list[Step] = []
    undone: set[str] = set()
    for s in resolution.steps:
        if (s.round or 0, s.actor) not in pending:
            steps.append(s)
        elif s.event == StepEvent.MORALE_CHECK:
            if s.detail.get("result") == "fails":
                undone.add(s.actor)
            steps.append(replace(s, detail=frozen_mapping(
                {k: v for k, v in s.detail.items() if k not in ("roll", "result")})))
        elif not (s.event == StepEvent.FLEES and "popcorn.end.morale-check" in s.because):
            steps.append(s)
    combatants = dict(resolution.combatants)
    for cid in undone:
        was = combatants.get(cid)
        if was is not None and was.status in (Status.FLED, Status.SURRENDERED):
            combatants[cid] = CombatantResult(was.hp, Status.ACTIVE)
    return replace(resolution, steps=tuple(steps), combatants=combatants)


def _rolled_actions_known(resolution: Resolution, needed: Sequence[RollRequest]) -> Resolution:
    """Gets a time-units resolution without the steps of actions whose d10 is not rolled: the
    engine placed them on a seeded roll, and they moved as others declared (issue 24)."""
    unrolled = {f"actions[{r.where[1]}]" for r in needed
                if len(r.where) == 3 and r.where[0] == "actions" and r.where[2] == "roll"}
    if not unrolled:
        return resolution
    steps = tuple(s for s in resolution.steps
                  if s.detail.get("declaration") not in unrolled)
    return replace(resolution, steps=steps)
