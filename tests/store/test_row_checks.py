"""Row checks (schema 0007): every write stores a CRC of the row's values, and opening an
unsealed SQLite file names each record whose stored values no longer match their check."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, select

from core.fight.log import Command, Event, EventKind, new_command_id
from core.model.values import Weapon
from core.roster.entries import MonsterTemplate, RosterEntry
from core.roster.merge import ImportChanges
from core.store import Store, row_checks
from core.store.commands import _SQLITE_INSERT_EVENT
from core.store.migrate import alembic_config
from core.store.schema import Base

HIT = Command("Hit", (Event(EventKind.HP_CHANGED, {"id": "orc-1", "delta": -3}),))


def every_write(store: Store) -> None:
    """Writes through every path the store has that stores campaign content."""
    campaign = store.campaigns.create("Greyhawk")
    cid = campaign.id
    store.campaigns.create_with(
        "Blackmoor", [RosterEntry(name="Ilsa", hp=7)], [MonsterTemplate(name="Kobold")]
    )
    levy = store.roster.add(cid, RosterEntry(name="Levy 7", hp=5, notes="a spear"))
    wat, ned = store.roster.add_all(cid, [RosterEntry(name="Wat"), RosterEntry(name="Ned", hp=2)])
    levy = store.roster.update(replace(levy, hp=3, notes="a spear and a grudge"))
    store.roster.remove(wat.id)
    store.roster.restore(cid, wat)
    store.roster.import_entries(cid, [RosterEntry(name=f"Levy {i}", hp=i) for i in range(3)])
    (levy,) = store.roster.apply_results(
        cid, [replace(levy, hp=1)], "After the ford", ["Levy 7: 1 hp"])
    (ned,) = store.batches.save_entries(cid, [replace(ned, hp=4)], "A rest", ["Ned: 4 hp"])
    orc = store.templates.add(cid, MonsterTemplate(name="Orc", notes="smells"))
    (gnoll,) = store.templates.add_all(cid, [MonsterTemplate(name="Gnoll")])
    orc = store.templates.update(replace(orc, notes="smells worse", xp=10))
    store.templates.remove(gnoll.id)
    store.templates.restore(cid, gnoll)
    applied = store.batches.apply_import(
        cid,
        ImportChanges(
            (RosterEntry(name="Hob"),), ((levy, replace(levy, notes="imported")),),
            (MonsterTemplate(name="Troll"),), ((orc, replace(orc, ac=5)),),
        ),
        "Imported a file", ["Hob"],
    )  # fmt: skip
    store.batches.undo_import(cid, applied)
    store.batches.remove([wat], [orc])
    store.batches.restore(cid, [wat], [orc])
    fight = store.encounters.create(cid, "Fight at the ford", "side-d6", {"note": "ambush"})
    store.commands.append(fight.id, HIT)
    store.commands.append(fight.id, replace(HIT, name="Fireball", id=new_command_id()))
    store.commands.undo(fight.id)
    store.commands.undo(fight.id)  # the fight has no orc: nothing left to replay
    store.encounters.end(fight.id)
    store.encounters.reopen(fight.id, {"orc-1": {"hp": 3}})


def unchecked(url: str) -> list[str]:
    """Rows whose stored check is missing or differs from their values read back (any database)."""
    engine = create_engine(url)
    found = []
    try:
        with engine.connect() as conn:
            for name in row_checks.CHECKED:
                table = Base.metadata.tables[name]
                checks = row_checks.checks_for(table)
                for row in conn.execute(select(table)).mappings():
                    if row["row_check"] is None or row["row_check"] != checks.of(row):
                        found.append(f"{name} {row['id']}")
    finally:
        engine.dispose()
    return found


def test_every_write_path_stores_a_check_that_matches_the_values(db_url: str) -> None:
    store = Store.open(db_url)
    every_write(store)
    path = store.file
    store.close()
    assert unchecked(db_url) == []
    if path is not None:  # and SQLite's stored form gives the very same checks
        assert row_checks.stored_problems(path) == []


def test_the_sqlite_append_binds_the_checked_columns_in_their_order() -> None:
    bound = _SQLITE_INSERT_EVENT.split("(")[1].split(")")[0].replace(" ", "").split(",")
    checked = row_checks.CHECKED["encounter_events"]
    assert tuple(bound[: len(checked)]) == checked


def unsealed_campaign(tmp_path: Path) -> Path:
    """A campaign file as a crash leaves it: written, closed, no seal."""
    path = tmp_path / "campaign.sqlite"
    store = Store.open(f"sqlite:///{path}")
    every_write(store)
    store.close()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA user_version = 0")
    conn.close()
    return path


def test_an_untouched_unsealed_file_opens_without_a_word(tmp_path: Path) -> None:
    path = unsealed_campaign(tmp_path)
    store = Store.open(f"sqlite:///{path}")
    assert store.damage == ()
    store.close()


CHANGES = {
    "a letter of a note": (
        "UPDATE characters SET notes = 'a spear and a grudgf' WHERE name = 'Levy 7'",
        "roster entry 'Levy 7'",
    ),
    "a hit point number": ("UPDATE characters SET hp = 2 WHERE name = 'Ned'", "roster entry 'Ned'"),
    "a template's armour class": (
        "UPDATE monster_templates SET ac = 4 WHERE name = 'Orc'",
        "the monster template 'Orc'",
    ),
    "a number inside an event's data": (
        "UPDATE encounter_events SET payload = replace(payload, '-3', '-8') WHERE command_seq = 1",
        "command 1 of the encounter 'Fight at the ford'",
    ),
    "an encounter's options": (
        "UPDATE encounters SET options = replace(options, 'ambush', 'ambusj')",
        "the encounter 'Fight at the ford'",
    ),
    "a line of the session log": (
        "UPDATE session_log SET details = replace(details, '1 hp', '7 hp') "
        "WHERE summary = 'After the ford'",
        "the session log line 'After the ford'",
    ),
    "a campaign's name": (
        "UPDATE campaigns SET name = 'Greyhawj' WHERE name = 'Greyhawk'",
        "the campaign 'Greyhawj'",
    ),
    "a time": (
        "UPDATE characters SET updated_at = '2020-01-01 00:00:00.000000' WHERE name = 'Wat'",
        "roster entry 'Wat'",
    ),
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_a_value_changed_outside_combat_desk_is_named_when_an_unsealed_file_opens(
    tmp_path: Path, change: str
) -> None:
    """Each change is valid SQL by another program: SQLite's and the app's checks pass it."""
    path = unsealed_campaign(tmp_path)
    statement, named = CHANGES[change]
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(statement)
    assert conn.total_changes == 1, "the change must touch exactly one record"
    conn.close()
    store = Store.open(f"sqlite:///{path}")
    try:
        report = " ".join(store.damage)
        assert f"{named}: its stored values changed outside Combat Desk" in report
        assert report.count("changed outside Combat Desk") == 1  # only the record changed
    finally:
        store.close()


def test_a_missing_check_is_named(tmp_path: Path) -> None:
    path = unsealed_campaign(tmp_path)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("UPDATE characters SET row_check = NULL WHERE name = 'Wat'")
    conn.close()
    assert row_checks.stored_problems(path) == [
        "roster entry 'Wat': its stored values changed outside Combat Desk"
    ]


def test_a_sealed_file_skips_the_row_checks(tmp_path: Path, monkeypatch: Any) -> None:
    """A matching seal proves every byte unchanged: opening does not read every row."""
    path = tmp_path / "campaign.sqlite"
    store = Store.open(f"sqlite:///{path}")
    every_write(store)
    store.close()

    def refuse(_path: Path) -> list[str]:
        raise AssertionError("the row checks ran on a sealed file")

    monkeypatch.setattr(row_checks, "stored_problems", refuse)
    Store.open(f"sqlite:///{path}").close()


def test_migration_0007_fills_checks_that_verify(db_url: str) -> None:
    """A campaign at 0006 (rows of every kind, an event's time as 0006's append wrote it)
    gets a check on every row, which the next unsealed opening verifies."""
    from alembic import command

    store = Store.open(db_url)
    every_write(store)
    path = store.file
    store.close()
    engine = create_engine(db_url)
    with engine.begin() as conn:
        if conn.dialect.name == "sqlite":
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        command.downgrade(alembic_config(conn), "0006")
        if conn.dialect.name == "sqlite":  # the SQLite append of 0006 wrote "+00:00" times
            conn.exec_driver_sql(
                "UPDATE encounter_events SET created_at = created_at || '+00:00' "
                "WHERE command_seq = 1"
            )
            conn.exec_driver_sql("PRAGMA user_version = 0")  # as 0006 left it after a crash
    engine.dispose()
    store = Store.open(db_url)  # upgrades to 0007
    assert store.damage == ()
    store.close()
    if path is not None:
        assert row_checks.stored_problems(path) == []
        conn = sqlite3.connect(path, isolation_level=None)
        (old,) = conn.execute(
            "SELECT row_check FROM encounter_events WHERE created_at LIKE '%+00:00'"
        ).fetchall()
        assert old[0] is not None
        conn.execute("PRAGMA user_version = 0")
        conn.close()
        again = Store.open(db_url)
        assert again.damage == ()
        again.close()
    else:
        assert unchecked(db_url) == []


def test_every_content_column_is_covered_by_its_tables_check() -> None:
    """A column added to a checked table without adding it to ``CHECKED`` would be damage
    nobody sees: every column is either checked or left out for a stated reason."""
    from core.store.row_checks import CHECKED, COLUMN
    from core.store.schema import Base

    left_out = {"id", COLUMN, "changed_by", "changed_at", "owner"}
    for table_name, columns in CHECKED.items():
        table = Base.metadata.tables[table_name]
        content = {c.name for c in table.columns} - left_out
        assert set(columns) == content, table_name


def test_a_value_saved_equal_in_python_but_not_in_text_still_checks(tmp_path: Path) -> None:
    """A weapon's length 8 saved again as 8.0 (the form's number) is written as 8.0, so an
    unsealed file names no damage: the ORM left the stored 8 while the check took 8.0."""
    path = tmp_path / "campaign.sqlite"
    store = Store.open(f"sqlite:///{path}")
    cid = store.campaigns.create("Greyhawk").id
    spear = store.roster.add(cid, RosterEntry(name="Garrick", weapons=(Weapon("Spear", 6, 8),)))
    store.roster.update(replace(spear, weapons=(Weapon("Spear", 6, 8.0),)))
    assert row_checks.stored_problems(path) == []
    pike = (Weapon("Pike", 13, 18),)
    template = store.templates.add(cid, MonsterTemplate(name="Orc", weapons=pike))
    store.templates.update(replace(template, weapons=(Weapon("Pike", 13, 18.0),)))
    assert row_checks.stored_problems(path) == []
    store.close()


def test_migration_0010_adds_death_saves_and_rechecks_every_character(db_url: str) -> None:
    """Schema 0010 (issue 25, popcorn Death saves): rows saved before read as the full three,
    a count saved since reads back, and every character's check verifies after the upgrade
    and after a downgrade to 0007 (whose check leaves the column out)."""
    from alembic import command

    store = Store.open(db_url)
    every_write(store)
    cid = store.campaigns.create("Death saves").id
    kept = store.roster.add(cid, RosterEntry(name="Brannoc", death_saves=2))
    assert store.roster.get(kept.id or 0).death_saves == 2  # type: ignore[union-attr]
    path = store.file
    store.close()
    engine = create_engine(db_url)
    with engine.begin() as conn:
        if conn.dialect.name == "sqlite":
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        command.downgrade(alembic_config(conn), "0007")
        if conn.dialect.name == "sqlite":
            conn.exec_driver_sql("PRAGMA user_version = 0")  # unsealed: checks are verified
    engine.dispose()
    store = Store.open(db_url)  # upgrades to 0010 again: the saved 2 is gone with the column
    assert store.damage == ()
    assert {e.name: e.death_saves for e in store.roster.entries(cid)} == {"Brannoc": 3}
    store.close()
    if path is not None:
        assert row_checks.stored_problems(path) == []
    else:
        assert unchecked(db_url) == []
