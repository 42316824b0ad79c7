"""Per-table tallies of an SQLite campaign: how many records, and a sum mixing ids and checks.

Row checks (:mod:`core.store.row_checks`) see a record whose values changed, but not a record
that is gone, one added, or two records whose ids were swapped: each remaining row still
matches its own check. So the file keeps, in ``row_tallies`` (schema 0008), each checked
table's count of rows and a sum over them of a mix of the row id and its row check (an XOR of
the id times a large odd number and the check, which a swap of ids between two rows changes).

Only Combat Desk's own connections keep the tallies: each installs TEMPORARY triggers when it
is checked out of the pool (:func:`install`). Temporary triggers live in the connection, not in
the file, so another program (the sqlite3 shell, a browser for SQLite files) that deletes,
adds or renumbers a record leaves the tally behind, and the next opening of a file without a
valid seal names the difference (:func:`problems`). Restoring a backup copies the backup's
tallies with its rows; an upgrade counts them again (:func:`recount`).

A server database keeps the table empty: PostgreSQL campaigns are guarded by roles.
"""

from __future__ import annotations

import sqlite3
from typing import Any

TABLE = "row_tallies"
TALLIED: dict[str, tuple[str, str]] = {
    "campaigns": ("campaign", "campaigns"),
    "characters": ("roster entry", "roster entries"),
    "monster_templates": ("monster template", "monster templates"),
    "encounters": ("encounter", "encounters"),
    "encounter_events": ("event of a stored command", "events of stored commands"),
    "session_log": ("session log line", "session log lines"),
}
"""The tallied tables, with how one and many of their records are named to the DM."""


def mix(prefix: str = "") -> str:
    """Gets the SQL of one row's share of the sum (``prefix``: "NEW.", "OLD." or none).

    ``a XOR b`` written as ``(a | b) - (a & b)`` (SQLite has no XOR); both below 2**32, so a
    table of millions of rows sums far below 2**63.
    """
    spread = f"(({prefix}id * 2654435761) % 4294967296)"
    check = f"(coalesce({prefix}row_check, 0) & 4294967295)"
    return f"(({spread} | {check}) - ({spread} & {check}))"


def _triggers(table: str) -> list[str]:
    update = f"UPDATE {TABLE} SET row_count = row_count {{}} 1, mixed_sum = mixed_sum {{}} "
    where = f" WHERE table_name = '{table}'"
    name = f"combatdesk_tally_{table}"
    return [
        f"CREATE TEMP TRIGGER IF NOT EXISTS {name}_insert AFTER INSERT ON main.{table} BEGIN "
        f"{update.format('+', '+')}{mix('NEW.')}{where}; END",
        f"CREATE TEMP TRIGGER IF NOT EXISTS {name}_delete AFTER DELETE ON main.{table} BEGIN "
        f"{update.format('-', '-')}{mix('OLD.')}{where}; END",
        f"CREATE TEMP TRIGGER IF NOT EXISTS {name}_update AFTER UPDATE OF id, row_check "
        f"ON main.{table} BEGIN UPDATE {TABLE} SET mixed_sum = mixed_sum - {mix('OLD.')} "
        f"+ {mix('NEW.')}{where}; END",
    ]


TRIGGERS = tuple(sql for table in TALLIED for sql in _triggers(table))


def present(conn: sqlite3.Connection) -> bool:
    """Tells whether the file has the tallies table (schema 0008 and later)."""
    found = conn.execute(
        "SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = ?", (TABLE,)
    ).fetchone()
    return found is not None


def install(conn: sqlite3.Connection) -> bool:
    """Puts the temporary triggers on one of Combat Desk's connections; False before 0008."""
    if not present(conn):
        return False
    for statement in TRIGGERS:
        conn.execute(statement)
    return True


def recount_statements() -> list[str]:
    """Gets the SQL that sets every tally from the rows as they are (an upgrade, the DM's
    acknowledgement of damage)."""
    statements = [f"DELETE FROM {TABLE}"]
    for table in TALLIED:
        statements.append(
            f"INSERT INTO {TABLE} (table_name, row_count, mixed_sum) SELECT '{table}', "
            f"count(*), coalesce(sum({mix()}), 0) FROM {table}"
        )
    return statements


def recount(execute: Any) -> None:
    """Sets every tally from the rows as they are; ``execute`` runs one SQL string."""
    for statement in recount_statements():
        execute(statement)


def problems(conn: sqlite3.Connection) -> list[str]:
    """Names each table whose records were added, removed or renumbered outside Combat Desk."""
    if not present(conn):
        return []
    kept = {
        str(name): (int(count), int(total))
        for name, count, total in conn.execute(
            f"SELECT table_name, row_count, mixed_sum FROM {TABLE}"
        )
    }
    found = []
    for table, (one, many) in TALLIED.items():
        count, total = conn.execute(
            f"SELECT count(*), coalesce(sum({mix()}), 0) FROM {table}"
        ).fetchone()
        expected = kept.get(table)
        if expected is None:
            found.append(f"the count of {many} is missing")
            continue
        gone = expected[0] - int(count)
        if gone > 0:
            found.append(f"{gone} {one if gone == 1 else many} removed outside Combat Desk")
        elif gone < 0:
            found.append(f"{-gone} {one if gone == -1 else many} added outside Combat Desk")
        elif expected[1] != int(total):
            found.append(f"{many} renumbered or replaced outside Combat Desk (two records' ids "
                         "swapped, or one record put in another's place)")
    return found
