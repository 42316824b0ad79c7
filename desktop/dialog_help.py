"""F1 in a dialog opens the help page about that dialog (issue 24: F1 did nothing there).

The main window's F1 is a menu action, which a dialog's keys never reach. One event filter
on the application sees F1 pressed in any of Combat Desk's dialogs and opens the help at the
section about it, as a child of the dialog (a modal dialog blocks every other window).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QDialog, QWidget

if TYPE_CHECKING:
    from desktop.encounter.help_browser import HelpWindow

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
    """The application's event filter that answers F1 in a dialog."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.shown: HelpWindow | None = None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
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

    def open_for(self, dialog: QDialog) -> HelpWindow:
        """Opens the help at the dialog's section, in front of it."""
        from desktop.encounter.help_browser import HelpWindow  # on first use (start-up time)

        page, anchor = HELP_TOPICS[type(dialog).__name__]
        help_window = dialog.findChild(HelpWindow)
        if help_window is None:
            help_window = HelpWindow(dialog)
        help_window.show()  # first, so that the page is laid out when it scrolls
        help_window.raise_()
        help_window.open_page(page, anchor)
        self.shown = help_window
        return help_window


def install_dialog_help() -> DialogHelp | None:
    """Puts the filter on the application once (each main window asks)."""
    app = QApplication.instance()
    if app is None:
        return None
    found = app.findChild(DialogHelp)
    if found is None:
        found = DialogHelp(app)
        app.installEventFilter(found)
    return found
