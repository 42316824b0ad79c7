"""Campaign roster values: what the store keeps between sessions (no database types here)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum

from core.model.values import Kind, Spell, Weapon

DEATH_SAVES = 3
"""Lifetime Death saves a PC starts with (popcorn-initiative-ose.md, Rolling for Damage)."""


class RosterStatus(StrEnum):
    """Where a roster entry stands between sessions."""

    ACTIVE = "active"
    UNCONSCIOUS = "unconscious"
    DEAD = "dead"
    FLED = "fled"
    RETIRED = "retired"


@dataclass(frozen=True, slots=True)
class Campaign:
    """A campaign: its roster and encounters live under it."""

    id: int
    name: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class RosterEntry:
    """A PC, henchman or hireling kept in the campaign roster.

    ``id`` is None until the store saves it; ``version`` is the store's edit counter, used to
    refuse a save made over someone else's newer edit.
    """

    name: str
    kind: Kind = Kind.PC
    id: int | None = None
    side: str = "party"
    status: RosterStatus = RosterStatus.ACTIVE
    level: int | None = None
    """The highest of the class levels (what an encounter and anything wanting one number
    reads); the only level of a single-classed entry."""
    char_class: str = ""
    race: str = ""
    hp: int | None = None
    max_hp: int | None = None
    ac: int | None = None
    str_score: int | None = None
    dex: int | None = None
    wis: int | None = None
    initiative_adj: int | None = None
    """The DM's override of the derived adjustment; None means "derive it from Dex"."""
    surprise_adj: int | None = None
    missile_adj: int | None = None
    reaction_adj: int | None = None
    movement: int | None = None
    morale: int | None = None
    attack_routines: int = 1
    attacks: int = 1
    weapons: tuple[Weapon, ...] = ()
    spells: tuple[Spell, ...] = ()
    """The spells memorised; an encounter spends them, a rest makes them available again."""
    spent_spells: tuple[int, ...] = ()
    """Positions in ``spells`` of the memorised spells already spent (cast or lost)."""
    notes: str = ""
    version: int = 0
    class_levels: tuple[int, ...] = ()
    """One level per class of a multi-classed character (Fighter/Magic-User 2/2), in the
    order of its classes; empty for a single class. ``level`` is the highest of them."""
    death_saves: int = DEATH_SAVES
    """Lifetime Death saves left (popcorn / OSE: "PCs have 3 lifetime Death saves"); a fight
    in which the PC spent one proposes this count going down."""


@dataclass(frozen=True, slots=True)
class MonsterTemplate:
    """A kind of monster the DM prepared, from which numbered combatants are stamped."""

    name: str
    hit_dice: str = "1d8"
    """Dice notation for one monster's hit points."""
    id: int | None = None
    ac: int | None = None
    movement: int | None = None
    morale: int | None = None
    attacks: int = 1
    surprises_on: int | None = None
    weapons: tuple[Weapon, ...] = ()
    notes: str = ""
    version: int = 0
    xp: int | None = None
    """Experience points the party earns for killing one of these (None: the DM enters it)."""


ROSTER_KINDS = (Kind.PC, Kind.HENCHMAN, Kind.HIRELING, Kind.MONSTER)


@dataclass(frozen=True, slots=True)
class SessionLogEntry:
    """One line of a campaign's session log: what changed in the roster, and when."""

    id: int
    campaign_id: int
    created_at: datetime
    summary: str
    details: tuple[str, ...] = ()


MAX_CLASSES = 3
"""The most classes one character holds at once (AD&D demi-humans: Fighter/Magic-User/Thief)."""
LEVEL_EXAMPLE = "2, or one level a class like 2/2"


class LevelTextError(ValueError):
    """A level as typed or read from a file that is neither a number nor levels like 2/2."""


def parse_levels(text: str) -> tuple[int | None, tuple[int, ...]]:
    """Reads a level as a DM writes it: "" (none), "5", or one level a class "2/2", "3/3/2".

    Gets (level, class levels): the level is the highest part; class levels are empty for a
    single number. Raises :class:`LevelTextError` saying in words what is wrong.
    """
    cleaned = text.strip().replace("−", "-")
    if not cleaned:
        return None, ()
    parts = [p.strip() for p in cleaned.split("/")]
    if len(parts) > MAX_CLASSES:
        raise LevelTextError(
            f"a character has at most {MAX_CLASSES} classes, so at most {MAX_CLASSES} levels "
            f"(e.g. 3/3/2), not {len(parts)} in {cleaned!r}"
        )
    levels: list[int] = []
    for part in parts:
        try:
            levels.append(int(part))
        except ValueError:
            # quoted as a DM reads it, never as a Python literal ('abc')
            if len(parts) == 1:
                raise LevelTextError(
                    f"“{cleaned}” is not a whole number; write {LEVEL_EXAMPLE}"
                ) from None
            what = "an empty part" if not part else f"“{part}”"
            raise LevelTextError(
                f"“{cleaned}” has {what} where a whole number belongs; write {LEVEL_EXAMPLE}"
            ) from None
    if len(levels) == 1:
        return levels[0], ()
    return max(levels), tuple(levels)


def level_text(entry: RosterEntry) -> str:
    """Gets an entry's level as the DM wrote it: "2/2" for a multi-class, "5", or ""."""
    if entry.class_levels:
        return "/".join(str(n) for n in entry.class_levels)
    return "" if entry.level is None else str(entry.level)


def with_levels(entry: RosterEntry, text: str) -> RosterEntry:
    """Gets ``entry`` with the level read from ``text`` (see :func:`parse_levels`)."""
    level, class_levels = parse_levels(text)
    return replace(entry, level=level, class_levels=class_levels)


def available_spells(entry: RosterEntry) -> tuple[Spell, ...]:
    """Gets the memorised spells ``entry`` has not spent yet, in the memorised order."""
    spent = set(entry.spent_spells)
    return tuple(s for i, s in enumerate(entry.spells) if i not in spent)


def spend_spells(entry: RosterEntry, names: Sequence[str]) -> RosterEntry:
    """Marks one still-available memorised spell spent for each name (unknown names ignored)."""
    spent = set(entry.spent_spells)
    for name in names:
        index = next(
            (i for i, s in enumerate(entry.spells) if s.name == name and i not in spent), None
        )
        if index is not None:
            spent.add(index)
    return replace(entry, spent_spells=tuple(sorted(spent)))


def rested(entry: RosterEntry, restore_hp: bool = False) -> RosterEntry:
    """Gets ``entry`` after a rest: every memorised spell available, HP at max if asked.

    A dead entry does not rest (it stays as it is); HP are restored only when max HP is known.
    An unconscious entry above 0 HP after the rest wakes: the next fight begins with it active.
    """
    if entry.status is RosterStatus.DEAD:
        return entry
    hp = entry.max_hp if restore_hp and entry.max_hp is not None else entry.hp
    status = entry.status
    if status is RosterStatus.UNCONSCIOUS and (hp is None or hp > 0):
        status = RosterStatus.ACTIVE
    return replace(entry, spent_spells=(), hp=hp, status=status)
