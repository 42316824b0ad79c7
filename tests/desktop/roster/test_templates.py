"""Monster templates driven as a DM would: create, edit, validate, undo/redo, delete, reopen."""

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from core.roster.entries import MonsterTemplate
from core.store import Store
from desktop.main_window import MainWindow
from desktop.roster.tree_model import TEMPLATES
from tests.desktop.roster.conftest import Answers
from tests.desktop.roster.test_editing import select


def type_template(qtbot: QtBot, window: MainWindow, field: str, text: str) -> None:
    edit = window.template_editor.fields[field]
    edit.selectAll()
    qtbot.keyClick(edit, Qt.Key.Key_Backspace)
    qtbot.keyClicks(edit, text)


def select_template(window: MainWindow, name: str) -> MonsterTemplate:
    template = next(t for t in window.templates if t.name == name)
    assert window.roster_panel.select_template(template.id or 0)
    QApplication.processEvents()  # a move away from unsaved edits is handled after the signal
    return template


def stored_templates(store: Store, window: MainWindow) -> dict[str, MonsterTemplate]:
    """Reads the templates back from the database, not from the window."""
    assert window.campaign is not None
    return {t.name: t for t in store.templates.all(window.campaign.id)}


def test_the_dm_creates_a_template_sees_validation_undoes_and_finds_it_after_reopening(
    qtbot: QtBot, window: MainWindow, db_url: str, sample_store: Store, settings: QSettings
) -> None:
    panel = window.roster_panel
    group = panel.proxy.mapFromSource(panel.model.group_index(TEMPLATES))
    panel.view.setCurrentIndex(group)
    qtbot.keyClick(panel.view, Qt.Key.Key_Insert)
    editor = window.template_editor
    assert window.current_editor is editor and editor.is_new
    assert window.editor_dock.windowTitle() == "Monster template"
    assert editor.fields["name"].hasFocus()
    assert editor.reasons["name"].text() == "A name is needed."
    qtbot.keyClicks(editor.fields["name"], "Gnoll")

    type_template(qtbot, window, "hit_dice", "2d8x")
    reason = "'2d8x': expected + or - at position 4, found 'x'"  # core.model.dice's own words
    assert editor.reasons["hit_dice"].text() == reason
    assert editor.save_reason.text() == f"Cannot save: {reason}"
    assert not editor.save_button.isEnabled()
    qtbot.keyClick(editor.fields["name"], Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert window.undo_stack.count() == 0 and "Gnoll" not in stored_templates(sample_store, window)
    type_template(qtbot, window, "hit_dice", "d")
    assert editor.reasons["hit_dice"].text() == "'d': 'd' at position 1 needs a number of sides"
    type_template(qtbot, window, "hit_dice", "2d8")
    assert editor.reasons["hit_dice"].text() == "" and editor.dice_label.text() == "2–16 hp"

    type_template(qtbot, window, "ac", "5")
    assert editor.aac_label.text() == "AAC 14"
    type_template(qtbot, window, "surprises_on", "7")
    assert editor.reasons["surprises_on"].text().startswith("Surprises on X in 6: X is 0–6")
    type_template(qtbot, window, "surprises_on", "2")
    type_template(qtbot, window, "morale", "x")
    assert editor.reasons["morale"].text() == "Morale must be a whole number, not 'x'."
    type_template(qtbot, window, "morale", "8")
    type_template(qtbot, window, "movement", "9")
    type_template(qtbot, window, "attacks", "2")
    editor.weapons.add_button.click()
    editor.weapons.table.item(0, 0).setText("Halberd")
    editor.weapons.table.item(0, 2).setText("long")
    assert "Weapon 1 length: 'long' is not a number of feet" in editor.table_reason.text()
    editor.weapons.table.item(0, 2).setText("8")
    editor.notes.setPlainText("Hunts in packs.")
    assert editor.save_button.isEnabled()
    qtbot.keyClick(editor.fields["name"], Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)

    gnoll = stored_templates(sample_store, window)["Gnoll"]
    assert (gnoll.hit_dice, gnoll.ac, gnoll.morale, gnoll.movement) == ("2d8", 5, 8, 9)
    assert (gnoll.attacks, gnoll.surprises_on, gnoll.notes) == (2, 2, "Hunts in packs.")
    assert [(w.name, w.length) for w in gnoll.weapons] == [("Halberd", 8.0)]
    assert window.undo_action.text() == "&Undo Add template Gnoll"
    assert editor.before == gnoll and not editor.is_dirty
    assert isinstance(panel.current_item(), MonsterTemplate)
    assert panel.current_item() == gnoll  # the new row is selected

    # Edit; a bad edit is refused; undo and redo with the Edit menu's shortcuts.
    type_template(qtbot, window, "hit_dice", "2d8+")
    ends = "ends with an operator; add a number or a die after it"
    assert editor.reasons["hit_dice"].text().endswith(ends)
    editor.save()
    assert stored_templates(sample_store, window)["Gnoll"].hit_dice == "2d8"  # never saved
    type_template(qtbot, window, "hit_dice", "2d8+2")
    type_template(qtbot, window, "name", "Gnoll chieftain")
    editor.save()
    assert stored_templates(sample_store, window)["Gnoll chieftain"].hit_dice == "2d8+2"
    assert window.undo_action.text() == "&Undo Edit template Gnoll chieftain"
    qtbot.keyClick(panel.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert stored_templates(sample_store, window)["Gnoll"].hit_dice == "2d8"
    assert editor.fields["hit_dice"].text() == "2d8" and editor.fields["name"].text() == "Gnoll"
    shift_ctrl = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(panel.view, Qt.Key.Key_Z, shift_ctrl)
    assert stored_templates(sample_store, window)["Gnoll chieftain"].hit_dice == "2d8+2"
    window.undo_stack.undo()
    window.undo_stack.undo()  # the add itself
    assert "Gnoll" not in stored_templates(sample_store, window)
    assert window.template(gnoll.id) is None
    window.undo_stack.redo()
    window.undo_stack.redo()
    again = window.template(gnoll.id)
    assert again is not None and again.hit_dice == "2d8+2"

    # Another Store on the same file: the template is there.
    reopened = Store.open(db_url)
    campaign = reopened.campaigns.all()[0]
    saved = next(t for t in reopened.templates.all(campaign.id) if t.id == gnoll.id)
    assert (saved.name, saved.hit_dice, saved.surprises_on) == ("Gnoll chieftain", "2d8+2", 2)
    reopened.close()

    # After a restart the form shows it, and it still stamps.
    window.close()
    second = MainWindow(reopened_store := Store.open(db_url), settings)
    qtbot.addWidget(second)
    select_template(second, "Gnoll chieftain")
    assert second.template_editor.fields["hit_dice"].text() == "2d8+2"
    dialog = second.roster_actions.stamp_current()
    assert dialog is not None and "2d8+2" in dialog.roll_radio.text()
    dialog.reject()
    second.close()
    reopened_store.close()


def test_deleting_a_template_asks_first_and_is_undoable(
    qtbot: QtBot, window: MainWindow, answers: Answers, sample_store: Store
) -> None:
    select_template(window, "Kobold")
    assert window.current_editor is window.template_editor
    window.roster_panel.view.setFocus()
    answers.answer = QMessageBox.StandardButton.No
    qtbot.keyClick(window.roster_panel.view, Qt.Key.Key_Delete)
    assert answers.questions and "Delete the Kobold monster template?" in answers.questions[0]
    assert "Kobold" in stored_templates(sample_store, window)
    answers.answer = QMessageBox.StandardButton.Yes
    qtbot.keyClick(window.roster_panel.view, Qt.Key.Key_Delete)
    assert "Kobold" not in stored_templates(sample_store, window)
    assert window.undo_action.text() == "&Undo Delete template Kobold"
    window.undo_action.trigger()
    assert "Kobold" in stored_templates(sample_store, window)
    select_template(window, "Kobold")
    type_template(qtbot, window, "morale", "5")
    window.template_editor.save()  # the restored template kept its id and version
    assert stored_templates(sample_store, window)["Kobold"].morale == 5
    window.undo_stack.undo()
    assert stored_templates(sample_store, window)["Kobold"].morale == 6


def test_moving_between_entries_and_templates_keeps_unsaved_edits_safe(
    qtbot: QtBot, window: MainWindow, answers: Answers, sample_store: Store
) -> None:
    select_template(window, "Ogre")
    type_template(qtbot, window, "morale", "12")
    answers.answer = QMessageBox.StandardButton.Cancel
    select(window, "Garrick")
    assert answers.questions == ["Save your changes to the Ogre template?"]
    assert window.current_editor is window.template_editor
    assert window.template_editor.fields["morale"].text() == "12"
    answers.answer = QMessageBox.StandardButton.Save
    select(window, "Garrick")
    assert stored_templates(sample_store, window)["Ogre"].morale == 12
    assert window.current_editor is window.editor
    assert window.editor.fields["name"].text() == "Garrick"
    assert window.editor_dock.windowTitle() == "Entry"
