"""Times loading and showing a 5,000-entry roster: ``python bench/bench_roster.py``.

Run by hand; prints figures and asserts nothing about them. Qt runs offscreen unless
QT_QPA_PLATFORM says otherwise.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtWidgets import QApplication

from core.roster.sample import load_sample
from core.store import Store
from desktop.roster.panel import RosterPanel

ENTRIES = 5000
RUNS = 5


def main() -> None:
    app = QApplication.instance() or QApplication([])
    _, roster, templates = load_sample()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.sqlite'}"
        store = Store.open(url)
        campaign = store.campaigns.create("Bench")
        entries = [replace(roster[i % len(roster)], name=f"Entry {i}") for i in range(ENTRIES)]
        start = time.perf_counter()
        store.roster.import_entries(campaign.id, entries)
        insert_ms = (time.perf_counter() - start) * 1000
        store.templates.add_all(campaign.id, templates)
        store.close()

        loads, shows = [], []
        panel = RosterPanel()
        panel.resize(1000, 700)
        for _ in range(RUNS):
            store = Store.open(url)
            start = time.perf_counter()
            values = store.roster.entries(campaign.id)
            tmpl = store.templates.all(campaign.id)
            loads.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            panel.set_values(values, tmpl)
            panel.show()
            app.processEvents()
            panel.grab()  # forces a paint of the visible rows
            shows.append((time.perf_counter() - start) * 1000)
            store.close()
        assert len(values) == ENTRIES
    print(f"bulk insert of {ENTRIES} entries (one transaction): {insert_ms:.0f} ms")
    print(f"load  store.roster.entries ({ENTRIES}):   median {statistics.median(loads):.0f} ms, "
          f"min {min(loads):.0f} ms over {RUNS} runs")  # fmt: skip
    print(f"display (model reset + tree shown): median {statistics.median(shows):.0f} ms, "
          f"min {min(shows):.0f} ms over {RUNS} runs")  # fmt: skip


if __name__ == "__main__":
    main()
