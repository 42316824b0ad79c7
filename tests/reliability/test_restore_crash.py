"""Restoring a backup cannot lose the campaign: killed at any statement, or with another window
writing, the file holds the old campaign or the new one, whole, and nothing acknowledged to the
other window vanishes without a trace (it is in the kept copy or still in the campaign).
"""

from __future__ import annotations

import shutil
import subprocess
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from core.fight.encounter import configure
from core.fight.log import Command, Event, EventKind, add_combatant
from core.model.values import Combatant
from core.play.session import EncounterSession
from core.roster.entries import RosterEntry
from core.store import EncounterMovedOnError, Store
from core.store.backups import restore_backup
from tests.reliability import figures, size
from tests.reliability.forkserver import ForkServer

WAT = RosterEntry(name="Wat", hp=3, max_hp=3)
HIT = Command("Hit", (Event(EventKind.HP_CHANGED, {"id": "orc-1", "delta": -1}),))


def two_campaigns(folder: Path) -> tuple[Path, Path]:
    """Gets (monday's backup, tuesday's campaign): the campaign grew after the backup."""
    campaign_file = folder / "campaign.sqlite"
    store = Store.open(f"sqlite:///{campaign_file}")
    campaign = store.campaigns.create("Greyhawk")
    store.roster.add_all(campaign.id, [replace(WAT, name=f"Monday {i}") for i in range(30)])
    encounter = store.encounters.create(campaign.id, "Guardroom", "side-d6")
    store.commands.append(encounter.id, configure("side-d6", {}, 1))
    store.commands.append(encounter.id, add_combatant(Combatant(id="orc-1", side="monsters",
                                                               hp=40)))
    for _ in range(18):
        store.commands.append(encounter.id, Command(HIT.name, HIT.events))
    backup = store.backup(folder / "monday.sqlite")
    store.roster.add_all(campaign.id, [replace(WAT, name=f"Tuesday {i}") for i in range(30)])
    for _ in range(40):
        store.commands.append(encounter.id, Command(HIT.name, HIT.events))
    store.close()
    return backup, campaign_file


def contents(path: Path) -> tuple[list[str], int]:
    store = Store.open(f"sqlite:///{path}")
    try:
        (campaign,) = store.campaigns.all()
        names = sorted(e.name for e in store.roster.entries(campaign.id))
        (encounter,) = store.encounters.all(campaign.id)
        return names, len(store.commands.load(encounter.id))
    finally:
        store.close()


def run_child(children: ForkServer, backup: Path, target: Path,
              stop_at: int) -> subprocess.CompletedProcess[str]:
    """Restores ``backup`` over ``target`` in a child process that dies before statement
    ``stop_at`` (0: restores fully and prints how many statements that took)."""
    return children.run("tests.reliability.restore_child", str(backup), str(target),
                        str(stop_at))


@pytest.mark.slow
def test_a_restore_killed_at_every_statement_leaves_the_old_or_the_new_campaign(
        tmp_path: Path) -> None:
    backup, original = two_campaigns(tmp_path)
    old, new = contents(original), contents(backup)
    probe = tmp_path / "probe.sqlite"
    shutil.copy(original, probe)
    # The children fork from a process that imported the store once (tests/reliability/
    # forkserver.py): each is still a process of its own that dies mid-restore.
    with ForkServer("tests.reliability.restore_child") as children:
        done = run_child(children, backup, probe, 0)
        assert done.returncode == 0, done.stderr
        statements = int(done.stdout.split()[-1])
        assert contents(probe) == new
        kills = _kill_restores(children, tmp_path, backup, original, statements, old, new)
    assert kills >= min(20, len(size.points(statements)) - 1)  # at full size: 20
    figures.add("restores killed, each campaign old or new and whole (sqlite)", kills)


def _kill_restores(children: ForkServer, tmp_path: Path, backup: Path, original: Path,
                   statements: int, old: tuple[list[str], int], new: tuple[list[str], int],
                   ) -> int:
    """Kills a restore before each statement; every campaign is old or new, whole."""
    kills = 0
    for stop_at in size.points(statements):  # every statement unless COMBATDESK_RELIABILITY
        folder = tmp_path / f"kill-{stop_at}"
        folder.mkdir()
        target = folder / "campaign.sqlite"
        shutil.copy(original, target)
        child = run_child(children, backup, target, stop_at)
        assert child.returncode in (0, 9), child.stderr
        kills += child.returncode == 9
        left = temporary_files(folder)
        assert contents(target) in (old, new), f"killed before statement {stop_at}"
        # The next opening removed what the killed restore was writing.
        assert temporary_files(folder) == [], f"killed before statement {stop_at}"
        figures.add("killed restores' temporary files removed at the next opening", len(left))
        for kept in folder.glob("campaign.sqlite.replaced-*.bak"):
            assert contents(kept) == old  # a kept copy is whole, or absent
    return kills


def temporary_files(folder: Path) -> list[str]:
    """Files a copy or restore writes and removes when done: ``.restoring``, ``.part``…"""
    return sorted(p.name for p in folder.iterdir()
                  if ".restoring" in p.name or ".part" in p.name)


@pytest.mark.slow
def test_a_backup_killed_at_every_statement_leaves_no_temporary_file_after_the_next_opening(
        tmp_path: Path) -> None:
    _, original = two_campaigns(tmp_path)
    with ForkServer("tests.reliability.backup_child") as children:
        probe = tmp_path / "probe"
        probe.mkdir()
        shutil.copy(original, probe / "campaign.sqlite")
        done = children.run("tests.reliability.backup_child", str(probe / "campaign.sqlite"),
                            str(probe / "campaign.sqlite.mine.bak"), "0")
        assert done.returncode == 0, done.stderr
        statements = int(done.stdout.split()[-1])
        kills = left_behind = 0
        for stop_at in size.points(statements):
            folder = tmp_path / f"kill-{stop_at}"
            folder.mkdir()
            target = folder / "campaign.sqlite"
            shutil.copy(original, target)
            child = children.run("tests.reliability.backup_child", str(target),
                                 str(folder / "campaign.sqlite.mine.bak"), str(stop_at))
            assert child.returncode in (0, 9), child.stderr
            kills += child.returncode == 9
            left_behind += bool(temporary_files(folder))
            assert contents(target)[1] == 60  # the campaign itself is untouched
            assert temporary_files(folder) == [], f"killed before statement {stop_at}"
            backup = folder / "campaign.sqlite.mine.bak"
            if backup.exists():  # renamed into place only when whole
                assert contents(backup) == contents(target)
    assert kills >= len(size.points(statements)) - 1
    figures.add("backups killed, the next opening left no temporary file", kills)
    figures.add("killed backups that had left a temporary file (removed at the next opening)",
                left_behind)


def test_a_restore_while_another_window_writes_loses_none_of_its_saved_commands(
        tmp_path: Path) -> None:
    backup, target = two_campaigns(tmp_path)
    writer = Store.open(f"sqlite:///{target}")
    (campaign,) = writer.campaigns.all()
    (encounter,) = writer.encounters.all(campaign.id)
    window = EncounterSession.resume(writer, encounter)  # a DM's window, open all along
    acknowledged: list[int] = []
    started = threading.Event()

    def keep_writing() -> None:
        while len(acknowledged) < 3000:
            acknowledged.append(writer.commands.append(encounter.id, Command(HIT.name, HIT.events)))
            started.set()

    thread = threading.Thread(target=keep_writing)
    thread.start()
    started.wait(10)
    kept = restore_backup(backup, target)
    thread.join(120)
    assert kept is not None
    # The other writer's numbers run 61, 62, … until the restore, then 21, 22, … on monday's
    # campaign: each saved command is in the kept copy or in the restored campaign.
    split = next((i for i in range(1, len(acknowledged))
                  if acknowledged[i] < acknowledged[i - 1]), len(acknowledged))
    before, after = acknowledged[:split], acknowledged[split:]
    assert before == list(range(61, 61 + len(before)))
    assert contents(kept)[1] == 60 + len(before)
    assert after == list(range(21, 21 + len(after)))
    assert contents(target)[1] == 20 + len(after)
    # The DM's open window is told on its next command instead of building on a vanished log.
    with pytest.raises(EncounterMovedOnError):
        window.execute(configure("side-d6", {}, 3))
    writer.close()
    figures.add("commands saved by another window during a restore, none lost",
                len(acknowledged))
