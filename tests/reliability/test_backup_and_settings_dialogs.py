"""File → Back up… / Restore backup… and the campaign database dialog, driven offscreen."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox

from core.roster.entries import RosterEntry
from core.store import Store
from desktop import database_settings
from desktop.backup_actions import install_store_actions
from desktop.database_settings import URL_KEY, DatabaseSettingsDialog
from tests.reliability import figures
from tests.store import pg_server


@pytest.fixture
def window(qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    from desktop.main_window import MainWindow

    monkeypatch.setattr(QMessageBox, "warning", lambda *a: QMessageBox.StandardButton.Ok)
    monkeypatch.setattr(QMessageBox, "critical", lambda *a: QMessageBox.StandardButton.Ok)
    store = Store.open(f"sqlite:///{tmp_path / 'campaigns.sqlite'}")
    campaign = store.campaigns.create("Greyhawk")
    store.roster.add(campaign.id, RosterEntry(name="Wat"))
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(store, settings)
    qtbot.addWidget(win)
    if not hasattr(win, "store_actions"):  # main_window's hook may not be merged yet
        install_store_actions(win)
    yield win
    win.store.close()


def test_the_file_menu_has_back_up_and_restore(window: Any) -> None:
    texts = [a.text() for a in window.file_menu.actions()]
    assert {"&Back up…", "&Restore backup…", "Campaign &database…"} <= set(texts)
    assert texts[-1] == "&Quit"


def test_back_up_then_restore_through_the_window(window: Any, tmp_path: Path) -> None:
    actions = window.store_actions
    backup = actions.backup(tmp_path / "monday.sqlite")
    assert backup is not None and backup.exists()
    campaign = window.store.campaigns.all()[0]
    window.store.roster.add(campaign.id, RosterEntry(name="Tuesday"))
    assert actions.restore(backup)
    assert [e.name for e in window.store.roster.entries(campaign.id)] == ["Wat"]
    assert list(tmp_path.glob("campaigns.sqlite.replaced-*"))


def test_restoring_a_file_that_is_not_a_campaign_is_refused(window: Any, tmp_path: Path) -> None:
    bogus = tmp_path / "notes.sqlite"
    bogus.write_text("Dear diary\n" * 100)
    before = window.store
    assert not window.store_actions.restore(bogus)
    assert window.store is before and len(window.store.campaigns.all()) == 1
    figures.add("files refused: restore of a non-campaign")


def test_the_dialog_tests_connections_without_writing(qtbot: Any, tmp_path: Path) -> None:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    dialog = DatabaseSettingsDialog(settings, f"sqlite:///{tmp_path / 'new.sqlite'}")
    qtbot.addWidget(dialog)
    assert "will create" in dialog.run_test()
    assert not (tmp_path / "new.sqlite").exists()  # testing created nothing
    dialog.set_url("postgresql+psycopg://dm:secret@127.0.0.1:1/nowhere")
    assert dialog.run_test().startswith("Cannot use it: Cannot connect to")
    srv = pg_server.server()
    if srv.url is not None:
        dialog.set_url(srv.url)
        assert "Connected to" in dialog.run_test()


def test_saving_keeps_the_password_out_of_the_settings(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(database_settings, "keyring_available", lambda: False)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    dialog = DatabaseSettingsDialog(settings)
    qtbot.addWidget(dialog)
    dialog.set_url("postgresql+psycopg://dm:secret@db.example:5433/greyhawk")
    assert not dialog.keyring_note.isHidden() and "will not be saved" in dialog.keyring_note.text()
    dialog.save()
    saved = str(settings.value(URL_KEY))
    assert "secret" not in saved and "dm@db.example:5433/greyhawk" in saved
    assert "secret" not in (tmp_path / "settings.ini").read_text()


def test_tls_settings_are_kept_on_save_and_shown_in_words(qtbot: Any, tmp_path: Path) -> None:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    dialog = DatabaseSettingsDialog(settings)
    qtbot.addWidget(dialog)
    dialog.set_url("postgresql+psycopg://dm@db.example/greyhawk"
                   "?sslmode=verify-full&sslrootcert=/home/dm/ca.crt&application_name=cd")
    assert dialog.tls.currentText().startswith("Always, and the server's name must match")
    assert dialog.root_certificate.text() == "/home/dm/ca.crt"
    dialog.save()
    from sqlalchemy.engine import make_url

    query = dict(make_url(str(settings.value(URL_KEY))).query)
    assert query == {"sslmode": "verify-full", "sslrootcert": "/home/dm/ca.crt",
                     "application_name": "cd"}


def test_a_server_that_wants_a_password_asks_for_it_at_start(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """No keyring and no ~/.pgpass: the app asks (never the command line) and retries."""
    from core.store import Store, StoreError
    from desktop import app

    tried: list[str] = []

    def fake_open(url: str | None) -> str:
        tried.append(str(url))
        if "hunter2" not in str(url):
            raise StoreError("cannot connect to the server: password authentication failed")
        return "opened"

    monkeypatch.setattr(Store, "open", staticmethod(fake_open))
    asked: list[str] = []

    def ask(where: str, why: str) -> str | None:
        asked.append(where)
        return "wrong" if len(asked) == 1 else "hunter2"

    url = "postgresql+psycopg://dm@db.example/greyhawk"
    assert app._open_asking_for_password(url, ask) == "opened"
    assert len(asked) == 2 and all("hunter2" not in w for w in asked)
    with pytest.raises(StoreError, match="password authentication failed"):
        app._open_asking_for_password(url, lambda where, why: None)  # the DM cancelled


def test_a_port_that_is_not_a_number_gets_a_sentence_in_test_connection(qtbot: Any) -> None:
    from desktop.database_settings import test_connection

    for url in ("postgresql+psycopg://dm@db.example.org:abc/campaigns",
                "postgresql+psycopg://dm@db.example.org:99999/campaigns"):
        said = test_connection(url)
        assert said.startswith("Cannot use it: "), said
        assert "port" in said and "Traceback" not in said and "ValueError" not in said


def _open_database_dialog(window: Any, qtbot: Any) -> DatabaseSettingsDialog:
    """File → Campaign database… through its menu action; returns the dialog it shows."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    shown: list[DatabaseSettingsDialog] = []

    def look() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, DatabaseSettingsDialog)
        shown.append(dialog)
        dialog.reject()

    QTimer.singleShot(0, look)
    window.store_actions.database_action.trigger()
    assert shown, "no dialog was shown"
    return shown[0]


def test_the_database_dialog_starts_from_the_campaign_file_in_use(
    window: Any, qtbot: Any, tmp_path: Path,
) -> None:
    """Nothing saved yet: the File box names the file Combat Desk has open (it was empty, and
    Test connection then spoke of 'sqlite:///', a database kept in memory)."""
    dialog = _open_database_dialog(window, qtbot)
    assert dialog.kind.currentText() == "SQLite file"
    assert dialog.path.text() == str(tmp_path / "campaigns.sqlite")
    assert "ready to use" in dialog.run_test()


def test_a_campaign_kept_in_memory_is_never_saved_as_the_database(
    qtbot: Any, tmp_path: Path,
) -> None:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    settings.setValue(URL_KEY, f"sqlite:///{tmp_path / 'kept.sqlite'}")
    dialog = DatabaseSettingsDialog(settings)
    qtbot.addWidget(dialog)
    dialog.path.clear()
    assert dialog.run_test() == database_settings.NO_FILE
    dialog.save()
    from PySide6.QtWidgets import QDialog

    assert dialog.result.text() == database_settings.NO_FILE
    assert QDialog.result(dialog) != QDialog.DialogCode.Accepted  # the dialog stays open
    assert str(settings.value(URL_KEY)) == f"sqlite:///{tmp_path / 'kept.sqlite'}"  # untouched
    # A setting that names no file (written by hand, or by an older version) is not used.
    settings.setValue(URL_KEY, "sqlite:///")
    assert database_settings.saved_database_url(settings) is None
    with pytest.raises(Exception, match="names no file"):
        from core.store.probe import probe

        probe("sqlite://")


def test_choose_puts_the_picked_file_in_the_file_box(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from PySide6.QtWidgets import QFileDialog

    picked = str(tmp_path / "greyhawk.sqlite")
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (picked, ""))
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    dialog = DatabaseSettingsDialog(settings)
    qtbot.addWidget(dialog)
    dialog.browse.click()
    assert dialog.path.text() == picked
    assert "will create" in dialog.run_test()
