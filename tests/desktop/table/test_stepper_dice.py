"""The procedure stepper and the dice at the table: the phase follows play, paging through the
phases is no undo step, all pending dice roll as one step, Enter walks from die to die, names
on every die, and the New Encounter options hold still under the wheel and refuse bad values."""

from __future__ import annotations

import itertools

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QSpinBox
from pytestqt.qtbot import QtBot

from desktop.encounter.letter_board import LetterBoard
from desktop.encounter.stepper import NOW_MARK
from desktop.main_window import MainWindow
from tests.desktop.encounter.conftest import drop_card, fill_and_declare
from tests.desktop.table import conftest as table_conftest
from tests.desktop.table.conftest import IdWatch, button
from tests.desktop.table.stepper_helpers import new_encounter, safe_model_texts, stepper_leaks


@pytest.fixture(autouse=True)
def _guard_walks_table_models(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_conftest, "_model_texts", safe_model_texts)


def _marked(ws) -> str:  # type: ignore[no-untyped-def]
    """Gets the title of the phase the stepper marks as the engine's (▶)."""
    items = [ws.stepper.phase_list.item(i).text() for i in range(ws.stepper.phase_list.count())]
    marked = [t for t in items if t.startswith(NOW_MARK)]
    assert len(marked) == 1, items
    return marked[0].removeprefix(NOW_MARK)


def test_the_stepper_follows_play_and_paging_is_no_undo_step(table: MainWindow) -> None:
    """addict.surprise.check, addict.declare.action-letters, addict.initiative.side-d6: the
    marked phase is the one the engine waits for, round after round; Next Phase only moves
    the view, so Ctrl+Z still takes back the DM's real work."""
    ws = new_encounter(table, "addict", orcs=2, fighters=2)
    stepper, stack = ws.stepper, ws.controller.stack
    assert _marked(ws) == "Phase 1: Reaction check"
    before = stack.count()
    for _ in range(10):  # page through to Phase 11 and look at it
        button(stepper, "Next Phase").click()
    assert stack.count() == before  # not an undo step
    assert stepper.current_phase().title == "Phase 11: Reset or recovery"
    assert _marked(ws) == "Phase 1: Reaction check"  # the engine still waits at Phase 1
    assert "Reading Phase 11" in stepper.now_label.text()
    button(stepper, "Check Surprise").click()
    assert _marked(ws) == "Phase 2: Surprise check"
    assert stepper.current_phase().title == "Phase 2: Surprise check"  # the view follows again
    stepper.rows[0].field.setText("4")
    QTest.keyClick(stepper.rows[0].field, Qt.Key.Key_Return)
    stepper.rows[0].field.setText("5")
    QTest.keyClick(stepper.rows[0].field, Qt.Key.Key_Return)
    assert _marked(ws) == "Phase 6: Action declarations"  # nobody surprised
    board = ws.board
    assert isinstance(board, LetterBoard)
    pc = next(c for c in ws.controller.state.combatants.values() if c.side == "party")
    orc = next(c for c in ws.controller.state.combatants.values() if c.side == "monsters")
    assert drop_card(board, board.lanes["G"].model, pc.id)
    fill_and_declare(board, target=orc.id)
    assert _marked(ws) == "Phase 7: Initiative check"
    button(stepper, "Roll All Pending (2)").click()
    assert _marked(ws) == "Phase 8: Action resolution"
    button(stepper, "Next Phase").click()  # read Phase 9 while resolving
    assert stepper.current_phase().title == "Phase 9: Bleeding"
    QApplication.processEvents()
    table.grab().save("/work/wt/shots/stepper-addict-reading-phase-9.png")
    board.start_next_round()
    assert _marked(ws) == "Phase 6: Action declarations"  # round 2: not Phase 11 or 9
    assert stepper.current_phase().title == "Phase 6: Action declarations"
    assert all(not stack.text(i).startswith("Phase") for i in range(stack.count()))
    stack.undo()  # Ctrl+Z takes back the new round, the DM's last real command
    assert _marked(ws) == "Phase 8: Action resolution"
    assert not stepper_leaks(ws)


def test_popcorn_leaves_roll_initiative_once_the_d20s_are_in(table: MainWindow) -> None:
    """popcorn.initiative.d20-plus-modifier, popcorn.turn.take-action."""
    ws = new_encounter(table, "popcorn", orcs=1, fighters=1)
    assert _marked(ws) == "Roll Initiative"
    button(ws.stepper, "Roll All Pending (2)").click()
    assert _marked(ws) == "Take Action"


def test_roll_all_pending_is_one_undo_step_and_enter_walks_the_dice(
        table: MainWindow, ids: IdWatch, qtbot: QtBot) -> None:
    """popcorn.initiative.d20-plus-modifier: eight d20s, named, each field usable at 1280×720;
    Enter in one moves to the next; Roll All Pending rolls the rest as one Ctrl+Z."""
    ws = new_encounter(table, "popcorn", orcs=2)
    stepper = ws.stepper
    assert len(stepper.rows) == 8
    QApplication.processEvents()
    assert stepper.needed_scroll.verticalScrollBar().maximum() > 0  # the dice scroll
    table.grab().save("/work/wt/shots/stepper-8-pending-dice.png")
    ws.stepper.grab().save("/work/wt/shots/stepper-8-pending-dice-close.png")
    names = {c.label for c in ws.controller.state.combatants.values()}
    labels = [row.text for row in stepper.rows]
    assert all(label.startswith("Initiative: ") for label in labels)
    assert {label.removeprefix("Initiative: ") for label in labels} == names
    for row in stepper.rows:  # no squeezed fields, no overlapping labels
        assert row.field.height() >= row.field.sizeHint().height() >= 16
        assert row.field.width() >= 44
        assert not row.label.geometry().intersects(row.field.geometry())
        assert row.label.height() >= row.label.heightForWidth(row.label.width())
    for upper, lower in itertools.pairwise(stepper.rows):  # each below the one before
        assert lower.geometry().top() >= upper.geometry().bottom()
    first = stepper.rows[0]
    first.field.setFocus()
    QTest.keyClicks(first.field, "17")
    QTest.keyClick(first.field, Qt.Key.Key_Return)
    assert len(stepper.rows) == 7
    assert table.focusWidget() is stepper.rows[0].field  # the next die
    QTest.keyClicks(stepper.rows[0].field, "25")  # no d20 shows 25: refused, focus stays
    QTest.keyClick(stepper.rows[0].field, Qt.Key.Key_Return)
    assert stepper.rows[0].error.text() and len(stepper.rows) == 7
    assert table.focusWidget() is stepper.rows[0].field
    count = ws.controller.stack.count()
    button(stepper, "Roll All Pending (7)").click()
    assert not stepper.rows and ws.controller.stack.count() == count + 1
    assert ws.controller.stack.text(count) == "Roll 7 pending dice"
    assert len(ws.controller.state.fields["initiative"]) == 8
    ws.controller.stack.undo()  # one Ctrl+Z takes all seven back
    assert len(stepper.rows) == 7 and len(ws.controller.state.fields["initiative"]) == 1
    table.grab().save("/work/wt/shots/stepper-undo-roll-all.png")
    assert not stepper_leaks(ws)
    assert not [m for m in ids.messages if "roster-" in m]  # no status message names an id


def _wheel(widget, delta: int = -120) -> None:  # type: ignore[no-untyped-def]
    center = QPointF(widget.rect().center())
    event = QWheelEvent(center, QPointF(widget.mapToGlobal(QPoint(0, 0))) + center,
                        QPoint(0, 0), QPoint(0, delta), Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


def test_the_options_do_not_change_under_the_wheel_and_refuse_bad_values(
        table: MainWindow) -> None:
    """addict.surprise.segments (fixed_surprise_segments), addict.death.dead (death_at)."""
    dialog = table.encounter_actions.ask_new_encounter()
    assert dialog is not None
    dialog.set_system("addict")
    form = dialog.options_form
    assert form is not None
    segments = form.editors["fixed_surprise_segments"]
    assert isinstance(segments, QSpinBox)
    assert segments.minimum() == 0 and segments.maximum() == 10
    QApplication.processEvents()  # the form is laid out: it is taller than its scroll area
    bar = dialog.options_area.verticalScrollBar()
    assert bar.maximum() > 0
    bar.setValue(0)
    _wheel(segments)  # the DM scrolls the form with the pointer over the spin box
    assert segments.value() == 0
    assert bar.value() > 0  # the form scrolled instead
    segments.setFocus()  # clicked or tabbed to: now the wheel is the DM's intent
    QApplication.processEvents()
    if segments.hasFocus():
        _wheel(segments, 120)
        assert segments.value() == 1
    segments.setValue(0)
    QTest.keyClicks(segments, "-3")  # a minus cannot be typed below the range
    assert segments.value() >= 0
    death = form.editors["death_at"]
    assert isinstance(death, QSpinBox)
    death.setValue(-2)
    form.editors["unconscious_at"].setValue(-5)  # type: ignore[attr-defined]
    dialog.set_count("Orc", 1)
    before = len(table.encounter_actions.open_menu.actions())
    button(dialog, "OK").click()
    assert "death at (-2) must not be above unconscious at (-5)" in dialog.error.text()
    assert form.error.isVisible() and dialog.isVisible()
    assert len(table.encounter_actions.open_menu.actions()) == before  # nothing started
    death.setValue(-10)
    button(dialog, "OK").click()
    assert not dialog.isVisible()


def test_heal_and_a_condition_recorded_on_a_step_and_taken_back(table: MainWindow) -> None:
    """addict.care.heal, addict.care.condition, addict.care.cannot-act: Sister Ysolde's Cure
    light wounds heals Brannoc after the orc's blow; her Hold person next round holds the orc,
    whose blow then does not happen; Ctrl+Z takes each back."""
    from desktop.encounter.care_controls import CareControls
    from tests.desktop.table.stepper_helpers import declare

    ws = new_encounter(table, "addict", orcs=1, fighters=2)
    care = CareControls(ws.controller)
    ws.outcome.layout().addWidget(care)  # as the outcome panel embeds it
    people = {c.label: c.id for c in ws.controller.state.combatants.values()}
    brannoc, ysolde, orc = people["Brannoc the Bold"], people["Sister Ysolde"], people["Orc 1"]
    board = ws.board
    declare(board, orc, "G", target=brannoc)
    declare(board, ysolde, "D", spell="Cure light wounds", target=brannoc)
    stepper = ws.stepper
    stepper.rows[0].field.setText("2")  # party
    QTest.keyClick(stepper.rows[0].field, Qt.Key.Key_Return)
    stepper.rows[0].field.setText("5")  # monsters win: the orc strikes first
    QTest.keyClick(stepper.rows[0].field, Qt.Key.Key_Return)
    resolution = ws.controller.resolution
    assert resolution is not None
    blow = next(s for s in resolution.steps if s.actor == orc)
    ws.select_step(blow.seq)
    ws.outcome.damage.setValue(5)
    ws.outcome.hit_button.click()
    cure = next(s for s in ws.controller.resolution.steps
                if s.actor == ysolde and str(s.event) == "spell-takes-effect")
    ws.select_step(cure.seq)
    care.set_step(cure)
    care.heal.setValue(8)
    count = ws.controller.stack.count()
    care.heal_button.click()
    assert care.error.text() == ""
    assert ws.controller.stack.count() == count + 1
    heal = next(s for s in ws.controller.resolution.steps if str(s.event) == "heals")
    assert heal.target == brannoc and heal.detail == {"healed": 5, "hp": 24}  # never above max
    ws.controller.stack.undo()
    assert not [s for s in ws.controller.resolution.steps if str(s.event) == "heals"]
    ws.controller.stack.redo()

    board.start_next_round()
    declare(board, ysolde, "D", spell="Hold person", target=orc)
    declare(board, orc, "G", target=ysolde)
    button(stepper, "Roll All Pending (2)").click()
    hold = next(s for s in ws.controller.resolution.steps
                if s.actor == ysolde and s.round == 2 and str(s.event) == "spell-takes-effect")
    ws.select_step(hold.seq)
    care.set_step(hold)
    care.condition.setCurrentText("held")
    assert care.on.currentText() == "Orc 1"  # the spell's target, by name
    care.rounds.setValue(2)
    care.start_button.click()
    steps = ws.controller.resolution.steps
    QApplication.processEvents()
    table.grab().save("/work/wt/shots/stepper-care-controls.png")
    care.resize(380, care.sizeHint().height())
    care.grab().save("/work/wt/shots/stepper-care-controls-close.png")
    started = next(s for s in steps if str(s.event) == "condition-starts")
    assert started.actor == orc and started.detail["condition"] == "held"
    entry = ws.controller.state.rounds[1]["declarations"][0]
    assert entry["conditions"] == [{"name": "held", "rounds": 2}]
    board.start_next_round()  # round 3: the held orc's blow does not happen
    declare(board, orc, "G", target=ysolde)
    button(stepper, "Roll All Pending (2)").click()
    held = [s for s in ws.controller.resolution.steps if str(s.event) == "cannot-act"]
    assert [(s.actor, s.round, s.detail["condition"]) for s in held] == [(orc, 3, "held")]
    for _ in range(3):  # the dice, the declaration, the round
        ws.controller.stack.undo()
    ws.controller.stack.undo()  # one Ctrl+Z: the condition is off again
    assert "conditions" not in ws.controller.state.rounds[1]["declarations"][0]
    assert not stepper_leaks(ws)
