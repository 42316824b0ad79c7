"""An ended fight is read-only: no button or action that would change it can be pressed (the
addict board's Start Timer was), while reading it (panels, timeline) still works."""

from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QAbstractButton, QAbstractSpinBox, QComboBox, QLineEdit, QWidget

from desktop.encounter.workspace import EncounterWorkspace
from tests.desktop.encounter.conftest import scenario

READING = {"Status", "Timeline", "Procedure", "Outcome", "Resolution list", "Combatants",
           "Export..."}
"""Actions that only show or print what happened: the panels' toggles, the timeline's export."""
DOCK_BUTTONS = {"qt_dockwidget_floatbutton", "qt_dockwidget_closebutton"}


def _pressable(workspace: EncounterWorkspace) -> list[str]:
    """Every control shown and enabled that is not for reading (the panels' own buttons, the
    Reopen and Take Over buttons of the banners)."""
    found: list[str] = []
    kinds = (QAbstractButton, QComboBox, QAbstractSpinBox, QLineEdit)
    allowed = {workspace.reopen_button, workspace.take_over_button}
    for widget in workspace.findChildren(QWidget):
        if (isinstance(widget, kinds) and widget.isVisibleTo(workspace) and widget.isEnabled()
                and widget not in allowed and widget.objectName() not in DOCK_BUTTONS):
            found.append(f"{type(widget).__name__} {widget.objectName()!r} "
                         f"{getattr(widget, 'text', lambda: '')()!r}")
    for action in workspace.findChildren(QAction):
        if action.isEnabled() and action.isVisible() and action.text() not in READING | {""}:
            found.append(f"QAction {action.text()!r}")
    return found


def test_nothing_that_changes_an_ended_addict_fight_can_be_pressed(start) -> None:  # type: ignore[no-untyped-def]
    ws = start(scenario("addict/winner-first-letter-order.json"))
    assert ws.board.timer_button.isEnabled()
    ws.session.end()
    ws.refresh()
    assert ws.session.ended and ws.ended_banner.isVisible()
    assert not ws.board.timer_button.isEnabled(), "Start Timer on an ended fight"
    assert _pressable(ws) == []
    assert ws.reopen_button.isEnabled()
    # Reopened, the DM plays again: the timer and the cards come back.
    ws.session.reopen(None)
    ws.refresh()
    assert ws.board.timer_button.isEnabled() and ws.board.cards.isEnabled()
