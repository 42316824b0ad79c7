"""The secrecy test: a fight per system played command by command with the players' screen
open; after every command nothing the players may not know shows anywhere in its window,
while the PCs' names, where play stands and the last step do."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from tests.desktop.players.fights import FIGHTS, HIDDEN_NAME, SECRETS
from tests.desktop.players.helpers import (
    main_window,
    play_commands,
    store_with_fight,
    visible_texts,
)

PARTY = ("Garrick", "Halvaine", "Brother Tam")


@pytest.mark.parametrize("system", sorted(FIGHTS))
@pytest.mark.parametrize("show_hp", [False, True], ids=["party-hp-hidden", "party-hp-shown"])
def test_after_every_command_the_players_see_nothing_secret(
    qtbot: QtBot, tmp_path: Path, system: str, show_hp: bool
) -> None:
    document = FIGHTS[system]
    store = store_with_fight(tmp_path, document)
    window = main_window(qtbot, store, tmp_path)
    players = window.players
    if show_hp:
        players.hp_action.trigger()
    players.show_action.trigger()  # View → Players' Screen, as the DM clicks it
    screen = players.players_window
    assert screen is not None and screen.isVisible()
    # The fight opened behind the roster tab: the players' screen shows it all the same.
    workspace = window.encounter_actions.workspaces[0]
    assert window.encounter_actions.current() is None and players.workspace is workspace
    window.tabs.setCurrentWidget(workspace)
    assert players.workspace is workspace
    seen_play = False
    for command in play_commands(document):
        assert workspace.controller.run(command, check=False), command.name
        texts = visible_texts(screen)
        joined = "\n".join(texts)
        for secret in SECRETS:
            assert secret not in joined, (command.name, secret, joined)
        for name in PARTY:
            assert name in joined, (command.name, name)
        assert screen.clock.text() in texts and screen.clock.text()
        view = screen.view
        assert view is not None and view.clock == screen.clock.text()
        if view.play:
            seen_play = True
            assert f"Last: {view.play[-1].text}" == screen.last.text()
            assert screen.play.item(screen.play.count() - 1).text().endswith(view.play[-1].text)
        if show_hp:
            assert "HP " in joined  # the party's, never a monster's (SECRETS above)
    assert seen_play, "the fight never showed a step"
    # The DM's own screen still shows everything, the hidden creature marked as such.
    model = workspace.status_model
    rows = {model.index(r, 0).data(): model.notes_of(r) for r in range(model.rowCount())}
    assert rows[HIDDEN_NAME].startswith("hidden from the players")
    cards = workspace.board.cards_model
    card = cards.index(cards.row_of("assassin"), 0).data()
    assert card.startswith(HIDDEN_NAME) and "· hidden from the players" in card
    # Revealed (one step, Ctrl+Z takes it back), the creature shows on the players' screen.
    assert players.apply_hidden(workspace, [], ["assassin"])
    assert HIDDEN_NAME in "\n".join(visible_texts(screen))
    window.undo_action.trigger()
    assert HIDDEN_NAME not in "\n".join(visible_texts(screen))
