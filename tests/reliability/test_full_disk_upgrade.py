"""An upgrade on a nearly full disk: refused in words naming the copies that could go, leaving
no copy per try, and done once space is freed, leaving exactly one copy of the old campaign.

Runs on a small tmpfs mounted for the test (root only; skipped otherwise; 8 MB: room for the
campaign and its downgrade), filled with a file to leave chosen amounts of room.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine

from core.roster.entries import RosterEntry
from core.store import DiskFullError, Store
from core.store.migrate import alembic_config
from core.store.opening import HEAD_REVISION, KNOWN_REVISIONS
from tests.reliability import figures

PAGE = 4096


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small disk needs root")
    folder = tmp_path / "disk"
    folder.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(folder)],
                          capture_output=True, check=False)
    if done.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode(errors='replace')}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True, check=False)


def old_campaign(path: Path) -> None:
    """A campaign of about 1 MB at the schema before the head."""
    store = Store.open(f"sqlite:///{path}")
    greyhawk = store.campaigns.create("Greyhawk")
    store.roster.import_entries(
        greyhawk.id, [RosterEntry(name=f"Levy {i}", notes="spear " * 60) for i in range(2000)])
    store.close()
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        conn.exec_driver_sql("BEGIN IMMEDIATE")
        command.downgrade(alembic_config(conn), KNOWN_REVISIONS[-2])
    engine.dispose()


def copies(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".bak"))


def test_an_upgrade_on_a_full_disk_succeeds_once_space_is_freed_leaving_one_copy(
        small_disk: Path) -> None:
    campaign = small_disk / "campaign.sqlite"
    old_campaign(campaign)
    earlier = small_disk / "campaign.sqlite.replaced-20261101-200000.bak"
    earlier.write_bytes(b"\0" * 200_000)  # a copy an earlier restore kept
    filler = small_disk / "filler"
    size = campaign.stat().st_size
    refused = {"copy": 0, "upgrade": 0}
    # Leave less room than a copy needs, then a little more each try: some tries fail in the
    # copy, some after it (in the upgrade's own writes), until one succeeds.
    for room in range(size // 2, 3 * size, PAGE * 8):
        filler.unlink(missing_ok=True)
        free = shutil.disk_usage(small_disk).free
        if free <= room:
            break
        filler.write_bytes(b"x" * (free - room))
        try:
            Store.open(f"sqlite:///{campaign}").close()
        except DiskFullError as exc:
            message = str(exc)
            assert "nothing was changed" in message and "Free some space" in message
            assert earlier.name in message  # the copies that could go, by name
            refused["copy" if "copy it before" in message else "upgrade"] += 1
            # No try leaves a copy (or a piece of one) behind.
            assert copies(small_disk) == [earlier.name], room
            assert not [p for p in small_disk.iterdir() if ".part" in p.name]
            continue
        break
    else:
        pytest.fail("the upgrade never had room")
    assert refused["copy"] >= 1, refused
    filler.unlink(missing_ok=True)
    store = Store.open(f"sqlite:///{campaign}")  # opens, upgraded (or already was)
    assert len(store.roster.entries(1)) == 2000 and store.damage == ()
    store.close()
    kept = f"campaign.sqlite.before-{HEAD_REVISION}.bak"
    assert copies(small_disk) == sorted([earlier.name, kept])
    figures.add("upgrades refused on a full disk while copying, no copy left", refused["copy"])
    figures.add("upgrades refused on a full disk after the copy, no copy left",
                refused["upgrade"])
