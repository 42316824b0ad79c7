"""Copying an SQLite campaign file: whole and consistent, or not at all.

A copy is made with SQLite's backup API (it includes what is still in the WAL), written beside
its target and renamed over it only when whole, and sealed (:func:`core.store.health.seal`).
Opening uses it before an upgrade, ``Store.backup`` for the DM, and a restore
(:mod:`core.store.backups`) for the campaign it replaces.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from core.store.errors import DatabaseLockedError, DiskFullError, StoreError
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


TEMPORARY_SUFFIXES = (".part", ".restoring")
"""Files a copy or a restore writes beside a campaign and removes when done (or killed: the
next opening removes them, :func:`remove_leftovers`)."""
_COMPANIONS = ("-journal", "-wal", "-shm")


@contextlib.contextmanager
def claimed(path: Path) -> Iterator[None]:
    """Creates ``path`` (empty) and holds it as in use until the block ends.

    An advisory lock on the file itself (``flock``; on Windows an open file cannot be deleted
    anyway): :func:`remove_leftovers` leaves alone what a running copy or restore still
    writes, and removes what a killed one left. The lock is on its own descriptor, released
    after SQLite's connections to the file are closed.
    """
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        _lock(fd)
        yield
    finally:
        os.close(fd)


def _lock(fd: int) -> bool:
    """Takes the file's advisory lock without waiting; False if someone holds it."""
    try:
        import fcntl
    except ImportError:  # Windows: a file in use cannot be removed, which is the same guard
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def _leftover(path: Path) -> bool:
    """Tells whether a temporary file is left by a copy or restore that no longer runs."""
    try:
        fd = os.open(path, os.O_RDWR)
    except OSError:
        return False
    try:
        return _lock(fd)
    finally:
        os.close(fd)


def remove_leftovers(campaign: Path) -> list[Path]:
    """Removes the temporary files a killed copy or restore left beside ``campaign``.

    ``name.restoring``, ``name….bak.part``, ``name.part`` and their SQLite companions, unless
    a copy or restore still writes them. Returns what was removed.
    """
    removed: list[Path] = []
    try:
        candidates = [p for p in campaign.parent.iterdir() if p.name.startswith(campaign.name)]
    except OSError:
        return removed
    for candidate in sorted(candidates):
        base = candidate.name
        for companion in _COMPANIONS:
            base = base.removesuffix(companion)
        rest = base[len(campaign.name):]
        if not rest or not any(suffix in rest for suffix in TEMPORARY_SUFFIXES):
            continue
        owner = candidate.with_name(base)
        if owner.exists() and not _leftover(owner):
            continue  # still being written
        try:
            candidate.unlink()
        except OSError:
            continue
        removed.append(candidate)
    return removed


def copy_database(source: Path, target: Path, lock_timeout: float = 5.0,
                  in_place: bool = False) -> Path:
    """Writes a consistent copy of the SQLite file ``source`` to ``target`` (backup API).

    The copy is written beside ``target`` and renamed over it only when whole (``in_place``:
    straight into ``target``, a temporary file the caller holds with :func:`claimed`). Another
    program holding ``source`` locked for more than ``lock_timeout`` seconds raises
    DatabaseLockedError (nothing written).
    """
    part = target if in_place else target.with_name(f"{target.name}.part")
    try:
        if not in_place:
            part.unlink(missing_ok=True)
        with contextlib.nullcontext() if in_place else claimed(part):
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
            seal(part)  # a backup carries its own digest: damage to it is named on opening
            if not in_place:
                os.replace(part, target)
    except sqlite3.Error as exc:
        _remove_with_companions(part)
        if "full" in str(exc).lower():
            raise DiskFullError(f"The disk is full; no backup was written to {target}.") from None
        if is_locked(exc):
            raise DatabaseLockedError(
                f"{source} is locked by another program or Combat Desk window; no backup was "
                "written. Try again in a moment.") from None
        raise StoreError(f"Could not copy {source} to {target}: {exc}.") from None
    except OSError as exc:
        _remove_with_companions(part)
        if exc.errno == errno.ENOSPC:
            raise DiskFullError(f"The disk is full; no backup was written to {target}.") from None
        raise StoreError(f"Could not write the backup {target}: {exc.strerror}.") from None
    return target


def _remove_with_companions(path: Path) -> None:
    for name in (path.name, *(path.name + c for c in _COMPANIONS)):
        path.with_name(name).unlink(missing_ok=True)


def unused_name(path: Path) -> Path:
    """Gets ``path``, or ``name.2.bak``, ``name.3.bak``… if it is taken: copies never overwrite."""
    candidate, number = path, 1
    while candidate.exists():
        number += 1
        candidate = path.with_name(f"{path.stem}.{number}{path.suffix}")
    return candidate
