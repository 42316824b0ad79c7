"""Copying an SQLite campaign file: whole and consistent, or not at all.

A copy is made with SQLite's backup API (it includes what is still in the WAL), written beside
its target and renamed over it only when whole, and sealed (:func:`core.store.health.seal`).
Opening uses it before an upgrade, ``Store.backup`` for the DM, and a restore
(:mod:`core.store.backups`) for the campaign it replaces.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from core.store.errors import DatabaseLockedError, StoreError
from core.store.health import seal

SERVER_BACKUPS = (
    "This campaign lives on a database server; backing it up is the server's job (for "
    "PostgreSQL: pg_dump or the server's own backups). Ask whoever runs the server."
)


def is_locked(exc: sqlite3.Error) -> bool:
    """Tells whether SQLite refused because another connection holds the file."""
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def _give_up_after(lock_timeout: float) -> Callable[[int, int, int], None]:
    """Gets a backup progress callback that stops a copy kept waiting for a lock too long.

    Python's backup loop retries a busy or locked source for ever: with another program
    holding the file, a backup (and a restore) hung with no message.
    """
    deadline = time.monotonic() + lock_timeout

    def progress(status: int, _remaining: int, _total: int) -> None:
        if status in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) and (
                time.monotonic() > deadline):
            raise sqlite3.OperationalError("database is locked")

    return progress


def copy_database(source: Path, target: Path, lock_timeout: float = 5.0) -> Path:
    """Writes a consistent copy of the SQLite file ``source`` to ``target`` (backup API).

    The copy is written beside ``target`` and renamed over it only when whole. Another
    program holding ``source`` locked for more than ``lock_timeout`` seconds raises
    DatabaseLockedError (nothing written).
    """
    part = target.with_name(f"{target.name}.part")
    try:
        part.unlink(missing_ok=True)
        src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True,
                              timeout=lock_timeout)
        try:
            dst = sqlite3.connect(part)
            try:
                src.backup(dst, progress=_give_up_after(lock_timeout))
            finally:
                dst.close()
        finally:
            src.close()
        seal(part)  # a backup carries its own digest: damage to it is named when it is opened
        os.replace(part, target)
    except sqlite3.Error as exc:
        part.unlink(missing_ok=True)
        if "full" in str(exc).lower():
            raise StoreError(f"The disk is full; no backup was written to {target}.") from None
        if is_locked(exc):
            raise DatabaseLockedError(
                f"{source} is locked by another program or Combat Desk window; no backup was "
                "written. Try again in a moment.") from None
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
