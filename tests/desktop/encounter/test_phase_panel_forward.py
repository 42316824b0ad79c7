"""The panel a phase works in comes forward when play enters another phase, never while the DM
is still declaring (side-d6's surprise segments: the cards stay up, with the keyboard, for the
next key)."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QApplication, QTabBar

from core.fight.encounter import set_field
from desktop.encounter.letter_board import LetterBoard
from tests.desktop.encounter.conftest import fill_and_declare, press_on_card, type_die


def _front(ws: Any) -> str:
    """The tab that is up among the Combatants / Procedure panels."""
    QApplication.processEvents()
    bar = next(b for b in ws.panels.findChildren(QTabBar)
               if "Procedure" in [b.tabText(i) for i in range(b.count())])
    return str(bar.tabText(bar.currentIndex()))


def test_declaring_in_the_surprise_segments_keeps_the_cards_up(start: Any) -> None:
    ws = start({"system": "side-d6", "seed": 1, "combatants": [
        {"id": "kell", "name": "Kell", "side": "party", "hp": 10},
        {"id": "mira", "name": "Mira", "side": "party", "hp": 8},
        {"id": "orc-1", "name": "Orc 1", "side": "monsters", "hp": 6},
        {"id": "orc-2", "name": "Orc 2", "side": "monsters", "hp": 6}]})
    board = ws.board
    assert isinstance(board, LetterBoard)
    ws.controller.run(set_field("surprise", {}))  # Check Surprise: the dice are asked for
    assert _front(ws) == "Procedure", "the surprise dice come forward"
    type_die(ws, "surprise party", "1")  # the party is surprised
    type_die(ws, "surprise monsters", "5")
    assert _front(ws) == "Combatants", "declarations next: the cards come forward"
    press_on_card(board, "orc-1", "1")  # 1: attack, by keyboard
    fill_and_declare(board, target="kell")
    assert ws.controller.state.rounds[-1].get("surprise"), "the surprise segments began"
    assert _front(ws) == "Combatants", "still declaring: the cards stay up"
    # The next key declaration goes to the cards, as the DM expects.
    press_on_card(board, "orc-2", "1")
    fill_and_declare(board, target="mira")
    declared = [d["actor"] for d in ws.controller.state.rounds[-1]["declarations"]]
    assert declared == ["orc-1", "orc-2"]
    assert _front(ws) == "Combatants"
