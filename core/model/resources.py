"""Where the data files in ``resources/`` are, in a source checkout and in a packaged build."""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

from core.model.weapons import WeaponTable, WeaponTableError, parse_weapon_table


def resources_dir() -> Path:
    """Gets the folder holding icons, templates and sample data."""
    bundle = getattr(sys, "_MEIPASS", None)  # set by PyInstaller's boot loader
    if bundle is not None:
        return Path(bundle) / "resources"
    return Path(__file__).resolve().parents[2] / "resources"


def resource(name: str) -> Path:
    """Gets the path of one resource file."""
    return resources_dir() / name


WEAPON_TABLE = "weapons.json"


@functools.cache
def load_weapon_table(path: Path | None = None) -> WeaponTable:
    """Reads the weapon table (``resources/weapons.json`` unless ``path``), once per path.

    Raises WeaponTableError saying which file and where in it when the file is malformed.
    """
    where = path or resource(WEAPON_TABLE)
    try:
        document = json.loads(where.read_text(encoding="utf-8"))
    except OSError as exc:
        raise WeaponTableError(str(where), f"cannot be read ({exc.strerror or exc})") from None
    except ValueError as exc:
        raise WeaponTableError(str(where), f"is not JSON ({exc})") from None
    try:
        return parse_weapon_table(document)
    except WeaponTableError as exc:
        raise WeaponTableError(f"{where}: {exc.where}", exc.message) from None
