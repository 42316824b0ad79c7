"""client-made command ids: a command is stored once per id

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23 06:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("encounter_events", schema=None) as batch_op:
        batch_op.add_column(sa.Column("command_id", sa.String(length=32), nullable=True))
        batch_op.create_unique_constraint(
            "uq_encounter_events_command_id", ["encounter_id", "command_id", "event_index"]
        )


def downgrade() -> None:
    with op.batch_alter_table("encounter_events", schema=None) as batch_op:
        batch_op.drop_constraint("uq_encounter_events_command_id", type_="unique")
        batch_op.drop_column("command_id")
