"""Names, not ids, in the undo texts, the refusals, the status bar and the printout.

A side-d6 fight on the sample campaign file: a declaration, its undo and redo, a refused
declaration whose engine message names a scenario path, a take-back, and Ctrl+P.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QAbstractItemModel, QModelIndex, Qt
from PySide6.QtWidgets import QLabel

from core.fight.encounter import add_entry, remove_entry
from desktop import printing
from desktop.encounter.workspace import EncounterWorkspace
from desktop.main_window import MainWindow
from tests.desktop.encounter.conftest import drop_card, fill_and_declare
from tests.desktop.table import conftest as table_conftest
from tests.desktop.table.conftest import LEAKS, IdWatch, action


def _model_texts(model: QAbstractItemModel, parent: QModelIndex | None = None,
                 depth: int = 0) -> Iterator[str]:
    """The shared walk, minus calls PySide keeps private on table and list models."""
    parent = parent if parent is not None else QModelIndex()
    if depth > 4:
        return
    try:
        columns = model.columnCount(parent)
    except TypeError:  # private on list models: one column
        columns = 1 if not parent.isValid() else 0
    for row in range(min(model.rowCount(parent), 500)):
        for column in range(columns):
            index = model.index(row, column, parent)
            for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                value = model.data(index, role)
                if isinstance(value, str):
                    yield value
            if column == 0 and columns and model.rowCount(index) > 0:
                yield from _model_texts(model, index, depth + 1)


def _start(window: MainWindow) -> EncounterWorkspace:
    window.encounter_actions.ask_new_encounter()
    dialog = window.encounter_actions.dialog
    dialog.set_system("side-d6")  # type: ignore[union-attr]
    dialog.set_count("Orc", 2)  # type: ignore[union-attr]
    dialog.accept()  # type: ignore[union-attr]
    workspace = window.encounter_actions.current()
    assert workspace is not None
    return workspace


def test_undo_texts_refusals_and_print_read_names(
    table: MainWindow, ids: IdWatch, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(table_conftest, "_model_texts", _model_texts)
    ws = _start(table)
    state = ws.controller.state
    hero = next(c for c in state.combatants.values() if c.id.startswith("roster-"))
    orc = next(c for c in state.combatants.values() if c.id.startswith("orc-"))
    drop_card(ws.board, ws.board.lanes["attack"].model, hero.id)
    fill_and_declare(ws.board, target=orc.id)
    stack = ws.controller.stack
    assert stack.undoText().startswith(f"Declare {hero.label}: "), stack.undoText()
    assert any(f"Saved: Declare {hero.label}: " in m for m in ids.messages), ids.messages
    ids.check()

    assert hero.label in table.undo_action.text()  # Edit › Undo names who
    table.undo_action.trigger()
    assert stack.redoText().startswith(f"Declare {hero.label}: ")
    ids.check()
    table.redo_action.trigger()

    # the engine refuses with a path into the scenario; the DM reads whose declaration it is
    refused = ws.controller.run(
        add_entry("declarations", {"actor": orc.id, "action": "juggle"}))
    assert not refused
    message = next(w for w in ws.findChildren(QLabel) if w.objectName() == "boardMessage")
    assert f"{orc.label}'s declaration" in message.text(), message.text()
    assert "juggle" in message.text(), message.text()
    ids.check()

    assert ws.controller.run(remove_entry("declarations", 0))
    assert stack.undoText() == f"Take back {hero.label}'s declaration"
    ids.check()
    table.undo_action.trigger()

    shown: list[str] = []
    monkeypatch.setattr(printing, "show_print_preview", lambda html, *a, **k: shown.append(html))
    action(table, "Print Summary").trigger()
    dialog = table.encounter_actions.dialog
    assert isinstance(dialog, printing.PrintChoiceDialog)
    ids.check()
    dialog.accept()
    assert shown, "the preview opens after the choice"
    html = shown[0]
    assert "Round 1</h1>" in html and "End of the encounter" not in html
    assert hero.label in html and not LEAKS.search(html.split("Appendix")[0])
