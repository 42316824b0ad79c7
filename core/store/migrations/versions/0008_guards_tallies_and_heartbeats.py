"""guards, tallies and heartbeats: no record changes campaign, a deleted one is named, leases
are timed by their observer

- ``row_tallies`` (both backends; kept on SQLite only): each checked table's count of rows and a
  sum mixing ids and row checks, kept by Combat Desk's own connections (temporary triggers,
  :mod:`core.store.tallies`), so that a record removed, added or renumbered by another program
  is named when an unsealed file opens. Filled here from the rows as they are.
- ``damage_notes``: damage found when the file opened, kept until the DM acknowledges it, so
  that it is named at every start, sealed or not.
- ``encounter_leases.beat`` and ``.seconds``: a heartbeat counter and the lease's length, so
  that another computer times a stopped heartbeat on its own clock, never comparing two
  machines' clocks (an SQLite file shared between computers).
- PostgreSQL only: triggers refuse an UPDATE that moves a record to another campaign (or a
  command, a lease to another encounter), from any role; a member row must name a role that
  exists and is neither a superuser, a role exempt from row-level security nor one of the
  server's predefined ``pg_*`` roles; the listing functions (``combatdesk_campaigns``,
  ``combatdesk_encounters``, ``combatdesk_access``) answer only about the caller (the login
  role, or a role it is a member of) and give nothing about anyone else.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27 12:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TALLIED = ("campaigns", "characters", "monster_templates", "encounters", "encounter_events",
           "session_log")  # fmt: skip
"""Frozen here as at 0008 (``core.store.tallies.TALLIED``)."""
_SPREAD = "((id * 2654435761) % 4294967296)"
_CHECK = "(coalesce(row_check, 0) & 4294967295)"
_MIX = f"(({_SPREAD} | {_CHECK}) - ({_SPREAD} & {_CHECK}))"
"""One row's share of the sum, frozen as at 0008 (``core.store.tallies.mix``)."""
MOVABLE_BY = {
    "characters": "campaign_id", "monster_templates": "campaign_id", "encounters": "campaign_id",
    "session_log": "campaign_id", "campaign_members": "campaign_id",
    "encounter_events": "encounter_id", "encounter_leases": "encounter_id",
}  # fmt: skip
"""Each PostgreSQL table whose rows belong to a campaign (an encounter) by this column."""


def upgrade() -> None:
    op.create_table(
        "row_tallies",
        sa.Column("table_name", sa.String(length=40), nullable=False),
        sa.Column("row_count", sa.Integer(), nullable=False),
        sa.Column("mixed_sum", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("table_name"),
    )
    op.create_table(
        "damage_notes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("found_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("words", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.add_column("encounter_leases", sa.Column("beat", sa.Integer(), nullable=False,
                                                server_default="0"))
    op.add_column("encounter_leases", sa.Column("seconds", sa.Float(), nullable=True))
    if op.get_bind().dialect.name == "sqlite":
        for table in TALLIED:
            op.execute(
                "INSERT INTO row_tallies (table_name, row_count, mixed_sum) "
                f"SELECT '{table}', count(*), coalesce(sum({_MIX}), 0) FROM {table}"
            )
    else:
        _postgresql_guards()


def _postgresql_guards() -> None:
    schema = op.get_bind().exec_driver_sql("SELECT current_schema()").scalar()
    path = 'pg_catalog, "' + str(schema).replace('"', '""') + '", pg_temp'
    # A record stays where it was made: row-level security checks the new row only, so a
    # player of one campaign who writes another could move its rows into their own.
    op.execute(
        """
        CREATE FUNCTION combatdesk_refuse_move() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'combatdesk: a record stays in the campaign it belongs to; nothing '
                'was moved to another campaign or encounter.'
                USING ERRCODE = 'insufficient_privilege';
        END
        $$
        """
    )
    for table, column in MOVABLE_BY.items():
        op.execute(
            f"CREATE TRIGGER combatdesk_stay BEFORE UPDATE OF {column} ON {table} FOR EACH ROW "
            f"WHEN (NEW.{column} IS DISTINCT FROM OLD.{column}) "
            "EXECUTE FUNCTION combatdesk_refuse_move()"
        )
    # Members are database roles a campaign's owner lets in; a role that sees every row anyway
    # or is the server's own (pg_read_all_data, postgres) is no member.
    op.execute(
        f"""
        CREATE FUNCTION combatdesk_check_member() RETURNS trigger LANGUAGE plpgsql
        SET search_path = {path} AS $$
        DECLARE member pg_catalog.pg_roles%ROWTYPE;
        BEGIN
            SELECT * INTO member FROM pg_catalog.pg_roles WHERE rolname = NEW.role_name;
            IF NOT FOUND THEN
                RAISE EXCEPTION 'combatdesk: there is no database role named %; nothing was '
                    'changed.', NEW.role_name USING ERRCODE = 'insufficient_privilege';
            END IF;
            IF member.rolsuper OR member.rolbypassrls OR member.oid < 16384
                    OR member.rolname LIKE 'pg\\_%' THEN
                RAISE EXCEPTION 'combatdesk: % is one of the database server''s own roles '
                    '(a superuser, a role that passes every access rule, or a predefined one); '
                    'it cannot be a member of a campaign. Nothing was changed.', NEW.role_name
                    USING ERRCODE = 'insufficient_privilege';
            END IF;
            RETURN NEW;
        END
        $$
        """
    )
    op.execute(
        "CREATE TRIGGER combatdesk_member BEFORE INSERT OR UPDATE ON campaign_members "
        "FOR EACH ROW EXECUTE FUNCTION combatdesk_check_member()"
    )
    # The listing functions run with the tables' owner's rights (the policies need them): they
    # answer about the caller only. session_user is the login the server authenticated; a
    # role it is a member of may be asked about too (it could SET ROLE to it anyway).
    op.execute(
        """
        CREATE OR REPLACE FUNCTION combatdesk_may_ask(who name) RETURNS boolean
        LANGUAGE sql STABLE AS $$
            SELECT who = session_user OR EXISTS (
                SELECT 1 FROM pg_catalog.pg_roles r
                WHERE r.rolname = who AND pg_catalog.pg_has_role(session_user, r.oid, 'MEMBER'))
        $$
        """
    )
    op.execute(
        f"""
        CREATE OR REPLACE FUNCTION combatdesk_access(campaign integer, who name) RETURNS text
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = {path} AS $$
            SELECT CASE
                WHEN NOT combatdesk_may_ask(who) THEN NULL
                WHEN EXISTS (SELECT 1 FROM campaigns c
                             WHERE c.id = campaign AND combatdesk_is(c.owner, who))
                    THEN 'owner'
                ELSE (SELECT m.access FROM campaign_members m
                      WHERE m.campaign_id = campaign AND combatdesk_is(m.role_name, who)
                      ORDER BY CASE m.access WHEN 'owner' THEN 0 WHEN 'co-dm' THEN 1 ELSE 2 END
                      LIMIT 1)
            END
        $$
        """
    )
    op.execute(
        f"""
        CREATE OR REPLACE FUNCTION combatdesk_campaigns(who name, levels text[])
        RETURNS SETOF integer
        LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = {path} AS $$
        BEGIN
            IF NOT combatdesk_may_ask(who) THEN
                RETURN;
            END IF;
            RETURN QUERY
                SELECT c.id FROM campaigns c WHERE combatdesk_is(c.owner, who)
                UNION
                SELECT m.campaign_id FROM campaign_members m
                WHERE m.access = ANY (levels) AND combatdesk_is(m.role_name, who);
        END
        $$
        """
    )
    op.execute(
        f"""
        CREATE OR REPLACE FUNCTION combatdesk_encounters(who name, levels text[])
        RETURNS SETOF integer
        LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = {path} AS $$
        BEGIN
            IF NOT combatdesk_may_ask(who) THEN
                RETURN;
            END IF;
            RETURN QUERY
                SELECT e.id FROM encounters e
                WHERE e.campaign_id IN (SELECT combatdesk_campaigns(who, levels));
        END
        $$
        """
    )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for table in MOVABLE_BY:
            op.execute(f"DROP TRIGGER IF EXISTS combatdesk_stay ON {table}")
        op.execute("DROP TRIGGER IF EXISTS combatdesk_member ON campaign_members")
        op.execute("DROP FUNCTION IF EXISTS combatdesk_refuse_move()")
        op.execute("DROP FUNCTION IF EXISTS combatdesk_check_member()")
        # The listing functions stay as they are: 0004's would answer about anyone again.
    with op.batch_alter_table("encounter_leases", schema=None) as batch_op:
        batch_op.drop_column("seconds")
        batch_op.drop_column("beat")
    op.drop_table("damage_notes")
    op.drop_table("row_tallies")
