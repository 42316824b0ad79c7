"""One window plays an encounter, the others watch: the lease (schema 0006).

Runs on SQLite and PostgreSQL (``db_url``): each "window" is its own Store and LeaseHolder on
the same database, as two Combat Desks on two computers would be.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from core.fight.encounter import configure
from core.fight.log import Command, Event, EventKind
from core.play.session import EncounterSession
from core.store import EncounterTakenOverError, LeaseHolder, Store
from core.store.schema import utc_now
from tests.reliability import figures

HIT = Command("Orc 1 hits Brannoc", (Event(EventKind.HP_CHANGED, {"id": "orc-1", "delta": -3}),))
ANN = LeaseHolder("a" * 32, "ann", "table-pc")
BOB = LeaseHolder("b" * 32, "bob", "laptop")


def _encounter(store: Store) -> int:
    campaign = store.campaigns.create("Greyhawk")
    return store.encounters.create(campaign.id, "Guardroom", "side-d6").id


def test_the_first_window_takes_the_lease_and_the_second_is_told_who_holds_it(db_url: str) -> None:
    store, other = Store.open(db_url), Store.open(db_url)
    encounter = _encounter(store)
    assert store.leases.current(encounter) is None
    mine = store.leases.take(encounter, ANN)
    assert mine.held_by(ANN) and mine.live
    theirs = other.leases.take(encounter, BOB)  # not taken: Ann's is live
    assert theirs.held_by(ANN) and not theirs.held_by(BOB)
    assert re.fullmatch(r"open in Combat Desk on table-pc by ann since \d\d:\d\d", theirs.words())
    # Taking it again (a reload in Ann's window) keeps it hers, and since when.
    again = store.leases.take(encounter, ANN)
    assert again.held_by(ANN) and again.since == mine.since
    store.close()
    other.close()


def test_the_heartbeat_renews_and_a_lease_without_one_expires(db_url: str) -> None:
    store, other = Store.open(db_url), Store.open(db_url)
    encounter = _encounter(store)
    first = store.leases.take(encounter, ANN, seconds=30)
    renewed = store.leases.renew(encounter, ANN, seconds=30)
    assert renewed.expires_at >= first.expires_at and renewed.since == first.since
    # Ann's app dies: no heartbeat. A lease of no length has run out at once.
    store.leases.renew(encounter, ANN, seconds=0)
    lapsed = other.leases.current(encounter)
    assert lapsed is not None and lapsed.held_by(ANN) and not lapsed.live
    taken = other.leases.take(encounter, BOB)  # no confirmation needed: nobody plays it
    assert taken.held_by(BOB) and taken.live
    store.close()
    other.close()


def test_take_over_moves_the_lease_and_refuses_the_old_holder_in_words(db_url: str) -> None:
    store, other = Store.open(db_url), Store.open(db_url)
    encounter = _encounter(store)
    store.leases.take(encounter, ANN)
    store.commands.append(encounter, HIT, 0, ANN.instance)
    taken = other.leases.take(encounter, BOB, take_over=True)
    assert taken.held_by(BOB)
    # Ann's next command, undo, heartbeat and ending are refused, naming Bob; nothing changes.
    for refused in (
        lambda: store.commands.append(encounter, Command(HIT.name, HIT.events), 1, ANN.instance),
        lambda: store.commands.undo(encounter, 1, None, ANN.instance),
        lambda: store.leases.renew(encounter, ANN),
        lambda: store.encounters.end(encounter, ANN.instance),
    ):
        with pytest.raises(EncounterTakenOverError) as caught:
            refused()
        message = str(caught.value)
        assert "bob on laptop took this encounter over at" in message
        assert "Take Over" in message and "nothing was saved" in message
        assert ANN.instance not in message and BOB.instance not in message
    assert store.commands.last_seq(encounter) == 1 and not store.encounters.get(encounter).ended
    # Bob plays on from Ann's last command.
    assert other.commands.append(encounter, Command(HIT.name, HIT.events), 1, BOB.instance) == 2
    # Ann leaving does not free Bob's lease; Bob leaving frees it.
    store.leases.release(encounter, ANN)
    lease = store.leases.current(encounter)
    assert lease is not None and lease.held_by(BOB)
    other.leases.release(encounter, BOB)
    assert store.leases.current(encounter) is None
    store.close()
    other.close()


def test_a_session_that_was_taken_over_watches_and_catches_up(db_url: str) -> None:
    store, other = Store.open(db_url), Store.open(db_url)
    campaign = store.campaigns.create("Greyhawk")
    mine = EncounterSession.start(store, campaign.id, "Guardroom", "side-d6", {}, 7, holder=ANN)
    assert mine.holding
    theirs = EncounterSession.resume(other, other.encounters.get(mine.info.id), holder=BOB)
    assert theirs.claim().held_by(ANN) and theirs.watching
    with pytest.raises(EncounterTakenOverError, match="open in Combat Desk on table-pc by ann"):
        theirs.execute(configure("side-d6", {}, 8))  # a watching window saves nothing
    mine.execute(configure("side-d6", {}, 9))
    assert theirs.catch_up()  # the watcher sees Ann's command
    assert theirs.state.config.get("seed") == 9
    assert not theirs.catch_up()  # nothing new
    theirs.claim(take_over=True)
    assert theirs.holding
    with pytest.raises(EncounterTakenOverError, match="bob on laptop took this encounter over"):
        mine.execute(configure("side-d6", {}, 10))
    assert mine.watching and mine.lease is not None and mine.lease.held_by(BOB)
    theirs.execute(configure("side-d6", {}, 11))
    assert mine.catch_up() and mine.state.config.get("seed") == 11
    assert len(store.commands.load(mine.info.id)) == 3
    # Bob closes: Ann's window still only watches (nobody plays it) until she takes over.
    theirs.release()
    assert not mine.catch_up()
    assert mine.watching and mine.lease is not None and not mine.lease.live
    with pytest.raises(EncounterTakenOverError, match="no longer played in Combat Desk on laptop"):
        mine.execute(configure("side-d6", {}, 12))
    assert mine.claim(take_over=True).held_by(ANN)
    mine.execute(configure("side-d6", {}, 12))
    assert len(store.commands.load(mine.info.id)) == 4
    store.close()
    other.close()


def test_a_lease_goes_with_its_encounter(db_url: str) -> None:
    store = Store.open(db_url)
    campaign = store.campaigns.create("Greyhawk")
    encounter = store.encounters.create(campaign.id, "Guardroom", "side-d6").id
    store.leases.take(encounter, ANN)
    with store.unit_of_work() as s:
        s.connection().exec_driver_sql(f"DELETE FROM encounters WHERE id = {encounter}")
    assert store.leases.current(encounter) is None
    store.close()


def test_a_watcher_follows_commands_and_undos_reading_only_what_is_new(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The watching window applies the player's new commands and undos to what it has: a long
    fight is not read and replayed whole every 3 seconds. Its state matches the player's."""
    store, other = Store.open(db_url), Store.open(db_url)
    campaign = store.campaigns.create("Greyhawk")
    mine = EncounterSession.start(store, campaign.id, "Guardroom", "side-d6", {}, 7, holder=ANN)
    for seed in (8, 9, 10):
        mine.execute(configure("side-d6", {}, seed))
    theirs = EncounterSession.resume(other, other.encounters.get(mine.info.id), holder=BOB)
    theirs.claim()
    whole_reads: list[int] = []
    read_whole = other.commands.snapshot
    monkeypatch.setattr(other.commands, "snapshot",
                        lambda encounter: whole_reads.append(encounter) or read_whole(encounter))

    mine.undo()  # 10 goes
    mine.undo()  # 9 goes
    mine.execute(configure("side-d6", {}, 11))
    assert theirs.catch_up()
    assert [c.name for c in theirs.log.commands] == [c.name for c in mine.log.commands]
    assert theirs.state.config.get("seed") == 11 == mine.state.config.get("seed")
    assert whole_reads == [], "only the commands after the last one seen were read"
    mine.undo()  # 11 goes; 8 is the seed again
    assert theirs.catch_up() and theirs.state.config.get("seed") == 8
    assert len(theirs.log.commands) == len(mine.log.commands) == 2

    # A window that lost track of its commands' numbers reads the log whole, and agrees.
    theirs._live_seqs.clear()
    mine.undo()
    assert theirs.catch_up() and whole_reads == [mine.info.id]
    assert theirs.log.commands == mine.log.commands
    # After a take-over, the new player's undo takes back what it followed.
    theirs.claim(take_over=True)
    theirs.undo()
    assert theirs.log.commands == () and mine.catch_up() and mine.log.commands == ()
    store.close()
    other.close()


@pytest.mark.parametrize("skew", [3600, -3600, 45, -45])
def test_skewed_clocks_on_a_shared_file_never_decide_who_plays(tmp_path: Path, skew: int) -> None:
    """Two computers share one SQLite file; Ann's clock runs ``skew`` seconds off Bob's. Bob
    never takes Ann's live lease without Take Over, however far her clock is off; once her app
    stops, her lease runs out after the lease's length on Bob's own clock (not an hour late,
    not at once); no time Bob is shown lies in his future."""
    url = f"sqlite:///{tmp_path / 'shared.sqlite'}"
    ann, bob = Store.open(url), Store.open(url)
    ann.leases.clock = lambda: utc_now() + timedelta(seconds=skew)
    ticks = [1000.0]
    bob.leases.monotonic = lambda: ticks[0]  # Bob's own clock, moved by the test
    encounter = _encounter(ann)
    ann.leases.take(encounter, ANN)
    for _ in range(5):  # Ann plays on: her heartbeat every 10 s of Bob's time
        seen = bob.leases.take(encounter, BOB)
        assert seen.held_by(ANN) and seen.live
        ticks[0] += 10
        ann.leases.renew(encounter, ANN)
    watched = bob.leases.current(encounter)
    assert watched is not None and watched.live
    shown = re.search(r"since (\d\d:\d\d)", watched.words())
    assert (shown is not None and shown.group(1) <= datetime.now().strftime("%H:%M")) \
        or datetime.now().strftime("%H:%M") < "00:05"  # (a run across midnight)
    # Ann's app stops. 29 s on Bob's clock: still hers.
    ticks[0] += 29
    assert bob.leases.take(encounter, BOB).held_by(ANN)
    ticks[0] += 2  # 31 s since her last heartbeat, by Bob's clock
    lapsed = bob.leases.current(encounter)
    assert lapsed is not None and not lapsed.live
    assert bob.leases.take(encounter, BOB).held_by(BOB)  # no Take Over needed now
    figures.add("clock skews on a shared SQLite file: live leases taken without Take Over, "
                "of tried", 0)
    figures.add("clock skews on a shared SQLite file tried (±45 s, ±1 h)")
    ann.close()
    bob.close()


def test_a_watcher_that_has_just_arrived_takes_a_lease_as_live(tmp_path: Path) -> None:
    """A watcher that never heard a heartbeat cannot tell a stopped holder from a live one by
    times another computer wrote: it waits the lease's length on its own clock."""
    url = f"sqlite:///{tmp_path / 'shared.sqlite'}"
    ann = Store.open(url)
    ann.leases.clock = lambda: utc_now() - timedelta(hours=2)  # her lease "expired" long ago
    encounter = _encounter(ann)
    ann.leases.take(encounter, ANN)
    ann.close()  # and her app stopped
    bob = Store.open(url)
    ticks = [0.0]
    bob.leases.monotonic = lambda: ticks[0]
    assert bob.leases.take(encounter, BOB).held_by(ANN)
    ticks[0] += 30
    assert bob.leases.take(encounter, BOB).held_by(BOB)
    bob.close()
