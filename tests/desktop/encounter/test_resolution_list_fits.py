"""The resolution list at 1280×720 (issue 24): every row's who, what, target and why is read
without scrolling sideways. The columns fit the list's width; a cell cut to fit gives its
whole text in the row's tooltip and, once selected, in the outcome panel; no rule id shows.
Four systems, 4 PCs and 8 monsters whose names are up to 24 characters long."""

from __future__ import annotations

from html import unescape
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from core.rules import find_system
from core.store import Store
from desktop.encounter.workspace import EncounterWorkspace
from desktop.main_window import MainWindow
from tests.desktop.encounter.laptop_fights import SYSTEMS
from tests.desktop.encounter.laptop_shots import open_fight


def _settle() -> None:
    for _ in range(4):
        QApplication.processEvents()


@pytest.fixture
def laptop(qtbot: Any, sample_store: Store, settings: Any) -> MainWindow:
    window = MainWindow(sample_store, settings)
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    _settle()
    return window


@pytest.mark.parametrize("system", SYSTEMS)
def test_each_row_reads_whole_without_a_sideways_scroll(
    laptop: MainWindow, sample_store: Store, system: str
) -> None:
    ws: EncounterWorkspace = open_fight(laptop, sample_store, system)
    ws.panels.bring_forward("resolutionDock")
    _settle()
    view, model = ws.steps_view, ws.steps_model
    header = view.horizontalHeader()
    assert header.length() <= view.viewport().width(), (header.length(),
                                                        view.viewport().width())
    assert not view.horizontalScrollBar().isVisible()
    assert model.rowCount() >= 12
    rule_ids = set(find_system(system).rules)
    short_ids = {r.split(".", 1)[1] for r in rule_ids}
    for row in range(model.rowCount()):
        texts = [str(model.index(row, c).data()) for c in range(model.columnCount())]
        tip = unescape(str(model.index(row, 0).data(Qt.ItemDataRole.ToolTipRole)))
        for text in texts:
            assert not any(i in text for i in rule_ids | short_ids), text
        assert not any(i in tip for i in rule_ids | short_ids), tip
        who, target, why = texts[2], texts[4], texts[5]
        assert why, texts  # every step says why it came then
        for text in (who, target, why):
            assert text.rstrip("…") in tip, (text, tip)
        # selected, the outcome panel says it too: the why in full, the names
        view.selectRow(row)
        header_text = ws.outcome.label.text()
        assert why in header_text, (why, header_text)
        if row == 0:
            assert who in header_text
        if row == model.rowCount() - 1:  # the header's lines are whole, none cut below
            _settle()
            label = ws.outcome.label
            assert label.height() >= label.heightForWidth(label.width()), header_text
