"""Issue 22, points 1–4, 7 and 8: what passes between a fight and the campaign, one test each.

Each drives the main window on a real campaign file as a DM does (the roster form, New
Encounter, the boards, End, Reopen, Rest, Delete) and checks the roster and the session log.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from core.model.values import Status
from desktop.main_window import MainWindow
from tests.desktop.season.helpers import (
    edit_entry,
    end,
    entry,
    letter_blow,
    log_lines,
    new_encounter,
    new_round,
    results_table,
    select,
)
from tests.desktop.table.conftest import action, button
from tests.desktop.table.roster_io_helpers import Questions

PARTY = ("Brannoc the Bold", "Sister Ysolde", "Garrick")


def test_point_1_the_dead_and_unconscious_are_not_ticked_and_join_as_the_roster_has_them(
    table: MainWindow, questions: Questions,
) -> None:
    edit_entry(table, "Garrick", status="dead", hp="-2")
    edit_entry(table, "Torchbearer Wat", status="unconscious", hp="0")
    action(table, "New Encounter").trigger()
    dialog = table.encounter_actions.dialog
    model = dialog.fighters  # type: ignore[attr-defined]
    ticked = {model.item(r, 0).text(): model.item(r, 0).checkState() == Qt.CheckState.Checked
              for r in range(model.rowCount())}
    assert ticked == {"Brannoc the Bold": True, "Sister Ysolde": True,
                      "Halvaine the Arcane": True, "Pip Underbough": True, "Garrick": False,
                      "Torchbearer Wat": False}
    kinds = {model.item(r, 0).text(): model.item(r, 1).text() for r in range(model.rowCount())}
    assert kinds["Garrick"] == "Henchman (dead)"
    assert kinds["Torchbearer Wat"] == "Hireling (unconscious)"
    dialog.reject()  # type: ignore[attr-defined]

    # Ticked by hand, Garrick joins dead: he does not act, bleed or come back.
    ws = new_encounter(table, "Crypt", "addict", ("Brannoc the Bold", "Garrick"),
                       {"Orc": "1:5"})
    garrick = next(c for c in ws.controller.state.combatants.values() if c.label == "Garrick")
    assert garrick.status is Status.DEAD and garrick.hp == -2
    letter_blow(ws, "Orc 1", "Brannoc the Bold", 3)
    new_round(ws)
    letter_blow(ws, "Orc 1", "Brannoc the Bold", 2)
    resolution = ws.controller.resolution
    assert resolution is not None
    assert resolution.combatants[garrick.id].status is Status.DEAD
    assert not [s for s in resolution.steps if s.actor == garrick.id]
    dialog = end(table)
    assert results_table(dialog) == [
        ["Brannoc the Bold", "HP", "24", "24", "19", "24 → 19"]]
    button(dialog, "Apply").click()
    assert (entry(table, "Garrick").status, entry(table, "Garrick").hp) == ("dead", -2)


def test_point_2_reopen_and_end_again_logs_each_kill_and_its_xp_once(
    table: MainWindow, questions: Questions,
) -> None:
    ws = new_encounter(table, "Hobgoblin gate", "side-d6", ("Brannoc the Bold",),
                       {"Hobgoblin": "2:6, 7"})
    letter_blow(ws, "Brannoc the Bold", "Hobgoblin 1", 9)
    first = end(table)
    from desktop.roster.kills_table import KillsBox
    box = first.findChild(KillsBox)
    assert box is not None and [k.name for k in box.kills] == ["Hobgoblin 1"]
    box.spins[0].setValue(15)
    button(first, "Apply").click()
    action(table, "Hobgoblin gate — Side initiative on d6, segment rounds (ended)").trigger()
    action(table, "Reopen Encounter").trigger()
    ws = table.encounter_actions.current()
    assert ws is not None and not ws.session.ended
    new_round(ws)
    letter_blow(ws, "Brannoc the Bold", "Hobgoblin 2", 8)
    again = end(table)
    box = again.findChild(KillsBox)
    assert box is not None and [k.name for k in box.kills] == ["Hobgoblin 2"]
    box.spins[0].setValue(15)
    button(again, "Apply").click()
    kills = [line for _, lines in log_lines(table) for line in lines if "Hobgoblin" in line]
    assert kills == ["Killed Hobgoblin 1: 15 XP", "Killed Hobgoblin 2: 15 XP"]


def test_point_3_cancel_on_the_results_leaves_the_fight_open_and_writes_nothing(
    table: MainWindow, questions: Questions,
) -> None:
    ws = new_encounter(table, "Orc guardroom", "side-d6", ("Brannoc the Bold",), {"Orc": "1:5"})
    letter_blow(ws, "Orc 1", "Brannoc the Bold", 5)
    before = log_lines(table)
    button(end(table), "Cancel").click()
    assert not ws.session.ended and table.encounter_actions.current() is ws
    assert table.tabs.tabText(table.tabs.currentIndex()) == "Encounter: Orc guardroom"
    assert [i.status for i in table.store.encounters.all(ws.session.info.campaign_id)] == [
        "active"]
    assert entry(table, "Brannoc the Bold").hp == 24 and log_lines(table) == before
    assert any("was not ended: it stays open" in m for m in _messages(table))
    button(end(table), "Apply").click()  # ended now, and written once
    assert entry(table, "Brannoc the Bold").hp == 19


def _messages(window: MainWindow) -> list[str]:
    return [window.statusBar().currentMessage()]


def test_point_4_a_pc_deleted_during_an_open_fight_is_warned_and_its_result_is_logged(
    table: MainWindow, questions: Questions,
) -> None:
    ws = new_encounter(table, "Kobold warren", "side-d6", ("Halvaine the Arcane",),
                       {"Kobold": "1:3"})
    letter_blow(ws, "Kobold 1", "Halvaine the Arcane", 3)
    select(table, "Halvaine the Arcane")
    action(table, "Remove").trigger()
    assert "Halvaine the Arcane is fighting in Kobold warren, which is still open." in \
        questions.asked[-1]
    assert "goes to the session log only" in questions.asked[-1]
    assert "Halvaine the Arcane" not in [e.name for e in table.entries]
    table.tabs.setCurrentWidget(ws)
    dialog = end(table)
    assert results_table(dialog) == [
        ["Halvaine the Arcane", "HP", "9", "deleted from the roster", "6",
         "log it (deleted from the roster)"]]
    button(dialog, "Apply").click()
    assert log_lines(table)[-1] == ("Results of Kobold warren", [
        "Halvaine the Arcane: HP 9 → 6 (no longer in the roster: logged only)"])


def test_a_deleted_pcs_logged_result_is_not_offered_again_after_reopen_and_end(
    table: MainWindow, questions: Questions,
) -> None:
    """The tester's night: Halvaine casts Sleep, is deleted from the roster while the fight is
    open, and End logs his spell. Reopened, a round more (a kill), End again offers only the
    kill: his spell was logged already (it was offered and logged a second time)."""
    from desktop.roster.kills_table import KillsBox
    from tests.desktop.table import letter_helpers as letters

    ws = new_encounter(table, "Orc den", "addict", ("Brannoc the Bold", "Halvaine the Arcane"),
                       {"Orc": "2:5, 6"})
    letters.drop_card(ws.board, "Halvaine the Arcane", "D · missile, spell [D]")  # type: ignore[arg-type]
    letters.fill(ws.board, Target="Orc 1", Spell="Sleep")  # type: ignore[arg-type]
    letter_blow(ws, "Brannoc the Bold", "Orc 1", None)
    select(table, "Halvaine the Arcane")
    action(table, "Remove").trigger()
    assert "Halvaine the Arcane" not in [e.name for e in table.entries]
    table.tabs.setCurrentWidget(ws)
    first = end(table)
    assert results_table(first) == [
        ["Halvaine the Arcane", "Spells used", "memorised Magic missile, Sleep, Web",
         "deleted from the roster", "cast Sleep", "log it (deleted from the roster)"]]
    button(first, "Apply").click()
    spell_line = "Halvaine the Arcane: spells used — Sleep (no longer in the roster: logged only)"
    assert log_lines(table)[-1] == ("Results of Orc den", [spell_line])

    action(table, "Orc den — ADDICT / quantum side initiative (AD&D 1e) (ended)").trigger()
    action(table, "Reopen Encounter").trigger()
    ws = table.encounter_actions.current()
    assert ws is not None and not ws.session.ended
    new_round(ws)
    letter_blow(ws, "Brannoc the Bold", "Orc 2", 20)  # Orc 2 dead
    again = end(table)
    assert results_table(again) == []  # Halvaine's Sleep is logged already
    box = again.findChild(KillsBox)
    assert box is not None and [k.name for k in box.kills] == ["Orc 2"]
    box.spins[0].setValue(10)
    button(again, "Apply").click()
    logged = [line for _, lines in log_lines(table) for line in lines]
    assert logged.count(spell_line) == 1
    assert log_lines(table)[-1] == ("Results of Orc den", ["Killed Orc 2: 10 XP",
                                                           "XP for kills: 10"])


def test_point_7_addict_monsters_down_at_0_or_below_count_as_defeated_and_may_live(
    table: MainWindow, questions: Questions,
) -> None:
    ws = new_encounter(table, "Orc den", "addict", ("Brannoc the Bold",), {"Orc": "2:5, 6"})
    letter_blow(ws, "Brannoc the Bold", "Orc 1", 5)  # 0 hp: unconscious under the AD&D rules
    new_round(ws)
    letter_blow(ws, "Brannoc the Bold", "Orc 2", 8)  # -2 hp: bleeding
    resolution = ws.controller.resolution
    assert resolution is not None
    down = {ws.controller.state.combatants[c].label: r.status
            for c, r in resolution.combatants.items() if c.startswith("orc")}
    assert down == {"Orc 1": Status.UNCONSCIOUS, "Orc 2": Status.UNCONSCIOUS}
    dialog = end(table)
    assert not dialog.table.isVisibleTo(dialog)  # Brannoc unhurt: only the kills to log
    assert "changed nothing in the roster's entries" in dialog.intro.text()
    from desktop.roster.kills_table import KillsBox
    box = dialog.findChild(KillsBox)
    assert box is not None and [k.name for k in box.kills] == ["Orc 1", "Orc 2"]
    box.spins[0].setValue(10)
    box.spins[1].setValue(10)
    box.set_lives(1, True)  # Orc 2 is taken prisoner
    button(dialog, "Apply").click()
    assert log_lines(table)[-1] == ("Results of Orc den", [
        "Killed Orc 1: 10 XP", "Defeated Orc 2 (lives): 10 XP", "XP for kills: 20"])


def test_point_8_rest_the_party_wakes_the_unconscious_and_the_next_fight_starts_awake(
    table: MainWindow, questions: Questions, qtbot: QtBot,
) -> None:
    edit_entry(table, "Pip Underbough", status="unconscious", hp="0")
    action(table, "Rest the Party").trigger()
    rest = table.roster_actions.dialog
    rest.hp_box.setChecked(True)  # type: ignore[attr-defined]
    button(rest, "Rest").click()  # type: ignore[arg-type]
    pip = entry(table, "Pip Underbough")
    assert (pip.hp, pip.status) == (12, "active")
    assert "Pip Underbough: HP 0 → 12, unconscious → active" in log_lines(table)[-1][1]
    ws = new_encounter(table, "Stirges", "side-d6", ("Pip Underbough",), {"Kobold": "1:3"})
    letter_blow(ws, "Kobold 1", "Pip Underbough", 2)
    assert results_table(end(table)) == [["Pip Underbough", "HP", "12", "12", "10", "12 → 10"]]
