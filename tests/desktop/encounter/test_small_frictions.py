"""Smaller frictions a new DM met at the table (issue 24): New Encounter offers the system of
the last fight, and a Target list starts with the other side."""

from __future__ import annotations

from typing import Any

from desktop.main_window import MainWindow
from tests.desktop.encounter.laptop_fights import MONSTER_IDS, PC_IDS, fight


def test_new_encounter_offers_the_last_system(window: MainWindow) -> None:
    dialog = window.encounter_actions.ask_new_encounter()
    assert dialog is not None
    dialog.set_system("popcorn")
    dialog.set_count("Orc", 2)
    dialog.accept()
    assert window.encounter_actions.current() is not None
    again = window.encounter_actions.ask_new_encounter()
    assert again is not None
    assert again.system.currentData() == "popcorn"  # not back to the first system
    again.reject()


def test_a_pc_s_target_list_starts_with_the_monsters(played: Any) -> None:
    ws = played(fight("side-d6"))
    board = ws.board
    assert board.open_editor(PC_IDS[0], "attack")
    offered = [board.editor.target.itemData(i) for i in range(1, board.editor.target.count())]
    assert offered[:len(MONSTER_IDS)] == MONSTER_IDS, offered
    assert board.open_editor(MONSTER_IDS[0], "attack")
    offered = [board.editor.target.itemData(i) for i in range(1, board.editor.target.count())]
    assert offered[:len(PC_IDS)] == PC_IDS, offered
