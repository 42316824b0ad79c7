"""The PostgreSQL *server* dies while commands are being saved: none lost, none doubled.

A server of this test's own (so the other tests' server is never killed) is crashed with
``pg_ctl stop -m immediate`` at random moments while one store appends commands as fast as it
can; every append that fails is retried with the same command (the same id) once the server is
back, as the app's session does. Some crashes land between the commit and its answer — the
phantom commits the issue describes — so the retry must find the command already stored. At
the end the encounter holds each command exactly once, in order, whole.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.fight.log import Command, Event, EventKind
from core.store import Store, StoreError
from tests.reliability import figures, size
from tests.store import pg_server

KILLS = size.kills(12)  # 12 at full size (the default); COMBATDESK_RELIABILITY: fewer
SEED = int(os.environ.get("COMBATDESK_KILL_SEED", str(random.SystemRandom().randrange(10**6))))


class _OwnServer:
    """A throwaway PostgreSQL server that this test may crash and restart."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.user = "postgres" if os.geteuid() == 0 else None
        self.root = Path(tempfile.mkdtemp(prefix="combatdesk-pgkill-"))
        self.root.chmod(0o755)
        self.data = self.root / "data"
        self.data.mkdir()
        if self.user is not None:
            shutil.chown(self.root, self.user)
            shutil.chown(self.data, self.user)
        self.port = pg_server._free_port()
        pg_server._run([str(bin_dir / "initdb"), "-D", str(self.data), "-U", "postgres",
                        "-A", "trust", "-E", "UTF8", "--no-sync"], self.user)  # fmt: skip
        self.start()

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def _ctl(self, *args: str) -> None:
        pg_server._run([str(self.bin / "pg_ctl"), "-D", str(self.data), *args], self.user,
                       timeout=90)  # fmt: skip

    def start(self) -> None:
        options = f"-p {self.port} -k {self.root} -h 127.0.0.1 -c max_connections=20"
        self._ctl("-o", options, "-l", str(self.root / "log"), "-w", "-t", "60", "start")

    def crash(self) -> None:
        """Kills the server the hard way: no checkpoint, connections cut mid-statement."""
        self._ctl("-m", "immediate", "-w", "stop")

    def remove(self) -> None:
        with contextlib.suppress(RuntimeError):
            self.crash()
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture
def own_server() -> Iterator[_OwnServer]:
    if pg_server.server().url is None:
        pytest.skip(f"PostgreSQL: {pg_server.server().why}")
    bin_dir = pg_server._bin_dir()
    if bin_dir is None:
        pytest.skip("PostgreSQL: no local server binaries (an external server was given)")
    srv = _OwnServer(bin_dir)
    try:
        yield srv
    finally:
        srv.remove()


def _stored_last(store: Store, encounter_id: int) -> str | None:
    """Gets the id of the last command stored (asked anew after the server came back)."""
    stored = store.commands.load(encounter_id)
    return stored[-1].id if stored else None


@pytest.mark.slow
def test_server_crashes_lose_and_double_nothing(own_server: _OwnServer) -> None:
    rng = random.Random(SEED)
    store = Store.open(own_server.url)
    campaign = store.campaigns.create("Greyhawk")
    encounter = store.encounters.create(campaign.id, "Guardroom", "side-d6")
    done = threading.Event()
    kills: list[float] = []

    def killer() -> None:
        for _ in range(KILLS):
            time.sleep(rng.uniform(0.05, 0.4))
            own_server.crash()
            kills.append(time.monotonic())
            time.sleep(rng.uniform(0.0, 0.3))
            own_server.start()
        done.set()

    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    sent: list[Command] = []
    failures = phantoms = 0
    deadline = time.monotonic() + 240
    while not done.is_set() or len(sent) < 50:
        number = len(sent)
        command = Command(f"Orc {number % 6 + 1} hits Brannoc",
                          tuple(Event(EventKind.HP_CHANGED, {"id": f"orc-{i}", "delta": -1})
                                for i in range(1, 4)))  # fmt: skip
        failed = False
        while True:  # the session's retry: the same command, the same id, until it is saved
            assert time.monotonic() < deadline, f"seed {SEED}: no progress"
            try:
                if failed and _stored_last(store, encounter.id) == command.id:
                    phantoms += 1  # committed although the app was told it failed
                store.commands.append(encounter.id, command)
                break
            except StoreError:
                failures += 1
                failed = True
                time.sleep(0.05)
        sent.append(command)
    thread.join(timeout=120)
    stored = store.commands.load(encounter.id)
    store.close()
    assert len(kills) == KILLS
    assert [c.id for c in stored] == [c.id for c in sent], f"seed {SEED}"
    assert all(len(c.events) == 3 for c in stored), f"seed {SEED}: a command came back partial"
    figures.add("server crashes survived (postgresql)", len(kills))
    figures.add("appends retried after a server crash (postgresql)", failures)
    figures.add("commands saved through server crashes (postgresql)", len(sent))
    figures.add("phantom commits retried without a double (postgresql)", phantoms)
