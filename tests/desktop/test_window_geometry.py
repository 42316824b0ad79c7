"""The main window comes back as large as the DM left it, within the screen it opens on,
after a change of screen size (it came back 848×510 on a 1920×1080 screen after 1278×694 on a
1280×720 one, and 751×330 the other way round). Each start is a process of its own with Qt's
offscreen platform given one screen of the size named."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import json, sys
from pathlib import Path
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

app = QApplication([])
from core.store import Store
from desktop.app import ensure_sample_campaign
from desktop.main_window import MainWindow

folder, mode = Path(sys.argv[1]), sys.argv[2]
store = Store.open(f"sqlite:///{folder / 'campaigns.sqlite'}")
ensure_sample_campaign(store)
window = MainWindow(store, QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat))
window.show()
app.processEvents()
if mode == "quit":
    window.move(0, 0)
    window.resize(int(sys.argv[3]), int(sys.argv[4]))
    app.processEvents()
    window.close()
room = window.screen().availableGeometry()
frame = window.frameGeometry()
print(json.dumps({"size": [window.width(), window.height()],
                  "inside": room.contains(frame), "room": [room.width(), room.height()]}))
store.close()
"""


def _start(folder: Path, screen: tuple[int, int], *args: str) -> dict[str, object]:
    config = folder / f"screen-{screen[0]}.json"
    config.write_text(json.dumps({"synchronousWindowSystemEvents": False, "screens": [
        {"name": "Screen", "x": 0, "y": 0, "width": screen[0], "height": screen[1],
         "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}))
    env = {**os.environ, "QT_QPA_PLATFORM": f"offscreen:configfile={config}",
           "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(folder)}
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(folder), *args], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


@pytest.mark.parametrize(("saved_on", "saved", "opened_on"), [
    ((1280, 720), (1278, 694), (1920, 1080)),
    ((1920, 1080), (1300, 1050), (1280, 720)),
])
def test_the_window_comes_back_its_size_within_the_screen_it_opens_on(
    tmp_path: Path, saved_on: tuple[int, int], saved: tuple[int, int],
    opened_on: tuple[int, int],
) -> None:
    quit_at = _start(tmp_path, saved_on, "quit", str(saved[0]), str(saved[1]))
    assert quit_at["size"] == list(saved)
    shown = _start(tmp_path, opened_on, "open")
    assert shown["inside"], shown  # frame and all on the screen
    width, height = shown["size"]  # type: ignore[misc]
    room_w, room_h = shown["room"]  # type: ignore[misc]
    # As large as it was saved, or (where the screen is smaller) nearly all of it: a few
    # pixels go to the window's frame.
    assert width >= min(saved[0], room_w - 8), shown
    assert height >= min(saved[1], room_h - 8), shown
