"""How the engine's work grows with the number of combatants, counted, not timed.

The speed targets are the benchmarks' (``bench/bench_schedule.py``); a test that timed a large
round failed on a loaded machine. Counting the Python calls cProfile sees is the same on any
machine, and a quadratic scan shows as well in calls as in seconds.
"""

from __future__ import annotations

import cProfile
import pstats
from collections.abc import Callable
from typing import Any

GROWTH_LIMIT = 5.0
"""From 1,000 to 4,000 combatants the work may grow 5× (4× is linear), as the bench's target."""


def calls(run: Callable[[], Any]) -> int:
    """Gets the number of Python function calls ``run`` makes."""
    profile = cProfile.Profile()
    profile.enable()
    try:
        run()
    finally:
        profile.disable()
    return int(pstats.Stats(profile).total_calls)  # type: ignore[attr-defined]


def growth(run_with: Callable[[int], Any], small: int = 1000, large: int = 4000) -> float:
    """Gets how many times more calls ``run_with(large)`` makes than ``run_with(small)``."""
    return calls(lambda: run_with(large)) / calls(lambda: run_with(small))
