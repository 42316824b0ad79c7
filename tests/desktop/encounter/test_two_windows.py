"""Two DMs' windows on one encounter: the one that fell behind is refused with a message, its
Ctrl+Z never takes back the other's work, and Reload Encounter brings it up to date."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

from core.fight.encounter import add_entry, commands_for_scenario, start_round
from core.fight.log import EventKind
from core.play.session import EncounterSession
from core.store import Store
from desktop.main_window import MainWindow

FIGHT = {"system": "side-d6", "combatants": [
    {"id": "brannoc", "name": "Brannoc", "side": "party", "hp": 24},
    {"id": "orc-1", "name": "Orc 1", "side": "monsters", "hp": 6}]}


def _guardroom(qtbot, tmp_path: Path, round_begun: bool) -> tuple[str, Store, MainWindow]:  # type: ignore[no-untyped-def]
    """A campaign file with the Guardroom fight (its combatants, round 1 begun or not) and a
    window shown on it; gets the file's URL, the window's store and the window."""
    url = f"sqlite:///{tmp_path / 'campaign.sqlite'}"
    store = Store.open(url)
    campaign = store.campaigns.create("Greyhawk")
    session = EncounterSession.start(store, campaign.id, "Guardroom", "side-d6")
    for command in commands_for_scenario(FIGHT):
        if command.events[0].kind is EventKind.COMBATANT_ADDED:
            session.execute(command)
    if round_begun:
        session.execute(start_round(1))
    window = MainWindow(store, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    window.show()
    return url, store, window


def test_a_window_behind_another_is_refused_and_reloads(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    url, store, window = _guardroom(qtbot, tmp_path, round_begun=True)
    mine = window.encounter_actions.current() or window.encounter_actions.workspaces[0]
    window.tabs.setCurrentWidget(mine)
    assert mine.controller.run(add_entry("declarations", {"actor": "brannoc", "action": "G",
                                                          "target": "orc-1"}))
    # The other DM (another Combat Desk on the same file) declares for the orc.
    other_store = Store.open(url)
    other = EncounterSession.resume(other_store, other_store.encounters.get(mine.session.info.id))
    other.execute(add_entry("declarations", {"actor": "orc-1", "action": "G",
                                             "target": "brannoc"}))
    refusals: list[str] = []
    mine.controller.refused.connect(refusals.append)
    stored = len(store.commands.load(mine.session.info.id))
    # My Ctrl+Z would take back the orc's declaration, not mine: refused, in words.
    mine.controller.stack.undo()
    assert refusals and "Another Combat Desk window changed this encounter" in refusals[-1]
    assert "Reload Encounter" in refusals[-1]
    assert len(store.commands.load(mine.session.info.id)) == stored
    # Reload reads what the other DM did; play goes on from there.
    window.encounter_actions.reload_action.trigger()
    reloaded = window.encounter_actions.current()
    assert reloaded is not None and reloaded is not mine
    actors = [d["actor"] for d in reloaded.session.state.rounds[-1]["declarations"]]
    assert actors == ["brannoc", "orc-1"]
    before = len(store.commands.load(mine.session.info.id))
    assert reloaded.controller.run(start_round(2))  # the reloaded window saves again
    assert len(store.commands.load(mine.session.info.id)) == before + 1
    other_store.close()
    store.close()


def test_f5_reads_again_what_the_tab_shown_holds(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """F5 on an encounter's tab reloads that encounter; on the roster, the campaigns. (Two
    actions on F5, File › Reload and Reload Encounter, made Qt run neither: "ambiguous".)"""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from tests.desktop.table.conftest import make_active

    url, store, window = _guardroom(qtbot, tmp_path, round_begun=False)
    mine = window.encounter_actions.workspaces[0]
    window.tabs.setCurrentWidget(mine)
    other_store = Store.open(url)
    other = EncounterSession.resume(other_store, other_store.encounters.get(mine.session.info.id))
    other.execute(start_round(1))
    make_active(window)
    QTest.keyClick(window, Qt.Key.Key_F5)
    reloaded = window.encounter_actions.current()
    assert reloaded is not None and reloaded is not mine
    assert reloaded.session.state.rounds, "the round the other window began is read"
    # On the roster's tab, F5 reads the campaigns again.
    other_store.campaigns.create("Made elsewhere")
    window.tabs.setCurrentIndex(0)
    assert window.encounter_actions.current() is None
    QTest.keyClick(window, Qt.Key.Key_F5)
    assert window.campaign_box.findText("Made elsewhere") >= 0
    other_store.close()
    store.close()
