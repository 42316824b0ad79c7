"""Issue 22, point 10: a name longer than 40 characters is refused with a message wherever a
DM gives one; a long name an older version saved is cut with "…" in the roster tree, the
cards, the lanes, the status list and the timeline, and the window stays on a 1280×720 screen
whatever is selected."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractListModel,
    QAbstractTableModel,
    QModelIndex,
    Qt,
)
from PySide6.QtWidgets import QApplication, QFileDialog

from core.roster.entries import MonsterTemplate
from core.roster.stamping import StampError, stamp
from desktop.main_window import MainWindow
from tests.desktop.season.helpers import letter_blow, new_encounter, select, type_field
from tests.desktop.table.conftest import action, button
from tests.desktop.table.roster_io_helpers import Questions

LONG = ("Garrick " + "the Very Long Named Henchman of " * 7)[:199] + "X"  # 200 characters


def shown_texts(model: QAbstractItemModel, parent: QModelIndex | None = None) -> list[str]:
    """Gets every cell's text as displayed (tooltips, which may hold a whole name, aside)."""
    top = parent is None
    parent = parent if parent is not None else QModelIndex()

    def count(what: str) -> int:
        flat = 1 if what == "columnCount" else 0
        try:
            return int(getattr(model, what)(parent))
        except TypeError:  # a flat list or table model keeps one of the forms private
            if not top:
                return 0
            try:
                return int(getattr(model, what)())
            except TypeError:
                return flat

    out = []
    for row in range(count("rowCount")):
        for column in range(count("columnCount")):
            index = model.index(row, column, parent)
            out.append(str(index.data(Qt.ItemDataRole.DisplayRole) or ""))
            if column == 0 and not isinstance(model, QAbstractListModel | QAbstractTableModel):
                out += shown_texts(model, index)
    return out


def _settle() -> None:
    for _ in range(5):
        QApplication.processEvents()


def test_point_10_a_200_character_name_is_refused_by_form_import_encounter_and_stamp(
    table: MainWindow, questions: Questions, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    select(table, "Garrick")
    type_field(table, "name", LONG)
    assert not table.editor.save_button.isEnabled()
    assert table.editor.reasons["name"].text() == (
        "A name is at most 40 characters; this one has 200. Shorten it (the rest can go in the "
        "notes).")
    table.editor.revert()

    path = tmp_path / "long.csv"
    path.write_text(f"name,kind\n{LONG},pc\n", encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *_a: (str(path), "")))
    action(table, "Import").trigger()
    assert "line 2, field name: A name is at most 40 characters; this one has 200" in \
        questions.warned[-1]
    assert LONG not in [e.name for e in table.entries]

    action(table, "New Encounter").trigger()
    dialog = table.encounter_actions.dialog
    dialog.name.setText("The " + "very " * 10 + "long fight")  # type: ignore[attr-defined]
    dialog.set_count("Orc", 1)  # type: ignore[attr-defined]
    button(dialog, "OK").click()  # type: ignore[arg-type]
    assert dialog.error.text() == (  # type: ignore[attr-defined]
        "An encounter's name is at most 40 characters; this one has 64.")
    dialog.reject()  # type: ignore[attr-defined]

    with pytest.raises(StampError, match="a template's name is at most 40 characters"):
        stamp(MonsterTemplate(name="Orc " * 20), 2, [3, 4])


def test_point_10_a_long_name_saved_earlier_is_elided_and_the_window_stays_on_screen(
    table: MainWindow, questions: Questions,
) -> None:
    garrick = next(e for e in table.entries if e.name == "Garrick")
    table.store.roster.update(replace(garrick, name=LONG))  # as an older version let it be
    table.refresh_roster()
    select(table, LONG)
    _settle()
    assert table.width() <= 1280 and table.minimumSizeHint().width() <= 1280
    shown = "Garrick the Very Long Named Henchman of…"
    assert shown in shown_texts(table.roster_panel.view.model())
    assert LONG not in shown_texts(table.roster_panel.view.model())

    ws = new_encounter(table, "Long", "side-d6", ("Brannoc the Bold", LONG), {"Orc": "1:5"})
    letter_blow(ws, "Orc 1", shown, 3)
    _settle()
    cards = shown_texts(ws.board.cards_model)
    assert f"{shown}  [party]  hp 5" in cards
    lane = ws.board.lanes["attack"].model.texts()  # type: ignore[attr-defined]
    assert all(LONG not in text for text in lane) and any("Garrick" in t for t in lane)
    status = shown_texts(ws.status_view.model())
    assert shown in status and LONG not in status
    steps = shown_texts(ws.steps_view.model())
    assert all(LONG not in text for text in steps)
    labels = [row.label for row in ws.timeline.timeline_layout.rows]
    assert shown in labels and all(len(label) <= 40 for label in labels)
    ws.select_step(ws.controller.resolution.steps[0].seq)
    _settle()
    assert table.width() <= 1280 and table.minimumSizeHint().width() <= 1280
