"""Which Combat Desks still run on this computer: a killed one's lock file is seen as ended,
a running one's never, and an unknown one (another computer) never."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from desktop.running_instances import SUFFIX, RunningInstances

ROOT = Path(__file__).resolve().parents[2]
CHILD = (
    "import sys, time; from pathlib import Path; from PySide6.QtCore import QCoreApplication; "
    "app = QCoreApplication([]); from desktop.running_instances import RunningInstances; "
    "r = RunningInstances('other-app', Path(sys.argv[1])); print('ready', flush=True); "
    "time.sleep(120)"
)


def test_a_killed_app_has_ended_a_running_one_has_not(qapp: object, tmp_path: Path) -> None:
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(tmp_path)], cwd=ROOT,
                             stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    me = RunningInstances("this-app", tmp_path)
    try:
        assert not me.has_ended("other-app"), "it still runs"
        assert not me.has_ended("never-seen"), "unknown here: perhaps on another computer"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(10)
    assert me.has_ended("other-app")
    me.close()
    assert list(tmp_path.glob(f"*{SUFFIX}")) == [], "a clean quit sweeps crashed apps' files"


def test_a_second_window_in_the_same_app_is_not_ended(qapp: object, tmp_path: Path) -> None:
    first = RunningInstances("first", tmp_path)
    second = RunningInstances("second", tmp_path)
    assert not second.has_ended("first") and not first.has_ended("second")
    first.close()
    assert second.has_ended("first") is False, "its file went with a clean quit: unknown"
    second.close()
