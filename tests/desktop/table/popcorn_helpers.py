"""What the popcorn table test touches: cards by name, lanes by title, dice by label."""

from __future__ import annotations

from collections.abc import Iterator

from PySide6.QtCore import QAbstractItemModel, QModelIndex, Qt
from PySide6.QtGui import QUndoStack
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox

from desktop.encounter.lane_model import LaneBox
from desktop.encounter.popcorn_board import PopcornBoard
from desktop.encounter.workspace import EncounterWorkspace
from tests.desktop.table import conftest
from tests.desktop.table.conftest import LEAKS, IdWatch, make_active


def _safe_model_texts(model: QAbstractItemModel, parent: QModelIndex | None = None,
                      depth: int = 0) -> Iterator[str]:
    """The conftest walk, for models whose hasChildren is not callable from Python."""
    parent = parent if parent is not None else QModelIndex()
    if depth > 4:
        return
    for row in range(min(model.rowCount(parent), 500)):
        try:
            columns = model.columnCount(parent)
        except TypeError:  # a QAbstractListModel: one column
            columns = 1
        for column in range(columns):
            index = model.index(row, column, parent)
            for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                value = model.data(index, role)
                if isinstance(value, str):
                    yield value
            try:
                children = column == 0 and model.hasChildren(index)
            except TypeError:  # a list model: no children
                children = False
            if children:
                yield from _safe_model_texts(model, index, depth + 1)


# Leaks let through while other areas were fixed: none left, every leak fails the test.
NOT_OURS: tuple[str, ...] = ()


class PopcornWatch(IdWatch):
    """IdWatch that also walks list models (see _safe_model_texts)."""

    def leaks(self) -> list[str]:
        saved = conftest._model_texts
        conftest._model_texts = _safe_model_texts
        try:
            found = super().leaks()
        finally:
            conftest._model_texts = saved
        return [f for f in found if not any(part in f for part in NOT_OURS)]


def card_row(board: PopcornBoard, name: str) -> int:
    """Gets the row of the card a DM reads ``name`` on."""
    model = board.cards_model
    for row in range(model.rowCount()):
        if name in str(model.index(row, 0).data()):
            return row
    raise AssertionError(f"no card named {name}")


def drop_on(board: PopcornBoard, lane: LaneBox, name: str) -> bool:
    """Drops the card named ``name`` on a lane through the views' own MIME data."""
    model = board.cards_model
    data = model.mimeData([model.index(card_row(board, name), 0)])
    assert lane.model.canDropMimeData(data, Qt.DropAction.CopyAction, -1, 0, QModelIndex())
    return lane.model.dropMimeData(data, Qt.DropAction.CopyAction, -1, 0, QModelIndex())


def lane(board: PopcornBoard, title_start: str) -> LaneBox:
    """Gets the lane whose title starts with what the DM reads (``attack``, ``⇒ Acts next``)."""
    boxes = [b for b in board.findChildren(LaneBox) if b.title().startswith(title_start)]
    assert len(boxes) == 1, [b.title() for b in board.findChildren(LaneBox)]
    return boxes[0]


def key_on_card(board: PopcornBoard, name: str, key: str) -> None:
    """Selects a card by its name and types a key on the cards view."""
    board.cards.setCurrentIndex(board.cards_model.index(card_row(board, name), 0))
    board.cards.setFocus()
    QTest.keyClicks(board.cards, key)


def pick(combo: QComboBox, text: str) -> None:
    """Chooses the entry a DM reads in a list."""
    index = combo.findText(text)
    assert index >= 0, (text, [combo.itemText(i) for i in range(combo.count())])
    combo.setCurrentIndex(index)


def items(combo: QComboBox) -> list[str]:
    return [combo.itemText(i) for i in range(combo.count())]


def type_die(ws: EncounterWorkspace, label: str, total: int, *also: str) -> None:
    """Types a physical die into the stepper's field labelled ``label`` and presses Enter.

    ``also``: the label as it reads before the names branch is merged (morale dice still
    carry the id there).
    """
    row = next((r for r in (ws.stepper.row_for(x) for x in (label, *also)) if r is not None),
               None)
    assert row is not None, [r.request.purpose for r in ws.stepper.rows]
    row.field.setText(str(total))
    QTest.keyClick(row.field, Qt.Key.Key_Return)


def lane_names(box: LaneBox) -> list[str]:
    return [str(box.model.index(r, 0).data()) for r in range(box.model.rowCount())]


def undo_redo(ws: EncounterWorkspace) -> None:
    """Ctrl+Z then Ctrl+Shift+Z: the step goes and comes back, nothing else moves."""
    stack: QUndoStack = ws.controller.stack
    before = ws.controller.resolution.to_json() if ws.controller.resolution else None
    count = stack.index()
    make_active(ws.window())
    QTest.keyClick(QApplication.focusWidget() or ws, Qt.Key.Key_Z,
                   Qt.KeyboardModifier.ControlModifier)
    assert stack.index() == count - 1
    make_active(ws.window())
    QTest.keyClick(QApplication.focusWidget() or ws, Qt.Key.Key_Z,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert stack.index() == count
    after = ws.controller.resolution.to_json() if ws.controller.resolution else None
    assert after == before


__all__ = ["LEAKS"]
