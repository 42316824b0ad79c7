"""Each campaign keeps its own undo history: switching to another campaign and back leaves
Edit › Undo able to bring back what the DM removed (a PC deleted, then a new campaign made and
left, was gone for good: the dialog had promised "Ctrl+Z brings them back")."""

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QInputDialog, QMessageBox
from pytest import MonkeyPatch
from pytestqt.qtbot import QtBot

from core.store import Store
from desktop.main_window import MainWindow
from tests.desktop.test_main_window import names_in


def _switch_to(window: MainWindow, name_part: str) -> None:
    box = window.campaign_box
    index = next(i for i in range(box.count()) if name_part in box.itemText(i))
    box.setCurrentIndex(index)
    box.activated.emit(index)


def test_a_removed_pc_comes_back_after_a_visit_to_another_campaign(
    qtbot: QtBot, sample_store: Store, settings: QSettings, monkeypatch: MonkeyPatch
) -> None:
    window = MainWindow(sample_store, settings)
    qtbot.addWidget(window)
    window.show()
    keep = window.campaign
    assert keep is not None
    brannoc = next(e for e in window.entries if e.name == "Brannoc the Bold")
    assert window.roster_panel.select_item(brannoc)
    asked: list[str] = []

    def yes(_parent: object, _title: str, text: str, *_a: object) -> QMessageBox.StandardButton:
        asked.append(text)
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", staticmethod(yes))
    window.roster_actions.remove_action.trigger()
    assert "Ctrl+Z brings them back" in asked[0]
    assert "Brannoc the Bold" not in names_in(window)

    monkeypatch.setattr(
        QInputDialog, "getText", staticmethod(lambda *a, **k: ("Barrowmaze", True)))
    window.new_campaign_action.trigger()
    assert window.campaign is not None and window.campaign.name == "Barrowmaze"
    # The new campaign has nothing to undo: the Keep's removal is not undone from here.
    assert not window.undo_action.isEnabled()

    _switch_to(window, keep.name)
    assert window.campaign is not None and window.campaign.id == keep.id
    assert window.undo_action.isEnabled()
    assert "Brannoc the Bold" in window.undo_action.text()
    window.undo_action.trigger()
    assert "Brannoc the Bold" in names_in(window)
    # ...and it is in the database, not only on screen.
    assert any(e.name == "Brannoc the Bold" for e in sample_store.roster.entries(keep.id))
    window.redo_action.trigger()
    assert "Brannoc the Bold" not in names_in(window)


def test_undo_in_a_new_campaign_leaves_the_other_campaign_alone(
    qtbot: QtBot, sample_store: Store, settings: QSettings, monkeypatch: MonkeyPatch
) -> None:
    window = MainWindow(sample_store, settings)
    qtbot.addWidget(window)
    keep = window.campaign
    assert keep is not None
    brannoc = next(e for e in window.entries if e.name == "Brannoc the Bold")
    assert window.roster_panel.select_item(brannoc)
    monkeypatch.setattr(QMessageBox, "question",
                        staticmethod(lambda *a: QMessageBox.StandardButton.Yes))
    window.roster_actions.remove_action.trigger()
    monkeypatch.setattr(
        QInputDialog, "getText", staticmethod(lambda *a, **k: ("Barrowmaze", True)))
    window.new_campaign_action.trigger()
    window.undo_action.trigger()  # nothing to undo here: the Keep's Brannoc stays removed
    assert not any(e.name == "Brannoc the Bold" for e in sample_store.roster.entries(keep.id))
