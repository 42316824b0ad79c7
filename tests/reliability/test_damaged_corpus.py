"""A corpus of damaged campaign files: each is refused untouched, or opens with the damage
named, or opens showing exactly what the undamaged file holds. Never silently different.

The damage is deterministic (fixed seeds): bit flips, cut-off files, zeroed pages and scribbled
runs at many offsets of a real campaign file (roster, templates, session log, played
encounters), plus hand-made damage that SQLite cannot see — a roster value edited to nonsense,
a command deleted from the middle of a log, half of a command gone, a log that no longer
replays. ``COMBATDESK_DAMAGE_SEED`` replays another corpus.
"""

from __future__ import annotations

import functools
import hashlib
import os
import random
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from core.fight.encounter import add_entry, commands_for_scenario, start_round
from core.fight.log import Command, Event, EventKind
from core.play.session import EncounterSession
from core.roster.entries import MonsterTemplate, RosterEntry
from core.store import CorruptDatabaseError, Store, StoreError, health
from tests.reliability import figures

SEED = int(os.environ.get("COMBATDESK_DAMAGE_SEED", "1616"))
FIGHT = {
    "system": "side-d6",
    "combatants": [
        {"id": "brannoc", "name": "Brannoc", "side": "party", "hp": 24},
        {"id": "orc-1", "name": "Orc 1", "side": "monsters", "hp": 6},
        {"id": "orc-2", "name": "Orc 2", "side": "monsters", "hp": 5},
    ],
}
PAGE = 4096


@functools.cache
def campaign_bytes(sealed: bool) -> bytes:
    """A real campaign file, closed by Combat Desk (sealed) or left as after a crash."""
    path = Path(tempfile.mkdtemp()) / "campaign.sqlite"
    store = Store.open(f"sqlite:///{path}")
    campaign = store.campaigns.create("Greyhawk")
    store.roster.import_entries(
        campaign.id,
        [
            RosterEntry(
                name=f"Levy {i}",
                hp=3 + i % 5,
                max_hp=8,
                ac=7,
                level=1 + i % 3,
                notes="carries a spear and a grudge " * (1 + i % 4),
            )
            for i in range(60)
        ],
    )
    store.templates.add_all(
        campaign.id,
        [
            MonsterTemplate(name=f"Orc {kind}", hit_dice="1d8", ac=6, notes="smells")
            for kind in ("guard", "chief", "archer")
        ],
    )
    for n in range(4):
        session = EncounterSession.start(store, campaign.id, f"Fight at the ford {n}", "side-d6")
        for command in commands_for_scenario(FIGHT)[1:]:
            session.execute(command)
        for round_no in (1, 2, 3):
            session.execute(start_round(round_no))
            session.execute(
                add_entry("declarations", {"actor": "brannoc", "action": "G", "target": "orc-1"})
            )
        session.execute(
            Command(
                "Fireball",
                tuple(
                    Event(EventKind.HP_CHANGED, {"id": orc, "delta": -1})
                    for orc in ("orc-1", "orc-2")
                ),
            )
        )
        if n % 2:
            session.end()
    store.close()
    data = path.read_bytes()
    if not sealed:
        data = data[:60] + bytes(4) + data[64:]  # as a crashed session leaves it: no seal
    assert (health.seal_of(path) != 0) == sealed or not sealed
    return data


def snapshot(store: Store) -> list[Any]:
    """Everything the app shows of a campaign file."""
    out: list[Any] = []
    for campaign in store.campaigns.all():
        out.append(campaign)
        out.append(store.roster.entries(campaign.id))
        out.append(store.templates.all(campaign.id))
        out.append([(e.summary, e.details) for e in store.roster.session_log(campaign.id)])
        for info in store.encounters.all(campaign.id):
            out.append((info, store.commands.load(info.id), store.commands.last_seq(info.id)))
    return out


@functools.cache
def original(sealed: bool) -> list[Any]:
    path = Path(tempfile.mkdtemp()) / "campaign.sqlite"
    path.write_bytes(campaign_bytes(sealed))
    store = Store.open(f"sqlite:///{path}")
    assert not store.damage
    try:
        return snapshot(store)
    finally:
        store.close()


def variants(data: bytes, seed: int) -> Iterator[tuple[str, bytes]]:
    """About 260 damaged copies of ``data``, the same ones for the same seed."""
    rnd = random.Random(seed)
    size = len(data)
    for _ in range(150):
        at, bit = rnd.randrange(size), rnd.randrange(8)
        damaged = bytearray(data)
        damaged[at] ^= 1 << bit
        yield f"bit {bit} flipped at {at}", bytes(damaged)
    for _ in range(30):
        cut = rnd.choice([rnd.randrange(size), rnd.randrange(size // PAGE) * PAGE])
        yield f"cut to {cut} bytes", data[:cut]
    for page in rnd.sample(range(size // PAGE), min(40, size // PAGE)):
        yield (
            f"page {page + 1} zeroed",
            data[: page * PAGE] + bytes(PAGE) + data[(page + 1) * PAGE :],
        )
    for _ in range(40):
        at, length = rnd.randrange(size), rnd.randint(1, 64)
        junk = rnd.randbytes(length)[: size - at]
        yield f"{length} bytes scribbled at {at}", data[:at] + junk + data[at + len(junk) :]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def assert_words(message: str) -> None:
    """A message for the DM: no traceback, no exception class, not empty."""
    assert message.strip()
    assert "Traceback" not in message and "Error(" not in message and "\n  File " not in message


def try_open(data: bytes, folder: Path) -> tuple[str, Store | None]:
    """Opens a damaged copy: ("refused" | "reported" | "clean", store)."""
    path = folder / "campaign.sqlite"
    for leftover in folder.iterdir():
        leftover.unlink()
    path.write_bytes(data)
    before = digest(path)
    try:
        store = Store.open(f"sqlite:///{path}")
    except StoreError as exc:
        assert_words(str(exc))
        assert digest(path) == before, "a refused file was changed"
        return "refused", None
    if store.damage:
        for line in store.damage:
            assert_words(line)
        return "reported", store
    return "clean", store


@pytest.mark.slow
def test_damaged_copies_of_a_cleanly_closed_campaign_are_never_silently_different(
    tmp_path: Path,
) -> None:
    data, want = campaign_bytes(True), original(True)
    outcomes: dict[str, int] = {}
    different = []
    for what, damaged in variants(data, SEED):
        outcome, store = try_open(damaged, tmp_path)
        if store is not None:
            try:
                if outcome == "clean" and snapshot(store) != want:
                    different.append(what)  # a file cut to nothing too, unless it is named
            finally:
                store.close()
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    assert not different, f"opened silently different: {different}"
    assert sum(outcomes.values()) >= 240
    for outcome, count in outcomes.items():
        figures.add(f"damage corpus, sealed file: {outcome}", count)


@pytest.mark.slow
def test_damaged_copies_of_a_crashed_session_file_are_never_silently_different(
    tmp_path: Path,
) -> None:
    """Without a seal, a flipped letter inside a note passes SQLite's checks and the app's:
    the row checks (schema 0007) name the record instead."""
    data, want = campaign_bytes(False), original(False)
    different = []
    tried = 0
    for what, damaged in variants(data, SEED + 1):
        tried += 1
        outcome, store = try_open(damaged, tmp_path)
        if store is not None:
            try:
                if outcome == "clean" and snapshot(store) != want:
                    different.append(what)
                    outcome = "silently different"
            except StoreError as exc:  # a clear message on reading, never anything else
                assert_words(str(exc))
                outcome = "damage reported on reading"
            finally:
                store.close()
        figures.add(f"damage corpus, unsealed file: {outcome}")
    assert not different, f"opened silently different: {different}"
    assert tried >= 240


def _edit(sql: str, *args: Any) -> Callable[[sqlite3.Connection], None]:
    return lambda conn: conn.execute(sql, args)


def _drop_middle_command(conn: sqlite3.Connection) -> None:
    encounter = conn.execute("SELECT min(encounter_id) FROM encounter_events").fetchone()[0]
    conn.execute(
        "DELETE FROM encounter_events WHERE encounter_id = ? AND command_seq = 4", (encounter,)
    )


SEMANTIC: dict[str, tuple[Callable[[sqlite3.Connection], None], str]] = {
    "hit points written as text": (
        _edit("UPDATE characters SET hp = 'lots' WHERE name = 'Levy 7'"),
        "roster",
    ),
    "a kind of character that does not exist": (
        _edit("UPDATE characters SET kind = 'wizard' WHERE name = 'Levy 8'"),
        "roster",
    ),
    "armour class out of every range": (
        _edit("UPDATE characters SET ac = 9999 WHERE name = 'Levy 9'"),
        "Levy 9",
    ),
    "a template's hit dice made nonsense": (
        _edit("UPDATE monster_templates SET hit_dice = 'many' WHERE name = 'Orc chief'"),
        "Orc chief",
    ),
    "a command deleted from the middle of a log": (_drop_middle_command, "commands missing"),
    "half of a command deleted": (
        _edit("DELETE FROM encounter_events WHERE command_name = 'Fireball' AND event_index = 0"),
        "incomplete",
    ),
    "an event payload that is not JSON": (
        _edit("UPDATE encounter_events SET payload = '{\"oops' WHERE command_seq = 3"),
        "cannot be read",
    ),
    "an event's data made a list": (
        _edit("UPDATE encounter_events SET payload = '[1, 2]' WHERE command_seq = 2"),
        "cannot be read",
    ),
    "a round that goes backwards": (
        _edit(
            "UPDATE encounter_events SET payload = json_set(payload, '$.round', 1) "
            "WHERE kind = 'round-started' AND json_extract(payload, '$.round') = 3"
        ),
        "Fight at the ford",
    ),
    "an encounter's options edited to nonsense": (
        _edit("UPDATE encounters SET options = 'not json' WHERE name LIKE '%ford 2'"),
        "cannot be read",
    ),
}


@pytest.mark.parametrize("sealed", [True, False], ids=["sealed", "unsealed"])
@pytest.mark.parametrize("damage", list(SEMANTIC))
def test_semantic_damage_is_named_when_the_campaign_opens(
    tmp_path: Path, damage: str, sealed: bool
) -> None:
    edit, named = SEMANTIC[damage]
    path = tmp_path / "campaign.sqlite"
    path.write_bytes(campaign_bytes(sealed))
    conn = sqlite3.connect(path, isolation_level=None)  # another program, SQLite-correct
    edit(conn)
    assert conn.total_changes, "the damage must change something"
    conn.close()
    before = digest(path)
    try:
        store = Store.open(f"sqlite:///{path}")
    except CorruptDatabaseError as exc:  # refused is fine too, if untouched
        assert_words(str(exc))
        assert digest(path) == before
        return
    try:
        assert store.damage, f"{damage}: opened without naming the damage"
        report = " ".join(store.damage)
        assert_words(report)
        assert named in report
        assert "changed after Combat Desk last closed it" in report if sealed else True
    finally:
        store.close()
    again = Store.open(f"sqlite:///{path}")  # not sealed over: named again at the next start
    try:
        assert again.damage and named in " ".join(again.damage)
    finally:
        again.close()
    figures.add("damage corpus: hand-made damage named")


def test_a_cleanly_closed_campaign_opens_by_its_seal_and_reports_nothing(tmp_path: Path) -> None:
    path = tmp_path / "campaign.sqlite"
    path.write_bytes(campaign_bytes(True))
    assert health.seal_of(path) == health.file_digest(path)
    store = Store.open(f"sqlite:///{path}")
    assert not store.damage
    assert health.seal_of(path) == 0  # open: its bytes may change from here
    second = Store.open(f"sqlite:///{path}")
    store.close()
    assert health.seal_of(path) == 0  # another Combat Desk still has it: not sealed under it
    second.close()
    assert health.seal_of(path) == health.file_digest(path)


def test_a_backup_carries_its_own_seal(tmp_path: Path) -> None:
    path = tmp_path / "campaign.sqlite"
    path.write_bytes(campaign_bytes(True))
    store = Store.open(f"sqlite:///{path}")
    store.roster.add(store.campaigns.all()[0].id, replace(RosterEntry(name="Wat"), hp=2))
    copy = store.backup(tmp_path / "copy.sqlite")
    store.close()
    assert health.seal_of(copy) == health.file_digest(copy) != 0
    reopened = Store.open(f"sqlite:///{copy}")
    assert not reopened.damage
    reopened.close()


def test_a_campaign_file_cut_to_nothing_is_named_not_taken_for_a_new_one(tmp_path: Path) -> None:
    """SQLite opens an empty file as a new database; the DM is told, with where backups are."""
    path = tmp_path / "campaign.sqlite"
    path.write_bytes(b"")
    store = Store.open(f"sqlite:///{path}")
    try:
        assert store.campaigns.all() == []
        (line,) = store.damage
        assert "was an empty file (0 bytes)" in line and "Restore backup" in line
        assert_words(line)
    finally:
        store.close()
    again = Store.open(f"sqlite:///{path}")  # a campaign file now: nothing more to say
    try:
        assert again.damage == ()
    finally:
        again.close()
