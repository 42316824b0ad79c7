"""How big the reliability loops run: COMBATDESK_RELIABILITY=full (the default) | quick | N.

``full`` kills at every statement of an upgrade or a restore, 28 / 24 times mid-append and
crashes the server 12 times: what ``make test`` and CI run unless told otherwise. ``quick``
caps every loop at 8 kills, ``N`` (a number) at N, spread evenly over the statements (the first
and the last always among them): a developer's quick check, or CI when short of time. The
figures in the summary say how many kills a run made.
"""

from __future__ import annotations

import os

ENV = "COMBATDESK_RELIABILITY"
QUICK = 8


def _cap() -> int | None:
    given = os.environ.get(ENV, "full").strip().lower() or "full"
    if given == "full":
        return None
    if given == "quick":
        return QUICK
    if given.isdigit() and int(given) > 0:
        return int(given)
    raise ValueError(f"{ENV}={given!r}: say full, quick or a number of kills")


CAP = _cap()
"""The most kills a loop makes; None: every one (full)."""


def kills(full: int) -> int:
    """Gets how many times a loop that kills ``full`` times at full size kills now."""
    return full if CAP is None else min(full, CAP)


def points(statements: int) -> list[int]:
    """Gets the statements (1…``statements``) to kill before: all of them at full size, else
    at most the cap, spread evenly from the first to the last."""
    if CAP is None or statements <= CAP:
        return list(range(1, statements + 1))
    if CAP == 1:
        return [statements]
    step = (statements - 1) / (CAP - 1)
    return sorted({1 + round(i * step) for i in range(CAP)})
