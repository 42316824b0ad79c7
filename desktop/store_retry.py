"""Retry / Cancel for a store call that failed only because the database was busy or away.

A lock held by another Combat Desk or program, a server that did not answer in time or a lost
connection are worth another try; every other refusal (a conflict, a full disk) is not, and
keeps its own message. Retry repeats the very same call: an encounter command keeps its id, so
the store saves it once however often it is tried. Cancel gives the failure back to the caller,
which leaves the campaign and the screen as they were before the command.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtWidgets import QMessageBox, QWidget

from desktop.plain_text import plain
from desktop.store_call import run_store_call

if TYPE_CHECKING:
    from core.store import StoreError

# core.store is imported where it is used: it brings SQLAlchemy, and the main window's first
# frame does not wait for that (desktop/app.py).

DIALOG_NAME = "store-retry"
"""The message box's object name (tests find it by this)."""

AskRetry = Callable[["StoreError"], bool]
_T = TypeVar("_T")


def retryable() -> tuple[type[StoreError], ...]:
    """Gets the failures worth a Retry: a busy database, or one that does not answer."""
    from core.store import DatabaseLockedError, DatabaseUnavailableError

    return (DatabaseLockedError, DatabaseUnavailableError)


def is_retryable(exc: BaseException) -> bool:
    """Tells whether ``exc`` is a busy or unreachable database (worth a Retry)."""
    return isinstance(exc, retryable())


def ask_retry(parent: QWidget | None, exc: StoreError) -> bool:
    """Shows the failure with Retry and Cancel; True when the DM chose Retry."""
    from core.store import DatabaseLockedError

    box = QMessageBox(parent)
    box.setObjectName(DIALOG_NAME)
    box.setIcon(QMessageBox.Icon.Warning)
    busy = isinstance(exc, DatabaseLockedError)
    box.setWindowTitle(
        "The campaign database is busy" if busy else "The campaign database does not answer"
    )
    box.setText(plain(str(exc)))
    box.setInformativeText(
        "Retry repeats the same change (it is never saved twice). Cancel leaves the campaign "
        "as it was before it."
    )
    box.setStandardButtons(QMessageBox.StandardButton.Retry | QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(QMessageBox.StandardButton.Retry)
    box.setEscapeButton(QMessageBox.StandardButton.Cancel)
    return box.exec() == QMessageBox.StandardButton.Retry


class _Asker:
    """An :data:`AskRetry` that knows its window: the progress message shows there too."""

    def __init__(self, parent: QWidget | None) -> None:
        self.parent = parent

    def __call__(self, exc: StoreError) -> bool:
        return ask_retry(self.parent, exc)


def asker(parent: QWidget | None) -> AskRetry:
    """Gets an :data:`AskRetry` that shows its dialog over ``parent``."""
    return _Asker(parent)


SAVING = "Saving your change to the campaign database"
"""What the progress message says is waited for when the caller gives no words of its own."""


def with_retry(
    call: Callable[[], _T],
    ask: AskRetry | None,
    what: str | None = None,
    limit: float | None = None,
) -> _T:
    """Runs ``call``; while it fails as busy or unreachable and the DM says Retry, runs it again.

    Each attempt runs off the window's thread (:func:`desktop.store_call.run_store_call`): the
    window repaints, and past a moment a progress message says "``what``…" and that it gives up
    after about ``limit`` seconds (the store's ``wait_limit``). So ``call`` must do store work
    only, never touch a widget. Cancel (or no ``ask``) raises the last failure, for the
    caller's own handling.
    """
    while True:
        try:
            parent = ask.parent if isinstance(ask, _Asker) else None
            return run_store_call(parent, what or SAVING, call, limit)
        except retryable() as exc:
            if ask is None or not ask(exc):
                raise
