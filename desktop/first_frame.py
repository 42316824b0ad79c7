"""Start-up work held back until the main window's first frame is on screen.

Importing SQLAlchemy, opening the campaign store and reading it take longer than building and
painting the window, so the DM sees the window at once and the campaign in it a moment later.
bench/bench_startup.py times both under COMBATDESK_STARTUP_PROBE: ``shown <monotonic>`` at the
first frame, ``ready <monotonic>`` once the campaign is shown; then the app quits.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtGui import QWindow
from PySide6.QtWidgets import QWidget

PROBE = "COMBATDESK_STARTUP_PROBE"
FALLBACK_MS = 500
"""How long to wait for an expose that does not come (a window started minimized)."""


def probing() -> bool:
    """Tells whether bench/bench_startup.py asked for the start-up times."""
    return bool(os.environ.get(PROBE))


def report(moment: str) -> None:
    """Prints ``<moment> <monotonic>`` for the bench (CLOCK_MONOTONIC: shared by processes)."""
    print(f"{moment} {time.monotonic()}", flush=True)


class _ExposeWatch(QObject):
    """Calls back once, when the window it watches is first exposed."""

    def __init__(self, window: QWindow, exposed: Callable[[], None]) -> None:
        super().__init__(window)
        self._exposed = exposed
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (event.type() == QEvent.Type.Expose and isinstance(watched, QWindow)
                and watched.isExposed()):
            watched.removeEventFilter(self)
            self._exposed()
        return False


def after_first_frame(window: QWidget, then: Callable[[], None]) -> None:
    """Calls ``then`` once, just after ``window`` (shown) is first on screen: the windowing
    system exposed it and Qt painted and flushed it. ``show()`` returning says nothing: under X
    the window is mapped later, after a round trip to the server."""
    done = False

    def once() -> None:
        nonlocal done
        if not done:
            done = True
            then()

    def soon() -> None:
        QTimer.singleShot(0, once)  # a zero timer runs once Qt has handled the expose

    handle = window.windowHandle()
    if handle is None or handle.isExposed():
        soon()
        return
    _ExposeWatch(handle, soon)
    QTimer.singleShot(FALLBACK_MS, once)
