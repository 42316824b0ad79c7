"""Which step is "the same step" after the engine resolves again.

A step's ``seq`` is its place in the order, so new dice (or a recorded hit) that re-sort the
list give the same ``seq`` to another step. A step is the same when it comes from the same
declaration, turn or action, is the same attack of it and the same kind of moment; an
``attacks`` step that became ``hits`` or ``misses`` is still the same step.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from core.model.values import Step

_SAME_MOMENT = {
    "attacks": "strike", "hits": "strike", "misses": "strike",
    "spell-takes-effect": "spell-end", "spell-disrupted": "spell-end",
}


def step_source(step: Step) -> str | None:
    """Gets the path of the declaration, turn or action that produced ``step`` (None: unknown).

    Popcorn names it in ``detail["turn"]``, side-d6 and time units in
    ``detail["declaration"]``, addict in ``Step.source``.
    """
    for value in (step.source, step.detail.get("turn"), step.detail.get("declaration")):
        if isinstance(value, str) and value:
            return value
    return None


def step_key(step: Step) -> tuple[Hashable, ...]:
    """Gets what stays the same for one step across resolutions (without its occurrence)."""
    event = str(step.event)
    return (step.actor, step_source(step), _SAME_MOMENT.get(event, event),
            step.detail.get("attack"), step.detail.get("routine"), step.round)


def identities(steps: Sequence[Step]) -> list[tuple[Hashable, ...]]:
    """Gets each step's key and which occurrence of that key it is, in one pass."""
    seen: dict[tuple[Hashable, ...], int] = {}
    out: list[tuple[Hashable, ...]] = []
    for step in steps:
        key = step_key(step)
        out.append((*key, seen.get(key, 0)))
        seen[key] = seen.get(key, 0) + 1
    return out


def same_step(step: Step, before: Sequence[Step], after: Sequence[Step]) -> Step | None:
    """Finds in ``after`` the step that ``step`` (one of ``before``) is now (None: gone)."""
    wanted = next((ident for s, ident in zip(before, identities(before), strict=True)
                   if s.seq == step.seq), None)
    if wanted is None:
        return None
    return next((s for s, ident in zip(after, identities(after), strict=True)
                 if ident == wanted), None)
