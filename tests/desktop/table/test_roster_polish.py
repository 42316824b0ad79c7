"""The roster's small things new DMs tripped on (issue 27): a PC in an open fight says so, in
the roster and in its form; the New Entry form starts at its Name and names the kind chosen.

Driven through the main window on the sample campaign at 1280×720. Set COMBATDESK_SHOTS=folder
to keep screenshots of what the DM sees.
"""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QMessageBox, QScrollArea

from core.model.values import Kind
from desktop.main_window import MainWindow
from desktop.roster.results_dialog import ResultsDialog
from desktop.roster.tree_model import COLUMNS
from tests.desktop.table.conftest import action, button
from tests.desktop.table.results_helpers import Questions, shot, start_fight

BRANNOC = "Brannoc the Bold"


@pytest.fixture
def questions(monkeypatch: pytest.MonkeyPatch) -> Questions:
    fake = Questions()
    monkeypatch.setattr(QMessageBox, "question", staticmethod(fake))
    return fake


def status_cell(window: MainWindow, name: str) -> tuple[str, str]:
    """Gets the roster's Status cell of ``name``: its text and its tooltip."""
    entry = next(e for e in window.entries if e.name == name)
    index = window.roster_panel.model.index_of_entry(entry.id or 0)
    cell = index.sibling(index.row(), COLUMNS.index("Status"))
    return str(cell.data()), str(cell.data(3) or "")  # 3: the tooltip role


def select(window: MainWindow, name: str) -> None:
    entry = next(e for e in window.entries if e.name == name)
    assert window.roster_panel.select_entry(entry.id or 0)
    QApplication.processEvents()


def test_a_pc_in_an_open_fight_says_so_in_the_roster_and_its_form(
    table: MainWindow, questions: Questions,
) -> None:
    assert status_cell(table, BRANNOC)[0] == "Active"
    start_fight(table, "Orc guardroom", "Orc", (BRANNOC,))
    table.tabs.setCurrentIndex(0)
    text, tip = status_cell(table, BRANNOC)
    assert text == "Active · fighting"  # the fight named in the tip and the form, below
    assert "When that fight ends (Encounter › End) it offers its own results" in tip
    assert status_cell(table, "Sister Ysolde")[0] == "Active"  # she stayed home
    select(table, BRANNOC)
    note = table.editor.fight_note
    assert note.isVisibleTo(table.editor)
    assert note.text().startswith("Brannoc the Bold is fighting in Orc guardroom, still open.")
    assert "offers its own results for HP" in note.text()
    table.editor.fields["hp"].setText("20")  # the HP edit: the hint is beside it
    shot(table, "roster-pc-in-an-open-fight.png")
    select(table, "Sister Ysolde")
    assert not note.isVisibleTo(table.editor)

    ws = table.encounter_actions.workspaces[0]
    table.tabs.setCurrentWidget(ws)
    action(table, "End Encounter").trigger()
    dialog = table.encounter_actions.dialog
    if isinstance(dialog, ResultsDialog):
        button(dialog, "Apply").click()
    assert ws.session.ended
    assert status_cell(table, BRANNOC)[0] == "Active"  # the fight is over
    select(table, BRANNOC)
    assert not note.isVisibleTo(table.editor)


def test_the_new_entry_form_starts_at_its_name_and_names_the_kind_chosen(
    table: MainWindow, questions: Questions,
) -> None:
    select(table, BRANNOC)
    scroll = table.editor.findChild(QScrollArea)
    assert scroll is not None
    bar = scroll.verticalScrollBar()
    assert bar.maximum() > 0, "the form fits: nothing to scroll at 1280×720"
    bar.setValue(bar.maximum())  # the DM was reading Brannoc's notes
    action(table, "New Entry").trigger()
    editor = table.editor
    assert editor.is_new and bar.value() == 0
    assert editor.fields["name"].visibleRegion().boundingRect().height() > 0
    assert editor.title.text() == "New PC"
    editor.kind_box.setCurrentIndex(editor.kind_box.findData(Kind.HENCHMAN))
    assert editor.title.text() == "New Henchman"
    shot(table, "roster-new-henchman.png")
    editor.kind_box.setCurrentIndex(editor.kind_box.findData(Kind.HIRELING))
    assert editor.title.text() == "New Hireling"
