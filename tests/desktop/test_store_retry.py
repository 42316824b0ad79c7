"""A busy campaign database: the DM gets Retry / Cancel, never a hang or a silent loss.

Another program holds the SQLite write lock (BEGIN IMMEDIATE, as a second Combat Desk in the
middle of a command). The append or roster save gives up after the store's busy timeout, the
dialog says so in words, Retry (once the lock is gone) saves the command exactly once, and
Cancel leaves the database and the window as they were before the command.
"""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from core.fight.encounter import add_entry, commands_for_scenario, start_round
from core.fight.log import EventKind
from core.play.session import EncounterSession
from core.store import Store
from desktop.app import ensure_sample_campaign
from desktop.main_window import MainWindow
from desktop.store_retry import DIALOG_NAME

BUSY_TIMEOUT = 0.3
FIGHT = {
    "system": "side-d6",
    "combatants": [
        {"id": "brannoc", "name": "Brannoc", "side": "party", "hp": 24},
        {"id": "orc-1", "name": "Orc 1", "side": "monsters", "hp": 6},
    ],
}
DECLARE = add_entry("declarations", {"actor": "brannoc", "action": "G", "target": "orc-1"})


@dataclass
class Seen:
    title: str
    text: str
    after: float
    """Seconds from the command to the dialog."""


class Lock:
    """Another program's write transaction on the campaign file."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.conn.execute("BEGIN IMMEDIATE")

    def release(self) -> None:
        if self.conn.in_transaction:
            self.conn.execute("COMMIT")


def answer_dialog(
    button: QMessageBox.StandardButton, before: Callable[[], None], seen: list[Seen]
) -> None:
    """Waits (in the dialog's own event loop) for the retry dialog, then presses ``button``."""
    start = time.monotonic()

    def poll() -> None:
        box = next(
            (
                w
                for w in QApplication.topLevelWidgets()
                if isinstance(w, QMessageBox) and w.objectName() == DIALOG_NAME and w.isVisible()
            ),
            None,
        )
        if box is None:
            if time.monotonic() - start < 10:
                QTimer.singleShot(20, poll)
            return
        seen.append(
            Seen(
                box.windowTitle(),
                f"{box.text()}\n{box.informativeText()}",
                time.monotonic() - start,
            )
        )
        before()
        box.button(button).click()

    QTimer.singleShot(0, poll)


def assert_in_words(seen: Seen, path: Path) -> None:
    text = seen.text.replace(str(path), "the file")
    assert "busy" in seen.title
    assert "locked by another program" in text and "nothing was saved" in text
    assert "Retry" in text and "Cancel" in text
    # No ids, no Python literals, no exception names.
    assert not re.search(r"[\[\]{}]|\bNone\b|Error|orc-1|brannoc|\b\w+-\d+\b", text), text


@pytest.fixture
def campaign_file(tmp_path: Path) -> Path:
    return tmp_path / "campaign.sqlite"


@pytest.fixture
def window(qtbot: QtBot, campaign_file: Path, tmp_path: Path) -> Iterator[MainWindow]:
    store = Store.open(f"sqlite:///{campaign_file}", lock_timeout=BUSY_TIMEOUT)
    ensure_sample_campaign(store)
    campaign = store.campaigns.all()[0]
    session = EncounterSession.start(store, campaign.id, "Guardroom", "side-d6")
    for command in commands_for_scenario(FIGHT):
        if command.events[0].kind is EventKind.COMBATANT_ADDED:
            session.execute(command)
    session.execute(start_round(1))
    win = MainWindow(store, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(win)
    win.show()
    yield win
    store.close()


def stored_ids(store: Store, encounter_id: int) -> list[str]:
    return [c.id for c in store.commands.load(encounter_id)]


@pytest.mark.parametrize("choice", ["retry", "cancel"])
def test_a_locked_database_asks_retry_or_cancel_for_an_encounter_command(
    window: MainWindow, campaign_file: Path, choice: str
) -> None:
    workspace = window.encounter_actions.current() or window.encounter_actions.workspaces[0]
    window.tabs.setCurrentWidget(workspace)
    controller, store = workspace.controller, window.store
    encounter_id = workspace.session.info.id
    before_ids, before_state = stored_ids(store, encounter_id), controller.state
    before_undo = controller.stack.count()
    refusals: list[str] = []
    controller.refused.connect(refusals.append)
    lock, seen = Lock(campaign_file), []
    retry = choice == "retry"
    answer_dialog(
        QMessageBox.StandardButton.Retry if retry else QMessageBox.StandardButton.Cancel,
        lock.release if retry else (lambda: None),
        seen,
    )
    taken = controller.run(DECLARE)
    lock.release()

    assert len(seen) == 1, "the dialog appears once"
    assert_in_words(seen[0], campaign_file)
    assert seen[0].after < BUSY_TIMEOUT + 20  # a message, not a hang (a loaded CI box is slow)
    after_ids = stored_ids(store, encounter_id)
    if retry:
        assert taken
        assert after_ids == [*before_ids, DECLARE.id]  # saved, and once
        assert controller.stack.count() == before_undo + 1
        assert [d["actor"] for d in controller.state.rounds[-1]["declarations"]] == ["brannoc"]
        assert not refusals
    else:
        assert not taken
        assert after_ids == before_ids  # nothing saved
        assert controller.state == before_state  # the window shows the encounter as before
        assert controller.stack.count() == before_undo
        assert refusals and "nothing was saved" in refusals[-1]
    # Either way the encounter goes on: the next command saves straight away.
    assert controller.run(start_round(2))
    assert stored_ids(store, encounter_id)[-1] == controller.session.log.commands[-1].id


@pytest.mark.parametrize("choice", ["retry", "cancel"])
def test_a_locked_database_asks_retry_or_cancel_for_a_roster_edit(
    window: MainWindow, campaign_file: Path, choice: str
) -> None:
    store = window.store
    campaign = store.campaigns.all()[0]
    window.tabs.setCurrentWidget(window.roster_panel)
    before = store.roster.entries(campaign.id)[0]
    renamed = replace(before, name=f"{before.name} the Bold")
    lock, seen = Lock(campaign_file), []
    retry = choice == "retry"
    answer_dialog(
        QMessageBox.StandardButton.Retry if retry else QMessageBox.StandardButton.Cancel,
        lock.release if retry else (lambda: None),
        seen,
    )
    window.roster_actions.save(before, renamed)
    lock.release()

    assert len(seen) == 1
    assert_in_words(seen[0], campaign_file)
    saved = next(e for e in store.roster.entries(campaign.id) if e.id == before.id)
    shown = window.entry(before.id)
    assert shown is not None
    if retry:
        assert saved.name == renamed.name and saved.version == before.version + 1  # once
        assert shown.name == renamed.name
        assert window.undo_stack.count() == 1
    else:
        assert saved == before  # nothing saved
        assert shown.name == before.name  # the roster shows what is saved
        assert window.undo_stack.count() == 0
