"""Which Combat Desks are running on this computer, so a crashed one's fights come back at once.

An encounter's lease outlives a Combat Desk killed mid-fight by up to its 30 seconds: restarted
at once, the app would find its own fight "open in Combat Desk on this computer" and only watch
it. Each running app therefore holds a lock file named by its lease id in the user's data
folder. Qt's QLockFile writes the process id and host into it and sees through a lock whose
process is gone (on Windows too), so a lease held on this computer, by this user, whose lock
file is free belongs to an app that no longer runs, and can be taken back without asking.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

from platformdirs import user_data_dir
from PySide6.QtCore import QLockFile

SUFFIX = ".running"


def default_folder() -> Path:
    """Gets the folder of the lock files: beside the DM's own campaign file."""
    return Path(user_data_dir("CombatDesk", appauthor=False)) / "running"


def process_gone(pid: int) -> bool:
    """Tells whether no process with this id runs on this computer (False when unsure).

    The lease records its holder's pid (schema 0011), so a crashed app is known even when its
    lock file was swept by another Combat Desk quitting cleanly. A pid reused by another
    process reads as running: the fight is then only watched, as before.
    """
    if pid <= 0:
        return False
    if sys.platform == "win32":  # os.kill would end the process there
        import ctypes

        kernel = ctypes.windll.kernel32  # type: ignore[attr-defined]
        handle = kernel.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
        if not handle:
            return bool(kernel.GetLastError() == 87)  # ERROR_INVALID_PARAMETER: no such pid
        try:
            code = ctypes.c_ulong()
            return bool(kernel.GetExitCodeProcess(handle, ctypes.byref(code))
                        and code.value != 259)  # STILL_ACTIVE
        finally:
            kernel.CloseHandle(handle)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False  # it runs, as another user (PermissionError), or cannot be told
    return False


class RunningInstances:
    """This app's own lock file, and questions about other apps' ones."""

    def __init__(self, instance: str, folder: Path | None = None) -> None:
        self.folder = folder or default_folder()
        self._own: QLockFile | None = None
        self._ended: set[str] = set()
        """Apps found ended: reading a lock file as free removes it, so the answer is kept for
        the crashed app's other fights (each tab asks when it is first read)."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            own = QLockFile(str(self._path(instance)))
            own.setStaleLockTime(0)  # alive as long as this process is, however long
            if own.tryLock(0):
                self._own = own
        except OSError:
            pass  # without the folder a crashed app's fights are only watched until they expire

    def _path(self, instance: str) -> Path:
        return self.folder / f"{instance}{SUFFIX}"

    def _sweep(self) -> None:
        """Removes lock files left by apps that crashed (a few bytes each, one per crash).

        Done on quitting, not at start: a restarted app needs its crashed predecessor's file
        to know that the fights it left are free.
        """
        for path in self.folder.glob(f"*{SUFFIX}"):
            self._free(path)

    @staticmethod
    def _free(path: Path) -> bool:
        """Takes and removes a lock file whose process is gone; False while its app runs."""
        lock = QLockFile(str(path))
        lock.setStaleLockTime(0)  # judged by its process only, never by its age
        if not lock.tryLock(0):
            return False
        lock.unlock()  # removes the file
        return True

    def has_ended(self, instance: str) -> bool:
        """Tells whether the app that took leases as ``instance`` ran here and has stopped.

        False when unknown: no lock file here (another computer, another user or data folder).
        """
        if instance in self._ended:
            return True
        path = self._path(instance)
        if path.exists() and self._free(path):
            self._ended.add(instance)
            return True
        return False

    def close(self) -> None:
        """Lets this app's lock file go, and crashed apps' ones (on a clean quit)."""
        if self._own is not None:
            self._own.unlock()
            self._own = None
        with contextlib.suppress(OSError):
            self._sweep()
