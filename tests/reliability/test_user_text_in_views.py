"""User text with HTML and control characters is shown as plain text, never interpreted.

Qt item views draw DisplayRole text as plain text; window titles are plain text. Tooltips and
message boxes guess (Qt.mightBeRichText), so text that reaches them must be escaped.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6 import QtGui
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QTextDocument

from core.roster.entries import RosterEntry
from core.store import Store

HOSTILE = "<b>Orc</b><script>alert(1)</script>\x07&amp;"


@pytest.fixture
def window(qtbot: object, tmp_path: Path) -> Iterator[object]:
    from desktop.main_window import MainWindow

    store = Store.open(f"sqlite:///{tmp_path / 'campaigns.sqlite'}")
    campaign = store.campaigns.create(HOSTILE)
    store.roster.add(campaign.id, RosterEntry(name=HOSTILE, notes=HOSTILE, char_class=HOSTILE))
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(store, settings)
    qtbot.addWidget(win)  # type: ignore[attr-defined]
    yield win
    store.close()


def test_the_roster_tree_shows_names_as_plain_text(window: object) -> None:
    view = window.roster_panel.view  # type: ignore[attr-defined]
    model = view.model()
    found = []
    for group in range(model.rowCount()):
        parent = model.index(group, 0)
        for row in range(model.rowCount(parent)):
            for column in range(model.columnCount(parent)):
                found.append(model.index(row, column, parent).data(Qt.ItemDataRole.DisplayRole))
    assert HOSTILE in found  # handed to the view as it is: QTreeView paints it as plain text
    delegate = view.itemDelegate()
    assert type(delegate).__name__ == "QStyledItemDelegate"  # no rich-text delegate in between


def test_the_window_title_shows_the_campaign_name_literally(window: object) -> None:
    assert window.windowTitle() == f"{HOSTILE} — Combat Desk"  # type: ignore[attr-defined]


def test_the_roster_tooltip_does_not_render_notes_as_html(window: object) -> None:
    model = window.roster_panel.view.model()  # type: ignore[attr-defined]
    parent = model.index(0, 0)
    tip = model.index(0, 0, parent).data(Qt.ItemDataRole.ToolTipRole)
    # Qt renders a tooltip that might be rich text (PySide6 keeps mightBeRichText in QtGui):
    # it must then be escaped HTML that reads back as the literal text.
    if QtGui.Qt.mightBeRichText(tip):
        document = QTextDocument()
        document.setHtml(tip)
        assert document.toPlainText() == HOSTILE


def test_a_huge_note_is_cut_in_the_tooltip_and_whole_in_the_entry(qtbot: object,
                                                                  tmp_path: Path) -> None:
    """An 8 MB note took 22 s to show as a tooltip; now the tooltip shows its start."""
    from desktop.main_window import MainWindow

    store = Store.open(f"sqlite:///{tmp_path / 'campaigns.sqlite'}")
    campaign = store.campaigns.create("Greyhawk")
    notes = "The secret door is behind the tapestry. " * 2_400  # about 100,000 characters
    store.roster.add(campaign.id, RosterEntry(name="Pip", notes=notes))
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(store, settings)
    qtbot.addWidget(win)  # type: ignore[attr-defined]
    model = win.roster_panel.view.model()
    tip = model.index(0, 0, model.index(0, 0)).data(Qt.ItemDataRole.ToolTipRole)
    document = QTextDocument()
    document.setHtml(tip)
    shown = document.toPlainText()
    assert shown.startswith("The secret door") and len(shown) < 1_000
    assert "more characters in the editor" in shown
    assert store.roster.entries(campaign.id)[0].notes == notes
    store.close()
