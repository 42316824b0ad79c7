"""Which declaration, turn or time-unit action a resolved step came from (for its outcome).

Only the current round's entries (or any time-unit action) can still be changed by the log.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from core.log import EncounterState
from core.model import Step

_TURN_PATH = re.compile(r"rounds\[(\d+)\]\.turns\[(\d+)\]")


def _outcome_dict(entry: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in entry.items()}


def entry_for_step(
    state: EncounterState, step: Step
) -> tuple[str, int, Mapping[str, Any]] | str:
    """Gets ``(list, index, entry)`` for a step, or the reason its outcome cannot be recorded."""
    if state.actions:
        which, entries = "actions", list(state.actions)
    else:
        if not state.rounds:
            return "no round has started"
        if step.round != len(state.rounds):
            return (f"step #{step.seq} belongs to round {step.round}; only the current round "
                    f"({len(state.rounds)}) can still be changed")
        current = state.rounds[-1]
        which = "turns" if current.get("turns") else "declarations"
        entries = list(current.get(which) or ())
    path = _TURN_PATH.fullmatch(str(step.detail.get("turn", "")))
    if path is not None and int(path.group(1)) == len(state.rounds) - 1:
        index = int(path.group(2))
        if 0 <= index < len(entries):
            return which, index, entries[index]
    mine = [(i, e) for i, e in enumerate(entries) if e.get("actor") == step.actor]
    if step.target is not None:
        mine = [(i, e) for i, e in mine if e.get("target") == step.target] or mine
    if step.action is not None:
        mine = [(i, e) for i, e in mine if e.get("action") == step.action] or mine
    if not mine:
        return f"step #{step.seq} comes from no declaration of {step.actor} that can be changed"
    return which, mine[0][0], mine[0][1]


def with_outcome(
    entry: Mapping[str, Any], hit: bool | None, damage: int = 0, another: bool = False
) -> dict[str, Any]:
    """Gets the entry with an attack's outcome: ``hit``/``damage``, or one more ``hits`` item.

    ``hit`` None clears every outcome.
    """
    out = _outcome_dict(entry)
    previous: list[dict[str, Any]] = [dict(h) for h in out.pop("hits", None) or ()]
    if "hit" in out:
        single = {"hit": bool(out.pop("hit"))}
        if "damage" in out:
            single["damage"] = out.pop("damage")
        previous.insert(0, single)
    else:
        out.pop("damage", None)
    if hit is None:
        return out
    new: dict[str, Any] = {"hit": hit, "damage": damage} if hit else {"hit": False}
    if another and previous:
        out["hits"] = [*previous, new]
    else:
        out.update(new)
    return out
