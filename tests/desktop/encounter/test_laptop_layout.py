"""The encounter workspace at a laptop's size (issue 24): each of the four boards mid-round,
4 PCs and 8 monsters with names up to 24 characters, at 1280×720 and 1366×768.

Every button of the declaration form, the outcome panel and the stepper lies whole inside the
window, unclipped by any scroll area; the resolution list shows at least 12 rows; every
timeline row is named; no lane card's text is cut. The procedure shares its place with the
combatants as a tab (the default layout): it is brought forward as play brings it, and then
checked. Screenshots: tests/desktop/encounter/laptop_shots.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QLabel,
    QListView,
    QPushButton,
    QScrollArea,
    QWidget,
)

from core.store import Store
from desktop.encounter.card_delegate import ClippedCardDelegate, clipped_lines
from desktop.encounter.popcorn_board import PopcornBoard
from desktop.encounter.workspace import EncounterWorkspace
from desktop.main_window import MainWindow
from tests.desktop.encounter.laptop_fights import MONSTER_IDS, PC_IDS, SYSTEMS
from tests.desktop.encounter.laptop_shots import open_fight

SIZES = ((1280, 720), (1366, 768))
FORM_ACTION = {"addict": "G", "side-d6": "attack", "popcorn": "attack", "time-units": "melee"}


def _settle() -> None:
    for _ in range(4):
        QApplication.processEvents()


def _whole_in_window(window: MainWindow, widget: QWidget) -> str | None:
    """Gets why a shown widget is not whole in view (None: it is)."""
    if not widget.isVisibleTo(window):
        return None
    top_left = widget.mapTo(window, widget.rect().topLeft())
    rect = QRect(top_left, widget.size())
    if not window.rect().contains(rect):
        return f"{widget.text() if isinstance(widget, QPushButton) else widget}: {rect} outside"
    if widget.visibleRegion().boundingRect() != widget.rect():
        return f"{widget.text() if isinstance(widget, QPushButton) else widget}: clipped " \
               f"to {widget.visibleRegion().boundingRect()} of {widget.rect()}"
    return None


def _buttons(widget: QWidget) -> list[QPushButton]:
    return [b for b in widget.findChildren(QPushButton) if not b.isHidden()]


def _cut_cards(view: QListView) -> list[str]:
    """Gets the cards of a lane whose text is cut (elided or wider than the lane)."""
    model = view.model()
    delegate = view.itemDelegate()
    metrics = QFontMetrics(view.font())
    width = view.viewport().width() - 6
    cut = []
    for row in range(model.rowCount()):
        text = str(model.index(row, 0).data())
        if not isinstance(delegate, ClippedCardDelegate):  # Qt's own wrap elides unseen
            return [f"no whole-card painting in this lane: {text}"]
        lines = clipped_lines(text, view.font(), width, delegate.max_lines)
        painted = view.visualRect(model.index(row, 0)).height()
        if painted < len(lines) * metrics.lineSpacing():  # a wrapped line left unpainted
            cut.append(f"{text} ({len(lines)} lines in {painted} px)")
            continue
        # A word wider than the lane is broken inside it ("Stouthear" / "t"): cut as well.
        if any("…" in line for line in lines) or any(
                metrics.horizontalAdvance(word) > width for word in text.split()):
            cut.append(text)
    return cut


@pytest.fixture
def laptop(qtbot: Any, sample_store: Store, settings: Any, request: Any) -> MainWindow:
    window = MainWindow(sample_store, settings)
    qtbot.addWidget(window)
    width, height = request.param
    window.resize(width, height)
    window.show()
    _settle()
    assert (window.width(), window.height()) == (width, height)
    return window


@pytest.mark.parametrize("laptop", SIZES, indirect=True, ids=["1280x720", "1366x768"])
@pytest.mark.parametrize("system", SYSTEMS)
def test_the_workspace_fits_a_laptop(laptop: MainWindow, sample_store: Store,
                                     system: str) -> None:
    window = laptop
    ws: EncounterWorkspace = open_fight(window, sample_store, system)
    _settle()
    problems: list[str] = []

    # The resolution list: at least 12 whole rows.
    view = ws.steps_view
    assert ws.steps_model.rowCount() >= 12, ws.steps_model.rowCount()
    twelfth = view.visualRect(ws.steps_model.index(11, 0))
    if not view.viewport().rect().contains(twelfth):
        problems.append(f"resolution list: row 12 at {twelfth} of {view.viewport().rect()}")

    # The outcome panel, a step selected.
    ws.select_step(ws.steps_model.step_at(5).seq)  # type: ignore[union-attr]
    _settle()
    problems += [p for b in _buttons(ws.outcome) if (p := _whole_in_window(window, b))]

    # The declaration form open on a PC, its buttons in view.
    board = ws.board
    assert board.open_editor(PC_IDS[0], FORM_ACTION[system])
    _settle()
    assert board.editor.isVisible()
    problems += [p for b in _buttons(board.editor.button_bar)
                 if (p := _whole_in_window(window, b))]
    assert board.editor.submit_button.isVisible()

    # Lane cards: none cut.
    for lane in board.findChildren(QListView):
        if lane.objectName() != "cards" and lane.model() is not None \
                and lane.isVisibleTo(window) and "Lane" in type(lane).__name__:
            problems += [f"lane card cut: {t}" for t in _cut_cards(lane)]

    # The stepper, brought forward.
    ws.panels.show_panel("procedureDock")
    _settle()
    problems += [p for b in _buttons(ws.stepper) if (p := _whole_in_window(window, b))]

    # The timeline, brought forward: every row named.
    ws.panels.show_panel("timelineDock")
    _settle()
    names = set(ws.timeline.named_rows())
    rows = ws.timeline.timeline_layout.rows
    assert len(rows) == 12
    problems += [f"timeline row not named: {r.label}" for r in rows if r.label not in names]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("laptop", SIZES, indirect=True, ids=["1280x720", "1366x768"])
def test_the_declaration_timer_is_read_whole(laptop: MainWindow, sample_store: Store) -> None:
    """addict's timer says who took how long and the delay it gives, never cut with "…"."""
    ws = open_fight(laptop, sample_store, "addict")
    _settle()
    board: Any = ws.board
    name = board.labels()[PC_IDS[0]]
    assert len(name) >= 20
    board._show_timer()
    assert board.timer_label.text().startswith("The timer starts")
    assert not board.timer_label.is_cut(), board.timer_label.shown_text()
    board.last_timed = (name, 13, 21)  # a time typed over the clock's
    board._show_timer()
    assert not board.timer_label.is_cut(), board.timer_label.shown_text()
    board.timing, board.decided = PC_IDS[0], 17  # decided, the form still being filled in
    board.timer.start()
    board._show_timer()
    assert "filling the form in is not counted" in board.timer_label.text()
    assert not board.timer_label.is_cut(), board.timer_label.shown_text()


def _cut_in_form(area: QScrollArea, editor: QWidget) -> list[str]:
    """Gets the labels and lists of an open form that are cut: wider than the form's column
    (a list loses its arrow), narrower than their text, or wrapped onto unshown lines."""
    viewport = area.viewport()
    cut = []
    for widget in [*editor.findChildren(QLabel), *editor.findChildren(QComboBox)]:
        if not widget.isVisibleTo(editor):
            continue
        name = widget.text() if isinstance(widget, QLabel) else widget.currentText()
        left = widget.mapTo(viewport, QPoint(0, 0)).x()
        if left < 0 or left + widget.width() > viewport.width():
            cut.append(f"{name!r}: x {left}–{left + widget.width()} in {viewport.width()} px")
        elif isinstance(widget, QComboBox) and widget.width() < widget.minimumSizeHint().width():
            cut.append(f"list {name!r}: {widget.width()} px of {widget.minimumSizeHint()}")
        elif isinstance(widget, QLabel) and widget.text():
            if widget.wordWrap():
                if widget.heightForWidth(widget.width()) > widget.height():
                    cut.append(f"note {name!r}: {widget.height()} px high of "
                               f"{widget.heightForWidth(widget.width())}")
            elif widget.width() < widget.sizeHint().width():
                cut.append(f"label {name!r}: {widget.width()} px of {widget.sizeHint()}")
    return cut


@pytest.mark.parametrize("laptop", SIZES, indirect=True, ids=["1280x720", "1366x768"])
@pytest.mark.parametrize("action", ["attack", "missile", "wait"])
def test_the_popcorn_turn_form_is_whole_on_a_laptop(laptop: MainWindow, sample_store: Store,
                                                   action: str) -> None:
    """Every label, note and list of the open turn form is whole (arrows, notes' last words)."""
    ws: EncounterWorkspace = open_fight(laptop, sample_store, "popcorn")
    board = ws.board
    assert isinstance(board, PopcornBoard)
    assert board.open_editor(MONSTER_IDS[0], action)  # a weapon's facts and attack notes
    board.editor.set_value("target", PC_IDS[0])
    _settle()
    assert board.editor.isVisible()
    problems = _cut_in_form(board.editor_area, board.editor)
    assert not problems, "\n".join(problems)


def _whole_cards(view: QListView) -> int:
    """Counts the cards of a lane shown whole, from the top of the lane down."""
    model = view.model()
    shown = 0
    for row in range(model.rowCount()):
        if not view.viewport().rect().contains(view.visualRect(model.index(row, 0))):
            break
        shown += 1
    return shown


@pytest.mark.parametrize("laptop", [*SIZES, (1920, 1080)], indirect=True,
                         ids=["1280x720", "1366x768", "1920x1080"])
def test_the_popcorn_action_lanes_have_the_room_their_cards_need(
        laptop: MainWindow, sample_store: Store) -> None:
    """The attack lane of a busy round (seven long turn cards) shows whole cards, every one
    on a large screen; the status lanes keep room for two names at least."""
    ws: EncounterWorkspace = open_fight(laptop, sample_store, "popcorn")
    board = ws.board
    assert isinstance(board, PopcornBoard)
    _settle()
    attack = board.action_lanes["attack"].view
    assert attack.model().rowCount() == 7
    wanted = 7 if laptop.height() >= 1080 else 2
    assert _whole_cards(attack) >= wanted, (attack.height(), _whole_cards(attack))
    to_act = board.status_lanes["not-acted"].view
    assert _whole_cards(to_act) >= 2, to_act.height()
    cut = [box.title() for box in board.action_lanes.values() if box.heading is not None
           and box.heading.height() < box.heading.heightForWidth(box.heading.width())]
    assert not cut, f"lane titles cut: {cut}"
