"""Shared campaigns: two Combat Desks on one database (SQLite file or PostgreSQL server)."""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import replace

import pytest

from core.fight.log import Command, Event, EventKind
from core.roster.entries import RosterEntry
from core.store import ConflictError, Store
from tests.reliability.test_kill import finish, go, spawn_child, stored_commands

WAT = RosterEntry(name="Wat", hp=3, max_hp=3)


def hit(number: int, size: int) -> Command:
    return Command(
        f"Hit {number}",
        tuple(Event(EventKind.HP_CHANGED, {"id": "orc", "delta": -1, "of": size})
              for _ in range(size)),
    )  # fmt: skip


def assert_whole_and_contiguous(url: str, encounter_id: int, total: int) -> None:
    commands = stored_commands(url, encounter_id)
    assert sorted(commands) == list(range(1, total + 1))
    for seq, events in commands.items():
        size = events[0][1]
        assert sorted(events) == [(i, size) for i in range(size)], f"command {seq} interleaved"


def test_two_stores_see_each_others_roster_changes_on_refresh(db_url: str) -> None:
    mine, theirs = Store.open(db_url), Store.open(db_url)
    campaign = mine.campaigns.create("Greyhawk")
    added = theirs.roster.add(campaign.id, WAT)
    assert [e.name for e in mine.roster.entries(campaign.id)] == ["Wat"]
    mine.roster.update(replace(mine.roster.entries(campaign.id)[0], hp=1))
    assert theirs.roster.entries(campaign.id)[0].hp == 1
    theirs.roster.remove(added.id or 0)
    assert mine.roster.entries(campaign.id) == []
    mine.close()
    theirs.close()


def test_a_conflict_carries_the_saved_version_to_show_beside_mine(db_url: str) -> None:
    mine, theirs = Store.open(db_url), Store.open(db_url)
    campaign = mine.campaigns.create("Greyhawk")
    loaded = mine.roster.add(campaign.id, WAT)
    saved = theirs.roster.update(replace(loaded, hp=1, notes="theirs"))
    with pytest.raises(ConflictError) as caught:
        mine.roster.update(replace(loaded, hp=2, notes="mine"))
    assert caught.value.saved == saved  # both versions: mine in hand, theirs in the error
    with pytest.raises(ConflictError) as caught:
        mine.roster.remove(loaded.id or 0, loaded.version)
    assert caught.value.saved == saved
    chosen = mine.roster.update(replace(loaded, notes="mine", version=saved.version))
    assert chosen.notes == "mine" and chosen.version == saved.version + 1
    mine.close()
    theirs.close()


def save(
    store: Store,
    who: int,
    loaded: RosterEntry,
    round_: int,
    barrier: threading.Barrier,
    outcomes: list[object],
) -> None:
    barrier.wait()
    try:  # a save that changes nothing is no conflict: every save changes the notes
        outcomes.append(store.roster.update(replace(loaded, notes=f"DM {who}, {round_}")))
    except ConflictError as exc:
        outcomes.append(exc)


def test_simultaneous_saves_of_one_entry_let_exactly_one_win(db_url: str) -> None:
    """Threads race to save the same loaded version; the losers get the winner's version."""
    stores = [Store.open(db_url) for _ in range(4)]
    campaign = stores[0].campaigns.create("Greyhawk")
    entry = stores[0].roster.add(campaign.id, WAT)
    for round_ in range(10):
        barrier = threading.Barrier(len(stores))
        outcomes: list[object] = []

        threads = [
            threading.Thread(target=save, args=(s, i, entry, round_, barrier, outcomes))
            for i, s in enumerate(stores)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        wins = [o for o in outcomes if isinstance(o, RosterEntry)]
        conflicts = [o for o in outcomes if isinstance(o, ConflictError)]
        assert len(wins) == 1 and len(conflicts) == len(stores) - 1, f"round {round_}"
        assert all(c.saved == wins[0] for c in conflicts)
        entry = wins[0]
    for s in stores:
        s.close()


def test_threads_appending_to_one_encounter_are_serialized(db_url: str) -> None:
    stores = [Store.open(db_url) for _ in range(4)]
    campaign = stores[0].campaigns.create("Greyhawk")
    encounter = stores[0].encounters.create(campaign.id, "Melee", "side-d6")
    seqs: list[int] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(len(stores))

    def append(store: Store, who: int) -> None:
        barrier.wait()
        try:
            for n in range(25):
                seqs.append(store.commands.append(encounter.id, hit(n, 1 + (n + who) % 4)))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=append, args=(s, i)) for i, s in enumerate(stores)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    assert sorted(seqs) == list(range(1, 101))  # every command got a number of its own
    for s in stores:
        s.close()
    assert_whole_and_contiguous(db_url, encounter.id, 100)


@pytest.mark.slow
def test_processes_appending_to_one_encounter_are_serialized(db_url: str) -> None:
    store = Store.open(db_url)
    campaign = store.campaigns.create("Greyhawk")
    encounter = store.encounters.create(campaign.id, "Melee", "side-d6")
    store.close()
    children = [spawn_child(db_url, encounter.id, seed, 40) for seed in range(3)]
    for child in children:
        go(child)
    reported: Counter[int] = Counter()
    outputs = []
    for child in children:
        out, err = finish(child)
        assert child.returncode == 0, err[-2000:]
        outputs.append([int(line) for line in out.split()])
        reported.update(outputs[-1])
    stored = stored_commands(db_url, encounter.id)
    where = f"each child reported {outputs}; stored {sorted(stored)}"
    assert sorted(reported) == list(range(1, 121)) and max(reported.values()) == 1, where
    assert_whole_and_contiguous(db_url, encounter.id, 120)
