"""Campaign roster values: what the store keeps between sessions (no database types here)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from core.model import Kind, Spell, Weapon


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
    notes: str = ""
    version: int = 0


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


ROSTER_KINDS = (Kind.PC, Kind.HENCHMAN, Kind.HIRELING, Kind.MONSTER)


@dataclass(frozen=True, slots=True)
class SessionLogEntry:
    """One line of a campaign's session log: what changed in the roster, and when."""

    id: int
    campaign_id: int
    created_at: datetime
    summary: str
    details: tuple[str, ...] = ()
