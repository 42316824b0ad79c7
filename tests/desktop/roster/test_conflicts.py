"""Two Combat Desks on one campaign file: a save over the other's newer edit shows both versions.

The second DM chooses: keep theirs, keep mine (saved on top, undoable), or cancel (the form keeps
the unsaved edits). The other instance's edit is never overwritten without that choice.
"""

from collections.abc import Iterator
from dataclasses import replace

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from core.roster.entries import MonsterTemplate, RosterEntry, RosterStatus
from core.store import Store
from desktop.main_window import MainWindow
from desktop.roster.conflict_dialog import Choice, ConflictDialog
from tests.desktop.roster.conftest import Answers
from tests.desktop.roster.test_editing import select, type_into


@pytest.fixture
def other(db_url: str) -> Iterator[Store]:
    """The other DM's Combat Desk: a second Store on the same SQLite file."""
    store = Store.open(db_url)
    yield store
    store.close()


def theirs(store: Store, name: str) -> RosterEntry:
    campaign = store.campaigns.all()[0]
    return next(e for e in store.roster.entries(campaign.id) if e.name == name)


def their_template(store: Store, name: str) -> MonsterTemplate:
    campaign = store.campaigns.all()[0]
    return next(t for t in store.templates.all(campaign.id) if t.name == name)


def open_dialog(window: MainWindow) -> ConflictDialog:
    dialog = window.conflict_dialog
    assert dialog is not None and dialog.isVisible(), "the conflict dialog should be open"
    return dialog


def pip_conflict(qtbot: QtBot, window: MainWindow, other: Store) -> ConflictDialog:
    """This DM types HP 5 for Pip while the other DM saves HP 2 and a note; this DM saves."""
    select(window, "Pip Underbough")
    type_into(qtbot, window, "hp", "5")  # unsaved in this window …
    pip = theirs(other, "Pip Underbough")
    other.roster.update(replace(pip, hp=2, notes="bitten by a giant rat"))  # … saved there first
    window.refresh_roster()  # a refresh keeps the DM's unsaved typing (and its old version)
    assert window.editor.fields["hp"].text() == "5"
    window.editor.fields["hp"].setFocus()  # where the DM typed
    qtbot.keyClick(window.editor.fields["hp"], Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    return open_dialog(window)


def test_both_versions_are_shown_with_the_fields_that_differ(
    qtbot: QtBot, window: MainWindow, other: Store, answers: Answers
) -> None:
    dialog = pip_conflict(qtbot, window, other)
    assert dialog.field_rows() == [("HP", "5", "2"), ("Notes", "—", "bitten by a giant rat")]
    table = dialog.table
    headers = [table.horizontalHeaderItem(c).text() for c in range(3)]
    assert headers == ["Field", "Your version", "Saved by someone else"]
    assert [table.item(0, c).text() for c in range(3)] == ["HP", "5", "2"]
    assert "Pip Underbough was saved by someone else (now version 2)" in dialog.intro.text()
    assert "while you were changing version 1" in dialog.intro.text()
    assert answers.questions == []  # the old yes/no question is gone
    assert window.undo_stack.count() == 0  # nothing was written …
    saved = theirs(other, "Pip Underbough")
    assert (saved.hp, saved.notes) == (2, "bitten by a giant rat")  # … over their edit
    dialog.keep_theirs_button.click()


def test_keep_theirs_shows_their_version_and_drops_mine(
    qtbot: QtBot, window: MainWindow, other: Store, answers: Answers
) -> None:
    dialog = pip_conflict(qtbot, window, other)
    dialog.keep_theirs_button.click()
    assert not dialog.isVisible() and dialog.choice is Choice.THEIRS
    assert window.editor.fields["hp"].text() == "2"
    assert window.editor.notes.toPlainText() == "bitten by a giant rat"
    assert not window.editor.is_dirty and window.undo_stack.count() == 0
    saved = theirs(other, "Pip Underbough")
    assert (saved.hp, saved.notes, saved.version) == (2, "bitten by a giant rat", 2)
    # The form now holds their version: the next edit saves cleanly on top of it.
    type_into(qtbot, window, "hp", "1")
    window.editor.save()
    assert theirs(other, "Pip Underbough").hp == 1
    assert theirs(other, "Pip Underbough").notes == "bitten by a giant rat"


def test_keep_mine_saves_over_theirs_as_a_new_undoable_step(
    qtbot: QtBot, window: MainWindow, other: Store, answers: Answers
) -> None:
    dialog = pip_conflict(qtbot, window, other)
    dialog.keep_mine_button.click()
    assert dialog.choice is Choice.MINE
    saved = theirs(other, "Pip Underbough")
    assert (saved.hp, saved.notes, saved.version) == (5, "", 3)  # mine, as the DM saw and chose
    assert window.undo_action.text() == "&Undo Edit Pip Underbough (over the other edit)"
    assert window.editor.fields["hp"].text() == "5" and not window.editor.is_dirty
    window.undo_action.trigger()  # their version comes back: nothing is lost
    saved = theirs(other, "Pip Underbough")
    assert (saved.hp, saved.notes) == (2, "bitten by a giant rat")
    assert window.editor.notes.toPlainText() == "bitten by a giant rat"
    window.redo_action.trigger()
    assert theirs(other, "Pip Underbough").hp == 5


def test_keep_mine_after_a_third_save_asks_again_instead_of_overwriting(
    qtbot: QtBot, window: MainWindow, other: Store, answers: Answers
) -> None:
    first = pip_conflict(qtbot, window, other)
    # While the DM reads the dialog, the other DM saves Pip once more.
    other.roster.update(replace(theirs(other, "Pip Underbough"), status=RosterStatus.UNCONSCIOUS))
    first.keep_mine_button.click()
    second = open_dialog(window)
    assert second is not first
    assert ("Status", "Active", "Unconscious") in second.field_rows()
    saved = theirs(other, "Pip Underbough")
    assert (saved.hp, saved.status) == (2, RosterStatus.UNCONSCIOUS)  # untouched
    assert window.undo_stack.count() == 0
    second.keep_mine_button.click()
    saved = theirs(other, "Pip Underbough")
    assert (saved.hp, saved.status) == (5, RosterStatus.ACTIVE)


def test_cancel_keeps_my_unsaved_edits_in_the_form(
    qtbot: QtBot, window: MainWindow, other: Store, answers: Answers
) -> None:
    dialog = pip_conflict(qtbot, window, other)
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert not dialog.isVisible() and dialog.choice is Choice.CANCEL
    assert window.editor.is_dirty and window.editor.fields["hp"].text() == "5"
    assert theirs(other, "Pip Underbough").hp == 2
    assert window.undo_stack.count() == 0
    window.editor.save()  # saving again asks again
    again = open_dialog(window)
    again.cancel_button.click()
    assert window.editor.fields["hp"].text() == "5"
    assert theirs(other, "Pip Underbough").hp == 2


def test_an_undo_over_the_other_instances_edit_shows_both_versions(
    qtbot: QtBot, window: MainWindow, other: Store, answers: Answers
) -> None:
    select(window, "Torchbearer Wat")
    type_into(qtbot, window, "hp", "1")
    window.editor.save()
    other.roster.update(replace(theirs(other, "Torchbearer Wat"), status=RosterStatus.DEAD))
    window.undo_action.trigger()
    dialog = open_dialog(window)
    assert ("Status", "Active", "Dead") in dialog.field_rows()
    assert ("HP", "3", "1") in dialog.field_rows()  # what the undo would have written
    assert not window.undo_stack.canUndo()  # the refused command left the stack
    dialog.keep_theirs_button.click()
    final = theirs(other, "Torchbearer Wat")
    assert final.status is RosterStatus.DEAD and final.hp == 1
    assert window.editor.status_box.currentData() == RosterStatus.DEAD
    QApplication.processEvents()


def test_a_remove_over_the_other_instances_edit_shows_what_changed_and_asks_again(
    qtbot: QtBot, window: MainWindow, other: Store, answers: Answers
) -> None:
    select(window, "Garrick")
    other.roster.update(replace(theirs(other, "Garrick"), morale=12, notes="sworn to Brannoc"))
    window.roster_panel.view.setFocus()
    answers.answer = QMessageBox.StandardButton.Yes
    qtbot.keyClick(window.roster_panel.view, Qt.Key.Key_Delete)
    dialog = open_dialog(window)
    assert dialog.removing and dialog.windowTitle() == "Changed before you removed it"
    assert dialog.field_rows() == [("Morale", "8", "12"), ("Notes", "—", "sworn to Brannoc")]
    assert dialog.keep_mine_button.text() == "&Remove anyway"
    assert theirs(other, "Garrick").morale == 12  # not removed yet

    dialog.keep_theirs_button.click()  # "Keep it"
    assert theirs(other, "Garrick").morale == 12
    assert window.editor.fields["morale"].text() == "12"

    other.roster.update(replace(theirs(other, "Garrick"), hp=1))
    qtbot.keyClick(window.roster_panel.view, Qt.Key.Key_Delete)
    again = open_dialog(window)
    assert again.field_rows() == [("HP", "8", "1")]
    again.keep_mine_button.click()  # "Remove anyway"
    campaign = other.campaigns.all()[0]
    assert "Garrick" not in [e.name for e in other.roster.entries(campaign.id)]
    window.undo_action.trigger()  # back, with the other DM's changes
    back = theirs(other, "Garrick")
    assert (back.morale, back.hp, back.notes) == (12, 1, "sworn to Brannoc")


def test_a_template_saved_elsewhere_shows_both_versions(
    qtbot: QtBot, window: MainWindow, other: Store, answers: Answers
) -> None:
    from tests.desktop.roster.test_templates import select_template, type_template

    select_template(window, "Orc")
    type_template(qtbot, window, "hit_dice", "1d8+1")
    orc = their_template(other, "Orc")
    other.templates.update(replace(orc, morale=11))
    window.template_editor.save()
    dialog = open_dialog(window)
    assert dialog.field_rows() == [("Hit dice", "1d8+1", "1d8"), ("Morale", "8", "11")]
    assert "The Orc template was saved by someone else" in dialog.intro.text()
    dialog.keep_mine_button.click()
    saved = their_template(other, "Orc")
    assert (saved.hit_dice, saved.morale) == ("1d8+1", 8)
    window.undo_action.trigger()
    saved = their_template(other, "Orc")
    assert (saved.hit_dice, saved.morale) == ("1d8", 11)


def test_the_window_keeps_the_keyboard_after_a_conflict_answered_during_a_slow_save(
    qtbot: QtBot, window: MainWindow, other: Store, answers: Answers,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The conflict dialog is answered before Qt has delivered its own activation (a click
    right after it opens, as tests and typed-ahead keys do); the store call that follows
    waits in an event loop (a loaded machine: every call waits here), which ran that stale
    activation: the hidden dialog became the active window and the main window's shortcuts
    (Delete, Ctrl+Z) went nowhere. Found through test_a_remove_over_…'s second Delete, which
    failed whenever a store call took longer than the grace period."""
    import desktop.store_call as store_call

    monkeypatch.setattr(store_call, "GRACE_SECONDS", 0.0)  # every wait runs queued events
    select(window, "Garrick")
    other.roster.update(replace(theirs(other, "Garrick"), morale=12))
    window.roster_panel.view.setFocus()
    qtbot.keyClick(window.roster_panel.view, Qt.Key.Key_Delete)
    dialog = open_dialog(window)
    dialog.keep_theirs_button.click()  # "Keep it": the roster is read again
    assert QApplication.activeWindow() is window
    other.roster.update(replace(theirs(other, "Garrick"), hp=1))
    qtbot.keyClick(window.roster_panel.view, Qt.Key.Key_Delete)  # the shortcut reaches it
    again = open_dialog(window)
    assert again is not dialog and again.field_rows() == [("HP", "8", "1")]
    again.keep_mine_button.click()  # "Remove anyway"
    assert QApplication.activeWindow() is window
    qtbot.keyClick(window.roster_panel.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert theirs(other, "Garrick").hp == 1  # Ctrl+Z brought him back
