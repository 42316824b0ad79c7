"""Two Combat Desks on one campaign file: the first plays an encounter, the second watches it
live, told who plays it; Take Over moves the play, and the first window is refused in words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from core.fight.encounter import add_entry, commands_for_scenario, start_round
from core.fight.log import EventKind
from core.play.session import EncounterSession
from core.store import Store
from desktop.encounter.workspace import EncounterWorkspace
from desktop.main_window import MainWindow

FIGHT = {"system": "side-d6", "combatants": [
    {"id": "brannoc", "name": "Brannoc", "side": "party", "hp": 24},
    {"id": "orc-1", "name": "Orc 1", "side": "monsters", "hp": 6}]}  # fmt: skip
IDS = re.compile(r"\b[0-9a-f]{32}\b|orc-1|brannoc|\[|\{|None|True|False")


def _window(qtbot: QtBot, store: Store, tmp_path: Path, name: str) -> MainWindow:
    window = MainWindow(store, QSettings(str(tmp_path / f"{name}.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    window.show()
    return window


def _shown(window: MainWindow) -> EncounterWorkspace:
    workspace = window.encounter_actions.current() or window.encounter_actions.workspaces[0]
    window.tabs.setCurrentWidget(workspace)
    return workspace


def _declarers(workspace: EncounterWorkspace) -> list[str]:
    return [d["actor"] for d in workspace.session.state.rounds[-1]["declarations"]]


def test_a_second_window_watches_live_and_takes_over(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'campaign.sqlite'}"
    setup = Store.open(url)
    campaign = setup.campaigns.create("Greyhawk")
    session = EncounterSession.start(setup, campaign.id, "Guardroom", "side-d6")
    for command in commands_for_scenario(FIGHT):
        if command.events[0].kind is EventKind.COMBATANT_ADDED:
            session.execute(command)
    session.execute(start_round(1))
    setup.close()

    first_store, second_store = Store.open(url), Store.open(url)
    first = _window(qtbot, first_store, tmp_path, "first")
    mine = _shown(first)
    assert mine.session.holding and not mine.lease_banner.isVisible()
    assert mine.heartbeat_timer.isActive() and not mine.watch_timer.isActive()
    assert mine.board.isEnabled()

    # The second DM opens the same campaign: the fight is shown read-only, its player named.
    second = _window(qtbot, second_store, tmp_path, "second")
    theirs = _shown(second)
    assert theirs.session.watching and theirs.lease_banner.isVisible()
    banner = theirs.lease_label.text()
    holder = first.encounter_actions.holder
    assert re.search(
        rf"Guardroom is open in Combat Desk on {re.escape(holder.host)} by "
        rf"{re.escape(holder.user)} since \d\d:\d\d",
        banner,
    ), banner
    assert not IDS.search(banner), banner
    assert not theirs.board.isEnabled() and not theirs.stepper.isEnabled()
    assert theirs.watch_timer.isActive() and not theirs.heartbeat_timer.isActive()
    assert not second.encounter_actions.end_action.isEnabled()
    # Nothing the watcher tries is saved.
    stored = len(second_store.commands.load(theirs.session.info.id))
    refusals: list[str] = []
    theirs.controller.refused.connect(refusals.append)
    assert not theirs.controller.run(
        add_entry("declarations", {"actor": "orc-1", "action": "G", "target": "brannoc"})
    )
    assert refusals and "only shows it" in refusals[-1] and "Take Over" in refusals[-1]
    assert len(second_store.commands.load(theirs.session.info.id)) == stored

    # The first DM plays; the watcher sees it on its next refresh tick.
    assert mine.controller.run(
        add_entry("declarations", {"actor": "brannoc", "action": "G", "target": "orc-1"})
    )
    assert _declarers(theirs) == []
    theirs.watch()  # the watch timer's slot
    assert _declarers(theirs) == ["brannoc"]
    # ...and with the timer itself (shortened for the test).
    assert mine.controller.run(
        add_entry("declarations", {"actor": "orc-1", "action": "G", "target": "brannoc"})
    )
    theirs.watch_timer.setInterval(50)
    qtbot.waitUntil(lambda: _declarers(theirs) == ["brannoc", "orc-1"], timeout=5000)

    # Take Over, after a confirmation that names who plays it now.
    asked: list[str] = []

    def yes(_parent: object, _title: str, text: str, *_args: object) -> QMessageBox.StandardButton:
        asked.append(text)
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", staticmethod(yes))
    theirs.take_over_button.click()
    assert asked and holder.user in asked[0] and holder.host in asked[0]
    assert theirs.session.holding and not theirs.lease_banner.isVisible()
    assert theirs.board.isEnabled() and theirs.heartbeat_timer.isActive()
    assert theirs.controller.run(start_round(2))  # the second window plays on

    # The first window's next command is refused in words and it turns read-only.
    first_refusals: list[str] = []
    mine.controller.refused.connect(first_refusals.append)
    before = len(first_store.commands.load(mine.session.info.id))
    assert not mine.controller.run(start_round(2))  # fine by the rules as this window sees it
    taker = second.encounter_actions.holder
    assert first_refusals, "the first window was not told"
    message = first_refusals[-1]
    assert f"{taker.user} on {taker.host} took this encounter over at" in message
    assert "nothing was saved" in message and not IDS.search(message), message
    assert len(first_store.commands.load(mine.session.info.id)) == before
    assert mine.session.watching and mine.lease_banner.isVisible()
    assert not mine.board.isEnabled() and mine.watch_timer.isActive()
    mine.watch()  # and it follows the second window's play
    assert len(mine.session.state.rounds) == 2

    # Closing the second window lets the encounter go; the first still only watches until
    # its DM takes over, now without a question (nobody plays it).
    second.close()
    assert first_store.leases.current(mine.session.info.id) is None
    mine.watch()
    assert mine.session.watching and not mine.board.isEnabled()
    assert mine.lease_label.text().startswith("Nobody plays Guardroom now")
    asked.clear()
    mine.take_over_button.click()
    assert not asked and mine.session.holding and mine.board.isEnabled()
    first.close()
    first_store.close()
    second_store.close()


def test_the_holders_heartbeat_notices_a_take_over(qtbot: QtBot, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'campaign.sqlite'}"
    setup = Store.open(url)
    campaign = setup.campaigns.create("Greyhawk")
    EncounterSession.start(setup, campaign.id, "Guardroom", "side-d6")
    setup.close()
    first_store, second_store = Store.open(url), Store.open(url)
    first = _window(qtbot, first_store, tmp_path, "first")
    mine = _shown(first)
    second = _window(qtbot, second_store, tmp_path, "second")
    theirs = _shown(second)
    assert theirs.take_over(confirm=False)
    assert mine.session.holding  # it does not know yet
    mine.beat()  # the heartbeat timer's slot
    assert mine.session.watching and mine.lease_banner.isVisible()
    assert f"by {second.encounter_actions.holder.user}" in mine.lease_label.text()
    # The DM did nothing in this window: no "Refused…" beside the board, a line in the status
    # bar instead; taking it back leaves no stale message either.
    assert mine.board.message.text() == ""
    assert "took Guardroom over at" in first.statusBar().currentMessage()
    assert "only shows it" in first.statusBar().currentMessage()
    mine.board.show_refusal("an earlier refusal")
    assert mine.take_over(confirm=False) and mine.board.message.text() == ""
    first.close()
    second.close()
    first_store.close()
    second_store.close()
