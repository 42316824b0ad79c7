"""The toolbar's campaign list shows the shown campaign's whole name (tester's 02-maximised:
"The Keep on the Borderlands (sample" at 1280×720), the longest a name may be too."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QApplication, QComboBox, QStyle, QStyleOptionComboBox

from core.model.limits import MAX_NAME
from core.store import Store
from desktop.main_window import MainWindow


def _room(box: QComboBox) -> int:
    """Gets the width the combo box paints its text in."""
    option = QStyleOptionComboBox()
    box.initStyleOption(option)
    return box.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                      QStyle.SubControl.SC_ComboBoxEditField, box).width()


def test_the_campaign_box_shows_every_campaign_name_whole(qtbot: Any, sample_store: Store,
                                                          settings: Any) -> None:
    window = MainWindow(sample_store, settings)
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    for _ in range(4):
        QApplication.processEvents()
    # a campaign made after the window was first shown, its name the longest allowed
    sample_store.campaigns.create("W" * MAX_NAME)
    window.reload_campaigns()
    QApplication.processEvents()
    box = window.campaign_box
    assert box.count() == 2
    for index in range(box.count()):
        box.setCurrentIndex(index)
        QApplication.processEvents()
        name = box.itemText(index)
        needed = box.fontMetrics().horizontalAdvance(name)
        assert _room(box) >= needed, f"{name!r}: {_room(box)} px of {needed}"
        assert box.visibleRegion().boundingRect() == box.rect()  # not cut by the toolbar
