"""A Combat Desk killed with SIGKILL while it played two fights: restarted, the DM plays both
again at once (no Take Over), and after a Take Over the Encounter menu follows at once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from core.fight.encounter import commands_for_scenario, start_round
from core.fight.log import EventKind
from core.play.session import EncounterSession
from core.store import Store
from desktop.encounter.workspace import EncounterWorkspace
from desktop.main_window import MainWindow

ROOT = Path(__file__).resolve().parents[3]
FIGHT = {"system": "side-d6", "combatants": [
    {"id": "brannoc", "name": "Brannoc", "side": "party", "hp": 24},
    {"id": "orc-1", "name": "Orc 1", "side": "monsters", "hp": 6}]}  # fmt: skip
# The killed app: its lease identity with its lock file (as the desktop makes them), holding
# the lease of every active encounter, until it is killed.
CHILD = (
    "import sys, time; from PySide6.QtCore import QCoreApplication; "
    "app = QCoreApplication([]); from core.store import Store, LeaseHolder; "
    "from desktop.running_instances import RunningInstances; "
    "store = Store.open(sys.argv[1]); me = LeaseHolder.here(); "
    "running = RunningInstances(me.instance); "
    "[store.leases.take(int(i), me) for i in sys.argv[2:]]; print('ready', flush=True); "
    "time.sleep(120)"
)


def _fight(store: Store, campaign_id: int, name: str) -> int:
    session = EncounterSession.start(store, campaign_id, name, "side-d6")
    for command in commands_for_scenario(FIGHT):
        if command.events[0].kind is EventKind.COMBATANT_ADDED:
            session.execute(command)
    session.execute(start_round(1))
    session.release()
    return session.info.id


def _workspaces(window: MainWindow) -> list[EncounterWorkspace]:
    return list(window.encounter_actions.workspaces)


def test_every_fight_of_a_killed_app_is_played_again_without_take_over(
    qtbot: QtBot, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'campaign.sqlite'}"
    setup = Store.open(url)
    campaign = setup.campaigns.create("Greyhawk")
    ids = [_fight(setup, campaign.id, "Guardroom"), _fight(setup, campaign.id, "Crypt")]
    setup.close()
    child = subprocess.Popen([sys.executable, "-c", CHILD, url, *map(str, ids)], cwd=ROOT,
                             stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(10)

    store = Store.open(url)
    try:
        window = MainWindow(store, QSettings(str(tmp_path / "w.ini"), QSettings.Format.IniFormat))
        qtbot.addWidget(window)
        window.show()
        # The newest fight is read with the campaign, the other when its tab is first shown.
        for index in range(window.tabs.count()):
            window.tabs.setCurrentIndex(index)
        shown = _workspaces(window)
        assert sorted(w.session.info.name for w in shown) == ["Crypt", "Guardroom"]
        for workspace in shown:
            window.tabs.setCurrentWidget(workspace)
            assert workspace.session.holding and not workspace.session.watching, (
                workspace.session.info.name, workspace.lease_label.text())
            assert not workspace.lease_banner.isVisible() and workspace.board.isEnabled()
            assert window.encounter_actions.end_action.isEnabled()
        assert "no longer running; you play it here now" in window.statusBar().currentMessage()
    finally:
        store.close()


def test_end_encounter_is_enabled_as_soon_as_take_over_is_done(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'campaign.sqlite'}"
    setup = Store.open(url)
    campaign = setup.campaigns.create("Greyhawk")
    _fight(setup, campaign.id, "Guardroom")
    setup.close()
    first_store, second_store = Store.open(url), Store.open(url)
    try:
        first = MainWindow(first_store, QSettings(str(tmp_path / "1.ini"),
                                                  QSettings.Format.IniFormat))
        qtbot.addWidget(first)
        second = MainWindow(second_store, QSettings(str(tmp_path / "2.ini"),
                                                    QSettings.Format.IniFormat))
        qtbot.addWidget(second)
        theirs = _workspaces(second)[0]
        second.tabs.setCurrentWidget(theirs)
        assert theirs.session.watching
        end = second.encounter_actions.end_action
        assert not end.isEnabled()
        # Take Over, pressed in the banner (asked first: the other window still plays).
        monkeypatch.setattr(QMessageBox, "question",
                            lambda *_a, **_k: QMessageBox.StandardButton.Yes)
        theirs.take_over_button.click()
        assert theirs.session.holding and not theirs.session.watching
        assert end.isEnabled(), "End Encounter follows the take-over without a tab switch"
        # The first window is taken over at its next heartbeat: its End greys at once too.
        mine = _workspaces(first)[0]
        first.tabs.setCurrentWidget(mine)
        assert first.encounter_actions.end_action.isEnabled()
        mine.beat()
        assert mine.session.watching
        assert not first.encounter_actions.end_action.isEnabled()
    finally:
        first_store.close()
        second_store.close()


# An app whose lock file is gone (another Combat Desk quitting cleanly swept it): only the pid
# the lease records (schema 0011) tells that it no longer runs.
NO_LOCK_FILE_CHILD = (
    "import sys, time; from core.store import Store, LeaseHolder; "
    "store = Store.open(sys.argv[1]); me = LeaseHolder.here(); "
    "store.leases.take(int(sys.argv[2]), me); print('ready', flush=True); time.sleep(120)"
)


def _one_fight(tmp_path: Path) -> tuple[str, int]:
    """Makes a campaign file with one side-d6 fight; gets its address and the fight's id."""
    url = f"sqlite:///{tmp_path / 'campaign.sqlite'}"
    setup = Store.open(url)
    campaign = setup.campaigns.create("Greyhawk")
    fight = _fight(setup, campaign.id, "Guardroom")
    setup.close()
    return url, fight


def _holder(url: str, fight: int) -> subprocess.Popen[str]:
    """Starts a process that holds the fight's lease (no lock file), once it holds it."""
    child = subprocess.Popen([sys.executable, "-c", NO_LOCK_FILE_CHILD, url, str(fight)],
                             cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    return child


def _opened(qtbot: QtBot, url: str, tmp_path: Path,
            name: str) -> tuple[Store, MainWindow, EncounterWorkspace]:
    store = Store.open(url)
    window = MainWindow(store, QSettings(str(tmp_path / f"{name}.ini"),
                                         QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    return store, window, _workspaces(window)[0]


def _kill(child: subprocess.Popen[str]) -> None:
    if child.poll() is None:
        child.send_signal(signal.SIGKILL)
        child.wait(10)


def test_a_lease_whose_recorded_process_is_gone_is_played_on_and_a_live_one_is_watched(
    qtbot: QtBot, tmp_path: Path
) -> None:
    url, fight = _one_fight(tmp_path)
    live = _holder(url, fight)
    try:
        store, window, workspace = _opened(qtbot, url, tmp_path, "live")
        lease = workspace.session.lease
        assert lease is not None and lease.holder.pid == live.pid, "the lease records its pid"
        assert workspace.session.watching, "a Combat Desk that still runs keeps its fight"
        window.close()
        store.close()
    finally:
        _kill(live)
    store, window, workspace = _opened(qtbot, url, tmp_path, "after")
    try:
        assert workspace.session.holding and not workspace.session.watching, (
            workspace.lease_label.text())
        assert "no longer running; you play it here now" in window.statusBar().currentMessage()
    finally:
        store.close()


def test_a_watching_tab_plays_on_once_the_combat_desk_it_watched_is_killed(
    qtbot: QtBot, tmp_path: Path
) -> None:
    url, fight = _one_fight(tmp_path)
    child = _holder(url, fight)
    store: Store | None = None
    try:
        store, window, workspace = _opened(qtbot, url, tmp_path, "w")
        window.show()
        window.tabs.setCurrentWidget(workspace)
        workspace.watch()  # the watch timer's slot: the other Combat Desk still runs
        assert workspace.session.watching and workspace.lease_banner.isVisible()
        assert not window.encounter_actions.end_action.isEnabled()
        _kill(child)
        workspace.watch()  # its next tick, well before the lease would run out
        assert workspace.session.holding and not workspace.session.watching
        assert not workspace.lease_banner.isVisible() and workspace.board.isEnabled()
        assert window.encounter_actions.end_action.isEnabled()
        assert "no longer running; you play it here now" in window.statusBar().currentMessage()
    finally:
        _kill(child)
        if store is not None:
            store.close()
