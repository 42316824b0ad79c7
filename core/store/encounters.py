"""A campaign's encounters: their headers (name, system, options, status), not their commands.

An encounter is created with its first commands in one transaction, listed for a menu, ended
(its commands stay, to be read and printed) and reopened. Its commands are the command log's
(:mod:`core.store.commands`); who plays it now is its lease's (:mod:`core.store.leases`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from core.fight.log import Command
from core.store.command_ids import check_command_id
from core.store.errors import EncounterEndedError, NotFoundError, StoreError
from core.store.leases import LEASE_OF, refuse_unless_holder
from core.store.schema import EncounterEventRow, EncounterRow
from core.store.unit_of_work import Repository, reads

ENDED = "ended"
BASELINE_KEY = "results_baseline"
"""The encounter row's options key holding what a reopened encounter's results start from."""
GONE_ENCOUNTER = ("That encounter is no longer in the campaign (deleted from another Combat "
                  "Desk?); nothing was saved.")


@dataclass(frozen=True, slots=True)
class EncounterInfo:
    """An encounter's header (its commands come from ``store.commands.load``)."""

    id: int
    campaign_id: int
    name: str
    system: str
    options: Mapping[str, Any]
    status: str

    @property
    def ended(self) -> bool:
        """Tells whether the encounter has ended (it can be read, not played on)."""
        return self.status == ENDED

    @property
    def results_baseline(self) -> Mapping[str, Any]:
        """Gets what a reopening recorded as already applied, by combatant id (empty if none)."""
        baseline = self.options.get(BASELINE_KEY)
        return baseline if isinstance(baseline, Mapping) else {}


def _info(row: EncounterRow) -> EncounterInfo:
    return EncounterInfo(
        row.id, row.campaign_id, row.name, row.system, dict(row.options), row.status
    )


class Encounters(Repository):
    """A campaign's encounters (``store.encounters``)."""

    def create(
        self, campaign_id: int, name: str, system: str, options: Mapping[str, Any] | None = None,
        commands: Sequence[Command] = (),
    ) -> EncounterInfo:
        """Starts a new encounter record, with ``commands`` as its first commands (numbered
        1, 2, …) in the same transaction: the encounter is stored whole, or not at all."""
        for command in commands:
            check_command_id(command.id)
        with self._uow() as s:
            row = EncounterRow(
                campaign_id=campaign_id,
                name=name,
                system=system,
                options=dict(options or {}),
                status="active",
            )
            s.add(row)
            s.flush()
            s.add_all(
                EncounterEventRow(encounter_id=row.id, command_seq=seq, event_index=i,
                                  command_name=command.name, kind=str(event.kind),
                                  payload=event.to_json()["data"], command_id=command.id)
                for seq, command in enumerate(commands, start=1)
                for i, event in enumerate(command.events)
            )
            return EncounterInfo(row.id, campaign_id, name, system, dict(row.options), row.status)

    @reads
    def all(self, campaign_id: int, with_options: bool = True,
            status: str | None = None) -> list[EncounterInfo]:
        """Lists a campaign's encounters, oldest first (``status`` active or ended).

        ``with_options=False`` leaves each one's options out (empty): a list for a menu;
        :meth:`get` reads one whole. ``status`` lists only those in it ("active" at start-up,
        so a campaign of thousands of ended fights starts as fast as an empty one).
        """
        table = EncounterRow.__table__  # plain rows: ORM objects cost more than the read
        columns = [table.c.id, table.c.campaign_id, table.c.name, table.c.system,
                   table.c.status, *([table.c.options] if with_options else [])]
        query = (select(*columns).where(table.c.campaign_id == campaign_id)
                 .order_by(table.c.id))
        if status is not None:
            query = query.where(table.c.status == status)
        with self._uow() as s:
            return [EncounterInfo(r.id, r.campaign_id, r.name, r.system,
                                  dict(r.options or {}) if with_options else {}, r.status)
                    for r in s.execute(query)]

    @reads
    def count(self, campaign_id: int) -> int:
        """Counts a campaign's encounters, active and ended (numbers a new one's name)."""
        table = EncounterRow.__table__
        with self._uow() as s:
            query = select(func.count()).where(table.c.campaign_id == campaign_id)
            return int(s.execute(query).scalar_one())

    @reads
    def get(self, encounter_id: int) -> EncounterInfo:
        """Gets one encounter's header as saved now."""
        with self._uow() as s:
            row = s.get(EncounterRow, encounter_id)
            if row is None:
                raise NotFoundError(GONE_ENCOUNTER)
            return _info(row)

    def end(self, encounter_id: int, holder: str | None = None) -> EncounterInfo:
        """Marks an encounter ended (its commands stay, so it can still be read and printed).

        An encounter already ended is refused: it cannot be ended (and its results offered)
        twice; so is one another Combat Desk has taken over from ``holder`` (its lease).
        """
        with self._uow() as s:
            row = s.get(EncounterRow, encounter_id, with_for_update=True)
            if row is None:
                raise NotFoundError(GONE_ENCOUNTER)
            _refuse_unless_holding(s, encounter_id, holder)
            if row.status == ENDED:
                raise EncounterEndedError(f"{row.name} has already ended.")
            row.status = ENDED
            s.flush()
            return _info(row)

    def reopen(self, encounter_id: int, baseline: Mapping[str, Any] | None) -> EncounterInfo:
        """Makes an ended encounter playable again, in one transaction.

        ``baseline`` (by combatant id) is what its results were when it ended: ending it again
        proposes only what changed after it. None removes a recorded baseline (undoing the
        first reopening).
        """
        with self._uow() as s:
            # Locked: two Combat Desks reopening it at once on a server, the second is refused.
            row = s.get(EncounterRow, encounter_id, with_for_update=True)
            if row is None:
                raise NotFoundError(GONE_ENCOUNTER)
            if row.status != ENDED:
                raise StoreError(f"{row.name} is already open again (reopened in another "
                                 "Combat Desk?); only an ended encounter is reopened.")
            options = {k: v for k, v in row.options.items() if k != BASELINE_KEY}
            if baseline is not None:
                options[BASELINE_KEY] = dict(baseline)
            row.options = options
            row.status = "active"
            s.flush()
            return _info(row)


def _refuse_unless_holding(s: Session, encounter_id: int, holder: str | None) -> None:
    if holder is not None:
        lease = s.execute(LEASE_OF, {"encounter_id": encounter_id}).first()
        refuse_unless_holder(lease, holder)
