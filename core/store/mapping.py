"""Rows to values and back: roster entries and monster templates as the tables keep them.

The values (:mod:`core.roster.entries`, :mod:`core.model.values`) know nothing of the
database; every column is mapped here, by hand, both ways.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.model.values import Kind, Spell, Weapon
from core.roster.entries import (
    DEATH_SAVES,
    LevelTextError,
    MonsterTemplate,
    RosterEntry,
    RosterStatus,
    level_text,
    parse_levels,
)
from core.store.schema import Base, CharacterRow, MonsterTemplateRow

CHARACTERS_TABLE = Base.metadata.tables["characters"]
CHARACTER_COLUMNS = (
    "kind", "name", "side", "status", "level", "char_class", "race", "hp", "max_hp", "ac",
    "str_score", "dex", "wis", "initiative_adj", "surprise_adj", "missile_adj", "reaction_adj",
    "movement", "morale", "attack_routines", "attacks", "weapons", "spells", "notes",
    "class_levels", "death_saves",
)  # fmt: skip
TEMPLATES_TABLE = Base.metadata.tables["monster_templates"]
TEMPLATE_COLUMNS = (
    "name", "hit_dice", "ac", "movement", "morale", "attacks", "surprises_on", "weapons", "notes",
)  # fmt: skip


# --- weapons (a JSON column of both) -------------------------------------------------------------


def weapons_json(weapons: Sequence[Weapon]) -> list[Any]:
    """Gets weapons as the ``weapons`` column keeps them."""
    return [
        {
            "name": w.name,
            "speed_factor": w.speed_factor,
            "length": w.length,
            "missile": w.missile,
            "slow": w.slow,
            "rate_of_fire": w.rate_of_fire,
        }
        for w in weapons
    ]


def weapons_of(data: Sequence[Any]) -> tuple[Weapon, ...]:
    """Gets weapons back from the ``weapons`` column."""
    return tuple(
        Weapon(
            name=str(w["name"]),
            speed_factor=w.get("speed_factor"),
            length=w.get("length"),
            missile=bool(w.get("missile")),
            slow=bool(w.get("slow")),
            rate_of_fire=w.get("rate_of_fire"),
        )
        for w in data
    )


# --- roster entries (characters) ---------------------------------------------------------------


def entry_of(row: CharacterRow) -> RosterEntry:
    """Gets the roster entry a ``characters`` row holds (an ORM row or a plain one)."""
    return RosterEntry(
        id=row.id,
        name=row.name,
        kind=Kind(row.kind),
        side=row.side,
        status=RosterStatus(row.status),
        level=row.level,
        char_class=row.char_class,
        race=row.race,
        hp=row.hp,
        max_hp=row.max_hp,
        ac=row.ac,
        str_score=row.str_score,
        dex=row.dex,
        wis=row.wis,
        initiative_adj=row.initiative_adj,
        surprise_adj=row.surprise_adj,
        missile_adj=row.missile_adj,
        reaction_adj=row.reaction_adj,
        movement=row.movement,
        morale=row.morale,
        attack_routines=row.attack_routines,
        attacks=row.attacks,
        weapons=weapons_of(row.weapons),
        spells=tuple(
            Spell(str(s["name"]), int(s["level"]), int(s["casting_time"])) for s in row.spells
        ),
        # The memorised list keeps spent spells, flagged, so a rest can give them back.
        spent_spells=tuple(i for i, s in enumerate(row.spells) if s.get("spent")),
        notes=row.notes,
        version=row.version,
        class_levels=_class_levels(row.class_levels),
        death_saves=DEATH_SAVES if row.death_saves is None else row.death_saves,
    )


def _class_levels(stored: str | None) -> tuple[int, ...]:
    """Reads the ``class_levels`` column ("2/2"); NULL, or text this version cannot read (a
    hand-edited file), is a single class whose level is the ``level`` column."""
    if not stored:
        return ()
    try:
        return parse_levels(stored)[1]
    except LevelTextError:
        return ()


def character_values(entry: RosterEntry) -> dict[str, Any]:
    """Gets an entry's column values (without id, campaign and version), for bulk inserts."""
    row = CharacterRow()
    fill_character(row, entry)
    return {c: getattr(row, c) for c in CHARACTER_COLUMNS}


def fill_character(row: CharacterRow, entry: RosterEntry) -> None:
    """Writes an entry's values into its row (id, campaign and version are left alone)."""
    row.kind = str(entry.kind)
    row.name = entry.name
    row.side = entry.side
    row.status = str(entry.status)
    row.level = entry.level
    row.class_levels = level_text(entry) if entry.class_levels else None
    row.char_class = entry.char_class
    row.race = entry.race
    row.hp = entry.hp
    row.max_hp = entry.max_hp
    row.ac = entry.ac
    row.str_score = entry.str_score
    row.dex = entry.dex
    row.wis = entry.wis
    row.initiative_adj = entry.initiative_adj
    row.surprise_adj = entry.surprise_adj
    row.missile_adj = entry.missile_adj
    row.reaction_adj = entry.reaction_adj
    row.movement = entry.movement
    row.morale = entry.morale
    row.attack_routines = entry.attack_routines
    row.attacks = entry.attacks
    row.weapons = weapons_json(entry.weapons)
    spent = set(entry.spent_spells)
    row.spells = [
        {"name": s.name, "level": s.level, "casting_time": s.casting_time}
        | ({"spent": True} if i in spent else {})
        for i, s in enumerate(entry.spells)
    ]
    row.notes = entry.notes
    row.death_saves = entry.death_saves


# --- monster templates -------------------------------------------------------------------------


def _template_extras(stored: Any) -> tuple[list[Any], int | None]:
    """Gets (weapons, xp) from a template's ``weapons`` column.

    Without a schema change, a template's XP rides in that JSON column: a plain list of weapons
    (every template saved before XP existed, and any without XP), or ``{"weapons": [...],
    "xp": N}``.
    """
    if isinstance(stored, dict):
        xp = stored.get("xp")
        return list(stored.get("weapons") or []), None if xp is None else int(xp)
    return list(stored or []), None


def _template_weapons_column(t: MonsterTemplate) -> Any:
    weapons = weapons_json(t.weapons)
    return weapons if t.xp is None else {"weapons": weapons, "xp": t.xp}


def template_of(row: MonsterTemplateRow) -> MonsterTemplate:
    """Gets the monster template a ``monster_templates`` row holds (ORM or plain row)."""
    weapons, xp = _template_extras(row.weapons)
    return MonsterTemplate(
        id=row.id,
        name=row.name,
        hit_dice=row.hit_dice,
        ac=row.ac,
        movement=row.movement,
        morale=row.morale,
        attacks=row.attacks,
        surprises_on=row.surprises_on,
        weapons=weapons_of(weapons),
        notes=row.notes,
        version=row.version,
        xp=xp,
    )


def template_row(campaign_id: int, t: MonsterTemplate) -> MonsterTemplateRow:
    """Makes a new row for a template in a campaign."""
    row = MonsterTemplateRow(campaign_id=campaign_id)
    fill_template(row, t)
    return row


def fill_template(row: MonsterTemplateRow, t: MonsterTemplate) -> None:
    """Writes a template's values into its row (id, campaign and version are left alone)."""
    row.name = t.name
    row.hit_dice = t.hit_dice
    row.ac = t.ac
    row.movement = t.movement
    row.morale = t.morale
    row.attacks = t.attacks
    row.surprises_on = t.surprises_on
    row.weapons = _template_weapons_column(t)
    row.notes = t.notes
