"""What each whole-number house-rule option may be, from what the option means.

The options form takes its spin-box ranges from here and refuses anything else with the
reason below, so that a mis-scrolled "fixed surprise segments" of −3 never starts a fight.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from core.dice import DiceError, parse_dice


@dataclass(frozen=True, slots=True)
class Limit:
    """The allowed range of a whole-number option, and what the number counts."""

    low: int
    high: int
    counts: str


LIMITS: Mapping[str, Mapping[str, Limit]] = {
    "addict": {
        "seconds_per_segment": Limit(1, 60, "seconds of real delay that cost one segment"),
        "surprised_on": Limit(0, 6, "the highest d6 face that surprises (0: never)"),
        "fixed_surprise_segments": Limit(0, 10, "surprise segments (0: the surprised side's "
                                                "die decides)"),
        "default_charge_segments": Limit(1, 10, "segments a charge needs"),
        "unconscious_at": Limit(-99, 0, "hit points at which a combatant falls unconscious"),
        "death_at": Limit(-99, 0, "hit points at which a combatant dies"),
    },
    "time-units": {
        "action_cost": Limit(0, 20, "time units every action costs on top of its d10"),
        "round_tu": Limit(1, 100, "time units in one round"),
        "surprise_start_tu": Limit(0, 100, "the time unit a surprised combatant starts from"),
        "halfling_bonus": Limit(0, 10, "time units a halfling takes off each roll"),
        "death_threshold": Limit(-99, 0, "hit points at which a combatant dies"),
    },
}

DICE_OPTIONS: Mapping[str, frozenset[str]] = {"addict": frozenset({"morale_dice"})}
"""Options written in dice notation (``2d6``)."""


def limit(system: str, name: str) -> Limit | None:
    """Gets the range of a whole-number option (None: any whole number)."""
    return LIMITS.get(system, {}).get(name)


def option_problems(system: str, values: Mapping[str, Any]) -> dict[str, str]:
    """Gets, per option name, why its value cannot be used (empty: every value is fine).

    ``values`` holds the options as the scenario's ``options`` object would (changed ones
    only); the defaults fill in the rest for the checks that compare two options.
    """
    problems: dict[str, str] = {}
    words = name_words
    for name, value in values.items():
        bounds = limit(system, name)
        if bounds is not None:
            if isinstance(value, bool) or not isinstance(value, int):
                problems[name] = f"{words(name)} must be a whole number"
            elif not bounds.low <= value <= bounds.high:
                problems[name] = (f"{words(name)} must be from {bounds.low} to {bounds.high} "
                                  f"({bounds.counts}); {value} cannot be used")
        if name in DICE_OPTIONS.get(system, frozenset()):
            try:
                parse_dice(str(value))
            except DiceError:
                problems[name] = (f"{words(name)} must be dice such as 2d6 or 1d10+1, "
                                  f"not {str(value)!r}")
    if system == "addict":
        unconscious = values.get("unconscious_at", 0)
        death = values.get("death_at", -10)
        if (isinstance(unconscious, int) and isinstance(death, int) and death > unconscious
                and "death_at" not in problems):
            problems["death_at"] = (f"{words('death_at')} ({death}) must not be above "
                                    f"{words('unconscious_at')} ({unconscious})")
    return problems


def name_words(name: str) -> str:
    """Gets an option's name as the form labels it (``fixed surprise segments``)."""
    return name.replace("_", " ")
