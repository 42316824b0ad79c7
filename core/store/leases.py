"""Who plays an encounter now: one Combat Desk holds its lease, every other one watches.

A window that opens an encounter for play takes its lease and renews it with a heartbeat; a
lease whose heartbeat stopped (the app crashed, the laptop slept) expires by itself, so nobody
locks a fight forever. Another window opening the encounter meanwhile gets it read-only, told
who plays it, and may take it over; the store then refuses the first holder's next command
(see ``store.commands.append``'s ``holder``) and says who took over. Leases live in a table
(schema 0006), so the same rules hold on an SQLite file and on a PostgreSQL server, where the
server's clock judges expiry for every client alike.
"""

from __future__ import annotations

import socket
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, delete, select, text
from sqlalchemy.orm import Session

from core.store.errors import EncounterTakenOverError, NotFoundError
from core.store.schema import EncounterLeaseRow, EncounterRow, os_user, utc_now
from core.store.unit_of_work import Repository, reads

LEASE_SECONDS = 30.0
"""How long a lease lasts without a heartbeat (the desktop beats every 10 seconds)."""
LEASE_OF = select(
    EncounterLeaseRow.instance, EncounterLeaseRow.user_name, EncounterLeaseRow.host,
    EncounterLeaseRow.since,
).where(EncounterLeaseRow.encounter_id == bindparam("encounter_id"))
"""The (instance, user, host, since) of an encounter's lease, for a write to check first."""


@dataclass(frozen=True, slots=True)
class LeaseHolder:
    """One running Combat Desk: a random id, and who and where it is in words."""

    instance: str
    user: str
    host: str

    @classmethod
    def here(cls) -> LeaseHolder:
        """Makes the holder for this app: a fresh id, the computer's user and host name."""
        try:
            host = socket.gethostname() or "an unnamed computer"
        except OSError:
            host = "an unnamed computer"
        return cls(uuid.uuid4().hex, os_user() or "someone", host[:200])


def _aware(moment: datetime) -> datetime:
    """SQLite gives stored times back without their zone; they were written in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def clock(moment: datetime) -> str:
    """Gets a time as the DM's wall clock shows it (20:14)."""
    return _aware(moment).astimezone().strftime("%H:%M")


@dataclass(frozen=True, slots=True)
class Lease:
    """An encounter's lease as read: who holds it, since when, and whether it still holds."""

    encounter_id: int
    holder: LeaseHolder
    since: datetime
    expires_at: datetime
    live: bool
    """False once the holder's heartbeat has stopped for longer than the lease lasts."""

    def held_by(self, holder: LeaseHolder | None) -> bool:
        """Tells whether ``holder`` (this app) holds the lease."""
        return holder is not None and holder.instance == self.holder.instance

    def words(self) -> str:
        """Says where it is open: "open in Combat Desk on table-pc by ann since 20:14"."""
        return (
            f"open in Combat Desk on {self.holder.host} by {self.holder.user} since "
            f"{clock(self.since)}"
        )


def taken_over_message(user: str, host: str, since: datetime) -> str:
    """The refusal a window gets once another Combat Desk has taken its encounter over."""
    return (
        f"{user} on {host} took this encounter over at {clock(since)} (Take Over in Combat "
        "Desk), so nothing was saved here. This window now only shows the fight as it goes "
        "on; use Take Over in its banner to play here again."
    )


def refuse_unless_holder(lease: Any, holder: str | None) -> None:
    """Refuses a command from a window whose encounter another Combat Desk has taken over.

    ``lease`` is the (instance, user, host, since) row or None. No lease, or a caller that
    plays without one (``holder`` None: the command line, older callers), is not refused.
    """
    if holder is None or lease is None or lease[0] == holder:
        return
    since = lease[3] if isinstance(lease[3], datetime) else datetime.fromisoformat(lease[3])
    raise EncounterTakenOverError(taken_over_message(lease[1], lease[2], since))


def _lease(row: EncounterLeaseRow, now: datetime) -> Lease:
    expires = _aware(row.expires_at)
    return Lease(
        row.encounter_id,
        LeaseHolder(row.instance, row.user_name, row.host),
        _aware(row.since),
        expires,
        expires > now,
    )


def _now(s: Session) -> datetime:
    """Gets the time the database judges leases by: the server's clock, or this computer's."""
    if s.get_bind().dialect.name == "sqlite":
        return utc_now()
    moment = s.execute(text("SELECT clock_timestamp()")).scalar_one()
    assert isinstance(moment, datetime)
    return _aware(moment)


def _locked(s: Session, encounter_id: int) -> EncounterLeaseRow | None:
    """Starts the write: takes the encounter's lock, then reads its lease row.

    SQLite: BEGIN IMMEDIATE, the same lock every append takes; a server: the encounter row, FOR
    UPDATE, as appends do. So a take-over and an append never cross.
    """
    if s.get_bind().dialect.name == "sqlite":
        s.connection().exec_driver_sql("BEGIN IMMEDIATE")
    found = s.execute(
        select(EncounterRow.id).where(EncounterRow.id == encounter_id).with_for_update()
    ).first()
    if found is None:
        raise NotFoundError("That encounter is gone from the campaign.")
    return s.get(EncounterLeaseRow, encounter_id)


def _hold(
    s: Session,
    row: EncounterLeaseRow | None,
    encounter_id: int,
    me: LeaseHolder,
    now: datetime,
    seconds: float,
) -> Lease:
    expires = now + timedelta(seconds=seconds)
    if row is None:
        row = EncounterLeaseRow(
            encounter_id=encounter_id,
            instance=me.instance,
            user_name=me.user,
            host=me.host,
            since=now,
            expires_at=expires,
        )
        s.add(row)
    else:
        if row.instance != me.instance:
            row.instance, row.user_name, row.host, row.since = me.instance, me.user, me.host, now
        row.expires_at = expires
    s.flush()
    return _lease(row, now)


class Leases(Repository):
    """Encounters' leases (``store.leases``): who plays each one now."""

    def take(self, encounter_id: int, holder: LeaseHolder, take_over: bool = False,
             seconds: float = LEASE_SECONDS) -> Lease:
        """Takes the encounter's lease for ``holder`` unless another live holder has it.

        Returns the lease that holds afterwards: ``holder``'s, or (without ``take_over``) the
        other holder's, whose window plays on. ``take_over`` takes it from a live holder too.
        """
        with self._uow() as s:
            row = _locked(s, encounter_id)
            now = _now(s)
            if row is not None and row.instance != holder.instance and not take_over:
                other = _lease(row, now)
                if other.live:
                    return other
            return _hold(s, row, encounter_id, holder, now, seconds)

    def renew(self, encounter_id: int, holder: LeaseHolder,
              seconds: float = LEASE_SECONDS) -> Lease:
        """The heartbeat: moves ``holder``'s lease on (taking it again if nobody holds it).

        Raises EncounterTakenOverError, naming who, when another Combat Desk has taken it over.
        """
        with self._uow() as s:
            row = _locked(s, encounter_id)
            if row is not None and row.instance != holder.instance:
                raise EncounterTakenOverError(
                    taken_over_message(row.user_name, row.host, row.since))
            return _hold(s, row, encounter_id, holder, _now(s), seconds)

    def release(self, encounter_id: int, holder: LeaseHolder) -> None:
        """Lets the encounter go (its window closed); someone else's lease is left alone."""
        with self._uow() as s:
            s.execute(
                delete(EncounterLeaseRow).where(
                    EncounterLeaseRow.encounter_id == encounter_id,
                    EncounterLeaseRow.instance == holder.instance,
                )
            )

    @reads
    def current(self, encounter_id: int) -> Lease | None:
        """Gets who holds the encounter's lease now (None: nobody took it)."""
        with self._uow() as s:
            row = s.get(EncounterLeaseRow, encounter_id)
            return None if row is None else _lease(row, _now(s))
