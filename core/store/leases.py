"""Who plays an encounter now: one Combat Desk holds its lease, every other one watches.

A window that opens an encounter for play takes its lease and renews it with a heartbeat; a
lease whose heartbeat stopped (the app crashed, the laptop slept) expires by itself, so nobody
locks a fight forever. Another window opening the encounter meanwhile gets it read-only, told
who plays it, and may take it over; the store then refuses the first holder's next command
(see ``store.commands.append``'s ``holder``) and says who took over. Leases live in a table
(schema 0006), so the same rules hold on an SQLite file and on a PostgreSQL server, where the
server's clock judges expiry for every client alike.

An SQLite file shared by two computers has no such clock: theirs may disagree by seconds or
hours. So there a lease's expiry is judged by its watcher alone (schema 0008): the holder
counts its heartbeats in the row (``beat``), and a watcher times, on its own monotonic clock,
how long the count has stood still; a lease whose count has not moved for the lease's length
has run out. A watcher that has only just seen a lease takes it as live. No time written by
one computer is compared with another's clock, and a time shown is never later than now.
"""

from __future__ import annotations

import os
import socket
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, delete, select, text
from sqlalchemy.orm import Session

from core.store.errors import EncounterTakenOverError, NotFoundError
from core.store.schema import EncounterLeaseRow, EncounterRow, os_user, utc_now
from core.store.unit_of_work import Repository, UnitOfWork, reads

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
    pid: int | None = None
    """Its process id on ``host`` (None: not recorded, a lease written before schema 0011)."""

    @classmethod
    def here(cls) -> LeaseHolder:
        """Makes the holder for this app: a fresh id, the computer's user and host name, and
        this process's id."""
        try:
            host = socket.gethostname() or "an unnamed computer"
        except OSError:
            host = "an unnamed computer"
        return cls(uuid.uuid4().hex, os_user() or "someone", host[:200], os.getpid())


def _aware(moment: datetime) -> datetime:
    """SQLite gives stored times back without their zone; they were written in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def clock(moment: datetime) -> str:
    """Gets a time as the DM's wall clock shows it (20:14); never later than now (another
    computer, whose clock runs ahead, wrote it)."""
    return min(_aware(moment), utc_now()).astimezone().strftime("%H:%M")


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


def _lease(row: EncounterLeaseRow, live: bool) -> Lease:
    return Lease(
        row.encounter_id,
        LeaseHolder(row.instance, row.user_name, row.host, row.pid),
        _aware(row.since),
        _aware(row.expires_at),
        live,
    )


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
            beat=1,
            seconds=seconds,
            pid=me.pid,
        )
        s.add(row)
    else:
        if row.instance != me.instance:
            row.instance, row.user_name, row.host, row.since = me.instance, me.user, me.host, now
            row.pid = me.pid
        row.expires_at = expires
        row.beat = (row.beat or 0) % 1_000_000_000 + 1  # a heartbeat another computer counts
        row.seconds = seconds
    s.flush()
    return _lease(row, True)


class Leases(Repository):
    """Encounters' leases (``store.leases``): who plays each one now."""

    def __init__(self, uow: UnitOfWork) -> None:
        super().__init__(uow)
        self.clock: Callable[[], datetime] = utc_now
        """This computer's wall clock (UTC): the times a lease records on an SQLite file."""
        self.monotonic: Callable[[], float] = time.monotonic
        """The clock this app times other holders' heartbeats by (never set back)."""
        self._heard: dict[int, tuple[str, int, float]] = {}
        """Per encounter: the holder and heartbeat count last read, and when (monotonic) that
        count was first read here."""

    def _now(self, s: Session) -> datetime:
        """Gets the time the database judges leases by: the server's clock, or this
        computer's (an SQLite file, where only the times it shows come from it)."""
        if s.get_bind().dialect.name == "sqlite":
            return self.clock()
        moment = s.execute(text("SELECT clock_timestamp()")).scalar_one()
        assert isinstance(moment, datetime)
        return _aware(moment)

    def _judged(self, s: Session, row: EncounterLeaseRow) -> Lease:
        """Reads another holder's lease: live, or run out because its heartbeat stopped.

        A server judges by its own clock. On an SQLite file this app times how long the
        holder's heartbeat count has stood still, on its own monotonic clock.
        """
        if s.get_bind().dialect.name != "sqlite":
            return _lease(row, _aware(row.expires_at) > self._now(s))
        now = self.monotonic()
        heard = (row.instance, int(row.beat or 0))
        before = self._heard.get(row.encounter_id)
        if before is None or before[:2] != heard:
            self._heard[row.encounter_id] = (*heard, now)
            still = 0.0
        else:
            still = now - before[2]
        length = LEASE_SECONDS if row.seconds is None else float(row.seconds)
        return _lease(row, still < length)

    def take(self, encounter_id: int, holder: LeaseHolder, take_over: bool = False,
             seconds: float = LEASE_SECONDS) -> Lease:
        """Takes the encounter's lease for ``holder`` unless another live holder has it.

        Returns the lease that holds afterwards: ``holder``'s, or (without ``take_over``) the
        other holder's, whose window plays on. ``take_over`` takes it from a live holder too.
        """
        with self._uow() as s:
            row = _locked(s, encounter_id)
            if row is not None and row.instance != holder.instance and not take_over:
                other = self._judged(s, row)
                if other.live:
                    return other
            return _hold(s, row, encounter_id, holder, self._now(s), seconds)

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
            return _hold(s, row, encounter_id, holder, self._now(s), seconds)

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
            return None if row is None else self._judged(s, row)
