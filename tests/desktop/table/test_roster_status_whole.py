"""The roster's Status column says an entry is in an open fight in words it shows whole at
1280×720 (tester's 113-delete-garrick: "Active · fighting in …"); the fight's name is read
in the entry's form, beside its HP."""

from __future__ import annotations

from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QApplication

from desktop.main_window import MainWindow
from desktop.roster.tree_model import COLUMNS
from tests.desktop.table.results_helpers import start_fight

BRANNOC = "Brannoc the Bold"


def test_a_fighting_status_is_whole_in_the_roster(table: MainWindow) -> None:
    start_fight(table, "Goblin bridge by the old mill road", "Orc", (BRANNOC, "Garrick"))
    table.tabs.setCurrentIndex(0)
    for _ in range(4):
        QApplication.processEvents()
    view = table.roster_panel.view
    proxy = view.model()
    column = COLUMNS.index("Status")
    shown = 0
    for name in (BRANNOC, "Garrick"):
        entry = next(e for e in table.entries if e.name == name)
        source = table.roster_panel.model.index_of_entry(entry.id or 0)
        index = proxy.mapFromSource(source.sibling(source.row(), column))
        text = str(index.data())
        assert text == "Active · fighting", text
        font = index.data(6)  # the bold the cell is painted in (FontRole)
        metrics = QFontMetrics(font if isinstance(font, QFont) else view.font())
        rect = view.visualRect(index)
        assert view.viewport().rect().contains(rect), (text, rect)
        assert rect.width() >= metrics.horizontalAdvance(text) + 6, (text, rect.width())
        shown += 1
    assert shown == 2
    # the fight is named where the entry is read: its form
    entry = next(e for e in table.entries if e.name == BRANNOC)
    assert table.roster_panel.select_entry(entry.id or 0)
    QApplication.processEvents()
    assert "Goblin bridge by the old mill road" in table.editor.fight_note.text()
