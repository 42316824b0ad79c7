"""Reopening an ended encounter as one undoable step on its tab's undo stack."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from PySide6.QtGui import QUndoCommand

from core.play.session import EncounterSession
from core.store import StoreError
from desktop.store_retry import AskRetry, with_retry


class ReopenCommand(QUndoCommand):
    """Redo reopens the encounter with its results baseline; undo ends it again.

    Undoing does not offer the results again: what was applied when it first ended stays.
    A refused first redo marks the command obsolete (the stack drops it) and keeps the reason.
    A busy or unreachable database first asks ``ask_retry`` (Retry repeats the same reopening
    or ending; reopening an open encounter or ending an ended one is refused, never doubled).
    """

    def __init__(
        self, session: EncounterSession, baseline: Mapping[str, Any] | None,
        on_error: Callable[[str], None], ask_retry: AskRetry | None = None,
    ) -> None:
        super().__init__(f"Reopen {session.info.name}")
        self._session = session
        self._baseline = dict(baseline) if baseline is not None else None
        self._on_error = on_error
        self._done_once = False
        self._ask_retry = ask_retry
        self.error: str | None = None

    def redo(self) -> None:
        try:
            with_retry(lambda: self._session.reopen(self._baseline), self._ask_retry)
            self._done_once = True
        except StoreError as exc:
            self.error = str(exc)
            if not self._done_once:
                self.setObsolete(True)
            else:
                self._on_error(f"Redo failed: {exc}")

    def undo(self) -> None:
        try:
            with_retry(self._session.end, self._ask_retry)
        except StoreError as exc:
            self._on_error(f"Undo failed: {exc}")
