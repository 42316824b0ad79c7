"""View → Players' Screen in the main window: every action pressed through its QAction, the
window following the DM's fights, its screen, full screen and back with one key."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from core.fight.encounter import start_round
from core.play.session import EncounterSession
from desktop.players.actions import SCREEN_KEY, SHOW_HP_KEY
from desktop.players.hide_dialog import HideDialog
from desktop.players.window import LEAVE_KEYS
from tests.desktop.players.fights import HIDDEN_NAME, POPCORN, SIDE_D6
from tests.desktop.players.helpers import (
    main_window,
    play_commands,
    store_with_fight,
    visible_texts,
)


def _open(qtbot: QtBot, tmp_path: Path, hide: bool = False):  # type: ignore[no-untyped-def]
    store = store_with_fight(tmp_path, SIDE_D6, hide=hide)
    window = main_window(qtbot, store, tmp_path)
    workspace = window.encounter_actions.workspaces[0]
    window.tabs.setCurrentWidget(workspace)
    return store, window, workspace


def test_the_view_menu_holds_the_players_screen_actions_together(
        qtbot: QtBot, tmp_path: Path) -> None:
    _store, window, _workspace = _open(qtbot, tmp_path)
    titles = [a.text() for a in window.view_menu.actions()]
    assert titles[0] == "Players' Screen"  # the section's heading
    players = window.players
    mine = [players.show_action, players.screen_menu.menuAction(), players.full_action,
            players.hp_action, players.freeze_action, players.hide_action]
    assert window.view_menu.actions()[1:7] == mine
    assert players.show_action.shortcut().toString() == "Ctrl+Alt+P"
    for action in mine:
        assert ("_" not in action.text() and action.statusTip()) or action.menu()


def test_opening_and_closing_through_the_menu(qtbot: QtBot, tmp_path: Path) -> None:
    _store, window, workspace = _open(qtbot, tmp_path)
    players = window.players
    players.show_action.trigger()
    screen = players.players_window
    assert screen is not None and screen.isVisible()
    assert screen.windowTitle() == "Bridge fight — Players' Screen — Combat Desk"
    assert screen.heading.text() == "Bridge fight" and screen.clock.text() == (
        "Before the first round")
    # One screen (offscreen): a window over part of the DM's, not full screen.
    assert not screen.isFullScreen() and screen.hint.text() == "F11: full screen"
    # It updates with the DM's command, in the same event.
    assert workspace.controller.run(start_round(1))
    assert screen.clock.text() == "Round 1"
    players.show_action.trigger()
    assert not screen.isVisible() and not players.show_action.isChecked()
    players.show_action.trigger()
    assert screen.isVisible()
    screen.close()  # its own close button: the menu's check follows
    assert not players.show_action.isChecked()


def test_full_screen_and_back_with_one_key_said_in_the_window(
        qtbot: QtBot, tmp_path: Path) -> None:
    _store, window, _workspace = _open(qtbot, tmp_path)
    players = window.players
    players.full_action.trigger()  # opens it, full screen on this screen
    screen = players.players_window
    assert screen is not None and screen.isFullScreen()
    assert screen.hint.text() == f"{LEAVE_KEYS}: back to a window"
    QTest.keyClick(screen, Qt.Key.Key_Escape)
    assert not screen.isFullScreen() and not players.full_action.isChecked()
    QTest.keyClick(screen, Qt.Key.Key_F11)
    assert screen.isFullScreen() and players.full_action.isChecked()
    QTest.keyClick(screen, Qt.Key.Key_F11)
    assert not screen.isFullScreen()
    players.full_action.trigger()
    assert screen.isFullScreen()
    players.full_action.trigger()
    assert not screen.isFullScreen()


def test_the_dm_chooses_the_screen_and_it_is_remembered(qtbot: QtBot, tmp_path: Path) -> None:
    _store, window, _workspace = _open(qtbot, tmp_path)
    players = window.players
    players.screen_menu.aboutToShow.emit()  # as opening the submenu does
    entries = players.screen_menu.actions()
    assert len(entries) == len(QGuiApplication.screens()) >= 1
    assert entries[0].text().endswith("— this window's") and entries[0].isChecked()
    entries[0].trigger()
    screen = players.players_window
    assert screen is not None and screen.isVisible() and not screen.isFullScreen()
    assert window.settings.value(SCREEN_KEY) == QGuiApplication.screens()[0].name()


def test_the_party_hp_only_when_ticked_and_remembered(qtbot: QtBot, tmp_path: Path) -> None:
    _store, window, _workspace = _open(qtbot, tmp_path)
    players = window.players
    players.show_action.trigger()
    screen = players.players_window
    assert screen is not None
    party = [screen.party.item(r).text() for r in range(screen.party.count())]
    assert party == ["Garrick", "Halvaine", "Brother Tam"]
    players.hp_action.trigger()
    party = [screen.party.item(r).text() for r in range(screen.party.count())]
    assert party == ["Garrick — HP 12 / 12", "Halvaine — HP 9 / 9", "Brother Tam — HP 8 / 8"]
    assert window.settings.value(SHOW_HP_KEY) == "true"
    monsters = [screen.monsters.item(r).text() for r in range(screen.monsters.count())]
    assert monsters == ["Orc Chief", "Orc Guard", HIDDEN_NAME]


def test_freeze_keeps_the_screen_while_the_dm_sets_up(qtbot: QtBot, tmp_path: Path) -> None:
    _store, window, workspace = _open(qtbot, tmp_path)
    players = window.players
    players.show_action.trigger()
    screen = players.players_window
    assert screen is not None
    players.freeze_action.trigger()
    assert workspace.controller.run(start_round(1))
    assert screen.clock.text() == "Before the first round"  # frozen
    players.freeze_action.trigger()
    assert screen.clock.text() == "Round 1"


def test_hide_from_the_players_is_one_undoable_command(qtbot: QtBot, tmp_path: Path) -> None:
    _store, window, workspace = _open(qtbot, tmp_path)
    players = window.players
    players.show_action.trigger()
    screen = players.players_window
    assert screen is not None and HIDDEN_NAME in "\n".join(visible_texts(screen))
    assert players.hide_action.isEnabled()
    players.hide_action.trigger()
    dialog = players.dialog
    assert isinstance(dialog, HideDialog) and dialog.isVisible()
    assert dialog.list.item(0).text() == "Garrick (PC, party)"
    dialog.set_hidden("assassin", True)
    dialog.set_hidden("orc-2", True)
    dialog.accept()
    assert workspace.controller.state.hidden == {"assassin", "orc-2"}
    texts = "\n".join(visible_texts(screen))
    assert HIDDEN_NAME not in texts and "Orc Guard" not in texts and "Orc Chief" in texts
    assert window.undo_action.text() == "&Undo Hide Orc Guard and Lurking Assassin from the players"
    # Revealing one and hiding another in one go: still one step back.
    players.hide_action.trigger()
    again = players.dialog
    assert isinstance(again, HideDialog) and again is not dialog
    again.set_hidden("orc-2", False)
    again.set_hidden("orc-chief", True)
    again.accept()
    assert workspace.controller.state.hidden == {"assassin", "orc-chief"}
    window.undo_action.trigger()
    assert workspace.controller.state.hidden == {"assassin", "orc-2"}
    window.undo_action.trigger()
    assert workspace.controller.state.hidden == frozenset()
    assert HIDDEN_NAME in "\n".join(visible_texts(screen))
    # Cancel and an unchanged OK save nothing.
    players.hide_action.trigger()
    players.dialog.accept()  # type: ignore[union-attr]
    assert workspace.controller.state.hidden == frozenset()
    assert not window.undo_action.text().endswith("players")


def test_hiding_the_hidden_again_is_refused_in_words(qtbot: QtBot, tmp_path: Path) -> None:
    _store, window, workspace = _open(qtbot, tmp_path, hide=True)
    refusals: list[str] = []
    workspace.controller.refused.connect(refusals.append)
    assert not window.players.apply_hidden(workspace, ["assassin"], [])
    assert refusals == ["Lurking Assassin is already hidden from the players"]


def test_it_follows_the_fight_in_front_and_names_the_campaign_without_one(
        qtbot: QtBot, tmp_path: Path) -> None:
    store, window, first = _open(qtbot, tmp_path)
    campaign = window.campaign
    assert campaign is not None
    other = EncounterSession.create(store, campaign.id, "Ambush at the ford", "popcorn", None,
                                    POPCORN.get("seed"))
    second = window.encounter_actions.open_encounter(other.info)
    assert second is not None
    players = window.players
    players.show_action.trigger()
    screen = players.players_window
    assert screen is not None and screen.heading.text() == "Ambush at the ford"
    window.tabs.setCurrentWidget(first)
    assert screen.heading.text() == "Bridge fight"
    window.tabs.setCurrentIndex(0)  # the roster: the table keeps the fight
    assert screen.heading.text() == "Bridge fight"
    for command in play_commands(SIDE_D6)[:2]:
        assert first.controller.run(command, check=False)
    assert screen.clock.text().startswith("Round 1")
    window.encounter_actions.close_workspace(first)
    window.encounter_actions.close_workspace(second)
    qtbot.waitUntil(lambda: players.workspace is None)
    assert screen.heading.text() == "Keep on the Borderlands"
    assert not screen.play.isVisible() and not screen.timeline.isVisible()
    assert not players.hide_action.isEnabled()
    # Another campaign: its open fight, or its name.
    elsewhere = store.campaigns.create("Tomb of Horrors")
    window.reload_campaigns()
    assert window.show_campaign(elsewhere)
    assert screen.heading.text() == "Tomb of Horrors"
    EncounterSession.create(store, elsewhere.id, "The false door", "side-d6")
    window.reload_action.trigger()
    window.show_campaign(campaign)
    window.show_campaign(elsewhere)
    qtbot.waitUntil(lambda: screen.heading.text() == "The false door")


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_watching_combat_desk_is_the_players_screen(
        qtbot: QtBot, tmp_path: Path, backend: str) -> None:
    from tests.store.conftest import fresh_database

    urls = fresh_database(backend, tmp_path)
    url = next(urls)
    try:
        setup = store_with_fight(tmp_path, SIDE_D6, url=url)
        setup.close()
        from core.store import Store

        dm_store, table_store = Store.open(url), Store.open(url)
        dm = main_window(qtbot, dm_store, tmp_path, "dm")
        playing = dm.encounter_actions.workspaces[0]
        table = main_window(qtbot, table_store, tmp_path, "table")
        watching = table.encounter_actions.workspaces[0]
        assert playing.session.holding and watching.session.watching
        table.tabs.setCurrentWidget(watching)
        table.players.show_action.trigger()
        screen = table.players.players_window
        assert screen is not None and not table.players.hide_action.isEnabled()
        for command in play_commands(SIDE_D6)[:6]:
            assert playing.controller.run(command, check=False), command.name
        watching.watch()  # the watch timer's slot (every few seconds)
        expected = dm.players.view()
        assert screen.view == expected and expected.play
        joined = "\n".join(visible_texts(screen))
        assert HIDDEN_NAME not in joined and expected.last in joined
        dm_store.close()
        table_store.close()
    finally:
        next(urls, None)


def test_hiding_asks_the_engine_nothing_and_the_table_is_drawn_first(
        qtbot: QtBot, tmp_path: Path) -> None:
    _store, window, workspace = _open(qtbot, tmp_path)
    controller = workspace.controller
    order: list[str] = []
    controller.resolved.connect(lambda: order.append("players' screen"))
    controller.changed.connect(lambda: order.append("DM's window"))
    before = controller.resolution
    assert window.players.apply_hidden(workspace, ["orc-2"], [])
    assert controller.resolution is before  # the scenario is the same: no new resolution
    assert order == ["players' screen", "DM's window"]
    assert controller.run(start_round(1))
    assert controller.resolution is not before
