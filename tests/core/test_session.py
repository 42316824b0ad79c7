"""An encounter session: every command saved before it is applied; resume is exact."""

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from core.fight.encounter import commands_for_scenario
from core.fight.log import Command, Event, EventKind, LogError
from core.play.session import EncounterSession
from core.store import Store

HALVAINE = Path(__file__).resolve().parents[1] / "scenarios" / "side-d6" / "halvaine-example.json"


def _store(tmp_path: Path) -> Store:
    return Store.open(f"sqlite:///{tmp_path / 'c.sqlite'}")


def test_a_session_resumes_at_exactly_its_last_command(tmp_path: Path) -> None:
    store = _store(tmp_path)
    campaign = store.campaigns.create("Borderlands")
    document = json.loads(HALVAINE.read_text())
    session = EncounterSession.start(store, campaign.id, "Orc ambush", "side-d6")
    for command in commands_for_scenario(document)[1:]:  # the session made its own configure
        session.execute(command)
    expected = session.resolution().to_json()
    info = session.info
    store.close()
    reopened = _store(tmp_path)
    resumed = EncounterSession.resume(reopened, info)
    assert resumed.state == session.state
    assert resumed.resolution().to_json() == expected
    steps = [(s["segment"], s["actor"], s["event"]) for s in expected["steps"]]
    assert steps == [(4, "halvaine", "begins-casting"), (5, "orc-1", "misses"),
                     (6, "halvaine", "spell-takes-effect")]
    reopened.close()


def test_undo_and_redo_are_saved_too(tmp_path: Path) -> None:
    store = _store(tmp_path)
    campaign = store.campaigns.create("Borderlands")
    session = EncounterSession.start(store, campaign.id, "Fight", "popcorn")
    add = commands_for_scenario({"system": "popcorn", "combatants": [{"id": "a", "side": "party"}]})
    session.execute(add[1])
    session.undo()
    assert session.can_redo and not session.state.combatants
    session.redo()
    assert list(session.state.combatants) == ["a"]
    session.undo()
    resumed = EncounterSession.resume(store, session.info)
    assert not resumed.state.combatants  # the last saved word was the undo
    store.close()


def test_a_command_the_state_refuses_is_not_saved(tmp_path: Path) -> None:
    store = _store(tmp_path)
    campaign = store.campaigns.create("Borderlands")
    session = EncounterSession.start(store, campaign.id, "Fight", "popcorn")
    bad = Command("hurt nobody", (Event(EventKind.HP_CHANGED, {"id": "ghost", "delta": -3}),))
    with pytest.raises(LogError, match="no combatant 'ghost'"):
        session.execute(bad)
    assert len(store.commands.load(session.info.id)) == 1  # only the configuration
    store.close()


CHILD = textwrap.dedent("""
    import sys
    from core.fight.encounter import commands_for_scenario
    from core.play.session import EncounterSession
    from core.store import Store
    store = Store.open(sys.argv[1])
    campaign = store.campaigns.create("Kill test")
    session = EncounterSession.start(store, campaign.id, "Endless", "popcorn")
    print("encounter", session.info.id, flush=True)
    n = 0
    while True:
        n += 1
        doc = {"system": "popcorn", "combatants": [{"id": f"c{n}", "side": "party", "hp": n}]}
        session.execute(commands_for_scenario(doc)[1])
        print("saved", n, flush=True)
""")


def test_killing_the_app_mid_encounter_loses_no_completed_command(tmp_path: Path) -> None:
    """SIGKILL while commands stream in: every command reported saved is there on reopening."""
    url = f"sqlite:///{tmp_path / 'k.sqlite'}"
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, url], stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    assert proc.stdout is not None
    encounter_id = int(proc.stdout.readline().split()[1])
    saved = 0
    for line in proc.stdout:
        saved = int(line.split()[1])
        if saved >= 40:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    store = Store.open(url)
    commands = store.commands.load(encounter_id)
    store.close()
    added = [c for c in commands if c.events[0].kind is EventKind.COMBATANT_ADDED]
    ids = [c.events[0].data["combatant"]["id"] for c in added]
    assert len(ids) >= saved  # the one in flight may or may not have landed
    assert ids == [f"c{n}" for n in range(1, len(ids) + 1)]  # nothing partial, nothing skipped


def test_held_change_notices_arrive_once_when_the_block_ends(tmp_path: Path) -> None:
    """The app saves on a worker thread: listeners (its views) hear of the change only after,
    on the thread that held them, once however many commands the block ran."""
    store = _store(tmp_path)
    campaign = store.campaigns.create("Borderlands")
    session = EncounterSession.start(store, campaign.id, "Orc ambush", "side-d6")
    heard: list[int] = []
    session.subscribe(lambda state: heard.append(len(session.log.commands)))
    commands = commands_for_scenario(json.loads(HALVAINE.read_text()))[1:3]
    with session.changes_held():
        with session.changes_held():  # nested: only the outer end sends
            session.execute(commands[0])
        session.execute(commands[1])
        assert heard == []
    assert heard == [len(session.log.commands)]
    with session.changes_held():
        pass  # nothing changed: nothing sent
    assert len(heard) == 1
    session.undo()  # outside a block, as before: at once
    assert len(heard) == 2
    store.close()


def test_a_store_knows_about_how_long_one_call_may_wait(tmp_path: Path) -> None:
    """The progress message's "gives up after about N seconds": the SQLite busy timeout; a
    session's save may be tried twice."""
    store = Store.open(f"sqlite:///{tmp_path / 'c.sqlite'}", lock_timeout=1.5)
    campaign = store.campaigns.create("Borderlands")
    session = EncounterSession.start(store, campaign.id, "Orc ambush", "side-d6")
    assert (store.wait_limit, session.wait_limit) == (1.5, 3.0)
    store.close()


def test_a_read_only_session_watches_and_refuses_before_the_store(tmp_path: Path) -> None:
    """A player's window (``read_only``) never takes the lease nor writes, and says why."""
    from core.store import AccessDeniedError, LeaseHolder

    store = _store(tmp_path)
    campaign = store.campaigns.create("Greyhawk")
    playing = EncounterSession.start(
        store, campaign.id, "Moathouse", "popcorn", holder=LeaseHolder("a" * 32, "ann", "table-pc")
    )
    add = commands_for_scenario({"system": "popcorn", "combatants": [{"id": "a", "side": "party"}]})
    reader = EncounterSession.resume(store, playing.info, LeaseHolder("b" * 32, "bob", "laptop"))
    assert not reader.watching  # until it is told it may only read
    reader.read_only = "You are a player in 'Greyhawk': you can read it, not change it."
    assert reader.watching and not reader.holding
    stored = store.commands.last_seq(playing.info.id)
    for attempt in (
        lambda: reader.claim(take_over=True),
        lambda: reader.execute(add[1]),
        reader.end,
    ):
        with pytest.raises(AccessDeniedError, match="you can read it, not change it"):
            attempt()
    assert store.commands.last_seq(playing.info.id) == stored
    lease = store.leases.current(playing.info.id)
    assert lease is not None and lease.holder.user == "ann"  # still ann's: not taken over

    playing.execute(add[1])  # ann plays on; the reader follows, and sees who plays it
    assert reader.catch_up() and "a" in reader.state.combatants
    assert reader.lease is not None and reader.lease.holder.user == "ann"
    store.close()


def test_create_stores_the_encounter_whole_and_resumes_at_its_last_command(
    tmp_path: Path,
) -> None:
    store = _store(tmp_path)
    campaign = store.campaigns.create("Borderlands")
    document = json.loads(HALVAINE.read_text())
    adds = [c for c in commands_for_scenario(document)[1:]
            if c.events[0].kind is EventKind.COMBATANT_ADDED]
    session = EncounterSession.create(store, campaign.id, "Orc ambush", "side-d6",
                                      seed=7, commands=adds)
    resumed = EncounterSession.resume(store, session.info)
    assert resumed.state == session.state
    assert list(resumed.state.combatants) == [c.events[0].data["combatant"]["id"] for c in adds]
    assert [c.id for c in store.commands.load(session.info.id)] == [
        c.id for c in session.log.commands]
    # The next command follows the created ones, and an undo takes back the last created one
    # (the session knows their numbers).
    session.execute(commands_for_scenario(document)[len(adds) + 1])
    session.undo()
    session.undo()
    assert EncounterSession.resume(store, session.info).state.combatants.keys() == {
        c.events[0].data["combatant"]["id"] for c in adds[:-1]}
    store.close()


def test_create_refuses_a_bad_command_before_writing_anything(tmp_path: Path) -> None:
    store = _store(tmp_path)
    campaign = store.campaigns.create("Borderlands")
    bad = Command("Nothing", ())
    with pytest.raises(LogError):
        EncounterSession.create(store, campaign.id, "Fight", "popcorn", commands=[bad])
    assert store.encounters.all(campaign.id) == []
    store.close()


@pytest.mark.parametrize("asked", ["answers", "silent"])
@pytest.mark.parametrize("step", ["execute", "undo", "redo"])
def test_a_save_whose_answer_was_lost_twice_is_found_stored_before_anything_is_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str, asked: str
) -> None:
    """A phantom commit: the server stored the command (undo, redo) but died before saying so,
    and the session's own second try failed too. The session asks what was stored before it
    says anything: stored, it is shown as saved ("answers"). When the database cannot even be
    asked ("silent"), the DM is told it is not known (not "refused"), nothing is shown
    changed, and the next action (Retry, or another command) finds it out first: the action
    is shown once, saved once, and the next command is accepted (not "another window")."""
    from core.store import DatabaseUnavailableError

    store = _store(tmp_path)
    campaign = store.campaigns.create("Borderlands")
    session = EncounterSession.start(store, campaign.id, "Fight", "popcorn")
    add = commands_for_scenario({"system": "popcorn", "combatants": [
        {"id": "a", "side": "party"}, {"id": "b", "side": "monsters"}]})
    session.execute(add[1])
    if step == "redo":
        session.undo()
    writer = "undo" if step == "undo" else "append"
    real = getattr(store.commands, writer)
    calls: list[int] = []

    def lost(*args: object, **kwargs: object) -> int:
        calls.append(1)
        if len(calls) == 1:
            real(*args, **kwargs)  # stored, then the answer is lost
        raise DatabaseUnavailableError("The campaign's server does not answer.")

    def unreachable(*_args: object, **_kwargs: object) -> int:
        raise DatabaseUnavailableError("The campaign's server does not answer.")

    monkeypatch.setattr(store.commands, writer, lost)
    if asked == "silent":
        monkeypatch.setattr(store.commands, "stored", unreachable)
        monkeypatch.setattr(store.commands, "undone", unreachable)
    before = session.state
    act = (lambda: session.execute(add[2])) if step == "execute" else getattr(session, step)
    if asked == "answers":
        act()
        monkeypatch.undo()
    else:
        with pytest.raises(DatabaseUnavailableError, match="cannot tell whether") as caught:
            act()
        assert "refused" not in str(caught.value)
        assert session.state == before  # nothing shown changed while it is not known
        monkeypatch.undo()
        act()  # the DM's Retry: found stored, shown, not saved again
    assert len(calls) == 2
    stored = EncounterSession.resume(store, session.info)
    assert stored.state == session.state
    assert store.commands.last_seq(session.info.id) == {"execute": 3, "undo": 3, "redo": 4}[step]
    # The next command is accepted: the window knows what was stored.
    if step != "execute":
        session.execute(add[2])
    session.execute(commands_for_scenario({"system": "popcorn", "combatants": [
        {"id": "c", "side": "party"}]})[1])
    assert EncounterSession.resume(store, session.info).state == session.state
    store.close()


def test_after_an_unknown_outcome_another_command_finds_out_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The save's outcome could not be found out; the DM does something else next. The session
    first shows the stored command, then saves the new one after it."""
    from core.store import DatabaseUnavailableError

    store = _store(tmp_path)
    campaign = store.campaigns.create("Borderlands")
    session = EncounterSession.start(store, campaign.id, "Fight", "popcorn")
    add = commands_for_scenario({"system": "popcorn", "combatants": [
        {"id": "a", "side": "party"}, {"id": "b", "side": "monsters"}]})
    real = store.commands.append
    calls: list[int] = []

    def lost(*args: object, **kwargs: object) -> int:
        calls.append(1)
        if len(calls) == 1:
            real(*args, **kwargs)
        raise DatabaseUnavailableError("The campaign's server does not answer.")

    def unreachable(*_args: object, **_kwargs: object) -> int:
        raise DatabaseUnavailableError("The campaign's server does not answer.")

    monkeypatch.setattr(store.commands, "append", lost)
    monkeypatch.setattr(store.commands, "stored", unreachable)
    with pytest.raises(DatabaseUnavailableError, match="cannot tell whether"):
        session.execute(add[1])
    monkeypatch.undo()
    session.execute(add[2])  # not refused as "another window": a was stored, b follows it
    assert set(session.state.combatants) == {"a", "b"}
    assert EncounterSession.resume(store, session.info).state == session.state
    assert store.commands.last_seq(session.info.id) == 3  # the start, a, b: each once
    store.close()
