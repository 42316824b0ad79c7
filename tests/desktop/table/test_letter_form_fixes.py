"""A new DM's findings on the letter boards (addict, side-d6), each played as the DM did it:
a typed Delay of 0 s, stale "Surprised" lines, the wheel changing fields while scrolling,
spells offered after they were spent, and a form or timer that moved under the mouse."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox, QSpinBox, QWidget

from desktop.encounter.card_delegate import clipped_lines
from desktop.encounter.letter_board import LetterBoard
from desktop.encounter.workspace import EncounterWorkspace
from desktop.main_window import MainWindow
from tests.desktop.table.conftest import button
from tests.desktop.table.letter_helpers import (
    combo_texts,
    declarations,
    drop_card,
    field,
    fill,
    key_card,
    lane,
    press_on_lane,
    record,
    start_fight,
    type_die,
)


def _board(ws: EncounterWorkspace) -> LetterBoard:
    board = ws.board
    assert isinstance(board, LetterBoard)
    return board


def _type_into(spin: QWidget, text: str) -> None:
    """Clicks into a spin box, selects what it shows and types ``text`` over it."""
    assert isinstance(spin, QSpinBox)
    spin.setFocus()
    spin.selectAll()
    QTest.keyClicks(spin, text)


def _wheel(widget: QWidget, notches: int = 2) -> None:
    """Turns the mouse wheel over ``widget`` (down), as when scrolling the form past it."""
    centre = QPointF(widget.rect().center())
    for _ in range(notches):
        event = QWheelEvent(
            centre,
            QPointF(widget.mapToGlobal(QPoint(0, 0))) + centre,
            QPoint(0, 0),
            QPoint(0, -120),
            Qt.MouseButton.NoButton,
            Qt.KeyboardModifier.NoModifier,
            Qt.ScrollPhase.NoScrollPhase,
            False,
        )
        QApplication.sendEvent(widget, event)


# --- 1. a typed Delay of 0 s is the DM's figure ---------------------------------------------------


def test_a_typed_delay_of_0_wins_over_the_timer_and_a_change_keeps_it(
    table: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = start_fight(table, "addict")
    board = _board(ws)
    button(board, "Start Round 1").click()
    button(board, "New Round").click()
    assert board.round_label.text() == "<b>Round 2</b>"
    key_card(board, "Garrick", "G")  # a player's combatant: the clock starts
    delay = field(board, "Delay")
    assert isinstance(delay, QSpinBox) and delay.text() == "from the timer"
    monkeypatch.setattr(board.timer, "elapsed", lambda: 23_400)
    _type_into(delay, "0")
    assert delay.text() == "0 s"
    fill(board, Target="Orc 2")
    entry = declarations(ws)[0]
    assert entry["delay_seconds"] == 0, entry  # written, not left to the timer's 23 s
    assert (
        "0 s typed" in board.timer_label.text() and "delay 0 segments" in board.timer_label.text()
    ), board.timer_label.text()
    type_die(ws, "initiative party", 2)
    type_die(ws, "initiative monsters", 5)
    resolution = ws.controller.resolution
    assert resolution is not None
    names = {c.id: c.label for c in ws.controller.state.combatants.values()}
    blow = next(s for s in resolution.steps if names[s.actor] == "Garrick")
    assert blow.segment == 1, blow  # no declaration delay: 23 s would have made it segment 4

    # Changing the target keeps the 0 s saved; typing another figure replaces it.
    press_on_lane(board, "G · strike [G]", "Garrick", Qt.Key.Key_Return)
    assert field(board, "Delay").text() == "0 s"
    fill(board, Target="Orc 1")
    assert declarations(ws)[0]["delay_seconds"] == 0
    assert declarations(ws)[0]["target"] != entry["target"]
    press_on_lane(board, "G · strike [G]", "Garrick", Qt.Key.Key_Return)
    _type_into(field(board, "Delay"), "13")
    fill(board)
    assert declarations(ws)[0]["delay_seconds"] == 13


def test_a_timed_declaration_changed_keeps_the_timers_seconds(
    table: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = start_fight(table, "addict")
    board = _board(ws)
    key_card(board, "Garrick", "G")
    monkeypatch.setattr(board.timer, "elapsed", lambda: 13_400)
    fill(board, Target="Orc 1")  # Delay left at "from the timer"
    assert declarations(ws)[0]["delay_seconds"] == 13
    assert "declared in 13 s" in board.timer_label.text()
    press_on_lane(board, "G · strike [G]", "Garrick", Qt.Key.Key_Return)
    assert field(board, "Delay").text() == "13 s"
    fill(board, Target="Orc 2")
    assert declarations(ws)[0]["delay_seconds"] == 13


# --- 2. the round header says "Surprised" only while surprise is current --------------------------


@pytest.mark.parametrize("system, blow",
                         [("addict", "G · strike [G]"), ("side-d6", "attack")])
def test_surprised_is_said_only_before_and_during_the_surprise_segments(
    table: MainWindow, system: str, blow: str
) -> None:
    ws = start_fight(table, system, orcs=3)
    board = _board(ws)
    button(ws.stepper, "Check Surprise").click()
    type_die(ws, "surprise party", 5)
    type_die(ws, "surprise monsters", 2)
    assert "Surprised: Orc 1, Orc 2, Orc 3." in board.dice_label.text()
    drop_card(board, "Brannoc the Bold", blow)
    fill(board, Target="Orc 3", Surprise_segment=1)
    record(ws, "Brannoc the Bold", "Orc 3", True, 20)  # Orc 3 dies in the surprise segment
    assert "Surprised: Orc 1, Orc 2, Orc 3." in board.dice_label.text()
    button(board, "Start Round 2").click()
    assert "Surprised" not in board.dice_label.text(), board.dice_label.text()
    assert "Orc 3" not in board.dice_label.text()
    type_die(ws, "initiative party", 3)
    type_die(ws, "initiative monsters", 4)
    button(board, "New Round").click()
    assert board.round_label.text() == "<b>Round 3</b>"
    assert "Surprised" not in board.dice_label.text(), board.dice_label.text()


# --- 3. the wheel scrolls past the form's fields ---------------------------------------------


@pytest.mark.parametrize("system, blow",
                         [("addict", "G · strike [G]"), ("side-d6", "charge")])
def test_the_wheel_changes_no_field_of_the_form_the_dm_has_not_clicked_into(
    table: MainWindow, system: str, blow: str
) -> None:
    ws = start_fight(table, system)
    board = _board(ws)
    drop_card(board, "Brannoc the Bold", blow)
    fill_in = {"Target": "Orc 2"}
    for label, value in fill_in.items():
        combo = field(board, label)
        assert isinstance(combo, QComboBox)
        combo.setCurrentIndex(combo.findText(value))
    board.cards.setFocus()  # the DM's focus is elsewhere; the mouse passes over the form
    QApplication.processEvents()
    fields = [
        w
        for w in (*board.editor.findChildren(QComboBox), *board.editor.findChildren(QSpinBox))
        if w.isVisibleTo(board)
    ]
    assert field(board, "Target") in fields and field(board, "Weapon") in fields
    assert any(isinstance(w, QSpinBox) for w in fields)
    shown = {id(w): w.currentText() if isinstance(w, QComboBox) else w.text() for w in fields}
    for widget in fields:
        _wheel(widget)
    after = {id(w): w.currentText() if isinstance(w, QComboBox) else w.text() for w in fields}
    assert after == shown
    assert field(board, "Target").currentText() == "Orc 2"  # type: ignore[attr-defined]
    # Clicked into, the list still follows the wheel.
    target = field(board, "Target")
    target.setFocus()
    QApplication.processEvents()
    if target.hasFocus():  # focus needs an active window (offscreen platforms give one)
        _wheel(target, 1)
        assert field(board, "Target").currentText() != "Orc 2"  # type: ignore[attr-defined]


# --- 4. spells cast or lost are not offered again ---------------------------------------------


def test_a_spell_cast_or_lost_this_fight_is_no_longer_offered(table: MainWindow) -> None:
    ws = start_fight(table, "addict")
    board = _board(ws)
    drop_card(board, "Halvaine the Arcane", "D · missile, spell [D]")
    assert "Magic missile" in combo_texts(board, "Spell")
    fill(board, Target="Orc 2", Spell="Magic missile")
    drop_card(board, "Sister Ysolde", "D · missile, spell [D]")
    fill(board, Target="Orc 1", Spell="Hold person")  # five segments to cast
    key_card(board, "Orc 1", "G")
    fill(board, Target="Sister Ysolde")
    type_die(ws, "initiative party", 1)
    type_die(ws, "initiative monsters", 6)  # the orc strikes before the spell goes off
    record(ws, "Orc 1", "Sister Ysolde", True, 2)
    resolution = ws.controller.resolution
    assert resolution is not None
    events = {str(s.event) for s in resolution.steps}
    assert {"spell-takes-effect", "spell-disrupted"} <= events, events

    # The cast spell and the lost one stay offered in their own declarations (being changed)…
    press_on_lane(board, "D · missile, spell [D]", "Halvaine", Qt.Key.Key_Return)
    assert field(board, "Spell").currentText() == "Magic missile"  # type: ignore[attr-defined]
    board.editor.close_editor()

    button(board, "New Round").click()
    drop_card(board, "Halvaine the Arcane", "D · missile, spell [D]")
    assert combo_texts(board, "Spell") == ["—", "Sleep", "Web"]
    board.editor.close_editor()
    drop_card(board, "Sister Ysolde", "D · missile, spell [D]")
    assert combo_texts(board, "Spell") == ["—", "Cure light wounds", "Bless"]
    fill(board, Target="Brannoc the Bold", Spell="Bless")
    press_on_lane(board, "D · missile, spell [D]", "Sister Ysolde", Qt.Key.Key_Return)
    assert combo_texts(board, "Spell") == ["—", "Cure light wounds", "Bless"]


# --- 5. the form and the timer stay where they are -----------------------------------------------


def test_the_timer_stays_one_line_and_a_new_form_opens_at_its_top(table: MainWindow) -> None:
    ws = start_fight(table, "addict")
    board = _board(ws)
    QApplication.processEvents()
    form_at = board.editor_area.geometry()
    timer_height = board.timer_label.height()
    key_card(board, "Halvaine the Arcane", "D")  # "Timer: Halvaine the Arcane declaring…"
    board._show_timer()
    QApplication.processEvents()
    assert "Halvaine the Arcane declaring" in board.timer_label.text()
    assert board.timer_label.height() == timer_height
    assert board.editor_area.geometry() == form_at  # nothing moved as the clock started
    assert board.timer_label.toolTip() == board.timer_label.text()  # the whole line on hover

    bar = board.editor_area.verticalScrollBar()
    assert bar.maximum() > 0, "the form should be taller than its place at 1280x720"
    bar.setValue(bar.maximum())  # the DM scrolled down to Delay, then cancelled
    board.editor.close_editor()
    key_card(board, "Orc 1", "G")
    QApplication.processEvents()
    assert bar.value() == 0
    target = field(board, "Target")
    top = target.mapTo(board.editor_area.viewport(), QPoint(0, 0)).y()
    assert 0 <= top < board.editor_area.viewport().height()  # Target in sight
    fill(board, Target="Garrick")
    assert lane(board, "G · strike [G]").model.texts() == ["Orc 1 → Garrick"]


# --- 6. cards on two lines, so a lane at 1280x720 shows more than one ---------------------------


@pytest.mark.parametrize("system, blow",
                         [("addict", "G · strike [G]"), ("side-d6", "attack")])
def test_a_lane_at_1280x720_shows_two_whole_cards_each_naming_actor_and_target(
    table: MainWindow, system: str, blow: str
) -> None:
    ws = start_fight(table, system)
    board = _board(ws)
    for actor, target in (
        ("Halvaine the Arcane", "Orc 2"),
        ("Brannoc the Bold", "Orc 1"),
        ("Orc 2", "Pip Underbough"),
    ):
        drop_card(board, actor, blow)
        fill(board, Target=target)
    QApplication.processEvents()
    view = lane(board, blow).view
    model = view.model()
    line = view.fontMetrics().lineSpacing()
    rects = [view.visualRect(model.index(row, 0)) for row in range(model.rowCount())]
    assert all(r.height() <= 4 * line + 8 for r in rects), [r.height() for r in rects]
    shown = [r for r in rects if view.viewport().rect().contains(r)]
    assert len(shown) >= 2, (view.viewport().height(), [r.height() for r in rects])
    # What is drawn: the actor first, "→ target" starting a line of its own, nothing cut
    # (issue 24); the whole card in the tooltip too.
    width = view.viewport().width() - 6
    for row, (actor, target) in enumerate((("Halvaine", "Orc 2"), ("Brannoc", "Orc 1"))):
        index = model.index(row, 0)
        lines = clipped_lines(str(index.data()), view.font(), width, 6)
        assert lines[0].startswith(actor[:3]) and not any("…" in x for x in lines), lines
        assert any(x.startswith("→ " + target[:3]) for x in lines[1:]), lines
        assert str(index.data()) in str(index.data(Qt.ItemDataRole.ToolTipRole))
