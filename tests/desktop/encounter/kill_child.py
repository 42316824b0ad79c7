"""Runs an encounter in the workspace offscreen until killed, printing each saved command.

Usage: python -m tests.desktop.encounter.kill_child DATABASE_URL SETTINGS_FILE
Each line ``saved <count> <name>`` is printed (and flushed) after the command is in the store.
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QModelIndex, QSettings, Qt
from PySide6.QtWidgets import QApplication

from core.store import Store
from desktop.app import ensure_sample_campaign
from desktop.encounter.letter_board import LetterBoard
from desktop.main_window import MainWindow


def main() -> None:
    url, settings_file = sys.argv[1], sys.argv[2]
    app = QApplication([sys.argv[0]])
    store = Store.open(url)
    ensure_sample_campaign(store)
    window = MainWindow(store, QSettings(settings_file, QSettings.Format.IniFormat))
    dialog = window.encounter_actions.ask_new_encounter()
    assert dialog is not None
    dialog.set_system("side-d6")
    dialog.set_count("Orc", 4)
    dialog.accept()
    workspace = window.encounter_actions.current()
    assert workspace is not None
    session = workspace.session
    workspace.controller.completed.connect(
        # the log's own name (the signal carries the DM's words for the status bar)
        lambda _text: print(
            f"saved {len(session.log.commands)} {session.log.commands[-1].name}", flush=True))
    board = workspace.board
    assert isinstance(board, LetterBoard)
    ids = list(workspace.controller.state.combatants)
    combatants = workspace.controller.state.combatants
    foe = {cid: next(o for o in ids if combatants[o].side != combatants[cid].side)
           for cid in ids}  # a blow is made at someone: the form asks for a target
    print(f"started {len(session.log.commands)}", flush=True)
    while True:  # round after round until the parent kills us
        for cid in ids:
            row = board.cards_model.row_of(cid)
            data = board.cards_model.mimeData([board.cards_model.index(row, 0)])
            board.lanes["attack"].model.dropMimeData(data, Qt.DropAction.CopyAction, -1, 0,
                                                     QModelIndex())
            board.editor.set_value("target", foe[cid])
            board.editor.submit()
            app.processEvents()
        for request in workspace.controller.rolls_needed():
            workspace.controller.roll(request)
        board.start_next_round()
        app.processEvents()


if __name__ == "__main__":
    main()
