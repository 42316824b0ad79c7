"""Store calls off the window's thread: the window keeps repainting while the database answers.

A save that waits on a busy SQLite file or a silent server used to freeze the whole window
until the store's own timeout ran out. :func:`run_store_call` runs the call on a worker thread
and keeps the window's thread in a local event loop meanwhile, so the window repaints and its
clocks tick. What the DM can *do* is held back while it waits: clicks and command keys are
swallowed (a second command must not start while the first is being saved), typing is kept and
typed in once the call is over, a busy cursor shows, and past
a moment a progress message says what is being waited for and when Combat Desk gives up.

There is no Cancel button: the store's timeouts (SQLite's busy timeout, PostgreSQL's connect,
statement and lock timeouts, see ``core.store.addresses.server_timeouts``) end every wait, and a
call abandoned half-way on its thread could still commit after the DM was told it did not.
When the wait ends as busy or unreachable, :func:`desktop.store_retry.with_retry` offers Retry
or Cancel as before.

Python's cyclic garbage collector is switched off while a call is in flight. It runs in
whichever thread happens to allocate, and the store's SQL allocates a great deal: collected on
the worker, a closed dialog or window left in a reference cycle was deleted off the window's
thread, which Qt does not allow. Collection resumes on the window's thread after the call.

One call at a time: timers that read or write the store (the lease heartbeat, a watching
window's refresh) skip their tick while :func:`busy`, and a call started from the wait's own
event loop (a deferred slot) first lets the one in flight end, then runs in place.
"""

from __future__ import annotations

import gc
import threading
from collections import deque
from collections.abc import Callable
from types import TracebackType
from typing import TypeVar

from PySide6.QtCore import QCoreApplication, QEvent, QEventLoop, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QWindow
from PySide6.QtWidgets import QApplication, QProgressDialog, QWidget

from desktop.plain_text import plain

DIALOG_NAME = "store-progress"
"""The progress dialog's object name (tests find it by this)."""
GRACE_SECONDS = 0.05
"""A call that ends this soon never leaves the window's thread idle in an event loop: the
common case (a save takes milliseconds) runs exactly as a plain call would."""
PROGRESS_AFTER_MS = 400
"""How long a call runs before the progress message appears (shorter waits just show the busy
cursor)."""

_T = TypeVar("_T")

_INPUT = frozenset(
    {
        QEvent.Type.MouseButtonPress,
        QEvent.Type.MouseButtonRelease,
        QEvent.Type.MouseButtonDblClick,
        QEvent.Type.MouseMove,
        QEvent.Type.Wheel,
        QEvent.Type.KeyPress,
        QEvent.Type.KeyRelease,
        QEvent.Type.ShortcutOverride,
        QEvent.Type.Shortcut,
        QEvent.Type.ContextMenu,
        QEvent.Type.InputMethod,
        QEvent.Type.TouchBegin,
        QEvent.Type.TouchUpdate,
        QEvent.Type.TouchEnd,
        QEvent.Type.TabletPress,
        QEvent.Type.TabletRelease,
        QEvent.Type.TabletMove,
        QEvent.Type.DragEnter,
        QEvent.Type.DragMove,
        QEvent.Type.Drop,
    }
)
"""What the DM does with mouse, keys, pen or touch: swallowed while a call is in flight."""

_in_flight: threading.Event | None = None
"""Set when the call in flight ends; None while no call runs."""


_after: list[Callable[[], None]] = []
"""What the call in flight asked to run on the window's thread once it ends."""


def on_gui_thread(notice: Callable[[], None]) -> None:
    """Runs ``notice`` now when on the window's thread (or outside any call); from a call's
    worker, right after the call ends and before it returns on the window's thread.

    For listeners of the store's objects that redraw windows: an encounter session tells its
    listeners of a change from inside the save, which now runs on the worker.
    """
    if _on_gui_thread() or _in_flight is None:
        notice()
    else:
        _after.append(notice)


def soon(later: Callable[[], None]) -> None:
    """Runs ``later`` once control is back in an event loop, never inside a store call's wait.

    ``QTimer.singleShot(0, …)`` means "when what runs now has returned"; a store call that
    waits runs the window's events, zero timers included, before its caller has returned (an
    undo stack stepping its index back inside the very undo that was cancelled).
    """

    def run() -> None:
        if busy():
            QTimer.singleShot(0, run)  # again once the call in flight is over
        else:
            later()

    QTimer.singleShot(0, run)


def busy() -> bool:
    """Tells whether a store call is in flight: a timer that uses the store skips its tick."""
    return _in_flight is not None


def _on_gui_thread() -> bool:
    app = QCoreApplication.instance()
    return app is not None and threading.current_thread() is threading.main_thread()


def run_store_call(
    parent: QWidget | None, what: str, call: Callable[[], _T], limit: float | None = None
) -> _T:
    """Runs ``call`` (store work only: it must not touch a widget) on a worker thread.

    The window's thread waits in a local event loop: the window repaints, user input is
    swallowed, a busy cursor shows, and after :data:`PROGRESS_AFTER_MS` a progress dialog
    (object name :data:`DIALOG_NAME`, in ``parent``'s window or the active one) says "``what``…"
    and that Combat Desk gives up after about ``limit`` seconds. ``call``'s result is returned
    and its exception raised again here, the very same object.

    Runs ``call`` in place when there is no application, when called off the window's thread
    (a call nested in another one runs on that one's worker), or when a call is already in
    flight (it then waits for that one first, so the store never serves two at once).
    """
    global _in_flight
    if not _on_gui_thread():
        return call()
    if _in_flight is not None:
        # Started from the in-flight call's event loop (a deferred slot, a timer that does not
        # check busy()): the outer call cannot return before this one does, so this one waits
        # for it (the store's timeouts bound that) and then runs here.
        _in_flight.wait()
        return call()
    done = threading.Event()
    outcome: list[tuple[bool, object]] = []
    relay = _Relay()
    loop = QEventLoop()
    relay.finished.connect(loop.quit, Qt.ConnectionType.QueuedConnection)

    def work() -> None:
        try:
            outcome.append((True, call()))
        except BaseException as exc:  # every failure goes back to the caller
            outcome.append((False, exc))
        done.set()
        relay.finished.emit()  # after set(): when the loop wakes, the outcome is there

    worker = threading.Thread(target=work, name="combat-desk-store", daemon=True)
    _in_flight = done
    collecting = gc.isenabled()
    gc.disable()  # no Qt object collected on the worker: see the module's docstring
    try:
        worker.start()
        if not done.wait(GRACE_SECONDS):
            with _Waiting(parent, what, limit):
                while not done.is_set():
                    loop.exec()
        worker.join()  # it has only its signal left to send: the relay outlives it
    finally:
        _in_flight = None
        if collecting:
            gc.enable()
    notices, _after[:] = list(_after), []
    for notice in notices:  # the worker is done with them: in the order it asked
        notice()
    ok, value = outcome[0]
    if ok:
        return value  # type: ignore[return-value]
    assert isinstance(value, BaseException)
    raise value


class _Relay(QObject):
    """Carries "the call ended" from the worker to the window's thread (a queued signal)."""

    finished = Signal()


_typed_ahead: deque[QKeyEvent] = deque()
"""Keys typed while a call was in flight, oldest first, to be typed in once it is over."""
_replaying = False
_COMMAND_KEYS = (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
                 | Qt.KeyboardModifier.MetaModifier)


def _typing(event: QKeyEvent) -> bool:
    """Typing (a die's total, a name, Enter, Tab), not a command key such as Ctrl+Z."""
    return not event.modifiers() & _COMMAND_KEYS


class _InputBlocker(QObject):
    """An application event filter that holds back the DM's input, and a window's close.

    Typing is kept and typed in afterwards, where the keyboard focus then is (a DM typing the
    next die's total while the last one is saved loses nothing); clicks and command keys
    (Ctrl+Z on a command not yet saved) are dropped.
    """

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if isinstance(watched, QWindow):
            # Let the window do its bookkeeping (which widget a press went to, the mouse
            # grab, modality) and hold the event back where it reaches a widget or a shortcut:
            # swallowed at the window, a press left Qt thinking a button was still down, and
            # the first click on the Retry / Cancel dialog that followed went nowhere.
            return False
        if event.type() in _INPUT:
            # Seen once, by the widget (or shortcut) it is for: swallowed there, it goes no
            # further.
            if (isinstance(event, QKeyEvent)
                    and event.type() in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease)
                    and _typing(event)):
                _typed_ahead.append(QKeyEvent(
                    event.type(), event.key(), event.modifiers(), event.text(),
                    event.isAutoRepeat(), event.count()))
            return True
        # The window manager's close (the title bar's X): the store must outlive the call.
        return event.type() == QEvent.Type.Close and event.spontaneous()


def _type_ahead() -> None:
    """Types the held-back keys into the focus widget, one at a time and in order. A key that
    starts another store call (Enter saves a die) waits for it; keys typed meanwhile queue
    behind the ones still held."""
    global _replaying
    if _replaying:
        return
    _replaying = True
    try:
        while _typed_ahead and not busy():
            event = _typed_ahead.popleft()
            target = QApplication.focusWidget() or QApplication.activeWindow()
            if target is not None:
                QApplication.sendEvent(target, event)
    finally:
        _replaying = False


def _seconds(limit: float) -> str:
    if limit == 1:
        return "1 second"
    return f"{round(limit) if limit >= 2 else round(limit, 1):g} seconds"


def progress_text(what: str, limit: float | None) -> str:
    """Gets the progress dialog's words: what is waited for, and when Combat Desk gives up."""
    ending = (
        f"Combat Desk gives up after about {_seconds(limit)} if the database does not answer."
        if limit is not None
        else "Combat Desk gives up by itself if the database does not answer in time."
    )
    return f"{what}…\n\n{ending}"


class _Waiting:
    """While a call runs past its grace: input swallowed, busy cursor, then the progress dialog."""

    def __init__(self, parent: QWidget | None, what: str, limit: float | None) -> None:
        self._parent = parent
        self._text = progress_text(what, limit)
        self._blocker = _InputBlocker()
        self._timer = QTimer()
        self._timer.setSingleShot(True)
        self._timer.setInterval(max(PROGRESS_AFTER_MS - int(GRACE_SECONDS * 1000), 0))
        self._timer.timeout.connect(self._show)
        self._dialog: QProgressDialog | None = None
        self._active: QWidget | None = None
        self._focus: QWidget | None = None

    def __enter__(self) -> _Waiting:
        app = QCoreApplication.instance()
        assert app is not None
        app.installEventFilter(self._blocker)
        if isinstance(app, QApplication):
            QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        self._timer.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._timer.stop()
        if self._dialog is not None:
            self._dialog.hide()
            self._dialog.deleteLater()
            self._dialog = None
            if self._focus is not None and self._focus.isVisible() and not self._focus.hasFocus():
                self._focus.setFocus(Qt.FocusReason.OtherFocusReason)  # the DM's field again
        app = QCoreApplication.instance()
        if app is not None:
            app.removeEventFilter(self._blocker)
        if isinstance(app, QApplication):
            QApplication.restoreOverrideCursor()
        if _typed_ahead:
            soon(_type_ahead)

    def _show(self) -> None:
        self._active, self._focus = QApplication.activeWindow(), QApplication.focusWidget()
        host = self._parent.window() if self._parent is not None else self._active
        dialog = QProgressDialog(plain(self._text), "", 0, 0, host)
        dialog.setObjectName(DIALOG_NAME)
        dialog.setWindowTitle("Waiting for the campaign database")
        dialog.setCancelButton(None)  # the store's timeouts end the wait; see the module text
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        dialog.setMinimumDuration(0)
        dialog.setMinimumWidth(420)
        if host is not None:
            # Drawn inside the window rather than as a window of its own: a second window
            # takes the keyboard, and once hidden it gave it back late or not at all (the
            # DM's next Ctrl+Z went nowhere). The event filter makes it modal all the same.
            dialog.setWindowFlags(Qt.WindowType.Widget)
            dialog.setAttribute(Qt.WidgetAttribute.WA_StyledBackground)
            dialog.setStyleSheet(
                "#store-progress { background: palette(window); border: 2px solid palette(mid);"
                " border-radius: 6px; }"
            )
            dialog.adjustSize()
            area = host.rect()
            dialog.move(area.center() - dialog.rect().center())
            dialog.raise_()
        else:
            # No window to sit in: a window of its own, with no close button (closing it would
            # not stop the call).
            dialog.setWindowFlags(
                Qt.WindowType.Dialog
                | Qt.WindowType.CustomizeWindowHint
                | Qt.WindowType.WindowTitleHint
            )
            dialog.setWindowModality(Qt.WindowModality.ApplicationModal)
        dialog.show()
        self._dialog = dialog
