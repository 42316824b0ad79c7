"""Times the campaign store against raw sqlite3 doing the same work.

Run by hand: ``.venv/bin/python bench/bench_store.py`` (``make bench`` runs it too).

Both sides use the store's durability setting (WAL + synchronous=FULL: a saved command survives
a power loss) on a fresh file in the same run; the raw append is also timed with NORMAL, which
the store used before, to show what that guarantee costs. Appending one encounter command: the
store's ``append_command`` against a raw
``SELECT max(command_seq)`` + ``INSERT`` + ``COMMIT``. Saving a 5,000-entry roster: the store's
``import_entries`` (one transaction, logged) against one ``executemany`` + ``COMMIT``. Prints
the medians, the ratios and the targets (2× and 8×); asserts nothing.
"""

from __future__ import annotations

import gc
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.fight.log import Command, Event, EventKind
from core.roster.sample import load_sample
from core.store import LeaseHolder, Store
from core.store.mapping import character_values

APPENDS = 2000
ENTRIES = 5000
RUNS = 5
COMMAND = Command("Hit", (Event(EventKind.HP_CHANGED, {"id": "orc-1", "delta": -3}),))


def best_of(runs: int, work: Callable[[int], float]) -> float:
    """Median of ``runs`` timings (seconds); garbage collection paused while timing."""
    gc.disable()
    try:
        return statistics.median(work(run) for run in range(runs))
    finally:
        gc.enable()


def raw_connection(path: Path, synchronous: str = "FULL") -> sqlite3.Connection:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute(f"PRAGMA synchronous={synchronous}")
    conn.execute("PRAGMA foreign_keys=ON")
    return conn


def append_store(folder: Path, leased: bool = False) -> Callable[[int], float]:
    """``leased``: as the desktop appends, after the last command seen and checking the lease."""
    store = Store.open(f"sqlite:///{folder / f'store-append-{leased}.sqlite'}")
    campaign = store.campaigns.create("Bench")
    holder = LeaseHolder.here()

    def run(n: int) -> float:
        encounter = store.encounters.create(campaign.id, f"Fight {n}", "side-d6")
        commands = [Command(COMMAND.name, COMMAND.events) for _ in range(APPENDS)]  # new ids
        if leased:
            store.leases.take(encounter.id, holder)
        start = time.perf_counter()
        if leased:
            seen = 0
            for command in commands:
                seen = store.commands.append(encounter.id, command, seen, holder.instance)
        else:
            for command in commands:
                store.commands.append(encounter.id, command)
        return (time.perf_counter() - start) / APPENDS

    return run


def append_raw(folder: Path, synchronous: str = "FULL") -> Callable[[int], float]:
    path = folder / f"raw-append-{synchronous}.sqlite"
    Store.open(f"sqlite:///{path}").close()  # the same schema and indexes
    conn = raw_connection(path, synchronous)
    conn.execute("INSERT INTO campaigns (name, created_at) VALUES ('Bench', '2026-01-01')")
    conn.commit()
    payload = {"id": "orc-1", "delta": -3}

    def run(n: int) -> float:
        cur = conn.execute(
            "INSERT INTO encounters (campaign_id, name, system, options, status, created_at) "
            "VALUES (1, ?, 'side-d6', '{}', 'active', '2026-01-01')",
            (f"Fight {n}",),
        )
        encounter = cur.lastrowid
        conn.commit()
        start = time.perf_counter()
        for _ in range(APPENDS):
            (last,) = conn.execute(
                "SELECT max(command_seq) FROM encounter_events WHERE encounter_id = ?",
                (encounter,),
            ).fetchone()
            conn.execute(
                "INSERT INTO encounter_events (encounter_id, command_seq, event_index, "
                "command_name, kind, payload, created_at) VALUES (?, ?, 0, 'Hit', ?, ?, ?)",
                (encounter, (last or 0) + 1, "hp-changed", json.dumps(payload),
                 datetime.now(UTC).isoformat(" ")),
            )  # fmt: skip
            conn.commit()
        return (time.perf_counter() - start) / APPENDS

    return run


def roster() -> list:  # type: ignore[type-arg]
    _, sample, _ = load_sample()
    return [replace(sample[i % len(sample)], name=f"Entry {i}") for i in range(ENTRIES)]


def save_store(folder: Path) -> Callable[[int], float]:
    store = Store.open(f"sqlite:///{folder / 'store-roster.sqlite'}")
    entries = roster()

    def run(n: int) -> float:
        campaign = store.campaigns.create(f"Bench {n}")
        start = time.perf_counter()
        store.roster.import_entries(campaign.id, entries)
        return time.perf_counter() - start

    return run


def save_raw(folder: Path) -> Callable[[int], float]:
    path = folder / "raw-roster.sqlite"
    Store.open(f"sqlite:///{path}").close()
    conn = raw_connection(path)
    values = [character_values(e) for e in roster()]
    columns = list(values[0])
    sql = (
        f"INSERT INTO characters (campaign_id, version, updated_at, {', '.join(columns)}) "
        f"VALUES (?, 1, ?, {', '.join('?' for _ in columns)})"
    )

    def run(n: int) -> float:
        cur = conn.execute(
            "INSERT INTO campaigns (name, created_at) VALUES (?, '2026-01-01')", (f"Bench {n}",)
        )
        campaign = cur.lastrowid
        conn.commit()
        start = time.perf_counter()
        now = datetime.now(UTC).isoformat(" ")
        conn.executemany(
            sql,
            (
                (campaign, now, *(json.dumps(v) if isinstance(v, list) else v
                                  for v in row.values()))
                for row in values
            ),
        )  # fmt: skip
        conn.commit()
        return time.perf_counter() - start

    return run


def main() -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        store_append = best_of(RUNS, append_store(folder))
        leased_append = best_of(RUNS, append_store(folder, leased=True))
        raw_append = best_of(RUNS, append_raw(folder))
        raw_append_normal = best_of(RUNS, append_raw(folder, "NORMAL"))
        store_save = best_of(RUNS, save_store(folder))
        raw_save = best_of(RUNS, save_raw(folder))
    print("campaign store vs raw sqlite3 (WAL, synchronous=FULL), median of", RUNS, "runs")
    print(
        f"append one command:  store {store_append * 1e6:7.1f} µs   raw {raw_append * 1e6:7.1f} µs"
        f"   ratio {store_append / raw_append:4.2f}× (target ≤ 2×)"
    )
    print(
        f"  as the desktop:    store {leased_append * 1e6:7.1f} µs (after the last command "
        f"seen, lease checked)   ratio {leased_append / raw_append:4.2f}×"
    )
    print(
        f"durability cost:     raw FULL {raw_append * 1e6:7.1f} µs   NORMAL "
        f"{raw_append_normal * 1e6:7.1f} µs   FULL/NORMAL {raw_append / raw_append_normal:4.2f}×"
    )
    print(
        f"save {ENTRIES:,} entries:  store {store_save * 1e3:7.1f} ms   "
        f"raw {raw_save * 1e3:7.1f} ms   ratio {store_save / raw_save:4.2f}× (target ≤ 8×)"
    )


if __name__ == "__main__":
    main()
