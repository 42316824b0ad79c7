"""The id guard itself: the first screen is clean, and a leak is caught where a DM sees it."""

import pytest
from PySide6.QtWidgets import QLabel

from desktop.main_window import MainWindow
from tests.desktop.table.conftest import IdWatch


def test_the_first_screen_shows_no_ids(table: MainWindow, ids: IdWatch) -> None:
    ids.check()


@pytest.mark.parametrize("leak", ["roster-7", "actions[5]", "{'casting': 2}"])
def test_the_guard_finds_a_leak_in_a_label_and_the_status_bar(
        table: MainWindow, ids: IdWatch, leak: str) -> None:
    table.statusBar().showMessage(f"Recorded for {leak}")
    label = QLabel(f"Target: {leak}", table.centralWidget())
    label.show()
    found = ids.leaks()
    assert any("status bar" in f for f in found) and any("QLabel" in f for f in found)
