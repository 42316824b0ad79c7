"""One encounter command on the undo stack: the session does the work, Qt keeps the history."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QUndoCommand, QUndoStack

from core.fight.log import Command, LogError
from core.play.session import EncounterSession
from core.store import StoreError
from desktop.store_call import soon
from desktop.store_retry import AskRetry, is_retryable, with_retry

ErrorSink = Callable[[str], None]


class SessionCommand(QUndoCommand):
    """First redo executes the command; undo and later redos replay the session's own history.

    Exceptions cannot travel back through Qt's virtual call, so a refused first redo marks the
    command obsolete (QUndoStack then drops it) and keeps the reason in :attr:`error`.
    A busy or unreachable database first asks ``ask_retry`` (Retry / Cancel): Retry saves the
    same command (same id) again, Cancel refuses it as above. A cancelled undo (or later
    redo) changed nothing: ``stack`` is stepped back so the Edit menu tells the truth.
    """

    def __init__(
        self, session: EncounterSession, command: Command, on_error: ErrorSink,
        text: str | None = None, ask_retry: AskRetry | None = None,
        stack: QUndoStack | None = None, on_step: ErrorSink | None = None,
    ) -> None:
        # ``text`` is the DM's words for the Edit menu (names, not the log's ids)
        super().__init__(text if text is not None else command.name)
        self._session = session
        self._command = command
        self._on_error = on_error
        self._done_once = False
        self._ask_retry = ask_retry
        self._stack = stack
        self._step_back = False
        self._on_step = on_step
        """Told "Undone: …" / "Redone: …" once an undo or a later redo is saved."""
        self.error: str | None = None

    def _saving(self, call: Callable[[], object], doing: str) -> None:
        place = "to" if doing == "Saving" else "in"
        what = f"{doing} '{self.text()}' {place} the campaign database"
        # The save runs on a worker thread; the views redraw here, once it is done.
        with self._session.changes_held():
            with_retry(call, self._ask_retry, what, self._session.wait_limit)

    def _cancelled(self, exc: StoreError, step_back: object) -> bool:
        """After Cancel of an undo or a later redo, puts the stack's index back where it was
        (once Qt has moved it); True when it did."""
        if self._stack is None or not is_retryable(exc) or self._ask_retry is None:
            return False
        self._step_back = True  # the step back must not reach the store
        soon(step_back)  # type: ignore[arg-type]
        return True

    def redo(self) -> None:
        if self._step_back:
            self._step_back = False
            return
        try:
            if self._done_once:
                self._saving(self._session.redo, "Redoing")
                if self._on_step is not None:
                    self._on_step(f"Redone: {self.text()}")
            else:
                self._saving(lambda: self._session.execute(self._command), "Saving")
                self._done_once = True
        except (LogError, StoreError) as exc:
            self.error = str(exc)
            if not self._done_once:
                self.setObsolete(True)
            elif isinstance(exc, StoreError) and self._stack is not None and self._cancelled(
                    exc, self._stack.undo):
                self._on_error(f"Not redone: {exc}")
            else:
                self._on_error(f"Redo failed: {exc}")

    def undo(self) -> None:
        if self._step_back:
            self._step_back = False
            return
        try:
            self._saving(self._session.undo, "Undoing")
            if self._on_step is not None:
                self._on_step(f"Undone: {self.text()}")
        except (LogError, StoreError) as exc:
            if isinstance(exc, StoreError) and self._stack is not None and self._cancelled(
                    exc, self._stack.redo):
                self._on_error(f"Not undone: {exc}")
            else:
                self._on_error(f"Undo failed: {exc}")
