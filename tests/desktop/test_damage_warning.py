"""The damage warning at start: named at every start until the DM presses "I have read this".

A real campaign file damaged by another program (a roster entry deleted while no seal was on
it), opened by a real Store; the warning's buttons are pressed with the mouse.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton

from core.roster.entries import RosterEntry
from core.store import Store
from desktop.damage_warning import ACKNOWLEDGE, REMIND, warn_about_damage


def damaged_file(tmp_path: Path) -> str:
    path = tmp_path / "campaign.sqlite"
    store = Store.open(f"sqlite:///{path}")
    greyhawk = store.campaigns.create("Greyhawk")
    store.roster.add_all(greyhawk.id, [RosterEntry(name="Wat"), RosterEntry(name="Ned")])
    store.close()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA user_version = 0")  # as a crash leaves it
    conn.execute("DELETE FROM characters WHERE name = 'Wat'")
    conn.close()
    return f"sqlite:///{path}"


def press(qtbot: Any, name: str, seen: list[str]) -> None:
    """Presses a button of the warning once it is shown (it runs its own event loop)."""

    def click() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, click)
            return
        seen.append(box.text())
        button = box.findChild(QPushButton, name)
        assert button is not None
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)

    QTimer.singleShot(0, click)


def test_damage_is_named_at_every_start_until_the_dm_has_read_it(
        qtbot: Any, tmp_path: Path) -> None:
    url = damaged_file(tmp_path)
    seen: list[str] = []
    for _ in range(2):  # "warn me again": named again at the next start
        store = Store.open(url)
        press(qtbot, "remind", seen)
        assert warn_about_damage(None, store, "The campaign file is damaged") is False
        store.close()
    assert len(seen) == 2 and all("1 roster entry removed outside Combat Desk" in s for s in seen)
    store = Store.open(url)
    press(qtbot, "acknowledge", seen)
    assert warn_about_damage(None, store, "The campaign file is damaged") is True
    assert store.damage == ()
    store.close()
    again = Store.open(url)
    assert again.damage == ()  # nothing to warn about any more
    assert [e.name for e in again.roster.entries(1)] == ["Ned"]  # the file as it was
    again.close()


def test_the_warning_says_what_each_button_does(qtbot: Any) -> None:
    from desktop.damage_warning import damage_box

    box = damage_box(None, ("campaign.sqlite is damaged: 1 encounter removed.",), "Damaged")
    qtbot.addWidget(box)
    labels = {b.text() for b in box.buttons()}
    assert labels == {ACKNOWLEDGE, REMIND}
    assert "every start" in box.informativeText()
    assert box.defaultButton().objectName() == "remind"  # Enter does not acknowledge by accident
