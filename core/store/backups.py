"""Backing up and restoring an SQLite campaign file.

A backup is a consistent copy made with SQLite's backup API (it includes what is still in the
WAL). Restoring checks the backup with the same read-only checks as opening, keeps a copy of
the file it replaces, and swaps the file in atomically; the caller closes its Store first.
PostgreSQL campaigns are backed up by the server (pg_dump, base backups), not by the app.
"""

from __future__ import annotations

import os
import sqlite3
from datetime import datetime
from pathlib import Path

from core.store.errors import NotACampaignDatabaseError, StoreError
from core.store.opening import Inspection, Verdict, inspect_sqlite_file

SERVER_BACKUPS = (
    "This campaign lives on a database server; backing it up is the server's job (for "
    "PostgreSQL: pg_dump or the server's own backups). Ask whoever runs the server."
)


def copy_database(source: Path, target: Path) -> Path:
    """Writes a consistent copy of the SQLite file ``source`` to ``target`` (backup API).

    The copy is written beside ``target`` and renamed over it only when whole.
    """
    part = target.with_name(f"{target.name}.part")
    try:
        part.unlink(missing_ok=True)
        src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True, timeout=5)
        try:
            dst = sqlite3.connect(part)
            try:
                src.backup(dst)
            finally:
                dst.close()
        finally:
            src.close()
        os.replace(part, target)
    except sqlite3.Error as exc:
        part.unlink(missing_ok=True)
        if "full" in str(exc).lower():
            raise StoreError(f"The disk is full; no backup was written to {target}.") from None
        raise StoreError(f"Could not copy {source} to {target}: {exc}.") from None
    except OSError as exc:
        part.unlink(missing_ok=True)
        raise StoreError(f"Could not write the backup {target}: {exc.strerror}.") from None
    return target


def unused_name(path: Path) -> Path:
    """Gets ``path``, or ``name.2.bak``, ``name.3.bak``… if it is taken: copies never overwrite."""
    candidate, number = path, 1
    while candidate.exists():
        number += 1
        candidate = path.with_name(f"{path.stem}.{number}{path.suffix}")
    return candidate


def check_backup(path: Path) -> Inspection:
    """Checks that ``path`` is a campaign this version can open; raises a StoreError if not."""
    if not path.is_file():
        raise NotACampaignDatabaseError(f"{path} does not exist or is not a file.")
    inspection = inspect_sqlite_file(path)
    if inspection.verdict is Verdict.CREATE:
        raise NotACampaignDatabaseError(f"{path} is empty: it is not a campaign backup.")
    return inspection


def restore_backup(backup: Path, target: Path, now: datetime | None = None) -> Path | None:
    """Replaces the campaign file ``target`` with ``backup``; the Store on it must be closed.

    Returns the copy kept of the replaced file (None if there was no file). Nothing is changed
    if the backup is not a campaign this version can open.
    """
    check_backup(backup)
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    kept = None
    if target.exists():
        kept = copy_database(
            target, unused_name(target.with_name(f"{target.name}.replaced-{stamp}.bak")))
    incoming = target.with_name(f"{target.name}.restoring")
    copy_database(backup, incoming)
    try:
        with incoming.open("rb+") as fh:
            os.fsync(fh.fileno())
        # A WAL left beside the old file would be replayed into the restored one: drop it.
        for companion in ("-wal", "-shm"):
            target.with_name(target.name + companion).unlink(missing_ok=True)
        os.replace(incoming, target)
    except OSError as exc:
        incoming.unlink(missing_ok=True)
        raise StoreError(f"Could not put the backup in place: {exc.strerror}.") from None
    return kept
