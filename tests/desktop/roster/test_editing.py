"""The roster driven as a DM would: create, edit, validate, undo/redo, remove, reopen.

Conflicts with another Combat Desk are in test_conflicts.py.
"""

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from core.roster.entries import RosterStatus
from core.store import Store
from desktop.main_window import MainWindow
from tests.desktop.roster.conftest import Answers


def type_into(qtbot: QtBot, window: MainWindow, field: str, text: str) -> None:
    edit = window.editor.fields[field]
    edit.selectAll()
    qtbot.keyClick(edit, Qt.Key.Key_Backspace)
    qtbot.keyClicks(edit, text)


def select(window: MainWindow, name: str) -> None:
    entry = next(e for e in window.entries if e.name == name)
    assert window.roster_panel.select_entry(entry.id or 0)
    QApplication.processEvents()  # a move away from unsaved edits is handled after the signal


def test_the_dm_creates_a_pc_sees_validation_and_finds_it_after_reopening(
    qtbot: QtBot, window: MainWindow, db_url: str, settings: QSettings
) -> None:
    qtbot.keyClick(window.roster_panel.view, Qt.Key.Key_Insert)
    editor = window.editor
    assert editor.is_new and editor.fields["name"].hasFocus()
    assert not editor.save_button.isEnabled()
    assert editor.reasons["name"].text() == "A name is needed."
    qtbot.keyClicks(editor.fields["name"], "Mordo the Grey")
    type_into(qtbot, window, "char_class", "Magic-User")
    type_into(qtbot, window, "max_hp", "12")
    type_into(qtbot, window, "hp", "15")
    assert editor.reasons["hp"].text() == "HP cannot exceed max HP 12."
    assert not editor.save_button.isEnabled()
    assert "HP cannot exceed max HP 12" in editor.save_reason.text()
    type_into(qtbot, window, "hp", "11")
    type_into(qtbot, window, "dex", "19")
    assert editor.reasons["dex"].text() == "Dex is 3–18."
    type_into(qtbot, window, "dex", "x")
    assert editor.reasons["dex"].text() == "Dex must be a whole number, not 'x'."
    editor.save()  # refused: nothing pushed
    assert window.undo_stack.count() == 0
    type_into(qtbot, window, "dex", "17")
    assert editor.reasons["dex"].text() == ""
    assert "reaction +2" in editor.derived_label.text()
    assert "initiative +1" in editor.derived_label.text()
    type_into(qtbot, window, "ac", "4")
    assert editor.aac_label.text() == "AAC 15"
    type_into(qtbot, window, "reaction_adj", "1")
    assert "reaction +1 (set)" in editor.derived_label.text()
    editor.weapons.add_button.click()
    editor.weapons.table.item(0, 0).setText("Dagger")
    editor.weapons.table.item(0, 1).setText("fast")
    assert "Weapon 1 speed factor: 'fast' is not a whole number" in editor.table_reason.text()
    assert not editor.save_button.isEnabled()
    editor.weapons.table.item(0, 1).setText("2")
    editor.spells.add_button.click()
    editor.spells.table.item(0, 0).setText("Sleep")
    assert editor.save_button.isEnabled()
    qtbot.keyClick(editor.fields["name"], Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)

    mordo = next(e for e in window.entries if e.name == "Mordo the Grey")
    assert (mordo.hp, mordo.max_hp, mordo.dex, mordo.ac, mordo.reaction_adj) == (11, 12, 17, 4, 1)
    assert mordo.weapons[0].name == "Dagger" and mordo.weapons[0].speed_factor == 2
    assert [s.name for s in mordo.spells] == ["Sleep"]
    assert window.editor.before == mordo and not window.editor.is_dirty
    assert window.undo_action.text() == "&Undo Add Mordo the Grey"

    # Edit, then undo and redo with the Edit menu's shortcuts.
    type_into(qtbot, window, "hp", "3")
    window.editor.status_box.setCurrentIndex(
        window.editor.status_box.findData(RosterStatus.UNCONSCIOUS)
    )
    window.editor.save()
    assert window.entry(mordo.id).hp == 3  # type: ignore[union-attr]
    assert window.undo_action.text() == "&Undo Edit Mordo the Grey"
    qtbot.keyClick(window.roster_panel.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.entry(mordo.id).hp == 11  # type: ignore[union-attr]
    assert window.editor.fields["hp"].text() == "11"
    shift_ctrl = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(window.roster_panel.view, Qt.Key.Key_Z, shift_ctrl)
    assert window.entry(mordo.id).hp == 3  # type: ignore[union-attr]
    window.undo_stack.undo()
    window.undo_stack.undo()  # the add itself
    assert window.entry(mordo.id) is None
    window.undo_stack.redo()
    window.undo_stack.redo()
    again = window.entry(mordo.id)
    assert again is not None and again.hp == 3 and again.status is RosterStatus.UNCONSCIOUS

    # A new Store on the same file: the edits are there.
    reopened = Store.open(db_url)
    campaign = reopened.campaigns.all()[0]
    saved = next(e for e in reopened.roster.entries(campaign.id) if e.name == "Mordo the Grey")
    assert (saved.hp, saved.status, saved.dex, saved.reaction_adj) == (
        3,
        RosterStatus.UNCONSCIOUS,
        17,
        1,
    )
    assert [w.name for w in saved.weapons] == ["Dagger"]
    reopened.close()


def test_delete_asks_first_and_is_undoable(
    qtbot: QtBot, window: MainWindow, answers: Answers
) -> None:
    select(window, "Garrick")
    window.roster_panel.view.setFocus()
    answers.answer = QMessageBox.StandardButton.No
    qtbot.keyClick(window.roster_panel.view, Qt.Key.Key_Delete)
    assert answers.questions and "Remove Garrick" in answers.questions[0]
    assert window.entry(next(e.id for e in window.entries if e.name == "Garrick")) is not None
    answers.answer = QMessageBox.StandardButton.Yes
    qtbot.keyClick(window.roster_panel.view, Qt.Key.Key_Delete)
    assert "Garrick" not in [e.name for e in window.entries]
    assert window.undo_action.text() == "&Undo Remove Garrick"
    window.undo_action.trigger()
    assert "Garrick" in [e.name for e in window.entries]
    select(window, "Garrick")
    type_into(qtbot, window, "morale", "9")
    window.editor.save()  # the restored entry kept its id and version, so edits go on working

    def morale() -> int | None:
        return next(e for e in window.entries if e.name == "Garrick").morale

    assert morale() == 9
    window.undo_stack.undo()
    assert morale() == 8
    window.undo_stack.redo()
    assert morale() == 9


def test_ctrl_e_puts_the_cursor_in_the_form(qtbot: QtBot, window: MainWindow) -> None:
    select(window, "Sister Ysolde")
    window.roster_panel.view.setFocus()
    qtbot.keyClick(window.roster_panel.view, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert window.editor.fields["name"].hasFocus()
    assert window.editor.fields["name"].text() == "Sister Ysolde"
    assert window.editor.spells.table.rowCount() == 3


def stored(store: Store, window: MainWindow, name: str) -> int | None:
    """Reads an entry's HP back from the database, not from the window."""
    assert window.campaign is not None
    return next(e for e in store.roster.entries(window.campaign.id) if e.name == name).hp


def test_moving_away_from_unsaved_edits_asks_and_nothing_is_lost(
    qtbot: QtBot, window: MainWindow, answers: Answers, sample_store: Store
) -> None:
    select(window, "Brannoc the Bold")
    type_into(qtbot, window, "hp", "20")
    assert window.editor.is_dirty

    answers.answer = QMessageBox.StandardButton.Cancel
    select(window, "Sister Ysolde")
    assert answers.questions == ["Save your changes to Brannoc the Bold?"]
    assert window.editor.before is not None and window.editor.before.name == "Brannoc the Bold"
    assert window.editor.fields["hp"].text() == "20"  # the typing is still there

    answers.answer = QMessageBox.StandardButton.Save
    select(window, "Sister Ysolde")
    assert window.editor.fields["name"].text() == "Sister Ysolde"
    assert stored(sample_store, window, "Brannoc the Bold") == 20  # saved on the way out

    type_into(qtbot, window, "hp", "1")
    answers.answer = QMessageBox.StandardButton.Discard
    select(window, "Halvaine the Arcane")
    assert stored(sample_store, window, "Sister Ysolde") == 17  # dropped, as the DM chose
    assert window.editor.fields["name"].text() == "Halvaine the Arcane"


def test_closing_with_unsaved_edits_asks_first(
    qtbot: QtBot, window: MainWindow, answers: Answers
) -> None:
    select(window, "Garrick")
    type_into(qtbot, window, "hp", "3")
    answers.answer = QMessageBox.StandardButton.Cancel
    assert not window.close()
    assert window.isVisible() and window.editor.is_dirty
