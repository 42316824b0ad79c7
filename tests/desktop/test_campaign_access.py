"""A player's campaign is read-only up front: DMs on a shared PostgreSQL database, as real roles.

Alice owns Greyhawk; bob is a player in it and carol a co-DM (``tests/store``'s ``group``
fixture makes the roles on the throwaway server). Each opens the app on the campaign as their
own role: bob gets a window that takes no change and says why, carol gets everything. The
switching tests use an SQLite file whose ``access`` is told to answer "player" for one campaign:
the window's part, locking and unlocking, is the same on either database.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QStyle,
    QStyleOptionViewItem,
    QTableWidget,
)
from pytestqt.qtbot import QtBot

from core.fight.encounter import add_entry, commands_for_scenario, start_round
from core.fight.log import EventKind
from core.model.values import Weapon
from core.play.session import EncounterSession
from core.roster.entries import RosterEntry
from core.store import LeaseHolder, Store
from desktop.campaign_access import read_only_reason
from desktop.encounter.workspace import EncounterWorkspace
from desktop.main_window import MainWindow
from tests.store import test_campaign_access as roles
from tests.store.test_campaign_access import Group

group = roles.group  # the fixture: a shared database, its administrator and DM roles

PLAYER_LINE = (
    "You are a player in 'Greyhawk': you can read it, not change it. "
    "Its owner can make you a co-DM."
)
FIGHT = {"system": "side-d6", "combatants": [
    {"id": "brannoc", "name": "Brannoc", "side": "party", "hp": 24},
    {"id": "orc-1", "name": "Orc 1", "side": "monsters", "hp": 6}]}  # fmt: skip
IDS = re.compile(r"\b[0-9a-f]{32}\b|orc-1|brannoc|\[|\{|None|True|False")


@pytest.fixture(autouse=True)
def _no_modal_questions(monkeypatch: pytest.MonkeyPatch) -> None:
    """A failed check must not leave a modal "Save your changes?" waiting when the window
    closes (the test run would hang there)."""
    monkeypatch.setattr(
        QMessageBox, "question", lambda *_a, **_k: QMessageBox.StandardButton.Discard
    )


def _window(qtbot: QtBot, store: Store, tmp_path: Path, name: str) -> MainWindow:
    ini = QSettings(str(tmp_path / f"{name}.ini"), QSettings.Format.IniFormat)
    window = MainWindow(store, ini)
    qtbot.addWidget(window)
    window.show()
    return window


def _writers(window: MainWindow) -> dict[str, QAction]:
    roster, fights = window.roster_actions, window.encounter_actions
    return {
        "New Entry": roster.new_action, "New Monster Template": roster.new_template_action,
        "Remove": roster.remove_action, "Stamp Monsters": roster.stamp_action,
        "Import": roster.import_action, "Rest": roster.rest_action,
        "New Encounter": fights.new_action, "End Encounter": fights.end_action,
        "Reopen Encounter": fights.reopen_action,
    }  # fmt: skip


def _greyhawk(group: Group) -> tuple[Store, EncounterSession]:
    """Alice's campaign with Brannoc (a sword) and a fight she is playing."""
    alice = group.open("alice")
    greyhawk = alice.campaigns.create("Greyhawk")
    alice.roster.add(
        greyhawk.id,
        RosterEntry(name="Brannoc", hp=24, max_hp=24, weapons=(Weapon("Long sword", 5, 3.5),)),
    )
    fight = EncounterSession.start(
        alice,
        greyhawk.id,
        "Moathouse",
        "side-d6",
        holder=LeaseHolder("a" * 32, "alice", "table-pc"),
    )
    for command in commands_for_scenario(FIGHT):
        if command.events[0].kind is EventKind.COMBATANT_ADDED:
            fight.execute(command)
    fight.execute(start_round(1))
    alice.access.grant(greyhawk, group.roles["bob"], "player")
    alice.access.grant(greyhawk, group.roles["carol"], "co-dm")
    return alice, fight


def _declarers(workspace: EncounterWorkspace) -> list[str]:
    return [d["actor"] for d in workspace.session.state.rounds[-1]["declarations"]]


def test_a_player_gets_the_campaign_read_only_and_told_why(
    qtbot: QtBot, group: Group, tmp_path: Path
) -> None:
    alice, fight = _greyhawk(group)
    bob = group.open("bob")
    window = _window(qtbot, bob, tmp_path, "bob")
    assert window.campaign is not None and window.campaign.name == "Greyhawk"
    assert window.access.level == "player"

    # The line says why, in words.
    line = window.access.label
    assert line.isVisible() and line.width() > 100 and line.text() == PLAYER_LINE

    # No cell of the roster takes typing, and neither does the form beside it.
    model = window.roster_panel.view.model()
    cells = [
        model.index(r, c, model.index(g, 0))
        for g in range(model.rowCount())
        for r in range(model.rowCount(model.index(g, 0)))
        for c in range(model.columnCount())
    ]
    assert cells and not any(i.flags() & Qt.ItemFlag.ItemIsEditable for i in cells)
    brannoc = next(e for e in window.entries if e.name == "Brannoc")
    assert window.roster_panel.select_entry(brannoc.id or 0)
    form = window.editor
    assert form.before == brannoc
    assert all(e.isReadOnly() for e in form.findChildren(QLineEdit))
    assert form.notes.isReadOnly() and not form.kind_box.isEnabled()
    qtbot.keyClicks(form.fields["hp"], "9")
    assert form.fields["hp"].text() == "24" and not form.is_dirty
    assert not form.save_button.isEnabled() and PLAYER_LINE in form.save_button.toolTip()
    table = form.weapons.table
    assert isinstance(table, QTableWidget) and table.rowCount() == 1
    assert table.editTriggers() == QTableWidget.EditTrigger.NoEditTriggers
    assert not form.weapons.add_button.isEnabled()
    form.save_action.trigger()  # Ctrl+S: nothing to save, nothing tried
    assert alice.roster.entries(window.campaign.id) == [brannoc]

    # Every action that would change the campaign is off, and says why when hovered.
    for what, action in _writers(window).items():
        assert not action.isEnabled(), what
        tip = action.toolTip()
        assert tip.startswith(f"{what} is for the campaign's owner and co-DMs."), tip
        assert PLAYER_LINE in tip and not IDS.search(tip), tip
    assert window.roster_actions.export_action.isEnabled()  # reading stays: export, log
    assert window.roster_actions.log_action.isEnabled()

    # The open fight is watched: read-only, live, no lease taken and no Take Over offered.
    workspace = window.encounter_actions.workspaces[0]
    window.tabs.setCurrentWidget(workspace)
    assert workspace.session.watching and not workspace.session.holding
    assert not workspace.board.isEnabled() and not workspace.stepper.isEnabled()
    assert workspace.lease_banner.isVisible() and not workspace.take_over_button.isVisible()
    banner = workspace.lease_label.text()
    assert banner.startswith(PLAYER_LINE + " This tab follows Moathouse as it goes on"), banner
    assert not IDS.search(banner), banner
    assert workspace.watch_timer.isActive() and not workspace.heartbeat_timer.isActive()
    assert not window.encounter_actions.end_action.isEnabled()
    assert window.encounter_actions.print_action.isEnabled()
    lease = alice.leases.current(fight.info.id)
    assert lease is not None and lease.held_by(fight.holder)  # still alice's
    fight.execute(add_entry("declarations", {"actor": "brannoc", "action": "G",
                                             "target": "orc-1"}))  # fmt: skip
    workspace.watch_timer.setInterval(50)
    qtbot.waitUntil(lambda: _declarers(workspace) == ["brannoc"], timeout=5000)
    assert "open in Combat Desk on table-pc by alice" in workspace.lease_label.text()
    # Encounter › Reload reads it again, still as a player's: watched, never claimed.
    reloaded = window.encounter_actions.reload_current()
    assert reloaded is not None and reloaded.session.read_only == PLAYER_LINE
    assert reloaded.session.watching and not reloaded.board.isEnabled()
    assert "your database role" not in window.statusBar().currentMessage()
    for store in (alice, bob):
        store.close()


def test_a_player_reads_an_ended_fight_without_reopening_it(
    qtbot: QtBot, group: Group, tmp_path: Path
) -> None:
    alice, fight = _greyhawk(group)
    fight.end()
    bob = group.open("bob")
    window = _window(qtbot, bob, tmp_path, "bob")
    assert window.encounter_actions.workspaces == []  # an ended fight does not open by itself
    (moathouse,) = window.encounter_actions.open_menu_actions()
    moathouse.trigger()
    workspace = window.encounter_actions.current()
    assert workspace is not None and workspace.session.ended
    assert workspace.ended_banner.isVisible() and not workspace.reopen_button.isEnabled()
    assert workspace.reopen_button.toolTip() == PLAYER_LINE
    assert not window.encounter_actions.reopen_action.isEnabled()
    assert window.encounter_actions.print_action.isEnabled()
    for store in (alice, bob):
        store.close()


def test_a_co_dm_gets_everything(qtbot: QtBot, group: Group, tmp_path: Path) -> None:
    alice, _fight = _greyhawk(group)
    carol = group.open("carol")
    window = _window(qtbot, carol, tmp_path, "carol")
    assert window.access.level == "co-dm" and not window.access.label.isVisible()
    for what, action in _writers(window).items():
        if what not in ("End Encounter", "Reopen Encounter"):  # they follow the tab shown
            assert action.isEnabled(), what
        assert "co-DMs" not in action.toolTip()
    brannoc = next(e for e in window.entries if e.name == "Brannoc")
    window.roster_panel.select_entry(brannoc.id or 0)
    form = window.editor
    assert not form.fields["hp"].isReadOnly()
    form.fields["hp"].clear()
    qtbot.keyClicks(form.fields["hp"], "17")
    assert form.save_button.isEnabled()
    form.save_button.click()
    assert window.campaign is not None
    # a co-DM's save is kept
    assert [e.hp for e in alice.roster.entries(window.campaign.id)] == [17]
    # Alice plays the fight: carol watches it as any second DM does, and may take it over.
    workspace = window.encounter_actions.workspaces[0]
    window.tabs.setCurrentWidget(workspace)
    assert workspace.session.watching and workspace.session.read_only is None
    assert workspace.take_over_button.isVisible()
    for store in (alice, carol):
        store.close()


def test_a_campaign_the_role_was_not_given_is_not_listed(
    qtbot: QtBot, group: Group, tmp_path: Path
) -> None:
    alice = group.open("alice")
    alice.campaigns.create("Alice's secret Greyhawk")
    bob = group.open("bob")
    bob.campaigns.create("Bob's Blackmoor")
    window = _window(qtbot, bob, tmp_path, "bob")
    box = window.campaign_box
    assert [box.itemText(i) for i in range(box.count())] == ["Bob's Blackmoor"]
    assert window.access.level == "owner" and not window.access.label.isVisible()
    for store in (alice, bob):
        store.close()


# --- the window's part on an SQLite file, told that one campaign is a player's ----------------


@pytest.fixture
def two_campaigns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Store:
    store = Store.open(f"sqlite:///{tmp_path / 'campaigns.sqlite'}")
    mine = store.campaigns.create("Blackmoor")
    theirs = store.campaigns.create("Greyhawk")
    for campaign in (mine, theirs):
        store.roster.add(campaign.id, RosterEntry(name="Brannoc", hp=24, max_hp=24))
    asked: list[int] = []

    def access(campaign_id: int) -> str:
        asked.append(campaign_id)
        return "player" if campaign_id == theirs.id else "owner"

    monkeypatch.setattr(store.access, "level", access)
    store.asked = asked
    return store


def _show(window: MainWindow, name: str) -> None:
    window.show_campaign(next(c for c in window.store.campaigns.all() if c.name == name))


def test_switching_to_a_players_campaign_locks_and_back_unlocks(
    qtbot: QtBot, two_campaigns: Store, tmp_path: Path
) -> None:
    window = _window(qtbot, two_campaigns, tmp_path, "dm")
    _show(window, "Blackmoor")
    asked: list[int] = two_campaigns.asked
    asked.clear()
    own_tips = {w: a.toolTip() for w, a in _writers(window).items()}

    _show(window, "Greyhawk")
    assert len(asked) == 1  # asked once as the campaign is shown, not at each action
    assert window.access.label.text() == PLAYER_LINE
    assert not window.roster_actions.new_action.isEnabled()
    window.roster_panel.select_entry(window.entries[0].id or 0)
    assert window.editor.fields["name"].isReadOnly()
    assert not window.editor.save_button.isEnabled()

    _show(window, "Blackmoor")
    assert not window.access.label.isVisible()
    assert window.roster_actions.new_action.isEnabled()
    assert window.encounter_actions.new_action.isEnabled()
    assert {w: a.toolTip() for w, a in _writers(window).items()} == own_tips
    window.roster_panel.select_entry(window.entries[0].id or 0)
    form = window.editor
    assert not any(e.isReadOnly() for e in form.findChildren(QLineEdit))
    assert not any(e.isReadOnly() for e in form.findChildren(QPlainTextEdit))
    assert form.kind_box.isEnabled() and form.weapons.add_button.isEnabled()
    form.fields["hp"].clear()
    qtbot.keyClicks(form.fields["hp"], "20")
    assert form.is_dirty and form.save_button.isEnabled(), form.save_reason.text()
    form.save_button.click()
    assert window.entry(window.entries[0].id).hp == 20  # type: ignore[union-attr]


def test_a_player_cannot_tick_a_weapons_check_box(
    qtbot: QtBot, two_campaigns: Store, tmp_path: Path
) -> None:
    """A table's check box toggles even with editing off in Qt; the lock holds it too."""
    theirs = next(c for c in two_campaigns.campaigns.all() if c.name == "Greyhawk")
    entry = two_campaigns.roster.entries(theirs.id)[0]
    two_campaigns.roster.update(replace(entry, weapons=(Weapon("Bow", 7, missile=True),)))
    window = _window(qtbot, two_campaigns, tmp_path, "dm")
    _show(window, "Greyhawk")
    window.roster_panel.select_entry(entry.id or 0)
    table = window.editor.weapons.table
    checks = [
        c
        for c in range(table.columnCount())
        if table.item(0, c).data(Qt.ItemDataRole.CheckStateRole) is not None
    ]
    assert checks, "the weapons table has no check-box column to try"
    item = table.item(0, checks[0])
    before = item.checkState()
    option = QStyleOptionViewItem()  # where the cell's box is drawn: a click there ticks it
    option.rect = table.visualItemRect(item)
    option.features |= QStyleOptionViewItem.ViewItemFeature.HasCheckIndicator
    box = table.style().subElementRect(
        QStyle.SubElement.SE_ItemViewItemCheckIndicator, option, table
    )
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=box.center())
    assert item.checkState() == before
    qtbot.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=box.center())
    assert item.checkState() == before
    table.setCurrentItem(item)
    qtbot.keyClick(table, Qt.Key.Key_Space)
    assert item.checkState() == before and not window.editor.is_dirty


def test_the_reason_names_the_campaign_in_words() -> None:
    assert read_only_reason("player", "Greyhawk") == PLAYER_LINE
    assert read_only_reason("owner", "Greyhawk") is None
    assert read_only_reason("co-dm", "Greyhawk") is None
    gone = read_only_reason(None, "Greyhawk")
    assert gone is not None and "no access to 'Greyhawk'" in gone


def test_an_owners_unsaved_typing_survives_a_reload(
    qtbot: QtBot, two_campaigns: Store, tmp_path: Path
) -> None:
    """Asking again (File › Reload) must not touch a form the lock never held."""
    window = _window(qtbot, two_campaigns, tmp_path, "dm")
    _show(window, "Blackmoor")
    window.roster_panel.select_entry(window.entries[0].id or 0)
    form = window.editor
    form.fields["hp"].clear()
    qtbot.keyClicks(form.fields["hp"], "20")
    window.reload_campaigns()
    assert form.is_dirty and form.fields["hp"].text() == "20"
