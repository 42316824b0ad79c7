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


def test_a_waiting_tab_taken_away_before_qt_shows_it_never_becomes_a_window(
    qtbot, tmp_path: Path,  # type: ignore[no-untyped-def]
) -> None:
    """A widget orphaned with ``setParent(None)`` before Qt runs its queued "show" becomes a
    window of its own (the stepper's die rows did, and took Ctrl+Z away). The waiting tabs are
    orphaned so right after being added (the campaign shown again, a tab clicked in the same
    event): removeTab hides them first, so none ever shows as a window."""
    from PySide6.QtWidgets import QApplication

    store = Store.open(f"sqlite:///{tmp_path / 'campaign.sqlite'}")
    campaign = store.campaigns.create("Greyhawk")
    for n in range(1, 4):
        session = EncounterSession.start(store, campaign.id, f"Fight {n}", "side-d6")
        for command in commands_for_scenario(FIGHT):
            if command.events[0].kind is EventKind.COMBATANT_ADDED:
                session.execute(command)
    window = MainWindow(store, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    window.show()
    QApplication.processEvents()
    actions = window.encounter_actions
    campaign_now = window.campaign
    assert campaign_now is not None
    actions.campaign_shown(campaign_now)  # new waiting tabs, the old ones orphaned at once
    waiting = next(w for w in window.tabs.findChildren(WaitingTab) if w.info.name == "Fight 1")
    window.tabs.setCurrentWidget(waiting)  # and one replaced, before any event ran
    assert actions.current() is not None and actions.current().session.info.name == "Fight 1"
    QApplication.processEvents()
    qtbot.wait(20)
    windows = [w for w in QApplication.topLevelWidgets()
               if isinstance(w, WaitingTab) and w.isVisible()]
    assert windows == []
    assert window.undo_group.activeStack() is actions.current().controller.stack
    store.close()
