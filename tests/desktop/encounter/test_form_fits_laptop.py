"""The declaration form at 1280×720 (tester's 36-key-d and 33-drag-strike): an addict caster's
form was wider than its panel, its fields cut on the right with no way to scroll to them, and
on a fighter's the weapon's note overlapped the rows around it ("Long sword:" cut at the top).
Every field of the form is whole inside the panel, none overlaps another, and every wrapped
note has the height its lines need."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication, QLabel, QWidget

from core.fight.encounter import set_field
from core.store import Store
from desktop.main_window import MainWindow
from tests.desktop.encounter.conftest import press_on_card, scenario
from tests.desktop.encounter.laptop_fights import PC_IDS
from tests.desktop.encounter.laptop_shots import open_fight


def _settle() -> None:
    for _ in range(4):
        QApplication.processEvents()


def _form_problems(board: Any) -> list[str]:
    editor = board.editor
    area = board.editor_area
    viewport = area.viewport()
    problems = []
    if editor.width() > viewport.width():
        problems.append(f"form {editor.width()} px wide in a panel of {viewport.width()} px")
    form = editor.form
    shown: list[tuple[str, QRect]] = []
    seen: set[int] = set()
    for row in range(form.rowCount()):
        if not form.isRowVisible(row):
            continue
        for role in (form.ItemRole.LabelRole, form.ItemRole.FieldRole,
                     form.ItemRole.SpanningRole):
            item = form.itemAt(row, role)
            widget: QWidget | None = item.widget() if item is not None else None
            if widget is None or widget.isHidden() or id(widget) in seen:
                continue
            seen.add(id(widget))
            rect = QRect(widget.mapTo(viewport, widget.rect().topLeft()), widget.size())
            name = widget.text() if isinstance(widget, QLabel) else type(widget).__name__
            if rect.right() >= viewport.width() or rect.left() < 0:
                problems.append(f"{name!r} at {rect}: cut by the panel's right edge "
                                f"({viewport.width()} px)")
            if isinstance(widget, QLabel) and widget.wordWrap() and widget.text() and \
                    widget.heightForWidth(widget.width()) > widget.height():
                problems.append(f"{name!r}: {widget.height()} px high, its lines need "
                                f"{widget.heightForWidth(widget.width())}")
            for other, placed in shown:
                if placed.intersects(rect):
                    problems.append(f"{name!r} {rect} overlaps {other!r} {placed}")
            shown.append((name, rect))
    return problems


@pytest.mark.parametrize(("who", "action"), [(PC_IDS[3], "D"), (PC_IDS[0], "G")],
                         ids=["caster", "fighter"])
def test_the_addict_form_is_whole_at_1280x720(qtbot: Any, sample_store: Store, settings: Any,
                                              who: str, action: str) -> None:
    window = MainWindow(sample_store, settings)
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    _settle()
    ws = open_fight(window, sample_store, "addict")
    _settle()
    board = ws.board
    assert board.open_editor(who, action)
    _settle()
    assert board.editor.isVisible()
    assert board.editor.weapon_facts.text(), "the weapon's note is shown"
    assert not _form_problems(board), "\n".join(_form_problems(board))
    # the area scrolls down only: no sideways scroll bar hides a field's end
    assert board.editor_area.horizontalScrollBar().maximum() == 0 or \
        not board.editor_area.horizontalScrollBar().isVisible()


def test_a_fuller_form_widens_a_narrow_panel_instead_of_being_cut(start: Any) -> None:
    """The tester's Sister Ysolde (a third walk): in the surprise segments the form has a
    "Surprise segment" row, whose long label left the lists too little room, and they were cut
    on the right in a Combatants panel sized for the shorter form. The DM narrows the panel as
    far as it goes; the fuller form then widens it and is whole."""
    ws = start(scenario("addict/winner-first-letter-order.json"))
    ws.resize(1280, 720)
    ws.controller.run(set_field("surprise", {"party": 5, "monsters": 1}))
    dock = ws.panels.docks["combatantsDock"]
    ws.panels.resizeDocks([dock], [120], Qt.Orientation.Horizontal)
    _settle()
    board = ws.board
    press_on_card(board, "fighter", "G")
    _settle()
    assert board.editor.form.isRowVisible(board.editor.segment), "the surprise form"
    assert not _form_problems(board), "\n".join(_form_problems(board))
