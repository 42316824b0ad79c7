"""Who may use which campaign on a shared PostgreSQL database.

Schema 0004 puts the campaign tables under PostgreSQL's row-level security: a role sees the
campaigns it created (``campaigns.owner``) or was given (``campaign_members``), as an owner
(everything, and grants), a co-DM (reads and writes) or a player (reads only). A member may be
a group role: everyone in it gets the access. The server enforces this; the functions here
give the owner a way to grant and revoke, the administrator a way to let a group of DMs in
(:func:`setup`), and every refusal in words. On SQLite the campaign file is the unit of access:
whoever may open the file may change everything in it (its file permissions decide).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select, text
from sqlalchemy.dialects.postgresql import insert as pg_insert

from core.roster.entries import Campaign
from core.store.errors import SHARED_CAMPAIGNS_DOC, AccessDeniedError, NotFoundError, StoreError
from core.store.schema import ACCESS_LEVELS, CampaignMemberRow, CampaignRow
from core.store.store import Store

DEFAULT_GROUP = "combatdesk"
"""The group role whose members may use Combat Desk's tables (``access setup --group``)."""
SQLITE_ACCESS = (
    "This campaign is an SQLite file: whoever may open the file may change every campaign in "
    "it, so share it (or not) with the file's permissions. Roles, owners and players are for "
    f"campaigns on a PostgreSQL server ({SHARED_CAMPAIGNS_DOC})."
)
_ROLE_EXISTS = text("SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = :role")
_OWNS_TABLES = text(
    "SELECT pg_has_role(current_user, relowner, 'USAGE') FROM pg_class "
    "WHERE oid = 'campaigns'::regclass"
)
_SEQUENCE = text("SELECT pg_get_serial_sequence(:table, 'id')")
_WRITTEN_TABLES = ("campaign_members", "characters", "monster_templates", "encounters",
                   "encounter_events", "session_log", "encounter_leases")  # fmt: skip
_WITH_IDS = ("campaigns", "characters", "monster_templates", "encounters", "encounter_events",
             "session_log")  # fmt: skip


@dataclass(frozen=True, slots=True)
class Member:
    """A role's access to a campaign, and who gave it when (None for the campaign's creator)."""

    role: str
    access: str
    changed_by: str | None
    changed_at: datetime | None


def _server_only(store: Store) -> None:
    if store.file is not None:
        raise StoreError(SQLITE_ACCESS)


def campaign_named(store: Store, name: str) -> Campaign:
    """Finds a campaign this role can see by its name (names are how people know them)."""
    for campaign in store.campaigns():
        if campaign.name == name.strip():
            return campaign
    raise NotFoundError(
        f"There is no campaign named {name!r} that your database role can see (it does not "
        "exist, or its owner has not given you access)."
    )


def members(store: Store, campaign: Campaign) -> list[Member]:
    """Gets who may use a campaign: its creator (always an owner) first, then its members."""
    _server_only(store)
    with store.unit_of_work() as s:
        owner = s.scalar(select(CampaignRow.owner).where(CampaignRow.id == campaign.id))
        rows = s.scalars(
            select(CampaignMemberRow).where(CampaignMemberRow.campaign_id == campaign.id)
        ).all()
        found = [Member(owner, "owner", None, None)] if owner else []
        order = {level: i for i, level in enumerate(ACCESS_LEVELS)}
        return found + sorted(
            (Member(r.role_name, r.access, r.changed_by, r.changed_at) for r in rows),
            key=lambda m: (order.get(m.access, 9), m.role),
        )


def _check_change(store: Store, campaign: Campaign, role: str) -> None:
    """Refuses, in words, a change of access the server would refuse (or that cannot be)."""
    mine = store.access(campaign.id)
    if mine != "owner":
        being = f"a {mine}" if mine else "not a member"
        raise AccessDeniedError(
            f"Only an owner of {campaign.name} may change who uses it, and your database role "
            f"is {being} there; nothing was changed."
        )
    with store.unit_of_work() as s:
        if s.execute(_ROLE_EXISTS, {"role": role}).first() is None:
            raise NotFoundError(
                f"There is no database role named {role!r}; whoever runs the database creates "
                f"it first ({SHARED_CAMPAIGNS_DOC}). Nothing was changed."
            )
        creator = s.scalar(select(CampaignRow.owner).where(CampaignRow.id == campaign.id))
    if creator == role:
        raise StoreError(
            f"{role} created {campaign.name} and always owns it; nothing was changed. (The "
            "database's administrator can hand a campaign to another role: "
            f"{SHARED_CAMPAIGNS_DOC}.)"
        )


def grant(store: Store, campaign: Campaign, role: str, access: str) -> None:
    """Gives a role (or group role) owner, co-dm or player access to a campaign (owners only)."""
    _server_only(store)
    if access not in ACCESS_LEVELS:
        raise StoreError(f"Access is one of {', '.join(ACCESS_LEVELS)}, not {access!r}.")
    _check_change(store, campaign, role)
    upsert = pg_insert(CampaignMemberRow).values(
        campaign_id=campaign.id, role_name=role, access=access
    )
    with store.unit_of_work() as s:
        s.execute(
            upsert.on_conflict_do_update(
                index_elements=["campaign_id", "role_name"], set_={"access": access}
            )
        )


def revoke(store: Store, campaign: Campaign, role: str) -> None:
    """Takes a role's access to a campaign back (owners only)."""
    _server_only(store)
    _check_change(store, campaign, role)
    with store.unit_of_work() as s:
        gone = s.execute(
            delete(CampaignMemberRow).where(
                CampaignMemberRow.campaign_id == campaign.id, CampaignMemberRow.role_name == role
            )
        )
        if not getattr(gone, "rowcount", 0):
            raise NotFoundError(f"{role} had no access to {campaign.name}; nothing was changed.")


def setup_statements(store: Store, group: str) -> list[str]:
    """Gets the SQL that lets the members of ``group`` use Combat Desk's tables.

    Table rights only: which campaigns each member sees is row-level security's business. No
    member may change a campaign's ``owner`` (only its name), so a co-DM cannot take it over.
    """
    _server_only(store)
    with store.unit_of_work() as s:
        quote = s.get_bind().dialect.identifier_preparer.quote
        schema = str(s.execute(text("SELECT current_schema()")).scalar())
        sequences = [str(s.execute(_SEQUENCE, {"table": t}).scalar()) for t in _WITH_IDS]
    to = quote(group)
    return [
        f"GRANT USAGE ON SCHEMA {quote(schema)} TO {to}",
        f"GRANT SELECT ON alembic_version TO {to}",
        f"GRANT SELECT, INSERT, DELETE ON campaigns TO {to}",
        f"GRANT UPDATE (name, changed_by, changed_at, row_check) ON campaigns TO {to}",
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON {', '.join(_WRITTEN_TABLES)} TO {to}",
        f"GRANT USAGE, SELECT ON SEQUENCE {', '.join(sequences)} TO {to}",
    ]


def setup(store: Store, group: str = DEFAULT_GROUP) -> list[str]:
    """Creates the group role if needed and grants it the tables; returns the SQL it ran.

    Run by the database's administrator (the role that owns the tables), after opening the
    store has created or upgraded them.
    """
    _server_only(store)
    ran: list[str] = []
    with store.unit_of_work() as s:
        # A GRANT by a role without the right only warns ("no privileges were granted").
        if not s.execute(_OWNS_TABLES).scalar():
            raise AccessDeniedError(
                f"Your role may not grant {group!r} the tables: run this as the role that owns "
                "them (the one that created the campaign database). Nothing was changed."
            )
        missing = s.execute(_ROLE_EXISTS, {"role": group}).first() is None
        quote = s.get_bind().dialect.identifier_preparer.quote
    if missing:
        create = f"CREATE ROLE {quote(group)} NOLOGIN"
        try:
            with store.unit_of_work() as s:
                s.execute(text(create))
        except AccessDeniedError:
            raise AccessDeniedError(
                f"There is no role {group!r} and your role may not create one; ask a superuser "
                f"to run: {create};"
            ) from None
        ran.append(create)
    statements = setup_statements(store, group)
    try:
        with store.unit_of_work() as s:
            for statement in statements:
                s.execute(text(statement))
    except StoreError:
        raise AccessDeniedError(
            f"Your role may not grant {group!r} the tables: run this as the role that owns "
            f"them (the one that created the campaign database). Nothing was changed."
        ) from None
    return ran + statements
