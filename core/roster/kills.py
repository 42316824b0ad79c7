"""Kills and experience: which creatures an encounter killed, and the XP each is worth.

A kill is a combatant that did not come from the roster and ended the encounter dead. Its XP
comes from the monster template it was stamped from (matched by the template's name, which
stamping puts before the number: "Orc 3" is an "Orc"), or from the DM, who may change it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from core.fight.log import EncounterState
from core.model.values import Status
from core.roster.entries import MonsterTemplate

ROSTER_ID_KEY = "roster_id"  # the same key core.roster.results links roster combatants with
TEMPLATE_KEY = "template"
"""A combatant's ``extra`` field naming the template it was stamped from, when known."""
_NUMBERED = re.compile(r"^(.*?)\s+\d+$")


@dataclass(frozen=True, slots=True)
class Kill:
    """One creature killed in an encounter, with the XP it is worth (None: not known yet)."""

    name: str
    template: str | None = None
    xp: int | None = None


def template_for(name: str, extra: Mapping[str, object],
                 templates: Sequence[MonsterTemplate]) -> MonsterTemplate | None:
    """Gets the template a combatant was stamped from (by ``extra["template"]`` or its name)."""
    by_name = {t.name.casefold(): t for t in templates}
    linked = extra.get(TEMPLATE_KEY)
    if isinstance(linked, str) and linked.casefold() in by_name:
        return by_name[linked.casefold()]
    match = _NUMBERED.match(name.strip())
    base = match.group(1) if match else name.strip()
    return by_name.get(base.casefold())


def encounter_kills(state: EncounterState, templates: Sequence[MonsterTemplate]) -> list[Kill]:
    """Gets the creatures that ended ``state`` dead and did not come from the roster."""
    kills = []
    for combatant in state.combatants.values():
        if combatant.status is not Status.DEAD or ROSTER_ID_KEY in combatant.extra:
            continue
        template = template_for(combatant.label, combatant.extra, templates)
        kills.append(
            Kill(
                combatant.label,
                template.name if template is not None else None,
                template.xp if template is not None else None,
            )
        )
    return kills


def kill_lines(kills: Sequence[Kill]) -> list[str]:
    """Gets the session-log lines for ``kills``: one a kill, then the XP total."""
    if not kills:
        return []
    lines = [
        f"Killed {k.name}: {k.xp} XP" if k.xp is not None else f"Killed {k.name}: XP not given"
        for k in kills
    ]
    total = sum(k.xp or 0 for k in kills)
    missing = sum(k.xp is None for k in kills)
    note = f" ({missing} without XP)" if missing else ""
    lines.append(f"XP for kills: {total}{note}")
    return lines
