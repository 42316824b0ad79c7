"""Many roster records in one transaction: an import and its undo, multi-deletes, rests.

Each operation is all or nothing, and every record it writes over or removes is
version-checked first: one changed elsewhere since it was read refuses the whole batch.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy import delete, insert, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from core.roster.entries import MonsterTemplate, RosterEntry
from core.roster.merge import ImportChanges
from core.store import row_checks
from core.store.access import require_writer
from core.store.errors import ConflictError, NotFoundError
from core.store.mapping import (
    CHARACTERS_TABLE,
    TEMPLATE_COLUMNS,
    TEMPLATES_TABLE,
    character_values,
    entry_of,
    fill_character,
    fill_template,
    template_of,
    template_row,
)
from core.store.schema import CampaignRow, CharacterRow, MonsterTemplateRow, SessionLogRow, utc_now
from core.store.unit_of_work import Repository
from core.store.versioned import check_versions, chunks, versioned_row

MAX_LOG_DETAILS = 200
"""A session-log line keeps at most this many detail lines (an import of thousands)."""


@dataclass(frozen=True, slots=True)
class AppliedImport:
    """An import as written: what :meth:`Batches.undo_import` needs to take it back exactly."""

    changes: ImportChanges
    """The records written, with their ids and versions."""
    log_id: int
    """The session-log line the import added."""
    entry_stamps: Mapping[int, datetime]
    """When each updated entry had last been saved before the import (restored on undo)."""


class Batches(Repository):
    """Roster batches (``store.batches``): each method one transaction over many records."""

    def apply_import(
        self, campaign_id: int, changes: ImportChanges, summary: str, details: Sequence[str]
    ) -> AppliedImport:
        """Writes one import whole (adds, version-checked updates, a session-log line) or nothing.

        Returns what was written, with ids and versions, for :meth:`undo_import`. An updated
        record changed elsewhere since the file was read refuses the whole import.
        """
        with self._uow() as s:
            if s.get(CampaignRow, campaign_id) is None:
                raise NotFoundError("The campaign is gone; nothing was imported.")
            stamps: dict[int, datetime] = {}
            updated_entries = []
            for before, after in changes.updated_entries:
                row = versioned_row(s, CharacterRow, campaign_id, before, "imported")
                stamps[row.id] = row.updated_at
                fill_character(row, after)
                s.flush()
                updated_entries.append((before, entry_of(row)))
            updated_templates = []
            for before_t, after_t in changes.updated_templates:
                trow = versioned_row(s, MonsterTemplateRow, campaign_id, before_t, "imported")
                fill_template(trow, after_t)
                s.flush()
                updated_templates.append((before_t, template_of(trow)))
            added_entries = _insert_entries(s, campaign_id, changes.added_entries)
            added_templates = _insert_templates(s, campaign_id, changes.added_templates)
            log = SessionLogRow(
                campaign_id=campaign_id, created_at=utc_now(), summary=summary,
                details=list(details)[:MAX_LOG_DETAILS],
            )  # fmt: skip
            s.add(log)
            s.flush()
            written = ImportChanges(
                tuple(added_entries), tuple(updated_entries), tuple(added_templates),
                tuple(updated_templates),
            )  # fmt: skip
            return AppliedImport(written, log.id, stamps)

    def undo_import(self, campaign_id: int, applied: AppliedImport) -> None:
        """Takes an import back whole: the database holds again exactly the rows it held before.

        Refuses (changing nothing) when a record the import wrote was changed or removed since.
        """
        changes = applied.changes
        with self._uow() as s:
            require_writer(self._uow, s, [campaign_id], "undone")
            check_versions(
                s, CHARACTERS_TABLE,
                [*changes.added_entries, *(after for _, after in changes.updated_entries)],
            )  # fmt: skip
            check_versions(
                s, TEMPLATES_TABLE,
                [*changes.added_templates, *(after for _, after in changes.updated_templates)],
            )  # fmt: skip
            for table, records in (
                (CHARACTERS_TABLE, changes.added_entries),
                (TEMPLATES_TABLE, changes.added_templates),
            ):
                ids = [r.id for r in records]
                for chunk in chunks(ids):
                    s.execute(delete(table).where(table.c.id.in_(chunk)))
            for before, _after in changes.updated_entries:
                assert before.id is not None
                values = {**character_values(before), "version": before.version,
                          "campaign_id": campaign_id}  # fmt: skip
                values["updated_at"] = applied.entry_stamps.get(before.id, utc_now())
                values = row_checks.stamped(CHARACTERS_TABLE, values)
                s.execute(
                    update(CHARACTERS_TABLE)
                    .where(CHARACTERS_TABLE.c.id == before.id)
                    .values(**values)
                )
            for before_t, _after_t in changes.updated_templates:
                row = template_row(campaign_id, before_t)
                values = {c: getattr(row, c) for c in TEMPLATE_COLUMNS}
                values = row_checks.stamped(TEMPLATES_TABLE, {
                    **values, "campaign_id": campaign_id, "version": before_t.version})
                s.execute(
                    update(TEMPLATES_TABLE)
                    .where(TEMPLATES_TABLE.c.id == before_t.id)
                    .values(**values)
                )  # fmt: skip
            s.execute(delete(SessionLogRow).where(SessionLogRow.id == applied.log_id))
            s.expire_all()

    def remove(
        self, entries: Sequence[RosterEntry], templates: Sequence[MonsterTemplate] = ()
    ) -> None:
        """Removes several entries and templates in one transaction, each only if unchanged."""
        with self._uow() as s:
            campaigns = check_versions(s, CHARACTERS_TABLE, entries, "removed")
            campaigns |= check_versions(s, TEMPLATES_TABLE, templates, "removed")
            require_writer(self._uow, s, campaigns, "removed")
            for table, records in ((CHARACTERS_TABLE, entries), (TEMPLATES_TABLE, templates)):
                for chunk in chunks([r.id for r in records]):
                    s.execute(delete(table).where(table.c.id.in_(chunk)))

    def restore(
        self,
        campaign_id: int,
        entries: Sequence[RosterEntry],
        templates: Sequence[MonsterTemplate] = (),
    ) -> None:
        """Puts removed entries and templates back with their ids and versions, all or none."""
        try:
            with self._uow() as s:
                _insert_entries(s, campaign_id, entries)
                _insert_templates(s, campaign_id, templates)
        except IntegrityError:
            names = ", ".join(([e.name for e in entries] + [t.name for t in templates])[:5])
            raise ConflictError(
                f"{names} cannot be put back: a place was taken or the campaign is gone."
            ) from None

    def save_entries(
        self, campaign_id: int, entries: Sequence[RosterEntry], summary: str,
        details: Sequence[str],
    ) -> list[RosterEntry]:
        """Saves several edited entries and a session-log line in one transaction.

        Every entry is version-checked: if one was changed elsewhere, nothing is saved.
        """
        with self._uow() as s:
            saved = []
            for entry in entries:
                row = versioned_row(s, CharacterRow, campaign_id, entry, "saved")
                fill_character(row, entry)
                saved.append(row)
            s.add(
                SessionLogRow(
                    campaign_id=campaign_id, created_at=utc_now(), summary=summary,
                    details=list(details)[:MAX_LOG_DETAILS],
                )
            )  # fmt: skip
            s.flush()
            return [entry_of(r) for r in saved]


def _insert_entries(
    s: Session, campaign_id: int, entries: Sequence[RosterEntry]
) -> list[RosterEntry]:
    """Bulk-inserts entries: new ones get ids, ones with an id go back under it."""
    now = utc_now()
    rows = [
        row_checks.stamped(CHARACTERS_TABLE, {
            **character_values(e), "campaign_id": campaign_id, "updated_at": now,
            "version": e.version if e.id is not None else 1})
        | ({"id": e.id} if e.id is not None else {})
        for e in entries
    ]  # fmt: skip
    out: list[RosterEntry] = []
    kept = [r for r in rows if "id" in r]
    fresh = [r for r in rows if "id" not in r]
    if kept:
        s.execute(insert(CHARACTERS_TABLE), kept)
    ids: list[int] = []
    if fresh:
        ids = list(s.scalars(
            insert(CHARACTERS_TABLE).returning(
                CHARACTERS_TABLE.c.id, sort_by_parameter_order=True),
            fresh,
        ).all())  # fmt: skip
    new_ids = iter(ids)
    for e in entries:
        out.append(e if e.id is not None else replace(e, id=next(new_ids), version=1))
    return out


def _insert_templates(
    s: Session, campaign_id: int, templates: Sequence[MonsterTemplate]
) -> list[MonsterTemplate]:
    out: list[MonsterTemplate] = []
    for t in templates:
        row = template_row(campaign_id, t)
        values = {c: getattr(row, c) for c in TEMPLATE_COLUMNS}
        if t.id is not None:
            s.execute(
                insert(TEMPLATES_TABLE),
                [row_checks.stamped(TEMPLATES_TABLE, {
                    **values, "campaign_id": campaign_id, "id": t.id, "version": t.version})],
            )  # fmt: skip
            out.append(t)
        else:
            new_id = s.execute(
                insert(TEMPLATES_TABLE).returning(TEMPLATES_TABLE.c.id),
                row_checks.stamped(TEMPLATES_TABLE,
                                   {**values, "campaign_id": campaign_id, "version": 1}),
            ).scalar_one()
            out.append(replace(t, id=new_id, version=1))
    return out
