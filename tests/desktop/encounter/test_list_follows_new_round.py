"""The resolution list brings a new round's steps into view (tester's 89-r3-rolled: round 3's
dice were in, and the list still showed rounds 1 and 2, round 3 below the fold). The step
the DM selected stays selected."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QApplication

from core.fight.encounter import add_entry, start_round
from core.store import Store
from desktop.main_window import MainWindow
from tests.desktop.encounter.laptop_fights import MONSTER_IDS, PC_IDS
from tests.desktop.encounter.laptop_shots import open_fight


def _settle() -> None:
    for _ in range(4):
        QApplication.processEvents()


def test_a_new_rounds_first_step_comes_into_view(qtbot: Any, sample_store: Store,
                                                 settings: Any) -> None:
    window = MainWindow(sample_store, settings)
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    _settle()
    ws = open_fight(window, sample_store, "addict")  # round 1: more steps than rows in view
    _settle()
    view, model = ws.steps_view, ws.steps_model
    chosen = model.step_at(2)
    assert chosen is not None
    ws.select_step(chosen.seq)  # the DM is reading round 1's third step
    view.scrollToTop()
    _settle()

    controller = ws.controller
    for number in (2, 3):  # two more rounds, every fighter striking: well below the fold
        controller.run(start_round(number, {"initiative": {"party": 2, "monsters": 5}}))
        for pc, foe in zip(PC_IDS * 2, MONSTER_IDS, strict=False):
            for actor, target in ((pc, foe), (foe, pc)):
                controller.run(add_entry("declarations",
                                         {"actor": actor, "action": "G", "target": target}))
        _settle()
    rows = [r for r in range(model.rowCount()) if (s := model.step_at(r)) and s.round == 3]
    assert rows and rows[0] > 24, rows
    first = model.index(rows[0], 0)
    assert view.viewport().rect().contains(view.visualRect(first)), (
        f"round 3's first step (row {rows[0] + 1}) at {view.visualRect(first)}, out of view")
    assert ws.sync.selected_step() == chosen.seq  # the DM's selection is kept
