"""An encounter's stored log: its commands appended one per transaction, undone, read back.

Exactly once: a command whose id is already stored is not stored again, so a save retried
after an unknown outcome is always safe. Rows are never deleted: an undo is an entry of its
own naming the command it takes back. A window that has seen the log up to a number catches up
with what was stored after it (:meth:`CommandLog.stored_after`) instead of reading it all.
"""

from __future__ import annotations

import json
import random
import sqlite3
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, func, insert, select
from sqlalchemy.exc import DBAPIError, IntegrityError

from core.fight.log import Command, Event
from core.store import row_checks
from core.store.command_ids import check_command_id
from core.store.encounters import ENDED, GONE_ENCOUNTER
from core.store.errors import (
    CommandIdError,
    ConflictError,
    EncounterEndedError,
    EncounterMovedOnError,
    EncounterTakenOverError,
    NotFoundError,
    StoreError,
)
from core.store.leases import LEASE_OF, refuse_unless_holder
from core.store.schema import Base, EncounterEventRow, EncounterRow, changed_by, utc_now
from core.store.unit_of_work import Repository, UnitOfWork, database_error, reads

UNDO_KIND = "undo"
APPEND_ATTEMPTS = 8
"""How often an append that collided with another writer's is retried with the next number."""
_EVENTS_TABLE = Base.metadata.tables["encounter_events"]
# Built once: building a statement costs more than running it on SQLite.
_LAST_SEQ = select(func.max(_EVENTS_TABLE.c.command_seq)).where(
    _EVENTS_TABLE.c.encounter_id == bindparam("encounter_id")
)
_LOCK_ENCOUNTER = (
    select(EncounterRow.status, EncounterRow.name)
    .where(EncounterRow.id == bindparam("encounter_id"))
    .with_for_update()
)
_INSERT_EVENTS = insert(_EVENTS_TABLE)
_SEQ_OF_COMMAND = select(_EVENTS_TABLE.c.command_seq).where(
    _EVENTS_TABLE.c.encounter_id == bindparam("encounter_id"),
    _EVENTS_TABLE.c.command_id == bindparam("command_id"),
).limit(1)
_BODY_OF_COMMAND = select(
    _EVENTS_TABLE.c.command_name, _EVENTS_TABLE.c.kind, _EVENTS_TABLE.c.payload
).where(
    _EVENTS_TABLE.c.encounter_id == bindparam("encounter_id"),
    _EVENTS_TABLE.c.command_seq == bindparam("command_seq"),
).order_by(_EVENTS_TABLE.c.event_index)
_SQLITE_BODY_OF_COMMAND = (
    "SELECT command_name, kind, payload FROM encounter_events WHERE encounter_id = ? AND "
    "command_seq = ? ORDER BY event_index"
)
_SQLITE_LEASE_OF = (
    "SELECT instance, user_name, host, since FROM encounter_leases WHERE encounter_id = ?"
)
_SQLITE_STATUS = "SELECT status, name FROM encounters WHERE id = ?"
_SQLITE_LAST_SEQ = "SELECT max(command_seq) FROM encounter_events WHERE encounter_id = ?"
_SQLITE_SEQ_OF_COMMAND = (
    "SELECT command_seq FROM encounter_events WHERE encounter_id = ? AND command_id = ? LIMIT 1"
)
_SQLITE_INSERT_EVENT = (
    "INSERT INTO encounter_events (encounter_id, command_seq, event_index, command_name, kind, "
    "payload, created_at, command_id, changed_by, changed_at, row_check) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_EVENT_CHECKS = row_checks.checks_for(_EVENTS_TABLE)
"""The SQLite append computes each event's check from the values it binds, in the order of
``row_checks.CHECKED["encounter_events"]`` (a test holds the two together)."""
_MOVED_ON = (
    "Another Combat Desk window changed this encounter since yours last saw it, so nothing "
    "was saved (your command would not follow theirs, and an undo would take back their work). "
    "Reload it (Encounter › Reload Encounter, F5) to see what they did, then carry on."
)


def _same(value: Any) -> Any:
    return value


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else json.loads(json.dumps(value))


def refuse_unless_same(stored: Sequence[Any], name: str,
                       events: Sequence[tuple[str, Any]]) -> None:
    """Refuses a command whose id is already stored with another body (nothing stored).

    ``stored`` is the stored command's (name, kind, payload) rows, oldest event first. An undo
    is the same undo whatever command it took back (a retry after a lost answer names the one
    before); a command must match event for event.
    """
    undo = bool(events) and events[0][0] == UNDO_KIND
    if undo:
        same = bool(stored) and all(row[1] == UNDO_KIND for row in stored)
    else:
        same = (len(stored) == len(events)
                and all(row[0] == name for row in stored)
                and all(row[1] == kind and _json(row[2]) == _json(payload)
                        for row, (kind, payload) in zip(stored, events, strict=True)))
    if same:
        return
    first = stored[0][0] if stored else "another command"
    what = "an undo" if undo else f"'{name}'"
    raise CommandIdError(
        f"The id of {what} was already used for '{first}' in this encounter, so nothing was "
        "saved: one id names one command. Combat Desk makes a fresh id for every command; a "
        "script repeating an old id with other contents should make a new one."
    )


def _ended_error(name: str) -> EncounterEndedError:
    return EncounterEndedError(
        f"{name} has ended, so nothing can be changed in it. Reopen it (Encounter › Reopen "
        "Encounter) to play on."
    )


@dataclass(frozen=True, slots=True)
class StoredCommand:
    """One numbered entry of an encounter's stored log: a command, or an undo of one."""

    seq: int
    command: Command | None
    """None for an undo."""
    undoes: int = 0
    """For an undo: the number of the command it took back."""


def stored_commands(rows: Sequence[EncounterEventRow]) -> list[StoredCommand]:
    """Groups event rows (ordered by number and index) into the log's numbered entries."""
    grouped: dict[int, list[EncounterEventRow]] = {}
    for row in rows:
        grouped.setdefault(row.command_seq, []).append(row)
    stored: list[StoredCommand] = []
    for seq, group in grouped.items():
        if group[0].kind == UNDO_KIND:
            undone = group[0].payload.get("undoes")
            stored.append(StoredCommand(seq, None, undone if isinstance(undone, int) else 0))
            continue
        events = tuple(Event.from_json({"kind": r.kind, "data": r.payload}) for r in group)
        command = (Command(group[0].command_name, events) if group[0].command_id is None
                   else Command(group[0].command_name, events, group[0].command_id))
        stored.append(StoredCommand(seq, command))
    return stored


def live_commands(rows: Sequence[EncounterEventRow]) -> list[tuple[int, Command]]:
    """Gets the commands no undo took back, with their numbers, oldest first."""
    live: list[tuple[int, Command]] = []
    for stored in stored_commands(rows):
        if stored.command is not None:
            live.append((stored.seq, stored.command))
        elif live and live[-1][0] == stored.undoes:
            live.pop()
    return live


class CommandLog(Repository):
    """Every encounter's stored commands (``store.commands``)."""

    def __init__(self, uow: UnitOfWork) -> None:
        super().__init__(uow)
        self._engine = uow.engine
        self._processors: tuple[Callable[[Any], Any], Callable[[Any], Any]] | None = None

    def append(self, encounter_id: int, command: Command,
               after: int | None = None, holder: str | None = None) -> int:
        """Appends one command's events in one transaction and returns its number.

        Exactly once: a command whose id is already stored is not stored again; its number is
        returned, so a save retried after an unknown outcome is always safe. ``after`` is the
        last command number the caller has seen; if the encounter has moved on since (another
        window appended or undid), nothing is stored and EncounterMovedOnError says so.

        Two writers appending at once are serialized: on a server the encounter row is locked;
        on SQLite the (encounter, command, event) key refuses the second, which retries with the
        next number (unless ``after`` pins the number). Only after ``APPEND_ATTEMPTS``
        collisions does it raise ConflictError, and then nothing of its command is stored.

        ``holder`` is the caller's lease instance (:class:`~core.store.leases.LeaseHolder`):
        once another Combat Desk has taken the encounter over, EncounterTakenOverError names who
        and nothing is stored.
        """
        return self._append(
            encounter_id, command.name,
            [(str(e.kind), e.to_json()["data"]) for e in command.events], command.id, after,
            holder,
        )

    def undo(self, encounter_id: int, after: int | None = None,
             command_id: str | None = None, holder: str | None = None) -> int:
        """Records an undo of the last live command (rows are never deleted).

        With ``after`` (the last command number the caller has seen) the undo is refused when
        another window has appended since: the last command would not be the caller's own.
        """
        check_command_id(command_id)
        if command_id is not None:  # a retry of an undo stored already: nothing left to take
            done = self.undone(encounter_id, command_id)
            if done is not None:
                return done
        live = self._live_command_seqs(encounter_id)
        if not live:
            raise StoreError("There is nothing to undo in this encounter.")
        return self._append(encounter_id, "Undo", [(UNDO_KIND, {"undoes": live[-1]})],
                            command_id, after, holder)

    def seq_of(self, encounter_id: int, command_id: str, name: str,
               events: Sequence[tuple[str, Any]]) -> int | None:
        """Gets the number the command stored under ``command_id`` has (None: not stored).

        A stored command with another body under that id is refused (CommandIdError): the
        caller would take it for its own.
        """
        check_command_id(command_id)
        with self._uow() as s:
            key = {"encounter_id": encounter_id, "command_id": command_id}
            stored = s.execute(_SEQ_OF_COMMAND, key).scalar()
            if stored is None:
                return None
            body = s.execute(_BODY_OF_COMMAND, {"encounter_id": encounter_id,
                                                "command_seq": stored}).all()
        refuse_unless_same(body, name, events)
        return int(stored)

    def stored(self, encounter_id: int, command: Command) -> int | None:
        """Gets the number ``command`` was stored under (None: it is not stored): after a
        lost answer, what was saved is found out before anything is said."""
        return self.seq_of(encounter_id, command.id, command.name,
                           [(str(e.kind), e.to_json()["data"]) for e in command.events])

    def undone(self, encounter_id: int, command_id: str) -> int | None:
        """Gets the number the undo stored under ``command_id`` has (None: not stored)."""
        return self.seq_of(encounter_id, command_id, "Undo", [(UNDO_KIND, {})])

    @reads
    def last_seq(self, encounter_id: int) -> int:
        """Gets the number of the encounter's newest stored command (undos included; 0: none)."""
        try:
            with self._engine.connect() as conn:
                return int(conn.execute(_LAST_SEQ, {"encounter_id": encounter_id}).scalar() or 0)
        except DBAPIError as exc:  # outside a unit of work: a locked file is still worded
            raise database_error(exc, self._uow.label) from None

    @reads
    def snapshot(self, encounter_id: int) -> tuple[int, list[tuple[int, Command]]]:
        """Gets, from one read, the newest command number stored (undos included; 0: none)
        and the live commands with their numbers, oldest first."""
        rows = self._rows(encounter_id)
        return (rows[-1].command_seq if rows else 0), live_commands(rows)

    @reads
    def stored_after(self, encounter_id: int, after: int) -> list[StoredCommand]:
        """Gets what was stored after command number ``after``, commands and undos, oldest
        first: a window that has seen up to ``after`` catches up without reading it all."""
        return stored_commands(self._rows(encounter_id, after))

    @reads
    def load(self, encounter_id: int) -> list[Command]:
        """Gets the encounter's live commands (undone ones left out), oldest first."""
        return [command for _, command in live_commands(self._rows(encounter_id))]

    @reads
    def load_many(self, encounter_ids: Collection[int]) -> dict[int, list[Command]]:
        """Gets several encounters' live commands in one read (``load`` for each, at once):
        the roster's "fighting in" hint reads every open fight's log, and one query per fight
        cost a campaign with 200 open fights a third of a second per roster read."""
        wanted = sorted(set(encounter_ids))
        by_encounter: dict[int, list[EncounterEventRow]] = {i: [] for i in wanted}
        if wanted:
            with self._uow() as s:
                rows = s.scalars(
                    select(EncounterEventRow)
                    .where(EncounterEventRow.encounter_id.in_(wanted))
                    .order_by(EncounterEventRow.encounter_id, EncounterEventRow.command_seq,
                              EncounterEventRow.event_index)
                ).all()
            for row in rows:
                by_encounter[row.encounter_id].append(row)
        return {i: [command for _, command in live_commands(rows)]
                for i, rows in by_encounter.items()}

    # --- appending: retried on a collision, on a server or straight on an SQLite file ----------

    def _append(self, encounter_id: int, name: str, events: Sequence[tuple[str, Any]],
                command_id: str | None = None, after: int | None = None,
                holder: str | None = None) -> int:
        check_command_id(command_id)
        for attempt in range(APPEND_ATTEMPTS):
            try:
                return self._append_once(encounter_id, name, events, command_id, after, holder)
            except IntegrityError as exc:
                if "foreign key" in str(exc).lower():
                    raise NotFoundError(GONE_ENCOUNTER) from None
                if after is not None:
                    raise EncounterMovedOnError(_MOVED_ON) from None
                # Another writer took this number first: re-read the next one and try again.
                time.sleep(random.uniform(0, 0.002 * (attempt + 1)))
        raise ConflictError(
            "Other Combat Desk windows kept appending to this encounter at the same moment; "
            "your command was not stored. Reload the encounter and repeat it."
        )

    def _append_once(self, encounter_id: int, name: str, events: Sequence[tuple[str, Any]],
                     command_id: str | None, after: int | None, holder: str | None) -> int:
        if self._engine.dialect.name == "sqlite":
            return self._append_sqlite(encounter_id, name, events, command_id, after, holder)
        # Server databases: Core statements on one connection (the ORM's unit of work costs more
        # than the write).
        now = utc_now()
        try:
            with self._engine.begin() as conn:
                key = {"encounter_id": encounter_id}
                # Lock the encounter row: concurrent appends queue here instead of colliding.
                header = conn.execute(_LOCK_ENCOUNTER, key).first()
                if header is None:
                    raise NotFoundError(GONE_ENCOUNTER)
                if command_id is not None:
                    done = conn.execute(_SEQ_OF_COMMAND, {**key, "command_id": command_id})
                    stored = done.scalar()
                    if stored is not None:
                        body = conn.execute(_BODY_OF_COMMAND, {**key, "command_seq": stored})
                        refuse_unless_same(body.all(), name, events)
                        return int(stored)
                if holder is not None:
                    refuse_unless_holder(conn.execute(LEASE_OF, key).first(), holder)
                if header[0] == ENDED:
                    raise _ended_error(header[1])
                last = int(conn.execute(_LAST_SEQ, key).scalar() or 0)
                if after is not None and last != after:
                    raise EncounterMovedOnError(_MOVED_ON)
                seq = last + 1
                rows = [
                    _EVENT_CHECKS.stamped({
                        "encounter_id": encounter_id,
                        "command_seq": seq,
                        "event_index": i,
                        "command_name": name,
                        "kind": kind,
                        "payload": payload,
                        "created_at": now,
                        "command_id": command_id,
                    })
                    for i, (kind, payload) in enumerate(events)
                ]  # fmt: skip
                if rows:
                    conn.execute(_INSERT_EVENTS, rows[0] if len(rows) == 1 else rows)
                return seq
        except IntegrityError:
            raise
        except DBAPIError as exc:
            raise database_error(exc, self._uow.label) from None

    def _append_sqlite(
        self, encounter_id: int, name: str, events: Sequence[tuple[str, Any]],
        command_id: str | None, after: int | None, holder: str | None = None,
    ) -> int:
        """The same append straight on the pooled sqlite3 connection (the hot path at the table).

        SQLAlchemy's own bind processors format the payload and time, so rows are identical to
        the Core path's; statement building and execution contexts would triple the cost.
        """
        payload_out, time_out = self._event_processors()
        now = time_out(utc_now())
        who = changed_by(None)
        try:
            conn = self._engine.connect()  # a new connection may meet the lock already
        except DBAPIError as exc:
            raise database_error(exc, self._uow.label) from None
        with conn:
            raw = conn.connection.dbapi_connection
            assert isinstance(raw, sqlite3.Connection)
            try:
                # The look-ups and the INSERT are one write transaction: nobody (another
                # window, a restore) can change the log between reading its end and writing.
                raw.execute("BEGIN IMMEDIATE")
                if command_id is not None:
                    stored = raw.execute(_SQLITE_SEQ_OF_COMMAND,
                                         (encounter_id, command_id)).fetchone()
                    if stored is not None:
                        body = raw.execute(_SQLITE_BODY_OF_COMMAND,
                                           (encounter_id, stored[0])).fetchall()
                        raw.rollback()
                        refuse_unless_same(body, name, events)
                        return int(stored[0])
                if holder is not None:
                    lease = raw.execute(_SQLITE_LEASE_OF, (encounter_id,)).fetchone()
                    try:
                        refuse_unless_holder(lease, holder)
                    except EncounterTakenOverError:
                        raw.rollback()
                        raise
                header = raw.execute(_SQLITE_STATUS, (encounter_id,)).fetchone()
                if header is not None and header[0] == ENDED:
                    raw.rollback()
                    raise _ended_error(header[1])
                (last,) = raw.execute(_SQLITE_LAST_SEQ, (encounter_id,)).fetchone()
                if after is not None and int(last or 0) != after:
                    raw.rollback()
                    raise EncounterMovedOnError(_MOVED_ON)
                seq = int(last or 0) + 1
                rows = [
                    (encounter_id, seq, i, name, kind, payload_out(payload), now, command_id)
                    for i, (kind, payload) in enumerate(events)
                ]
                # The row check from the very values bound: SQLite stores them as they are.
                raw.executemany(
                    _SQLITE_INSERT_EVENT,
                    [(*row, who, now, _EVENT_CHECKS.of_stored(row)) for row in rows],
                )
                raw.commit()
            except sqlite3.IntegrityError as exc:
                raw.rollback()
                raise IntegrityError(_SQLITE_INSERT_EVENT, None, exc) from None
            except sqlite3.Error as exc:
                raw.rollback()
                raise database_error(exc, self._uow.label) from None
            except BaseException:
                if raw.in_transaction:  # never hand the pool a connection mid-transaction
                    raw.rollback()
                raise
            return seq

    def _event_processors(self) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
        if self._processors is None:
            dialect = self._engine.dialect
            # The dialect's own types: the generic DateTime has no processor, and sqlite3's
            # default adapter wrote "+00:00" after the time, unlike every other path.
            payload = _EVENTS_TABLE.c.payload.type.dialect_impl(dialect).bind_processor(dialect)
            created = _EVENTS_TABLE.c.created_at.type.dialect_impl(dialect).bind_processor(
                dialect)
            self._processors = (payload or _same, created or _same)
        return self._processors

    # --- reading ---------------------------------------------------------------------------------

    def _rows(self, encounter_id: int, after: int = 0) -> list[EncounterEventRow]:
        with self._uow() as s:
            return list(
                s.scalars(
                    select(EncounterEventRow)
                    .where(EncounterEventRow.encounter_id == encounter_id,
                           EncounterEventRow.command_seq > after)
                    .order_by(EncounterEventRow.command_seq, EncounterEventRow.event_index)
                ).all()
            )

    def _live_command_seqs(self, encounter_id: int) -> list[int]:
        return [seq for seq, _ in live_commands(self._rows(encounter_id))]
