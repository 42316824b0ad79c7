"""The help's pictures (``make docs``) show a sample campaign, never the machine they were
taken on: no temporary folder in the status bar (issue 27)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from desktop import help_shots
from desktop.main_window import MainWindow


def test_the_help_pictures_name_the_sample_file_not_a_temporary_folder(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    bars: list[str] = []

    def grab(window: QWidget, _names: tuple[str, ...]) -> QPixmap:
        assert isinstance(window, MainWindow)
        bars.append(window.db_label.text())
        bars.append(window.statusBar().currentMessage())
        return QPixmap(8, 8)

    monkeypatch.setattr(help_shots, "annotate", grab)
    written = help_shots.make_shots(tmp_path / "images")
    assert [p.name for p in written] == [f"{s}.png" for s in help_shots.CALLOUTS]
    assert bars[0::2] == ["campaigns.sqlite"] * len(written)
    assert not [text for text in bars if "/tmp" in text or "tmp" in text.casefold()]
