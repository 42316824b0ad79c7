"""popcorn Death saves: the lifetime count each roster entry has left

A nullable integer ``death_saves`` on ``characters``: NULL for every row saved before, read as
the full three ("PCs have 3 lifetime Death saves", popcorn-initiative-ose.md), so no value is
rewritten. The row checks of 0007 cover the new column, so every character's check is
recomputed here with this revision's frozen column list (and back with 0007's on downgrade).
On PostgreSQL the campaign group's table-wide rights and the row-level policies of 0004 cover
the new column as they are.

Revision ID: 0010
Revises: 0007 (the integrator rechains it after the revisions merged before it)
Create Date: 2026-11-27 12:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from core.store.row_checks import AS_JSON, AS_TIME, PLAIN, checksum

revision: str = "0010"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_I, _J, _T = PLAIN, AS_JSON, AS_TIME
BEFORE: tuple[tuple[str, str], ...] = (
    ("campaign_id", _I), ("kind", _I), ("name", _I), ("side", _I), ("status", _I),
    ("level", _I), ("char_class", _I), ("race", _I), ("hp", _I), ("max_hp", _I), ("ac", _I),
    ("str_score", _I), ("dex", _I), ("wis", _I), ("initiative_adj", _I),
    ("surprise_adj", _I), ("missile_adj", _I), ("reaction_adj", _I), ("movement", _I),
    ("morale", _I), ("attack_routines", _I), ("attacks", _I), ("weapons", _J),
    ("spells", _J), ("notes", _I), ("version", _I), ("updated_at", _T),
    ("class_levels", _I),
)  # fmt: skip
"""The characters' checked columns before this revision (as 0007 froze them)."""
AFTER = (*BEFORE, ("death_saves", _I))
"""The characters' checked columns at this revision, in encoding order."""
_BATCH = 2000


def _recheck(covered: Sequence[tuple[str, str]]) -> None:
    """Recomputes every character's row check over ``covered`` (SQLite's stored form)."""
    bind = op.get_bind()
    stored = bind.dialect.name == "sqlite"
    names = [name for name, _ in covered]
    kinds = [kind for _, kind in covered]
    rows = bind.exec_driver_sql(f"SELECT id, {', '.join(names)} FROM characters").all()
    fill = sa.text("UPDATE characters SET row_check = :check WHERE id = :id")
    for start in range(0, len(rows), _BATCH):
        batch = [{"id": row[0], "check": checksum(row[1:], kinds, stored)}
                 for row in rows[start : start + _BATCH]]  # fmt: skip
        if batch:
            bind.execute(fill, batch)


def upgrade() -> None:
    # A plain ADD COLUMN (SQLite has it): batch mode would rebuild the table.
    op.add_column("characters", sa.Column("death_saves", sa.Integer(), nullable=True))
    _recheck(AFTER)


def downgrade() -> None:
    with op.batch_alter_table("characters", schema=None) as batch_op:
        batch_op.drop_column("death_saves")
    _recheck(BEFORE)
    bind = op.get_bind()
    if bind.dialect.name == "sqlite" and sa.inspect(bind).has_table("row_tallies"):
        # Back to 0008 or later: its tallies sum each row's check, all of which just changed
        # (an upgrade's are recounted by Store._upgrade once every revision has run).
        from core.store import tallies

        tallies.recount(bind.exec_driver_sql)
