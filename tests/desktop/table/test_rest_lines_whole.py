"""The Rest dialog's lines are read whole (tester's 166-rest-hp: "Halvaine the Arcane: 1 spell
back, HP 6 →" ran off under a sideways scroll bar, the new HP out of view)."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from core.roster.entries import RosterEntry
from desktop.main_window import MainWindow
from desktop.roster.rest_dialog import RestDialog
from tests.desktop.table.conftest import action


def test_every_rest_line_is_whole(table: MainWindow) -> None:
    # the longest names a roster may hold, hurt, so every line says "HP a → b"
    store, campaign = table.store, table.campaign
    assert campaign is not None
    for entry in table.entries:
        if entry.side == "party" and entry.max_hp:
            hurt: RosterEntry = replace(entry, name=(entry.name + " of the Misty Vale")[:40],
                                        hp=1)
            store.roster.update(hurt)
    table.reload_campaigns()
    action(table, "Rest the Party").trigger()
    dialog = table.roster_actions.dialog
    assert isinstance(dialog, RestDialog)
    dialog.hp_box.setChecked(True)
    for _ in range(4):
        QApplication.processEvents()
    view = dialog.list
    assert not view.horizontalScrollBar().isVisible()
    metrics = view.fontMetrics()
    lines = [view.item(i).text() for i in range(view.count())]
    assert any("→" in line for line in lines), lines
    viewport = view.viewport().rect()
    for row, text in enumerate(lines):
        rect = view.visualItemRect(view.item(row))
        # the words fit the rect it is painted in: on one line, or wrapped over enough lines
        needed = metrics.boundingRect(0, 0, rect.width(), 10_000,
                                      Qt.TextFlag.TextWordWrap, text).height()
        assert rect.right() <= viewport.right(), (text, rect, viewport)
        assert rect.height() >= needed, (text, rect.height(), needed)
    dialog.reject()
