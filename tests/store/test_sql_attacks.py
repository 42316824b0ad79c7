"""Attacks on a shared campaign with plain SQL, as a member would type them in psql (schema 0008).

Every statement here is sent over a psycopg connection logged in as a real member role of the
throwaway test server (the ``group`` fixture: alice, bob and carol in the DMs' group, dave let
in by nobody). Row-level security checks the row a statement writes; the schema's triggers
keep rows in their campaign, and the listing functions answer about the caller only.
"""

from __future__ import annotations

import io
import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import psycopg
import pytest

from core.cli.commands import main
from core.fight.log import Command, Event, EventKind
from core.roster.entries import MonsterTemplate, RosterEntry
from core.store import AccessDeniedError, Store, StoreError
from tests.reliability import figures
from tests.store.test_campaign_access import Group, _superuser, group  # noqa: F401 (fixture)

HIT = Command("Orc 1 hits Brannoc", (Event(EventKind.HP_CHANGED, {"id": "orc-1", "delta": -3}),))
LEVELS = "ARRAY['owner', 'co-dm', 'player']"


def _libpq(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


@dataclass
class Table:
    """Alice's campaign shared with bob (player) and carol (co-DM); each has a campaign too."""

    group: Group
    greyhawk: int
    fight: int
    mine: dict[str, int]
    """bob/carol → the id of their own campaign."""
    their_fight: dict[str, int]

    def sql(self, who: str) -> psycopg.Connection:
        return psycopg.connect(_libpq(self.group.url(who)), autocommit=True)

    def counts(self) -> dict[str, int]:
        """What alice's campaign holds, as alice reads it."""
        with self.sql("alice") as conn:
            found = {
                table: conn.execute(f"SELECT count(*) FROM {table} WHERE campaign_id = %s",
                                    (self.greyhawk,)).fetchone()[0]
                for table in ("characters", "monster_templates", "encounters", "session_log",
                              "campaign_members")
            }
            for table in ("encounter_events", "encounter_leases"):
                found[table] = conn.execute(
                    f"SELECT count(*) FROM {table} WHERE encounter_id = %s", (self.fight,)
                ).fetchone()[0]
            found["owner is alice"] = conn.execute(
                "SELECT count(*) FROM campaigns WHERE id = %s AND owner = %s",
                (self.greyhawk, self.group.roles["alice"])).fetchone()[0]
            return found


@pytest.fixture
def table(group: Group) -> Iterator[Table]:  # noqa: F811 (the fixture imported above)
    from core.store import LeaseHolder

    alice = group.open("alice")
    greyhawk = alice.campaigns.create("Greyhawk")
    alice.roster.add(greyhawk.id, RosterEntry(name="Brannoc", hp=24))
    alice.templates.add(greyhawk.id, MonsterTemplate(name="Orc"))
    fight = alice.encounters.create(greyhawk.id, "Moathouse", "side-d6")
    alice.commands.append(fight.id, HIT)
    alice.leases.take(fight.id, LeaseHolder.here())
    alice.roster.import_entries(greyhawk.id, [], "an earlier session")
    alice.access.grant(greyhawk, group.roles["bob"], "player")
    alice.access.grant(greyhawk, group.roles["carol"], "co-dm")
    alice.close()
    mine, their_fight = {}, {}
    for who in ("bob", "carol"):
        store = group.open(who)
        own = store.campaigns.create(f"{who}'s own")
        mine[who] = own.id
        their_fight[who] = store.encounters.create(own.id, "Ambush", "side-d6").id
        store.close()
    yield Table(group, greyhawk.id, fight.id, mine, their_fight)


MOVES = {
    "characters": "UPDATE characters SET campaign_id = {mine} WHERE campaign_id = {theirs}",
    "monster_templates":
        "UPDATE monster_templates SET campaign_id = {mine} WHERE campaign_id = {theirs}",
    "encounters": "UPDATE encounters SET campaign_id = {mine} WHERE campaign_id = {theirs}",
    "session_log": "UPDATE session_log SET campaign_id = {mine} WHERE campaign_id = {theirs}",
    "campaign_members":
        "UPDATE campaign_members SET campaign_id = {mine} WHERE campaign_id = {theirs}",
    "encounter_events":
        "UPDATE encounter_events SET encounter_id = {my_fight} WHERE encounter_id = {fight}",
    "encounter_leases":
        "UPDATE encounter_leases SET encounter_id = {my_fight} WHERE encounter_id = {fight}",
}


@pytest.mark.parametrize("who", ["bob", "carol"])
def test_no_member_moves_a_campaigns_records_into_their_own(table: Table, who: str) -> None:
    """A player (bob) and a co-DM who is not its owner (carol) try, in psql, to move every
    record of alice's campaign into a campaign of their own (or a fight of their own), one
    statement a table: each is refused by the server, and alice's campaign keeps every row."""
    before = table.counts()
    assert all(before.values()), before
    refused = 0
    with table.sql(who) as conn:
        for name, statement in MOVES.items():
            sql = statement.format(mine=table.mine[who], theirs=table.greyhawk,
                                   my_fight=table.their_fight[who], fight=table.fight)
            with pytest.raises(psycopg.Error) as caught:
                conn.execute(sql)
            assert isinstance(caught.value, psycopg.errors.InsufficientPrivilege), name
            refused += 1
        # The same, one row at a time by its own id, and a move with another change beside it.
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("UPDATE characters SET name = 'Mine now', campaign_id = %s "
                         "WHERE name = 'Brannoc'", (table.mine[who],))
    assert table.counts() == before
    figures.add(f"direct SQL moves of another campaign's records refused ({who})", refused + 1)


def test_the_app_words_a_refused_move(table: Table) -> None:
    """The refusal reads as a sentence through the store (a script using it, not psql)."""
    bob = table.group.open("bob")
    with pytest.raises(AccessDeniedError, match="stays in the campaign it belongs to"), \
            bob.unit_of_work() as s:
        from sqlalchemy import text

        s.execute(text("UPDATE characters SET campaign_id = :mine WHERE campaign_id = :theirs"),
                  {"mine": table.mine["bob"], "theirs": table.greyhawk})
    bob.close()


def test_membership_and_ownership_change_only_through_an_owners_grant(table: Table) -> None:
    """A player and a co-DM cannot make themselves owners, add or remove members, or hand the
    campaign over; nobody can put the server's own roles in as members, even its owner."""
    roles = table.group.roles
    before = table.counts()
    attempts = 0
    for who in ("bob", "carol"):
        with table.sql(who) as conn:
            for statement, args in (
                ("INSERT INTO campaign_members (campaign_id, role_name, access) "
                 "VALUES (%s, %s, 'owner')", (table.greyhawk, roles[who] + "x")),
                ("UPDATE campaign_members SET access = 'owner' WHERE campaign_id = %s",
                 (table.greyhawk,)),
                ("UPDATE campaigns SET owner = %s WHERE id = %s", (roles[who], table.greyhawk)),
                ("INSERT INTO campaigns (name, owner) VALUES ('Stolen', %s)", (roles["alice"],)),
            ):
                attempts += 1
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    conn.execute(statement, args)
            # A delete of rows the role may not delete is filtered to nothing by the server.
            gone = conn.execute("DELETE FROM campaign_members WHERE campaign_id = %s",
                                (table.greyhawk,))
            assert gone.rowcount == 0
    with table.sql("alice") as conn:
        levels = dict(conn.execute("SELECT role_name, access FROM campaign_members "
                                   "WHERE campaign_id = %s", (table.greyhawk,)).fetchall())
    assert levels == {roles["bob"]: "player", roles["carol"]: "co-dm"}
    assert table.counts() == before
    # Even the owner, in psql, cannot make the server's own roles members.
    boss = f"boss_{uuid.uuid4().hex[:6]}"
    _superuser(f"CREATE ROLE {boss} SUPERUSER")
    try:
        with table.sql("alice") as conn:
            for role in ("postgres", "pg_read_all_data", "pg_write_all_data", boss):
                attempts += 1
                with pytest.raises(psycopg.errors.InsufficientPrivilege,
                                   match="server's own roles"):
                    conn.execute("INSERT INTO campaign_members (campaign_id, role_name, access) "
                                 "VALUES (%s, %s, 'player')", (table.greyhawk, role))
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="no database role"):
                conn.execute("INSERT INTO campaign_members (campaign_id, role_name, access) "
                             "VALUES (%s, 'nobody_at_all', 'player')", (table.greyhawk,))
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="server's own"):
                conn.execute("UPDATE campaign_members SET role_name = 'pg_read_all_data' "
                             "WHERE role_name = %s", (roles["bob"],))
    finally:
        _superuser(f"DROP ROLE IF EXISTS {boss}")
    figures.add("direct SQL changes of membership or ownership refused", attempts)


def test_the_listing_functions_answer_only_about_the_caller(table: Table) -> None:
    """Any role (a player, a co-DM, dave whom nobody let in) asking the listing functions about
    alice gets nothing; asking about themselves gets their own."""
    alice = table.group.roles["alice"]
    asked = 0
    for who in ("bob", "carol", "dave"):
        with table.sql(who) as conn:
            for sql in (f"SELECT * FROM combatdesk_campaigns(%s, {LEVELS})",
                        f"SELECT * FROM combatdesk_encounters(%s, {LEVELS})"):
                asked += 1
                assert conn.execute(sql, (alice,)).fetchall() == [], (who, sql)
                assert conn.execute(sql, ("postgres",)).fetchall() == [], (who, sql)
            asked += 1
            assert conn.execute("SELECT combatdesk_access(%s, %s)",
                                (table.greyhawk, alice)).fetchone() == (None,)
            me = table.group.roles[who]
            own = {r[0] for r in conn.execute(
                f"SELECT * FROM combatdesk_campaigns(%s, {LEVELS})", (me,))}
            expected = {"bob": {table.greyhawk, table.mine["bob"]},
                        "carol": {table.greyhawk, table.mine["carol"]}, "dave": set()}[who]
            assert own == expected
    with table.sql("bob") as conn:  # a group the caller is in may be asked about: same rights
        assert conn.execute(f"SELECT * FROM combatdesk_campaigns(%s, {LEVELS})",
                            (table.group.group,)).fetchall() == []
    figures.add("listing function calls about another role, answered with nothing", asked)


def test_the_access_command_refuses_group_and_role_names_in_words(
        table: Table, capsys: pytest.CaptureFixture[str]) -> None:
    admin, alice = table.group.admin, table.group.url("alice")
    out = io.StringIO()
    long_name = "g" * 300
    for group_name in ("public", "", "PUBLIC", long_name, "pg_monitor"):
        assert main(["access", "setup", "--group", group_name, "--database", admin], out) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and err.count("\n") == 1, err
        for fragment in ("syntax", "LINE", "^", "CREATE ROLE", "GRANT", "psycopg"):
            assert fragment not in err, (group_name, err)
    assert "63 bytes" in _setup_error(admin, long_name, capsys)
    assert "every role" in _setup_error(admin, "public", capsys)
    assert "no name" in _setup_error(admin, "", capsys)
    boss = f"boss_{uuid.uuid4().hex[:6]}"
    _superuser(f"CREATE ROLE {boss} SUPERUSER")
    try:
        for role in ("pg_read_all_data", "postgres", boss, "public", "x" * 64):
            assert main(["access", "grant", "Greyhawk", role, "--as", "player",
                         "--database", alice], out) == 2
            err = capsys.readouterr().err
            assert err.startswith("error: ") and "Nothing was changed" in err, err
    finally:
        _superuser(f"DROP ROLE IF EXISTS {boss}")
    store = Store.open(alice)
    campaign = store.access.campaign_named("Greyhawk")
    assert {m.role for m in store.access.members(campaign)} == {
        table.group.roles[w] for w in ("alice", "bob", "carol")}
    with pytest.raises(StoreError, match="server's own roles"):
        store.access.grant(campaign, "pg_read_all_data", "player")
    store.close()
    assert out.getvalue() == ""


def _setup_error(admin: str, name: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["access", "setup", "--group", name, "--database", admin], io.StringIO()) == 2
    return capsys.readouterr().err
