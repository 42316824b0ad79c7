"""File → Back up…, File → Restore backup… and File → Campaign database… for the main window.

``install_store_actions(window)`` adds them to the window's File menu. Restoring closes the
store, swaps the file (keeping a copy of the replaced one) and opens the restored campaign.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMessageBox

from desktop.last_folder import BACKUP, remember, start_path
from desktop.plain_text import plain
from desktop.store_retry import is_retryable

if TYPE_CHECKING:
    from core.store import Store, StoreError

# core.store is imported where it is used: it brings SQLAlchemy, and at start-up the main
# window's first frame comes before it (desktop/app.py).

FILTER = "Campaign files (*.sqlite *.db *.bak);;All files (*)"


class StoreActions:
    """The backup, restore and database-settings actions of one main window."""

    def __init__(self, window: Any) -> None:
        self.window = window
        self.backup_action = QAction("&Back up…", window)
        self.backup_action.setStatusTip("Write a consistent copy of the campaign file")
        self.backup_action.triggered.connect(self.ask_backup)
        self.restore_action = QAction("&Restore backup…", window)
        self.restore_action.setStatusTip("Replace the campaign file with a backup")
        self.restore_action.triggered.connect(self.ask_restore)
        self.database_action = QAction("Campaign &database…", window)
        self.database_action.setStatusTip("Choose the SQLite file or PostgreSQL server")
        self.database_action.triggered.connect(self.ask_database)

    def _say(self, text: str) -> None:
        self.window.statusBar().showMessage(text, 10000)

    def backup(self, target: Path) -> Path | None:
        """Backs the campaign up to ``target``; reports and returns None on failure."""
        from core.store import StoreError

        store: Store = self.window.store
        try:
            written = self.window.store_call(lambda: store.backup(target),
                                             "Writing the backup copy of the campaign",
                                             whole_file=True)
        except StoreError as exc:
            if is_retryable(exc):  # the DM chose Cancel after reading why
                self._say(plain(f"No backup was written: {exc}"))
            else:
                QMessageBox.warning(self.window, "Back up", plain(str(exc)))
            return None
        self._say(f"Backed up to {written}")
        return Path(written)

    def ask_backup(self) -> None:
        from core.store.backups import SERVER_BACKUPS

        store: Store = self.window.store
        if store.file is None:
            QMessageBox.information(self.window, "Back up", SERVER_BACKUPS)
            return
        stamp = datetime.now().strftime("%Y%m%d-%H%M")
        suggested = store.file.with_name(f"{store.file.stem}-{stamp}.sqlite")
        settings = self.window._settings
        start = start_path(settings, BACKUP, suggested.name, suggested.parent)
        name, _ = QFileDialog.getSaveFileName(self.window, "Back up", start, FILTER)
        if name:
            remember(settings, BACKUP, name)
            self.backup(Path(name))

    def restore(self, backup: Path) -> bool:
        """Restores ``backup`` over the campaign file and reopens it; False if refused."""
        from core.store import Store, StoreError
        from core.store.backups import SERVER_BACKUPS, check_backup, restore_backup

        store: Store = self.window.store
        target = store.file
        if target is None:
            QMessageBox.information(self.window, "Restore backup", SERVER_BACKUPS)
            return False
        try:
            check_backup(backup)  # refuse before closing anything
        except StoreError as exc:
            QMessageBox.warning(self.window, "Restore backup", plain(str(exc)))
            return False
        url, lock_timeout = store.full_url, store.lock_timeout
        store.close()
        cancelled: StoreError | None = None
        try:
            # All or nothing (core.store.backups), so Retry repeats the whole restore.
            kept = self.window.store_call(
                lambda: restore_backup(backup, target, lock_timeout=lock_timeout),
                "Restoring the campaign from the backup", whole_file=True)
        except StoreError as exc:
            if is_retryable(exc):
                cancelled = exc  # said in the status bar once the campaign is shown again
            else:
                QMessageBox.warning(self.window, "Restore backup", plain(str(exc)))
            kept = None
            backup = target  # reopen what is there: restore_backup changed nothing
        try:
            reopened = Store.open(url)
        except StoreError as exc:
            QMessageBox.critical(self.window, "Restore backup", plain(str(exc)))
            return False
        if reopened.damage:
            from desktop.damage_warning import warn_about_damage

            warn_about_damage(self.window, reopened, "Restore backup")
        self.window._store = reopened  # MainWindow has no setter; the store is its to show
        self.window.db_label.setText(reopened.label)
        if cancelled is None:  # after Cancel the campaign is as it was: its undo history holds
            self.window.undo_stack.clear()
        self.window.reload_campaigns()
        if cancelled is not None:
            self._say(plain(f"Nothing was restored: {cancelled}"))
            return False
        self._say(f"Restored {backup.name}" + (f"; the replaced file is {kept}" if kept else ""))
        return kept is not None or backup != target

    def ask_restore(self) -> None:
        from core.store.backups import SERVER_BACKUPS

        store: Store = self.window.store
        if store.file is None:
            QMessageBox.information(self.window, "Restore backup", SERVER_BACKUPS)
            return
        settings = self.window._settings
        name, _ = QFileDialog.getOpenFileName(
            self.window, "Restore backup", start_path(settings, BACKUP,
                                                      fallback=store.file.parent), FILTER
        )
        if not name:
            return
        remember(settings, BACKUP, name)
        answer = QMessageBox.question(
            self.window,
            "Restore backup",
            plain(f"Replace the campaign file with {Path(name).name}? A copy of the current file "
                  "is kept beside it, and the undo history is dropped."),
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.restore(Path(name))

    def ask_database(self) -> None:
        from sqlalchemy.engine import make_url

        from desktop.database_settings import DatabaseSettingsDialog, saved_database_url

        # What the next start will use: the saved choice, else the campaign open now (its
        # password, hidden in the store's address, is not put in the field).
        settings = self.window._settings
        current = saved_database_url(settings) or make_url(self.window.store.url)._replace(
            password=None).render_as_string(hide_password=False)
        DatabaseSettingsDialog(settings, current, self.window).exec()


def install_store_actions(window: Any) -> StoreActions:
    """Adds Back up…, Restore backup… and Campaign database… to ``window.file_menu``."""
    actions = StoreActions(window)
    menu = window.file_menu
    # Above the separator that precedes Quit (or at the end of a menu without one).
    before = next((a for a in menu.actions() if a.isSeparator()), None)
    added = (actions.backup_action, actions.restore_action, actions.database_action)
    if before is None:
        menu.addSeparator()
        menu.addActions(list(added))
    else:
        menu.insertSeparator(before)
        menu.insertActions(before, list(added))
    window.store_actions = actions
    return actions
