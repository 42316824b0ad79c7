"""The end-of-fight results at 1280×720 (issue 24): the "Write to the roster" column was off
the dialog's right edge and its choices were cut with "…". Every column and every line now
reads whole: words wrap in their rows, no sideways scroll, each choice box as wide as its
words, and the selected line is said whole below the table."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QMainWindow
from pytestqt.qtbot import QtBot

from core.roster.results import ChangeField, Choice, ProposedChange
from desktop.roster.results_dialog import COLUMNS, ResultsDialog

SPELLS = ("Bless", "Cure light wounds", "Hold person", "Silence 15' radius")


def _changes() -> list[ProposedChange]:
    return [
        ProposedChange(1, "Brannoc Stoutheart Elder", ChangeField.HP, 24, -6,
                       "Brannoc Stoutheart Elder: HP 24 → -6", start=24, end=-6),
        ProposedChange(2, "Sister Ysolde of Arnmoor", ChangeField.HP, 12, 8,
                       "Sister Ysolde of Arnmoor: HP 12 → 8", start=17, end=13,
                       changed_since=True),
        ProposedChange(2, "Sister Ysolde of Arnmoor", ChangeField.SPELLS, SPELLS, SPELLS[:3],
                       "Sister Ysolde of Arnmoor: spells used — Bless, Cure light wounds, "
                       "Hold person", start=SPELLS),
        ProposedChange(3, "Kell Quickfinger Thorne", ChangeField.HP, 20, 11,
                       "Kell Quickfinger Thorne: HP 20 → 11", start=20, end=11, gone=True),
        ProposedChange(4, "Halvaine the Grey Magus", ChangeField.SPELLS, ("Sleep",),
                       ("Sleep", "Magic missile"), "Halvaine the Grey Magus: spells used — "
                       "Sleep, Magic missile", start=("Sleep", "Magic missile"),
                       changed_since=True),
    ]


def test_every_column_and_choice_reads_whole_at_1280x720(qtbot: QtBot) -> None:
    main = QMainWindow()
    qtbot.addWidget(main)
    main.resize(1280, 720)
    main.show()
    dialog = ResultsDialog(_changes(), main, "The ambush at the Keep's gate")
    qtbot.addWidget(dialog)
    dialog.set_ending(True)
    dialog.show()
    qtbot.waitExposed(dialog)
    qtbot.wait(50)  # the choice boxes take their cells' new width at the next layout
    assert dialog.width() <= 1280 and dialog.height() <= 720
    table = dialog.table
    header = table.horizontalHeader()
    assert header.length() <= table.viewport().width(), (header.length(),
                                                         table.viewport().width())
    last = len(COLUMNS) - 1
    metrics = QFontMetrics(table.font())
    for row in range(table.rowCount()):
        for column in range(len(COLUMNS)):
            combo = dialog.choices.get(row) if column == last else None
            if combo is not None:  # a choice box shows its words uncut
                assert combo.width() >= combo.sizeHint().width(), combo.currentText()
                continue
            item = table.item(row, column)
            assert item is not None
            room = header.sectionSize(column) - 6 - (20 if column == last else 0)  # margins, tick
            needed = metrics.boundingRect(QRect(0, 0, room, 10_000),
                                          int(Qt.TextFlag.TextWordWrap), item.text())
            assert needed.width() <= room + 1, item.text()
            assert needed.height() <= table.rowHeight(row), (item.text(), needed,
                                                             table.rowHeight(row))
    # the header's words too
    for column, title in enumerate(COLUMNS):
        assert metrics.horizontalAdvance(title) <= header.sectionSize(column), title

    # Selected, a line is said whole below the table, with what would be written.
    table.setCurrentCell(4, 0)
    assert dialog.detail.text().startswith("Halvaine the Grey Magus: spells used — Sleep, "
                                           "Magic missile. Write to the roster: Add this "
                                           "fight's change")
    dialog.choose(4, Choice.KEEP)
    assert "Write to the roster: Keep the roster: Sleep" in dialog.detail.text()
    for row, change in enumerate(dialog.changes):  # each line said once, not again as a tip
        table.setCurrentCell(row, 0)
        assert dialog.detail.text().count(change.description) == 1, dialog.detail.text()
