"""The campaigns in a database: listed by name, created empty or already holding a roster."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from core.roster.entries import Campaign, MonsterTemplate, RosterEntry
from core.store.errors import NameTakenError, StoreError
from core.store.mapping import fill_character, template_row
from core.store.schema import CampaignRow, CharacterRow
from core.store.unit_of_work import Repository, reads

GONE_CAMPAIGN = ("That campaign is no longer in the database (deleted from another Combat Desk?); "
                 "nothing was saved.")


class Campaigns(Repository):
    """Every campaign this role can see (``store.campaigns``)."""

    @reads
    def all(self) -> list[Campaign]:
        """Gets every campaign, by name."""
        with self._uow() as s:
            rows = s.scalars(select(CampaignRow).order_by(CampaignRow.name)).all()
            return [Campaign(r.id, r.name, r.created_at) for r in rows]

    def create(self, name: str) -> Campaign:
        """Creates an empty campaign; names are unique (ignoring surrounding spaces)."""
        name = name.strip()
        if not name:
            raise StoreError("A campaign needs a name.")
        try:
            with self._uow() as s:
                row = CampaignRow(name=name, created_at=datetime.now(UTC))
                s.add(row)
                s.flush()
                return Campaign(row.id, row.name, row.created_at)
        except IntegrityError:
            raise self._name_taken(name) from None

    def create_with(
        self, name: str, roster: Sequence[RosterEntry], templates: Sequence[MonsterTemplate]
    ) -> Campaign:
        """Creates a campaign already holding a roster and templates, all in one transaction."""
        try:
            with self._uow() as s:
                campaign = CampaignRow(name=name.strip(), created_at=datetime.now(UTC))
                s.add(campaign)
                s.flush()
                for entry in roster:
                    row = CharacterRow(campaign_id=campaign.id)
                    fill_character(row, entry)
                    s.add(row)
                s.add_all(template_row(campaign.id, t) for t in templates)
                return Campaign(campaign.id, campaign.name, campaign.created_at)
        except IntegrityError:
            raise self._name_taken(name.strip()) from None

    def _name_taken(self, name: str) -> NameTakenError:
        if self._uow.file is not None:
            return NameTakenError(f"A campaign named {name!r} already exists.")
        return NameTakenError(
            f"A campaign named {name!r} already exists on this database (perhaps one you cannot "
            "see: names are shared by everyone using it). Choose another name."
        )
