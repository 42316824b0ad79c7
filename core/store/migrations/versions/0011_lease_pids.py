"""Encounter leases record the holder's process id

A nullable integer ``pid`` on ``encounter_leases``: the process of the Combat Desk that holds
the lease. Restarted after a crash on the same computer by the same user, the app sees that
this process no longer runs and plays its fights on without Take Over, even when the crashed
app's lock file is gone (another Combat Desk quitting cleanly sweeps it). Rows written before
(and by older versions) have none: they are judged as before. Leases are not row-checked.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27 16:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A plain ADD COLUMN (SQLite has it): batch mode would rebuild the table.
    op.add_column("encounter_leases", sa.Column("pid", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("encounter_leases", schema=None) as batch_op:
        batch_op.drop_column("pid")
