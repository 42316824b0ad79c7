"""Where the time-unit clock stands, read from the encounter log and the engine's steps.

The DM's "Advance" is a saved command (``clock-advanced``) naming the step the clock moved
to by what stays the same when the engine resolves again (a step's ``seq`` changes when an
earlier action is declared). A restarted app finds that step again and shows the same clock.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from core.model.values import Step
from desktop.resolution.step_identity import identities

_FIELDS = ("actor", "source", "moment", "attack", "routine", "round", "occurrence")


def clock_mark(step: Step, steps: Sequence[Step]) -> dict[str, Any]:
    """Gets what the log keeps of ``step`` (one of ``steps``) when the clock moves to it."""
    identity = next(ident for s, ident in zip(steps, identities(steps), strict=True)
                    if s.seq == step.seq)
    return {"tu": step.tu or 0, **dict(zip(_FIELDS, identity, strict=True))}


def clock_step(mark: Mapping[str, Any] | None, steps: Sequence[Step]) -> Step | None:
    """Gets the step the clock stands on (None: TU 0, before the first step).

    The same step when it is still there; when it went (its action taken back, its die
    changed), the last step at or before the clock's TU, so the clock never runs back past
    what the table has played.
    """
    if mark is None:
        return None
    wanted = tuple(mark.get(name) for name in _FIELDS)
    found = next((s for s, ident in zip(steps, identities(steps), strict=True)
                  if ident == wanted), None)
    if found is not None:
        return found
    tu = mark.get("tu")
    earlier = [s for s in steps if s.tu is not None and isinstance(tu, int) and s.tu <= tu]
    return earlier[-1] if earlier else None
