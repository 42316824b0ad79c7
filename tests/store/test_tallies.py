"""Records removed, added or renumbered outside Combat Desk are named (schema 0008 tallies).

Row checks see a record whose values changed; a record that is gone, or two records whose ids
were swapped, leave every remaining row matching its own check. The tallies (a count and a sum
mixing ids and checks, kept by Combat Desk's own connections only) see them. The damage is
named at every start until the DM acknowledges it, sealed file or not.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from core.fight.encounter import configure
from core.roster.entries import RosterEntry
from core.store import Store
from tests.reliability import figures

DAMAGE = {
    "a deleted roster entry": (
        "DELETE FROM characters WHERE name = 'Wat'", "1 roster entry removed outside Combat Desk"),
    "a deleted last command": (
        "DELETE FROM encounter_events WHERE command_seq = "
        "(SELECT max(command_seq) FROM encounter_events)",
        "1 event of a stored command removed outside Combat Desk"),
    "a deleted fight": (
        "DELETE FROM encounters WHERE name = 'Ambush'", "1 encounter removed outside Combat Desk"),
    "two entries' ids swapped": (
        "UPDATE characters SET id = -id WHERE name IN ('Wat', 'Ned'); "
        "UPDATE characters SET id = (SELECT -id FROM characters WHERE name = 'Ned') "
        "WHERE name = 'Wat'; "
        "UPDATE characters SET id = (SELECT -id FROM characters WHERE name = 'Wat' ) "
        "WHERE name = 'Ned' AND id < 0",
        "roster entries renumbered or replaced outside Combat Desk"),
}


def campaign_file(tmp_path: Path) -> Path:
    path = tmp_path / "campaign.sqlite"
    store = Store.open(f"sqlite:///{path}")
    greyhawk = store.campaigns.create("Greyhawk")
    store.roster.add_all(greyhawk.id, [RosterEntry(name=n, hp=5) for n in ("Wat", "Ned", "Ilsa")])
    fight = store.encounters.create(greyhawk.id, "Guardroom", "side-d6")
    store.commands.append(fight.id, configure("side-d6", {}, 7))
    store.commands.append(fight.id, configure("side-d6", {}, 8))
    store.encounters.create(greyhawk.id, "Ambush", "side-d6")
    store.close()
    return path


def damaged(path: Path, sql: str, sealed: bool) -> None:
    """Another program changes the file; ``sealed``: the file had been closed cleanly."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    if not sealed:  # as a crash leaves it: no seal
        conn.execute("PRAGMA user_version = 0")
    conn.executescript(sql)
    conn.close()


@pytest.mark.parametrize("case", DAMAGE)
@pytest.mark.parametrize("sealed", [False, True], ids=["unsealed", "sealed"])
def test_removed_and_renumbered_records_are_named_at_every_start_until_acknowledged(
        tmp_path: Path, case: str, sealed: bool) -> None:
    path = campaign_file(tmp_path)
    sql, words = DAMAGE[case]
    damaged(path, sql, sealed)
    for start in range(3):  # the next start, and every start after it
        store = Store.open(f"sqlite:///{path}")
        assert len(store.damage) >= 1, (case, start)
        report = " ".join(store.damage)
        if not sealed:
            assert words in report, (case, start, report)
        else:
            assert "changed after Combat Desk last closed it" in report
        store.close()
    store = Store.open(f"sqlite:///{path}")
    store.acknowledge_damage()  # the DM has read it: the file is taken as it is now
    store.close()
    for _ in range(2):
        store = Store.open(f"sqlite:///{path}")
        assert store.damage == (), case
        store.close()
    figures.add(f"records removed or renumbered outside Combat Desk, named at 3 starts "
                f"({'sealed' if sealed else 'unsealed'})")


def test_combat_desks_own_writes_keep_the_tallies(tmp_path: Path) -> None:
    """Deletes, cascades (a campaign with its roster and fights), undo and restores through the
    store leave an unsealed file that opens without a word."""
    path = campaign_file(tmp_path)
    store = Store.open(f"sqlite:///{path}")
    (greyhawk,) = store.campaigns.all()
    wat = next(e for e in store.roster.entries(greyhawk.id) if e.name == "Wat")
    store.roster.remove(wat.id or 0)
    store.roster.restore(greyhawk.id, wat)
    other = store.campaigns.create("Blackmoor")
    store.roster.add(other.id, RosterEntry(name="Brother Tam"))
    fight = store.encounters.create(other.id, "Bridge", "side-d6")
    store.commands.append(fight.id, configure("side-d6", {}, 9))
    with store.unit_of_work() as s:
        from sqlalchemy import text

        s.execute(text("DELETE FROM campaigns WHERE name = 'Blackmoor'"))  # cascades
    store._engine.dispose()  # a crash: no seal
    store = Store.open(f"sqlite:///{path}")
    assert store.damage == ()
    store.close()

