"""A multi-classed PC typed into the roster form: "2/2" is saved, shown back, and reopened."""

from dataclasses import replace

from PySide6.QtCore import QSettings, Qt
from pytestqt.qtbot import QtBot

from core.roster.entries import RosterEntry
from core.store import Store
from desktop.main_window import MainWindow
from desktop.roster.conflict_dialog import differences
from desktop.roster.tree_model import COLUMNS, ITEM_ROLE
from tests.desktop.roster.test_editing import select, type_into


def level_cell(window: MainWindow, name: str) -> str:
    """Gets the Level column of the roster tree's row for ``name``, as the DM sees it."""
    proxy = window.roster_panel.proxy
    column = COLUMNS.index("Level")
    for g in range(proxy.rowCount()):
        group = proxy.index(g, 0)
        for r in range(proxy.rowCount(group)):
            item = proxy.index(r, 0, group).data(ITEM_ROLE)
            if item.name == name:
                return str(proxy.index(r, column, group).data())
    raise AssertionError(f"{name} is not in the roster tree")


def test_the_dm_types_one_level_a_class_saves_and_finds_it_after_reopening(
    qtbot: QtBot, window: MainWindow, db_url: str, settings: QSettings
) -> None:
    qtbot.keyClick(window.roster_panel.view, Qt.Key.Key_Insert)
    editor = window.editor
    qtbot.keyClicks(editor.fields["name"], "Elwyn")
    type_into(qtbot, window, "char_class", "Fighter/Magic-User")
    type_into(qtbot, window, "level", "2/x")
    assert editor.reasons["level"].text() == (
        "Level: “2/x” has “x” where a whole number belongs; write 2, or one level a class like 2/2."
    )
    assert not editor.save_button.isEnabled()
    type_into(qtbot, window, "level", "2/41")
    assert editor.reasons["level"].text() == "Each class level is 1–40, so 2/41 cannot be saved."
    type_into(qtbot, window, "level", "1/1/1/1")
    assert "at most 3 classes" in editor.reasons["level"].text()
    type_into(qtbot, window, "level", "2/2")
    assert editor.reasons["level"].text() == "" and editor.save_button.isEnabled()
    qtbot.keyClick(editor.fields["name"], Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)

    elwyn = next(e for e in window.entries if e.name == "Elwyn")
    assert (elwyn.level, elwyn.class_levels) == (2, (2, 2))
    assert level_cell(window, "Elwyn") == "2/2"
    select(window, next(e.name for e in window.entries if e.name != "Elwyn"))
    select(window, "Elwyn")
    assert window.editor.fields["level"].text() == "2/2" and not window.editor.is_dirty

    reopened = Store.open(db_url)
    again = MainWindow(reopened, settings)
    qtbot.addWidget(again)
    again.show()
    try:
        saved = next(e for e in again.entries if e.name == "Elwyn")
        assert (saved.level, saved.class_levels) == (2, (2, 2))
        assert level_cell(again, "Elwyn") == "2/2"
        select(again, "Elwyn")
        assert again.editor.fields["level"].text() == "2/2"
        type_into(qtbot, again, "level", "3")  # back to one class: a plain number again
        again.editor.save()
        single = again.entry(saved.id)
        assert single is not None and (single.level, single.class_levels) == (3, ())
    finally:
        again.close()
        reopened.close()


def test_a_conflict_shows_the_levels_as_the_form_does() -> None:
    mine = RosterEntry(name="Elwyn", level=3, class_levels=(3, 2))
    theirs = replace(mine, class_levels=(3, 3))
    assert differences(mine, theirs) == [("Level", "3/2", "3/3")]
    assert differences(replace(mine, class_levels=()), mine) == [("Level", "3", "3/2")]
