"""Kills and experience: which creatures an encounter defeated, and the XP each is worth.

A kill is a combatant that did not come from the roster and ended the encounter down: dead,
or at 0 hp or below and unconscious (the AD&D procedure bleeds monsters like anyone else;
AD&D awards experience for defeating a foe, and OSE's monsters die at 0). The DM may mark
one that lives (a prisoner); it still counts as defeated. Its XP
comes from the monster template it was stamped from (matched by the template's name, which
stamping puts before the number: "Orc 3" is an "Orc"), or from the DM, who may change it.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from core.fight.log import EncounterState
from core.model.values import Combatant, Status
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
    lives: bool = False
    """The DM marked it as living (defeated, not killed): it is logged as such."""
    cid: str = field(default="", compare=False)
    """The combatant it was in the encounter (a reopened encounter does not log it twice)."""


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


def is_down(combatant: Combatant) -> bool:
    """Tells whether a creature ended the fight defeated: dead, or unconscious (down)."""
    return combatant.status in (Status.DEAD, Status.UNCONSCIOUS)


def encounter_kills(state: EncounterState, templates: Sequence[MonsterTemplate],
                    logged: Collection[str] = ()) -> list[Kill]:
    """Gets the creatures that ended ``state`` down and did not come from the roster.

    ``logged``: combatants whose defeat the session log holds already (an encounter reopened
    and ended again): they are left out, so no kill and no XP is counted twice.
    """
    kills = []
    for combatant in state.combatants.values():
        if not is_down(combatant) or ROSTER_ID_KEY in combatant.extra:
            continue
        if combatant.id in logged:
            continue
        template = template_for(combatant.label, combatant.extra, templates)
        kills.append(
            Kill(
                combatant.label,
                template.name if template is not None else None,
                template.xp if template is not None else None,
                cid=combatant.id,
            )
        )
    return kills


def kill_lines(kills: Sequence[Kill]) -> list[str]:
    """Gets the session-log lines for ``kills``: one a kill, then the XP total."""
    if not kills:
        return []
    lines = [
        f"{'Defeated' if k.lives else 'Killed'} {k.name}{' (lives)' if k.lives else ''}: "
        + (f"{k.xp} XP" if k.xp is not None else "XP not given")
        for k in kills
    ]
    total = sum(k.xp or 0 for k in kills)
    missing = sum(k.xp is None for k in kills)
    note = f" ({missing} without XP)" if missing else ""
    lines.append(f"XP for kills: {total}{note}")
    return lines
