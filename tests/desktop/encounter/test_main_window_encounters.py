"""The Encounter menu in the main window: start, undo routing, help, print, end, reopen."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QComboBox, QMessageBox
from pytestqt.qtbot import QtBot

from core.store import Store
from desktop import printing
from desktop.encounter.options_form import OptionsForm
from desktop.encounter.workspace import EncounterWorkspace
from desktop.main_window import MainWindow
from tests.desktop.encounter.conftest import drop_card, fill_and_declare, record


def _start(window: MainWindow, system: str = "side-d6") -> EncounterWorkspace:
    dialog = window.encounter_actions.ask_new_encounter()
    assert dialog is not None
    dialog.set_system(system)
    dialog.set_count("Orc", 2)
    dialog.accept()
    workspace = window.encounter_actions.current()
    assert workspace is not None
    return workspace


def test_new_encounter_dialog_builds_options_from_the_source_defaults(window: MainWindow) -> None:
    dialog = window.encounter_actions.ask_new_encounter()
    assert dialog is not None
    dialog.set_system("addict")
    form = dialog.options_form
    assert isinstance(form, OptionsForm) and form.values() == {}
    tip = form.editors["seconds_per_segment"].toolTip()
    assert "Default (the source): 6" in tip and "6 seconds" in tip
    form.editors["seconds_per_segment"].setValue(10)
    assert form.values() == {"seconds_per_segment": 10}
    # A list option reads in words ("with fastest"), the value chosen is the option's own.
    ties = form.editors["no_speed_factor_in_ties"]
    assert isinstance(ties, QComboBox)
    shown = [ties.itemText(i) for i in range(ties.count())]
    assert "with fastest" in shown and not [t for t in shown if "-" in t or "_" in t]
    ties.setCurrentIndex(shown.index(next(t for t in shown if t != ties.currentText())))
    assert form.values()["no_speed_factor_in_ties"] in {
        m.value for m in type(form.defaults.no_speed_factor_in_ties)}
    ties.setCurrentIndex(shown.index("with fastest"))
    for row in range(dialog.fighters.rowCount()):  # nobody on the party side
        dialog.fighters.item(row, 0).setCheckState(Qt.CheckState.Unchecked)
    dialog.set_count("Orc", 2)
    dialog.accept()
    assert "two sides" in dialog.error.text() and window.encounter_actions.current() is None
    dialog.set_count("Orc", 0)
    dialog.set_count("Goblin", 500)
    dialog.accept()
    assert "1–200" in dialog.error.text()


def test_start_declare_and_ctrl_z_follows_the_tab_shown(window: MainWindow) -> None:
    ws = _start(window)
    assert window.tabs.currentWidget() is ws and ws.title == "Encounter: Encounter 1"
    ids = list(ws.controller.state.combatants)
    assert any(c.startswith("orc-") for c in ids) and any(c.startswith("roster-") for c in ids)
    drop_card(ws.board, ws.board.lanes["attack"].model, ids[0])
    fill_and_declare(ws.board, target="orc-1")
    assert window.undo_group.activeStack() is ws.controller.stack
    assert window.undo_action.isEnabled()
    declared = ws.controller.stack.text(ws.controller.stack.index() - 1)
    window.undo_action.trigger()
    assert not ws.controller.state.rounds[-1]["declarations"]
    assert window.statusBar().currentMessage() == f"Undone: {declared}"  # said, like a save
    window.redo_action.trigger()
    assert ws.controller.state.rounds[-1]["declarations"]
    assert window.statusBar().currentMessage() == f"Redone: {declared}"
    window.tabs.setCurrentIndex(0)
    assert window.undo_group.activeStack() is window.undo_stack


def test_f1_opens_the_systems_page_at_the_current_phase(window: MainWindow) -> None:
    ws = _start(window, "addict")
    ws.stepper.go_to_phase(5)  # Phase 6: Action declarations
    assert ws.stepper.current_phase().id == "addict.phase-6"
    help_window = window.encounter_actions.help_current()
    assert help_window is not None
    text = help_window.browser.toPlainText()
    assert "addict-procedure.md" in text  # the source is cited
    assert help_window.top_text().startswith("Phase 6: Action declarations")
    assert help_window.browser.verticalScrollBar().value() > 0


def test_ctrl_p_previews_the_encounter_summary(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown: list[str] = []
    monkeypatch.setattr(printing, "show_print_preview", lambda html, *a, **k: shown.append(html))
    ws = _start(window)
    drop_card(ws.board, ws.board.lanes["attack"].model, "orc-1")
    fill_and_declare(ws.board, target=next(iter(ws.controller.state.combatants)))
    window.encounter_actions.print_action.trigger()
    dialog = window.encounter_actions.dialog
    assert isinstance(dialog, printing.PrintChoiceDialog) and not shown  # asks first
    assert dialog.this_round.isChecked()
    dialog.accept()
    assert shown and "<html" in shown[0].lower() and "Orc 1" in shown[0]
    html = shown[0]
    # titled by campaign, encounter and round; a running fight prints no end
    assert "Encounter 1 — Round 1</h1>" in html and "End of the encounter" not in html
    assert "roster-" not in html and "orc-1" not in html


def test_ending_offers_results_marks_it_ended_and_it_stays_closed_on_reopen(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch, sample_store: Store, settings: QSettings,
    qtbot: QtBot,
) -> None:
    questions: list[str] = []

    def yes(_parent: object, _title: str, text: str, *_a: object) -> object:
        questions.append(text)
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", staticmethod(yes))
    ws = _start(window)
    pc = next(c for c in ws.controller.state.combatants if c.startswith("roster-"))
    drop_card(ws.board, ws.board.lanes["attack"].model, "orc-1")
    fill_and_declare(ws.board, target=pc)
    for request in ws.controller.rolls_needed():
        ws.controller.type_roll(request, "3" if "party" in request.purpose else "5")
    record(ws, "orc-1", True, 2)
    assert window.encounter_actions.end_current()
    assert questions and "End Encounter 1" in questions[0]
    dialog = window.encounter_actions.dialog
    assert dialog is not None and "HP" in dialog.changes[0].description  # type: ignore[attr-defined]
    assert [i.status for i in sample_store.encounters.all(window.campaign.id)] == ["active"]
    dialog.accept()  # type: ignore[attr-defined]  # Apply ends it
    assert [i.status for i in sample_store.encounters.all(window.campaign.id)] == ["ended"]
    assert window.tabs.count() == 1

    again = MainWindow(sample_store, settings)
    qtbot.addWidget(again)
    assert again.tabs.count() == 1  # an ended encounter is listed, not reopened
    assert [a.text() for a in again.encounter_actions.open_menu_actions()] == [
        "Encounter 1 — Side initiative on d6, segment rounds (ended)"]


def test_open_encounter_lines_name_the_system_in_words() -> None:
    """Open Encounter listed "(addict, ended)", "(time-units)": system ids, not words."""
    from core.store import EncounterInfo
    from desktop.encounter.actions import open_label

    ended = EncounterInfo(1, 1, "Ford", "addict", {}, "ended")
    running = EncounterInfo(2, 1, "Stair", "time-units", {}, "open")
    assert open_label(running) == "Stair — Time-unit combat (TU clock, no rounds)"
    # a menu shows "&&" as one "&" (a single one would underline the next letter)
    assert open_label(ended) == "Ford — ADDICT / quantum side initiative (AD&&D 1e) (ended)"


def test_going_back_to_the_roster_from_a_fight_keeps_the_window_size(
    window: MainWindow, qtbot: QtBot
) -> None:
    """At 1280×720 the window must not grow when the roster comes back in front: the entry
    form's dock returned while the stack still counted the fight board's minimum, and the
    window widened to 1,548 px, its Save button past the screen's edge."""
    window.resize(1240, 690)
    _start(window)
    qtbot.wait(20)
    for page in (1, 0, 1, 0):
        window.tabs.setCurrentIndex(page)
        qtbot.wait(20)
        assert window.width() == 1240, f"the window widened on tab {page}"
    assert window.editor_dock.isVisible()


def test_a_long_refusal_keeps_the_window_height_and_its_whole_text(
    window: MainWindow, qtbot: QtBot
) -> None:
    """A refusal wrapping to four lines made the window taller than a 720-line screen: it
    shows two lines at most, cut with "…", the whole text in the tooltip."""
    window.resize(1240, 690)
    board = _start(window).board
    qtbot.wait(20)
    long = "Round 2's turns cannot be changed now: " + "the orcs have acted already; " * 12
    board.show_refusal(long)
    qtbot.wait(20)
    assert window.height() == 690
    assert board.message.height() <= 2 * board.message.fontMetrics().lineSpacing() + 4
    assert board.message.text() == f"Refused: {long}" == board.message.toolTip()
