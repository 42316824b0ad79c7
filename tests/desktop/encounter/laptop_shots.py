"""Screenshots of the main window with each laptop fight open (12 fighters, mid-round).

Not collected by pytest. Run at a laptop's size (default 1280x720):
  QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1280x720x24" \\
      .venv/bin/python -m tests.desktop.encounter.laptop_shots OUT_DIR [1280x720]
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from core.fight.encounter import commands_for_scenario
from core.play.session import EncounterSession
from core.store import Store
from desktop.app import ensure_sample_campaign
from desktop.encounter.workspace import EncounterWorkspace
from desktop.main_window import MainWindow
from tests.desktop.encounter.laptop_fights import SYSTEMS, fight


def open_fight(window: MainWindow, store: Store, system: str) -> EncounterWorkspace:
    """Saves the laptop fight of ``system`` in the shown campaign and opens it in a tab."""
    document = fight(system)
    campaign = window.campaign
    assert campaign is not None
    session = EncounterSession.start(store, campaign.id, f"Laptop {system}", system,
                                     document.get("options"), document.get("seed"))
    for command in commands_for_scenario(document):
        session.execute(command)
    session.release()
    window.encounter_actions._listed = None  # read the Open Encounter menu again
    action = next(a for a in window.encounter_actions.open_menu_actions()
                  if f"Laptop {system}" in a.text())
    action.trigger()
    workspace = window.encounter_actions.current()
    assert workspace is not None
    return workspace


def main() -> None:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    width, height = (int(v) for v in (sys.argv[2] if len(sys.argv) > 2 else "1280x720")
                     .split("x"))
    app = QApplication.instance() or QApplication([])
    folder = Path(tempfile.mkdtemp())
    store = Store.open(f"sqlite:///{folder / 'shots.sqlite'}")
    ensure_sample_campaign(store)
    settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(store, settings)
    window.resize(width, height)
    window.show()
    for system in SYSTEMS:
        open_fight(window, store, system)
        for _ in range(5):
            app.processEvents()
        window.grab().save(str(out / f"{system}-{width}x{height}.png"))
        # the panels waiting behind tabs, brought forward as play (or the DM) brings them
        workspace = window.encounter_actions.current()
        assert workspace is not None
        workspace.panels.show_panel("procedureDock")
        workspace.panels.show_panel("timelineDock")
        for _ in range(5):
            app.processEvents()
        window.grab().save(str(out / f"{system}-{width}x{height}-procedure-timeline.png"))
    window.close()
    store.close()


if __name__ == "__main__":
    main()
