"""Which phase of its procedure an encounter is in: the one the engine is waiting for.

The procedure stepper shows this instead of a phase the DM clicked to, so that it always
follows play (the DM may still look at another phase; that is a view, not a command). Each
system's phases are in its module (``phases()``); the answer is read from the encounter's
state — which dice are still needed, which rounds and declarations exist — and, for popcorn,
from who has acted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from core.fight.encounter import rolls_needed
from core.fight.log import EncounterState
from core.model.values import Resolution, Status
from core.rules.base import RollRequest


def current_phase(state: EncounterState, resolution: Resolution | None = None,
                  asked: Sequence[RollRequest] | None = None) -> str:
    """Gets the id of the phase the encounter is waiting for; ``asked`` is
    ``rolls_needed(state)`` when the caller has it already (it is worked out again if not)."""
    system = str(state.config.get("system"))
    needed = [tuple(r.where) for r in (rolls_needed(state) if asked is None else asked)]
    rounds = state.rounds
    last = rounds[-1] if rounds else None
    if system == "time-units":
        return _time_units(state, needed)
    if system == "popcorn":
        return _popcorn(state, needed, resolution)
    if system == "side-d6":
        return _side_d6(state, needed, last, resolution)
    if system == "addict":
        return _addict(state, needed, last, resolution)
    return ""


def _waiting_on(needed: Sequence[tuple[Any, ...]], first: str) -> bool:
    return any(where and where[0] == first for where in needed)


def _round_dice_missing(needed: Sequence[tuple[Any, ...]]) -> bool:
    return any(where[:1] == ("rounds",) and "initiative" in where for where in needed)


def _fighting(state: EncounterState, resolution: Resolution | None) -> list[str]:
    """Gets who can still act: every combatant the resolution does not show down or gone."""
    return [cid for cid in state.combatants
            if resolution is None or cid not in resolution.combatants
            or resolution.combatants[cid].status is Status.ACTIVE]


def _declared(state: EncounterState, round_spec: Mapping[str, Any],
              resolution: Resolution | None) -> bool:
    """Tells whether everyone still fighting has declared this round.

    The round's initiative dice are asked for as soon as the round exists, so "dice missing"
    alone does not say the declarations are over: the stepper stays on declarations while a
    fighter has not declared (it jumped to the initiative phase after the first one).
    """
    declared = {d.get("actor") for d in (round_spec.get("declarations") or [])
                if isinstance(d, Mapping)}
    fighting = _fighting(state, resolution)
    return bool(declared) and all(cid in declared for cid in fighting)


def _side_d6(state: EncounterState, needed: Sequence[tuple[Any, ...]],
             last: Mapping[str, Any] | None, resolution: Resolution | None) -> str:
    if _waiting_on(needed, "surprise"):
        return "surprise"
    if last is None:
        return "declare" if isinstance(state.fields.get("surprise"), Mapping) else "surprise"
    if last.get("surprise"):
        # The surprise segments belong to the surprise phase (side-d6's surprise rules), not
        # to "Play segments 1–10" of a normal round.
        return "surprise"
    if _round_dice_missing(needed):
        return "initiative" if _declared(state, last, resolution) else "declare"
    return "act"


def _addict(state: EncounterState, needed: Sequence[tuple[Any, ...]],
            last: Mapping[str, Any] | None, resolution: Resolution | None) -> str:
    if _waiting_on(needed, "reaction"):
        return "addict.phase-1"
    if _waiting_on(needed, "surprise"):
        return "addict.phase-2"
    if _waiting_on(needed, "opening_morale"):
        return "addict.phase-4"
    if last is None:
        if not isinstance(state.fields.get("surprise"), Mapping):
            return "addict.phase-1" if "reaction" not in state.fields else "addict.phase-2"
        surprised = resolution is not None and any(
            str(s.event) == "surprised" for s in resolution.steps)
        return "addict.phase-5" if surprised else "addict.phase-6"
    if last.get("surprise"):
        return "addict.phase-5"
    if _round_dice_missing(needed):
        return "addict.phase-7" if _declared(state, last, resolution) else "addict.phase-6"
    return "addict.phase-8"


def _time_units(state: EncounterState, needed: Sequence[tuple[Any, ...]]) -> str:
    if any(_waiting_on(needed, dice) for dice in ("initiative", "reaction", "surprise")):
        return "encounter"  # The Encounter Sequence: d6 per side, the reaction 2d6, surprise
    if not state.actions and not isinstance(state.fields.get("initiative"), Mapping):
        # Nothing done yet: the encounter d6s may come first. They are the DM's choice, so
        # once an action is declared without them the encounter phase is over (it was kept
        # for the whole fight: the stepper never moved).
        return "encounter"
    if not state.actions or _waiting_on(needed, "actions"):
        return "declare"
    return "clock"


def _popcorn(state: EncounterState, needed: Sequence[tuple[Any, ...]],
             resolution: Resolution | None) -> str:
    if _waiting_on(needed, "initiative"):
        return "roll-initiative"
    if not state.rounds:
        return "take-action"
    turns = [t for t in (state.rounds[-1].get("turns") or []) if isinstance(t, Mapping)]
    fighting = _fighting(state, resolution)
    acted = {t.get("actor") for t in turns if not t.get("waits")}
    if fighting and all(cid in acted for cid in fighting):
        return "end-of-round"
    if turns and not turns[-1].get("waits"):
        nominee = turns[-1].get("nominates")
        if not nominee or (isinstance(nominee, str) and nominee not in fighting):
            return "pass-action"  # nobody named yet, or the one named fell before acting
    return "take-action"
