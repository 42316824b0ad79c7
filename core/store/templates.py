"""A campaign's monster templates: the stat blocks the DM adds monsters to a fight from.

Each is checked as the editor checks it before it is saved, and version-checked like a roster
entry: saved over only if nobody saved it since, removed and put back with its id and version.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from core.roster.checks import check_template
from core.roster.entries import MonsterTemplate
from core.store import row_checks
from core.store.campaigns import GONE_CAMPAIGN
from core.store.errors import ConflictError, NotFoundError, StoreError
from core.store.mapping import TEMPLATES_TABLE, fill_template, template_of, template_row
from core.store.schema import CampaignRow, MonsterTemplateRow
from core.store.unit_of_work import reads
from core.store.versioned import VersionedRepository


def _refuse_bad_template(t: MonsterTemplate) -> None:
    """Refuses a template the editor would not save (the editor shows each reason itself)."""
    problems = check_template(t)
    if problems:
        reasons = " ".join(problems.values())
        raise StoreError(f"The {t.name or 'unnamed'} template was not saved: {reasons}")


class Templates(VersionedRepository):
    """Every campaign's monster templates (``store.templates``)."""

    @reads
    def all(self, campaign_id: int) -> list[MonsterTemplate]:
        """Gets a campaign's monster templates, by name."""
        with self._uow() as s:
            rows = s.scalars(
                select(MonsterTemplateRow)
                .where(MonsterTemplateRow.campaign_id == campaign_id)
                .order_by(MonsterTemplateRow.name)
            ).all()
            return [template_of(r) for r in rows]

    def add_all(
        self, campaign_id: int, templates: Sequence[MonsterTemplate]
    ) -> list[MonsterTemplate]:
        """Adds monster templates in one transaction."""
        with self._uow() as s:
            rows = [template_row(campaign_id, t) for t in templates]
            s.add_all(rows)
            s.flush()
            return [template_of(r) for r in rows]

    def add(self, campaign_id: int, template: MonsterTemplate) -> MonsterTemplate:
        """Adds one monster template the DM made (checked first) and returns it with its id."""
        _refuse_bad_template(template)
        with self._uow() as s:
            if s.get(CampaignRow, campaign_id) is None:
                raise NotFoundError(GONE_CAMPAIGN)
            row = template_row(campaign_id, template)
            s.add(row)
            s.flush()
            return template_of(row)

    @reads
    def get(self, template_id: int) -> MonsterTemplate | None:
        """Gets one monster template as saved now (None if it was deleted)."""
        template: MonsterTemplate | None = self._saved_value(
            MonsterTemplateRow, template_of, template_id)
        return template

    def update(self, template: MonsterTemplate) -> MonsterTemplate:
        """Saves an edited template unless someone saved it since ``template`` was loaded.

        A :class:`ConflictError` carries the saved version (``saved``) for the DM to compare;
        values the editor would refuse (bad hit dice …) are refused here too.
        """
        _refuse_bad_template(template)
        try:
            with self._uow() as s:
                row = s.get(MonsterTemplateRow, template.id)
                if row is None:
                    raise NotFoundError(f"The {template.name} template no longer exists.")
                if row.version != template.version:
                    raise ConflictError(
                        f"The {template.name} template was changed elsewhere since you opened it "
                        f"(your copy is version {template.version}, the saved one "
                        f"{row.version}); nothing was overwritten.",
                        template_of(row),
                    )
                fill_template(row, template)
                s.flush()
                return template_of(row)
        except ConflictError as exc:
            raise self._with_saved(exc, MonsterTemplateRow, template_of, template.id) from None

    def remove(self, template_id: int, version: int | None = None) -> None:
        """Deletes a monster template; with ``version``, only if nobody saved it since then."""
        self._remove_versioned(
            MonsterTemplateRow, template_of, template_id, version,
            f"Monster template {template_id} does not exist.",
            lambda row: f"The {row.name} template was changed elsewhere since you opened it; "
            "it was not deleted.",
        )

    def restore(self, campaign_id: int, template: MonsterTemplate) -> MonsterTemplate:
        """Puts a deleted template back with its old id and version (undoing a deletion)."""
        if template.id is None:
            raise StoreError(
                f"The {template.name} template was never saved, so it cannot be restored."
            )
        try:
            with self._uow() as s:
                row = template_row(campaign_id, template)
                values = {
                    c.key: getattr(row, c.key)
                    for c in TEMPLATES_TABLE.columns
                    if c.key not in ("id", "version")
                }
                # Core insert: the ORM would restart the version counter at 1.
                s.execute(
                    insert(TEMPLATES_TABLE),
                    [row_checks.stamped(TEMPLATES_TABLE, {
                        **values, "id": template.id, "version": template.version})],
                )  # fmt: skip
                restored = s.get(MonsterTemplateRow, template.id)
                assert restored is not None
                return template_of(restored)
        except IntegrityError:
            raise ConflictError(
                f"The {template.name} template cannot be put back: its place was taken or the "
                "campaign is gone."
            ) from None
