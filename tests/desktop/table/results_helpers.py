"""Helpers for the results and ended-encounter table tests: start a fight, land a blow, shoot."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QPoint
from PySide6.QtGui import QPainter
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from desktop.encounter.workspace import EncounterWorkspace
from desktop.main_window import MainWindow
from tests.desktop.encounter.conftest import drop_card, fill_and_declare
from tests.desktop.table.conftest import LEAKS, action, button, visible_texts


class Questions:
    """Stands in for QMessageBox.question: records each text and answers Yes."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def __call__(self, _parent: object, _title: str, text: str, *_a: object) -> object:
        self.asked.append(text)
        return QMessageBox.StandardButton.Yes


def start_fight(window: MainWindow, name: str, template: str, keep: tuple[str, ...]
                ) -> EncounterWorkspace:
    """Starts a side-d6 fight through the New Encounter dialog: ``keep`` PCs and one monster."""
    action(window, "New Encounter").trigger()
    dialog = window.encounter_actions.dialog
    assert dialog is not None
    dialog.name.setText(name)  # type: ignore[attr-defined]
    dialog.set_system("side-d6")  # type: ignore[attr-defined]
    fighters = dialog.fighters  # type: ignore[attr-defined]
    for row in range(fighters.rowCount()):
        item = fighters.item(row, 0)
        item.setCheckState(item.checkState().Checked if item.text() in keep
                           else item.checkState().Unchecked)
    dialog.set_count(template, 1)  # type: ignore[attr-defined]
    button(dialog, "OK").click()
    workspace = window.encounter_actions.current()
    assert workspace is not None and workspace.session.info.name == name
    return workspace


def land_blow(workspace: EncounterWorkspace, monster: str, target: str, damage: int) -> None:
    """The monster attacks ``target`` in a new round and hits for ``damage``."""
    drop_card(workspace.board, workspace.board.lanes["attack"].model, monster)
    fill_and_declare(workspace.board, target=target)
    for request in workspace.controller.rolls_needed():
        workspace.controller.type_roll(request, "3" if "party" in request.purpose else "5")
    resolution = workspace.controller.resolution
    assert resolution is not None
    latest = max(s.round for s in resolution.steps if s.actor == monster)
    workspace.select_step(next(s.seq for s in resolution.steps  # this round's blow
                               if s.actor == monster and s.round == latest
                               and s.event in ("attacks", "hits", "misses")))
    workspace.outcome.damage.setValue(damage)
    workspace.outcome.hit_button.click()
    assert workspace.outcome.error.text() == ""


def shot(window: MainWindow, name: str, dialog: QWidget | None = None) -> Path | None:
    """Saves the window (with ``dialog`` painted centred over it) when COMBATDESK_SHOTS is set."""
    folder = os.environ.get("COMBATDESK_SHOTS")
    if not folder:
        return None
    for _ in range(5):  # let the tab shown and the dock hidden settle into their layout
        QApplication.processEvents()
        QTest.qWait(20)
    picture = window.grab()
    if dialog is not None:
        over = dialog.grab()
        painter = QPainter(picture)
        painter.drawPixmap(QPoint((picture.width() - over.width()) // 2,
                                  (picture.height() - over.height()) // 2), over)
        painter.end()
    path = Path(folder) / name
    picture.save(str(path))
    return path


def assert_no_ids(*roots: QWidget, messages: Sequence[str] = (), undo: Sequence[str] = ()) -> None:
    """Fails if an id, field path or literal is on these widgets, messages or undo texts.

    Narrower than IdWatch.check(): the card tooltips still show ids (not this area's work).
    """
    found = [f"{where}: {text!r}" for root in roots for where, text in visible_texts(root)
             if LEAKS.search(text)]
    found += [f"message: {m!r}" for m in [*messages, *undo] if LEAKS.search(m)]
    assert not found, "\n".join(found)
