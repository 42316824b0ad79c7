"""Reading the players' screen as the table would: every text it can show."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QAbstractButton, QGraphicsTextItem, QLabel, QListWidget, QWidget
from pytestqt.qtbot import QtBot

from core.fight.encounter import commands_for_scenario
from core.fight.log import Command, EventKind, hide_from_players
from core.play.session import EncounterSession
from core.store import Store
from desktop.main_window import MainWindow
from desktop.players.window import PlayersWindow
from tests.desktop.players.fights import HIDDEN_ID


def visible_texts(window: PlayersWindow) -> list[str]:
    """Gets every text of the players' window, shown now or not: the window's title, labels,
    list items and their tooltips, every widget's tooltip, and the timeline's words (row
    names, axis ticks and titles, legend labels, any text item in its scene, mark tips)."""
    texts = [window.windowTitle()]
    for widget in [window, *window.findChildren(QWidget)]:
        texts += [widget.toolTip(), widget.statusTip(), widget.accessibleName()]
        if isinstance(widget, QLabel | QAbstractButton):
            texts.append(widget.text())
        if isinstance(widget, QListWidget):
            for row in range(widget.count()):
                item = widget.item(row)
                texts += [item.text(), item.toolTip(), item.statusTip()]
    timeline = window.timeline
    plot = timeline.plot_item
    for name in ("left", "bottom", "top"):
        axis = plot.getAxis(name)
        texts.append(axis.labelText)
        for level in axis._tickLevels or []:  # the explicit ticks the axis draws
            texts += [str(label) for _, label in level]
    for _sample, label in timeline.legend.items:
        texts.append(label.text)
    for item in timeline.view.scene().items():
        if isinstance(item, QGraphicsTextItem):
            texts.append(item.toPlainText())
        texts.append(item.toolTip())
    tip = timeline.mark_item.opts.get("tip")
    for point in timeline.mark_item.points():
        if tip is not None:
            texts.append(str(tip(point.pos().x(), point.pos().y(), point.data())))
    return [t for t in texts if t]


def store_with_fight(tmp_path: Path, document: dict[str, Any], hide: bool = True,
                     url: str | None = None, name: str = "Bridge fight") -> Store:
    """Gets a campaign store holding one open fight: the document's combatants (the hidden
    creature hidden), nothing played yet."""
    store = Store.open(url or f"sqlite:///{tmp_path / 'campaign.sqlite'}")
    campaign = store.campaigns.create("Keep on the Borderlands")
    adds = [c for c in commands_for_scenario(document)
            if c.events[0].kind is EventKind.COMBATANT_ADDED]
    hidden = [hide_from_players([HIDDEN_ID])] if hide else []
    EncounterSession.create(store, campaign.id, name, document["system"],
                            document.get("options"), document.get("seed"), [*adds, *hidden])
    return store


def play_commands(document: dict[str, Any]) -> list[Command]:
    """Gets the fight's commands after its combatants (rounds, dice, declarations, turns)."""
    return [c for c in commands_for_scenario(document)[1:]
            if c.events[0].kind is not EventKind.COMBATANT_ADDED]


def main_window(qtbot: QtBot, store: Store, tmp_path: Path, name: str = "dm") -> MainWindow:
    window = MainWindow(store, QSettings(str(tmp_path / f"{name}.ini"),
                                         QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    window.show()
    return window
