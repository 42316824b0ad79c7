"""roster adjustment overrides and the session log

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OVERRIDES = ("initiative_adj", "surprise_adj", "missile_adj", "reaction_adj")


def upgrade() -> None:
    with op.batch_alter_table("characters", schema=None) as batch_op:
        for name in OVERRIDES:
            batch_op.add_column(sa.Column(name, sa.Integer(), nullable=True))
    op.create_table(
        "session_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("summary", sa.String(length=500), nullable=False),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["campaign_id"], ["campaigns.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("session_log", schema=None) as batch_op:
        batch_op.create_index("ix_session_log_campaign", ["campaign_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("session_log", schema=None) as batch_op:
        batch_op.drop_index("ix_session_log_campaign")
    op.drop_table("session_log")
    with op.batch_alter_table("characters", schema=None) as batch_op:
        for name in reversed(OVERRIDES):
            batch_op.drop_column(name)
