"""Ctrl+Z after Roll All Pending says what it took back: every die that press rolled, by name
(the status line once named only the last die Qt undid)."""

from __future__ import annotations

from core.printout.words import Names, purpose_words
from desktop.main_window import MainWindow
from tests.desktop.encounter.test_main_window_encounters import _start


def test_undo_and_redo_of_roll_all_name_every_die(window: MainWindow) -> None:
    ws = _start(window, "popcorn")  # a d20 of initiative for every creature
    names = Names.from_state(ws.controller.state)
    asked = [purpose_words(r.purpose, names) for r in ws.controller.rolls_needed()]
    assert len(asked) >= 2, asked
    ws.stepper.roll_all_button.click()
    rolled = [(purpose_words(r.purpose, names), r.total) for r in ws.controller.state.rolls]
    assert [p for p, _ in rolled] == asked
    assert ws.controller.stack.undoText() == f"Roll {len(asked)} dice"

    window.undo_action.trigger()  # Ctrl+Z: the whole press, one step
    assert not ws.controller.state.rolls
    said = window.statusBar().currentMessage()
    assert said.startswith(f"Undone: Roll {len(asked)} dice (")
    for purpose, total in rolled:
        assert f"{purpose}: {total}" in said, said
    assert said.index(rolled[0][0]) < said.index(rolled[-1][0])  # in the order rolled
    assert "[" not in said and "where" not in said and "_" not in said  # plain words
    assert "(rolled)" not in said  # "Roll 8 dice" says it once

    window.redo_action.trigger()
    said = window.statusBar().currentMessage()
    assert said.startswith(f"Redone: Roll {len(asked)} dice (")
    assert all(f"{purpose}: {total}" in said for purpose, total in rolled), said
