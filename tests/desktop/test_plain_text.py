"""User text shows exactly as typed wherever Qt would guess it is HTML."""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtCore import QSettings
from PySide6.QtGui import Qt, QTextDocument
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from core.roster.entries import RosterEntry
from core.store import Store
from desktop.main_window import MainWindow
from desktop.plain_text import plain

HOSTILE = "<b>Orc</b><script>alert(1)</script> & <i>co</i>"


def shown(text: str) -> str:
    """Gets what a Qt label or message box shows for ``text`` (Qt's own rich-text guess)."""
    if Qt.mightBeRichText(text):
        document = QTextDocument()
        document.setHtml(text)
        return document.toPlainText()
    return text


def test_ordinary_text_is_left_alone() -> None:
    text = "Save your changes to Brannoc the Bold?"
    assert plain(text) == text


@given(st.text(alphabet="<>&/biscrpt \"'abc", max_size=40))
def test_any_text_reads_back_literally(text: str) -> None:
    assert shown(plain(text)) == text


def test_a_hostile_name_shows_literally_in_the_editor_and_the_unsaved_question(
    qtbot: QtBot, sample_store: Store, settings: QSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    campaign = sample_store.campaigns.all()[0]
    entry = sample_store.roster.add(campaign.id, RosterEntry(name=HOSTILE, hp=3, max_hp=3))
    window = MainWindow(sample_store, settings)
    qtbot.addWidget(window)
    assert window.roster_panel.select_entry(entry.id or 0)
    assert shown(window.editor.title.text()) == HOSTILE
    asked: list[str] = []
    monkeypatch.setattr(QMessageBox, "question", staticmethod(
        lambda _p, _t, text, *a: asked.append(text) or QMessageBox.StandardButton.Cancel))
    qtbot.keyClicks(window.editor.fields["hp"], "1")
    assert window.editor.is_dirty
    assert not window.confirm_unsaved_edits()
    assert shown(asked[0]) == f"Save your changes to {HOSTILE}?"
