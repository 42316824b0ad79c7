"""Times opening the main window on a campaign with 2,000 ended and 200 open encounters
against the same campaign with none: ``python bench/bench_many_encounters.py``.

Run by hand; prints figures and asserts nothing. Qt runs offscreen unless QT_QPA_PLATFORM
says otherwise. Target (issue 16): within 1.2× of the empty campaign. Each open encounter
holds a configuration, two combatants and a declaration; only the newest open one is read
at start, the others when their tab is first shown.
"""

from __future__ import annotations

import gc
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from core.fight.encounter import add_entry, commands_for_scenario, start_round
from core.fight.log import EventKind
from core.play.session import EncounterSession
from core.roster.sample import load_sample
from core.store import Store
from desktop.main_window import MainWindow

ENDED, OPEN, RUNS = 2000, 200, 7
FIGHT = {"system": "side-d6", "combatants": [
    {"id": "brannoc", "name": "Brannoc", "side": "party", "hp": 24},
    {"id": "orc-1", "name": "Orc 1", "side": "monsters", "hp": 6}]}


def campaign_file(folder: Path, name: str, ended: int, opened: int) -> Path:
    path = folder / f"{name}.sqlite"
    store = Store.open(f"sqlite:///{path}")
    campaign_name, roster, _templates = load_sample()
    campaign = store.campaigns.create(campaign_name)
    store.roster.add_all(campaign.id, roster)
    adds = [c for c in commands_for_scenario(FIGHT)
            if c.events[0].kind is EventKind.COMBATANT_ADDED]
    for n in range(ended + opened):
        session = EncounterSession.start(store, campaign.id, f"Fight {n}", "side-d6")
        for command in adds:
            session.execute(command)
        session.execute(start_round(1))
        session.execute(add_entry("declarations", {"actor": "brannoc", "action": "G",
                                                   "target": "orc-1"}))
        if n < ended:
            session.end()
    store.close()
    return path


def time_window(path: Path, folder: Path) -> float:
    """Seconds from opening the store to the window shown with its encounter tabs."""
    gc.collect()
    start = time.perf_counter()
    store = Store.open(f"sqlite:///{path}")
    window = MainWindow(store, QSettings(str(folder / "s.ini"), QSettings.Format.IniFormat))
    window.show()
    QApplication.processEvents()
    elapsed = time.perf_counter() - start
    window.close()
    window.deleteLater()
    QApplication.processEvents()
    store.close()
    return elapsed


def main() -> None:
    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        build = time.perf_counter()
        many = campaign_file(folder, "many", ENDED, OPEN)
        empty = campaign_file(folder, "empty", 0, 1)  # one open fight: the same work shown
        bare = campaign_file(folder, "bare", 0, 0)  # no fight at all: no board to build
        built = time.perf_counter() - build
        time_window(empty, folder)  # warm up imports (pyqtgraph comes with the first tab)
        pairs = [(time_window(empty, folder), time_window(many, folder)) for _ in range(RUNS)]
        nothing = statistics.median(time_window(bare, folder) for _ in range(RUNS))
    base = statistics.median(p[0] for p in pairs)
    heavy = statistics.median(p[1] for p in pairs)
    print(f"campaigns built in {built:.1f} s ({ENDED:,} ended + {OPEN} open encounters)")
    print(f"window shown, one open encounter:        {base * 1000:7.1f} ms (median of {RUNS})")
    print(f"window shown, {ENDED:,} ended + {OPEN} open: {heavy * 1000:7.1f} ms")
    print(f"ratio {heavy / base:.2f}× (target ≤ 1.2×)")
    print(f"for reference, a campaign with no encounter: {nothing * 1000:7.1f} ms (no board shown)")
    app.quit()


if __name__ == "__main__":
    main()
