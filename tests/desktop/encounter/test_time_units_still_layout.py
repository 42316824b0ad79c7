"""time-units at 1280×720: nothing the DM clicks moves when the declare form opens or the
clock's step text grows to two lines (the Combatants column, the clock, Advance, Take Back)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QWidget

from desktop.encounter.tu_board import TimeUnitBoard
from tests.desktop.encounter.conftest import press_on_card

FIGHT = {"format": "combatdesk/scenario-1", "system": "time-units",
         "combatants": [
             {"id": "wolfgang", "name": "Wolfgang Ironbeard-Smith", "side": "party", "hp": 14,
              "attacks": 2, "weapons": [{"name": "Long bow", "speed": 8, "rate_of_fire": 2,
                                         "missile": True}]},
             {"id": "halvaine", "name": "Halvaine the Arcane", "side": "party", "hp": 6},
             {"id": "orc-1", "name": "Orc 1", "side": "monsters", "hp": 8},
             {"id": "orc-2", "name": "Orc 2", "side": "monsters", "hp": 7}]}


def _where(widget: QWidget, top: QWidget) -> tuple[int, int, int, int]:
    corner = widget.mapTo(top, QPoint(0, 0))
    return corner.x(), corner.y(), widget.width(), widget.height()


def _geometry(ws, board: TimeUnitBoard) -> dict[str, tuple[int, int, int, int]]:  # type: ignore[no-untyped-def]
    QApplication.processEvents()
    return {name: _where(w, ws) for name, w in (
        ("combatants", board.combatants_panel), ("cards", board.cards),
        ("clock", board.clock_label), ("advance", board.advance_button),
        ("take back", board.take_back_button), ("palette", board.palette),
        ("surprised", board.surprised_button))}


def test_opening_the_declare_form_and_a_long_clock_step_move_nothing(start) -> None:  # type: ignore[no-untyped-def]
    ws = start(FIGHT)
    ws.resize(1280, 720)
    board = ws.board
    assert isinstance(board, TimeUnitBoard)
    dock = ws.panels.docks["combatantsDock"]
    ws.panels.resizeDocks([dock], [200], Qt.Orientation.Horizontal)  # as narrow as it goes
    before = _geometry(ws, board)
    press_on_card(board, "wolfgang", "I")  # missile: the form with the weapon's note
    assert board.editor.isVisible()
    board.editor.set_value("weapon", "Long bow")
    assert _geometry(ws, board) == before
    board.editor.hide()
    board.clock_step.setText("Orc 3 is asleep: Halvaine the Arcane's Sleep holds it until the "
                             "DM ends it, and its next action waits")
    assert board.clock_step.heightForWidth(board.clock_step.width()) > \
        board.clock_step.fontMetrics().lineSpacing()  # two lines at this width
    assert _geometry(ws, board) == before
