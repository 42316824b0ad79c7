"""Versioned records, roster entries and monster templates alike: what their repositories share.

Every such row carries a version the ORM moves on at each save; a save or delete names the
version it was read at, and one saved elsewhere since is refused with a ConflictError that
carries the saved record, never overwritten.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.roster.entries import MonsterTemplate, RosterEntry
from core.store.access import require_writer
from core.store.errors import ConflictError, NotFoundError
from core.store.mapping import entry_of, template_of
from core.store.unit_of_work import Repository, reads


def chunks(ids: Sequence[Any], size: int = 500) -> Iterator[list[Any]]:
    """Splits ids for IN (...) lists short enough for every database."""
    for start in range(0, len(ids), size):
        yield list(ids[start : start + size])


class VersionedRepository(Repository):
    """A repository of versioned records: reading one as saved now, and deleting one."""

    @reads
    def _saved_value(self, model: type[Any], to_value: Callable[[Any], Any],
                     record_id: int) -> Any:
        """Gets a record as saved now, as a domain value (None if it is gone)."""
        with self._uow() as s:
            row = s.get(model, record_id)
            return None if row is None else to_value(row)

    def _with_saved(
        self, exc: ConflictError, model: type[Any], to_value: Callable[[Any], Any],
        record_id: int | None,
    ) -> ConflictError:
        """Adds the saved record to a conflict found by the database (a race past our check)."""
        if exc.saved is not None or record_id is None:
            return exc
        return ConflictError(str(exc), self._saved_value(model, to_value, record_id))

    def _remove_versioned(
        self, model: type[Any], to_value: Callable[[Any], Any], record_id: int,
        version: int | None, missing: str, changed: Callable[[Any], str],
    ) -> None:
        """Deletes a record; with ``version``, only if nobody saved it since then."""
        try:
            with self._uow() as s:
                row = s.get(model, record_id)
                if row is None:
                    raise NotFoundError(missing)
                if version is not None and row.version != version:
                    raise ConflictError(changed(row), to_value(row))
                require_writer(self._uow, s, [row.campaign_id], "removed")
                s.delete(row)
        except ConflictError as exc:
            raise self._with_saved(exc, model, to_value, record_id) from None


def versioned_row(
    s: Session, model: type[Any], campaign_id: int, record: RosterEntry | MonsterTemplate,
    verb: str,
) -> Any:
    """Gets a record's row to write over, refusing one gone or saved since at another version."""
    what = record.name if isinstance(record, RosterEntry) else f"The {record.name} template"
    row = s.get(model, record.id)
    if row is None or row.campaign_id != campaign_id:
        raise NotFoundError(f"{what} is no longer in the campaign; nothing was {verb}.")
    if row.version != record.version:
        raise ConflictError(
            f"{what} was changed elsewhere meanwhile; nothing was {verb}. Reload and try "
            "again.",
            entry_of(row) if isinstance(record, RosterEntry) else template_of(row),
        )
    return row


def check_versions(
    s: Session, table: Any, records: Sequence[RosterEntry | MonsterTemplate],
    verb: str = "undone",
) -> set[int]:
    """Refuses (ConflictError) if any record is gone or saved since at another version.

    Returns the campaigns the records belong to.
    """
    wanted = {r.id: r for r in records}
    found: dict[int, int] = {}
    campaigns: set[int] = set()
    for chunk in chunks(list(wanted)):
        rows = s.execute(select(table.c.id, table.c.version, table.c.campaign_id)
                         .where(table.c.id.in_(chunk)))
        for row in rows:
            found[row[0]] = row[1]
            campaigns.add(row[2])
    stale = [r.name for i, r in wanted.items() if i is None or found.get(i) != r.version]
    if stale:
        more = f" and {len(stale) - 3} more" if len(stale) > 3 else ""
        raise ConflictError(
            f"{', '.join(stale[:3])}{more} changed or went away since; nothing was {verb}."
        )
    return campaigns
