"""The weapon box of the declaration form (issue 24): "Sling" typed into it became "default:
Short Slingsword" (the text was kept and the cursor left inside it) and the declaration was
refused later. Typing replaces the text, any case finds the weapon, a list of matching names
pops up, and a name matching no weapon is said at once and stops Declare."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QComboBox, QWidget

from desktop.encounter.entry_editor import EntryEditor
from desktop.encounter.letter_board import LetterBoard
from tests.desktop.encounter.test_weapon_table_declarations import declare, document, field


def _type_into(qtbot: Any, box: QComboBox, text: str) -> None:
    """Clicks inside the box's text, past "default: ", and types, as a DM does."""
    edit = box.lineEdit()
    assert edit is not None
    # Another window has the keyboard (as in a long test run): the box never gets a focus-in;
    # the click alone must make typing replace its text.
    other = QWidget()
    qtbot.addWidget(other)
    other.show()
    other.activateWindow()
    middle = QPoint(edit.width() * 2 // 3, edit.height() // 2)
    QTest.mouseClick(edit, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, middle)
    qtbot.wait(10)  # the focus-in's selection is made once the click is over
    QTest.keyClicks(edit, text)


def _open(start: Any, qtbot: Any) -> tuple[LetterBoard, EntryEditor, QComboBox]:
    ws = start(document())
    board = ws.board
    assert isinstance(board, LetterBoard)
    editor = declare(board, "fighter", "G")
    qtbot.waitExposed(editor)
    weapon = field(editor, "Weapon")
    assert isinstance(weapon, QComboBox) and weapon.currentText() == "default: Long sword"
    return board, editor, weapon


def test_sling_typed_is_the_sling(start: Any, qtbot: Any) -> None:
    _board, editor, weapon = _open(start, qtbot)
    _type_into(qtbot, weapon, "sling")
    assert weapon.currentText() == "sling"
    completer = weapon.completer()
    assert completer is not None and completer.popup().isVisible()
    offered = [completer.completionModel().index(r, 0).data()
               for r in range(completer.completionModel().rowCount())]
    assert offered == ["Sling"]
    assert editor.weapon_problem() is None
    editor.target.setCurrentIndex(editor.target.findData("orc"))
    entry = editor.entry()
    assert entry["weapon"] == "Sling"  # the table's spelling, whatever the case typed
    assert entry["weapon_facts"]["missile"] is True


def test_a_name_matching_no_weapon_is_said_at_once_and_not_declared(
    start: Any, qtbot: Any
) -> None:
    board, editor, weapon = _open(start, qtbot)
    commands = board.controller.stack.count()
    _type_into(qtbot, weapon, "Slingshot of Doom")
    assert weapon.currentText() == "Slingshot of Doom"  # nothing kept of the old text
    said = editor.weapon_facts.text()
    assert said.startswith("No weapon is called “Slingshot of Doom”: Brunhild carries Long "
                           "sword, Dagger"), said
    editor.target.setCurrentIndex(editor.target.findData("orc"))
    editor.submit_button.click()
    assert editor.isVisible() and editor.problem.text() == said
    assert board.controller.stack.count() == commands  # nothing declared
