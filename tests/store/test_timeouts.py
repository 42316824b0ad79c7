"""Nothing hangs: an unanswering server and a lock held by another client end in a message.

The server that never answers is a local socket that accepts and stays silent (what a
blackholed or frozen server looks like to the client); no traffic leaves this machine.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import threading
import time
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, text

from core.fight.log import Command, Event, EventKind
from core.store import (
    DatabaseLockedError,
    DatabaseUnavailableError,
    Store,
    StoreError,
    addresses,
)
from tests.reliability import figures
from tests.store import pg_server

HIT = Command("Hit", (Event(EventKind.HP_CHANGED, {"id": "orc-1", "delta": -3}),))


@pytest.fixture
def silent_server() -> Iterator[int]:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])  # and never say a word
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield listener.getsockname()[1]
    stop.set()
    thread.join()
    for conn in accepted:
        conn.close()
    listener.close()


def test_a_server_that_never_answers_gives_a_message_within_the_timeout(
        silent_server: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(addresses, "SERVER_CONNECT_TIMEOUT", 2)
    start = time.monotonic()
    with pytest.raises(StoreError, match="cannot connect to") as caught:
        Store.open(f"postgresql+psycopg://dm:secret@127.0.0.1:{silent_server}/campaigns")
    assert time.monotonic() - start < 10
    assert "secret" not in str(caught.value)


def test_a_row_lock_held_by_another_client_ends_in_a_message(db_url: str) -> None:
    if not db_url.startswith("postgresql"):
        pytest.skip("SQLite: test_a_write_waits_for_a_short_lock_and_gives_up_on_a_long_one")
    store = Store.open(db_url, lock_timeout=1)
    campaign = store.campaigns.create("Greyhawk")
    encounter = store.encounters.create(campaign.id, "Guardroom", "side-d6")
    holder = create_engine(db_url).connect()
    holder.execute(text("SELECT id FROM encounters WHERE id = :id FOR UPDATE"),
                   {"id": encounter.id})  # another DM's client, mid-transaction
    start = time.monotonic()
    with pytest.raises(DatabaseLockedError, match="nothing was saved"):
        store.commands.append(encounter.id, HIT)
    assert time.monotonic() - start < 10
    holder.rollback()
    holder.close()
    assert store.commands.append(encounter.id, HIT) == 1  # once the lock is gone, it saves
    store.close()


@contextlib.contextmanager
def _frozen(pid: int) -> Iterator[None]:
    os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(pid, signal.SIGCONT)


@pytest.fixture
def server_url() -> Iterator[str]:
    srv = pg_server.server()
    if srv.url is None:
        pytest.skip(f"PostgreSQL: {srv.why}")
    if os.geteuid() != 0 and pg_server.ENV in os.environ:
        pytest.skip("freezing a server process needs the test's own local server")
    url = pg_server.new_database()
    try:
        yield url
    finally:
        pg_server.drop_database(url)


DEADLINE = 3.0


def test_a_frozen_server_process_ends_a_save_within_the_client_deadline(
        server_url: str) -> None:
    """The session's server process is stopped (SIGSTOP) with its socket open: the server's own
    timeouts cannot fire and its kernel still acknowledges what is sent. The save in flight
    ends in words within the client-side deadline, and the next call works on a new
    connection, with nothing half-saved."""
    store = Store.open(server_url, call_deadline=DEADLINE)
    assert store.wait_limit <= addresses.SERVER_CONNECT_TIMEOUT + DEADLINE
    greyhawk = store.campaigns.create("Greyhawk")
    fight = store.encounters.create(greyhawk.id, "Moathouse", "side-d6")
    frozen: list[int] = []
    start = time.monotonic()
    try:
        with (pytest.raises(DatabaseUnavailableError, match="did not answer in time") as caught,
              store.unit_of_work() as s):  # a transaction under way when the process froze
            frozen.append(s.execute(text("SELECT pg_backend_pid()")).scalar_one())
            os.kill(frozen[0], signal.SIGSTOP)
            start = time.monotonic()
            s.execute(text("UPDATE encounters SET name = 'Hijacked' WHERE id = :id"),
                      {"id": fight.id})
    finally:
        for pid in frozen:
            os.kill(pid, signal.SIGCONT)
    took = time.monotonic() - start
    assert took < DEADLINE + 2, took
    words = str(caught.value).removeprefix(store.label)
    assert "psycopg" not in words and "deadline" not in words and "Operational" not in words
    figures.add("frozen server process: calls ended in a message within the deadline")
    # The store carries on: a new connection, the encounter as it was, a command saved once.
    assert store.commands.append(fight.id, HIT) == 1
    assert [e.name for e in store.encounters.all(greyhawk.id)] == ["Moathouse"]
    store.close()


def test_a_frozen_idle_connection_is_replaced_within_the_deadline(server_url: str) -> None:
    """The pooled connection's server process freezes between two calls: the pool's check of it
    gives up at the deadline and the call goes on over a new connection."""
    store = Store.open(server_url, call_deadline=DEADLINE)
    greyhawk = store.campaigns.create("Greyhawk")
    with store.unit_of_work() as s:
        pid = s.execute(text("SELECT pg_backend_pid()")).scalar_one()
    start = time.monotonic()
    with _frozen(pid):
        fight = store.encounters.create(greyhawk.id, "Moathouse", "side-d6")
    took = time.monotonic() - start
    assert took < 2 * DEADLINE + 2
    assert [e.id for e in store.encounters.all(greyhawk.id)] == [fight.id]
    store.close()
