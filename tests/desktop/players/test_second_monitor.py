"""The players' screen on a second monitor: Qt's offscreen platform given two screens (a
1280×720 laptop and a 1920×1080 TV), in a process of its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

SCRIPT = """
import json, sys
from pathlib import Path
from PySide6.QtCore import QSettings
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication
from tests.desktop.players.fights import SIDE_D6
from tests.desktop.players.helpers import store_with_fight

app = QApplication([])
from desktop.main_window import MainWindow

folder = Path(sys.argv[1])
screens = {s.name(): s for s in QGuiApplication.screens()}
store = store_with_fight(folder, SIDE_D6)
seen = []

def open_window():
    window = MainWindow(store, QSettings(str(folder / "s.ini"), QSettings.Format.IniFormat))
    window.setScreen(screens["Laptop"])
    window.move(0, 0)
    window.show()
    return window

def where(window):
    shown = window.players.players_window
    app.processEvents()
    return {"screen": shown.screen().name(), "full": shown.isFullScreen(),
            "rect": list(shown.geometry().getRect()), "visible": shown.isVisible(),
            "heading": shown.heading.text(), "dm": window.screen().name()}

window = open_window()
window.players.show_action.trigger()
seen.append(where(window))
window.players.screen_menu.aboutToShow.emit()
entries = {a.text(): a for a in window.players.screen_menu.actions()}
seen.append(sorted(entries))
next(a for t, a in entries.items() if "Laptop" in t).trigger()
seen.append(where(window))
window.close()
window = open_window()  # the next evening: the choice is remembered
window.players.show_action.trigger()
seen.append(where(window))
window.players.screen_menu.aboutToShow.emit()
next(a for a in window.players.screen_menu.actions() if "HDMI-TV" in a.text()).trigger()
seen.append(where(window))
print(json.dumps(seen))
"""


def test_it_fills_the_tv_and_the_dm_can_choose_a_screen(tmp_path: Path) -> None:
    config = tmp_path / "screens.json"
    config.write_text(json.dumps({"synchronousWindowSystemEvents": False, "screens": [
        {"name": "Laptop", "x": 0, "y": 0, "width": 1280, "height": 720,
         "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1},
        {"name": "HDMI-TV", "x": 1280, "y": 0, "width": 1920, "height": 1080,
         "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}))
    env = {**os.environ, "QT_QPA_PLATFORM": f"offscreen:configfile={config}",
           "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    first, menu, laptop, remembered, tv = json.loads(done.stdout.splitlines()[-1])
    if first["dm"] != "Laptop":
        pytest.skip(f"this Qt put the DM's window on {first['dm']}")
    # Opened, it fills the other screen: the TV, full screen; the DM's window stays put.
    assert first == {"screen": "HDMI-TV", "full": True, "rect": [1280, 0, 1920, 1080],
                     "visible": True, "heading": "Bridge fight", "dm": "Laptop"}
    assert menu == ["&1: HDMI-TV, 1920×1080", "&2: Laptop, 1280×720 — this window's"] or (
        menu == ["&1: Laptop, 1280×720 — this window's", "&2: HDMI-TV, 1920×1080"])
    # The DM's own screen: a window over part of it, not full screen.
    assert laptop["screen"] == "Laptop" and not laptop["full"] and laptop["visible"]
    assert laptop["rect"][2] < 1280 and laptop["rect"][3] < 720
    assert remembered["screen"] == "Laptop" and not remembered["full"]
    assert tv["screen"] == "HDMI-TV" and tv["full"] and tv["rect"] == [1280, 0, 1920, 1080]
