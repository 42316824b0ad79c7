"""F1 in each of the app's dialogs opens the help at the section about that dialog (issue
24: F1 did nothing in dialogs). The key is pressed on the widget that has the keyboard in the
dialog, as a DM presses it."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialog, QMainWindow
from pytestqt.qtbot import QtBot

from core.roster.merge import plan_import
from core.roster.results import ChangeField, ProposedChange
from core.store import Store
from desktop.encounter.help_browser import HelpWindow, sections
from desktop.main_window import MainWindow


@pytest.fixture
def window(qtbot: QtBot, sample_store: Store, settings: QSettings) -> MainWindow:
    main = MainWindow(sample_store, settings)
    qtbot.addWidget(main)
    main.resize(1280, 720)
    main.show()
    return main


def _start(w: MainWindow, _s: QSettings) -> QDialog:
    from desktop.encounter.start_dialog import StartEncounterDialog
    return StartEncounterDialog(w.entries, w.templates, parent=w)


def _database(w: MainWindow, s: QSettings) -> QDialog:
    from desktop.database_settings import DatabaseSettingsDialog
    return DatabaseSettingsDialog(s, "", w)


def _print(w: MainWindow, _s: QSettings) -> QDialog:
    from desktop.printing import PrintChoiceDialog
    return PrintChoiceDialog(1, 3, w)


def _hide(w: MainWindow, _s: QSettings) -> QDialog:
    from desktop.players.hide_dialog import HideDialog
    return HideDialog("Fight", [], [], w)


def _conflict(w: MainWindow, _s: QSettings) -> QDialog:
    from desktop.roster.conflict_dialog import ConflictDialog
    mine = w.entries[0]
    return ConflictDialog(mine, dataclasses.replace(mine, hp=mine.hp - 1), parent=w)


def _rest(w: MainWindow, _s: QSettings) -> QDialog:
    from desktop.roster.rest_dialog import RestDialog
    return RestDialog(w.entries, "Rest", w)


def _duplicates(w: MainWindow, _s: QSettings) -> QDialog:
    from desktop.roster.import_dialog import DuplicatesDialog
    first = w.entries[0]
    plan = plan_import(w.entries, w.templates, [dataclasses.replace(first, hp=first.hp + 3)])
    return DuplicatesDialog(plan, "party.csv", w)


def _results(w: MainWindow, _s: QSettings) -> QDialog:
    from desktop.roster.results_dialog import ResultsDialog
    first = w.entries[0]
    change = ProposedChange(first.id, first.name, ChangeField.HP, first.hp, 1,
                            f"{first.name}: HP {first.hp} → 1", start=first.hp, end=1)
    return ResultsDialog([change], w, "Fight")


def _stamp(w: MainWindow, _s: QSettings) -> QDialog:
    from desktop.roster.dialogs import StampDialog
    return StampDialog(w.templates[0], parent=w)


def _session_log(w: MainWindow, _s: QSettings) -> QDialog:
    from desktop.roster.dialogs import SessionLogDialog
    return SessionLogDialog([], w)


DIALOGS: dict[str, tuple[Callable[[MainWindow, QSettings], QDialog], str]] = {
    "new encounter": (_start, "Which system?"),
    "campaign database": (_database, "Where the campaigns are kept"),
    "print choice": (_print, "Printing the fight"),
    "hide from the players": (_hide, "Hidden creatures and the party's hit points"),
    "two versions of an entry": (_conflict, "Two versions of one entry"),
    "rest": (_rest, "The roster"),
    "import duplicates": (_duplicates, "Importing a roster"),
    "results": (_results, "Ending an encounter"),
    "stamp monsters": (_stamp, "The roster"),
    "session log": (_session_log, "Ending an encounter"),
}


@pytest.mark.parametrize("name", list(DIALOGS))
def test_f1_in_a_dialog_opens_its_help_section(qtbot: QtBot, window: MainWindow,
                                               settings: QSettings, name: str) -> None:
    make, heading = DIALOGS[name]
    dialog = make(window, settings)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.activateWindow()
    target = dialog.focusWidget() or dialog
    QTest.keyClick(target, Qt.Key.Key_F1)
    shown = dialog.findChild(HelpWindow)
    assert shown is not None and shown.isVisible(), name  # in front of the (modal) dialog
    section = next(s for s in sections() if s.anchor == shown.anchor
                   and s.page == shown._page)
    assert section.title == heading
    qtbot.waitUntil(lambda: heading in shown.top_text())
    dialog.close()


def test_every_dialog_of_the_app_has_a_help_section() -> None:
    from desktop.dialog_help import HELP_TOPICS

    known = {(s.page, s.anchor) for s in sections()}
    assert set(HELP_TOPICS.values()) <= known
    assert len(HELP_TOPICS) == len(DIALOGS)


def test_f1_in_the_new_encounter_dialog_opened_from_its_menu(qtbot: QtBot,
                                                             window: MainWindow) -> None:
    window.encounter_actions.new_action.trigger()
    dialog: Any = qtbot.waitUntil(lambda: _open_dialog(window) is not None) or \
        _open_dialog(window)
    assert dialog is not None
    QTest.keyClick(dialog.focusWidget() or dialog, Qt.Key.Key_F1)
    shown = dialog.findChild(HelpWindow)
    assert shown is not None and shown.isVisible() and shown.anchor == "systems"
    dialog.reject()


def _open_dialog(window: QMainWindow) -> QDialog | None:
    from desktop.encounter.start_dialog import StartEncounterDialog
    return next((d for d in window.findChildren(StartEncounterDialog) if d.isVisible()), None)
