"""Every store action of the main window asks Retry / Cancel when the database is busy.

Another program holds a real lock on the campaign file. A write lock (``BEGIN EXCLUSIVE``; in
WAL mode others can still read) stops every change; a file opened in exclusive locking mode
stops reads too, which is how a read-only action (switching campaign, opening an encounter,
the session log, a backup) meets a busy database on SQLite. Each action is triggered through
its own menu action or button; the dialog (object name ``store-retry``) is answered Retry after
the lock is released (the action completes) or Cancel (the campaign, read back by a fresh
Store, and the window are exactly as before, and the status bar says why in words).
"""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import (
    QApplication,
    QDialogButtonBox,
    QFileDialog,
    QInputDialog,
    QMessageBox,
)
from pytestqt.qtbot import QtBot

from core.fight.encounter import commands_for_scenario, start_round
from core.fight.log import Command, EncounterLog, Event, EventKind, add_combatant
from core.model.values import Kind, frozen_mapping
from core.play.session import EncounterSession
from core.roster.entries import MonsterTemplate, RosterEntry
from core.roster.files import write_roster_csv, write_roster_json
from core.roster.results import roster_combatant
from core.store import LeaseHolder, Store
from desktop.app import ensure_sample_campaign
from desktop.main_window import MainWindow
from desktop.roster.dialogs import SessionLogDialog
from desktop.roster.results_dialog import ResultsDialog
from desktop.store_retry import DIALOG_NAME
from tests.desktop.test_store_retry import BUSY_TIMEOUT, DECLARE, FIGHT

ADDS = [c for c in commands_for_scenario(FIGHT) if c.events[0].kind is EventKind.COMBATANT_ADDED]


class WriteLock:
    """Another program's write transaction: nothing can be saved, reads go on (WAL)."""

    def __init__(self, path: Path, _window: MainWindow) -> None:
        self.conn: sqlite3.Connection | None = sqlite3.connect(
            path, isolation_level=None, check_same_thread=False
        )
        self.conn.execute("BEGIN EXCLUSIVE")

    def release(self) -> None:
        if self.conn is None:
            return
        if self.conn.in_transaction:
            self.conn.execute("COMMIT")
        self.conn.close()
        self.conn = None


class ReadLock(WriteLock):
    """Another program that opened the file in exclusive locking mode: nobody else reads.

    It can only take that lock while no other connection is open, so the window's pooled
    connections are closed first (the store opens new ones on its next call, as after a
    restore); those meet the lock.
    """

    def __init__(self, path: Path, window: MainWindow) -> None:
        window.store._engine.dispose()
        self.conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.conn.execute("PRAGMA locking_mode=EXCLUSIVE")
        self.conn.execute("BEGIN EXCLUSIVE")
        self.conn.execute("UPDATE campaigns SET name = name")  # takes the lock now


@dataclass
class Seen:
    """The message boxes shown while the action ran."""

    retry: list[str] = field(default_factory=list)
    other: list[str] = field(default_factory=list)
    over: bool = False
    """Set when the action has returned: the poll stops (it must not answer the next test)."""


def answer_retry_dialog(button: QMessageBox.StandardButton, lock: WriteLock, seen: Seen) -> None:
    """Waits (in the dialog's own event loop) for the retry dialog; Retry releases the lock
    first. Asked again (the lock still held after Cancel) it answers Cancel again."""
    start = time.monotonic()

    def poll() -> None:
        if seen.over:
            return
        # The modal dialog on top: walking every top-level widget can meet one that an
        # earlier test's window is deleting, and crash.
        modal = QApplication.activeModalWidget()
        box = (modal if isinstance(modal, QMessageBox) and modal.objectName() == DIALOG_NAME
               else None)
        if box is None:
            if time.monotonic() - start < 20:
                QTimer.singleShot(20, poll)
            return
        seen.retry.append(f"{box.windowTitle()}\n{box.text()}\n{box.informativeText()}")
        if button == QMessageBox.StandardButton.Retry:
            lock.release()
        box.button(button).click()
        QTimer.singleShot(20, poll)  # a second dialog would be answered (and counted) too

    QTimer.singleShot(0, poll)


# --- the campaign and the window -------------------------------------------------------------


@pytest.fixture
def campaign_file(tmp_path: Path) -> Path:
    return tmp_path / "campaign.sqlite"


@pytest.fixture
def window(
    qtbot: QtBot, campaign_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[MainWindow]:
    store = Store.open(f"sqlite:///{campaign_file}", lock_timeout=BUSY_TIMEOUT)
    ensure_sample_campaign(store)
    campaign = store.campaigns.all()[0]
    store.campaigns.create("Western Marches")
    old = EncounterSession.create(store, campaign.id, "Old fight", "side-d6", commands=ADDS)
    store.encounters.end(old.info.id)
    session = EncounterSession.create(store, campaign.id, "Guardroom", "side-d6", commands=ADDS)
    session.execute(start_round(1))
    # Questions are answered Yes; any other message box is recorded (none should appear).
    monkeypatch.setattr(
        QMessageBox, "question", staticmethod(lambda *_a: QMessageBox.StandardButton.Yes)
    )
    win = MainWindow(store, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(win)
    win.show()
    yield win
    win.encounter_actions.release_leases()
    win.store.close()


def read_back(path: Path) -> dict[str, Any]:
    """Everything saved in the campaign file, read by a fresh Store (no window's cache)."""
    store = Store.open(f"sqlite:///{path}")
    try:
        saved: dict[str, Any] = {}
        for campaign in store.campaigns.all():
            encounters = store.encounters.all(campaign.id)
            saved[campaign.name] = {
                "roster": [
                    (e.id, e.name, e.hp, e.status, e.version) for e in store.roster.entries(
                        campaign.id)
                ],
                "templates": [
                    (t.id, t.name, t.version) for t in store.templates.all(campaign.id)
                ],
                "encounters": [
                    (i.name, i.status, [c.id for c in store.commands.load(i.id)])
                    for i in encounters
                ],
                "leases": [
                    (lease.holder.instance if (lease := store.leases.current(i.id)) else None)
                    for i in encounters
                ],
                "log": [e.summary for e in store.roster.session_log(campaign.id)],
            }
        return saved
    finally:
        store.close()


def on_screen(window: MainWindow) -> dict[str, Any]:
    """What the DM sees: campaign, box, menu, tabs, roster, undo history, open dialogs."""
    box = window.campaign_box
    workspaces = window.encounter_actions.workspaces
    return {
        "title": window.windowTitle(),
        "campaign": window.campaign.name if window.campaign else None,
        "box": [box.itemText(i) for i in range(box.count())],
        "box shows": box.currentText(),
        "menu checks": [a.text() for a in window.campaign_group.actions() if a.isChecked()],
        "tabs": [
            (window.tabs.tabText(i), id(window.tabs.widget(i))) for i in range(window.tabs.count())
        ],
        "tab shown": window.tabs.currentIndex(),
        "entries": [(e.name, e.hp, e.version) for e in window.entries],
        "templates": [t.name for t in window.templates],
        "undo": (window.undo_stack.count(), window.undo_stack.index()),
        "encounters": [
            (
                w.session.info.name,
                w.session.info.status,
                len(w.session.log.commands),
                w.session.holding,
                w.lease_banner.isVisibleTo(window),
            )
            for w in workspaces
        ],
        "encounter undo": [
            (w.controller.stack.count(), w.controller.stack.index()) for w in workspaces
        ],
        "dialogs": [
            type(d).__name__
            for d in (window.roster_actions.dialog,)
            if d is not None and getattr(d, "isVisible", lambda: False)()
        ],
    }


# --- the actions --------------------------------------------------------------------------------


@dataclass
class Action:
    """One store action: made ready (unlocked), triggered (locked), and what done looks like."""

    lock: type[WriteLock]
    trigger: Callable[[MainWindow, Path], object]
    done: Callable[[MainWindow, dict[str, Any]], bool]
    ready: Callable[[MainWindow, Path, pytest.MonkeyPatch], None] = lambda *_a: None
    said: Callable[[MainWindow], str] = lambda w: w.statusBar().currentMessage()
    """Where Cancel's reason is shown: the status bar, or (encounter commands, as every
    refused command) the message beside the board."""


def _first(window: MainWindow) -> str:
    return window.store.campaigns.all()[0].name


def _ready_new_campaign(_w: MainWindow, _p: Path, mp: pytest.MonkeyPatch) -> None:
    mp.setattr(QInputDialog, "getText", staticmethod(lambda *_a: ("Keep on the Border", True)))


def _switch(window: MainWindow, _p: Path) -> None:
    chosen = next(a for a in window.campaign_group.actions() if a.text() == "Western Marches")
    chosen.trigger()


def _ready_reload(window: MainWindow, _p: Path, _mp: pytest.MonkeyPatch) -> None:
    other = Store.open(f"sqlite:///{window.store.file}")  # another Combat Desk adds one
    other.campaigns.create("Made elsewhere")
    other.close()


def _new_encounter(window: MainWindow, _p: Path) -> None:
    window.encounter_actions.new_action.trigger()
    dialog = window.encounter_actions.dialog
    dialog.set_system("side-d6")  # type: ignore[union-attr]
    dialog.set_count("Orc", 2)  # type: ignore[union-attr]
    dialog.accept()  # type: ignore[union-attr]


def _old_fight_entries(window: MainWindow) -> list[Any]:
    """The Open Encounter menu's entry for the ended fight (the menu is read when it opens)."""
    return [
        a for a in window.encounter_actions.open_menu_actions() if a.text().startswith("Old fight")
    ]


def _ready_menu(window: MainWindow, _p: Path, _mp: pytest.MonkeyPatch) -> None:
    assert _old_fight_entries(window)  # the menu was opened (and read) before the lock


def _open_old_fight(window: MainWindow, _p: Path) -> None:
    _old_fight_entries(window)[0].trigger()


def _tab_names(window: MainWindow) -> list[str]:
    return [window.tabs.tabText(i) for i in range(window.tabs.count())]


def _show_guardroom(window: MainWindow) -> None:
    guardroom = next(
        w for w in window.encounter_actions.workspaces if w.session.info.name == "Guardroom"
    )
    window.tabs.setCurrentWidget(guardroom)


def _ready_guardroom(window: MainWindow, _p: Path, _mp: pytest.MonkeyPatch) -> None:
    _show_guardroom(window)


def _ready_old_fight(window: MainWindow, path: Path, mp: pytest.MonkeyPatch) -> None:
    _ready_menu(window, path, mp)
    _open_old_fight(window, path)


def _ready_taken_over(window: MainWindow, _p: Path, _mp: pytest.MonkeyPatch) -> None:
    _show_guardroom(window)
    workspace = window.encounter_actions.current()
    assert workspace is not None
    other = LeaseHolder("another-window", "bob", "table-2")
    window.store.leases.take(workspace.session.info.id, other, take_over=True)
    workspace.beat()  # learns it was taken over: this window only watches now
    assert workspace.session.watching


def _ready_declared(window: MainWindow, _p: Path, _mp: pytest.MonkeyPatch) -> None:
    _show_guardroom(window)
    workspace = window.encounter_actions.current()
    assert workspace is not None and workspace.controller.run(DECLARE)


def _ready_declared_and_undone(window: MainWindow, p: Path, mp: pytest.MonkeyPatch) -> None:
    _ready_declared(window, p, mp)
    window.undo_action.trigger()


def _guardroom_commands(saved: dict[str, Any]) -> list[str]:
    return next(e for c in saved.values() for e in c["encounters"] if e[0] == "Guardroom")[2]


def _declared(saved: dict[str, Any]) -> bool:
    return DECLARE.id in _guardroom_commands(saved)


def _declared_again(saved: dict[str, Any]) -> bool:
    """A redo is saved as a new command (a new id): configure, adds, round 1, the redo."""
    return len(_guardroom_commands(saved)) == 1 + len(ADDS) + 2


def _take_over(window: MainWindow, _p: Path) -> None:
    workspace = window.encounter_actions.current()
    assert workspace is not None
    workspace.take_over_button.click()


def _roster_file(path: Path, suffix: str) -> Path:
    entry = RosterEntry(name="Wulfric the Wanderer", kind=Kind.PC, side="party", hp=9, max_hp=9)
    template = MonsterTemplate(name="Marsh Owlbear", hit_dice="3d8+1")
    target = path / f"newcomers{suffix}"
    write = write_roster_csv if suffix == ".csv" else write_roster_json
    target.write_text(write([entry], [template] if suffix == ".json" else []), encoding="utf-8")
    return target


def _ready_import(suffix: str) -> Callable[[MainWindow, Path, pytest.MonkeyPatch], None]:
    def ready(_w: MainWindow, tmp: Path, mp: pytest.MonkeyPatch) -> None:
        file = _roster_file(tmp, suffix)
        mp.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *_a: (str(file), "")))

    return ready


def _ready_imported(window: MainWindow, tmp: Path, _mp: pytest.MonkeyPatch) -> None:
    assert window.roster_actions.import_path(_roster_file(tmp, ".json")) == 2


def _ready_imported_and_undone(window: MainWindow, tmp: Path, mp: pytest.MonkeyPatch) -> None:
    _ready_imported(window, tmp, mp)
    window.undo_action.trigger()


def _redo(window: MainWindow, _p: Path) -> None:
    window.tabs.setCurrentWidget(window.roster_panel)
    window.redo_action.trigger()


def _undo(window: MainWindow, _p: Path) -> None:
    window.tabs.setCurrentWidget(window.roster_panel)
    window.undo_action.trigger()


def _ready_results(window: MainWindow, _p: Path, _mp: pytest.MonkeyPatch) -> None:
    brannoc = next(e for e in window.entries if e.name == "Brannoc the Bold")
    log = EncounterLog()
    log.execute(add_combatant(roster_combatant(brannoc)))
    hit = Event(EventKind.HP_CHANGED, frozen_mapping({"id": f"roster-{brannoc.id}", "delta": -5}))
    log.execute(Command("Hit", (hit,)))
    assert isinstance(window.roster_actions.review_results(log.state, "Orc ambush"), ResultsDialog)


def _apply_results(window: MainWindow, _p: Path) -> None:
    dialog = window.roster_actions.dialog
    assert isinstance(dialog, ResultsDialog)
    dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Apply).click()


def _ready_backup(_w: MainWindow, tmp: Path, mp: pytest.MonkeyPatch) -> None:
    target = str(tmp / "backup.sqlite")
    mp.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *_a: (target, "")))


def _ready_restore(window: MainWindow, tmp: Path, mp: pytest.MonkeyPatch) -> None:
    backup = window.store.backup(tmp / "before.sqlite")
    assert window.create_campaign("After the backup") is not None
    mp.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *_a: (str(backup), "")))


def _saved_names(saved: dict[str, Any]) -> list[str]:
    return [e[1] for c in saved.values() for e in c["roster"]]


ACTIONS: dict[str, Action] = {
    "new campaign": Action(
        WriteLock,
        lambda w, _p: w.new_campaign_action.trigger(),
        lambda w, saved: (
            "Keep on the Border" in saved
            and w.campaign is not None
            and w.campaign.name == "Keep on the Border"
        ),
        _ready_new_campaign,
    ),
    "switch campaign": Action(
        ReadLock,
        _switch,
        lambda w, _s: (
            w.campaign_box.currentText() == "Western Marches"
            and w.windowTitle().startswith("Western Marches")
            and not w.entries
        ),
    ),
    "reload campaigns": Action(
        ReadLock,
        lambda w, _p: w.reload_action.trigger(),
        lambda w, _s: w.campaign_box.findText("Made elsewhere") >= 0,
        _ready_reload,
    ),
    "new encounter": Action(
        WriteLock,
        _new_encounter,
        lambda w, saved: (
            any(
                e[0].startswith("Encounter ") and e[1] == "active"
                for e in next(iter(saved.values()))["encounters"]
            )
            and any(t.startswith("Encounter: Encounter") for t in _tab_names(w))
        ),
    ),
    "list encounters (Open Encounter menu)": Action(
        ReadLock,
        lambda w, _p: w.encounter_actions.open_menu_actions(),
        lambda w, _s: any(  # as listed now (not read again)
            a.text().startswith("Old fight") for a in w.encounter_actions.open_menu.actions()
        ),
    ),
    "open encounter": Action(
        ReadLock,
        _open_old_fight,
        lambda w, _s: "Encounter: Old fight (ended)" in _tab_names(w),
        _ready_menu,
    ),
    "reload encounter": Action(
        ReadLock,
        lambda w, _p: w.encounter_actions.reload_action.trigger(),
        lambda w, _s: "Read Guardroom again" in w.statusBar().currentMessage(),
        _ready_guardroom,
    ),
    "end encounter": Action(
        WriteLock,
        lambda w, _p: w.encounter_actions.end_action.trigger(),
        lambda w, saved: (
            ("Guardroom", "ended") in [e[:2] for e in next(iter(saved.values()))["encounters"]]
            and "Encounter: Guardroom" not in _tab_names(w)
        ),
        _ready_guardroom,
    ),
    "reopen encounter": Action(
        WriteLock,
        lambda w, _p: w.encounter_actions.reopen_action.trigger(),
        lambda w, saved: (
            ("Old fight", "active") in [e[:2] for e in next(iter(saved.values()))["encounters"]]
            and "Encounter: Old fight" in _tab_names(w)
        ),
        _ready_old_fight,
    ),
    "undo an encounter command": Action(
        WriteLock,
        lambda w, _p: w.undo_action.trigger(),
        lambda w, saved: (
            not _declared(saved) and w.encounter_actions.current().controller.stack.index() == 0
        ),  # type: ignore[union-attr]
        _ready_declared,
        lambda w: w.encounter_actions.current().board.message.text(),  # type: ignore[union-attr]
    ),
    "redo an encounter command": Action(
        WriteLock,
        lambda w, _p: w.redo_action.trigger(),
        lambda w, saved: (
            _declared_again(saved) and w.encounter_actions.current().controller.stack.index() == 1
        ),  # type: ignore[union-attr]
        _ready_declared_and_undone,
        lambda w: w.encounter_actions.current().board.message.text(),  # type: ignore[union-attr]
    ),
    "take over": Action(
        WriteLock,
        _take_over,
        lambda w, _s: w.encounter_actions.current().session.holding,  # type: ignore[union-attr]
        _ready_taken_over,
    ),
    "import CSV": Action(
        WriteLock,
        lambda w, _p: w.roster_actions.import_action.trigger(),
        lambda w, saved: (
            "Wulfric the Wanderer" in _saved_names(saved)
            and w.entry(next(e.id for e in w.entries if e.name == "Wulfric the Wanderer"))
            is not None
        ),
        _ready_import(".csv"),
    ),
    "import JSON with a template": Action(
        WriteLock,
        lambda w, _p: w.roster_actions.import_action.trigger(),
        lambda w, saved: (
            "Wulfric the Wanderer" in _saved_names(saved)
            and "Marsh Owlbear" in [t.name for t in w.templates]
        ),
        _ready_import(".json"),
    ),
    "undo import": Action(
        WriteLock,
        _undo,
        lambda w, saved: (
            "Wulfric the Wanderer" not in _saved_names(saved)
            and "Marsh Owlbear" not in [t.name for t in w.templates]
        ),
        _ready_imported,
    ),
    "redo import": Action(
        WriteLock,
        _redo,
        lambda w, saved: (
            "Wulfric the Wanderer" in _saved_names(saved) and w.undo_stack.index() == 1
        ),
        _ready_imported_and_undone,
    ),
    "apply results": Action(
        WriteLock,
        _apply_results,
        lambda w, saved: any(
            e[1] == "Brannoc the Bold" and e[2] == 19 for e in next(iter(saved.values()))["roster"]
        ),
        _ready_results,
    ),
    "session log": Action(
        ReadLock,
        lambda w, _p: w.roster_actions.log_action.trigger(),
        lambda w, _s: isinstance(w.roster_actions.dialog, SessionLogDialog),
    ),
    "backup": Action(
        ReadLock,
        lambda w, _p: w.store_actions.backup_action.trigger(),  # type: ignore[attr-defined]
        lambda w, _s: (w.store.file.parent / "backup.sqlite").exists(),  # type: ignore[union-attr]
        _ready_backup,
    ),
    "restore": Action(
        WriteLock,
        lambda w, _p: w.store_actions.restore_action.trigger(),  # type: ignore[attr-defined]
        lambda w, saved: (
            "After the backup" not in saved and w.campaign_box.findText("After the backup") < 0
        ),
        _ready_restore,
    ),
}


def assert_in_words(text: str) -> None:
    """No ids, no Python literals, no exception names."""
    assert not re.search(r"[\[\]{}]|\bNone\b|Error|Traceback|orc-1|\broster-\d+", text), text


@pytest.mark.parametrize("choice", ["retry", "cancel"])
@pytest.mark.parametrize("name", list(ACTIONS))
def test_a_busy_database_asks_retry_or_cancel(
    window: MainWindow,
    campaign_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    choice: str,
) -> None:
    action = ACTIONS[name]
    action.ready(window, tmp_path, monkeypatch)
    seen = Seen()
    monkeypatch.setattr(
        QMessageBox,
        "warning",
        staticmethod(lambda _p, title, text, *_a: seen.other.append(f"{title}: {text}")),
    )
    monkeypatch.setattr(
        QMessageBox,
        "critical",
        staticmethod(lambda _p, title, text, *_a: seen.other.append(f"{title}: {text}")),
    )
    saved_before, shown_before = read_back(campaign_file), on_screen(window)
    retry = choice == "retry"
    lock = action.lock(campaign_file, window)
    answer_retry_dialog(
        QMessageBox.StandardButton.Retry if retry else QMessageBox.StandardButton.Cancel, lock, seen
    )
    try:
        action.trigger(window, tmp_path)
        QApplication.processEvents()  # what the action left for the event loop
    finally:
        seen.over = True
        lock.release()

    assert not seen.other, f"another message box appeared: {seen.other}"
    assert len(seen.retry) == 1, seen.retry
    assert "busy" in seen.retry[0] and "Retry" in seen.retry[0]
    assert_in_words(seen.retry[0].replace(str(campaign_file), "the file"))
    saved_after = read_back(campaign_file)
    if retry:
        assert action.done(window, saved_after), (name, on_screen(window))
    else:
        assert saved_after == saved_before  # nothing saved
        assert on_screen(window) == shown_before  # and the window as before
        said = action.said(window).replace(str(campaign_file), "the file")
        assert "locked by another program" in said, said
        assert_in_words(said)
        assert not action.done(window, saved_after)


# --- the same dialog for a PostgreSQL campaign --------------------------------------------------


class TableLock:
    """Another client holds a table locked (mid-transaction): reads and writes on it wait for
    the server's lock timeout, which the store words as a locked database."""

    def __init__(self, url: str, table: str) -> None:
        from sqlalchemy import create_engine, text

        self.engine = create_engine(url)
        self.conn = self.engine.connect()
        self.conn.execute(text(f"LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE"))

    def release(self) -> None:
        if self.conn.in_transaction():
            self.conn.rollback()
        self.conn.close()
        self.engine.dispose()


@pytest.fixture
def pg_url(tmp_path: Path) -> Iterator[str]:
    from tests.store.conftest import fresh_database

    yield from fresh_database("postgresql", tmp_path)


@pytest.mark.parametrize("choice", ["retry", "cancel"])
@pytest.mark.parametrize("name", ["new campaign", "switch campaign"])
def test_a_locked_server_table_asks_retry_or_cancel_too(
    qtbot: QtBot,
    pg_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    choice: str,
) -> None:
    store = Store.open(pg_url, lock_timeout=BUSY_TIMEOUT)
    ensure_sample_campaign(store)
    store.campaigns.create("Western Marches")
    window = MainWindow(store, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    window.show()
    _ready_new_campaign(window, tmp_path, monkeypatch)
    seen = Seen()
    monkeypatch.setattr(
        QMessageBox,
        "warning",
        staticmethod(lambda _p, title, text, *_a: seen.other.append(f"{title}: {text}")),
    )
    campaigns_before, shown_before = store.campaigns.all(), on_screen(window)
    lock = TableLock(pg_url, "campaigns" if name == "new campaign" else "characters")
    retry = choice == "retry"
    answer_retry_dialog(
        QMessageBox.StandardButton.Retry if retry else QMessageBox.StandardButton.Cancel, lock, seen
    )  # type: ignore[arg-type]
    try:
        ACTIONS[name].trigger(window, tmp_path)
        QApplication.processEvents()
    finally:
        seen.over = True
        lock.release()
    try:
        assert not seen.other and len(seen.retry) == 1, seen
        assert "busy" in seen.retry[0]
        assert_in_words(seen.retry[0])
        if retry:
            assert window.campaign is not None and window.campaign.name == (
                "Keep on the Border" if name == "new campaign" else "Western Marches"
            )
        else:
            assert store.campaigns.all() == campaigns_before
            assert on_screen(window) == shown_before
            assert "holding this record" in window.statusBar().currentMessage()
    finally:
        window.encounter_actions.release_leases()
        store.close()
