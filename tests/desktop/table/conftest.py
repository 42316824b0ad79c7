"""Table acceptance tests: a DM's fight driven only through what the DM touches.

Every test here works on a real SQLite file in a temporary folder, finds widgets by the text
a DM reads on them, drops with the views' own MIME data, and checks after each step that no
internal id reached the screen (:class:`IdWatch`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QAbstractItemModel, QModelIndex, QSettings, Qt
from PySide6.QtGui import QAction, QUndoStack
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QWidget,
)
from pytestqt.qtbot import QtBot

from core.store import Store
from desktop.app import ensure_sample_campaign
from desktop.main_window import MainWindow

# What must never reach a DM: roster ids, field paths of the scenario, Python literals.
LEAKS = re.compile(r"roster-\d+|template-\d+|actions\[|turns\[|rounds\[|declarations\[|\{'|\['")


def _count(model: QAbstractItemModel, what: str, parent: QModelIndex, flat: int) -> int:
    """Gets rowCount/columnCount; list and table models make the parent form private: flat."""
    try:
        return int(getattr(model, what)(parent))
    except TypeError:
        if parent.isValid():
            return 0
        try:
            return int(getattr(model, what)())
        except TypeError:
            return flat


def _model_texts(model: QAbstractItemModel, parent: QModelIndex | None = None,
                 depth: int = 0) -> Iterator[str]:
    parent = parent if parent is not None else QModelIndex()
    if depth > 4:
        return
    for row in range(min(_count(model, "rowCount", parent, 0), 500)):
        for column in range(_count(model, "columnCount", parent, 1)):
            index = model.index(row, column, parent)
            for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                value = model.data(index, role)
                if isinstance(value, str):
                    yield value
            if column == 0 and _count(model, "rowCount", index, 0) > 0:
                yield from _model_texts(model, index, depth + 1)


def visible_texts(root: QWidget) -> Iterator[tuple[str, str]]:
    """Yields (where, text) for every text a DM can see or hover under ``root``."""
    widgets = [root, *root.findChildren(QWidget)]
    for widget in widgets:
        if not widget.isVisibleTo(root) and widget is not root:
            continue
        name = type(widget).__name__
        if widget.toolTip():
            yield f"{name} tooltip", widget.toolTip()
        if isinstance(widget, QLabel | QAbstractButton):
            yield name, widget.text()
        if isinstance(widget, QLineEdit):
            yield name, widget.text() + " " + widget.placeholderText()
        if isinstance(widget, QComboBox):
            for i in range(widget.count()):
                yield f"{name} item", widget.itemText(i)
        if isinstance(widget, QAbstractItemView) and widget.model() is not None:
            for text in _model_texts(widget.model()):
                yield f"{name} row", text
        if widget.windowTitle():
            yield f"{name} title", widget.windowTitle()
    for action in root.findChildren(QAction):
        for text in (action.text(), action.toolTip(), action.statusTip()):
            if text:
                yield "action", text


class IdWatch:
    """Collects every status-bar message and checks the screen and undo texts for leaks."""

    def __init__(self, window: QMainWindow) -> None:
        self.window = window
        self.messages: list[str] = []
        window.statusBar().messageChanged.connect(self.messages.append)

    def leaks(self) -> list[str]:
        # The window and what it owns, its dialogs included (all of Combat Desk's have it as
        # their parent). QApplication.topLevelWidgets() is not walked: it hands back wrappers
        # of Qt's own short-lived windows (tooltips, popups), and touching a stale one of
        # those crashed a test process (see tests/conftest.py).
        found = [f"{where}: {text!r}" for where, text in visible_texts(self.window)
                 if LEAKS.search(text)]
        for stack in self.window.findChildren(QUndoStack):
            for i in range(stack.count()):
                text = stack.text(i)
                if LEAKS.search(text):
                    found.append(f"undo text: {text!r}")
        found += [f"status bar: {m!r}" for m in self.messages if LEAKS.search(m)]
        return found

    def check(self) -> None:
        """Fails the test if any id, field path or Python literal is on screen."""
        leaks = self.leaks()
        assert not leaks, "\n".join(leaks[:20])


@pytest.fixture
def campaign_file(tmp_path: Path) -> Path:
    """A real campaign database in a temporary folder, holding the sample campaign."""
    path = tmp_path / "campaign.sqlite"
    store = Store.open(f"sqlite:///{path}")
    ensure_sample_campaign(store)
    store.close()
    return path


@pytest.fixture
def table(qtbot: QtBot, campaign_file: Path, tmp_path: Path) -> Iterator[MainWindow]:
    """The main window at 1280×720 on the sample campaign file, as a DM starts it."""
    store = Store.open(f"sqlite:///{campaign_file}")
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(store, settings)
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    yield window
    store.close()


@pytest.fixture
def ids(table: MainWindow) -> IdWatch:
    return IdWatch(table)


def make_active(window: QWidget) -> None:
    """Activates ``window`` and waits until Qt holds it active (up to 2 s).

    Activation is asynchronous, and shortcuts and focus reach only the active window. A dialog
    a test shows and closes leaves its own activation queued; it runs whenever events next
    do, as they do while a slow save waits (desktop.store_call), and then no window is active.
    Waiting here runs it first.
    """
    window.activateWindow()
    for _ in range(200):
        if QApplication.activeWindow() is window:
            return
        QTest.qWait(10)
    # Pressing on regardless sent the key nowhere and failed later as "Ctrl+Z did nothing".
    raise AssertionError(f"{window.windowTitle()!r} never became the active window; "
                         f"the active one is {QApplication.activeWindow()!r}")


def button(root: QWidget, text: str) -> QAbstractButton:
    """Gets the one visible button whose text (without the & mnemonic) is ``text``."""
    found = [b for b in root.findChildren(QAbstractButton)
             if b.isVisibleTo(root) and b.text().replace("&", "") == text]
    assert len(found) == 1, (text, [b.text() for b in root.findChildren(QAbstractButton)
                                    if b.isVisibleTo(root)])
    return found[0]


def action(window: QMainWindow, text: str) -> QAction:
    """Gets the menu action a DM would click by its text (without & and the … ellipsis)."""
    def clean(t: str) -> str:
        return t.replace("&", "").rstrip("…").rstrip(".")
    for menu in window.findChildren(QMenu):  # as the DM opens the menus: filled on opening
        menu.aboutToShow.emit()
    found = [a for a in window.findChildren(QAction) if clean(a.text()) == clean(text)]
    assert found, (text, sorted({a.text() for a in window.findChildren(QAction)}))
    return found[0]
