"""SIGKILL mid-round: the reopened campaign resumes the encounter at its last saved command."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from core.store import Store
from desktop.encounter.workspace import EncounterWorkspace
from desktop.main_window import MainWindow

ROOT = Path(__file__).resolve().parents[3]


def test_a_killed_encounter_reopens_with_every_completed_command(
    qtbot: QtBot, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'killed.sqlite'}"
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.desktop.encounter.kill_child", url,
         str(tmp_path / "child.ini")],
        cwd=ROOT, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert child.stdout is not None
    saved: list[str] = []
    try:
        for line in child.stdout:
            if line.startswith("saved "):
                saved.append(line.split(" ", 2)[2].strip())
                count = int(line.split()[1])
                # mid-round: after some rounds, while declarations are being made
                if count >= 40 and "attack" in line:
                    break
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(10)
    assert child.returncode == -signal.SIGKILL and len(saved) >= 20

    store = Store.open(url)
    try:
        window = MainWindow(store, QSettings(str(tmp_path / "parent.ini"),
                                             QSettings.Format.IniFormat))
        qtbot.addWidget(window)
        workspaces = [window.tabs.widget(i) for i in range(window.tabs.count())
                      if isinstance(window.tabs.widget(i), EncounterWorkspace)]
        assert len(workspaces) == 1, "the active encounter is reopened with the campaign"
        names = [c.name for c in workspaces[0].session.log.commands]
        # every command reported complete is there, in order (at most one more was in flight)
        assert names[-len(saved):] == saved or names[-len(saved) - 1:-1] == saved
        assert workspaces[0].controller.error is None
        # The killed app's lease had not run out, but it ran here: play on without Take Over.
        assert workspaces[0].session.holding and not workspaces[0].session.watching
        assert "no longer running; you play it here now" in window.statusBar().currentMessage()
        assert window.encounter_menu.actions()
    finally:
        store.close()
