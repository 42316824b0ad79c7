"""Start-up time against the floor: a bare PySide6 + pyqtgraph window started the same way.

``.venv/bin/python bench/bench_startup.py`` times, from source and warm, each program from its
process start to its main window's first frame on screen (mapped, exposed, painted: the
``shown <monotonic>`` line of desktop/startup_probe.py and bench/floor/bare_window.py;
CLOCK_MONOTONIC is shared by every process), under an Xvfb server of its own (``apt-get
install xvfb``; the Qt xcb libraries: docs/packaging.md). The programs run in turn, so a busy
machine slows them alike; medians and their ratio are printed (target ≤ 1.2×). Combat Desk's
``ready`` time, the campaign shown in the window, is printed beside it.

Options: ``--runs N`` (default 9, at least 7), ``--platform offscreen`` (no X server),
``--packaged`` (also the packaged program against a bare PyInstaller build of the floor, which
it builds into build/bench-floor in ≈30 s, and the package sizes; needs ``make package``).
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
FLOOR_SCRIPT = ROOT / "bench" / "floor" / "bare_window.py"
FLOOR_BUILD = ROOT / "build" / "bench-floor"
APP_DIST = ROOT / "dist" / "CombatDesk"
TARGET = 1.2
PACKAGE_SIZE_TARGET = 1.1


@dataclass
class Program:
    name: str
    cmd: list[str]
    shown: list[float] = field(default_factory=list)
    ready: list[float] = field(default_factory=list)

    def run(self, env: dict[str, str]) -> None:
        start = time.monotonic()
        out = subprocess.run(self.cmd, capture_output=True, text=True, env=env, timeout=120,
                             check=False, cwd=ROOT)
        stamps = dict(line.split() for line in out.stdout.splitlines()
                      if line.startswith(("shown ", "ready ")))
        if out.returncode != 0 or "shown" not in stamps:
            sys.exit(f"{self.name} failed ({out.returncode}):\n{out.stdout}\n{out.stderr}")
        self.shown.append(float(stamps["shown"]) - start)
        if "ready" in stamps:
            self.ready.append(float(stamps["ready"]) - start)


def _median_ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:6.0f} ms"


@contextlib.contextmanager
def _xvfb() -> Iterator[dict[str, str]]:
    """Runs an Xvfb server on a free display; yields the environment that uses it."""
    if shutil.which("Xvfb") is None:
        sys.exit("Xvfb is missing: apt-get install -y xvfb (or --platform offscreen)")
    number = next(n for n in range(90, 200)
                  if not Path(f"/tmp/.X{n}-lock").exists()
                  and not Path(f"/tmp/.X11-unix/X{n}").exists())
    server = subprocess.Popen(
        ["Xvfb", f":{number}", "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        socket = Path(f"/tmp/.X11-unix/X{number}")
        deadline = time.monotonic() + 10
        while not socket.exists():
            if server.poll() is not None or time.monotonic() > deadline:
                sys.exit(f"Xvfb :{number} did not start")
            time.sleep(0.05)
        yield {"DISPLAY": f":{number}", "QT_QPA_PLATFORM": "xcb"}
    finally:
        server.terminate()
        server.wait(10)


def _size(folder: Path) -> int:
    return sum(p.lstat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def _build_floor() -> Path:
    dist = FLOOR_BUILD / "dist" / "bare_window"
    if not dist.exists():
        subprocess.run(
            [str(Path(PY).with_name("pyinstaller")), "--noconfirm", "--log-level", "ERROR",
             "--onedir", "--distpath", str(FLOOR_BUILD / "dist"),
             "--workpath", str(FLOOR_BUILD / "work"), "--specpath", str(FLOOR_BUILD),
             str(FLOOR_SCRIPT)],
            check=True,
        )
    return dist


def _pairs(programs: list[Program]) -> list[tuple[Program, Program]]:
    """Gets (floor, app) pairs: the programs come in that order, two by two."""
    return list(zip(programs[::2], programs[1::2], strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="runs of each program (≥ 7)")
    parser.add_argument("--platform", choices=("xvfb", "offscreen"), default="xvfb")
    parser.add_argument("--packaged", action="store_true",
                        help="also the packaged program and the bare build (make package)")
    args = parser.parse_args()
    runs = max(args.runs, 7)
    if args.packaged and not (APP_DIST / "CombatDesk").exists():
        sys.exit("build the package first: make package")
    # Site-packages arrive byte-compiled by pip; an editable checkout does not (and
    # PYTHONDONTWRITEBYTECODE may forbid writing it lazily), so compile it as `make run` does.
    subprocess.run(
        [PY, "-m", "compileall", "-q", str(ROOT / "core"), str(ROOT / "desktop")], check=True
    )
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        env = {**os.environ, "COMBATDESK_STARTUP_PROBE": "1",
               # The DM's settings, campaigns and running-instance files stay out of it.
               "XDG_CONFIG_HOME": str(Path(tmp) / "config"),
               "XDG_DATA_HOME": str(Path(tmp) / "data"),
               # This checkout's source, whatever the virtualenv has installed.
               "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT),
                                                           os.environ.get("PYTHONPATH")]))}
        env.pop("WAYLAND_DISPLAY", None)
        if args.platform == "xvfb":
            env.update(stack.enter_context(_xvfb()))
        else:
            env["QT_QPA_PLATFORM"] = "offscreen"
        app_args = ["--database", f"sqlite:///{Path(tmp) / 'bench.sqlite'}"]
        programs = [Program("bare window, source", [PY, str(FLOOR_SCRIPT)]),
                    Program("Combat Desk, source", [PY, "-m", "desktop", *app_args])]
        if args.packaged:
            programs += [Program("bare window, packaged", [str(_build_floor() / "bare_window")]),
                         Program("Combat Desk, packaged", [str(APP_DIST / "CombatDesk"),
                                                           *app_args])]
        for program in programs:  # warm the file cache; the first start makes the campaign
            program.run(env)
            program.shown.clear()
            program.ready.clear()
        for _ in range(runs):
            for program in programs:
                program.run(env)
        where = (f"xcb on Xvfb {env['DISPLAY']}" if args.platform == "xvfb" else "offscreen")
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"start-up to the main window's first frame on screen ({where}, warm, median of "
          f"{runs} alternating runs; load average {load}):")
    for program in programs:
        ready = f"   (campaign shown {_median_ms(program.ready)})" if program.ready else ""
        spread = f"{min(program.shown) * 1000:.0f}–{max(program.shown) * 1000:.0f}"
        print(f"  {program.name:<24}{_median_ms(program.shown)}  [{spread}]{ready}")
    for floor, app in _pairs(programs):
        ratio = statistics.median(app.shown) / statistics.median(floor.shown)
        print(f"  {app.name.split(', ')[1]:<8} ratio {ratio:.2f}× (target ≤ {TARGET}×)")
    if args.packaged:
        app_size, floor_size = _size(APP_DIST), _size(_build_floor())
        print(f"package size: Combat Desk {app_size / 2**20:.0f} MiB, bare build "
              f"{floor_size / 2**20:.0f} MiB, ratio {app_size / floor_size:.2f}× "
              f"(target ≤ {PACKAGE_SIZE_TARGET}×)")


if __name__ == "__main__":
    main()
