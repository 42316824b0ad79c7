"""time-units: the TU clock is read from the encounter log, so a restarted app (after a quit
or a kill) shows the same clock, the same next actor and the same pending actions."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from pytestqt.qtbot import QtBot

from core.play.session import EncounterSession
from core.store import Store
from desktop.encounter.tu_board import TimeUnitBoard
from desktop.encounter.workspace import EncounterWorkspace
from tests.desktop.encounter.conftest import fill_and_declare, press_on_card, scenario, type_die

ROOT = Path(__file__).resolve().parents[3]

_PRINT_CLOCK = """
import sys
from PySide6.QtWidgets import QApplication
from core.play.session import EncounterSession
from core.store import Store
from desktop.encounter.workspace import EncounterWorkspace
app = QApplication([])
store = Store.open(sys.argv[1])
session = EncounterSession.resume(store, store.encounters.get(int(sys.argv[2])))
board = EncounterWorkspace(session).board
model = board.cards_model
print(board.clock_label.text())
print(board.clock_step.text())
for cid in ("bolog", "orc-1"):
    print(model.index(model.row_of(cid), 0).data().replace("\\n", " "))
store.close()
"""


def _card(board: TimeUnitBoard, cid: str) -> str:
    model = board.cards_model
    return str(model.index(model.row_of(cid), 0).data()).replace("\n", " ")


def _screen(board: TimeUnitBoard) -> list[str]:
    return [board.clock_label.text(), board.clock_step.text(),
            _card(board, "bolog"), _card(board, "orc-1")]


def test_the_clock_and_next_actor_survive_closing_the_window_and_a_new_process(
        start, store: Store, qtbot: QtBot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    document = scenario("time-units/bolog.json")
    document["combatants"][0]["name"] = "Bolog"
    document["combatants"][1]["name"] = "Orc 1"
    ws = start(document)
    board = ws.board
    assert isinstance(board, TimeUnitBoard)
    press_on_card(board, "bolog", "S")
    fill_and_declare(board, spell="magic missile", target="orc-1")
    type_die(ws, "initiative bolog (spell)", "8")
    press_on_card(board, "orc-1", "M")
    fill_and_declare(board, target="bolog")
    type_die(ws, "initiative orc-1 (melee)", "9")  # TU 14: 9 + 5
    assert board.advance() is not None  # TU 14: Bolog begins casting (first of the TU)
    assert board.advance() is not None  # TU 14: Orc 1 attacks
    before = _screen(board)
    assert before[0] == "TU clock: 14" and "Orc 1" in before[1], before
    assert ws.controller.stack.undoText() == "Advance the clock to TU 14 (Orc 1)"
    assert "next at TU 15" in before[2], before  # Bolog's spell takes effect at 15

    # The window closes; the campaign file is opened again (a quit and restart).
    encounter_id = ws.session.info.id
    ws.close()
    ws.deleteLater()
    reopened = Store.open(f"sqlite:///{tmp_path / 'encounters.sqlite'}")
    try:
        again = EncounterWorkspace(EncounterSession.resume(
            reopened, reopened.encounters.get(encounter_id)))
        qtbot.addWidget(again)
        assert isinstance(again.board, TimeUnitBoard)
        assert _screen(again.board) == before
        assert again.board.advance() is not None  # on from where it stood
        assert again.board.clock_label.text() == "TU clock: 15"
        again.controller.stack.undo()  # one Ctrl+Z takes the clock back
        assert _screen(again.board) == before
    finally:
        reopened.close()

    # A fresh process reading the file (as after kill -9) shows the same.
    out = subprocess.run(
        [sys.executable, "-c", _PRINT_CLOCK, f"sqlite:///{tmp_path / 'encounters.sqlite'}",
         str(encounter_id)], cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"}, check=True)
    assert out.stdout.splitlines()[:4] == before
