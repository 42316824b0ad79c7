"""row checks: a CRC of every campaign record's values, so an unsealed file's damage is named

A nullable integer ``row_check`` on every table holding campaign content (campaigns, roster
entries, monster templates, encounters, their commands' events, the session log), filled here
for the rows already there. The columns each check covers are frozen below as they are at
0007: a later migration that adds a content column recomputes its table's checks itself.
Encounter leases and campaign members are not campaign content and get none.

On PostgreSQL a group given campaigns' columns one by one (``access setup``: name and the audit
columns) gets ``row_check`` too, since every write of a campaign now sets it.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23 14:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from core.store.row_checks import AS_JSON, AS_TIME, PLAIN, checksum

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_I, _J, _T = PLAIN, AS_JSON, AS_TIME
COVERED: dict[str, tuple[tuple[str, str], ...]] = {
    "campaigns": (("name", _I), ("created_at", _T)),
    "characters": (
        ("campaign_id", _I), ("kind", _I), ("name", _I), ("side", _I), ("status", _I),
        ("level", _I), ("char_class", _I), ("race", _I), ("hp", _I), ("max_hp", _I), ("ac", _I),
        ("str_score", _I), ("dex", _I), ("wis", _I), ("initiative_adj", _I),
        ("surprise_adj", _I), ("missile_adj", _I), ("reaction_adj", _I), ("movement", _I),
        ("morale", _I), ("attack_routines", _I), ("attacks", _I), ("weapons", _J),
        ("spells", _J), ("notes", _I), ("version", _I), ("updated_at", _T),
        ("class_levels", _I),
    ),
    "monster_templates": (
        ("campaign_id", _I), ("name", _I), ("hit_dice", _I), ("ac", _I), ("movement", _I),
        ("morale", _I), ("attacks", _I), ("surprises_on", _I), ("weapons", _J), ("notes", _I),
        ("version", _I),
    ),
    "encounters": (
        ("campaign_id", _I), ("name", _I), ("system", _I), ("options", _J), ("status", _I),
        ("created_at", _T),
    ),
    "encounter_events": (
        ("encounter_id", _I), ("command_seq", _I), ("event_index", _I), ("command_name", _I),
        ("kind", _I), ("payload", _J), ("created_at", _T), ("command_id", _I),
    ),
    "session_log": (("campaign_id", _I), ("created_at", _T), ("summary", _I), ("details", _J)),
}  # fmt: skip
"""Each checked table's columns at 0007, in encoding order, and how each is encoded."""
_BATCH = 2000


def upgrade() -> None:
    for table in COVERED:
        # A plain ADD COLUMN (SQLite has it): batch mode would reflect every table first, a
        # hundred-odd statements more for each upgrade to do and each crash test to kill.
        op.add_column(table, sa.Column("row_check", sa.Integer(), nullable=True))
    bind = op.get_bind()
    # SQLite: the raw driver hands back the stored form (JSON and times as text), which is what
    # opening verifies; a server hands back Python values, encoded as every writer does.
    stored = bind.dialect.name == "sqlite"
    for table, covered in COVERED.items():
        names = [name for name, _ in covered]
        kinds = [kind for _, kind in covered]
        rows = bind.exec_driver_sql(f"SELECT id, {', '.join(names)} FROM {table}").all()
        fill = sa.text(f"UPDATE {table} SET row_check = :check WHERE id = :id")
        for start in range(0, len(rows), _BATCH):
            bind.execute(
                fill,
                [{"id": row[0], "check": checksum(row[1:], kinds, stored)}
                 for row in rows[start : start + _BATCH]],
            )  # fmt: skip
    if bind.dialect.name == "postgresql":
        _grant_campaign_column()


def _grant_campaign_column() -> None:
    """Gives ``row_check`` to every role that may update a campaign's name column by column."""
    grantees = (
        op.get_bind()
        .exec_driver_sql(
            "SELECT DISTINCT grantee FROM information_schema.column_privileges "
            "WHERE table_schema = current_schema() AND table_name = 'campaigns' "
            "AND column_name = 'name' AND privilege_type = 'UPDATE' AND grantee <> current_user"
        )
        .scalars()
    )
    quote = op.get_bind().dialect.identifier_preparer.quote
    for grantee in grantees:
        op.execute(f"GRANT UPDATE (row_check) ON campaigns TO {quote(grantee)}")


def downgrade() -> None:
    for table in reversed(COVERED):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column("row_check")
