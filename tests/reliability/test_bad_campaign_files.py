"""Bad campaign files and hostile conditions: a clear StoreError, and the campaign untouched.

Damaged files (hypothesis cuts and scribbles over a real campaign), a read-only file, a file
locked by another program, and a full disk (SQLite's page limit standing in for the disk).
"""

from __future__ import annotations

import functools
import hashlib
import os
import sqlite3
import subprocess
import tempfile
import threading
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import event

from core.roster.entries import RosterEntry
from core.store import (
    DatabaseLockedError,
    DiskFullError,
    ReadOnlyDatabaseError,
    Store,
    StoreError,
)
from tests.reliability import figures

WAT = RosterEntry(name="Wat", hp=3, max_hp=3, notes="levy " * 20)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@functools.cache
def campaign_bytes() -> bytes:
    """A real campaign file's bytes (a plain function: hypothesis would print a fixture's)."""
    path = Path(tempfile.mkdtemp()) / "campaign.sqlite"
    store = Store.open(f"sqlite:///{path}")
    campaign = store.campaigns.create("Greyhawk")
    store.roster.import_entries(campaign.id, [replace(WAT, name=f"Levy {i}") for i in range(400)])
    store.close()
    return path.read_bytes()


def make_campaign(path: Path, entries: int = 3) -> Store:
    store = Store.open(f"sqlite:///{path}", lock_timeout=0.3)
    campaign = store.campaigns.create("Greyhawk")
    store.roster.add_all(campaign.id, [replace(WAT, name=f"PC {i}") for i in range(entries)])
    return store


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_damaged_campaign_file_is_refused_untouched_or_still_reads(data: st.DataObject) -> None:
    good = campaign_bytes()
    size = len(good)
    damaged = bytearray(good)
    how = data.draw(st.sampled_from(["cut", "scribble", "both"]))
    if how in ("scribble", "both"):
        start = data.draw(st.integers(0, size - 1))
        junk = data.draw(st.binary(min_size=1, max_size=4096))
        damaged[start : start + len(junk)] = junk[: size - start]
    if how in ("cut", "both"):
        damaged = damaged[: data.draw(st.integers(0, size - 1))]
    folder = Path(tempfile.mkdtemp())
    path = folder / "campaign.sqlite"
    path.write_bytes(bytes(damaged))
    before = digest(path)
    try:
        store = Store.open(f"sqlite:///{path}")
    except StoreError as exc:
        assert str(exc) and digest(path) == before  # refused, and left exactly as it was
        figures.add("damaged campaign files refused untouched")
        return
    finally:
        figures.add("damaged campaign files tried")
    try:
        if store.damage:
            figures.add("damaged campaign files opened with the damage named")
        elif damaged:  # named or the same: a sealed file never opens silently different
            assert [store.roster.entries(c.id) for c in store.campaigns.all()] == original_roster()
            figures.add("damaged campaign files opened unchanged in what they hold")
    finally:
        store.close()


@functools.cache
def original_roster() -> list[list[RosterEntry]]:
    path = Path(tempfile.mkdtemp()) / "campaign.sqlite"
    path.write_bytes(campaign_bytes())
    store = Store.open(f"sqlite:///{path}")
    try:
        return [store.roster.entries(c.id) for c in store.campaigns.all()]
    finally:
        store.close()


def test_a_read_only_campaign_opens_and_refuses_writes_with_a_message(tmp_path: Path) -> None:
    path = tmp_path / "campaign.sqlite"
    make_campaign(path).close()
    path.chmod(0o444)
    # Root writes through permissions; the immutable attribute stops even root.
    immutable = os.geteuid() == 0
    if immutable and subprocess.run(["chattr", "+i", str(path)], check=False).returncode:
        pytest.skip("running as root on a file system without chattr +i")
    try:
        before = digest(path)
        store = Store.open(f"sqlite:///{path}")
        assert len(store.roster.entries(store.campaigns.all()[0].id)) == 3  # reading still works
        with pytest.raises(ReadOnlyDatabaseError, match="read-only; nothing was saved"):
            store.campaigns.create("Blackmoor")
        store.close()
        assert digest(path) == before
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(path)], check=False)
    figures.add("writes refused: read-only file")


def test_a_campaign_locked_by_another_program_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "campaign.sqlite"
    make_campaign(path).close()
    other = sqlite3.connect(path)
    other.execute("PRAGMA locking_mode=EXCLUSIVE")
    other.execute("BEGIN EXCLUSIVE")  # holds the file: not even a reader gets in
    other.execute("UPDATE campaigns SET name = name")
    try:
        with pytest.raises(DatabaseLockedError, match="locked by another program"):
            Store.open(f"sqlite:///{path}", lock_timeout=0.3)
    finally:
        other.rollback()
        other.close()
    store = Store.open(f"sqlite:///{path}")  # once it lets go, the campaign is all there
    assert len(store.roster.entries(store.campaigns.all()[0].id)) == 3
    store.close()
    figures.add("files refused: locked by another program")


def test_a_write_waits_for_a_short_lock_and_gives_up_on_a_long_one(tmp_path: Path) -> None:
    path = tmp_path / "campaign.sqlite"
    store = make_campaign(path)
    campaign = store.campaigns.all()[0]
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # another writer, as a second Combat Desk mid-command
    with pytest.raises(DatabaseLockedError, match="nothing was saved"):
        store.roster.add(campaign.id, WAT)
    release = threading.Timer(0.1, lambda: other.execute("COMMIT"))
    release.start()
    store.roster.add(campaign.id, replace(WAT, name="Patient"))  # waited, then wrote
    release.join()
    other.close()
    assert [e.name for e in store.roster.entries(campaign.id)][-1] == "Patient"
    assert len(store.roster.entries(campaign.id)) == 4  # the refused write left nothing behind
    store.close()
    figures.add("writes refused: locked")


def test_a_full_disk_saves_nothing_and_leaves_the_campaign_consistent(tmp_path: Path) -> None:
    path = tmp_path / "campaign.sqlite"
    store = make_campaign(path)
    campaign = store.campaigns.all()[0]
    pages = sqlite3.connect(path).execute("PRAGMA page_count").fetchone()[0]

    def limit(dbapi_conn: sqlite3.Connection, _record: object) -> None:
        dbapi_conn.execute(f"PRAGMA max_page_count = {pages + 8}")  # a disk with 8 pages left

    event.listen(store._engine, "connect", limit)
    store._engine.dispose()  # new connections get the limit
    big = [replace(WAT, name=f"Levy {i}", notes="x" * 500) for i in range(2000)]
    with pytest.raises(DiskFullError, match="disk is full; nothing was saved"):
        store.roster.import_entries(campaign.id, big)
    with pytest.raises(DiskFullError, match="disk is full; nothing was saved"):
        store.roster.add_all(campaign.id, big)
    assert len(store.roster.entries(campaign.id)) == 3
    store.roster.add(campaign.id, replace(WAT, name="Small"))  # what fits still saves
    store.close()
    check = sqlite3.connect(path)
    assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert check.execute("SELECT count(*) FROM characters").fetchone()[0] == 4
    check.close()
    figures.add("writes refused: disk full")
