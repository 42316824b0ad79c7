"""Backing up and restoring an SQLite campaign file.

A backup is a consistent copy made with SQLite's backup API (it includes what is still in the
WAL). Restoring checks the backup with the same read-only checks as opening, keeps a copy of
the campaign it replaces, and swaps the rows in one transaction on the live file, so a crash
leaves the old campaign or the new one and other windows on the file are never cut off.
PostgreSQL campaigns are backed up by the server (pg_dump, base backups), not by the app.

The copying itself is :mod:`core.store.copies` (below the store, which copies a file before
upgrading it); restoring sits above the store, which it opens to upgrade an older backup.
"""

from __future__ import annotations

import glob
import os
import sqlite3
from datetime import datetime
from pathlib import Path

from core.store.copies import (
    SERVER_BACKUPS,
    claimed,
    copy_database,
    is_locked,
    remove_leftovers,
    unused_name,
)
from core.store.errors import DatabaseLockedError, NotACampaignDatabaseError, StoreError
from core.store.opening import Inspection, Verdict, inspect_sqlite_file

__all__ = ["SERVER_BACKUPS", "check_backup", "copy_database", "restore_backup", "unused_name"]


def check_backup(path: Path) -> Inspection:
    """Checks that ``path`` is a campaign this version can open; raises a StoreError if not."""
    if not path.is_file():
        raise NotACampaignDatabaseError(f"{path} does not exist or is not a file.")
    inspection = inspect_sqlite_file(path)
    if inspection.verdict is Verdict.CREATE:
        raise NotACampaignDatabaseError(f"{path} is empty: it is not a campaign backup.")
    return inspection


def restore_backup(backup: Path, target: Path, now: datetime | None = None,
                   lock_timeout: float = 10.0) -> Path | None:
    """Replaces the campaign in ``target`` with the one in ``backup``, all or nothing.

    Returns the copy kept of the replaced campaign (None if there was no file). Nothing is
    changed if the backup is not a campaign this version can open.

    The backup is first copied aside, upgraded to this version's schema if it is older, and
    checked. Then, in ONE write transaction on the live file, the replaced campaign is copied
    to a dated file and every table's rows are swapped for the backup's. A crash or kill at
    any instant leaves the old campaign or the new one, whole (the copy aside is the only
    thing left behind). Other Combat Desk windows on the file wait for that transaction
    instead of writing into a file about to vanish; afterwards their next change is refused
    with a message (their encounter moved on, their roster record changed).
    """
    inspection = check_backup(backup)
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    remove_leftovers(target)  # what a killed restore or copy left
    incoming = unused_name(target.with_name(f"{target.name}.restoring"))
    with claimed(incoming):  # a killed restore's copy is removed at the next opening
        return _restore(backup, incoming, target, inspection, stamp, lock_timeout)


def _restore(backup: Path, incoming: Path, target: Path, inspection: Inspection, stamp: str,
             lock_timeout: float) -> Path | None:
    try:
        copy_database(backup, incoming, lock_timeout, in_place=True)
        if inspection.verdict is Verdict.UPGRADE:
            from core.store.store import Store

            Store.open(f"sqlite:///{incoming}").close()  # migrates the copy, not the backup
        _sync(incoming)
        if not target.exists():
            os.replace(incoming, target)  # the claim goes with it, released at the end
            return None
        kept = unused_name(target.with_name(f"{target.name}.replaced-{stamp}.bak"))
        _swap_in(incoming, target, kept, lock_timeout)
        return kept
    except sqlite3.Error as exc:
        if is_locked(exc):  # worth a Retry: the DM is asked (desktop/store_retry.py)
            raise DatabaseLockedError(
                f"{target} is locked by another program or Combat Desk window; {backup.name} "
                "was not restored and the campaign is unchanged. Try again in a moment."
            ) from None
        raise StoreError(f"Could not restore {backup.name}: {exc}; the campaign is unchanged.") \
            from None
    except OSError as exc:
        raise StoreError(f"Could not put the backup in place: {exc.strerror}.") from None
    finally:
        # The copy aside, its SQLite companions, and the copy its upgrade kept of it.
        for left in incoming.parent.glob(f"{glob.escape(incoming.name)}*"):
            left.unlink(missing_ok=True)


def _sync(path: Path) -> None:
    with path.open("rb+") as fh:
        os.fsync(fh.fileno())


def _swap_in(incoming: Path, target: Path, kept: Path, lock_timeout: float) -> None:
    """Copies ``target`` to ``kept`` and its rows for ``incoming``'s in one transaction."""
    conn = sqlite3.connect(target, timeout=lock_timeout, isolation_level=None)
    try:
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=OFF")  # every table is replaced whole
        conn.execute("BEGIN IMMEDIATE")  # other writers wait from here to the commit
        conn.execute("PRAGMA user_version = 0")  # its bytes change: any seal is void
        # WAL lets another connection read while we hold the write lock: the copy is exactly
        # what is replaced, written whole or not at all (a .part renamed).
        copy_database(target, kept)
        _sync(kept)
        conn.execute("ATTACH DATABASE ? AS incoming", (str(incoming),))
        for table in _tables(conn, "main"):
            conn.execute(f'DELETE FROM main."{table}"')
        for table in _tables(conn, "incoming"):
            columns = ", ".join(f'"{c[1]}"' for c in
                                conn.execute(f'PRAGMA incoming.table_info("{table}")'))
            conn.execute(f'INSERT INTO main."{table}" ({columns}) '
                         f'SELECT {columns} FROM incoming."{table}"')
        conn.execute("COMMIT")
        conn.execute("DETACH DATABASE incoming")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    finally:
        conn.close()


def _tables(conn: sqlite3.Connection, schema: str) -> list[str]:
    rows = conn.execute(f"SELECT name FROM {schema}.sqlite_master WHERE type = 'table' AND "
                        "name NOT LIKE 'sqlite_%'")
    return [str(r[0]) for r in rows]
