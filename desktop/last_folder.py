"""Each kind of file's dialog starts in the folder the DM last used for that kind (issue 24:
every file dialog started in the same default place). Kept in the window's QSettings."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

ROSTER = "roster"
"""Roster files: import, export, the example file."""
BACKUP = "backup"
"""Campaign backups: written and restored."""
CAMPAIGN = "campaign"
"""The campaign's own SQLite file (File › Campaign database…)."""


def _key(kind: str) -> str:
    return f"lastFolder/{kind}"


def start_path(settings: QSettings | None, kind: str, name: str = "",
               fallback: Path | None = None) -> str:
    """Gets where the dialog for ``kind`` starts: the folder last used for it (if it is still
    there), else ``fallback``, else the home folder; with ``name`` the file in it."""
    last = settings.value(_key(kind)) if settings is not None else None
    folder = Path(str(last)) if last else None
    if folder is None or not folder.is_dir():
        folder = fallback if fallback is not None and fallback.is_dir() else Path.home()
    return str(folder / name) if name else str(folder)


def remember(settings: QSettings | None, kind: str, chosen: str | Path) -> None:
    """Notes the folder of the file the DM chose for ``kind``."""
    if settings is not None and str(chosen):
        settings.setValue(_key(kind), str(Path(chosen).parent))
