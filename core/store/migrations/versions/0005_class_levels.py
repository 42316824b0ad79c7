"""one level a class for multi-classed characters ("2/2")

A nullable text column beside ``level``: NULL for a single class (every row saved before), so
nothing is rewritten and ``level`` keeps the highest level for anything that needs one number.
On PostgreSQL the campaign group's table-wide rights and the row-level policies of 0004 cover
the new column as they are.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23 13:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("characters", schema=None) as batch_op:
        batch_op.add_column(sa.Column("class_levels", sa.String(length=20), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("characters", schema=None) as batch_op:
        batch_op.drop_column("class_levels")
