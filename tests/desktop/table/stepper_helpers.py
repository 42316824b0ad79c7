"""Starting a fight through the New Encounter dialog, as a DM does, for the stepper tests."""

from __future__ import annotations

from desktop.encounter.workspace import EncounterWorkspace
from desktop.main_window import MainWindow
from tests.desktop.table.conftest import button


def new_encounter(window: MainWindow, system: str, orcs: int = 2,
                  fighters: int | None = None) -> EncounterWorkspace:
    """Opens New Encounter, picks the system, stamps ``orcs`` Orcs, keeps the first
    ``fighters`` roster entries (all by default) and presses OK."""
    dialog = window.encounter_actions.ask_new_encounter()
    assert dialog is not None
    dialog.set_system(system)
    dialog.set_count("Orc", orcs)
    if fighters is not None:
        from PySide6.QtCore import Qt
        for row in range(fighters, dialog.fighters.rowCount()):
            dialog.fighters.item(row, 0).setCheckState(Qt.CheckState.Unchecked)
    button(dialog, "OK").click()
    assert dialog.error.text() == "", dialog.error.text()
    workspace = window.encounter_actions.current()
    assert workspace is not None
    return workspace


def safe_model_texts(model, parent=None, depth: int = 0):  # type: ignore[no-untyped-def]
    """The id guard's model walk, for list and table models too.

    PySide6 makes ``columnCount`` private on a QAbstractListModel and ``hasChildren`` on a
    QAbstractTableModel, so the shared guard's walk raises TypeError on the cards and status
    views; a list has one column and a table no children.
    """
    from PySide6.QtCore import QModelIndex
    from PySide6.QtCore import Qt as _Qt
    parent = parent if parent is not None else QModelIndex()
    if depth > 4:
        return
    try:
        columns = model.columnCount(parent)
    except TypeError:
        columns = 1
    for row in range(min(model.rowCount(parent), 500)):
        for column in range(columns):
            index = model.index(row, column, parent)
            for role in (_Qt.ItemDataRole.DisplayRole, _Qt.ItemDataRole.ToolTipRole):
                value = model.data(index, role)
                if isinstance(value, str):
                    yield value
            try:
                children = column == 0 and model.hasChildren(index)
            except TypeError:
                children = False
            if children:
                yield from safe_model_texts(model, index, depth + 1)


def stepper_leaks(workspace: EncounterWorkspace) -> list[str]:
    """Gets every id or field path the stepper shows (its labels, fields, lists, tooltips).

    The whole-window guard belongs to the full-fight tests; this one checks the part this
    area draws, so a leak elsewhere (cards, undo texts of declarations) is not blamed here.
    """
    from tests.desktop.table.conftest import LEAKS, visible_texts
    return [f"{where}: {text!r}" for where, text in visible_texts(workspace.stepper)
            if LEAKS.search(text)]


def declare(board, cid: str, lane: str, **values: object) -> None:  # type: ignore[no-untyped-def]
    """Drops a card on a lane and fills the editor, choosing targets by name, id or item data
    (whichever the editor offers), then Enter."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QComboBox

    from tests.desktop.encounter.conftest import drop_card
    assert drop_card(board, board.lanes[lane].model, cid)
    state = board.controller.state
    for name, value in values.items():
        widget = getattr(board.editor, name)
        if isinstance(widget, QComboBox) and isinstance(value, str):
            label = state.combatants[value].label if value in state.combatants else value
            index = next((i for i in range(widget.count())
                          if widget.itemData(i) == value
                          or widget.itemText(i) in (value, label)), -1)
            assert index >= 0, (name, value, [widget.itemText(i) for i in range(widget.count())])
            widget.setCurrentIndex(index)
        else:
            board.editor.set_value(name, value)
    QTest.keyClick(board.editor.target, Qt.Key.Key_Return)
