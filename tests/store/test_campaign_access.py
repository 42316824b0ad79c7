"""Campaign access: PostgreSQL roles under row-level security, and audit columns on every write.

The PostgreSQL tests log in as real roles (alice, bob, carol, each with a per-test suffix: roles
belong to the whole server) on the throwaway test server, which trusts local logins. The
administrator (the server's superuser) creates the tables and runs ``access setup``; alice and
bob are DMs with campaigns of their own; carol becomes a co-DM. On SQLite the campaign file is
the unit of access and nothing else changes, but every row still says who wrote it and when.
"""

from __future__ import annotations

import io
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import create_engine, text

from core.cli.commands import main
from core.fight.log import Command, Event, EventKind
from core.roster.entries import MonsterTemplate, RosterEntry
from core.store import AccessDeniedError, NotFoundError, Store, StoreError
from core.store.schema import os_user
from tests.store import pg_server

HIT = Command("Orc 1 hits Brannoc", (Event(EventKind.HP_CHANGED, {"id": "orc-1", "delta": -3}),))
AUDITED = ("campaigns", "characters", "monster_templates", "encounters", "encounter_events",
           "session_log")  # fmt: skip


def _libpq(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


@dataclass
class Group:
    """A shared database set up by its administrator, with three DM roles in its group."""

    admin: str
    roles: dict[str, str]
    """alice/bob/carol → the real role name."""
    group: str

    def url(self, who: str) -> str:
        return self.admin.replace("postgres@", f"{self.roles.get(who, who)}@", 1)

    def open(self, who: str) -> Store:
        return Store.open(self.url(who))


def _superuser(sql: str) -> None:
    srv = pg_server.server()
    assert srv.url is not None
    with psycopg.connect(_libpq(srv.url), autocommit=True) as conn:
        conn.execute(sql)


@pytest.fixture
def group() -> Iterator[Group]:
    srv = pg_server.server()
    if srv.url is None:
        pytest.skip(f"PostgreSQL: {srv.why}")
    tag = uuid.uuid4().hex[:6]
    roles = {name: f"{name}_{tag}" for name in ("alice", "bob", "carol", "dave")}
    team = f"dms_{tag}"
    admin = pg_server.new_database()
    store = Store.open(admin)
    ran = store.access.setup(team)
    store.close()
    assert ran[0] == f"CREATE ROLE {team} NOLOGIN"
    for who in ("alice", "bob", "carol"):
        _superuser(f"CREATE ROLE {roles[who]} LOGIN IN ROLE {team}")
    _superuser(f"CREATE ROLE {roles['dave']} LOGIN")  # never let in by the administrator
    try:
        yield Group(admin, roles, team)
    finally:
        pg_server.drop_database(admin)
        for role in (*roles.values(), team):
            _superuser(f"DROP ROLE IF EXISTS {role}")


def _audit(url: str, table: str) -> list[tuple[str | None, datetime | None]]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(text(f"SELECT changed_by, changed_at FROM {table} ORDER BY 1"))
            # SQLite hands the time back as the text SQLAlchemy stored (UTC, no zone).
            return [
                (by, datetime.fromisoformat(at).replace(tzinfo=UTC) if isinstance(at, str) else at)
                for by, at in rows
            ]
    finally:
        engine.dispose()


def test_a_player_cannot_read_another_dms_private_campaign(group: Group) -> None:
    alice, bob = group.open("alice"), group.open("bob")
    secret = alice.campaigns.create("Alice's Greyhawk")
    villain = alice.roster.add(secret.id, RosterEntry(name="Secret villain: the Reeve"))
    fight = alice.encounters.create(secret.id, "Moathouse", "side-d6")
    alice.commands.append(fight.id, HIT)
    alice.roster.import_entries(secret.id, [], "an earlier session")
    mine = bob.campaigns.create("Bob's Blackmoor")

    assert [c.name for c in bob.campaigns.all()] == ["Bob's Blackmoor"]
    assert bob.roster.entries(secret.id) == [] and bob.roster.session_log(secret.id) == []
    assert bob.encounters.all(secret.id) == [] and bob.commands.load(fight.id) == []
    assert bob.access.level(secret.id) is None and bob.access.level(mine.id) == "owner"
    # Writing to it blind is refused too, and nothing changes.
    with pytest.raises(NotFoundError):
        bob.roster.update(replace(villain, name="Nobody"))
    with pytest.raises(NotFoundError):
        bob.roster.remove(villain.id or 0)
    with pytest.raises(NotFoundError):  # to bob, there is no such campaign
        bob.roster.add(secret.id, RosterEntry(name="Spy"))
    with pytest.raises(AccessDeniedError, match="not one of yours; nothing was saved"):
        bob.encounters.create(secret.id, "Ambush", "side-d6")
    with pytest.raises(StoreError):
        bob.commands.append(fight.id, HIT)
    assert [e.name for e in alice.roster.entries(secret.id)] == ["Secret villain: the Reeve"]
    assert len(alice.commands.load(fight.id)) == 1
    # Even plain SQL as bob sees none of it: the server filters, not the app.
    with psycopg.connect(_libpq(group.url("bob"))) as conn:
        assert conn.execute("SELECT count(*) FROM characters").fetchone() == (0,)
        assert conn.execute("SELECT name FROM campaigns").fetchall() == [("Bob's Blackmoor",)]
    alice.close()
    bob.close()


def test_a_player_reads_but_cannot_write_and_a_co_dm_writes(group: Group) -> None:
    alice, bob, carol = group.open("alice"), group.open("bob"), group.open("carol")
    greyhawk = alice.campaigns.create("Greyhawk")
    brannoc = alice.roster.add(greyhawk.id, RosterEntry(name="Brannoc", hp=24))
    fight = alice.encounters.create(greyhawk.id, "Moathouse", "side-d6")
    alice.access.grant(greyhawk, group.roles["bob"], "player")
    alice.access.grant(greyhawk, group.roles["carol"], "co-dm")

    assert bob.access.level(greyhawk.id) == "player" and carol.access.level(greyhawk.id) == "co-dm"
    assert [e.name for e in bob.roster.entries(greyhawk.id)] == ["Brannoc"]
    denied = "may read this campaign but not change it"
    for attempt in (
        lambda: bob.roster.update(replace(brannoc, hp=1)),
        lambda: bob.roster.add(greyhawk.id, RosterEntry(name="Spy")),
        lambda: bob.roster.remove(brannoc.id or 0, brannoc.version),
        lambda: bob.batches.remove([brannoc]),
        lambda: bob.commands.append(fight.id, HIT),
        lambda: bob.encounters.create(greyhawk.id, "Ambush", "side-d6"),
        lambda: bob.encounters.end(fight.id),
    ):
        with pytest.raises(AccessDeniedError, match=denied):
            attempt()
    assert alice.roster.entries(greyhawk.id) == [brannoc]
    assert alice.commands.load(fight.id) == [] and not alice.encounters.get(fight.id).ended

    saved = carol.roster.update(replace(brannoc, hp=17))
    carol.commands.append(fight.id, HIT)
    assert alice.roster.entries(greyhawk.id) == [saved] and alice.commands.load(fight.id) == [HIT]
    carol.roster.remove(saved.id or 0, saved.version)
    assert alice.roster.entries(greyhawk.id) == []
    for store in (alice, bob, carol):
        store.close()


def test_only_an_owner_grants_and_revokes(group: Group) -> None:
    alice, bob, carol = group.open("alice"), group.open("bob"), group.open("carol")
    greyhawk = alice.campaigns.create("Greyhawk")
    alice.access.grant(greyhawk, group.roles["carol"], "co-dm")
    with pytest.raises(AccessDeniedError, match=r"Only an owner of Greyhawk.*a co-dm there"):
        carol.access.grant(greyhawk, group.roles["bob"], "player")
    with pytest.raises(NotFoundError, match="no database role named 'nobody_at_all'"):
        alice.access.grant(greyhawk, "nobody_at_all", "player")
    with pytest.raises(StoreError, match="created Greyhawk and always owns it"):
        alice.access.revoke(greyhawk, group.roles["alice"])
    assert bob.campaigns.all() == []

    alice.access.grant(greyhawk, group.roles["bob"], "player")
    assert [c.name for c in bob.campaigns.all()] == ["Greyhawk"]
    members = alice.access.members(greyhawk)
    assert [(m.role, m.access) for m in members] == [
        (group.roles["alice"], "owner"),
        (group.roles["carol"], "co-dm"),
        (group.roles["bob"], "player"),
    ]
    assert members[2].changed_by == group.roles["alice"]  # who gave the access is recorded

    # A second owner may grant and revoke as well; a revoked role sees nothing again.
    alice.access.grant(greyhawk, group.roles["carol"], "owner")
    carol.access.revoke(greyhawk, group.roles["bob"])
    assert bob.campaigns.all() == [] and bob.access.level(greyhawk.id) is None
    with pytest.raises(NotFoundError, match="had no access to Greyhawk"):
        carol.access.revoke(greyhawk, group.roles["bob"])
    # Going around the app does not help: the server refuses a player's own grant.
    alice.access.grant(greyhawk, group.roles["bob"], "player")
    with (
        psycopg.connect(_libpq(group.url("bob"))) as conn,
        pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security"),
    ):
        conn.execute(
            "UPDATE campaign_members SET access = 'owner' WHERE role_name = %s",
            (group.roles["bob"],),
        )
    for store in (alice, bob, carol):
        store.close()


def test_a_group_role_gives_every_member_its_access(group: Group) -> None:
    alice, bob = group.open("alice"), group.open("bob")
    greyhawk = alice.campaigns.create("Greyhawk")
    alice.access.grant(greyhawk, group.group, "player")  # everyone in the DMs' group
    assert bob.access.level(greyhawk.id) == "player"
    assert [c.name for c in bob.campaigns.all()] == ["Greyhawk"]
    alice.close()
    bob.close()


def test_the_audit_columns_name_who_made_each_write(group: Group) -> None:
    alice, carol = group.open("alice"), group.open("carol")
    start = datetime.now(UTC) - timedelta(seconds=5)
    greyhawk = alice.campaigns.create("Greyhawk")
    brannoc = alice.roster.add(greyhawk.id, RosterEntry(name="Brannoc"))
    alice.access.grant(greyhawk, group.roles["carol"], "co-dm")
    fight = carol.encounters.create(greyhawk.id, "Moathouse", "side-d6")
    carol.commands.append(fight.id, HIT)
    assert _audit(group.admin, "characters")[0][0] == group.roles["alice"]
    carol.roster.update(replace(brannoc, hp=5))  # names its writer, not the row's creator
    for table, who in (
        ("campaigns", "alice"),
        ("characters", "carol"),
        ("encounters", "carol"),
        ("encounter_events", "carol"),
        ("campaign_members", "alice"),
    ):
        rows = _audit(group.admin, table)
        assert rows and {by for by, _ in rows} == {group.roles[who]}, table
        assert all(at is not None and at >= start for _, at in rows), table
    # The server fills the columns: a client cannot write someone else's name there.
    with psycopg.connect(_libpq(group.url("carol"))) as conn:
        conn.execute("UPDATE characters SET notes = 'x', changed_by = %s", (group.roles["alice"],))
    assert _audit(group.admin, "characters")[0][0] == group.roles["carol"]
    alice.close()
    carol.close()


def test_a_role_without_grants_gets_a_sentence_not_a_traceback(group: Group) -> None:
    with pytest.raises(AccessDeniedError, match="no rights on Combat Desk's tables"):
        group.open("dave")


def test_the_access_command_line(group: Group, capsys: pytest.CaptureFixture[str]) -> None:
    alice = group.open("alice")
    alice.campaigns.create("Greyhawk")
    alice.close()
    out = io.StringIO()
    bob, carol = group.roles["bob"], group.roles["carol"]
    assert (
        main(
            [
                "access",
                "grant",
                "Greyhawk",
                bob,
                "--as",
                "player",
                "--database",
                group.url("alice"),
            ],
            out,
        )
        == 0
    )
    assert main(["access", "list", "Greyhawk", "--database", group.url("alice")], out) == 0
    assert main(["access", "list", "--database", group.url("bob")], out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == f"{bob} is now player of Greyhawk."
    assert lines[1] == f"{group.roles['alice']}\towner\tcreated it"
    assert lines[2].startswith(f"{bob}\tplayer\tgiven by {group.roles['alice']} at ")
    assert lines[3] == "Greyhawk\tplayer"
    assert (
        main(
            ["access", "grant", "Greyhawk", carol, "--as", "co-dm", "--database", group.url("bob")],
            out,
        )
        == 2
    )
    assert capsys.readouterr().err.startswith("error: Only an owner of Greyhawk")
    assert (
        main(["access", "setup", "--group", group.group, "--database", group.url("bob")], out) == 2
    )
    assert capsys.readouterr().err.startswith(f"error: Your role may not grant '{group.group}'")


def test_sqlite_fills_the_audit_columns_and_has_no_roles(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'campaign.sqlite'}"
    store = Store.open(url)
    start = datetime.now(UTC) - timedelta(seconds=5)
    campaign = store.campaigns.create("Greyhawk")
    entry = store.roster.add(campaign.id, RosterEntry(name="Brannoc"))
    store.roster.update(replace(entry, hp=3))
    store.roster.import_entries(campaign.id, [RosterEntry(name="Wat")], "import")
    store.templates.add(campaign.id, MonsterTemplate(name="Orc", hit_dice="1d8"))
    fight = store.encounters.create(campaign.id, "Moathouse", "side-d6")
    store.commands.append(fight.id, HIT)  # the raw sqlite3 path
    for table in AUDITED:
        rows = _audit(url, table)
        assert rows, table
        for by, at in rows:
            assert by == os_user() and by, table
            assert at is not None and at >= start, table
    assert store.access.level(campaign.id) == "owner" and store.access.who() == os_user()
    with pytest.raises(StoreError, match="SQLite file: whoever may open the file"):
        store.access.grant(campaign, "bob", "player")
    store.close()


def test_each_dm_gets_a_sample_campaign_though_names_are_shared(group: Group) -> None:
    from desktop.app import ensure_sample_campaign

    alice, bob = group.open("alice"), group.open("bob")
    ensure_sample_campaign(alice)
    ensure_sample_campaign(bob)  # alice's sample has the name, out of bob's sight
    (sample,) = alice.campaigns.all()
    assert [c.name for c in bob.campaigns.all()] == [f"{sample.name} ({group.roles['bob']})"]
    alice.close()
    bob.close()


def test_campaigns_from_before_the_upgrade_belong_to_who_upgraded(group: Group) -> None:
    from alembic import command

    from core.store.migrate import alembic_config

    old = pg_server.new_database()
    try:
        engine = create_engine(old)
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "0003")
            conn.exec_driver_sql(
                "INSERT INTO campaigns (name, created_at) VALUES ('Greyhawk', now())"
            )
            conn.exec_driver_sql(f"GRANT SELECT ON alembic_version TO {group.group}")
        engine.dispose()
        alice_url = old.replace("postgres@", f"{group.roles['alice']}@", 1)
        with pytest.raises(AccessDeniedError, match="only the database's administrator"):
            Store.open(alice_url)  # a DM cannot upgrade tables she does not own
        admin = Store.open(old)  # the superuser upgrades: it owns what was there
        admin.access.setup(group.group)
        (greyhawk,) = admin.campaigns.all()
        assert [(m.role, m.access) for m in admin.access.members(greyhawk)] == [
            ("postgres", "owner")]
        alice = Store.open(alice_url)
        assert alice.campaigns.all() == []
        admin.access.grant(greyhawk, group.roles["alice"], "owner")  # handed on
        assert alice.access.level(greyhawk.id) == "owner"
        alice.roster.add(greyhawk.id, RosterEntry(name="Brannoc"))
        alice.close()
        admin.close()
    finally:
        pg_server.drop_database(old)


def test_the_standalone_program_runs_access_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from desktop.app import main as app_main

    url = f"sqlite:///{tmp_path / 'campaign.sqlite'}"
    store = Store.open(url)
    store.campaigns.create("Greyhawk")
    store.close()
    assert app_main(["access", "list", "--database", url]) == 0
    assert capsys.readouterr().out == "Greyhawk\towner\n"  # whoever opens the file owns it
    assert (
        app_main(["access", "grant", "Greyhawk", "bob", "--as", "player", "--database", url]) == 2
    )
    assert capsys.readouterr().err.startswith("error: This campaign is an SQLite file")


def test_a_co_dm_saves_class_levels_with_the_group_rights_as_they_are(group: Group) -> None:
    """Schema 0005's column needs no grant of its own: the group's rights are table-wide."""
    alice, carol = group.open("alice"), group.open("carol")
    greyhawk = alice.campaigns.create("Greyhawk")
    elwyn = alice.roster.add(greyhawk.id, RosterEntry(name="Elwyn", level=2, class_levels=(2, 2)))
    alice.access.grant(greyhawk, group.roles["carol"], "co-dm")
    saved = carol.roster.update(replace(elwyn, level=3, class_levels=(3, 2)))
    assert alice.roster.entries(greyhawk.id) == [saved] and saved.class_levels == (3, 2)
    assert _audit(group.admin, "characters")[0][0] == group.roles["carol"]
    for store in (alice, carol):
        store.close()


def test_leases_follow_the_campaigns_access(group: Group) -> None:
    """A player sees who plays an encounter but cannot take it; a co-DM takes it over."""
    from core.store import LeaseHolder

    alice = group.open("alice")
    campaign = alice.campaigns.create("Alice's Greyhawk")
    fight = alice.encounters.create(campaign.id, "Moathouse", "side-d6")
    alice.access.grant(campaign, group.roles["bob"], "player")
    alice.access.grant(campaign, group.roles["carol"], "co-dm")
    bob, carol = group.open("bob"), group.open("carol")
    at_alices = LeaseHolder("a" * 32, "alice", "table-pc")
    assert alice.leases.take(fight.id, at_alices).held_by(at_alices)
    seen = bob.leases.current(fight.id)
    assert seen is not None and seen.held_by(at_alices)
    with pytest.raises(AccessDeniedError, match="may read this campaign but not change it"):
        bob.leases.take(fight.id, LeaseHolder("b" * 32, "bob", "laptop"), take_over=True)
    at_carols = LeaseHolder("c" * 32, "carol", "den")
    assert carol.leases.take(fight.id, at_carols, take_over=True).held_by(at_carols)
    lease = alice.leases.current(fight.id)
    assert lease is not None and lease.held_by(at_carols)
    for store in (alice, bob, carol):
        store.close()


def test_a_group_set_up_before_0007_still_creates_campaigns_after_the_upgrade(
    group: Group,
) -> None:
    """Every write of a campaign now sets its row check; the group's campaign rights are
    column by column, so the upgrade to 0007 grants the new column to whoever had ``name``."""
    from alembic import command

    from core.store.migrate import alembic_config

    engine = create_engine(group.admin)
    with engine.begin() as conn:
        command.downgrade(alembic_config(conn), "0006")  # as the group was set up then
    engine.dispose()
    Store.open(group.admin).close()  # the administrator upgrades, without a new setup
    alice = group.open("alice")
    greyhawk = alice.campaigns.create("Greyhawk")
    assert [c.name for c in alice.campaigns.all()] == ["Greyhawk"] and greyhawk.id
    alice.close()
    with create_engine(group.admin).connect() as conn:
        check = conn.execute(text("SELECT row_check FROM campaigns")).scalar()
    assert check is not None
