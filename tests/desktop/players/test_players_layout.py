"""The players' screen lays itself out for the size it is given: beside the fight at 620×1050
("Round" cut, the "Last: …" line cut, the party and foes off the window: 163c) and at the
default 960×540 (the timeline's monster rows cut off at the bottom: 48-players-r1)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QLabel, QWidget
from pytestqt.qtbot import QtBot

from tests.desktop.players.fights import POPCORN, SIDE_D6
from tests.desktop.players.helpers import main_window, play_commands, store_with_fight


def _inside(screen: QWidget, widget: QWidget) -> bool:
    """True when the whole of ``widget`` lies inside ``screen``'s window."""
    where = QRect(widget.mapTo(screen, widget.rect().topLeft()), widget.size())
    return screen.rect().contains(where)


def _whole(label: QLabel) -> bool:
    """True when the label's text fits its room (wrapped over lines if it wraps)."""
    room = label.contentsRect()
    if label.wordWrap():
        return label.heightForWidth(label.width()) <= label.height() + 1
    return label.fontMetrics().horizontalAdvance(label.text()) <= room.width()


@pytest.mark.parametrize("document", [SIDE_D6, POPCORN], ids=["side-d6", "popcorn"])
@pytest.mark.parametrize("size", [(620, 1050), (960, 540)], ids=["beside", "default"])
def test_nothing_is_cut_at_a_narrow_or_short_size(
        qtbot: QtBot, tmp_path: Path, document: dict[str, object],
        size: tuple[int, int]) -> None:
    store = store_with_fight(tmp_path, document, hide=False)  # type: ignore[arg-type]
    window = main_window(qtbot, store, tmp_path)
    workspace = window.encounter_actions.workspaces[0]
    window.tabs.setCurrentWidget(workspace)
    for command in play_commands(document)[:8]:  # type: ignore[arg-type]
        assert workspace.controller.run(command, check=False)
    window.players.show_action.trigger()
    screen = window.players.players_window
    assert screen is not None
    screen.resize(*size)
    qtbot.waitUntil(lambda: screen.size().width() == size[0])
    qtbot.wait(20)
    assert screen.size().width() == size[0] and screen.size().height() == size[1]
    assert screen.clock.text() and screen.last.text().startswith("Last: ")
    shown = [w for w in (screen.heading, screen.system, screen.clock, screen.last, screen.turn,
                         screen.play_title, screen.play, screen.party_title, screen.party,
                         screen.monsters_title, screen.monsters, screen.timeline, screen.hint)
             if w.isVisible()]
    assert screen.party in shown and screen.timeline in shown
    for widget in shown:
        assert _inside(screen, widget), (widget.objectName() or widget.text(), widget.geometry())
        if isinstance(widget, QLabel):
            assert _whole(widget), (widget.text(), widget.geometry())
    for names in (screen.party, screen.monsters):  # every line of the party and the foes
        lines = sum(names.sizeHintForRow(row) for row in range(names.count()))
        assert names.count() and lines <= names.viewport().height(), names.objectName()
    # Every creature's row is on the timeline: the players cannot scroll it.
    assert screen.timeline.row_scroll.isHidden()
    assert set(screen.timeline.named_rows()) >= {
        r.label for r in screen.timeline.timeline_layout.rows}
