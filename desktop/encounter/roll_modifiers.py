"""What the app adds to a die the DM types: popcorn's initiative d20 takes the creature's DEX
(or WIS) modifier. The roll row asks for the die as it shows; the modifier is said beside it,
and the dice made list shows die, modifier and total (issue 24: "type the total" wanted the
raw d20)."""

from __future__ import annotations

from collections.abc import Mapping

from core.fight.encounter import scenario_document
from core.fight.log import EncounterState, LogError
from core.model.dice import Roller
from core.model.scenario import ScenarioError, parse_scenario
from core.rules.popcorn import initiative_standing

_last: tuple[EncounterState, Mapping[str, int]] | None = None
"""The last state asked about and its answer: a redraw asks twice (needed dice, dice made)."""


def added_to_dice(state: EncounterState) -> Mapping[str, int]:
    """Gets the modifier added to each die (by its purpose, ``initiative Orc 1``) that takes
    one; the others are what they show."""
    global _last
    if state.config.get("system") != "popcorn" or not state.combatants:
        return {}
    if _last is not None and _last[0] is state:
        return _last[1]
    _last = (state, _added(state))
    return _last[1]


def _added(state: EncounterState) -> Mapping[str, int]:
    document = scenario_document(state)
    try:
        standing = initiative_standing(parse_scenario(document),
                                       Roller.seeded(state.config.get("seed")))
    except (ScenarioError, LogError, KeyError, ValueError):
        return {}
    purpose = {c["id"]: f"initiative {c.get('name') or c['id']}"
               for c in document.get("combatants") or () if isinstance(c, Mapping)}
    return {purpose[t.actor]: t.modifier for t in standing.totals if t.actor in purpose}


def die_words(expression: str) -> str:
    """Gets what the DM reads off the table for ``expression``: ``what the d20 shows``,
    ``what the 2d6 show, added up``."""
    count, _, sides = expression.lower().partition("d")
    if count in ("", "1"):
        return f"what the d{sides} shows"
    return f"what the {count}d{sides} show, added up"


def modifier_words(modifier: int) -> str:
    """Gets ``+1 added`` (nothing for no modifier)."""
    return f"{modifier:+d} added by Combat Desk" if modifier else ""
