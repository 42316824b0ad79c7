"""Nothing lost: a process appending commands is SIGKILLed at random points, on both databases.

After every kill the campaign is reopened (as the app would after a crash) and must hold every
command the child reported committed, with all of each command's events or none of them.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest
from sqlalchemy import select

from core.store import Store
from core.store.schema import EncounterEventRow
from tests.reliability import figures, size
from tests.reliability.forkserver import Forked, ForkServer

ROOT = Path(__file__).resolve().parents[2]
SCALE = int(os.environ.get("COMBATDESK_KILL_SCALE", "1"))  # more kills for a soak by hand
# 28 / 24 at full size (the default); COMBATDESK_RELIABILITY=quick or N: fewer.
KILLS = {"sqlite": size.kills(28 * SCALE), "postgresql": size.kills(24 * SCALE)}
SEED = int(os.environ.get("COMBATDESK_KILL_SEED", str(random.SystemRandom().randrange(10**6))))


Child = subprocess.Popen[str] | Forked
"""An append child: a fresh Python (the concurrency tests), or forked from a :class:`ForkServer`
that imported the store once (the kill loop: a new child for every kill)."""


def spawn_child(
    url: str, encounter_id: int, seed: int, count: int | None = None,
    children: ForkServer | None = None,
) -> Child:
    """Starts a child that imports everything and then waits for :func:`go`."""
    args = [url, str(encounter_id), str(seed), *([str(count)] if count is not None else [])]
    if children is not None:
        return children.spawn("tests.reliability.append_child", *args)
    return subprocess.Popen(
        [sys.executable, "-m", "tests.reliability.append_child", *args],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.PIPE,
        text=True,
    )  # fmt: skip


def go(child: Child) -> None:
    """Lets a spawned child open the campaign and start appending."""
    assert child.stdout is not None and child.stdin is not None
    for expected in ("ready", "go", "open"):
        if expected == "go":
            child.stdin.write("go\n")
            child.stdin.flush()
            continue
        line = child.stdout.readline()
        if line.strip() != expected:
            child.kill()
            _, err = finish(child)
            raise AssertionError(f"the child did not start: {line!r} {err[-2000:]!r}")


def finish(child: Child, timeout: float = 120) -> tuple[str, str]:
    """Reads the child's output to the end and waits for it.

    Not ``communicate``: it reads the pipe's descriptor and so would lose what ``go``'s
    ``readline`` has already buffered (the first committed numbers).
    """
    assert child.stdout is not None and child.stderr is not None
    out = child.stdout.read()
    err = child.stderr.read()
    child.wait(timeout)
    return out, err


def kill_at_random(child: Child, rng: random.Random) -> list[int]:
    """Lets the child append for a random while, SIGKILLs it, returns the seqs it reported.

    The random while starts at the child's first commit, not at its opening: on a loaded
    machine a child may take longer than the whole while to commit anything, and a loop of
    kills before any write would prove nothing.
    """
    assert child.stdout is not None
    first = child.stdout.readline()
    time.sleep(rng.uniform(0.005, 0.12))
    child.send_signal(signal.SIGKILL)
    out, err = finish(child)
    assert child.returncode == -signal.SIGKILL, f"the child died by itself: {err[-2000:]}"
    return [int(line) for line in (first + out).split()]


def stored_commands(url: str, encounter_id: int) -> dict[int, list[tuple[int, int]]]:
    """Reopens the campaign and gets, per command, its (event_index, events-in-command)."""
    store = Store.open(url)
    try:
        # A killed SQLite append leaves the file unsealed: the row checks run, and find every
        # row it committed as it was written. (The test's commands hit a combatant the log
        # never added, so the replay check has its own say; that is not the store's doing.)
        assert "changed outside Combat Desk" not in " ".join(store.damage), store.damage
        with store.unit_of_work() as s:
            rows = s.execute(
                select(
                    EncounterEventRow.command_seq,
                    EncounterEventRow.event_index,
                    EncounterEventRow.payload,
                ).where(EncounterEventRow.encounter_id == encounter_id)
            ).all()
        store.commands.load(encounter_id)  # and the log reads back as commands
    finally:
        store.close()
    commands: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for seq, index, payload in rows:
        commands[seq].append((index, int(payload["of"])))
    return commands


@pytest.mark.slow
def test_killed_appends_lose_no_committed_command_and_leave_no_partial_one(db_url: str) -> None:
    backend = "sqlite" if db_url.startswith("sqlite") else "postgresql"
    store = Store.open(db_url)
    campaign = store.campaigns.create("Kill test")
    encounter = store.encounters.create(campaign.id, "Under fire", "side-d6")
    store.close()
    rng = random.Random(f"{SEED}-{backend}")
    reported: list[int] = []
    with ForkServer("tests.reliability.append_child") as children:
        _kill_appends(children, db_url, encounter.id, backend, rng, reported)
    figures.add(f"commands committed across kills ({backend})", len(reported))
    assert len(reported) > KILLS[backend]  # the children really wrote between kills


def _kill_appends(children: ForkServer, db_url: str, encounter_id: int, backend: str,
                  rng: random.Random, reported: list[int]) -> None:
    """Kills appending children at random moments; checks the campaign after each kill."""
    child = spawn_child(db_url, encounter_id, rng.randrange(10**6), children=children)
    for kill in range(KILLS[backend]):
        go(child)
        reported += kill_at_random(child, rng)
        # The next child is forked (and opens nothing) while this kill is checked.
        child = spawn_child(db_url, encounter_id, rng.randrange(10**6), children=children)
        commands = stored_commands(db_url, encounter_id)
        where = f"seed {SEED}, kill {kill + 1}"
        missing = sorted(set(reported) - set(commands))
        assert not missing, f"{where}: reported committed but lost: {missing[:10]}"
        for seq, events in commands.items():
            whole = events[0][1]
            assert sorted(events) == [(i, whole) for i in range(whole)], (
                f"{where}: command {seq} is partial: {sorted(events)}"
            )
        assert sorted(commands) == list(range(1, len(commands) + 1)), f"{where}: a gap"
        figures.add(f"kills survived ({backend})")
    child.kill()
    finish(child)
