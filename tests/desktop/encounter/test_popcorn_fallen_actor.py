"""popcorn: a readied blow kills the active creature on its own turn, before it names anyone
(popcorn.pass.fallen-actor). The header says what the DM does then, and N does just that:
no refusal."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from core.printout.players import players_view
from desktop.encounter.popcorn_board import PopcornBoard
from tests.desktop.encounter.conftest import (
    popcorn_dag_readied,
    popcorn_rolled,
    press_on_card,
    scenario,
)


def _shaman_killed_on_its_turn(start, names: str = ""):  # type: ignore[no-untyped-def]
    """Dag readies a blow on the shaman; the shaman moves (saved, naming ``names`` or no one)
    and Dag's blow, set off from its Readied card, kills it: the hit recorded in the outcome
    panel."""
    ws, board = popcorn_dag_readied(start, "when the shaman closes")
    assert isinstance(board, PopcornBoard)
    press_on_card(board, "shaman", "4")
    if names:
        board.editor.set_value("nominates", names)
    board.editor.submit()
    assert board.editor.isHidden()
    assert board.set_off("dag")
    resolution = ws.controller.resolution
    assert resolution is not None
    blow = next(s for s in resolution.steps if s.actor == "dag" and str(s.event) == "attacks")
    view, model = ws.steps_view, ws.steps_model
    row = model.row_of_seq(blow.seq)
    assert row is not None
    index = model.index(row, 2)
    view.scrollTo(index)
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.NoModifier, view.visualRect(index).center())
    ws.outcome.damage.setValue(6)
    assert ws.outcome.record(True)
    resolution = ws.controller.resolution
    assert resolution is not None and str(resolution.combatants["shaman"].status) == "dead"
    return ws, board


def test_the_header_says_the_dm_picks_who_acts_and_n_gives_that_creature_the_turn(start) -> None:  # type: ignore[no-untyped-def]
    ws, board = _shaman_killed_on_its_turn(start)
    header = board.active_label.text()
    assert "has acted: name who acts next" not in header
    assert "shaman fell during its turn" in header and "names no one" in header
    press_on_card(board, "wolf", "N")
    assert not board.message.text().startswith("Refused"), board.message.text()
    assert board.active == "wolf"
    assert "active: <b>wolf</b>" in board.active_label.text()
    assert board.next_lane.model.texts() == ["wolf"]
    count = ws.controller.stack.count()
    press_on_card(board, "wolf", "1")  # its turn, as any turn: drop it on an action
    assert board.editor.isVisible() and board.editor.actor == "wolf"
    board.editor.set_value("target", "dag")
    board.editor.submit()
    turns = ws.controller.state.rounds[0]["turns"]
    assert [t["actor"] for t in turns] == ["dag", "shaman", "wolf"]
    assert "nominates" not in turns[1]  # nothing written on the dead creature's turn
    assert ws.controller.stack.count() == count + 1 and ws.controller.error is None


def test_a_name_written_before_the_blow_lapses_and_the_dm_picks_who_acts(start) -> None:  # type: ignore[no-untyped-def]
    """At the table the DM writes the shaman's whole turn, its nominee too, and only then
    records the readied blow that kills it: the hit is taken (it was refused), the name lapses
    and the DM picks who acts next, as when the turn named no one."""
    ws, board = _shaman_killed_on_its_turn(start, names="wolf")
    assert ws.controller.error is None and not board.message.text().startswith("Refused")
    header = board.active_label.text()
    assert "shaman fell during its turn" in header and "names no one" in header
    assert board.active is None  # the lapsed name is not shown as acting next
    shown = players_view(ws.controller.state, ws.controller.known_resolution(), heading="")
    assert "Acts next: to be named" in shown.turn, shown.turn  # nor on the players' screen
    press_on_card(board, "wolf", "N")
    assert board.active == "wolf" and not board.message.text().startswith("Refused")
    press_on_card(board, "wolf", "1")
    board.editor.set_value("target", "dag")
    board.editor.submit()
    turns = ws.controller.state.rounds[0]["turns"]
    assert [t["actor"] for t in turns] == ["dag", "shaman", "wolf"]
    assert ws.controller.error is None


def test_a_new_round_whose_opener_no_one_named_says_so(start) -> None:  # type: ignore[no-untyped-def]
    """Round 1's last creature named no one: round 2's header does not say it "has acted:
    name who acts next", it says any creature may open the round."""
    document = scenario("popcorn/readied-attack-disrupts-spell.json")
    ws, board = popcorn_rolled(start, document)
    press_on_card(board, "dag", "4")
    press_on_card(board, "shaman", "N")
    press_on_card(board, "shaman", "4")
    press_on_card(board, "wolf", "N")
    press_on_card(board, "wolf", "4")
    board.editor.submit()  # the last of the round, naming no one
    board.new_round_button.click()
    assert len(ws.controller.state.rounds) == 2
    header = board.active_label.text()
    assert "Round 2" in header and "has acted" not in header
    assert "wolf acted last in round 1 and named no one" in header
    assert "drop any creature on an action" in header
