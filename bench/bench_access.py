"""What row-level security costs on PostgreSQL: the same store work as a superuser (exempt from
it) and as a DM's login role (every row checked against the campaigns the role may use).

Run by hand: ``.venv/bin/python bench/bench_access.py``. It uses the throwaway server of the
store tests (``tests/store/pg_server.py``; ``COMBATDESK_TEST_PG=postgresql+psycopg://…`` names
another, which must let the URL's superuser create roles). Prints medians of 5 runs; asserts
nothing.
"""

from __future__ import annotations

import statistics
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import psycopg

from core.fight.log import Command, Event, EventKind
from core.roster.entries import RosterEntry
from core.store import Store
from tests.store import pg_server

RUNS = 5
APPENDS = 200
ENTRIES = 5000


def _work(store: Store, label: str) -> dict[str, float]:
    campaign = store.campaigns.create(f"{label} {uuid.uuid4().hex[:8]}")
    fight = store.encounters.create(campaign.id, "Moathouse", "side-d6")
    appends = []
    for _ in range(APPENDS):
        hit = Command("Orc hits", (Event(EventKind.HP_CHANGED, {"id": "orc", "delta": -1}),))
        start = time.perf_counter()
        store.commands.append(fight.id, hit)
        appends.append(time.perf_counter() - start)

    def timed(step: Callable[[], object]) -> float:
        start = time.perf_counter()
        step()
        return time.perf_counter() - start

    entries = [RosterEntry(name=f"Levy {i}") for i in range(ENTRIES)]
    return {
        "append one command (ms)": statistics.median(appends) * 1e3,
        f"import {ENTRIES:,} entries (ms)": timed(
            lambda: store.roster.import_entries(campaign.id, entries)
        )
        * 1e3,
        f"read a {ENTRIES:,}-entry roster (ms)": timed(
            lambda: store.roster.entries(campaign.id)) * 1e3,
        f"load {APPENDS} commands (ms)": timed(lambda: store.commands.load(fight.id)) * 1e3,
    }


def main() -> None:
    srv = pg_server.server()
    if srv.url is None:
        print(f"no PostgreSQL: {srv.why}")
        return
    url = pg_server.new_database()
    tag = uuid.uuid4().hex[:6]
    group, dm = f"bench_dms_{tag}", f"bench_dm_{tag}"
    admin = Store.open(url)
    admin.access.setup(group)
    with psycopg.connect(srv.url.replace("+psycopg", "", 1), autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {dm} LOGIN IN ROLE {group}")
    player = Store.open(url.replace("postgres@", f"{dm}@", 1))
    runs: dict[str, list[dict[str, float]]] = {"superuser": [], "DM role": []}
    try:
        for _ in range(RUNS):
            runs["superuser"].append(_work(admin, "admin"))
            runs["DM role"].append(_work(player, "dm"))
    finally:
        player.close()
        admin.close()
        pg_server.drop_database(url)
        with psycopg.connect(srv.url.replace("+psycopg", "", 1), autocommit=True) as conn:
            conn.execute(f"DROP ROLE {dm}")
            conn.execute(f"DROP ROLE {group}")
    print(f"row-level security cost, median of {RUNS} ({srv.why})")
    print(f"{'work':<32} {'superuser':>10} {'DM role':>10} {'ratio':>6}")
    for key in runs["superuser"][0]:
        free = statistics.median(r[key] for r in runs["superuser"])
        checked = statistics.median(r[key] for r in runs["DM role"])
        print(f"{key:<32} {free:>10.1f} {checked:>10.1f} {checked / free:>5.2f}×")


if __name__ == "__main__":
    main()
