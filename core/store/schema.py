"""The campaign database tables (SQLAlchemy 2.x typed ORM).

Rows are mapped to the domain values in ``core.roster.entries`` by ``core.store.mapping``; nothing
outside ``core.store`` sees these classes.
"""

from __future__ import annotations

import functools
import getpass
import json
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    DateTime,
    FetchedValue,
    Float,
    ForeignKey,
    Index,
    Integer,
    PrimaryKeyConstraint,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.engine.interfaces import ExecutionContext
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

ACCESS_LEVELS = ("owner", "co-dm", "player")
"""What a database role may do in a campaign (PostgreSQL): everything, write, or only read."""


def utc_now() -> datetime:
    """Gets the current time in UTC (stored with every row that records when)."""
    return datetime.now(UTC)


@functools.cache
def os_user() -> str | None:
    """Gets the name of the person logged in to this computer (None if it has none)."""
    try:
        return getpass.getuser()[:200] or None
    except (OSError, KeyError, ImportError):  # no LOGNAME/USER and no passwd entry
        return None


def changed_by(context: ExecutionContext | None) -> str | None:
    """Gets who is writing, for the audit column ``changed_by``.

    On SQLite the campaign file is the unit of access, so "who" is the computer's user name.
    A server names its own login role: a PostgreSQL trigger fills the column (migration 0004),
    so what a client would send cannot disguise the writer.
    """
    if context is not None and context.dialect.name != "sqlite":
        return None
    return os_user()


class TextJSON(JSON):
    """JSON that is written whenever its text would change, not only when Python says it did.

    Python holds 8 and 8.0 (and 1 and True) equal, so plain JSON left a weapon's length stored
    as 8 when the DM saved 8.0, while the row check was taken over the 8.0 written: the next
    unsealed opening named the entry as changed outside Combat Desk.
    """

    def compare_values(self, x: Any, y: Any) -> bool:
        return x is y or json.dumps(x) == json.dumps(y)


class Base(DeclarativeBase):
    """Declarative base for every Combat Desk table."""

    type_annotation_map = {dict[str, Any]: TextJSON, list[Any]: TextJSON}


class Audited:
    """Who wrote a row last, and when (schema 0004; NULL in rows untouched since)."""

    changed_by: Mapped[str | None] = mapped_column(String(200), default=changed_by,
                                                   onupdate=changed_by)
    changed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True),
                                                        default=utc_now, onupdate=utc_now)


class RowChecked:
    """A CRC of the row's own values (schema 0007), set by every write: an unsealed file whose
    stored values changed outside Combat Desk is found by it (:mod:`core.store.row_checks`)."""

    row_check: Mapped[int | None] = mapped_column(Integer)


class CampaignRow(RowChecked, Audited, Base):
    __tablename__ = "campaigns"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    # FetchedValue: the ORM leaves the column out of its INSERT, so the server's default
    # (current_user, PostgreSQL only) fills it.
    owner: Mapped[str | None] = mapped_column(String(63), server_default=FetchedValue())
    """The PostgreSQL role that created the campaign (filled by the server); NULL on SQLite,
    where the file is the unit of access."""


class CampaignMemberRow(Audited, Base):
    """A PostgreSQL role's access to a campaign besides its owner's: owner, co-dm or player.

    The role may be a group role: every role in it gets the access. Unused on SQLite.
    """

    __tablename__ = "campaign_members"

    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    role_name: Mapped[str] = mapped_column(String(63))
    access: Mapped[str] = mapped_column(String(10))

    __table_args__ = (
        PrimaryKeyConstraint("campaign_id", "role_name"),
        CheckConstraint(
            "access IN ('owner', 'co-dm', 'player')", name="ck_campaign_members_access"
        ),
    )


class CharacterRow(RowChecked, Audited, Base):
    """A PC, henchman or hireling (``kind``)."""

    __tablename__ = "characters"

    id: Mapped[int] = mapped_column(primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(20))
    name: Mapped[str] = mapped_column(String(200))
    side: Mapped[str] = mapped_column(String(100), default="party")
    status: Mapped[str] = mapped_column(String(20), default="active")
    level: Mapped[int | None]
    char_class: Mapped[str] = mapped_column(String(100), default="")
    race: Mapped[str] = mapped_column(String(100), default="")
    hp: Mapped[int | None]
    max_hp: Mapped[int | None]
    ac: Mapped[int | None]
    str_score: Mapped[int | None]
    dex: Mapped[int | None]
    wis: Mapped[int | None]
    initiative_adj: Mapped[int | None]
    surprise_adj: Mapped[int | None]
    missile_adj: Mapped[int | None]
    reaction_adj: Mapped[int | None]
    movement: Mapped[int | None]
    morale: Mapped[int | None]
    attack_routines: Mapped[int] = mapped_column(default=1)
    attacks: Mapped[int] = mapped_column(default=1)
    weapons: Mapped[list[Any]] = mapped_column(default=list)
    spells: Mapped[list[Any]] = mapped_column(default=list)
    notes: Mapped[str] = mapped_column(Text, default="")
    version: Mapped[int] = mapped_column(Integer, nullable=False)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utc_now, onupdate=utc_now
    )
    class_levels: Mapped[str | None] = mapped_column(String(20))
    """One level a class as the DM writes it ("2/2", schema 0005); NULL for a single class,
    whose one level is ``level``."""
    death_saves: Mapped[int | None]
    """Lifetime Death saves left (schema 0010); NULL in rows saved before: none spent (3)."""

    # Optimistic concurrency: every UPDATE checks and bumps ``version``.
    __mapper_args__ = {"version_id_col": version}
    __table_args__ = (Index("ix_characters_campaign", "campaign_id"),)


class MonsterTemplateRow(RowChecked, Audited, Base):
    __tablename__ = "monster_templates"

    id: Mapped[int] = mapped_column(primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))
    hit_dice: Mapped[str] = mapped_column(String(50), default="1d8")
    ac: Mapped[int | None]
    movement: Mapped[int | None]
    morale: Mapped[int | None]
    attacks: Mapped[int] = mapped_column(default=1)
    surprises_on: Mapped[int | None]
    # A list of weapons, or {"weapons": [...], "xp": N} once the DM gave the template an XP value.
    weapons: Mapped[Any] = mapped_column(TextJSON, default=list)
    notes: Mapped[str] = mapped_column(Text, default="")
    version: Mapped[int] = mapped_column(Integer, nullable=False)

    __mapper_args__ = {"version_id_col": version}
    __table_args__ = (Index("ix_monster_templates_campaign", "campaign_id"),)


class EncounterRow(RowChecked, Audited, Base):
    __tablename__ = "encounters"

    id: Mapped[int] = mapped_column(primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))
    system: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    status: Mapped[str] = mapped_column(String(20), default="active")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)


class EncounterEventRow(RowChecked, Audited, Base):
    """One event of one command. Rows are only ever inserted: undo is a command of its own.

    The unique (encounter, command, index) key makes two writers appending the same command
    number collide instead of interleaving.
    """

    __tablename__ = "encounter_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    encounter_id: Mapped[int] = mapped_column(ForeignKey("encounters.id", ondelete="CASCADE"))
    command_seq: Mapped[int]
    event_index: Mapped[int]
    command_name: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(40))
    payload: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    command_id: Mapped[str | None] = mapped_column(String(32))
    """The client-made id of the command (None in rows written before 0003): a command is
    stored once per id, so a retried save is safe."""

    __table_args__ = (
        UniqueConstraint("encounter_id", "command_seq", "event_index"),
        UniqueConstraint("encounter_id", "command_id", "event_index",
                         name="uq_encounter_events_command_id"),
    )


class EncounterLeaseRow(Base):
    """Which Combat Desk plays an encounter now (schema 0006); the others only watch it.

    ``expires_at`` is moved on by the holder's heartbeat: a crashed app lets go by itself.
    """

    __tablename__ = "encounter_leases"

    encounter_id: Mapped[int] = mapped_column(
        ForeignKey("encounters.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    instance: Mapped[str] = mapped_column(String(32))
    """A random id made when the app starts: two windows of one user on one host differ."""
    user_name: Mapped[str] = mapped_column(String(200))
    host: Mapped[str] = mapped_column(String(200))
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    beat: Mapped[int] = mapped_column(Integer, server_default="0")
    """The heartbeat's count (schema 0008): a watcher times how long it stays the same on its
    own clock, so two computers' clocks are never compared (an SQLite file shared by them)."""
    seconds: Mapped[float | None] = mapped_column(Float)
    """How long the lease lasts without a heartbeat (None: ``LEASE_SECONDS``)."""
    pid: Mapped[int | None] = mapped_column(Integer)
    """The holder's process id on its host (schema 0011; None in rows written before): on the
    same host, by the same user, a pid that no longer runs is a crashed holder."""


class SessionLogRow(RowChecked, Audited, Base):
    """What changed in a campaign's roster between sessions (results of an encounter, imports)."""

    __tablename__ = "session_log"

    id: Mapped[int] = mapped_column(primary_key=True)
    campaign_id: Mapped[int] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    summary: Mapped[str] = mapped_column(String(500))
    details: Mapped[list[Any]] = mapped_column(default=list)

    __table_args__ = (Index("ix_session_log_campaign", "campaign_id"),)


class RowTallyRow(Base):
    """A checked table's count of rows and a sum mixing their ids and checks (schema 0008),
    kept by Combat Desk's own connections on SQLite (:mod:`core.store.tallies`)."""

    __tablename__ = "row_tallies"

    table_name: Mapped[str] = mapped_column(String(40), primary_key=True)
    row_count: Mapped[int] = mapped_column(Integer)
    mixed_sum: Mapped[int] = mapped_column(BigInteger)


class DamageNoteRow(Base):
    """Damage found when the file opened, named at every start until the DM acknowledges it
    (schema 0008)."""

    __tablename__ = "damage_notes"

    id: Mapped[int] = mapped_column(primary_key=True)
    found_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    words: Mapped[str] = mapped_column(Text)
