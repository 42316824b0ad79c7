"""Each file dialog starts in the folder last used for its kind of file (issue 24: they all
started in the same default place). The system's dialogs are modal: the tests stand in for
the DM's choice at QFileDialog's static functions, press the real menu items and buttons, and
read which folder the next dialog was told to start in. Real temporary folders."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot

from core.store import Store
from desktop.database_settings import DatabaseSettingsDialog
from desktop.last_folder import BACKUP, ROSTER, remember, start_path
from desktop.main_window import MainWindow


def test_each_kind_remembers_its_own_folder(tmp_path: Path, settings: QSettings) -> None:
    rosters, backups = tmp_path / "rosters", tmp_path / "backups"
    rosters.mkdir()
    backups.mkdir()
    assert start_path(settings, ROSTER) == str(Path.home())  # nothing used yet
    assert start_path(settings, BACKUP, fallback=backups) == str(backups)
    remember(settings, ROSTER, rosters / "party.csv")
    assert start_path(settings, ROSTER) == str(rosters)
    assert start_path(settings, ROSTER, "roster.json") == str(rosters / "roster.json")
    assert start_path(settings, BACKUP) == str(Path.home())  # another kind, its own folder
    rosters.rmdir()  # a folder gone since: the dialog starts where it can
    assert start_path(settings, ROSTER, fallback=backups) == str(backups)


class Chooser:
    """Stands in for the DM at the system's file dialog: notes where it started, picks."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.started: list[str] = []
        self.answer = ""
        for name in ("getOpenFileName", "getSaveFileName"):
            monkeypatch.setattr(QFileDialog, name, self._ask)

    def _ask(self, _parent: Any, _caption: str, start: str = "", *_args: Any,
             **_kw: Any) -> tuple[str, str]:
        self.started.append(start)
        return self.answer, ""


@pytest.fixture
def window(qtbot: QtBot, sample_store: Store, settings: QSettings) -> MainWindow:
    main = MainWindow(sample_store, settings)
    qtbot.addWidget(main)
    main.show()
    return main


def test_roster_files_start_where_the_last_one_was(
    window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    chooser = Chooser(monkeypatch)
    folder = tmp_path / "table" / "exports"
    folder.mkdir(parents=True)
    chooser.answer = str(folder / "party.json")
    window.roster_actions.export_action.trigger()
    assert (folder / "party.json").is_file()
    chooser.answer = ""  # the DM cancels the next ones: only where they started matters
    window.roster_actions.import_action.trigger()
    assert Path(chooser.started[-1]) == folder
    window.roster_actions.export_action.trigger()
    assert Path(chooser.started[-1]) == folder / "roster.json"


def test_backups_start_where_the_last_backup_went(
    window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    chooser = Chooser(monkeypatch)
    actions = {a.text(): a for a in window.file_menu.actions()}
    folder = tmp_path / "usb-stick"
    folder.mkdir()
    actions["&Back up…"].trigger()
    first = Path(chooser.started[-1])
    assert first.parent == Path(window.store.file).parent  # first time: beside the campaign
    chooser.answer = str(folder / "before-the-dragon.sqlite")
    actions["&Back up…"].trigger()
    assert (folder / "before-the-dragon.sqlite").is_file()
    chooser.answer = ""
    actions["&Back up…"].trigger()
    assert Path(chooser.started[-1]).parent == folder
    actions["&Restore backup…"].trigger()
    assert Path(chooser.started[-1]) == folder


def test_the_campaign_file_starts_where_the_last_was_chosen(
    qtbot: QtBot, settings: QSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    chooser = Chooser(monkeypatch)
    folder = tmp_path / "campaigns"
    folder.mkdir()
    dialog = DatabaseSettingsDialog(settings, "")
    qtbot.addWidget(dialog)
    dialog.path.clear()
    chooser.answer = str(folder / "greyhawk.sqlite")
    dialog.browse.click()
    assert dialog.path.text() == chooser.answer
    again = DatabaseSettingsDialog(settings, "")
    qtbot.addWidget(again)
    again.path.clear()
    chooser.answer = ""
    again.browse.click()
    assert Path(chooser.started[-1]) == folder
