"""encounter leases: one window plays an encounter, others watch it

A row per encounter being played: which Combat Desk (a random instance id, the computer's user
and host name) holds it, since when, and until when its last heartbeat keeps it (a crashed app
lets go by itself). On PostgreSQL the table is under the same row-level security as the
encounter's commands: readers of the campaign see who plays, its writers take and renew.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23 12:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The same tests as the encounter's commands (0004): readers of its campaign, its writers.
_ENCOUNTERS = "encounter_id IN (SELECT combatdesk_encounters(current_user, ARRAY[{}]))"
_READ = _ENCOUNTERS.format("'owner', 'co-dm', 'player'")
_WRITE = _ENCOUNTERS.format("'owner', 'co-dm'")


def upgrade() -> None:
    op.create_table(
        "encounter_leases",
        sa.Column("encounter_id", sa.Integer(), nullable=False),
        sa.Column("instance", sa.String(length=32), nullable=False),
        sa.Column("user_name", sa.String(length=200), nullable=False),
        sa.Column("host", sa.String(length=200), nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["encounter_id"], ["encounters.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("encounter_id"),
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE encounter_leases ENABLE ROW LEVEL SECURITY")
        op.execute(f"CREATE POLICY combatdesk_read ON encounter_leases FOR SELECT USING ({_READ})")
        op.execute(
            f"CREATE POLICY combatdesk_create ON encounter_leases FOR INSERT WITH CHECK ({_WRITE})"
        )
        op.execute(
            "CREATE POLICY combatdesk_change ON encounter_leases FOR UPDATE "
            f"USING ({_READ}) WITH CHECK ({_WRITE})"
        )
        op.execute(
            f"CREATE POLICY combatdesk_remove ON encounter_leases FOR DELETE USING ({_WRITE})"
        )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for policy in ("read", "create", "change", "remove"):
            op.execute(f"DROP POLICY IF EXISTS combatdesk_{policy} ON encounter_leases")
    op.drop_table("encounter_leases")
