"""Deciding whether a database may be opened, before anything is written to it.

A DM may point Combat Desk at the wrong file. Nothing here writes: the checks read the SQLite
header and catalogue, so a foreign, corrupt or newer file is refused byte-for-byte untouched.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from sqlalchemy import Connection, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from core.store.errors import (
    CorruptDatabaseError,
    DatabaseLockedError,
    NewerDatabaseError,
    NotACampaignDatabaseError,
    StoreError,
    access_denied,
)

APPLICATION_ID = 0x43444B31  # "CDK1" in the SQLite header marks a Combat Desk campaign file.
KNOWN_REVISIONS: tuple[str, ...] = (
    "0001", "0002", "0003", "0004", "0005", "0006", "0007", "0008", "0010",
    "0011",
)
"""Every schema revision this version can open, oldest first; the last is the head."""
HEAD_REVISION = KNOWN_REVISIONS[-1]
OUR_TABLES = frozenset({"campaigns", "characters", "monster_templates", "encounters"})
_SQLITE_MAGIC = b"SQLite format 3\x00"


class Verdict(Enum):
    """What opening a database has to do."""

    CREATE = "create"
    """Empty or absent: create the schema."""
    UPGRADE = "upgrade"
    """Ours, written by an older version: back up, then migrate."""
    CURRENT = "current"
    """Ours and up to date."""


@dataclass(frozen=True, slots=True)
class Inspection:
    verdict: Verdict
    revision: str | None


def sqlite_path(url: str) -> Path | None:
    """Gets the file behind an SQLite URL (None for other databases and in-memory ones)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    database = parsed.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)


def _verdict_for(revision: str | None, label: str) -> Inspection:
    if revision is None:
        raise NotACampaignDatabaseError(
            f"{label} has Combat Desk tables but no schema version; it was not written by "
            "Combat Desk and was left untouched."
        )
    if revision not in KNOWN_REVISIONS:
        raise NewerDatabaseError(
            f"{label} was saved by a newer version of Combat Desk (schema {revision}; this "
            f"version knows up to {HEAD_REVISION}). Update Combat Desk to open it; the file "
            "was left untouched."
        )
    verdict = Verdict.CURRENT if revision == HEAD_REVISION else Verdict.UPGRADE
    return Inspection(verdict, revision)


def _check_sqlite_header(path: Path) -> bool:
    """Checks the file's header; returns False for an empty file (a new database)."""
    size = path.stat().st_size
    if size == 0:
        return False
    with path.open("rb") as fh:
        header = fh.read(100)
    if not header.startswith(_SQLITE_MAGIC):
        raise NotACampaignDatabaseError(
            f"{path} is not a Combat Desk campaign (it is not an SQLite database at all). "
            "It was left untouched; choose another file or a new name."
        )
    if len(header) < 100:
        raise CorruptDatabaseError(f"{path} is damaged: its header is cut short ({size} bytes).")
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    header_valid = header[24:28] == header[92:96]  # the page count is trusted only then
    if page_size < 512 or page_size & (page_size - 1):
        raise CorruptDatabaseError(f"{path} is damaged: its header names a bad page size.")
    # A crash in the middle of a WAL checkpoint can leave page 1 (and its page count) written
    # before the file was extended; SQLite finishes the job from the WAL, so only judge the
    # page count when there is no WAL to finish from.
    wal = path.with_name(f"{path.name}-wal")
    pending_wal = wal.exists() and wal.stat().st_size > 0
    if size % page_size or (header_valid and not pending_wal and size < pages * page_size):
        raise CorruptDatabaseError(
            f"{path} is damaged or was cut short ({size} bytes; it should hold "
            f"{pages} pages of {page_size}). It was left untouched; restore a backup."
        )
    return True


def inspect_sqlite_file(path: Path, quick_check: bool = True) -> Inspection:
    """Reads (never writes) an SQLite file and decides whether and how to open it.

    ``quick_check=False`` skips SQLite's page check, for a file whose seal proves its bytes
    are the ones Combat Desk last closed (see :mod:`core.store.health`).
    """
    if not path.exists() or not _check_sqlite_header(path):
        return Inspection(Verdict.CREATE, None)
    label = str(path)
    try:
        # A plain read-only open: immutable=0 keeps WAL files honoured; mode=ro forbids writes.
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=2)
    except sqlite3.Error as exc:
        raise StoreError(f"{label} cannot be opened: {exc}") from None
    try:
        check = conn.execute("PRAGMA quick_check(1)").fetchone() if quick_check else ("ok",)
        if check is None or check[0] != "ok":
            raise CorruptDatabaseError(
                f"{label} is damaged ({check[0] if check else 'no answer'}). It was left "
                "untouched; restore a backup."
            )
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        tables = {
            row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
        revision = None
        if "alembic_version" in tables:
            row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
            revision = row[0] if row else None
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            raise DatabaseLockedError(
                f"{label} is locked by another program; close it there and try again."
            ) from None
        raise CorruptDatabaseError(
            f"{label} cannot be read: {exc}. It was left untouched."
        ) from None
    except sqlite3.DatabaseError as exc:
        raise CorruptDatabaseError(
            f"{label} is damaged or not a database ({exc}). It was left untouched."
        ) from None
    except UnicodeDecodeError:  # damaged pages put invalid UTF-8 into SQLite's own report
        raise CorruptDatabaseError(
            f"{label} is damaged (unreadable text in its catalogue). It was left untouched; "
            "restore a backup."
        ) from None
    finally:
        conn.close()
    if app_id != APPLICATION_ID:
        if not tables:
            return Inspection(Verdict.CREATE, None)
        raise NotACampaignDatabaseError(
            f"{label} is an SQLite database of another program, not a Combat Desk campaign. "
            "It was left untouched; choose another file or a new name."
        )
    if not tables:
        return Inspection(Verdict.CREATE, None)
    return _verdict_for(revision, label)


def inspect_connection(conn: Connection, label: str) -> Inspection:
    """Decides how to open a server database (PostgreSQL…) from its catalogue."""
    try:
        tables = set(inspect(conn).get_table_names())
        revision = None
        if "alembic_version" in tables:
            revision = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    except SQLAlchemyError as exc:
        orig = getattr(exc, "orig", None)
        denied = access_denied(str(orig or exc), label, getattr(orig, "sqlstate", None))
        if denied is not None:  # a role the administrator has not yet let in
            raise denied from None
        raise StoreError(f"{label} cannot be read: {exc.__class__.__name__}: {exc}") from None
    if not tables:
        return Inspection(Verdict.CREATE, None)
    if not tables >= OUR_TABLES and "alembic_version" not in tables:
        raise NotACampaignDatabaseError(
            f"{label} holds tables of another program, not a Combat Desk campaign; left untouched."
        )
    return _verdict_for(revision, label)
