"""After the fight: results are changes on the roster as it is now; ended means ended.

Driven through the main window on a real campaign file: the New Encounter dialog, the board,
the outcome panel, Encounter › End, the results dialog's choice, Encounter › Open, Reopen.
Set COMBATDESK_SHOTS=folder to keep screenshots of the dialogs a DM sees.
"""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from core.fight.log import Command, Event, EventKind
from core.model.values import frozen_mapping
from core.roster.results import Choice
from desktop.main_window import MainWindow
from desktop.roster.results_dialog import ResultsDialog
from tests.desktop.table.conftest import IdWatch, action, button
from tests.desktop.table.results_helpers import (
    Questions,
    assert_no_ids,
    land_blow,
    shot,
    start_fight,
)

PARTY = ("Brannoc the Bold", "Sister Ysolde")


@pytest.fixture
def questions(monkeypatch: pytest.MonkeyPatch) -> Questions:
    fake = Questions()
    monkeypatch.setattr(QMessageBox, "question", staticmethod(fake))
    return fake


def hp(window: MainWindow, name: str) -> int | None:
    campaign = window.campaign
    assert campaign is not None
    return next(e.hp for e in window.store.roster.entries(campaign.id) if e.name == name)


def brannoc_id(window: MainWindow) -> str:
    entry = next(e for e in window.entries if e.name == "Brannoc the Bold")
    return f"roster-{entry.id}"


def end_shown(window: MainWindow) -> ResultsDialog:
    action(window, "End Encounter").trigger()
    dialog = window.encounter_actions.dialog
    assert isinstance(dialog, ResultsDialog), dialog
    return dialog


def test_two_fights_sharing_brannoc_both_count_and_the_changed_one_is_a_choice(
    table: MainWindow, ids: IdWatch, questions: Questions,
) -> None:
    orcs = start_fight(table, "Orc guardroom", "Orc", PARTY)
    assert not questions.asked  # nobody else is fighting yet
    goblins = start_fight(table, "Goblin stair", "Goblin", ("Brannoc the Bold",))
    assert "Brannoc the Bold is also in Orc guardroom, which is still open." in questions.asked[-1]
    assert "Both fights will count" in questions.asked[-1]
    brannoc = brannoc_id(table)
    land_blow(orcs, "orc-1", brannoc, 5)
    land_blow(goblins, "goblin-1", brannoc, 3)

    table.tabs.setCurrentWidget(orcs)
    first = end_shown(table)
    assert not first.warning.isVisibleTo(first) and not first.choices
    assert first.descriptions() == ["Brannoc the Bold: HP 24 → 19"]
    button(first, "Apply").click()
    assert hp(table, "Brannoc the Bold") == 19

    table.tabs.setCurrentWidget(goblins)
    second = end_shown(table)
    assert second.warning.isVisibleTo(second)
    assert "Brannoc the Bold was changed since this fight began" in second.warning.text()
    (row,) = second.choices
    texts = [second.choices[row].itemText(i) for i in range(second.choices[row].count())]
    assert texts == ["Add this fight's change: 19 → 16", "Use this fight's end: 19 → 21",
                     "Keep the roster: 19"]
    cells = [second.table.item(row, c).text() for c in range(5)]
    assert cells == ["Brannoc the Bold", "HP", "24", "19", "21"]  # side by side
    assert_no_ids(second, messages=[*questions.asked, *ids.messages])
    shot(table, "results-end-conflict.png", second)
    button(second, "Apply").click()  # the default adds this fight's change on top
    assert hp(table, "Brannoc the Bold") == 24 - 5 - 3
    table.undo_action.trigger()
    assert hp(table, "Brannoc the Bold") == 19


def test_keep_the_roster_writes_nothing_for_the_changed_entry(
    table: MainWindow, questions: Questions,
) -> None:
    orcs = start_fight(table, "Orc guardroom", "Orc", PARTY)
    goblins = start_fight(table, "Goblin stair", "Goblin", ("Brannoc the Bold",))
    brannoc = brannoc_id(table)
    land_blow(orcs, "orc-1", brannoc, 5)
    land_blow(goblins, "goblin-1", brannoc, 3)
    table.tabs.setCurrentWidget(goblins)
    button(end_shown(table), "Apply").click()
    table.tabs.setCurrentWidget(orcs)
    dialog = end_shown(table)
    dialog.choose(0, Choice.KEEP)
    button(dialog, "Apply").click()
    assert hp(table, "Brannoc the Bold") == 21


def test_an_ended_encounter_opens_read_only_and_reopens_undoably(
    table: MainWindow, ids: IdWatch, questions: Questions, qtbot: QtBot,
) -> None:
    orcs = start_fight(table, "Orc guardroom", "Orc", PARTY)
    brannoc = brannoc_id(table)
    land_blow(orcs, "orc-1", brannoc, 5)
    button(end_shown(table), "Apply").click()
    assert hp(table, "Brannoc the Bold") == 19

    action(table, "Orc guardroom — Side initiative on d6, segment rounds (ended)").trigger()
    ws = table.encounter_actions.current()
    assert ws is not None and table.tabs.tabText(table.tabs.currentIndex()) == (
        "Encounter: Orc guardroom (ended)")
    assert ws.ended_banner.isVisibleTo(ws) and "has ended" in ws.ended_label.text()
    assert not ws.stepper.isEnabled() and not ws.board.isEnabled()
    assert not ws.board.new_round_button.isEnabled()  # type: ignore[attr-defined]
    assert ws.steps_view.isEnabled() and ws.timeline.isEnabled()
    assert not action(table, "End Encounter").isEnabled()
    assert action(table, "Print Summary").isEnabled()
    refused: list[str] = []
    ws.controller.refused.connect(refused.append)
    blow = Command("Hit", (Event(EventKind.HP_CHANGED,
                                 frozen_mapping({"id": brannoc, "delta": -1})),))
    assert not ws.controller.run(blow, check=False)
    assert refused and "Orc guardroom has ended" in refused[0]
    assert_no_ids(ws.ended_banner, messages=[*refused, *ids.messages])
    table.tabs.setCurrentWidget(ws)
    shot(table, "results-ended-readonly.png")

    button(ws, "Reopen Encounter…").click()
    assert "Results already applied to the roster stay" in questions.asked[-1]
    assert ws.stepper.isEnabled() and not ws.ended_banner.isVisibleTo(ws)
    assert action(table, "End Encounter").isEnabled()
    assert table.undo_action.text().replace("&", "") == "Undo Reopen Orc guardroom"
    table.undo_action.trigger()
    assert ws.session.ended and not ws.board.isEnabled()
    table.redo_action.trigger()
    assert not ws.session.ended
    assert_no_ids(messages=[*questions.asked, *ids.messages],
                  undo=[ws.controller.stack.text(i) for i in range(ws.controller.stack.count())])

    ws.board.new_round_button.click()  # type: ignore[attr-defined]
    land_blow(ws, "orc-1", brannoc, 2)
    again = end_shown(table)
    assert again.descriptions() == ["Brannoc the Bold: HP 19 → 17"]  # only what came after
    button(again, "Apply").click()
    assert hp(table, "Brannoc the Bold") == 17


def select_template(window: MainWindow, name: str) -> None:
    panel = window.roster_panel
    templates = panel.model.group_index("templates")
    row = next(r for r in range(panel.model.rowCount(templates))
               if panel.model.index(r, 0, templates).data() == name)
    panel.view.setCurrentIndex(panel.proxy.mapFromSource(panel.model.index(row, 0, templates)))


def test_orcs_stamped_into_an_open_fight_and_into_a_new_one_keep_their_hp(
    table: MainWindow, ids: IdWatch, questions: Questions,
) -> None:
    orcs = start_fight(table, "Orc guardroom", "Orc", PARTY)
    table.tabs.setCurrentIndex(0)
    select_template(table, "Orc")
    action(table, "Stamp Monsters").trigger()
    stamp = table.roster_actions.dialog
    assert [stamp.target.itemText(i) for i in range(stamp.target.count())] == [  # type: ignore[union-attr]
        "A new encounter", "Orc guardroom"]
    stamp.target.setCurrentText("Orc guardroom")  # type: ignore[union-attr]
    stamp.count.setValue(6)  # type: ignore[union-attr]
    button(stamp, "OK").click()  # type: ignore[arg-type]
    rolled = {c.name: c.hp for c in orcs.controller.state.combatants.values()}
    assert [n for n in rolled if n.startswith("Orc ")] == [f"Orc {i}" for i in range(1, 8)]
    assert all(f"Orc {i} ({rolled[f'Orc {i}']} hp)" in ids.messages[-1] for i in range(2, 8))
    assert table.tabs.currentWidget() is orcs
    table.undo_action.trigger()  # the whole stamp is one step
    assert [c.name for c in orcs.controller.state.combatants.values()
            if c.name.startswith("Orc ")] == ["Orc 1"]

    table.tabs.setCurrentIndex(0)
    select_template(table, "Orc")
    action(table, "Stamp Monsters").trigger()
    stamp = table.roster_actions.dialog
    stamp.count.setValue(3)  # type: ignore[union-attr]
    stamp.hand_radio.setChecked(True)  # type: ignore[union-attr]
    stamp.hp_edit.setText("5, 8, 2")  # type: ignore[union-attr]
    button(stamp, "OK").click()  # type: ignore[arg-type]
    start = table.encounter_actions.dialog
    assert start is not None and start.hp_text("Orc") == "5, 8, 2"  # type: ignore[attr-defined]
    start.set_count("Orc", 4)  # type: ignore[attr-defined]  # one more: rolled, the rest kept
    kept = start.hp_text("Orc").split(", ")  # type: ignore[attr-defined]
    assert kept[:3] == ["5", "8", "2"] and len(kept) == 4
    shot(table, "results-stamp-new-encounter.png", start)
    start.set_hp("Orc", "5, 8, 2, 9")  # type: ignore[attr-defined]
    button(start, "OK").click()
    assert "Orc 4: 1d8 shows 1–8; 9 is not possible" in start.error.text()  # type: ignore[attr-defined]
    start.set_hp("Orc", "5, 8, 2, 7")  # type: ignore[attr-defined]
    button(start, "OK").click()
    fresh = table.encounter_actions.current()
    assert fresh is not None and fresh is not orcs
    assert [(c.name, c.hp) for c in fresh.controller.state.combatants.values()
            if c.name.startswith("Orc")] == [("Orc 1", 5), ("Orc 2", 8), ("Orc 3", 2), ("Orc 4", 7)]
    assert "Brannoc the Bold is also in Orc guardroom" in questions.asked[-1]


def test_results_cancelled_at_the_end_are_offered_whole_after_reopening(
    table: MainWindow, questions: Questions,
) -> None:
    orcs = start_fight(table, "Orc guardroom", "Orc", PARTY)
    land_blow(orcs, "orc-1", brannoc_id(table), 5)
    button(end_shown(table), "Cancel").click()
    assert hp(table, "Brannoc the Bold") == 24
    assert not orcs.session.ended and table.encounter_actions.current() is orcs  # still open
    none_written = end_shown(table)
    assert none_written.descriptions() == ["Brannoc the Bold: HP 24 → 19"]
    none_written.set_ticked(0, False)
    button(none_written, "Apply").click()  # ends it, writing nothing
    assert hp(table, "Brannoc the Bold") == 24
    action(table, "Orc guardroom — Side initiative on d6, segment rounds (ended)").trigger()
    action(table, "Reopen Encounter").trigger()
    assert "None of its results were written to the roster" in questions.asked[-1]
    assert end_shown(table).descriptions() == ["Brannoc the Bold: HP 24 → 19"]


def test_a_pc_killed_below_minus_ten_is_written_as_the_roster_holds_and_still_saves(
    table: MainWindow, questions: Questions,
) -> None:
    """A blow of 40 leaves Brannoc (24 HP) at −16 in the fight; the roster holds no HP below
    −10 (core.roster.checks.MIN_HP). The results write −10 with the status dead, so his entry
    opens and saves in the form and his roster file reads back (−16 had made both refuse)."""
    from core.roster.checks import check_entry
    from core.roster.files import read_roster_json, write_roster_json
    from tests.desktop.season.helpers import edit_entry, entry

    orcs = start_fight(table, "Orc guardroom", "Orc", ("Brannoc the Bold",))
    land_blow(orcs, "orc-1", brannoc_id(table), 40)
    assert orcs.controller.resolution.combatants[brannoc_id(table)].hp == -16
    dialog = end_shown(table)
    assert dialog.descriptions() == ["Brannoc the Bold: HP 24 → -10",
                                     "Brannoc the Bold: active → dead"]
    button(dialog, "Apply").click()
    brannoc = entry(table, "Brannoc the Bold")
    assert (brannoc.hp, str(brannoc.status)) == (-10, "dead")
    assert check_entry(brannoc) == {}
    edit_entry(table, "Brannoc the Bold", side="fallen")  # Save is enabled, and saves
    assert table.editor.save_reason.text() == ""
    saved = entry(table, "Brannoc the Bold")
    assert saved.side == "fallen" and saved.hp == -10
    assert read_roster_json(write_roster_json([saved]))[0].hp == -10
