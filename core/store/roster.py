"""A campaign's roster: its PCs, henchmen and hirelings, and the session log its changes write.

One entry at a time (added, edited, removed, put back, each version-checked), or many in one
transaction: a bulk import, and the results of an encounter with their session-log line.
Several records at once, templates among them, are :mod:`core.store.batches`'.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from core.roster.entries import RosterEntry, SessionLogEntry
from core.store import row_checks
from core.store.campaigns import GONE_CAMPAIGN
from core.store.errors import ConflictError, NotFoundError, StoreError
from core.store.mapping import CHARACTERS_TABLE, character_values, entry_of, fill_character
from core.store.schema import CampaignRow, CharacterRow, SessionLogRow, utc_now
from core.store.unit_of_work import reads
from core.store.versioned import VersionedRepository


class Roster(VersionedRepository):
    """Every campaign's roster entries and session log (``store.roster``)."""

    @reads
    def entries(self, campaign_id: int) -> list[RosterEntry]:
        """Gets a campaign's PCs, henchmen and hirelings in the order they were added."""
        with self._uow() as s:
            rows = s.scalars(
                select(CharacterRow)
                .where(CharacterRow.campaign_id == campaign_id)
                .order_by(CharacterRow.id)
            ).all()
            return [entry_of(r) for r in rows]

    def add(self, campaign_id: int, entry: RosterEntry) -> RosterEntry:
        """Adds a roster entry and returns it with its id and version."""
        return self.add_all(campaign_id, [entry])[0]

    def add_all(self, campaign_id: int, entries: Sequence[RosterEntry]) -> list[RosterEntry]:
        """Adds several roster entries in one transaction (all or none)."""
        with self._uow() as s:
            if s.get(CampaignRow, campaign_id) is None:
                raise NotFoundError(GONE_CAMPAIGN)
            rows = []
            for entry in entries:
                row = CharacterRow(campaign_id=campaign_id)
                fill_character(row, entry)
                rows.append(row)
            s.add_all(rows)
            s.flush()
            return [entry_of(r) for r in rows]

    def get(self, entry_id: int) -> RosterEntry | None:
        """Gets one roster entry as saved now (None if it was removed)."""
        entry: RosterEntry | None = self._saved_value(CharacterRow, entry_of, entry_id)
        return entry

    def update(self, entry: RosterEntry) -> RosterEntry:
        """Saves an edited entry unless someone saved it since ``entry`` was loaded.

        A :class:`ConflictError` carries the saved version (``saved``) for the DM to compare.
        """
        try:
            with self._uow() as s:
                row = s.get(CharacterRow, entry.id)
                if row is None:
                    raise NotFoundError(f"{entry.name} is no longer in the roster.")
                if row.version != entry.version:
                    raise ConflictError(
                        f"{entry.name} was changed elsewhere since you opened it (your copy is "
                        f"version {entry.version}, the saved one {row.version}); nothing was "
                        "overwritten.",
                        entry_of(row),
                    )
                fill_character(row, entry)
                s.flush()
                return entry_of(row)
        except ConflictError as exc:
            raise self._with_saved(exc, CharacterRow, entry_of, entry.id) from None

    def remove(self, entry_id: int, version: int | None = None) -> None:
        """Removes a roster entry; with ``version``, only if nobody saved it since then."""
        self._remove_versioned(
            CharacterRow, entry_of, entry_id, version,
            f"Roster entry {entry_id} does not exist.",
            lambda row: f"{row.name} was changed elsewhere since you opened it; it was not "
            "removed.",
        )

    def restore(self, campaign_id: int, entry: RosterEntry) -> RosterEntry:
        """Puts a removed entry back with its old id and version (undoing a removal).

        Keeping id and version lets the undo history that names this entry go on working.
        """
        if entry.id is None:
            raise StoreError(f"{entry.name} was never saved, so it cannot be restored.")
        try:
            with self._uow() as s:
                values = character_values(entry)
                # Core insert: the ORM would restart the version counter at 1.
                s.execute(
                    insert(CHARACTERS_TABLE),
                    [
                        row_checks.stamped(CHARACTERS_TABLE, {
                            **values,
                            "id": entry.id,
                            "campaign_id": campaign_id,
                            "version": entry.version,
                            "updated_at": utc_now(),
                        })
                    ],
                )  # fmt: skip
                row = s.get(CharacterRow, entry.id)
                assert row is not None
                return entry_of(row)
        except IntegrityError:
            raise ConflictError(
                f"{entry.name} cannot be put back: its place was taken or the campaign is gone."
            ) from None

    def import_entries(
        self, campaign_id: int, entries: Sequence[RosterEntry], summary: str = ""
    ) -> int:
        """Adds many entries in one transaction (bulk insert) and logs it; returns the count."""
        now = utc_now()
        rows = [
            row_checks.stamped(CHARACTERS_TABLE, {
                **character_values(e), "campaign_id": campaign_id, "version": 1,
                "updated_at": now,
            })
            for e in entries
        ]  # fmt: skip
        with self._uow() as s:
            if s.get(CampaignRow, campaign_id) is None:
                raise NotFoundError(GONE_CAMPAIGN)
            if rows:
                s.execute(insert(CHARACTERS_TABLE), rows)
            s.add(
                SessionLogRow(
                    campaign_id=campaign_id,
                    created_at=now,
                    summary=summary or f"Imported {len(rows)} roster entries",
                    details=[e.name for e in entries[:200]],
                )
            )
        return len(rows)

    def apply_results(
        self, campaign_id: int, entries: Sequence[RosterEntry], summary: str, details: Sequence[str]
    ) -> list[RosterEntry]:
        """Saves entries changed by an encounter and logs what changed, in ONE transaction.

        Every entry is version-checked: if one was changed elsewhere, nothing is saved.
        """
        with self._uow() as s:
            saved = []
            for entry in entries:
                row = s.get(CharacterRow, entry.id)
                if row is None or row.campaign_id != campaign_id:
                    raise NotFoundError(f"{entry.name} is no longer in the roster.")
                if row.version != entry.version:
                    raise ConflictError(
                        f"{entry.name} was changed elsewhere since the results were prepared; "
                        "nothing was saved. Reload and apply the results again.",
                        entry_of(row),
                    )
                fill_character(row, entry)
                saved.append(row)
            s.add(
                SessionLogRow(
                    campaign_id=campaign_id,
                    created_at=utc_now(),
                    summary=summary,
                    details=list(details),
                )
            )
            s.flush()
            return [entry_of(r) for r in saved]

    @reads
    def session_log(self, campaign_id: int) -> list[SessionLogEntry]:
        """Gets a campaign's session log, newest first."""
        with self._uow() as s:
            rows = s.scalars(
                select(SessionLogRow)
                .where(SessionLogRow.campaign_id == campaign_id)
                .order_by(SessionLogRow.id.desc())
            ).all()
            return [
                SessionLogEntry(
                    r.id, r.campaign_id, r.created_at, r.summary, tuple(str(d) for d in r.details)
                )
                for r in rows
            ]
