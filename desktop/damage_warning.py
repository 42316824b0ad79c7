"""The warning that a campaign file is damaged: named at every start until the DM says so.

Opening a file names damage found in it (``Store.damage``): values changed, records removed or
renumbered outside Combat Desk, a seal that no longer matches. The store keeps naming it at
every start; the DM stops that here ("I have read this"), which takes the file as it is now.
"""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget

from core.store import Store, StoreError
from desktop.plain_text import plain

ACKNOWLEDGE = "I have read this: stop warning"
REMIND = "Warn me again at the next start"


def damage_box(parent: QWidget | None, damage: tuple[str, ...], title: str) -> QMessageBox:
    """Builds the warning: the damage in words, and the DM's two answers."""
    box = QMessageBox(QMessageBox.Icon.Warning, title, plain("\n\n".join(damage)),
                      QMessageBox.StandardButton.NoButton, parent)
    box.setObjectName("damage_warning")
    box.setInformativeText(plain(
        "Combat Desk names this at every start until you say you have read it. Saying so "
        "takes the campaign as it is now: damage done after it is named again."))
    remind = box.addButton(REMIND, QMessageBox.ButtonRole.RejectRole)
    remind.setObjectName("remind")
    acknowledge = box.addButton(ACKNOWLEDGE, QMessageBox.ButtonRole.AcceptRole)
    acknowledge.setObjectName("acknowledge")
    box.setDefaultButton(remind)
    box.setEscapeButton(remind)
    return box


def warn_about_damage(parent: QWidget | None, store: Store, title: str) -> bool:
    """Shows the store's damage; returns True when the DM acknowledged it (stored)."""
    if not store.damage:
        return False
    box = damage_box(parent, store.damage, title)
    box.exec()
    clicked = box.clickedButton()
    if clicked is None or clicked.objectName() != "acknowledge":
        return False
    try:
        store.acknowledge_damage()
    except StoreError as exc:
        QMessageBox.warning(parent, title, plain(
            f"{exc}\n\nThe damage will be named again at the next start."))
        return False
    return True
