"""Per-row checks: a CRC-32 of each campaign record's values, kept in its ``row_check`` column.

The file seal (:mod:`core.store.health`) proves a cleanly closed file unchanged in one read.
A file without a valid seal (after a crash, or while another Combat Desk has it open) gets
SQLite's integrity check and the app's own checks, which cannot see a flipped letter in a note
or a flipped digit in a number: the value is still valid, only different. A check per row
catches that: every write stores the CRC of the row's values beside them, and opening an
unsealed file recomputes each one and names every record whose values no longer match.

One canonical encoding, two sources. Writers hand in Python values (JSON columns as lists and
dicts, times as datetimes); verification reads SQLite's stored form (JSON as its text, times as
SQLite's text), which is what those Python values become on the way in: JSON through
``json.dumps`` (SQLAlchemy's serializer) and times as ``YYYY-MM-DD HH:MM:SS.ffffff`` in UTC.
The CRC is taken over the ``repr`` of the list of those stored values, in a fixed column order.
Left out: the primary key (SQLite's integrity check matches every row id against the table's
indexes and foreign keys), columns the server fills (``changed_by``, ``changed_at``, a
campaign's ``owner``) and the check itself.

CRC-32, as for the seal: the threat is a damaged disk or copy, not a forger.
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import JSON, DateTime, Table, bindparam, update
from sqlalchemy.orm import Session, UOWTransaction
from sqlalchemy.orm.attributes import set_committed_value

COLUMN = "row_check"
PLAIN, AS_JSON, AS_TIME = "plain", "json", "time"

CHECKED: dict[str, tuple[str, ...]] = {
    "campaigns": ("name", "created_at"),
    "characters": (
        "campaign_id", "kind", "name", "side", "status", "level", "char_class", "race", "hp",
        "max_hp", "ac", "str_score", "dex", "wis", "initiative_adj", "surprise_adj",
        "missile_adj", "reaction_adj", "movement", "morale", "attack_routines", "attacks",
        "weapons", "spells", "notes", "version", "updated_at", "class_levels", "death_saves",
    ),
    "monster_templates": (
        "campaign_id", "name", "hit_dice", "ac", "movement", "morale", "attacks",
        "surprises_on", "weapons", "notes", "version",
    ),
    "encounters": ("campaign_id", "name", "system", "options", "status", "created_at"),
    "encounter_events": (
        "encounter_id", "command_seq", "event_index", "command_name", "kind", "payload",
        "created_at", "command_id",
    ),
    "session_log": ("campaign_id", "created_at", "summary", "details"),
}  # fmt: skip
"""The columns each checked table's row check covers, in the order they are encoded.

Changing a list changes every check of its table: a migration that adds a content column
recomputes the table's checks (as 0007 filled them), with its own frozen copy of the list."""


def kinds_of(table: Table, columns: Sequence[str]) -> tuple[str, ...]:
    """Gets how each column is encoded (JSON text, SQLite's time text, or as it is)."""
    out = []
    for name in columns:
        kind = table.c[name].type
        out.append(AS_JSON if isinstance(kind, JSON) else AS_TIME if isinstance(kind, DateTime)
                   else PLAIN)  # fmt: skip
    return tuple(out)


def time_text(value: datetime) -> str:
    """Writes a time as SQLite stores SQLAlchemy's DateTime (UTC: every writer uses UTC)."""
    if value.tzinfo is not None:
        value = value.astimezone(UTC).replace(tzinfo=None)
    return value.isoformat(" ", "microseconds")


_EXACT = frozenset({str, int, float, bytes, type(None)})
"""The types a plain sqlite3 cursor hands back: what the encoding is defined on."""


def _exact(value: Any) -> Any:
    """A writer's value as the database hands it back (an enum's text, a bool's number)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, datetime):
        return time_text(value)
    raise TypeError(f"no row-check encoding for {type(value).__name__}")


def checksum(values: Iterable[Any], kinds: Sequence[str], stored: bool) -> int:
    """Gets the check of one row's values (a signed 32-bit integer, as every database keeps).

    ``stored``: the values are SQLite's stored form (JSON and times as text), as read by a plain
    sqlite3 cursor; otherwise they are the Python values a writer hands to SQLAlchemy, turned
    into that form first. The encoding is the ``repr`` of the tuple of values: it tells every
    type and every string's end apart, and costs one call into C for a whole row.
    """
    row = list(values)
    if not stored:
        _as_stored(row, [i for i, k in enumerate(kinds) if k == AS_JSON],
                   [i for i, k in enumerate(kinds) if k == AS_TIME])  # fmt: skip
    return _crc(row)


def _as_stored(row: list[Any], json_at: Sequence[int], time_at: Sequence[int]) -> None:
    """Turns a writer's values into the stored form, in place (JSON text, times as text)."""
    for i in json_at:
        row[i] = json.dumps(row[i])
    for i in time_at:
        if isinstance(row[i], datetime):
            row[i] = time_text(row[i])
    if not _EXACT.issuperset(map(type, row)):
        row[:] = [value if type(value) in _EXACT else _exact(value) for value in row]


def _crc(row: list[Any]) -> int:
    # surrogatepass: text SQLite holds as broken UTF-8 reads back as escapes, never matching.
    crc = zlib.crc32(repr(row).encode("utf-8", "surrogatepass"))
    return crc - (1 << 32) if crc >= 1 << 31 else crc


class TableChecks:
    """The row check of one table's rows: from a writer's values, or from what is stored."""

    def __init__(self, table: Table, columns: Sequence[str] | None = None) -> None:
        self.table = table
        self.columns = tuple(columns or CHECKED[table.name])
        self.kinds = kinds_of(table, self.columns)
        self.json_at = [i for i, kind in enumerate(self.kinds) if kind == AS_JSON]
        self.time_at = [i for i, kind in enumerate(self.kinds) if kind == AS_TIME]
        self.kept = tuple(c for c in self.columns if table.c[c].onupdate is not None)
        """Checked columns an UPDATE would otherwise refresh (``updated_at``): the stamping
        UPDATE writes them back as they are, so the check still covers what is stored."""

    def of(self, values: Mapping[str, Any]) -> int:
        """Gets the check of a row from its Python values (every checked column must be there)."""
        row = [values[c] for c in self.columns]
        _as_stored(row, self.json_at, self.time_at)
        return _crc(row)

    def stamped(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """Gets ``values`` with the row check added (for Core INSERT and UPDATE statements)."""
        return {**values, COLUMN: self.of(values)}

    def of_stored(self, values: Sequence[Any]) -> int:
        """Gets the check of a row as SQLite stores it (values in ``columns`` order)."""
        return _crc(list(values))


_BY_TABLE: dict[str, TableChecks] = {}


def checks_for(table: Table) -> TableChecks:
    """Gets the row checks of a checked table (built once)."""
    found = _BY_TABLE.get(table.name)
    if found is None:
        found = _BY_TABLE[table.name] = TableChecks(table)
    return found


def stamped(table: Table, values: Mapping[str, Any]) -> dict[str, Any]:
    """Gets a row's values for a Core INSERT or UPDATE with its row check added."""
    return checks_for(table).stamped(values)


# --- the ORM: every object written by a flush gets its check from the values written --------


def after_flush(session: Session, _flush: UOWTransaction) -> None:
    """Stamps every checked row the flush inserted or updated, in one UPDATE a table.

    After the flush, each object holds exactly what was written, defaults, versions and
    ``onupdate`` times included; computing the check before it would have to foresee them.
    """
    pending: dict[Table, list[dict[str, Any]]] = {}
    for obj in (*session.new, *session.dirty):
        table = getattr(obj, "__table__", None)
        if table is None or table.name not in CHECKED or obj in session.deleted:
            continue
        checks = checks_for(table)
        check = checks.of({c: getattr(obj, c) for c in checks.columns})
        if getattr(obj, COLUMN, None) != check:
            row = {"_id": obj.id, "_check": check}
            row.update({f"_{c}": getattr(obj, c) for c in checks.kept})
            pending.setdefault(table, []).append(row)
        set_committed_value(obj, COLUMN, check)
    if not pending:
        return
    connection = session.connection()
    for table, rows in pending.items():
        kept = checks_for(table).kept
        statement = (
            update(table)
            .where(table.c.id == bindparam("_id"))
            .values({COLUMN: bindparam("_check"), **{c: bindparam(f"_{c}") for c in kept}})
        )
        connection.execute(statement, rows)


# --- verification on opening an SQLite file --------------------------------------------------

_LABELS: dict[str, tuple[str, str]] = {
    "campaigns": ("name", "the campaign '{}'"),
    "characters": ("name", "roster entry '{}'"),
    "monster_templates": ("name", "the monster template '{}'"),
    "encounters": ("name", "the encounter '{}'"),
    "session_log": ("summary", "the session log line '{}'"),
}
"""How a record is named in the damage report: by which column, in which words."""


def _short(value: Any, width: int = 60) -> str:
    text = str(value)
    return text if len(text) <= width else text[: width - 1] + "…"


def _text(data: bytes) -> str:
    # Damaged bytes must not stop the check: they come back as escapes, which never match.
    return data.decode("utf-8", "surrogateescape")


def _shown(data: Any) -> str:
    """A stored value for a message: broken characters shown as replacement marks."""
    if isinstance(data, str):
        return data.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    return str(data)


def stored_problems(path: Path) -> list[str]:
    """Recomputes every row check of an SQLite campaign; names each record that fails it.

    A row whose check is missing (NULL) fails too: every write since schema 0007 stores one,
    and the upgrade filled the older rows, so only damage leaves one out.
    """
    from core.store.schema import Base

    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=2)
    conn.text_factory = _text
    found: list[str] = []
    try:
        names = _encounter_names(conn)
        for name in CHECKED:
            checks = checks_for(Base.metadata.tables[name])
            columns = ", ".join(f'"{c}"' for c in checks.columns)
            query = f'SELECT {COLUMN}, {columns} FROM "{name}" ORDER BY id'
            width = len(checks.columns)
            for row in conn.execute(query):
                if row[0] != checks.of_stored(row[1 : width + 1]):
                    found.append(_what(name, dict(zip(checks.columns, row[1:], strict=True)),
                                       names))  # fmt: skip
    except sqlite3.DatabaseError:
        return [*found, "the records' checks cannot be read"]
    finally:
        conn.close()
    return [f"{what}: its stored values changed outside Combat Desk" for what in found]


def _encounter_names(conn: sqlite3.Connection) -> dict[Any, str]:
    return {row[0]: _shown(row[1]) for row in conn.execute("SELECT id, name FROM encounters")}


def _what(table: str, row: dict[str, Any], encounters: Mapping[Any, str]) -> str:
    if table == "encounter_events":
        where = encounters.get(row["encounter_id"], "an encounter that is gone")
        return f"command {_shown(row['command_seq'])} of the encounter '{where}'"
    column, words = _LABELS[table]
    return words.format(_short(_shown(row[column])))


def restamp(conn: sqlite3.Connection) -> int:
    """Stores, for every record whose check fails, the check of its values as they are now.

    The DM's acknowledgement of damage named on opening: what is stored is taken as it is, so
    that the next start does not name it again. Returns how many records were restamped.
    Runs inside the caller's transaction, on one of Combat Desk's connections (so the
    tallies follow).
    """
    from core.store.schema import Base

    factory = conn.text_factory
    conn.text_factory = _text
    changed = 0
    try:
        for name in CHECKED:
            checks = checks_for(Base.metadata.tables[name])
            columns = ", ".join(f'"{c}"' for c in checks.columns)
            width = len(checks.columns)
            stale = [
                (checks.of_stored(row[2 : width + 2]), row[0])
                for row in conn.execute(f'SELECT id, {COLUMN}, {columns} FROM "{name}"')
                if row[1] != checks.of_stored(row[2 : width + 2])
            ]
            conn.executemany(f'UPDATE "{name}" SET {COLUMN} = ? WHERE id = ?', stale)
            changed += len(stale)
    finally:
        conn.text_factory = factory
    return changed
