"""New Encounter sized to its content within the screen (tester's 24-after-stamp and
180-newenc-after-dead): it was 760×640 at any screen size, template names read
"Bugbear (hp …", the Side lists "monste", and five house-rule options showed at a time."""

from __future__ import annotations

from PySide6.QtCore import QRect
from PySide6.QtWidgets import QApplication, QComboBox, QLabel, QTableView

from desktop.encounter.start_dialog import SIDE_COLUMN, StartEncounterDialog
from desktop.main_window import MainWindow


def _settle() -> None:
    for _ in range(4):
        QApplication.processEvents()


def _cut(dialog: StartEncounterDialog) -> list[str]:
    """Gets every cell or side list of the two tables that is narrower than its words."""
    cut = []
    for key, view in dialog.tables.items():
        model = view.model()
        assert isinstance(view, QTableView)
        for column in range(model.columnCount()):
            if view.isColumnHidden(column):
                continue
            for row in range(model.rowCount()):
                index = model.index(row, column)
                rect = view.visualRect(index)
                if column == SIDE_COLUMN:
                    box = view.indexWidget(index)
                    assert isinstance(box, QComboBox)
                    if box.width() < box.sizeHint().width():
                        cut.append(f"{key} side list {box.currentText()!r}: {box.width()} px "
                                   f"of {box.sizeHint().width()}")
                    continue
                needed = view.sizeHintForIndex(index).width()
                if rect.width() < needed:
                    cut.append(f"{key} {index.data()!r}: {rect.width()} px of {needed}")
            shown = view.viewport().rect()
            last = view.visualRect(model.index(model.rowCount() - 1, 0))
            if not shown.contains(last):
                cut.append(f"{key}: the last row at {last}, outside {shown}")
    return cut


def _options_in_view(dialog: StartEncounterDialog) -> int:
    """Counts the house-rule options whose label is whole in view."""
    form = dialog.options_form
    assert form is not None
    viewport = dialog.options_area.viewport()
    labels = [w for w in form.findChildren(QLabel) if w.isVisibleTo(form) and w.text()]
    return sum(1 for w in labels if viewport.rect().contains(
        QRect(w.mapTo(viewport, w.rect().topLeft()), w.size())))


def test_new_encounter_fits_1280x720_with_every_name_whole(window: MainWindow) -> None:
    dialog = window.encounter_actions.ask_new_encounter()
    assert dialog is not None
    dialog.set_system("addict")
    dialog.set_count("Orc", 6)  # six HP totals: a wider HP column
    laptop = QRect(0, 0, 1280, 720)
    dialog.fit_to(laptop)
    _settle()
    assert laptop.contains(dialog.frameGeometry()), dialog.frameGeometry()
    assert not _cut(dialog), "\n".join(_cut(dialog))
    assert dialog.hp_text("Orc").count(",") == 5
    assert _options_in_view(dialog) >= 8, _options_in_view(dialog)
    small = dialog.size()

    # a larger screen gives the options more room (the dialog was 760x640 everywhere)
    dialog.fit_to(QRect(0, 0, 1920, 1080))
    _settle()
    assert dialog.height() > small.height()
    assert _options_in_view(dialog) > 9
    assert not _cut(dialog)
