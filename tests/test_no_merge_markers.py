"""No file in the project carries a half-resolved merge (a conflict marker at a line's start)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MARKER = re.compile(r"^(<{7} |>{7} |={7}$)", re.MULTILINE)


def test_no_conflict_markers_in_tracked_text_files() -> None:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.split()
    found = []
    for name in listed:
        path = ROOT / name
        if path.suffix not in {".py", ".md", ".json", ".html", ".toml", ".txt", ".nsi", ".yml",
                               ".spec", ".sh", ".cjs", ".tmpl"} and path.name != "Makefile":
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if MARKER.search(text):
            found.append(name)
    assert not found, f"merge conflict markers left in {found}"
