"""Commands are stored exactly once, and a window never builds on or undoes what it has not seen.

Runs on SQLite and PostgreSQL (``db_url``). The server-died-at-commit case is the retry: the
first save reached the database but the app was told it failed, so it saves the same command
(same id) again.
"""

from __future__ import annotations

import pytest

from core.fight.encounter import configure
from core.fight.log import Command, Event, EventKind
from core.play.session import EncounterSession
from core.store import EncounterMovedOnError, Store, StoreError

HIT = Command("Orc 1 hits Brannoc", (Event(EventKind.HP_CHANGED, {"id": "orc-1", "delta": -3}),))


def test_a_command_saved_twice_is_stored_once(db_url: str) -> None:
    store = Store.open(db_url)
    campaign = store.campaigns.create("Greyhawk")
    encounter = store.encounters.create(campaign.id, "Guardroom", "side-d6")
    first = store.commands.append(encounter.id, HIT)
    again = store.commands.append(encounter.id, HIT)  # the retry after an unknown outcome
    assert again == first
    assert store.commands.load(encounter.id) == [HIT]
    other = Command(HIT.name, HIT.events)  # the same words, a new command: stored
    assert store.commands.append(encounter.id, other) == first + 1
    assert len(store.commands.load(encounter.id)) == 2
    store.close()


def test_a_retried_save_after_a_lost_answer_is_not_doubled(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The store commits, then the answer is lost: the session retries and stores nothing new."""
    store = Store.open(db_url)
    campaign = store.campaigns.create("Greyhawk")
    session = EncounterSession.start(store, campaign.id, "Guardroom", "side-d6")
    real = store.commands.append
    calls = []

    def commit_then_fail(encounter_id: int, command: Command, after: int | None = None,
                         holder: str | None = None) -> int:
        calls.append(command.id)
        seq = real(encounter_id, command, after, holder)
        if len(calls) == 1:
            raise StoreError("the server closed the connection unexpectedly")
        return seq

    monkeypatch.setattr(store.commands, "append", commit_then_fail)
    session.execute(configure("side-d6", {}, 7))
    assert calls[0] == calls[1]  # the retry carried the same id
    monkeypatch.setattr(store.commands, "append", real)
    assert len(store.commands.load(session.info.id)) == 2  # configure at start + this one
    store.close()


def test_a_stale_window_cannot_append_or_undo_over_another(db_url: str) -> None:
    store = Store.open(db_url)
    campaign = store.campaigns.create("Greyhawk")
    mine = EncounterSession.start(store, campaign.id, "Guardroom", "side-d6")
    theirs = EncounterSession.resume(Store.open(db_url), mine.info)
    theirs.execute(configure("side-d6", {"surprised_on": 3}, 1))  # the other DM moves on
    stored = store.commands.load(mine.info.id)
    with pytest.raises(EncounterMovedOnError, match="Another Combat Desk window"):
        mine.execute(configure("side-d6", {}, 2))
    with pytest.raises(EncounterMovedOnError):
        mine.undo()  # would take back the other DM's command
    assert store.commands.load(mine.info.id) == stored  # nothing changed
    assert len(mine.log.commands) == 1  # and nothing in this window either
    # Their own undo is theirs to make; reopening brings the first window up to date.
    theirs.undo()
    fresh = EncounterSession.resume(store, mine.info)
    fresh.execute(configure("side-d6", {}, 2))
    assert len(store.commands.load(mine.info.id)) == 2
    store.close()


def test_a_used_id_with_another_body_is_refused_in_words(db_url: str) -> None:
    """A command id names one command: a replay carrying a used id with other contents (other
    damage, another name, other events) is refused in words and nothing is stored; an undo
    carrying a command's id (or a command carrying an undo's) too. The same command again is
    still found stored (the retry after a lost answer)."""
    from dataclasses import replace

    from core.store import CommandIdError

    store = Store.open(db_url)
    campaign = store.campaigns.create("Greyhawk")
    encounter = store.encounters.create(campaign.id, "Guardroom", "side-d6").id
    assert store.commands.append(encounter, HIT) == 1
    more_damage = replace(HIT, events=(Event(EventKind.HP_CHANGED,
                                             {"id": "orc-1", "delta": -9}),))
    renamed = replace(HIT, name="Orc 1 misses")
    longer = replace(HIT, events=(*HIT.events, *HIT.events))
    refused = 0
    for replay in (more_damage, renamed, longer):
        with pytest.raises(CommandIdError, match="was already used for 'Orc 1 hits Brannoc'") \
                as caught:
            store.commands.append(encounter, replay)
        assert HIT.id not in str(caught.value)  # no ids in words for the DM
        refused += 1
    with pytest.raises(CommandIdError, match="id of an undo was already used"):
        store.commands.undo(encounter, command_id=HIT.id)
    undo = store.commands.undo(encounter, command_id="u" * 32)
    with pytest.raises(CommandIdError, match="already used for 'Undo'"):
        store.commands.append(encounter, replace(HIT, id="u" * 32))
    assert store.commands.append(encounter, HIT) == 1  # the very same command: found, once
    assert store.commands.undo(encounter, command_id="u" * 32) == undo  # a retried undo too
    assert store.commands.last_seq(encounter) == 2
    assert store.commands.load(encounter) == []
    from tests.reliability import figures

    figures.add("replayed command ids with another body refused", refused + 2)
    store.close()


@pytest.mark.parametrize("bad", ["", "x" * 10_000, "a\x00b", "é" * 4, "a b", "x" * 33])
def test_a_command_id_of_another_shape_is_refused_in_words(db_url: str, bad: str) -> None:
    """A command id is 1 to 32 ASCII letters, digits, '-' or '_' (docs/reliability.md)."""
    from dataclasses import replace

    from core.store import CommandIdError

    store = Store.open(db_url)
    campaign = store.campaigns.create("Greyhawk")
    encounter = store.encounters.create(campaign.id, "Guardroom", "side-d6").id
    with pytest.raises(CommandIdError, match="1 to 32 letters, digits") as caught:
        store.commands.append(encounter, replace(HIT, id=bad))
    assert bad not in str(caught.value) or not bad
    with pytest.raises(CommandIdError, match="1 to 32 letters, digits"):
        store.commands.undo(encounter, command_id=bad)
    assert store.commands.last_seq(encounter) == 0
    store.close()
