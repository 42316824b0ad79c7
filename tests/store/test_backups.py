"""Backups on demand and restoring them: consistent copies, refusals, the replaced file kept."""

from __future__ import annotations

import hashlib
import sqlite3
import time
from dataclasses import replace
from pathlib import Path

import pytest

from core.roster.entries import RosterEntry
from core.store import (
    DatabaseLockedError,
    NewerDatabaseError,
    NotACampaignDatabaseError,
    Store,
    StoreError,
)
from core.store.backups import check_backup, copy_database, restore_backup

WAT = RosterEntry(name="Wat", hp=3, max_hp=3)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_backup_is_a_consistent_copy_taken_while_the_store_is_open(db_path: Path) -> None:
    store = Store.open(f"sqlite:///{db_path}")
    campaign = store.campaigns.create("Greyhawk")
    store.roster.add_all(campaign.id, [replace(WAT, name=f"PC {i}") for i in range(50)])
    backup = store.backup(db_path.with_name("copy.sqlite"))  # the WAL is not folded in yet
    store.roster.add(campaign.id, replace(WAT, name="After the backup"))
    store.close()
    copy = Store.open(f"sqlite:///{backup}")
    assert len(copy.roster.entries(campaign.id)) == 50
    copy.close()


def test_restoring_replaces_the_campaign_and_keeps_the_replaced_file(db_path: Path) -> None:
    store = Store.open(f"sqlite:///{db_path}")
    campaign = store.campaigns.create("Greyhawk")
    store.roster.add(campaign.id, WAT)
    backup = store.backup(db_path.with_name("monday.sqlite"))
    store.roster.add(campaign.id, replace(WAT, name="Tuesday's hireling"))
    store.close()
    kept = restore_backup(backup, db_path)
    assert kept is not None and kept.name.startswith("campaign.sqlite.replaced-")
    restored = Store.open(f"sqlite:///{db_path}")
    assert [e.name for e in restored.roster.entries(campaign.id)] == ["Wat"]
    restored.close()
    replaced = Store.open(f"sqlite:///{kept}")
    assert [e.name for e in replaced.roster.entries(campaign.id)] == ["Wat", "Tuesday's hireling"]
    replaced.close()


def test_restoring_twice_in_one_second_keeps_both_replaced_copies(db_path: Path) -> None:
    from datetime import datetime

    store = Store.open(f"sqlite:///{db_path}")
    campaign = store.campaigns.create("Greyhawk")
    store.roster.add(campaign.id, WAT)
    backup = store.backup(db_path.with_name("monday.sqlite"))
    store.roster.add(campaign.id, replace(WAT, name="Tuesday's hireling"))
    store.close()
    same_second = datetime(2026, 11, 23, 20, 15, 7)
    first = restore_backup(backup, db_path, now=same_second)
    second = restore_backup(backup, db_path, now=same_second)
    assert first is not None and second is not None and first != second
    names = []
    for kept in (first, second):
        opened = Store.open(f"sqlite:///{kept}")
        names.append([e.name for e in opened.roster.entries(campaign.id)])
        opened.close()
    assert names == [["Wat", "Tuesday's hireling"], ["Wat"]]


@pytest.mark.parametrize(
    "content", [b"", b"not a database at all\n" * 40, b"SQLite format 3\x00" + b"\x01" * 84]
)
def test_restoring_a_file_that_is_not_a_campaign_changes_nothing(
    db_path: Path, content: bytes
) -> None:
    Store.open(f"sqlite:///{db_path}").close()
    before = digest(db_path)
    bogus = db_path.with_name("bogus.sqlite")
    bogus.write_bytes(content)
    with pytest.raises(StoreError):
        restore_backup(bogus, db_path)
    assert digest(db_path) == before
    assert not list(db_path.parent.glob("*.replaced-*"))


def test_a_backup_from_a_newer_version_is_refused(db_path: Path) -> None:
    import sqlite3

    newer = db_path.with_name("newer.sqlite")
    Store.open(f"sqlite:///{newer}").close()
    conn = sqlite3.connect(newer)
    conn.execute("UPDATE alembic_version SET version_num = '9999_future'")
    conn.commit()
    conn.close()
    with pytest.raises(NewerDatabaseError):
        check_backup(newer)
    with pytest.raises(NotACampaignDatabaseError):
        check_backup(db_path.with_name("missing.sqlite"))


@pytest.mark.parametrize("db_url", ["postgresql"], indirect=True)
def test_server_campaigns_say_backups_are_the_servers_job(db_url: str) -> None:
    store = Store.open(db_url)
    with pytest.raises(StoreError, match="server's job"):
        store.backup(Path("unused.sqlite"))
    store.close()


def _exclusive(path: Path) -> sqlite3.Connection:
    """Another program that opened the campaign in exclusive locking mode: nobody else reads."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA locking_mode=EXCLUSIVE")
    conn.execute("BEGIN EXCLUSIVE")
    conn.execute("UPDATE campaigns SET name = name")
    return conn


def test_a_backup_of_a_locked_file_gives_up_in_words_instead_of_hanging(
    db_path: Path, tmp_path: Path
) -> None:
    store = Store.open(f"sqlite:///{db_path}", lock_timeout=0.3)
    store.campaigns.create("Borderlands")
    store.close()  # the store's own connections would keep the exclusive lock out
    other = _exclusive(db_path)
    target = tmp_path / "copy.sqlite"
    started = time.monotonic()
    with pytest.raises(DatabaseLockedError, match="locked by another program"):
        copy_database(db_path, target, lock_timeout=0.3)
    assert time.monotonic() - started < 5  # Python's backup loop alone waits for ever
    assert not target.exists() and not target.with_name("copy.sqlite.part").exists()
    other.execute("COMMIT")
    other.close()
    assert copy_database(db_path, target, lock_timeout=0.3) == target


def test_a_restore_over_a_locked_file_is_a_locked_error_and_changes_nothing(
    db_path: Path, tmp_path: Path
) -> None:
    store = Store.open(f"sqlite:///{db_path}", lock_timeout=0.3)
    store.campaigns.create("Borderlands")
    backup = store.backup(tmp_path / "before.sqlite")
    store.campaigns.create("Later")
    store.close()
    lock = sqlite3.connect(db_path, isolation_level=None)
    lock.execute("BEGIN IMMEDIATE")  # a writer: the restore's swap waits for it
    with pytest.raises(DatabaseLockedError, match="was not restored"):
        restore_backup(backup, db_path, lock_timeout=0.3)
    lock.execute("COMMIT")
    lock.close()
    reopened = Store.open(f"sqlite:///{db_path}")
    assert [c.name for c in reopened.campaigns.all()] == ["Borderlands", "Later"]
    reopened.close()
