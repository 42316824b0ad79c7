"""Counts the reliability tests report at the end of the run (copied into docs/reliability.md).

Each test process counts its own; the process that prints the summary (the only one, or the
pytest-xdist controller, summing its workers') prints them and writes the JSON copy, whole or
not at all: COMBATDESK_FIGURES_FILE names it, else it is ``combatdesk-reliability-figures.json``
in the temp folder (two suites side by side: the last one to finish leaves its figures).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

FIGURES: Counter[str] = Counter()
FILE = Path(os.environ.get("COMBATDESK_FIGURES_FILE")
            or Path(tempfile.gettempdir()) / "combatdesk-reliability-figures.json")


def add(name: str, count: int = 1) -> None:
    """Adds to one figure (e.g. ``kills survived (sqlite)``)."""
    FIGURES[name] += count


def lines(counts: Mapping[str, int]) -> list[str]:
    """Gets the figures as summary lines."""
    return [f"{name}: {count}" for name, count in sorted(counts.items())]


def write(counts: Mapping[str, int]) -> Path:
    """Writes the figures' JSON copy (replaced in one step) and returns where."""
    text = json.dumps(dict(sorted(counts.items())), indent=2) + os.linesep
    fd, temporary = tempfile.mkstemp(prefix=FILE.name, dir=FILE.parent)
    with os.fdopen(fd, "w") as out:
        out.write(text)
    os.replace(temporary, FILE)
    return FILE
