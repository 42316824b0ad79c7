"""Finding damage in a campaign file when it opens, so that it is named instead of shown wrong.

Two layers. A file Combat Desk closed cleanly carries a digest of its own bytes (a *seal*, in
the SQLite header's user_version field): if the bytes still match, nothing can have changed,
and opening costs one read of the file. A file without a valid seal (a crash, another Combat
Desk still open, a file from before seals) gets the thorough checks instead: SQLite's own
integrity check, and what the app relies on — every record reads back, every encounter's
command numbers run 1…N without a gap, every log parses and replays — and every record's own
checksum (:mod:`core.store.row_checks`, schema 0007), which finds a value changed into another
valid one: a letter of a note, a hit point number.

A seal that does not match means the bytes changed since Combat Desk closed the file, and not
through Combat Desk: a bit flipped on the disk, a copy gone wrong, another program's edit. The
thorough checks then say what they can (the row checks name the records changed); the mismatch
itself is always reported, since damage outside any record passes every other check.
"""

from __future__ import annotations

import sqlite3
import zlib
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from functools import partial
from pathlib import Path
from typing import Any, Protocol

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.fight.log import EncounterLog, LogError
from core.roster.checks import check_entry, check_template
from core.store.campaigns import Campaigns
from core.store.commands import live_commands
from core.store.encounters import EncounterInfo, Encounters
from core.store.errors import CorruptDatabaseError, StoreError
from core.store.mapping import entry_of, template_of
from core.store.roster import Roster
from core.store.schema import Base

_HEADER_SKIPPED = ((24, 28), (60, 64), (92, 96))
"""Header bytes left out of the digest: the change counter and its copy (SQLite may bump them
on any write) and user_version, where the digest itself is kept."""
_CHUNK = 1 << 20
MAX_REPORTED = 8
"""At most this many problems are named; the count of the rest follows."""


class Readable(Protocol):
    """What the content checks read through: a :class:`~core.store.store.Store` (which opens
    a campaign with them, so this module cannot name it)."""

    @property
    def campaigns(self) -> Campaigns: ...

    @property
    def roster(self) -> Roster: ...

    @property
    def encounters(self) -> Encounters: ...

    def unit_of_work(self) -> AbstractContextManager[Session]: ...


def file_digest(path: Path) -> int:
    """Gets a 31-bit digest of the file's bytes (never 0: 0 means "not sealed").

    CRC-32: the threat is a damaged disk or copy, not a forger, and it catches every burst of
    up to 32 flipped bits at a few milliseconds for a large campaign.
    """
    crc = 0
    with path.open("rb") as fh:
        first = bytearray(fh.read(_CHUNK))
        for start, end in _HEADER_SKIPPED:
            first[start:end] = bytes(end - start)
        crc = zlib.crc32(first, crc)
        while chunk := fh.read(_CHUNK):
            crc = zlib.crc32(chunk, crc)
    # user_version is a signed 32-bit integer: keep to positive values.
    return crc & 0x7FFFFFFF or 1


def seal_of(path: Path) -> int:
    """Gets the seal in the file's header (0: none), or 0 when a WAL still holds changes."""
    wal = path.with_name(f"{path.name}-wal")
    if wal.exists() and wal.stat().st_size > 0:
        return 0  # written through the WAL since: the file alone is not what was sealed
    with path.open("rb") as fh:
        header = fh.read(100)
    return int.from_bytes(header[60:64], "big", signed=True) if len(header) == 100 else 0


def seal(path: Path) -> bool:
    """Writes the file's digest into its header when no other connection has it open.

    Returns whether it sealed. Called when a Store closes: with another Combat Desk still on
    the file, the exclusive lock is refused and the file stays unsealed (the thorough checks
    run at the next start instead).
    """
    try:
        conn = sqlite3.connect(path, isolation_level=None, timeout=0)
    except sqlite3.Error:
        return False
    try:
        # Exclusive locking fails at once while any other connection holds the file.
        conn.execute("PRAGMA locking_mode=EXCLUSIVE")
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("PRAGMA user_version = 0")  # takes the exclusive lock
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        digest = file_digest(path)
        conn.execute(f"PRAGMA user_version = {digest}")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.Error:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        return False
    finally:
        conn.close()
    return True


def structural_problems(path: Path) -> list[str]:
    """Runs SQLite's full integrity check (indexes against tables too); [] when sound."""
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=2)
    try:
        rows = conn.execute(f"PRAGMA integrity_check({MAX_REPORTED})").fetchall()
        keys = conn.execute("PRAGMA foreign_key_check").fetchall()
    except (sqlite3.DatabaseError, UnicodeDecodeError):
        return ["SQLite cannot check it"]
    finally:
        conn.close()
    found = [] if [tuple(r) for r in rows] == [("ok",)] else ["SQLite's integrity check fails"]
    if keys:
        found.append(f"{len(keys)} records point to records that are gone")
    return found


_GAPS = """
SELECT e.name, count(DISTINCT v.command_seq), min(v.command_seq), max(v.command_seq)
FROM encounter_events v JOIN encounters e ON e.id = v.encounter_id
GROUP BY v.encounter_id
HAVING count(DISTINCT v.command_seq) != max(v.command_seq) OR min(v.command_seq) != 1
"""
_TORN = """
SELECT e.name, v.command_seq FROM encounter_events v JOIN encounters e ON e.id = v.encounter_id
GROUP BY v.encounter_id, v.command_seq
HAVING count(*) != max(v.event_index) + 1 OR min(v.event_index) != 0
    OR count(DISTINCT v.command_name) != 1 OR count(DISTINCT coalesce(v.command_id, '')) != 1
"""


def content_problems(store: Readable) -> list[str]:
    """Reads everything the app relies on the way the app reads it; names what fails.

    Bulk reads (one query a table), so that a campaign of thousands of fights is checked in
    a fraction of a second. Open encounters are replayed; ended ones are parsed (they are
    replayed, read-only, when the DM opens one).
    """
    found: list[str] = []

    def attempt(what: str, read: Callable[[], Iterable[str]]) -> None:
        try:
            found.extend(read())
        except (StoreError, LogError, ValueError, KeyError, TypeError, AttributeError) as exc:
            found.append(
                f"{what} cannot be read" + (f" ({exc})" if isinstance(exc, LogError) else "")
            )

    attempt("the list of commands", partial(_broken_chains, store))
    try:
        campaigns = store.campaigns.all()
    except StoreError:
        return [*found, "the list of campaigns cannot be read"]
    attempt("the roster", partial(_bad_records, store))
    for campaign in campaigns:
        label = f"the {campaign.name} campaign"
        attempt(f"the session log of {label}",
                partial(_read_all, store.roster.session_log, campaign.id))
        try:
            encounters = store.encounters.all(campaign.id)
        except StoreError:
            found.append(f"the list of encounters of {label} cannot be read")
            continue
        attempt(f"the encounters of {label}", partial(_bad_logs, store, encounters))
    return found


def _broken_chains(store: Readable) -> list[str]:
    found = []
    with store.unit_of_work() as s:
        raw = s.connection().exec_driver_sql
        for name, count, low, high in raw(_GAPS).all():
            found.append(
                f"the encounter {name} has commands missing ({count} of "
                f"{high - low + 1} numbered {low} to {high} are there)"
            )
        for name, seq in raw(_TORN).all():
            found.append(f"command {seq} of the encounter {name} is incomplete")
    return found


def _bad_records(store: Readable) -> list[str]:
    """Maps every roster entry and template as the app does, and checks its values."""
    found = []
    kinds: tuple[tuple[str, Callable[[Any], Any], Callable[[Any], object], str], ...] = (
        ("characters", entry_of, check_entry, "{} in the roster"),
        ("monster_templates", template_of, check_template, "the {} template"),
    )
    with store.unit_of_work() as s:
        for table, to_value, check, what in kinds:
            for row in s.execute(select(Base.metadata.tables[table])):
                try:
                    value = to_value(row)
                except (ValueError, KeyError, TypeError, AttributeError):
                    found.append(f"{what.format(row.name)} cannot be read")
                    continue
                if check(value):
                    found.append(f"{what.format(value.name)} holds impossible values")
    return found


def _bad_logs(store: Readable, encounters: Sequence[EncounterInfo]) -> list[str]:
    """Parses every encounter's log in one read, and replays the open ones."""
    table = Base.metadata.tables["encounter_events"]
    wanted = {info.id: info for info in encounters}
    rows: dict[int, list[Any]] = {}
    with store.unit_of_work() as s:
        query = select(table).order_by(table.c.encounter_id, table.c.command_seq,
                                       table.c.event_index)  # fmt: skip
        for row in s.execute(query):
            if row.encounter_id in wanted:
                rows.setdefault(row.encounter_id, []).append(row)
    found = []
    for encounter_id, events in rows.items():
        info = wanted[encounter_id]
        try:
            commands = [c for _, c in live_commands(events)]
            if not info.ended:
                EncounterLog(commands)
        except LogError as exc:
            found.append(f"the encounter {info.name} cannot be replayed ({exc})")
        except (ValueError, KeyError, TypeError, AttributeError):
            found.append(f"the encounter {info.name} cannot be read")
    return found


def _read_all(read: Callable[[int], object], campaign_id: int) -> list[str]:
    """Reads for the errors only: a read that works finds no problem."""
    read(campaign_id)
    return []


def damage_report(label: str, changed_outside: bool, problems: list[str]) -> str:
    """Words the damage found for the DM (one paragraph)."""
    shown = problems[:MAX_REPORTED]
    more = len(problems) - len(shown)
    parts = []
    if changed_outside:
        parts.append(
            "its contents changed after Combat Desk last closed it, without Combat "
            "Desk (a damaged disk or copy, or another program)"
        )
    parts.extend(shown)
    if more:
        parts.append(f"{more} more problems")
    return (
        f"{label} is damaged: {'; '.join(parts)}. It was opened so that you can see and "
        "save what is still good, but some of what it shows may be wrong. Restore a backup "
        "(File › Restore backup…) if you have one."
    )


def refuse_if_unreadable(label: str, problems: list[str]) -> None:
    """Refuses (nothing written) a file whose structure SQLite itself finds broken."""
    if problems:
        raise CorruptDatabaseError(
            f"{label} is damaged ({'; '.join(problems)}). It was left untouched; restore a backup."
        )
