"""Start-up time and package size, each against the bare PySide6 + pyqtgraph floor.

Run by hand after ``make package``: ``.venv/bin/python bench/bench_startup.py``. It builds the
bare floor program with PyInstaller (≈30 s, into build/bench-floor), then times from process
start to the main window shown (``shown <monotonic>`` printed by the program; CLOCK_MONOTONIC
is shared by every process) for: the source install, the packaged program, the bare window
from source and the bare window packaged. Targets: start-up ≤ 1.3× the floor, packaged size
≤ 1.1× the bare build. Prints figures; asserts nothing. Offscreen unless QT_QPA_PLATFORM says
otherwise.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
RUNS = 15
FLOOR_SCRIPT = ROOT / "bench" / "floor" / "bare_window.py"
FLOOR_BUILD = ROOT / "build" / "bench-floor"
APP_DIST = ROOT / "dist" / "CombatDesk"


def _time_to_shown(cmd: list[str], env: dict[str, str]) -> float:
    start = time.monotonic()
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120, check=True)
    shown = next(line for line in out.stdout.splitlines() if line.startswith("shown "))
    return float(shown.split()[1]) - start


def _interleaved_medians(cmds: list[list[str]], env: dict[str, str]) -> list[float]:
    """Runs the programs in turn, RUNS rounds, so a busy machine slows all of them alike."""
    for cmd in cmds:
        _time_to_shown(cmd, env)  # warm the file cache once
    times: list[list[float]] = [[] for _ in cmds]
    for _ in range(RUNS):
        for cmd, spent in zip(cmds, times, strict=True):
            spent.append(_time_to_shown(cmd, env))
    return [statistics.median(spent) for spent in times]


def _size(folder: Path) -> int:
    return sum(p.lstat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def _build_floor() -> Path:
    dist = FLOOR_BUILD / "dist" / "bare_window"
    if not dist.exists():
        subprocess.run(
            [
                str(Path(PY).with_name("pyinstaller")),
                "--noconfirm",
                "--log-level",
                "ERROR",
                "--onedir",
                "--distpath",
                str(FLOOR_BUILD / "dist"),
                "--workpath",
                str(FLOOR_BUILD / "work"),
                "--specpath",
                str(FLOOR_BUILD),
                str(FLOOR_SCRIPT),
            ],
            check=True,
        )
    return dist


def main() -> None:
    if not (APP_DIST / "CombatDesk").exists():
        sys.exit("build the package first: make package")
    floor_dist = _build_floor()
    # Site-packages arrive byte-compiled by pip; an editable checkout does not (and
    # PYTHONDONTWRITEBYTECODE may forbid writing it lazily), so compile it as `make run` does.
    subprocess.run(
        [PY, "-m", "compileall", "-q", str(ROOT / "core"), str(ROOT / "desktop")], check=True
    )
    env = {**os.environ, "COMBATDESK_STARTUP_PROBE": "1"}
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    with tempfile.TemporaryDirectory() as tmp:
        database = f"sqlite:///{Path(tmp) / 'bench.sqlite'}"
        env["XDG_CONFIG_HOME"] = str(Path(tmp) / "config")  # keep the DM's settings out of it
        app_args = ["--database", database]
        programs = {
            "bare window, source": [PY, str(FLOOR_SCRIPT)],
            "Combat Desk, source": [PY, "-m", "desktop", *app_args],
            "bare window, packaged": [str(floor_dist / "bare_window")],
            "Combat Desk, packaged": [str(APP_DIST / "CombatDesk"), *app_args],
        }
        rows = list(zip(programs, _interleaved_medians(list(programs.values()), env), strict=True))
    print(
        f"start-up to main window shown ({env['QT_QPA_PLATFORM']}, median of {RUNS}, interleaved):"
    )
    for name, seconds in rows:
        print(f"  {name:<24}{seconds * 1000:8.0f} ms")
    print(f"  source   ratio {rows[1][1] / rows[0][1]:.2f}× (target ≤ 1.3×)")
    print(f"  packaged ratio {rows[3][1] / rows[2][1]:.2f}× (target ≤ 1.3×)")
    app_size, floor_size = _size(APP_DIST), _size(floor_dist)
    print(
        f"package size: Combat Desk {app_size / 2**20:.0f} MiB, bare build "
        f"{floor_size / 2**20:.0f} MiB, ratio {app_size / floor_size:.2f}× (target ≤ 1.1×)"
    )


if __name__ == "__main__":
    main()
