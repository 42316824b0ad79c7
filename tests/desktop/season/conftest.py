"""The season tests play on the table tests' campaign file and main window (1280×720)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMessageBox

from tests.desktop.table.conftest import campaign_file, ids, table  # noqa: F401
from tests.desktop.table.roster_io_helpers import Questions


@pytest.fixture
def questions(monkeypatch: pytest.MonkeyPatch) -> Questions:
    """Every Yes/No question a DM is asked, answered Yes (``asked`` keeps their texts), and
    every warning shown (``warned``)."""
    fake = Questions()
    monkeypatch.setattr(QMessageBox, "question", staticmethod(fake.question))
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(fake.warning))
    return fake
