"""Dice rows the stepper takes away are gone, never windows of their own.

A row inserted in the stepper's layout has a "show if not hidden" queued by Qt; a row taken out
with setParent(None) before that ran (two refreshes with no event loop between: two dice typed
while the saves are quick) was shown as a top-level window when events next ran. It took the
activation from the DM's window, and the next Ctrl+Z went nowhere (the time-units table test
failed that way, depending on test order and machine load).
"""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from desktop.encounter.roll_row import RollRow
from tests.desktop.encounter.conftest import drop_card, fill_and_declare, scenario, type_die


def test_dice_rows_taken_away_never_show_as_windows(start) -> None:  # type: ignore[no-untyped-def]
    ws = start(scenario("side-d6/halvaine-example.json"))
    board = ws.board
    assert drop_card(board, board.lanes["spell"].model, "halvaine")
    fill_and_declare(board, spell="sleep", target="orc-1")
    ws.activateWindow()
    QApplication.processEvents()
    assert QApplication.activeWindow() is ws
    shown_before = {id(w) for w in QApplication.topLevelWidgets() if w.isVisible()}

    # Two dice typed with no event loop between: both refreshes replace the rows.
    type_die(ws, "initiative party", "5")
    type_die(ws, "initiative monsters", "4")
    assert ws.controller.rolls_needed() == []
    QApplication.processEvents()

    strays = [w for w in QApplication.topLevelWidgets()
              if w.isVisible() and id(w) not in shown_before]
    assert strays == [], [(type(w).__name__, w.objectName()) for w in strays]
    assert not any(isinstance(w, RollRow) and w.isWindow() and w.isVisible()
                   for w in QApplication.topLevelWidgets())
    assert QApplication.activeWindow() is ws
