"""A slow store call never freezes the window (issue 16, "nothing blocks the GUI thread").

The call runs on a worker thread while the window's thread waits in a local event loop: timers
keep ticking, clicks and keys do nothing, and past 400 ms a progress message says what is being
waited for and when Combat Desk gives up. Then a real one: another program holds the campaign
file's write lock while the DM renames a roster entry.
"""

from __future__ import annotations

import gc
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QSettings, Qt, QTimer
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLineEdit,
    QMessageBox,
    QProgressDialog,
    QPushButton,
    QWidget,
)
from pytestqt.qtbot import QtBot
from sqlalchemy import event

from core.play.session import EncounterSession
from core.store import Store
from desktop import store_call
from desktop.app import ensure_sample_campaign
from desktop.encounter.workspace import EncounterWorkspace
from desktop.main_window import MainWindow
from desktop.store_call import DIALOG_NAME, busy, run_store_call
from desktop.store_retry import DIALOG_NAME as RETRY_DIALOG

SLOW = 1.5


def progress_dialog(window: QWidget | None = None) -> QProgressDialog | None:
    """Gets the visible progress dialog inside ``window``, or one of its own (no window)."""
    if window is not None:
        found = window.findChild(QProgressDialog, DIALOG_NAME)
        return found if found is not None and found.isVisible() else None
    return next(
        (
            w
            for w in QApplication.topLevelWidgets()
            if isinstance(w, QProgressDialog) and w.objectName() == DIALOG_NAME and w.isVisible()
        ),
        None,
    )


def ticked_throughout(ticks: list[float], start: float, end: float, parts: int = 4) -> bool:
    """Tells whether a timer ticked in each quarter of a wait: the window's event loop ran all
    along. (A count of ticks depends on the machine's load; a quarter with none is a freeze.)"""
    span = (end - start) / parts
    return all(any(start + i * span <= t < start + (i + 1) * span for t in ticks)
               for i in range(parts))


def sleeper(seconds: float, result: object = "done") -> Callable[[], object]:
    def call() -> object:
        time.sleep(seconds)
        return result

    return call


def at(ms: int, action: Callable[[], None]) -> None:
    QTimer.singleShot(ms, action)


def settle() -> None:
    """Works off what earlier tests left queued (deletions, repaints of their windows), as the
    app's own event loop would have long before: the wait below would do it first."""
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    QApplication.processEvents()


def test_a_slow_call_keeps_the_window_alive_and_says_what_it_waits_for(qtbot: QtBot) -> None:
    window, button, field = QWidget(), QPushButton("Hit"), QLineEdit()
    row = QHBoxLayout(window)
    row.addWidget(button)
    row.addWidget(field)
    qtbot.addWidget(window)
    window.resize(600, 300)
    window.show()
    window.activateWindow()
    qtbot.waitActive(window)
    settle()
    clicks: list[str] = []
    button.clicked.connect(lambda *_: clicks.append("clicked"))
    undo = QShortcut(QKeySequence.StandardKey.Undo, window)
    undo.activated.connect(lambda: clicks.append("undo"))
    ticks: list[float] = []
    clock = QTimer()
    clock.setInterval(50)
    clock.timeout.connect(lambda: ticks.append(time.monotonic()))
    clock.start()
    seen: list[tuple[str, str, bool]] = []

    def look() -> None:
        dialog = progress_dialog(window)
        if dialog is not None:
            seen.append((dialog.labelText(), dialog.windowTitle(), busy()))
            assert dialog.window() is window  # shown inside the DM's window

    def poke() -> None:
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        field.setFocus()
        qtbot.keyClicks(field, "orc")
        qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)

    at(200, lambda: seen.append(("before 400 ms", "", progress_dialog(window) is not None)))
    at(700, look)
    at(900, poke)
    field.setFocus()  # where the DM was typing when the save began
    start = time.monotonic()
    what = "Saving 'Hit: Orc 1' to the campaign database"
    result = run_store_call(button, what, sleeper(SLOW), 5)
    took = time.monotonic() - start
    during = [t for t in ticks if start < t < start + took]
    clock.stop()

    assert result == "done"
    assert took >= SLOW
    assert seen[0] == ("before 400 ms", "", False)  # a short wait shows no dialog
    assert len(seen) == 2, "the progress dialog was up at 700 ms"
    text, title, was_busy = seen[1]
    assert "Saving 'Hit: Orc 1' to the campaign database…" in text
    assert "gives up after about 5 seconds" in text
    assert "database" in title and was_busy
    assert ticked_throughout(during, start, start + took), (
        f"the window's timer ticked {len(during)} times in {took:.1f} s, not all along")
    assert clicks == [] and field.text() == ""  # nothing acted during the wait
    assert progress_dialog(window) is None and not busy()  # all gone afterwards
    assert QApplication.overrideCursor() is None
    # The same input outside a call does act (the test above could have failed), at once:
    # the window is still the active one, so its shortcuts work (the next Ctrl+Z once went
    # nowhere after a progress window of its own had closed).
    assert QApplication.activeWindow() is window
    settle()  # the typing held back is typed in; the click and the Ctrl+Z are dropped
    assert clicks == [] and field.text() == "orc"
    field.clear()
    poke()
    assert clicks == ["clicked", "undo"] and field.text() == "orc"


def test_typing_during_a_save_is_typed_in_afterwards_in_order(qtbot: QtBot) -> None:
    """A DM types the next die's total while the last one is saved: Enter saves again, and
    what was typed during that second save follows, nothing lost or out of order."""
    window, first, second = QWidget(), QLineEdit(), QLineEdit()
    row = QHBoxLayout(window)
    row.addWidget(first)
    row.addWidget(second)
    qtbot.addWidget(window)
    window.show()
    window.activateWindow()
    qtbot.waitActive(window)
    first.setFocus()
    saved: list[str] = []

    def save(field: QLineEdit, after: QLineEdit) -> None:
        saved.append(field.text())
        run_store_call(window, "Saving a die", sleeper(0.3))
        after.setFocus()  # the next die's field takes the keyboard, as the stepper does

    first.returnPressed.connect(lambda: save(first, second))
    second.returnPressed.connect(lambda: save(second, first))
    at(100, lambda: qtbot.keyClicks(first, "5\r1"))  # during the first save: 5, Enter, 1
    qtbot.keyClicks(first, "7\r")
    qtbot.waitUntil(lambda: not busy() and len(saved) == 2 and first.text() == "71",
                    timeout=5000)
    assert saved == ["7", "5"] and second.text() == "5"


def test_a_failure_comes_back_unchanged_on_the_window_thread(qtbot: QtBot) -> None:
    failure = ValueError("the orc is not there")

    def call() -> None:
        time.sleep(0.2)  # past the grace: the wait's event loop ran
        raise failure

    with pytest.raises(ValueError) as caught:
        run_store_call(None, "Saving", call)
    assert caught.value is failure
    assert not busy() and QApplication.overrideCursor() is None


def test_a_quick_call_shows_nothing_and_runs_off_the_window_thread(qtbot: QtBot) -> None:
    shown: list[bool] = []
    at(0, lambda: shown.append(True))  # a pending slot does not run during a quick call
    threads: list[threading.Thread] = []
    assert run_store_call(None, "Saving", lambda: threads.append(threading.current_thread()) or 7)
    assert threads and threads[0] is not threading.main_thread()
    assert shown == [] and progress_dialog() is None


def test_a_window_left_in_a_reference_cycle_is_deleted_on_the_window_thread(
        qtbot: QtBot) -> None:
    """The collector runs where Python allocates; the store's SQL allocates a lot on the worker.
    Collected there, a closed window in a cycle was deleted off the window's thread, which Qt
    does not allow."""
    deleted_on: list[str] = []
    closed = QWidget()
    closed.itself = closed  # type: ignore[attr-defined]  # a cycle: only the collector frees it
    weakref.finalize(closed, lambda: deleted_on.append(threading.current_thread().name))
    del closed

    def allocating_call() -> int:
        rows = [[] for _ in range(50_000)]  # like a big query: far past the collector's thresholds
        time.sleep(0.1)  # past the grace: the window's thread waits in its event loop
        return len(rows)

    assert run_store_call(None, "Saving", allocating_call) == 50_000
    assert deleted_on == []  # not yet: nothing was collected while the call ran
    gc.collect()
    assert deleted_on == [threading.main_thread().name]


def test_calls_nested_or_off_the_window_thread_run_in_place(qtbot: QtBot) -> None:
    where: list[str] = []

    def inner() -> str:
        where.append(threading.current_thread().name)
        return "inner"

    def outer() -> str:
        where.append(threading.current_thread().name)
        return run_store_call(None, "Saving", inner)

    assert run_store_call(None, "Saving", outer) == "inner"
    assert where[0] == where[1] != threading.main_thread().name  # one worker, inline


def test_a_call_started_during_the_wait_runs_after_the_one_in_flight(qtbot: QtBot) -> None:
    spans: list[tuple[str, float, float]] = []

    def timed(name: str, seconds: float) -> Callable[[], str]:
        def call() -> str:
            begin = time.monotonic()
            time.sleep(seconds)
            spans.append((name, begin, time.monotonic()))
            return name

        return call

    second: list[str] = []
    at(150, lambda: second.append(run_store_call(None, "Saving", timed("second", 0.1))))
    assert run_store_call(None, "Saving", timed("first", 0.6)) == "first"
    assert second == ["second"]
    (first_name, _, first_end), (second_name, second_begin, _) = spans
    assert (first_name, second_name) == ("first", "second")
    assert second_begin >= first_end  # never two calls on the store at once


def test_the_lease_timers_skip_their_tick_while_a_call_is_in_flight(
    qtbot: QtBot, sample_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    campaign = sample_store.campaigns.all()[0]
    session = EncounterSession.start(sample_store, campaign.id, "Guardroom", "side-d6")
    workspace = EncounterWorkspace(session)
    qtbot.addWidget(workspace)
    used: list[str] = []
    monkeypatch.setattr(session, "heartbeat", lambda: used.append("heartbeat"))
    monkeypatch.setattr(session, "catch_up", lambda: used.append("catch up") or False)
    at(200, workspace.beat)
    at(250, workspace.watch)
    run_store_call(None, "Saving", sleeper(0.6))
    assert used == []
    workspace.beat()
    workspace.watch()
    assert used == ["heartbeat", "catch up"]  # outside a call they do their work


@pytest.mark.parametrize("url", ["file", "memory"])
def test_a_connection_used_on_the_worker_serves_the_window_thread_next(
    tmp_path: Path, url: str, qtbot: QtBot
) -> None:
    """SQLite refuses a connection made on another thread unless told otherwise: a file store
    (QueuePool) and an in-memory one (one shared connection) both hand theirs across."""
    store = Store.open(f"sqlite:///{tmp_path / 'c.sqlite'}" if url == "file" else "sqlite://")
    used: dict[int, set[str]] = {}

    def checkout(dbapi_connection: object, *_: object) -> None:
        used.setdefault(id(dbapi_connection), set()).add(threading.current_thread().name)

    event.listen(store._engine, "checkout", checkout)  # which thread used which connection
    try:
        made = run_store_call(None, "Saving", lambda: store.campaigns.create("Greyhawk"))
        assert [(c.id, c.name) for c in store.campaigns.all()] == [(made.id, "Greyhawk")]
        assert [c.name for c in run_store_call(None, "Reading", store.campaigns.all)] == [
            "Greyhawk"]
    finally:
        store.close()
    assert any(len(threads) > 1 for threads in used.values()), used  # one crossed threads


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> Iterator[tuple[MainWindow, Path]]:
    path = tmp_path / "campaign.sqlite"
    store = Store.open(f"sqlite:///{path}", lock_timeout=SLOW)
    ensure_sample_campaign(store)
    win = MainWindow(store, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(win)
    win.show()
    yield win, path
    store.close()


def test_a_roster_edit_on_a_locked_file_keeps_the_window_alive_until_retry_or_cancel(
    window: tuple[MainWindow, Path], qtbot: QtBot
) -> None:
    win, path = window
    store = win.store
    campaign = store.campaigns.all()[0]
    win.tabs.setCurrentWidget(win.roster_panel)
    before = store.roster.entries(campaign.id)[0]
    renamed = replace(before, name=f"{before.name} the Bold")
    settle()
    lock = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    lock.execute("BEGIN IMMEDIATE")  # another program in the middle of a write
    ticks: list[float] = []
    clock = QTimer()
    clock.setInterval(50)
    clock.timeout.connect(lambda: ticks.append(time.monotonic()))
    clock.start()
    progress: list[str] = []
    retry: list[float] = []
    start = time.monotonic()

    def poll() -> None:
        dialog = progress_dialog(win)
        if dialog is not None and not progress:
            progress.append(dialog.labelText())
            assert dialog.window() is win  # inside the main window
        box = next((w for w in win.findChildren(QMessageBox, RETRY_DIALOG) if w.isVisible()),
                   None)  # the window's own (Qt's top-level list can hold stale wrappers)
        if box is None:
            if time.monotonic() - start < 20:
                at(20, poll)
            return
        retry.append(time.monotonic() - start)
        box.button(QMessageBox.StandardButton.Cancel).click()

    at(0, poll)
    win.roster_actions.save(before, renamed)
    lock.execute("COMMIT")
    lock.close()
    clock.stop()

    assert retry, "the Retry / Cancel dialog appeared"
    waited = [t for t in ticks if start < t < start + retry[0]]
    assert retry[0] >= SLOW  # it came when the busy timeout ran out...
    assert ticked_throughout(waited, start, start + retry[0]), (
        f"...and the window's timer ticked all along meanwhile (it ticked {len(waited)} times)")
    assert progress, "the progress message showed during the wait"
    assert f"Saving 'Edit {renamed.name}' to the campaign database…" in progress[0]
    assert "gives up after about 1.5 seconds" in progress[0]
    assert next(e for e in store.roster.entries(campaign.id) if e.id == before.id) == before
    assert not store_call.busy()
