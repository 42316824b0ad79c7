"""Every menu item of the main window is safe to press (issue 24).

In a campaign with an open fight and an ended one, each action of each menu — submenus filled
when they open included — is triggered through its real QAction; whatever dialog opens is
closed (Escape / close), and the window is still alive and answering afterwards. The
quick-reference preview once crashed the program here: its printer was freed by Python while
the preview still painted on it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QSettings, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QDialog, QMenu, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from core.play.session import EncounterSession
from core.store import Store
from desktop.encounter.quickref import preview_card
from desktop.main_window import MainWindow


def _close_modals() -> None:
    """Closes the modal dialog in front, as a DM pressing Escape would."""
    modal = QApplication.activeModalWidget()
    if isinstance(modal, QMessageBox):
        escape = modal.escapeButton() or modal.button(QMessageBox.StandardButton.No)
        if escape is not None:
            escape.click()
        else:
            modal.reject()
    elif isinstance(modal, QDialog):
        modal.reject()
    elif modal is not None:
        modal.close()


@pytest.fixture
def closer() -> Iterator[QTimer]:
    timer = QTimer()
    timer.setInterval(30)
    timer.timeout.connect(_close_modals)
    timer.start()
    yield timer
    timer.stop()


def _actions(menu: QMenu, path: str) -> list[tuple[str, QAction]]:
    """Gets every action under ``menu`` (its submenus opened so that they fill themselves)."""
    menu.aboutToShow.emit()
    found: list[tuple[str, QAction]] = []
    for action in menu.actions():
        if action.isSeparator():
            continue
        name = f"{path} › {action.text().replace('&', '')}"
        sub = action.menu()
        if isinstance(sub, QMenu):
            found += _actions(sub, name)
        elif not action.isWidgetType():
            found.append((name, action))
    return found


def _campaign_with_fights(store: Store) -> None:
    """The sample campaign gets an ended fight and an open one (what the DM sees on start)."""
    campaign = store.campaigns.all()[0]
    ended = EncounterSession.start(store, campaign.id, "Yesterday's ambush", "side-d6")
    ended.end()
    ended.release()
    EncounterSession.start(store, campaign.id, "Tonight's fight", "addict").release()


def _alive(window: MainWindow) -> None:
    QApplication.processEvents()
    assert window.isVisible()
    assert window.menuBar().actions()  # the C++ object still answers
    assert window.grab().width() > 0


def test_every_menu_action_leaves_the_app_alive(
    qtbot: QtBot, sample_store: Store, settings: QSettings, closer: QTimer
) -> None:
    _campaign_with_fights(sample_store)
    window = MainWindow(sample_store, settings)
    qtbot.addWidget(window)
    window.show()
    opened = [a for a in window.encounter_actions.open_menu_actions()
              if "Tonight" in a.text()]
    assert opened, "the open fight is listed in Encounter › Open Encounter"
    opened[0].trigger()  # the open fight in a tab, as after a restart
    assert window.encounter_actions.current() is not None
    before = set(QApplication.topLevelWidgets())
    pressed: list[str] = []
    quit_action: QAction | None = None
    for top in window.menuBar().actions():
        menu = top.menu()
        assert isinstance(menu, QMenu)
        for name, action in _actions(menu, top.text().replace("&", "")):
            if name.endswith("› Quit"):
                quit_action = action
                continue
            if not action.isEnabled():
                continue
            action.trigger()
            pressed.append(name)
            qtbot.wait(60)  # a preview paints, a help window loads
            for widget in set(QApplication.topLevelWidgets()) - before:
                if widget.isVisible() and widget is not window:
                    widget.close()
            gc.collect()  # what Python dropped is gone now, as it would be later in a session
            qtbot.wait(30)
            _alive(window)
    texts = "\n".join(pressed)
    for expected in ("Help › Print Quick Reference › ADDICT…",
                     "Help › Print Quick Reference › Time-unit combat…",
                     "Encounter › Open Encounter"):
        assert expected in texts, texts
    assert quit_action is not None
    quit_action.trigger()
    qtbot.waitUntil(lambda: not window.isVisible())


def test_the_quick_reference_preview_outlives_python_references(qtbot: QtBot) -> None:
    """The preview keeps its printer: it paints again after Python dropped everything."""
    parent = QWidget()
    qtbot.addWidget(parent)
    parent.show()
    dialog = preview_card("popcorn", parent)
    title = dialog.windowTitle()
    del dialog
    gc.collect()
    qtbot.wait(100)
    shown = [w for w in QApplication.topLevelWidgets()
             if w.isVisible() and w.windowTitle() == title]
    assert shown, "the preview is open"
    shown[0].repaint()
    assert shown[0].grab().width() > 0
    shown[0].close()
