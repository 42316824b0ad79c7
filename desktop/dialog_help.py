"""F1 in a dialog opens the help page about that dialog (issue 24: F1 did nothing there).

The main window's F1 is a menu action, which a dialog's keys never reach. Each of our dialogs
puts a filter on itself as it is made (:func:`add_dialog_help`): F1 pressed anywhere in it
comes up to the dialog unanswered, and the filter opens the help at the section about it, as
a child of the dialog (a modal dialog blocks every other window). A filter on the whole
application did the same, but it met every event of the program, objects half made or half
deleted among them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QDialog, QWidget

from desktop.wheel_guard import guard_wheels


class HelpShown(Protocol):
    """What F1 needs of the help window (desktop.encounter.help_browser.HelpWindow)."""

    def show(self) -> None: ...
    def raise_(self) -> None: ...
    def open_page(self, page: str, anchor: str) -> object: ...


_make_help: Callable[[QDialog], HelpShown] | None = None
"""Makes the help window for a dialog; set by the main window (:func:`use_help_window`),
which may use the encounter package: the dialogs of every package use this module."""


def use_help_window(make: Callable[[QDialog], HelpShown]) -> None:
    """Tells F1 in dialogs how to make the help window (once, by the main window)."""
    global _make_help
    _make_help = make

HELP_TOPICS: dict[str, tuple[str, str]] = {
    "StartEncounterDialog": ("start.html", "systems"),
    "DatabaseSettingsDialog": ("roster.html", "database"),
    "PrintChoiceDialog": ("printing.html", "summary"),
    "HideDialog": ("players.html", "hidden-creatures"),
    "ConflictDialog": ("roster.html", "conflicts"),
    "RestDialog": ("roster.html", "roster"),
    "DuplicatesDialog": ("import-export.html", "import"),
    "ResultsDialog": ("ending.html", "end"),
    "StampDialog": ("roster.html", "roster"),
    "SessionLogDialog": ("ending.html", "end"),
}
"""Each dialog's help section (page, anchor), by the dialog's class name."""


def dialog_of(widget: QWidget | None) -> QDialog | None:
    """Gets the dialog of ours ``widget`` is in (None: a window without its own help)."""
    window = widget.window() if widget is not None else None
    if isinstance(window, QDialog) and type(window).__name__ in HELP_TOPICS:
        return window
    return None


class DialogHelp(QObject):
    """A dialog's event filter that answers F1 pressed anywhere in it."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.shown: HelpShown | None = None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.Show and isinstance(watched, QDialog):
            guard_wheels(watched)  # built by now: a passing wheel changes none of its fields
            return False
        if (kind in (QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride)
                and isinstance(event, QKeyEvent) and event.key() == Qt.Key.Key_F1
                and isinstance(watched, QWidget)):
            dialog = dialog_of(watched)
            if dialog is None:
                return False
            if kind == QEvent.Type.ShortcutOverride:
                event.accept()  # the key is the dialog's: no window's F1 action takes it
                return True
            self.open_for(dialog)
            return True
        return False

    def open_for(self, dialog: QDialog) -> HelpShown | None:
        """Opens the help at the dialog's section, in front of it (None: no main window
        has said how to make the help window)."""
        if _make_help is None:
            return None
        page, anchor = HELP_TOPICS[type(dialog).__name__]
        if self.shown is None:
            self.shown = _make_help(dialog)
        self.shown.show()  # first, so that the page is laid out when it scrolls
        self.shown.raise_()
        self.shown.open_page(page, anchor)
        return self.shown


def add_dialog_help(dialog: QDialog) -> None:
    """Answers F1 in ``dialog`` (one of :data:`HELP_TOPICS`) with its help section."""
    dialog.installEventFilter(DialogHelp(dialog))
