"""Nothing hangs: an unanswering server and a lock held by another client end in a message.

The server that never answers is a local socket that accepts and stays silent (what a
blackholed or frozen server looks like to the client); no traffic leaves this machine.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, text

from core.fight.log import Command, Event, EventKind
from core.store import DatabaseLockedError, Store, StoreError, addresses

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
