"""Helpers for the roster import / delete / rest table tests (kept out of the shared conftest)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QItemSelectionModel, QModelIndex, Qt
from PySide6.QtWidgets import QMessageBox
from sqlalchemy import create_engine, text

from desktop.main_window import MainWindow
from desktop.roster.tree_model import ITEM_ROLE

TABLES = ("campaigns", "characters", "monster_templates", "session_log")


AUDIT = ("changed_by", "changed_at")
"""Who wrote a row and when: an undo is itself a write, so these name the undo."""


def dump(path: Path, skip: tuple[str, ...] = AUDIT) -> dict[str, list[tuple[Any, ...]]]:
    """Gets every row of the campaign tables in id order: "the database as it was" (the audit
    columns left out)."""
    engine = create_engine(f"sqlite:///{path}")
    out: dict[str, list[tuple[Any, ...]]] = {}
    try:
        with engine.connect() as conn:
            for table in TABLES:
                result = conn.execute(text(f"SELECT * FROM {table} ORDER BY id"))
                keep = [i for i, key in enumerate(result.keys()) if key not in skip]
                out[table] = [tuple(row[i] for i in keep) for row in result]
    finally:
        engine.dispose()
    return out


def tree_index(window: MainWindow, name: str) -> QModelIndex:
    """Gets the roster tree's row (column 0) showing the entry or template called ``name``."""
    view = window.roster_panel.view
    model = view.model()
    for group in range(model.rowCount()):
        parent = model.index(group, 0)
        for row in range(model.rowCount(parent)):
            index = model.index(row, 0, parent)
            item = index.data(ITEM_ROLE)
            if item is not None and item.name == name:
                return index
    raise AssertionError(f"{name} is not in the roster tree")


def ctrl_click_rows(window: MainWindow, names: list[str]) -> None:
    """Selects several rows as a Ctrl+click on each would (the selection model's own API)."""
    view = window.roster_panel.view
    selection = view.selectionModel()
    first = True
    for name in names:
        index = tree_index(window, name)
        flags = QItemSelectionModel.SelectionFlag.Rows | (
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            if first
            else QItemSelectionModel.SelectionFlag.Select
        )
        selection.setCurrentIndex(index, flags)
        first = False


class Questions:
    """Stands in for QMessageBox.question / warning: records the text, answers as told."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.warned: list[str] = []
        self.answer = QMessageBox.StandardButton.Yes

    def question(self, _parent: object, _title: str, message: str, *_a: object) -> object:
        self.asked.append(message)
        return self.answer

    def warning(self, _parent: object, _title: str, message: str, *_a: object) -> object:
        self.warned.append(message)
        return QMessageBox.StandardButton.Ok


CTRL = Qt.KeyboardModifier.ControlModifier


def safe_model_texts(model: QAbstractItemModel, parent: QModelIndex | None = None,
                     depth: int = 0) -> Iterator[str]:
    """The shared id guard's model walk, without ``hasChildren``: PySide makes it private on
    QTableWidget / QListWidget / QTreeWidget models, so the shared walk raises on them."""
    parent = parent if parent is not None else QModelIndex()
    if depth > 4:
        return
    for row in range(min(_count(model.rowCount, parent, 0), 500)):
        for column in range(_count(model.columnCount, parent, 1)):
            index = model.index(row, column, parent)
            for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                value = model.data(index, role)
                if isinstance(value, str):
                    yield value
            if column == 0 and _count(model.rowCount, index, 0) > 0:
                yield from safe_model_texts(model, index, depth + 1)


def _count(method: Any, parent: QModelIndex, default: int) -> int:
    try:
        return int(method(parent))
    except TypeError:  # private in PySide on the item-widget models: a flat list or table
        return default  # a list model: one column, and no item has children
