"""Counts the reliability tests report at the end of the run (copied into docs/reliability.md)."""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter
from pathlib import Path

FIGURES: Counter[str] = Counter()
FILE = Path(tempfile.gettempdir()) / "combatdesk-reliability-figures.json"


def add(name: str, count: int = 1) -> None:
    """Adds to one figure (e.g. ``kills survived (sqlite)``)."""
    FIGURES[name] += count


def lines() -> list[str]:
    """Gets the figures as summary lines, and leaves a JSON copy in the temp folder."""
    if FIGURES:
        FILE.write_text(json.dumps(dict(sorted(FIGURES.items())), indent=2) + os.linesep)
    return [f"{name}: {count}" for name, count in sorted(FIGURES.items())]
