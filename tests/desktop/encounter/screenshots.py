"""Takes a screenshot of the main window with each system's board mid-encounter.

Run under Xvfb (not collected by pytest), at the screen's size (default 1280x720):
  QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1280x720x24" \
      .venv/bin/python -m tests.desktop.encounter.screenshots OUT_DIR [1280x720]
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from core.model.scenario import read_combatant
from core.store import Store
from desktop.app import ensure_sample_campaign
from desktop.encounter.start_dialog import EncounterPlan
from desktop.encounter.workspace import EncounterWorkspace
from desktop.main_window import MainWindow
from tests.desktop.encounter.conftest import (
    drop_card,
    fill_and_declare,
    press_on_card,
    record,
    scenario,
    type_die,
)


def _named(raw: dict[str, Any]) -> dict[str, Any]:
    """The test scenarios name creatures by id only; a DM's screen shows names (orc-1 → Orc 1)."""
    return {"name": str(raw["id"]).replace("-", " ").capitalize(), **raw}


def _start(window: MainWindow, document: dict[str, Any]) -> EncounterWorkspace:
    combatants = tuple(read_combatant(_named(c), f"combatants[{i}]")
                       for i, c in enumerate(document["combatants"]))
    plan = EncounterPlan(document["system"], document["system"], document.get("options") or {},
                         int(document.get("seed") or 7), combatants)
    workspace = window.encounter_actions.start(plan)
    assert workspace is not None
    return workspace


def side_d6(window: MainWindow) -> EncounterWorkspace:
    ws = _start(window, scenario("side-d6/halvaine-example.json"))
    ws.stepper.go_to_phase(3)
    drop_card(ws.board, ws.board.lanes["spell"].model, "halvaine")  # type: ignore[attr-defined]
    fill_and_declare(ws.board, spell="sleep", target="orc-1")
    press_on_card(ws.board, "orc-1", "1")
    fill_and_declare(ws.board, target="halvaine")
    press_on_card(ws.board, "orc-2", "1")
    fill_and_declare(ws.board, target="halvaine")
    type_die(ws, "initiative party", "5")
    ws.controller.roll(ws.controller.rolls_needed()[0])
    record(ws, "orc-1", True, 3)
    press_on_card(ws.board, "halvaine", "4")  # the editor open for the next declaration
    type_die(ws, "initiative party", "7") if ws.stepper.rows else None
    return ws


def addict(window: MainWindow) -> EncounterWorkspace:
    ws = _start(window, scenario("addict/winner-first-letter-order.json"))
    ws.stepper.go_to_phase(7)
    for actor, letter, target in (("orc-2", "G", "fighter"), ("fighter", "G", "orc-1"),
                                  ("orc-1", "G", "fighter"), ("archer", "D", "orc-2")):
        drop_card(ws.board, ws.board.lanes[letter].model, actor)  # type: ignore[attr-defined]
        fill_and_declare(ws.board, target=target)
    type_die(ws, "initiative party", "4")
    type_die(ws, "initiative monsters", "2")
    record(ws, "orc-1", True, 5)
    record(ws, "fighter", True, 6)
    ws.board.cards.select_id("archer")  # its declaration timer runs
    return ws


def popcorn(window: MainWindow) -> EncounterWorkspace:
    document = scenario("popcorn/effect-durations-alice-example.json")
    ws = _start(window, document)
    ws.stepper.go_to_phase(2)
    for cid, total in document["initiative"].items():
        type_die(ws, f"initiative {cid.replace('-', ' ').capitalize()}", str(total))
    board: Any = ws.board
    drop_card(board, board.action_lanes["attack"].model, "goblin")
    board.editor.set_value("target", "bob")
    drop_card(board, board.next_lane.model, "bob")
    record(ws, "goblin", False)
    press_on_card(board, "bob", "1")
    board.editor.set_value("target", "goblin")
    board.nominate("goblin")  # refused: the goblin has acted (the message shows why)
    return ws


def popcorn_morale(window: MainWindow) -> EncounterWorkspace:
    """End of Round: one morale 2d6 typed in, one still offered; a failed save recorded."""
    document = scenario("popcorn/death-and-morale.json")
    ws = _start(window, document)
    ws.stepper.go_to_phase(3)
    for cid, total in document["initiative"].items():
        type_die(ws, f"initiative {cid.replace('-', ' ').capitalize()}", str(total))
    board: Any = ws.board
    for actor, target, nominee, hit, damage in (("hala", "goblin-1", "goblin-2", True, 3),
                                                ("goblin-2", "hala", "hobgoblin", True, 2),
                                                ("hobgoblin", "hala", "hala", False, 0)):
        press_on_card(board, actor, "1")
        board.editor.set_value("target", target)
        press_on_card(board, nominee, "N")
        record(ws, actor, hit, damage)
    type_die(ws, "morale goblin-2 (round 1)", "9")
    ws.select_step(next(s.seq for s in ws.controller.resolution.steps
                        if s.event == "morale-check" and s.actor == "hobgoblin"))
    return ws


def time_units(window: MainWindow) -> EncounterWorkspace:
    ws = _start(window, scenario("time-units/bolog.json"))
    ws.stepper.go_to_phase(2)
    board: Any = ws.board
    press_on_card(board, "bolog", "S")
    fill_and_declare(board, spell="magic missile", target="orc-1")
    type_die(ws, "initiative bolog (spell)", "8")
    press_on_card(board, "bolog", "M")
    fill_and_declare(board, target="orc-2", weapon="quarterstaff")
    type_die(ws, "initiative bolog (melee, 2nd action)", "7")
    press_on_card(board, "orc-1", "M")
    fill_and_declare(board, target="bolog")
    board.advance()
    board.advance()
    return ws


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "screenshots")
    out.mkdir(parents=True, exist_ok=True)
    app = QApplication([sys.argv[0]])
    folder = Path(tempfile.mkdtemp())
    store = Store.open(f"sqlite:///{folder / 'shots.sqlite'}")
    ensure_sample_campaign(store)
    window = MainWindow(store, QSettings(str(folder / "s.ini"), QSettings.Format.IniFormat))
    width, height = (int(n) for n in (sys.argv[2] if len(sys.argv) > 2 else "1280x720")
                     .split("x"))
    window.resize(width, height)
    window.show()
    for name, build in (("side-d6", side_d6), ("addict", addict), ("popcorn", popcorn),
                        ("popcorn-morale", popcorn_morale), ("time-units", time_units)):
        ws = build(window)
        window.tabs.setCurrentWidget(ws)
        for _ in range(20):
            app.processEvents()
        window.grab().save(str(out / f"board-{name}.png"))
        print(out / f"board-{name}.png", window.width(), window.height())
    store.close()


if __name__ == "__main__":
    main()
