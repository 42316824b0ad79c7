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
MAX_NAME = 40
"""A roster entry's, a monster template's or an encounter's name is at most 40 characters:
room for "Sir Aldous Fitzwilliam the Unyielding" in every list, lane and timeline row."""
MAX_COMBATANT_NAME = MAX_NAME + 8
"""A combatant's name: a template's name with a stamped number after it ("Orc 12")."""
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_PRINTED_ROWS = 5_000
"""Rows (declarations, steps, hits, states…) one printout lays out: Qt's page layout grows
faster than linearly (3 MB of summary took 15 s and 200 MB; 11 MB ran for minutes), so a bigger
printout is refused with a message that says how to print it in parts."""


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


def printout_problem(summary: Any) -> str | None:
    """Gets why a round summary is too big to print or turn into a PDF at once (None: fine).

    ``summary`` is a :class:`core.printout.rows.Summary`; its rounds' row tuples are counted.
    """
    rows = 0
    for rnd in summary.rounds:
        rows += sum(len(getattr(rnd, name)) for name in (
            "declarations", "rolls", "play", "steps", "hits", "spells", "notes", "effects",
            "states"))
    if rows <= MAX_PRINTED_ROWS:
        return None
    return (f"This printout would hold {rows:,} lines; at most {MAX_PRINTED_ROWS:,} are printed "
            "at once. Print fewer rounds at a time (This round only, or a range of rounds).")
