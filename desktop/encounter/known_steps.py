"""What the screen may say already: steps that hang on a die not yet entered stay hidden.

The engine resolves with seeded dice wherever one is missing, so its resolution "knows" who is
surprised before the second surprise die is in, and where each declaration falls before the
initiative dice are rolled. The table must not read that as fact (addict, side-d6).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from core.model import Resolution, StepEvent
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
