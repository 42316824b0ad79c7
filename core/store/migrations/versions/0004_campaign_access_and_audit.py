"""campaign access (owner, members, PostgreSQL row-level security) and audit columns

Every written table gets ``changed_by`` and ``changed_at``. Campaigns get an ``owner`` role and
a ``campaign_members`` table (owner, co-dm, player). On PostgreSQL only: a trigger fills the
audit columns with the login role and the time, and row-level security lets a role see only the
campaigns it owns or is a member of (players read, co-DMs and owners write, owners grant).
SQLite files stay the unit of access: the store writes the computer's user name there.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23 12:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

AUDITED = ("campaigns", "characters", "monster_templates", "encounters", "encounter_events",
           "session_log")  # fmt: skip
BY_CAMPAIGN = ("characters", "monster_templates", "encounters", "session_log")
"""Tables whose rows belong to a campaign through their own campaign_id."""

READERS = ("owner", "co-dm", "player")
WRITERS = ("owner", "co-dm")
OWNERS = ("owner",)


def _among(column: str, levels: tuple[str, ...], of: str = "combatdesk_campaigns") -> str:
    """A policy test: is ``column`` one of the campaigns (encounters) the role has access to?

    An uncorrelated sub-select: the server works the set out once per statement and looks each
    row up in it, instead of asking a function for every row (7x slower on 5,000 rows).
    """
    wanted = ", ".join(f"'{level}'" for level in levels)
    return f"{column} IN (SELECT {of}(current_user, ARRAY[{wanted}]))"


def _audit_columns() -> list[sa.Column[object]]:
    return [
        sa.Column("changed_by", sa.String(length=200), nullable=True),
        sa.Column("changed_at", sa.DateTime(timezone=True), nullable=True),
    ]


def upgrade() -> None:
    for table in AUDITED:
        with op.batch_alter_table(table, schema=None) as batch_op:
            for column in _audit_columns():
                batch_op.add_column(column)
    with op.batch_alter_table("campaigns", schema=None) as batch_op:
        batch_op.add_column(sa.Column("owner", sa.String(length=63), nullable=True))
    op.create_table(
        "campaign_members",
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("role_name", sa.String(length=63), nullable=False),
        sa.Column("access", sa.String(length=10), nullable=False),
        *_audit_columns(),
        sa.CheckConstraint(
            "access IN ('owner', 'co-dm', 'player')", name="ck_campaign_members_access"
        ),
        sa.ForeignKeyConstraint(["campaign_id"], ["campaigns.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("campaign_id", "role_name"),
    )
    if op.get_bind().dialect.name == "postgresql":
        _postgresql_access()


def _postgresql_access() -> None:
    schema = op.get_bind().exec_driver_sql("SELECT current_schema()").scalar()
    # The catalogue first and pg_temp last: nobody's own objects (a temporary table named
    # campaigns, an operator in a schema they may write) can stand in for ours in a function
    # that runs with the tables' owner's rights.
    path = 'pg_catalog, "' + str(schema).replace('"', '""') + '", pg_temp'
    # Campaigns that existed before belong to whoever runs the upgrade (the administrator
    # hands them on: docs/shared-campaigns.md).
    op.execute("ALTER TABLE campaigns ALTER COLUMN owner SET DEFAULT current_user")
    op.execute("UPDATE campaigns SET owner = current_user WHERE owner IS NULL")
    op.execute(
        """
        CREATE FUNCTION combatdesk_audit() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            -- the login the server authenticated (SET ROLE cannot disguise it), and when
            NEW.changed_by := session_user;
            NEW.changed_at := now();
            RETURN NEW;
        END
        $$
        """
    )
    for table in (*AUDITED, "campaign_members"):
        op.execute(
            f"CREATE TRIGGER combatdesk_audit BEFORE INSERT OR UPDATE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION combatdesk_audit()"
        )
    # Is ``who`` the role named, or a member of it (a group role)? A dropped role is nobody.
    op.execute(
        """
        CREATE FUNCTION combatdesk_is(role_name text, who name) RETURNS boolean
        LANGUAGE sql STABLE AS $$
            SELECT role_name = who OR EXISTS (
                SELECT 1 FROM pg_catalog.pg_roles r
                WHERE r.rolname = role_name AND pg_catalog.pg_has_role(who, r.oid, 'MEMBER'))
        $$
        """
    )
    # SECURITY DEFINER: the policies below ask about campaigns and members, which are under
    # row-level security themselves; the function reads them as the schema's owner.
    op.execute(
        f"""
        CREATE FUNCTION combatdesk_access(campaign integer, who name) RETURNS text
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = {path} AS $$
            SELECT CASE
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
        CREATE FUNCTION combatdesk_campaigns(who name, levels text[]) RETURNS SETOF integer
        LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = {path} AS $$
        BEGIN
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
        CREATE FUNCTION combatdesk_encounters(who name, levels text[]) RETURNS SETOF integer
        LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = {path} AS $$
        BEGIN
            RETURN QUERY
                SELECT e.id FROM encounters e
                WHERE e.campaign_id IN (SELECT combatdesk_campaigns(who, levels));
        END
        $$
        """
    )
    for table in ("campaigns", "campaign_members", *BY_CAMPAIGN, "encounter_events"):
        op.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
    # A row updated must stay visible (USING) and be written by a writer (WITH CHECK): a
    # player's UPDATE or INSERT is refused with an error, not silently skipped.
    op.execute(
        f"CREATE POLICY combatdesk_read ON campaigns FOR SELECT USING "
        f"(combatdesk_is(owner, current_user) OR {_among('id', READERS)})"
    )
    op.execute(
        "CREATE POLICY combatdesk_create ON campaigns FOR INSERT WITH CHECK "
        "(combatdesk_is(owner, current_user))"
    )
    op.execute(
        f"CREATE POLICY combatdesk_change ON campaigns FOR UPDATE USING "
        f"({_among('id', READERS)}) WITH CHECK ({_among('id', WRITERS)})"
    )
    op.execute(
        f"CREATE POLICY combatdesk_remove ON campaigns FOR DELETE USING ({_among('id', OWNERS)})"
    )
    _policies("campaign_members", "campaign_id", writers=OWNERS)
    for table in BY_CAMPAIGN:
        _policies(table, "campaign_id", writers=WRITERS)
    _policies("encounter_events", "encounter_id", writers=WRITERS, of="combatdesk_encounters")


def _policies(
    table: str, column: str, writers: tuple[str, ...], of: str = "combatdesk_campaigns"
) -> None:
    read, write = _among(column, READERS, of), _among(column, writers, of)
    op.execute(f"CREATE POLICY combatdesk_read ON {table} FOR SELECT USING ({read})")
    op.execute(f"CREATE POLICY combatdesk_create ON {table} FOR INSERT WITH CHECK ({write})")
    op.execute(
        f"CREATE POLICY combatdesk_change ON {table} FOR UPDATE USING ({read}) WITH CHECK ({write})"
    )
    op.execute(f"CREATE POLICY combatdesk_remove ON {table} FOR DELETE USING ({write})")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for table in ("campaigns", "campaign_members", *BY_CAMPAIGN, "encounter_events"):
            for policy in ("read", "create", "change", "remove"):
                op.execute(f"DROP POLICY IF EXISTS combatdesk_{policy} ON {table}")
            op.execute(f"ALTER TABLE {table} DISABLE ROW LEVEL SECURITY")
        for table in AUDITED:
            op.execute(f"DROP TRIGGER IF EXISTS combatdesk_audit ON {table}")
        op.execute("DROP FUNCTION IF EXISTS combatdesk_encounters(name, text[])")
        op.execute("DROP FUNCTION IF EXISTS combatdesk_campaigns(name, text[])")
        op.execute("DROP FUNCTION IF EXISTS combatdesk_access(integer, name)")
        op.execute("DROP FUNCTION IF EXISTS combatdesk_is(text, name)")
    op.drop_table("campaign_members")
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS combatdesk_audit()")
    with op.batch_alter_table("campaigns", schema=None) as batch_op:
        batch_op.drop_column("owner")
    for table in reversed(AUDITED):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column("changed_at")
            batch_op.drop_column("changed_by")
