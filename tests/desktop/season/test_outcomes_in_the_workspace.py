"""Issue 22, points 5 and 6 in the workspace: each attack's outcome on its own step; no blow
without a target. Driven through the boards' drops, the declaration form and the outcome
panel on the main window."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from desktop.encounter.tu_board import TimeUnitBoard
from desktop.main_window import MainWindow
from tests.desktop.season.helpers import letter_blow, new_encounter
from tests.desktop.table import letter_helpers as letters
from tests.desktop.table.conftest import button
from tests.desktop.table.roster_io_helpers import Questions
from tests.desktop.table.tu_helpers import choose, drop_action, type_next_d10, visible_rows


def _hp(ws: object, name: str) -> int | None:
    state = ws.controller  # type: ignore[attr-defined]
    resolution = state.resolution
    cid = next(c.id for c in state.state.combatants.values() if c.label == name)
    return resolution.combatants[cid].hp


def _strike_rows(ws: object, actor: str) -> list[int]:
    return [r for r, cells in enumerate(visible_rows(ws)) if cells[2] == actor  # type: ignore[arg-type]
            and ws.controller.resolution.steps[r].event in (  # type: ignore[attr-defined]
                "attacks", "hits", "misses")]


def test_point_5_time_units_two_attacks_each_keep_their_own_hit(
    table: MainWindow, questions: Questions,
) -> None:
    ws = new_encounter(table, "Bugbear lair", "time-units", ("Brannoc the Bold",),
                       {"Bugbear": "1:14"})
    board = ws.board
    assert isinstance(board, TimeUnitBoard)
    drop_action(board, "melee", "Brannoc the Bold")
    board.editor.attacks.setValue(2)
    choose(board.editor.target, "Bugbear 1")
    QTest.keyClick(board.editor.target, Qt.Key.Key_Return)
    type_next_d10(ws, 4)
    rows = _strike_rows(ws, "Brannoc the Bold")
    assert len(rows) == 2  # "[1st attack]" and "[2nd attack]"
    ws.select_step(ws.controller.resolution.steps[rows[0]].seq)
    ws.outcome.damage.setValue(4)
    button(ws.outcome, "Hit").click()
    steps = [ws.controller.resolution.steps[r] for r in _strike_rows(ws, "Brannoc the Bold")]
    ws.select_step(steps[1].seq)  # the [2nd attack] row
    ws.outcome.damage.setValue(6)
    button(ws.outcome, "Hit").click()
    assert ws.outcome.error.text() == ""
    steps = [ws.controller.resolution.steps[r] for r in _strike_rows(ws, "Brannoc the Bold")]
    assert [(str(s.event), s.detail.get("damage")) for s in steps] == [("hits", 4), ("hits", 6)]
    assert _hp(ws, "Bugbear 1") == 4  # it showed 10: the second hit had replaced the first
    assert ws.controller.state.actions[0]["hits"] == [{"hit": True, "damage": 4},
                                                     {"hit": True, "damage": 6}]


def test_point_5_another_attack_beyond_the_creatures_attacks_is_refused_not_lost(
    table: MainWindow, questions: Questions,
) -> None:
    ws = new_encounter(table, "Orc hall", "side-d6", ("Brannoc the Bold",), {"Orc": "1:8"})
    letter_blow(ws, "Brannoc the Bold", "Orc 1", 3)
    ws.outcome.another.setChecked(True)  # Brannoc makes one attack a round
    ws.outcome.damage.setValue(4)
    button(ws.outcome, "Hit").click()
    assert "Brannoc the Bold makes no more attacks here" in ws.outcome.error.text()
    assert _hp(ws, "Orc 1") == 5


def test_point_6_a_blow_without_a_target_is_refused_by_the_form(
    table: MainWindow, questions: Questions,
) -> None:
    ws = new_encounter(table, "Orc hall", "side-d6", ("Brannoc the Bold",), {"Orc": "1:8"})
    board = ws.board
    letters.drop_card(board, "Brannoc the Bold", "attack")  # type: ignore[arg-type]
    QTest.keyClick(board.editor.target, Qt.Key.Key_Return)  # Target left at "—"
    assert not board.editor.isHidden()
    assert board.editor.problem.text() == "Choose a target: a blow or a shot is made at someone."
    rounds = ws.controller.state.rounds
    assert not rounds or not rounds[-1].get("declarations")  # nothing declared
    letters.fill(board, Target="Orc 1")  # type: ignore[arg-type]
    assert board.editor.isHidden() and board.editor.problem.text() == ""
    assert [d.get("target") for d in ws.controller.state.rounds[-1]["declarations"]] == [
        next(c.id for c in ws.controller.state.combatants.values() if c.label == "Orc 1")]
