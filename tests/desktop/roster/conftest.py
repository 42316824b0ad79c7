from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from core.store import Store
from desktop.main_window import MainWindow


@pytest.fixture
def db_url(sample_store: Store, tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'campaigns.sqlite'}"


@pytest.fixture
def window(qtbot: QtBot, sample_store: Store, settings: QSettings) -> MainWindow:
    win = MainWindow(sample_store, settings)
    qtbot.addWidget(win)
    win.show()
    return win


class Answers:
    """Stands in for QMessageBox's static dialogs: records what was asked, answers as told."""

    def __init__(self) -> None:
        self.questions: list[str] = []
        self.warnings: list[str] = []
        self.answer = QMessageBox.StandardButton.Yes

    def question(self, _parent: object, _title: str, text: str, *_a: object) -> object:
        self.questions.append(text)
        return self.answer

    def warning(self, _parent: object, _title: str, text: str, *_a: object) -> object:
        self.warnings.append(text)
        return QMessageBox.StandardButton.Ok


@pytest.fixture
def answers(monkeypatch: pytest.MonkeyPatch) -> Iterator[Answers]:
    fake = Answers()
    monkeypatch.setattr(QMessageBox, "question", staticmethod(fake.question))
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(fake.warning))
    yield fake
