"""The Windows package's inputs kept consistent: icon, pinned wheels, installer and build script.

The build itself (under Wine, minutes) is proven by ``make package-windows-check`` in CI."""

from __future__ import annotations

import importlib.util
import re
import shutil
import struct
import subprocess
import tomllib
from pathlib import Path
from types import ModuleType

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
WINDOWS = ROOT / "packaging" / "windows"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"windows_{name}", WINDOWS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build = _load("build")
make_icon = _load("make_icon")


def _ico_entries(data: bytes) -> list[tuple[int, bytes]]:
    reserved, kind, count = struct.unpack_from("<HHH", data)
    assert (reserved, kind) == (0, 1), "not an icon file"
    entries = []
    for i in range(count):
        width, height, _, _, _, _, size, offset = struct.unpack_from("<BBBBHHII", data, 6 + 16 * i)
        assert width == height
        entries.append((width or 256, data[offset : offset + size]))
    return entries


def test_the_icon_holds_each_size_windows_uses_as_a_png_of_that_size() -> None:
    entries = _ico_entries((WINDOWS / "combatdesk.ico").read_bytes())
    assert [size for size, _ in entries] == [16, 24, 32, 48, 64, 256]
    for size, png in entries:
        assert png.startswith(b"\x89PNG\r\n\x1a\n")
        assert struct.unpack(">II", png[16:24]) == (size, size)  # IHDR width, height


def test_the_committed_icon_is_rendered_from_the_current_svg(qapp: object) -> None:
    """Rerun packaging/windows/make_icon.py after changing resources/icons/combatdesk.svg."""
    fresh = make_icon.ico_bytes({size: make_icon.render_png(size) for size in make_icon.SIZES})
    assert fresh == (WINDOWS / "combatdesk.ico").read_bytes()


def _pins() -> dict[str, Requirement]:
    text = (WINDOWS / "requirements.txt").read_text().replace("\\\n", " ")
    pins = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        spec, *hashes = line.split("--hash=")
        assert hashes and all(re.fullmatch(r"sha256:[0-9a-f]{64}", h.strip()) for h in hashes)
        requirement = Requirement(spec.strip())
        assert str(requirement.specifier).startswith("=="), f"{spec} is not pinned"
        pins[requirement.name.lower().replace("_", "-")] = requirement
    return pins


def test_the_windows_pins_satisfy_pyproject_and_name_the_windows_only_packages() -> None:
    pins = _pins()
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = [Requirement(r) for r in pyproject["dependencies"]]
    wanted += [Requirement(r) for r in pyproject["optional-dependencies"]["packaging"]]
    for requirement in wanted:
        name = requirement.name.lower()
        assert name in pins, f"{name} is missing from packaging/windows/requirements.txt"
        pinned = str(pins[name].specifier).removeprefix("==")
        assert requirement.specifier.contains(pinned), f"{name}=={pinned} vs {requirement}"
    # Markers are evaluated for the Linux host that downloads, so these must be named.
    for windows_only in ("pywin32-ctypes", "pefile", "colorama", "tzdata"):
        assert windows_only in pins
    # Wine 8's UCRT lacks the complex-math functions numpy >= 2.1 imports (PITFALLS).
    numpy = str(pins["numpy"].specifier).removeprefix("==")
    assert tuple(int(n) for n in numpy.split(".")[:2]) < (2, 1)


def test_the_check_looks_for_what_the_installer_writes() -> None:
    nsi = (WINDOWS / "installer.nsi").read_text()
    assert f'!define APP "{build.APP}"' in nsi
    regkey = re.search(r'!define REGKEY "(.*)"', nsi)
    assert regkey is not None and "HKCU\\" + regkey.group(1) == build.UNINSTALL_KEY
    assert 'InstallDir "$LOCALAPPDATA\\Programs\\CombatDesk"' in nsi
    assert "RequestExecutionLevel user" in nsi


def test_a_change_to_the_installer_script_alone_needs_no_new_pyinstaller_run() -> None:
    program, installer = build.source_keys()
    assert program != installer
    assert set(build.INSTALLER_ONLY) <= {
        str(p.relative_to(ROOT)) for p in WINDOWS.iterdir() if p.is_file()
    }


@pytest.mark.skipif(shutil.which("x86_64-w64-mingw32-gcc") is None, reason="no mingw compiler")
def test_the_icu_stub_builds_and_exports_what_qt_imports(tmp_path: Path) -> None:
    names = ["ucnv_close", "ucnv_getMaxCharSize", "ucnv_open", "ucnv_toUChars"]
    source = tmp_path / "icuuc.c"
    source.write_text(build.icu_stub_source(names))
    dll = tmp_path / "icuuc.dll"
    subprocess.run(["x86_64-w64-mingw32-gcc", "-shared", "-o", str(dll), str(source)], check=True)
    dump = subprocess.run(
        ["x86_64-w64-mingw32-objdump", "-p", str(dll)], capture_output=True, text=True, check=True
    ).stdout
    exports = dump[dump.index("[Ordinal/Name Pointer] Table") :]
    for name in names:
        assert re.search(rf"\b{name}\b", exports)
    assert "U_FILE_ACCESS_ERROR" in source.read_text().split("ucnv_open(", 1)[1].split("\n")[0]
