"""Many open encounters: every one has its tab at start, but only the newest is read then; the
others are read when their tab is first shown (start-up does not grow with open fights)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

from core.fight.encounter import commands_for_scenario
from core.fight.log import EventKind
from core.play.session import EncounterSession
from core.store import Store
from desktop.encounter.actions import WaitingTab
from desktop.main_window import MainWindow

FIGHT = {"system": "side-d6", "combatants": [
    {"id": "brannoc", "name": "Brannoc", "side": "party", "hp": 24},
    {"id": "orc-1", "name": "Orc 1", "side": "monsters", "hp": 6}]}


def test_open_encounters_are_read_when_their_tab_is_first_shown(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    store = Store.open(f"sqlite:///{tmp_path / 'campaign.sqlite'}")
    campaign = store.campaigns.create("Greyhawk")
    for n in range(1, 5):
        session = EncounterSession.start(store, campaign.id, f"Fight {n}", "side-d6")
        for command in commands_for_scenario(FIGHT):
            if command.events[0].kind is EventKind.COMBATANT_ADDED:
                session.execute(command)
    window = MainWindow(store, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    window.show()
    tabs = window.tabs
    titles = [tabs.tabText(i) for i in range(tabs.count())]
    assert titles[1:] == [f"Encounter: Fight {n}" for n in range(1, 5)]
    assert len(window.encounter_actions.workspaces) == 1  # only the newest was read
    assert len(tabs.findChildren(WaitingTab)) == 3
    tabs.setCurrentIndex(2)  # the DM clicks "Fight 2"
    workspace = window.encounter_actions.current()
    assert workspace is not None and workspace.session.info.name == "Fight 2"
    assert tabs.tabText(2) == "Encounter: Fight 2" and tabs.currentWidget() is workspace
    assert len(workspace.session.state.combatants) == 2  # resumed at its last command
    assert len(tabs.findChildren(WaitingTab)) == 2
    store.close()
