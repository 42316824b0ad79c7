"""Where the data files in ``resources/`` are, in a source checkout and in a packaged build."""

from __future__ import annotations

import sys
from pathlib import Path


def resources_dir() -> Path:
    """Gets the folder holding icons, templates and sample data."""
    bundle = getattr(sys, "_MEIPASS", None)  # set by PyInstaller's boot loader
    if bundle is not None:
        return Path(bundle) / "resources"
    return Path(__file__).resolve().parent.parent / "resources"


def resource(name: str) -> Path:
    """Gets the path of one resource file."""
    return resources_dir() / name
