"""Issue 25 at the table: what four fights found, driven as a DM drives the app.

Point 3: a side-d6 charge a round allows, declared in a surprise segment with the distance in
inches, is accepted and strikes there. Point 5: time units ask for the surprise d6s and the
monsters' 2d6 reaction. Point 6: the screen and the print say the same thing from one wording
(a shared segment is not "tied dice"; a quiet round names its dice; app-rolled d10s). Point 7:
a popcorn Bless lasting through round 2 stays in the status column in round 2.
"""

from __future__ import annotations

import re
from html import unescape

from PySide6.QtCore import Qt

from core.model.values import Step
from desktop.encounter.letter_board import LetterBoard
from desktop.encounter.popcorn_board import PopcornBoard
from desktop.encounter.tu_board import TimeUnitBoard
from desktop.encounter.workspace import EncounterWorkspace
from desktop.main_window import MainWindow
from tests.desktop.table.conftest import IdWatch, button
from tests.desktop.table.letter_helpers import drop_card, field, fill, record, start_fight, type_die
from tests.desktop.table.tu_helpers import declare, drop_action, new_time_units_encounter


def _names(ws: EncounterWorkspace) -> dict[str, str]:
    return {c.id: c.label for c in ws.controller.state.combatants.values()}


def _steps(ws: EncounterWorkspace, actor: str, event: str) -> list[Step]:
    names = _names(ws)
    resolution = ws.controller.resolution
    assert resolution is not None, ws.controller.error
    return [s for s in resolution.steps if names[s.actor] == actor and s.event == event]


def _tooltip(ws: EncounterWorkspace, step: Step) -> str:
    model = ws.steps_view.model()
    for row in range(model.rowCount()):
        index = model.index(row, 0)
        if index.data() == step.seq or str(index.data()) == str(step.seq):
            return _text(str(index.data(Qt.ItemDataRole.ToolTipRole)))
    raise AssertionError(f"step {step.seq} is not in the resolution list")


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def test_a_charge_a_round_allows_is_made_in_the_surprise_segment(
        table: MainWindow, ids: IdWatch) -> None:
    """side-d6.surprise.charge-a-round-allows: Orc 1 (Move 9″) charges Brannoc from 1″ with
    "charge" ticked in the surprise segment; it was refused ("needs 2 segments to reach"),
    now it strikes there. The distance field says its unit and what the figure means."""
    ws = start_fight(table, "side-d6")
    board = ws.board
    assert isinstance(board, LetterBoard)
    button(ws.stepper, "Check Surprise").click()
    type_die(ws, "surprise party", 1)
    type_die(ws, "surprise monsters", 5)
    drop_card(board, "Orc 1", "move")
    board.editor.charge.click()
    distance = field(board, "Distance")
    assert distance.suffix() == "″ (1″ = 10 ft)"  # type: ignore[attr-defined]
    distance.setValue(1)  # type: ignore[attr-defined]
    note = board.editor.distance_note.text()
    assert note.startswith("1″ is 10 ft. Orc 1 moves 9″ a round, 0.9″ a segment: 2 segments")
    assert "within a round's move: done in this surprise segment" in note
    distance.setValue(20)  # type: ignore[attr-defined]
    assert board.editor.distance_note.text().startswith("20″ is 200 ft.")
    assert "not in one surprise segment" in board.editor.distance_note.text()
    distance.setValue(1)  # type: ignore[attr-defined]
    fill(board, Target="Brannoc the Bold", Surprise_segment=1)
    assert board.message.text() == "", board.message.text()
    assert ws.controller.error is None, ws.controller.error
    charge = _steps(ws, "Orc 1", "charges")
    assert charge and charge[0].surprise and charge[0].segment == 1
    ws.select_step(charge[0].seq)  # the charge's blow is recorded on the charge
    ws.outcome.damage.setValue(3)
    ws.outcome.hit_button.click()
    assert ws.outcome.error.text() == "", ws.outcome.error.text()
    blow = _steps(ws, "Orc 1", "hits")
    assert blow and blow[0].surprise and blow[0].segment == 1
    assert "side-d6.surprise.charge-a-round-allows" in blow[0].because
    ids.check()


def test_a_shared_segment_reads_the_same_on_screen_and_on_paper(
        table: MainWindow, ids: IdWatch) -> None:
    """side-d6.initiative.shared-segment: Brannoc holds his blow to the orcs' segment; the
    row's tooltip and the printed "Why then" give one reason, and it is not tied dice."""
    ws = start_fight(table, "side-d6")
    board = ws.board
    assert isinstance(board, LetterBoard)
    drop_card(board, "Brannoc the Bold", "attack")
    fill(board, Target="Orc 1", Hold_to=5)
    drop_card(board, "Orc 1", "attack")
    fill(board, Target="Brannoc the Bold")
    type_die(ws, "initiative party", 5)
    type_die(ws, "initiative monsters", 2)
    record(ws, "Brannoc the Bold", "Orc 1", False)
    step = _steps(ws, "Brannoc the Bold", "misses")[0]
    assert step.segment == 5 and step.because[0] == "side-d6.initiative.shared-segment"
    why = ("sides that act in one segment without tied dice (a surprise segment both may act "
           "in, a missile bonus, a held action) act in it simultaneously, as tied sides do")
    assert f"Why then: {why}" in _tooltip(ws, step)
    printed = table.encounter_actions.summary_html(ws)
    assert printed is not None
    assert why in _text(printed) and "tied dice make" not in _text(printed).lower()
    ids.check()


def test_a_quiet_addict_round_says_what_the_print_says(table: MainWindow, ids: IdWatch) -> None:
    """Issue 25, point 6: an addict round whose initiative is rolled and in which no one has
    declared: the workspace's note and the printed round give the same sentence, dice named."""
    ws = start_fight(table, "addict")
    board = ws.board
    assert isinstance(board, LetterBoard)
    drop_card(board, "Brannoc the Bold", "G")
    fill(board, Target="Orc 1")
    type_die(ws, "initiative party", 4)
    type_die(ws, "initiative monsters", 1)
    record(ws, "Brannoc the Bold", "Orc 1", False)
    assert not ws.round_note.isVisibleTo(ws)
    button(board, "New Round").click()
    assert not ws.round_note.isVisibleTo(ws)  # a round being declared is not "quiet"
    type_die(ws, "initiative party", 3)
    assert not ws.round_note.isVisibleTo(ws)  # nor one whose dice are not all in
    type_die(ws, "initiative monsters", 5)
    note = ws.round_note.text()
    assert note == ("No one acted in this round: no action was declared. Its dice were "
                    "rolled: initiative party: 3; initiative monsters: 5.")
    assert ws.round_note.isVisibleTo(ws)
    printed = table.encounter_actions.summary_html(ws, 2, 2)
    assert printed is not None and note in _text(printed)
    assert "Nothing happens" not in printed
    drop_card(board, "Brannoc the Bold", "G")
    fill(board, Target="Orc 1")
    assert not ws.round_note.isVisibleTo(ws)
    ids.check()


def test_time_units_ask_for_surprise_and_the_reaction_roll(
        table: MainWindow, ids: IdWatch) -> None:
    """time-units.surprise.d6, time-units.surprise.first-action-from-tu-10 and
    time-units.encounter.reaction-2d6: Check Surprise asks each side's d6 and a 1 surprises the
    orcs (their first action counts from TU 10); Encounter Dice asks the monsters' 2d6
    reaction beside the d6s. The print says the d10s the app rolled were rolled by the app."""
    ws = new_time_units_encounter(table, orcs=1, seed=4)
    board = ws.board
    assert isinstance(board, TimeUnitBoard)
    button(ws.stepper, "Check Surprise").click()
    purposes = [r.request.purpose for r in ws.stepper.rows]
    assert purposes == ["surprise party", "surprise monsters"]
    type_die(ws, "surprise party", 5)
    type_die(ws, "surprise monsters", 1)
    ws.controller.stack.undo()
    ws.controller.stack.redo()
    button(ws.stepper, "Encounter Dice").click()
    asked = {(r.request.purpose, r.request.expression) for r in ws.stepper.rows}
    assert ("reaction monsters", "2d6") in asked
    assert ("encounter initiative party", "1d6") in asked
    assert ws.controller.stack.undoText() == "Ask for the encounter dice"
    type_die(ws, "reaction monsters", 7)
    drop_action(board, "melee", "Orc 1")
    declare(board, "Brannoc the Bold")
    drop_action(board, "melee", "Brannoc the Bold")
    declare(board, "Orc 1")
    button(ws.stepper, "Roll All Pending").click()
    assert ws.controller.rolls_needed() == []
    surprised = _steps(ws, "Orc 1", "surprised")
    assert surprised and surprised[0].tu == 0
    orc = _steps(ws, "Orc 1", "attacks")
    assert orc[0].tu is not None and orc[0].tu >= 10 + 1 + 5  # counted from TU 10
    assert "time-units.surprise.first-action-from-tu-10" in orc[0].because
    reaction = [r for r in ws.controller.resolution.rolls if r.purpose == "reaction monsters"]
    assert reaction and reaction[0].total == 7
    printed = _text(table.encounter_actions.summary_html(ws) or "")
    d10s = re.findall(r"initiative (?:Brannoc the Bold|Orc 1) 1d10 — \d+ (rolled by the app|"
                      r"typed in from the table)", printed)
    assert d10s == ["rolled by the app", "rolled by the app"], printed
    made = ws.stepper.made_model  # the screen's dice list says it in the same words
    tips = [made.item(r).toolTip() for r in range(made.rowCount())]
    assert sum("1d10" in t and t.endswith("— rolled by the app") for t in tips) == 2, tips
    assert re.search(r"reaction monsters 2d6 — 7 typed in from the table", printed), printed
    ids.check()


def test_a_bless_through_round_2_stays_in_the_status_column(
        table: MainWindow, ids: IdWatch) -> None:
    """popcorn.end.effect-durations: Sister Ysolde's 1-round Bless on Brannoc, begun in
    round 1, is at Duration 0 in round 2 and runs all through it: the status column shows it
    there (it vanished before), as the print of round 2 says it lasts."""
    from PySide6.QtTest import QTest

    from tests.desktop.table.popcorn_helpers import drop_on, key_on_card, lane, pick
    from tests.desktop.table.popcorn_helpers import type_die as type_d20
    from tests.desktop.table.test_popcorn_table import _start

    ws = _start(table)
    board = ws.board
    assert isinstance(board, PopcornBoard)
    for name, d20 in (("Brannoc the Bold", 5), ("Sister Ysolde", 19), ("Orc 1", 3),
                      ("Orc 2", 2)):
        type_d20(ws, f"initiative {name}", d20)

    def turn(actor: str, nominates: str | None, **effect: object) -> None:
        assert drop_on(board, lane(board, "other ["), actor)
        if effect:
            pick(board.editor.target, "Brannoc the Bold")
            board.editor.effect_name.setText(str(effect["name"]))
            board.editor.effect_duration.setValue(int(str(effect["rounds"])))
        if nominates:
            pick(board.editor.nominates, nominates)
        QTest.keyClick(board.editor.target, Qt.Key.Key_Return)
        assert board.editor.isHidden(), board.message.text()

    turn("Sister Ysolde", "Brannoc the Bold", name="Bless", rounds=1)
    turn("Brannoc the Bold", "Orc 1")
    turn("Orc 1", "Orc 2")
    turn("Orc 2", None)
    key_on_card(board, "Brannoc the Bold", "N")  # the last of the round names who opens
    # The orcs' morale dice, typed low: both stand (a rolled die could rout Orc 1, whom
    # Brannoc names in round 2).
    while morale := [r for r in ws.stepper.rows if r.request.purpose.startswith("morale")]:
        type_d20(ws, morale[0].request.purpose, 2)
    assert ws.controller.rolls_needed() == []
    assert ws.controller.error is None, ws.controller.error

    def bless_note() -> str:
        status = ws.status_model
        row = next(r for r in range(status.rowCount())
                   if status.index(r, 0).data() == "Brannoc the Bold")
        return status.notes_of(row)

    assert bless_note() == "Bless: 1 more round"
    button(board, "New Round").click()
    turn("Brannoc the Bold", "Orc 1")
    assert bless_note() == "Bless: ends at the end of this round"
    printed = _text(table.encounter_actions.summary_html(ws, 2, 2) or "")
    assert "Bless" in printed and "ends at the end of this round" in printed
    ids.check()


def test_a_pc_at_zero_spends_a_death_save_and_the_roster_counts_it(
        table: MainWindow, ids: IdWatch, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """popcorn.death.death-saves at the table: the roster form holds Brannoc's lifetime Death
    saves (2 left); an orc drops him to 0 in a popcorn fight and he is out of the fight, not
    dead; End proposes Death saves 2 → 1 and Apply writes it (one Ctrl+Z takes it back)."""
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QMessageBox

    from desktop.roster.results_dialog import ResultsDialog
    from tests.desktop.table.conftest import action
    from tests.desktop.table.popcorn_helpers import type_die as type_d20
    from tests.desktop.table.results_helpers import Questions
    from tests.desktop.table.test_popcorn_table import _record, _start, _take

    monkeypatch.setattr(QMessageBox, "question", staticmethod(Questions()))
    brannoc = next(e for e in table.entries if e.name == "Brannoc the Bold")
    assert brannoc.death_saves == 3 and table.roster_panel.select_entry(brannoc.id or 0)
    QApplication.processEvents()
    editor = table.editor
    saves = editor.fields["death_saves"]
    saves.selectAll()
    QTest.keyClicks(saves, "5")
    assert editor.reasons["death_saves"].text() == "Death saves are 0–3 (lifetime)."
    assert not editor.save_button.isEnabled()
    saves.selectAll()
    QTest.keyClicks(saves, "2")
    assert editor.reasons["death_saves"].text() == "" and editor.save_button.isEnabled()
    editor.save_button.click()

    def stored() -> int:
        campaign = table.campaign
        assert campaign is not None
        return next(e.death_saves for e in table.store.roster.entries(campaign.id)
                    if e.name == "Brannoc the Bold")

    assert stored() == 2

    ws = _start(table)
    board = ws.board
    assert isinstance(board, PopcornBoard)
    for name, d20 in (("Brannoc the Bold", 5), ("Sister Ysolde", 9), ("Orc 1", 19),
                      ("Orc 2", 2)):
        type_d20(ws, f"initiative {name}", d20)
    _take(board, "Orc 1", "attack", target="Brannoc the Bold", nominates="Sister Ysolde")
    _record(ws, "Orc 1", True, 40)
    names = _names(ws)
    fell = next(s for s in ws.controller.resolution.steps if s.event == "hits")
    assert fell.detail["death_saves_left"] == 1 and names[str(fell.target)] == "Brannoc the Bold"
    assert not [s for s in ws.controller.resolution.steps if s.event == "dies"]
    assert ws.controller.resolution.combatants[str(fell.target)].status == "unconscious"
    assert "Brannoc the Bold spends a Death save and is out of the fight (1 Death save left)" \
        in _tooltip(ws, fell)
    ids.check()

    action(table, "End Encounter").trigger()
    dialog = table.encounter_actions.dialog
    assert isinstance(dialog, ResultsDialog), dialog
    assert "Brannoc the Bold: Death saves 2 → 1 (1 spent in this fight)" in dialog.descriptions()
    button(dialog, "Apply").click()
    assert stored() == 1
    table.undo_action.trigger()
    assert stored() == 2
    table.redo_action.trigger()
    assert stored() == 1
