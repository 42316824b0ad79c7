"""Hidden from the players from the first moment: New Encounter's "Hidden" tick on a monster
template puts the hiding among the fight's first commands, so the players' screen, open while
the DM starts the fight, never names an ambusher until the DM reveals it."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from core.fight.log import EventKind
from core.store import Store
from desktop.encounter.start_dialog import StartEncounterDialog
from desktop.main_window import MainWindow
from desktop.players.window import PlayersWindow
from tests.desktop.players.helpers import visible_texts
from tests.desktop.table.conftest import action, button


def test_a_monster_ticked_hidden_in_new_encounter_never_shows_on_the_players_screen(
    qtbot: QtBot, sample_store: Store, settings: QSettings, monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    window = MainWindow(sample_store, settings)
    qtbot.addWidget(window)
    window.show()
    players = window.players
    players.show_action.trigger()  # View › Players' Screen, open before the fight exists
    screen = players.players_window
    assert screen is not None and screen.isVisible()
    shown: list[str] = []  # every text the players' window ever held
    original = PlayersWindow.show_view

    def watched(self: PlayersWindow, view: object) -> None:
        original(self, view)  # type: ignore[arg-type]
        shown.append("\n".join(visible_texts(self)))

    monkeypatch.setattr(PlayersWindow, "show_view", watched)

    action(window, "New Encounter").trigger()
    dialog = window.encounter_actions.dialog
    assert isinstance(dialog, StartEncounterDialog)
    dialog.name.setText("Ambush at the ford")
    dialog.set_system("side-d6")
    dialog.set_count("Orc", 1)
    dialog.set_count("Goblin", 2)
    tick = dialog.hidden_box("Goblin")
    assert "not on the players' screen" in tick.toolTip()
    tick.setCheckState(Qt.CheckState.Checked)  # the DM ticks Hidden on the goblins' row
    button(dialog, "OK").click()  # type: ignore[arg-type]
    workspace = window.encounter_actions.current()
    assert workspace is not None and workspace.session.info.name == "Ambush at the ford"
    QApplication.processEvents()
    qtbot.wait(20)
    shown.append("\n".join(visible_texts(screen)))

    assert shown and any("Orc 1" in text for text in shown)  # the fight is on the screen
    assert not [text for text in shown if "Goblin" in text]
    # Among the fight's first commands, before any the DM plays: nothing to take back.
    first = workspace.session.log.commands
    kinds = [e.kind for c in first for e in c.events]
    assert kinds[-1] is EventKind.HIDDEN_FROM_PLAYERS
    goblins = sorted(c.id for c in workspace.controller.state.combatants.values()
                     if c.label.startswith("Goblin"))
    assert sorted(workspace.controller.state.hidden) == goblins
    cards = workspace.board.cards_model
    assert "· hidden from the players" in cards.index(cards.row_of(goblins[0]), 0).data()
    # Revealed, they show.
    assert players.apply_hidden(workspace, [], goblins)
    assert "Goblin 1" in "\n".join(visible_texts(screen))


def test_nothing_ticked_hides_nobody(qtbot: QtBot, sample_store: Store,
                                     settings: QSettings) -> None:
    window = MainWindow(sample_store, settings)
    qtbot.addWidget(window)
    window.show()
    action(window, "New Encounter").trigger()
    dialog = window.encounter_actions.dialog
    assert isinstance(dialog, StartEncounterDialog)
    dialog.set_count("Orc", 2)
    dialog.hidden_box("Goblin").setCheckState(Qt.CheckState.Checked)  # but no goblin stamped
    plan = dialog.build_plan()
    assert plan.hidden == ()
