"""The initiative systems, one module each, found by id (``find_system("side-d6")``).

``addict``, ``side_d6``, ``popcorn`` and ``time_units`` each follow their text in
``shared/rules/``; ``base`` holds what they share (rules, phases, options), ``care`` the
conditions an outcome can set (healing, held, asleep…), ``abilities`` the ability-score
tables, and ``popcorn_attack`` popcorn's attack-roll rules. The system modules are imported
on first use so that starting the app does not pay for all four.

May use: :mod:`core.model` only, and no I/O and no random numbers: every die comes in as a
value (rolled by the app's roller, or typed in from the table).
"""

from __future__ import annotations

import importlib
from typing import Any

from core.rules.base import InitiativeSystem, Phase, RollSource, Rule

# id → module defining ``SYSTEM``; packaging/combatdesk.spec lists these as hidden imports.
SYSTEM_MODULES: dict[str, str] = {
    "addict": "core.rules.addict",
    "side-d6": "core.rules.side_d6",
    "popcorn": "core.rules.popcorn",
    "time-units": "core.rules.time_units",
}


class UnknownSystemError(ValueError):
    """No initiative system has the requested id."""


def find_system(system_id: str) -> InitiativeSystem:
    """Gets the initiative system with id ``system_id``."""
    try:
        module_name = SYSTEM_MODULES[system_id]
    except KeyError:
        known = ", ".join(SYSTEM_MODULES)
        raise UnknownSystemError(f"unknown system {system_id!r} (one of {known})") from None
    module: Any = importlib.import_module(module_name)
    system: InitiativeSystem = module.SYSTEM
    return system


def all_systems() -> list[InitiativeSystem]:
    """Gets every system, in the order the app lists them."""
    return [find_system(sid) for sid in SYSTEM_MODULES]


__all__ = [
    "SYSTEM_MODULES",
    "InitiativeSystem",
    "Phase",
    "RollSource",
    "Rule",
    "UnknownSystemError",
    "all_systems",
    "find_system",
]
