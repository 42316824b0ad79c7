"""Times the damage checks run when a campaign file opens: ``python bench/bench_open_checks.py``.

Run by hand; prints figures and asserts nothing. The campaign is large: 5,000 roster entries,
2,000 ended and 200 open encounters (configuration, three combatants, three rounds of
declarations each). Figures, median of 5:

- the seal (one read of the file, blake2b) — what a start after a clean close costs;
- SQLite's quick_check (every start) and integrity_check (starts without a valid seal);
- reading everything and replaying the open encounters (starts without a valid seal);
- recomputing every record's row check (starts without a valid seal; schema 0007);
- Store.open end to end, sealed and unsealed.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.fight.encounter import add_entry, commands_for_scenario, start_round
from core.fight.log import EventKind
from core.play.session import EncounterSession
from core.roster.entries import RosterEntry
from core.store import Store, health, row_checks
from core.store.opening import inspect_sqlite_file

ENTRIES, ENDED, OPEN, RUNS = 5000, 2000, 200, 5
FIGHT = {"system": "side-d6", "combatants": [
    {"id": "brannoc", "name": "Brannoc", "side": "party", "hp": 24},
    {"id": "orc-1", "name": "Orc 1", "side": "monsters", "hp": 6},
    {"id": "orc-2", "name": "Orc 2", "side": "monsters", "hp": 5}]}  # fmt: skip


def build(path: Path) -> None:
    store = Store.open(f"sqlite:///{path}")
    campaign = store.campaigns.create("Greyhawk")
    store.roster.import_entries(campaign.id, [
        RosterEntry(name=f"Levy {i}", hp=5, max_hp=8, notes="carries a spear " * 4)
        for i in range(ENTRIES)])  # fmt: skip
    adds = [c for c in commands_for_scenario(FIGHT)
            if c.events[0].kind is EventKind.COMBATANT_ADDED]  # fmt: skip
    for n in range(ENDED + OPEN):
        session = EncounterSession.start(store, campaign.id, f"Fight {n}", "side-d6")
        for command in adds:
            session.execute(command)
        for round_no in (1, 2, 3):
            session.execute(start_round(round_no))
            session.execute(add_entry("declarations", {
                "actor": "brannoc", "action": "G", "target": "orc-1"}))  # fmt: skip
        if n < ENDED:
            session.end()
    store.close()


def median_ms(work: Callable[[], object]) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def unsealed_open(path: Path) -> None:
    # A crash leaves the file without a seal; Store.close would seal it again.
    data = bytearray(path.read_bytes())
    data[60:64] = bytes(4)
    path.write_bytes(bytes(data))
    start = time.perf_counter()
    store = Store.open(f"sqlite:///{path}")
    unsealed_times.append(time.perf_counter() - start)
    assert not store.damage, store.damage
    store.close()


unsealed_times: list[float] = []


def main() -> None:
    with tempfile.TemporaryDirectory() as name:
        path = Path(name) / "big.sqlite"
        began = time.perf_counter()
        build(path)
        size = path.stat().st_size
        print(f"campaign: {ENTRIES:,} entries, {ENDED:,} ended + {OPEN} open encounters, "
              f"{size / 1e6:.1f} MB (built in {time.perf_counter() - began:.0f} s)")  # fmt: skip
        assert health.seal_of(path) == health.file_digest(path)
        store = Store.open(f"sqlite:///{path}")
        figures = {
            "seal (digest of the file)": median_ms(lambda: health.file_digest(path)),
            "inspection incl. quick_check": median_ms(lambda: inspect_sqlite_file(path)),
            "integrity_check + foreign keys": median_ms(
                lambda: health.structural_problems(path)),
            "read everything, replay open encounters": median_ms(
                lambda: health.content_problems(store)),
            "row checks of every record": median_ms(lambda: row_checks.stored_problems(path)),
        }  # fmt: skip
        store.close()

        sealed_times, close_times = [], []
        for _ in range(RUNS):
            start = time.perf_counter()
            opened = Store.open(f"sqlite:///{path}")
            sealed_times.append(time.perf_counter() - start)
            assert not opened.damage
            start = time.perf_counter()
            opened.close()  # seals it again for the next run
            close_times.append(time.perf_counter() - start)
        for _ in range(RUNS):
            unsealed_open(path)
        figures["Store.open, sealed (after a clean close)"] = statistics.median(sealed_times) * 1e3
        figures["Store.close, sealing"] = statistics.median(close_times) * 1e3
        figures["Store.open, unsealed (after a crash)"] = statistics.median(unsealed_times) * 1e3
        for what, ms in figures.items():
            print(f"{what:45} {ms:9.1f} ms")


if __name__ == "__main__":
    main()
