"""The sizes Combat Desk accepts from a file, documented in docs/scenario-format.md.

A real table has tens of combatants and tens of rounds; these limits sit far above that and far
below what exhausts memory, so a hostile or broken file gets a message instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

MAX_COMBATANTS = 10_000
MAX_ROUNDS = 2_000
MAX_TIMED_ACTIONS = 50_000
MAX_SEED_DIGITS = 40
"""A seed is a whole number of at most 40 digits (far more than any random generator uses)."""
MAX_FILE_BYTES = 64 * 1024 * 1024


def size_problem(document: Any) -> str | None:
    """Gets what makes a scenario document too big to take (None: it is within the limits)."""
    if not isinstance(document, Mapping):
        return None
    seed = document.get("seed")
    if isinstance(seed, int) and not isinstance(seed, bool) and len(str(abs(seed))) > (
            MAX_SEED_DIGITS):
        return f"seed: at most {MAX_SEED_DIGITS} digits"
    for name, limit in (("combatants", MAX_COMBATANTS), ("rounds", MAX_ROUNDS),
                        ("actions", MAX_TIMED_ACTIONS)):
        value = document.get(name)
        if isinstance(value, list) and len(value) > limit:
            return f"{name}: {len(value):,} given, at most {limit:,} are accepted"
    return None
