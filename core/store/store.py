"""The campaign store: the one object the app talks to for everything kept between sessions.

:class:`Store` opens a campaign database safely (checking, migrating, backing up first) and
reads as a table of contents: one repository per concern, each a small class in a module of
its own over the store's one :class:`~core.store.unit_of_work.UnitOfWork`. Each repository
method is one unit of work (one transaction): a DM command either lands whole or not at all.
"""

from __future__ import annotations

import sqlite3
from contextlib import AbstractContextManager
from functools import cached_property
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from sqlalchemy.orm import Session
from sqlalchemy.pool import StaticPool

from core.store import health, row_checks, tallies
from core.store.access import Access
from core.store.addresses import (
    SERVER_CALL_DEADLINE,
    checked_address,
    default_database_url,
    safe_label,
    server_timeouts,
    server_wait_limit,
)
from core.store.batches import Batches
from core.store.campaigns import Campaigns
from core.store.commands import CommandLog
from core.store.encounters import Encounters
from core.store.errors import DiskFullError, ReadOnlyDatabaseError, StoreError
from core.store.leases import Leases
from core.store.opening import (
    APPLICATION_ID,
    HEAD_REVISION,
    Inspection,
    Verdict,
    inspect_connection,
    inspect_sqlite_file,
    sqlite_path,
)
from core.store.roster import Roster
from core.store.schema import DamageNoteRow, utc_now
from core.store.templates import Templates
from core.store.unit_of_work import UnitOfWork, database_error


def _on_sqlite_connect(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    # FULL: the WAL is synced at every commit, so a saved command survives a power loss
    # (NORMAL may roll the last commands back). Its cost is in bench/bench_store.py.
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()


def _keep_tallies(dbapi_conn: Any, record: Any, _proxy: Any) -> None:
    """Puts the tallies' temporary triggers on each of Combat Desk's connections once (schema
    0008 and later; before an upgrade there is nothing to keep)."""
    if not record.info.get("tallies") and tallies.install(dbapi_conn):
        record.info["tallies"] = True


def _tally_problems(path: Path) -> list[str]:
    """Reads the tallies of a file read-only, before anything (an upgrade) writes to it."""
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=2)
    except sqlite3.Error:
        return []
    try:
        return tallies.problems(conn)
    except (sqlite3.Error, ValueError, TypeError):
        return ["the records' counts cannot be read"]
    finally:
        conn.close()


class Store:
    """A campaign database, opened safely and migrated to the current schema."""

    def __init__(self, engine: Engine, label: str, wait_limit: float = 5.0) -> None:
        self._engine = engine
        self._uow = UnitOfWork(engine, label)
        self.wait_limit = wait_limit
        """About how many seconds one call waits on a busy or silent database before it gives
        up with a :class:`DatabaseLockedError` or :class:`DatabaseUnavailableError` (for the
        DM's progress message)."""
        self.damage: tuple[str, ...] = ()
        """Damage found when the campaign opened, in words for the DM (empty: none found)."""
        self.lock_timeout = 5.0
        """Seconds a write (or a backup) waits for another program's lock before giving up."""

    # --- who may do what (PostgreSQL roles and row-level security; an SQLite file is the unit)

    @cached_property
    def access(self) -> Access:
        """Who this store writes as, what its role may do in a campaign, the owner's grants."""
        return Access(self._uow, self.campaigns)

    # --- campaigns ---------------------------------------------------------------------------

    @cached_property
    def campaigns(self) -> Campaigns:
        """The campaigns: listed, created."""
        return Campaigns(self._uow)

    # --- a campaign's roster -----------------------------------------------------------------

    @cached_property
    def roster(self) -> Roster:
        """Roster entries one at a time, bulk imports, encounter results, the session log."""
        return Roster(self._uow)

    @cached_property
    def templates(self) -> Templates:
        """Monster templates."""
        return Templates(self._uow)

    @cached_property
    def batches(self) -> Batches:
        """Many records in one transaction: imports and their undo, multi-deletes, rests."""
        return Batches(self._uow)

    # --- a campaign's encounters -------------------------------------------------------------

    @cached_property
    def encounters(self) -> Encounters:
        """Encounter headers: created, listed, ended, reopened."""
        return Encounters(self._uow)

    @cached_property
    def leases(self) -> Leases:
        """Who plays each encounter now; the other windows watch."""
        return Leases(self._uow)

    @cached_property
    def commands(self) -> CommandLog:
        """Each encounter's stored commands: appended exactly once, undone, read back."""
        return CommandLog(self._uow)

    # --- the database itself: opening, closing, backing up -----------------------------------

    @classmethod
    def open(cls, url: str | None = None, lock_timeout: float = 5.0,
             call_deadline: float = SERVER_CALL_DEADLINE) -> Store:
        """Opens (creating or migrating as needed) the campaign database at ``url``.

        Raises a :class:`StoreError` subclass, with a message for the DM, for a file that is not
        a campaign, is damaged, is locked or was written by a newer version; such a file is left
        exactly as it was. ``lock_timeout`` is how long (seconds) a write waits for another
        program's lock on an SQLite file before giving up. ``call_deadline`` is how long
        (seconds) any one answer of a server is waited for, even from a frozen server process.
        """
        url = url or default_database_url()
        path = checked_address(url)
        label = str(path) if path else safe_label(url)
        intact, sealed, emptied = True, 0, False
        if path is not None:
            from core.store.copies import remove_leftovers

            remove_leftovers(path)  # what a killed restore or copy left beside it
            emptied = path.is_file() and path.stat().st_size == 0
            sealed, intact = _check_seal(path)
            inspection = inspect_sqlite_file(path, quick_check=not intact)
            if inspection.verdict is Verdict.CREATE:
                intact = True  # nothing in it to check
            elif not intact:  # the thorough structural check; a broken file stays untouched
                health.refuse_if_unreadable(label, health.structural_problems(path))
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"cannot create the folder for {path}: {exc.strerror}") from None
            engine = create_engine(url, connect_args={"timeout": lock_timeout})
            event.listen(engine, "connect", _on_sqlite_connect)
            event.listen(engine, "checkout", _keep_tallies)
            wait_limit = lock_timeout
        elif make_url(url).get_backend_name() == "sqlite":
            # An in-memory database (tests): one connection, handed from thread to thread, as
            # the app runs store calls off its window thread (desktop.store_call), one at a
            # time. The default pool would give each thread a database of its own, empty.
            engine = create_engine(url, poolclass=StaticPool,
                                   connect_args={"check_same_thread": False})
            event.listen(engine, "checkout", _keep_tallies)
            with engine.connect() as conn:
                inspection = inspect_connection(conn, label)
            wait_limit = lock_timeout
        else:
            wait_limit = server_wait_limit(url, lock_timeout, call_deadline)
            try:
                engine = create_engine(url, pool_pre_ping=True,
                                       connect_args=server_timeouts(url, lock_timeout))
                if engine.dialect.driver == "psycopg":
                    from core.store.deadline import connector

                    event.listen(engine, "do_connect", connector(call_deadline))
                with engine.connect() as conn:
                    inspection = inspect_connection(conn, label)
            except StoreError:
                raise
            except (SQLAlchemyError, ImportError) as exc:
                reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
                raise StoreError(f"cannot connect to {label}: {reason}") from None
        store = cls(engine, label, wait_limit)
        store.lock_timeout = lock_timeout
        counted: list[str] = []
        if path is not None and inspection.verdict is not Verdict.CREATE:
            if not intact:  # before an upgrade counts the records again
                counted = _tally_problems(path)
            store._unseal()
        store._prepare(inspection, path)
        if not intact:
            problems = counted + health.content_problems(store)
            if path is not None:  # a changed value that still reads well: the row checks
                problems += row_checks.stored_problems(path)
            if problems or sealed:
                store.damage = (health.damage_report(label, bool(sealed), problems),)
        store._keep_damage_notes()
        if emptied:  # said once: the file is a new campaign file from now on
            # SQLite takes an empty file for a new database; but a campaign file cut to nothing
            # (a copy gone wrong) would then show a fresh campaign list without a word.
            store.damage = (
                f"{label} was an empty file (0 bytes), so a new campaign file was started in "
                "it. If it held your campaign, restore it from a backup (File › Restore "
                "backup…): Combat Desk keeps copies beside it (.bak files) before every "
                "upgrade and restore.",)
        return store

    def _keep_damage_notes(self) -> None:
        """Writes newly found damage into the file and names every note not yet acknowledged.

        Damage is named at every start until the DM acknowledges it
        (:meth:`acknowledge_damage`), whether the file is sealed by then or not: the seal of a
        file whose damage was found once no longer tells anything.
        """
        if self.file is None:
            return
        notes: list[str] = []
        try:
            with self._uow() as s:
                notes = list(s.scalars(select(DamageNoteRow.words).order_by(DamageNoteRow.id)))
                for words in self.damage:
                    if words not in notes:
                        s.add(DamageNoteRow(found_at=utc_now(), words=words))
                        notes.append(words)
        except StoreError:  # a read-only or broken file: named now, if not kept
            notes = [*notes, *(words for words in self.damage if words not in notes)]
        self.damage = tuple(notes)

    def acknowledge_damage(self) -> None:
        """The DM has read the damage named on opening: stop naming it at every start.

        What is stored now is taken as it is: its records' checks and counts are stored again,
        and the notes are removed, so the next start names only damage done after this.
        """
        if self.file is not None:
            with self._uow() as s:
                conn = s.connection()
                raw = conn.connection.dbapi_connection
                assert isinstance(raw, sqlite3.Connection)
                row_checks.restamp(raw)
                tallies.recount(conn.exec_driver_sql)
                conn.exec_driver_sql("DELETE FROM damage_notes")
        self.damage = ()

    def _unseal(self) -> None:
        """Clears the file's seal before anything is written: the bytes are about to change.

        The pool keeps this connection open, and with it a lock that stops another Combat Desk
        from sealing the file under this one (see :func:`core.store.health.seal`).
        """
        try:
            with self._engine.connect() as conn:
                raw = conn.connection.dbapi_connection
                assert isinstance(raw, sqlite3.Connection)
                if raw.execute("PRAGMA user_version").fetchone()[0]:
                    # No sync of its own: lost in a power cut, the file is still the sealed
                    # one; any later commit syncs the WAL, this frame with it.
                    raw.execute("PRAGMA synchronous=OFF")
                    try:
                        raw.execute("PRAGMA user_version = 0")
                    finally:
                        raw.execute("PRAGMA synchronous=FULL")
        except (DBAPIError, sqlite3.Error) as exc:
            error = database_error(exc, self.label)
            if not isinstance(error, ReadOnlyDatabaseError):  # a read-only file keeps its seal
                raise error from None

    def _prepare(self, inspection: Inspection, path: Path | None) -> None:
        if inspection.verdict is Verdict.CURRENT:
            return
        copy: Path | None = None
        if inspection.verdict is Verdict.UPGRADE and path is not None:
            from core.store.copies import unused_name

            # The first pre-upgrade copy is the one worth keeping: a later attempt never
            # writes over it.
            copy = unused_name(path.with_name(f"{path.name}.before-{HEAD_REVISION}.bak"))
            try:
                self.backup(copy)
            except DiskFullError:
                raise DiskFullError(_no_room(path, "copy it before upgrading it")) from None
        try:
            self._upgrade()
        except BaseException as exc:
            # The upgrade is all or nothing: the file is the one copied, so the copy goes
            # (each try on a full disk would leave another).
            if copy is not None:
                copy.unlink(missing_ok=True)
            if isinstance(exc, DiskFullError) and path is not None:
                raise DiskFullError(_no_room(path, "upgrade it")) from None
            raise

    def _upgrade(self) -> None:
        try:
            from core.store.migrate import upgrade_to_head  # Alembic only when needed

            with self._engine.begin() as conn:
                if conn.dialect.name == "sqlite":
                    # Python's sqlite3 opens a transaction only before INSERT/UPDATE/DELETE, so
                    # each DDL statement would commit on its own and a crash could leave half an
                    # upgrade. One explicit transaction makes the upgrade all or nothing.
                    conn.exec_driver_sql("BEGIN IMMEDIATE")
                upgrade_to_head(conn)
                if conn.dialect.name == "sqlite":
                    # Whatever the migrations rewrote, the tallies count the rows as they are.
                    tallies.recount(conn.exec_driver_sql)
                    conn.exec_driver_sql(f"PRAGMA application_id = {APPLICATION_ID}")
        except DBAPIError as exc:  # OperationalError, and a role without rights on a server
            raise database_error(exc, self.label) from None

    def backup(self, target: Path) -> Path:
        """Writes a consistent copy of an SQLite campaign to ``target`` (SQLite backup API)."""
        from core.store.copies import SERVER_BACKUPS, copy_database

        source_path = sqlite_path(str(self._engine.url))
        if source_path is None:
            raise StoreError(SERVER_BACKUPS)
        return copy_database(source_path, target, self.lock_timeout)

    @property
    def label(self) -> str:
        """Gets the database in words for messages (its file, or its URL without password)."""
        return self._uow.label

    @property
    def file(self) -> Path | None:
        """Gets the SQLite campaign file (None for a server database)."""
        return sqlite_path(str(self._engine.url))

    @property
    def full_url(self) -> str:
        """Gets the database URL with its password, to open another Store on it."""
        return self._engine.url.render_as_string(hide_password=False)

    def close(self) -> None:
        """Closes every connection (SQLite folds its WAL back into the file).

        The last Combat Desk to close an SQLite campaign seals it (a digest of its bytes), so
        that the next start can tell damage from a clean file by one read. A file found damaged
        is left unsealed: the thorough checks keep naming what they find at every start.
        """
        self._engine.dispose()
        path = self.file
        if path is not None and not self.damage and path.exists():
            health.seal(path)

    @property
    def url(self) -> str:
        """Gets the database URL with any password hidden."""
        return self._engine.url.render_as_string(hide_password=True)

    def unit_of_work(self) -> AbstractContextManager[Session]:
        """Runs one DM command in one transaction; database failures become StoreErrors."""
        return self._uow()


def _no_room(path: Path, doing: str) -> str:
    """Says that the disk is too full to upgrade a campaign, and which copies could go."""
    from core.store.copies import TEMPORARY_SUFFIXES

    try:
        size = path.stat().st_size
        copies = sorted(
            p for p in path.parent.iterdir()
            if p.name.startswith(path.name) and p.name.endswith(".bak")
            and not any(suffix in p.name for suffix in TEMPORARY_SUFFIXES)
        )
    except OSError:
        size, copies = 0, []
    mb = max(size / 1e6, 0.1)
    named = "; ".join(f"{p.name} ({p.stat().st_size / 1e6:.1f} MB)" for p in copies[:10])
    hint = (f" Copies Combat Desk kept beside it before earlier upgrades and restores can be "
            f"deleted if you no longer need them: {named}." if copies else "")
    return (
        f"The disk holding {path} is full: Combat Desk needs room to {doing} (about "
        f"{mb:.1f} MB for a copy and as much again for the upgrade), and nothing was changed."
        f"{hint} Free some space, then open the campaign again."
    )


def _check_seal(path: Path) -> tuple[int, bool]:
    """Gets the file's seal (0: none) and whether its bytes still match it."""
    if not path.is_file():
        return 0, False
    try:
        sealed = health.seal_of(path)
        return sealed, sealed != 0 and health.file_digest(path) == sealed
    except OSError as exc:
        raise StoreError(f"{path} cannot be read: {exc.strerror}.") from None
