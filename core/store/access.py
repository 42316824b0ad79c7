"""Who may use which campaign on a shared PostgreSQL database.

Schema 0004 puts the campaign tables under PostgreSQL's row-level security: a role sees the
campaigns it created (``campaigns.owner``) or was given (``campaign_members``), as an owner
(everything, and grants), a co-DM (reads and writes) or a player (reads only). A member may be
a group role: everyone in it gets the access. The server enforces this; :class:`Access`
(``store.access``) gives the owner a way to grant and revoke, the administrator a way to let a
group of DMs in (:meth:`Access.setup`), and every refusal in words. On SQLite the campaign
file is the unit of access: whoever may open the file may change everything in it (its file
permissions decide).

It also says who this store writes as and what its role may do in a campaign; every delete
asks :func:`require_writer` first.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select, text
from sqlalchemy.orm import Session

from core.roster.entries import Campaign
from core.store.campaigns import Campaigns
from core.store.errors import SHARED_CAMPAIGNS_DOC, AccessDeniedError, NotFoundError, StoreError
from core.store.schema import ACCESS_LEVELS, CampaignMemberRow, CampaignRow, os_user
from core.store.unit_of_work import Repository, UnitOfWork

WRITERS = ("owner", "co-dm")
"""Access levels that may change a campaign (a player only reads)."""
_ACCESS = text("SELECT combatdesk_access(:campaign, current_user)")
_BYPASSES_ACCESS = text(
    "SELECT r.rolsuper OR r.rolbypassrls OR pg_has_role(current_user, c.relowner, 'USAGE') "
    "FROM pg_roles r, pg_class c WHERE r.rolname = current_user "
    "AND c.oid = 'campaigns'::regclass"
)
"""Is the role exempt from row-level security (a superuser, or the owner of the tables)?"""
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
_SERVER_ROLE = text(
    "SELECT rolsuper OR rolbypassrls OR oid < 16384 FROM pg_catalog.pg_roles WHERE rolname = :role"
)
"""Is the role one of the server's own: a superuser, exempt from row-level security, or
predefined (pg_read_all_data…, whose ids sit below the first id of a role anyone made)?"""
MAX_ROLE_BYTES = 63
"""PostgreSQL cuts longer role names to their first 63 bytes (NAMEDATALEN - 1)."""
_RESERVED_ROLES = frozenset({"public", "none", "current_user", "current_role", "session_user"})
_SEQUENCE = text("SELECT pg_get_serial_sequence(:table, 'id')")
_WRITTEN_TABLES = ("campaign_members", "characters", "monster_templates", "encounters",
                   "encounter_events", "session_log", "encounter_leases")  # fmt: skip
_WITH_IDS = ("campaigns", "characters", "monster_templates", "encounters", "encounter_events",
             "session_log")  # fmt: skip


def check_role_name(role: str, what: str) -> None:
    """Refuses, in words, a name that cannot be the role meant: empty, a word the server
    reads as something else (PUBLIC is everyone), one of the server's own, or too long (the
    server would cut it and act on another name than the one shown)."""
    if not role.strip():
        raise StoreError(f"The {what} has no name; give the name of a database role. Nothing "
                         "was changed.")
    if role.lower() in _RESERVED_ROLES:
        raise StoreError(
            f"{role!r} is not a role's name to PostgreSQL but a word of its own (PUBLIC means "
            f"every role on the server); give the {what} a name of its own, such as "
            f"{DEFAULT_GROUP!r}. Nothing was changed."
        )
    if role.lower().startswith("pg_") or role == "postgres":
        raise StoreError(
            f"{role} is one of the database server's own roles, not a {what} of Combat Desk "
            "users. Nothing was changed."
        )
    size = len(role.encode("utf-8", "surrogatepass"))
    if size > MAX_ROLE_BYTES:
        raise StoreError(
            f"A role's name is at most {MAX_ROLE_BYTES} bytes on PostgreSQL, and this {what}'s "
            f"name has {size:,} (the server would cut it short and use another name); choose "
            "a shorter one. Nothing was changed."
        )


@dataclass(frozen=True, slots=True)
class Member:
    """A role's access to a campaign, and who gave it when (None for the campaign's creator)."""

    role: str
    access: str
    changed_by: str | None
    changed_at: datetime | None


def require_writer(uow: UnitOfWork, s: Session, campaign_ids: Iterable[int], verb: str) -> None:
    """Refuses a delete the role may not make, in words.

    Row-level security would skip such rows without a word (a DELETE has no WITH CHECK), and
    the app would report a conflict or success; inserts and updates raise on their own.
    """
    if uow.dialect == "sqlite" or s.execute(_BYPASSES_ACCESS).scalar():
        return
    for campaign in set(campaign_ids):
        if s.execute(_ACCESS, {"campaign": campaign}).scalar() not in WRITERS:
            raise AccessDeniedError(
                f"{uow.label}: your database role may read this campaign but not change "
                f"it (you are a player in it); nothing was {verb}. Its owner can make you "
                "a co-DM."
            )


class Access(Repository):
    """Roles and row-level security on a server; on SQLite the file is the unit of access."""

    def __init__(self, uow: UnitOfWork, campaigns: Campaigns) -> None:
        super().__init__(uow)
        self._campaigns = campaigns

    def who(self) -> str | None:
        """Gets who this store writes as: the login role on a server, the computer's user on
        SQLite (what the audit column ``changed_by`` records)."""
        if self._uow.file is not None or self._uow.dialect == "sqlite":
            return os_user()
        with self._uow() as s:
            return str(s.execute(text("SELECT session_user")).scalar())

    def level(self, campaign_id: int) -> str | None:
        """Gets what this store's role may do in a campaign: "owner", "co-dm" (write),
        "player" (read) or None (not at all). On SQLite whoever opens the file owns it all.

        A role that owns the tables or bypasses row-level security counts as an owner.
        """
        if self._uow.dialect == "sqlite":
            return "owner"
        with self._uow() as s:
            if s.execute(_BYPASSES_ACCESS).scalar():
                return "owner"
            found = s.execute(_ACCESS, {"campaign": campaign_id}).scalar()
            return None if found is None else str(found)

    # --- the owner's grants (docs/shared-campaigns.md) -------------------------------------------

    def _server_only(self) -> None:
        if self._uow.file is not None:
            raise StoreError(SQLITE_ACCESS)

    def campaign_named(self, name: str) -> Campaign:
        """Finds a campaign this role can see by its name (names are how people know them)."""
        for campaign in self._campaigns.all():
            if campaign.name == name.strip():
                return campaign
        raise NotFoundError(
            f"There is no campaign named {name!r} that your database role can see (it does not "
            "exist, or its owner has not given you access)."
        )

    def members(self, campaign: Campaign) -> list[Member]:
        """Gets who may use a campaign: its creator (always an owner) first, then its members."""
        self._server_only()
        with self._uow() as s:
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

    def _check_change(self, campaign: Campaign, role: str, granting: bool = False) -> None:
        """Refuses, in words, a change of access the server would refuse (or that cannot be)."""
        mine = self.level(campaign.id)
        if mine != "owner":
            being = f"a {mine}" if mine else "not a member"
            raise AccessDeniedError(
                f"Only an owner of {campaign.name} may change who uses it, and your database role "
                f"is {being} there; nothing was changed."
            )
        if granting:
            check_role_name(role, "member")
        with self._uow() as s:
            if s.execute(_ROLE_EXISTS, {"role": role}).first() is None:
                raise NotFoundError(
                    f"There is no database role named {role!r}; whoever runs the database creates "
                    f"it first ({SHARED_CAMPAIGNS_DOC}). Nothing was changed."
                )
            if granting and s.execute(_SERVER_ROLE, {"role": role}).scalar():
                raise AccessDeniedError(
                    f"{role} is one of the database server's own roles (a superuser, a role "
                    "that passes every access rule, or a predefined one) and cannot be a "
                    f"member of {campaign.name}: it would see more than the campaign. Nothing "
                    "was changed."
                )
            creator = s.scalar(select(CampaignRow.owner).where(CampaignRow.id == campaign.id))
        if creator == role:
            raise StoreError(
                f"{role} created {campaign.name} and always owns it; nothing was changed. (The "
                "database's administrator can hand a campaign to another role: "
                f"{SHARED_CAMPAIGNS_DOC}.)"
            )

    def grant(self, campaign: Campaign, role: str, access: str) -> None:
        """Gives a role (or group role) owner, co-dm or player access to a campaign (owners
        only)."""
        self._server_only()
        if access not in ACCESS_LEVELS:
            raise StoreError(f"Access is one of {', '.join(ACCESS_LEVELS)}, not {access!r}.")
        self._check_change(campaign, role, granting=True)
        # PostgreSQL's dialect only here: an SQLite campaign never loads it (start-up).
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        upsert = pg_insert(CampaignMemberRow).values(
            campaign_id=campaign.id, role_name=role, access=access
        )
        with self._uow() as s:
            s.execute(
                upsert.on_conflict_do_update(
                    index_elements=["campaign_id", "role_name"], set_={"access": access}
                )
            )

    def revoke(self, campaign: Campaign, role: str) -> None:
        """Takes a role's access to a campaign back (owners only)."""
        self._server_only()
        self._check_change(campaign, role)
        with self._uow() as s:
            gone = s.execute(
                delete(CampaignMemberRow).where(
                    CampaignMemberRow.campaign_id == campaign.id,
                    CampaignMemberRow.role_name == role,
                )
            )
            if not getattr(gone, "rowcount", 0):
                raise NotFoundError(
                    f"{role} had no access to {campaign.name}; nothing was changed.")

    def setup_statements(self, group: str) -> list[str]:
        """Gets the SQL that lets the members of ``group`` use Combat Desk's tables.

        Table rights only: which campaigns each member sees is row-level security's business. No
        member may change a campaign's ``owner`` (only its name), so a co-DM cannot take it over.
        """
        self._server_only()
        with self._uow() as s:
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

    def setup(self, group: str = DEFAULT_GROUP) -> list[str]:
        """Creates the group role if needed and grants it the tables; returns the SQL it ran.

        Run by the database's administrator (the role that owns the tables), after opening the
        store has created or upgraded them.
        """
        self._server_only()
        check_role_name(group, "group")
        ran: list[str] = []
        with self._uow() as s:
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
                with self._uow() as s:
                    s.execute(text(create))
            except AccessDeniedError:
                raise AccessDeniedError(
                    f"There is no role {group!r} and your role may not create one; ask a superuser "
                    f"to run: {create};"
                ) from None
            ran.append(create)
        statements = self.setup_statements(group)
        try:
            with self._uow() as s:
                for statement in statements:
                    s.execute(text(statement))
        except StoreError:
            raise AccessDeniedError(
                f"Your role may not grant {group!r} the tables: run this as the role that owns "
                f"them (the one that created the campaign database). Nothing was changed."
            ) from None
        return ran + statements
