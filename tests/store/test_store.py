"""The campaign store: create, reopen, migrate, refuse what it must, one transaction a command."""

import hashlib
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
from sqlalchemy import create_engine

from core.fight.log import EncounterLog, add_combatant, record_roll
from core.model.values import Combatant, Kind, Roll, Spell, Weapon
from core.roster.entries import RosterEntry, RosterStatus
from core.roster.sample import load_sample
from core.store import (
    ConflictError,
    CorruptDatabaseError,
    NewerDatabaseError,
    NotACampaignDatabaseError,
    Store,
    StoreError,
)
from core.store.migrate import alembic_config, script_revisions
from core.store.opening import APPLICATION_ID, HEAD_REVISION, KNOWN_REVISIONS

HALVAINE = RosterEntry(
    name="Halvaine",
    kind=Kind.PC,
    char_class="Magic-User",
    level=3,
    hp=9,
    max_hp=9,
    ac=9,
    dex=16,
    weapons=(Weapon("Dagger", 2, 1.25),),
    spells=(Spell("Web", 2, 2),),
)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_new_file_gets_the_schema_wal_and_foreign_keys(db_path: Path) -> None:
    store = Store.open(f"sqlite:///{db_path}")
    campaign = store.campaigns.create("Greyhawk")
    store.close()
    conn = sqlite3.connect(db_path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert conn.execute("SELECT version_num FROM alembic_version").fetchone()[0] == HEAD_REVISION
    conn.close()
    reopened = Store.open(f"sqlite:///{db_path}")
    assert [c.name for c in reopened.campaigns.all()] == ["Greyhawk"]
    assert reopened.campaigns.all()[0].id == campaign.id
    with reopened.unit_of_work() as s:  # foreign keys are enforced on every connection
        assert s.connection().exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    reopened.close()


def test_roster_edits_survive_reopening(db_url: str) -> None:
    store = Store.open(db_url)
    campaign = store.campaigns.create("Greyhawk")
    saved = store.roster.add(campaign.id, HALVAINE)
    store.roster.update(replace(saved, hp=4, status=RosterStatus.UNCONSCIOUS))
    store.close()
    store = Store.open(db_url)
    (entry,) = store.roster.entries(campaign.id)
    assert (entry.name, entry.hp, entry.status) == ("Halvaine", 4, RosterStatus.UNCONSCIOUS)
    assert entry.weapons == HALVAINE.weapons and entry.spells == HALVAINE.spells
    store.close()


def test_migrations_match_the_models_and_the_known_revisions(db_url: str) -> None:
    """An empty database migrated to head has exactly the ORM's schema (alembic check)."""
    from alembic import command

    Store.open(db_url).close()
    engine = create_engine(db_url)
    with engine.connect() as conn:
        command.check(alembic_config(conn))  # raises if models and migrations differ
    engine.dispose()
    assert tuple(script_revisions()) == KNOWN_REVISIONS


def test_an_older_schema_is_backed_up_before_it_is_migrated(db_path: Path) -> None:
    """A real 0001 file (made by Alembic) is backed up, then migrated with its data kept."""
    from alembic import command

    engine = create_engine(f"sqlite:///{db_path}")
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0001")
        conn.exec_driver_sql(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.exec_driver_sql(
            "INSERT INTO campaigns (id, name, created_at) VALUES (1, 'Greyhawk', '2026-01-01')"
        )
    engine.dispose()
    store = Store.open(f"sqlite:///{db_path}")
    assert [c.name for c in store.campaigns.all()] == ["Greyhawk"]
    saved = store.roster.add(1, replace(HALVAINE, reaction_adj=2))
    assert saved.reaction_adj == 2  # the 0002 columns exist now
    store.close()
    backup = db_path.with_name(f"{db_path.name}.before-{HEAD_REVISION}.bak")
    assert backup.exists()
    conn = sqlite3.connect(backup)
    assert conn.execute("SELECT name FROM campaigns").fetchall() == [("Greyhawk",)]
    assert conn.execute("SELECT version_num FROM alembic_version").fetchone()[0] == "0001"
    conn.close()


def test_a_database_from_a_newer_version_is_refused_and_left_untouched(db_path: Path) -> None:
    Store.open(f"sqlite:///{db_path}").close()
    conn = sqlite3.connect(db_path)
    conn.execute("UPDATE alembic_version SET version_num = '9999_future'")
    conn.commit()
    conn.close()
    before = digest(db_path)
    with pytest.raises(NewerDatabaseError, match=r"newer version of Combat Desk.*9999_future"):
        Store.open(f"sqlite:///{db_path}")
    assert digest(db_path) == before


@pytest.mark.parametrize(
    ("content", "error", "message"),
    [
        (
            b"Dear diary, today the party met an ogre.\n" * 50,
            NotACampaignDatabaseError,
            "not an SQLite database",
        ),
        (b"SQLite format 3\x00" + b"\xff" * 84, CorruptDatabaseError, "damaged"),
        (b"\x00\x01\x02garbage" * 100, NotACampaignDatabaseError, "not an SQLite database"),
    ],
    ids=["text-file", "sqlite-header-with-garbage", "binary-garbage"],
)
def test_a_file_that_is_not_a_campaign_is_refused_and_never_overwritten(
    db_path: Path, content: bytes, error: type[StoreError], message: str
) -> None:
    db_path.write_bytes(content)
    with pytest.raises(error, match=message):
        Store.open(f"sqlite:///{db_path}")
    assert db_path.read_bytes() == content


def test_a_truncated_campaign_is_refused_untouched(db_path: Path) -> None:
    store = Store.open(f"sqlite:///{db_path}")
    campaign = store.campaigns.create("Greyhawk")
    store.roster.add_all(campaign.id, [replace(HALVAINE, name=f"PC {i}") for i in range(300)])
    store.close()
    data = db_path.read_bytes()
    db_path.write_bytes(data[: len(data) // 2 + 100])
    before = digest(db_path)
    with pytest.raises(CorruptDatabaseError, match="damaged or was cut short"):
        Store.open(f"sqlite:///{db_path}")
    assert digest(db_path) == before


def test_a_campaign_with_damaged_pages_is_refused_untouched(db_path: Path) -> None:
    store = Store.open(f"sqlite:///{db_path}")
    campaign = store.campaigns.create("Greyhawk")
    store.roster.add_all(campaign.id, [replace(HALVAINE, name=f"PC {i}") for i in range(300)])
    store.close()
    data = bytearray(db_path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    for offset in range(2 * page, 3 * page, 7):  # scribble over the third page
        data[offset] = 0xA5
    db_path.write_bytes(bytes(data))
    before = digest(db_path)
    with pytest.raises(CorruptDatabaseError):
        Store.open(f"sqlite:///{db_path}")
    assert digest(db_path) == before


def test_another_programs_sqlite_database_is_refused_untouched(db_path: Path) -> None:
    conn = sqlite3.connect(db_path)
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.execute("INSERT INTO recipes VALUES ('owlbear stew')")
    conn.commit()
    conn.close()
    before = digest(db_path)
    with pytest.raises(NotACampaignDatabaseError, match="another program"):
        Store.open(f"sqlite:///{db_path}")
    assert digest(db_path) == before


def test_an_empty_file_becomes_a_new_campaign_database(db_path: Path) -> None:
    db_path.write_bytes(b"")
    store = Store.open(f"sqlite:///{db_path}")
    assert store.campaigns.all() == []
    store.close()


def test_a_failing_command_changes_nothing(store: Store) -> None:
    campaign = store.campaigns.create("Greyhawk")
    with pytest.raises(StoreError, match="already exists"):
        store.campaigns.create(" Greyhawk ")
    entries = [HALVAINE, replace(HALVAINE, name="x" * 10), replace(HALVAINE, kind="bogus")]
    with pytest.raises(Exception):  # noqa: B017 - any failure must roll the whole command back
        store.roster.add_all(campaign.id, entries)  # type: ignore[list-item]
    assert store.roster.entries(campaign.id) == []


def test_two_stores_on_one_database_get_a_conflict_not_a_lost_update(db_url: str) -> None:
    first = Store.open(db_url)
    campaign = first.campaigns.create("Greyhawk")
    mine = first.roster.add(campaign.id, HALVAINE)
    second = Store.open(db_url)
    (theirs,) = second.roster.entries(campaign.id)
    second.roster.update(replace(theirs, hp=1))
    with pytest.raises(ConflictError, match="changed elsewhere"):
        first.roster.update(replace(mine, hp=9, notes="my edit"))
    (final,) = first.roster.entries(campaign.id)
    assert final.hp == 1 and final.notes == ""
    first.close()
    second.close()


def test_encounter_commands_persist_and_undo_is_appended_not_deleted(store: Store) -> None:
    campaign = store.campaigns.create("Greyhawk")
    encounter = store.encounters.create(campaign.id, "Orc ambush", "side-d6")
    log = EncounterLog()
    commands = [
        add_combatant(Combatant(id="orc-1", side="monsters", hp=6)),
        add_combatant(Combatant(id="halvaine", side="party", hp=9)),
        record_roll(Roll("1d6", 4, (4,), purpose="initiative monsters")),
    ]
    for command in commands:
        log.execute(command)
        store.commands.append(encounter.id, command)
    store.commands.undo(encounter.id)
    log.undo()
    loaded = store.commands.load(encounter.id)
    assert EncounterLog(loaded).state == log.state
    with store.unit_of_work() as s:
        rows = s.connection().exec_driver_sql("SELECT count(*) FROM encounter_events").scalar()
    assert rows == 4  # three commands and the undo: history is kept


def test_several_encounters_read_at_once_are_each_read_whole(store: Store) -> None:
    """commands.load_many (the roster's "fighting in" hint) gives each encounter exactly
    what load gives it: its own live commands, undone ones left out, none of another's."""
    campaign = store.campaigns.create("Greyhawk")
    fights = [store.encounters.create(campaign.id, f"Fight {n}", "side-d6") for n in range(3)]
    for n, fight in enumerate(fights):
        for k in range(n + 1):
            store.commands.append(fight.id, add_combatant(
                Combatant(id=f"orc-{k}", side="monsters", hp=6 + n)))
    store.commands.undo(fights[2].id)
    many = store.commands.load_many([f.id for f in fights] + [fights[0].id])
    assert many == {f.id: store.commands.load(f.id) for f in fights}
    assert [len(many[f.id]) for f in fights] == [1, 2, 2]
    assert store.commands.load_many([]) == {}


def test_sample_campaign_loads_whole(store: Store) -> None:
    name, roster, templates = load_sample()
    campaign = store.campaigns.create_with(name, roster, templates)
    assert [e.name for e in store.roster.entries(campaign.id)] == [e.name for e in roster]
    assert {t.name for t in store.templates.all(campaign.id)} >= {"Orc", "Goblin"}
    assert sum(e.kind is Kind.PC for e in roster) == 4


def test_an_0004_file_upgrades_with_its_characters_single_classed(db_path: Path) -> None:
    """A row written before 0005 (with 0004's audit columns) reads as one class, its level
    kept; a multi-class can then be saved into it."""
    from alembic import command

    engine = create_engine(f"sqlite:///{db_path}")
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0004")
        conn.exec_driver_sql(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.exec_driver_sql(
            "INSERT INTO campaigns (id, name, created_at, changed_by, changed_at) "
            "VALUES (1, 'Greyhawk', '2026-01-01', 'dm', '2026-01-01')"
        )
        conn.exec_driver_sql(
            "INSERT INTO characters (id, campaign_id, kind, name, side, status, level, "
            "char_class, race, attack_routines, attacks, weapons, spells, notes, version, "
            "updated_at, changed_by, changed_at) VALUES (1, 1, 'pc', 'Elwyn', 'party', "
            "'active', 3, 'Fighter/Magic-User', 'Half-elf', 1, 1, '[]', '[]', '', 1, "
            "'2026-01-01', 'dm', '2026-01-01')"
        )
    engine.dispose()
    store = Store.open(f"sqlite:///{db_path}")
    (elwyn,) = store.roster.entries(1)
    assert (elwyn.level, elwyn.class_levels) == (3, ())
    saved = store.roster.update(replace(elwyn, class_levels=(3, 2)))
    store.close()
    conn = sqlite3.connect(db_path)
    assert conn.execute("SELECT level, class_levels FROM characters").fetchall() == [(3, "3/2")]
    conn.close()
    assert saved.class_levels == (3, 2)
