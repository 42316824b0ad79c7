"""Which phase of its system's procedure an encounter is in, read from the encounter itself.

The stepper shows the phase the engine is waiting for: the dice still missing, the round's
declarations or turns, the outcomes to record. Nothing here is stored: the phase follows from
the log, so undo, redo and a resumed encounter all show the right one, and paging through the
phases by hand is only a view (docs/systems/*.md, "Procedure stepper").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from core.encounter import morale_dice, rolls_needed
from core.log import EncounterState
from core.model import Resolution, Status, StepEvent
from core.rules.base import RollRequest


def _pending(state: EncounterState) -> list[RollRequest]:
    try:
        return rolls_needed(state)
    except ValueError:  # an unknown system or a broken document: no dice to show
        return []


def _wants(pending: Sequence[RollRequest], *where: str | int) -> bool:
    """Tells whether a die is still needed at a place starting with ``where``."""
    return any(tuple(r.where[:len(where)]) == where for r in pending)


def _surprised(resolution: Resolution | None) -> bool:
    return resolution is not None and any(s.event is StepEvent.SURPRISED
                                          for s in resolution.steps)


def _round_dice_pending(pending: Sequence[RollRequest], state: EncounterState) -> bool:
    index = len(state.rounds) - 1
    return _wants(pending, "rounds", -1, "initiative") or _wants(
        pending, "rounds", index, "initiative")


def _segment_phase(state: EncounterState, resolution: Resolution | None,
                   pending: Sequence[RollRequest], names: Mapping[str, str]) -> str:
    """addict and side-d6: surprise, declarations, initiative dice, then resolution."""
    if _wants(pending, "surprise"):
        return names["surprise"]
    if _wants(pending, "opening_morale"):
        return names["morale"]
    if not state.rounds:
        if "surprise" not in state.fields and names.get("start"):
            return names["start"]
        return names["surprise-round"] if _surprised(resolution) else names["declare"]
    current = state.rounds[-1]
    if current.get("surprise"):
        return names["surprise-round"]
    if not current.get("declarations"):
        return names["declare"]
    if _round_dice_pending(pending, state):
        return names["initiative"]
    return names["resolve"]


_ADDICT = {
    "start": "addict.phase-1", "surprise": "addict.phase-2", "morale": "addict.phase-4",
    "surprise-round": "addict.phase-5", "declare": "addict.phase-6",
    "initiative": "addict.phase-7", "resolve": "addict.phase-8",
}
_SIDE_D6 = {
    "start": "surprise", "surprise": "surprise", "surprise-round": "surprise", "declare": "declare",
    "initiative": "initiative", "resolve": "act",
}


def _popcorn_round_over(state: EncounterState, resolution: Resolution | None) -> bool:
    """Tells whether every creature able to act has taken its turn this round."""
    if resolution is None:
        return False
    number = len(state.rounds)
    turns: Sequence[Mapping[str, Any]] = state.rounds[-1].get("turns") or ()
    acted = {t.get("actor") for t in turns if not t.get("waits")}
    lost = {s.actor for s in resolution.steps
            if s.round == number and s.event is StepEvent.SURPRISED}
    able = {cid for cid, result in resolution.combatants.items()
            if result.status is Status.ACTIVE and cid not in lost}
    return bool(turns) and able <= acted


def _popcorn_phase(state: EncounterState, resolution: Resolution | None,
                   pending: Sequence[RollRequest]) -> str:
    if _wants(pending, "initiative"):
        return "roll-initiative"
    if not state.rounds:
        return "take-action"
    number = len(state.rounds)
    if any(r.where[:2] == ("rounds", number - 1) for r in morale_dice(state, resolution)):
        return "end-of-round"
    turns: Sequence[Mapping[str, Any]] = state.rounds[-1].get("turns") or ()
    if _popcorn_round_over(state, resolution):
        return "end-of-round"
    if turns and not turns[-1].get("nominates"):
        return "pass-action"
    return "take-action"


def _time_units_phase(state: EncounterState, pending: Sequence[RollRequest]) -> str:
    if _wants(pending, "initiative"):
        return "encounter"
    if not state.actions:
        return "encounter" if not state.fields else "declare"
    if _wants(pending, "actions"):
        return "declare"
    return "clock"


def current_phase(state: EncounterState, resolution: Resolution | None = None) -> str:
    """Gets the id of the phase the encounter waits for (one of its system's ``phases()``).

    ``resolution`` (the engine's latest answer for ``state``) tells who is surprised and
    which morale dice are still needed; without it those phases are judged from the log alone.
    """
    system = str(state.config.get("system"))
    pending = _pending(state)
    if system == "addict":
        # addict's morale dice are asked for by the DM (opening or in a round): Phase 4 / 8.
        pending = [*pending, *morale_dice(state, resolution)]
        return _segment_phase(state, resolution, pending, _ADDICT)
    if system == "side-d6":
        return _segment_phase(state, resolution, pending, _SIDE_D6)
    if system == "popcorn":
        return _popcorn_phase(state, resolution, pending)
    if system == "time-units":
        return _time_units_phase(state, pending)
    return ""
