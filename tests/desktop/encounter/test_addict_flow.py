"""addict through the GUI: letters P, A–H, typed initiative, outcomes, the declaration timer."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QPushButton

from desktop.encounter.letter_board import LetterBoard
from desktop.encounter.stepper import ROLL_INDEX
from tests.desktop.encounter.conftest import (
    cli_steps,
    drop_card,
    fill_and_declare,
    gui_steps,
    press_on_card,
    record,
    scenario,
    type_die,
)


def test_winner_first_letter_order_built_in_the_gui_resolves_as_the_cli(start) -> None:  # type: ignore[no-untyped-def]
    document = scenario("addict/winner-first-letter-order.json")
    ws = start(document)
    board = ws.board
    assert isinstance(board, LetterBoard)
    assert list(board.lanes) == list("PABCDEFGH")
    assert "Strike blows" in board.lanes["G"].toolTip()
    assert len(ws.stepper.phases) == 11
    for actor, letter, target in (("orc-2", "G", "fighter"), ("fighter", "G", "orc-1"),
                                  ("orc-1", "G", "fighter"), ("archer", "D", "orc-2")):
        assert drop_card(board, board.lanes[letter].model, actor)
        fill_and_declare(board, target=target)
    type_die(ws, "initiative party", "4")
    type_die(ws, "initiative monsters", "2")
    record(ws, "orc-1", True, 5)  # before the fighter's blow takes it out of the round
    record(ws, "orc-2", True, 4)
    record(ws, "fighter", True, 6)
    record(ws, "archer", False)
    record(ws, "archer", True, 3, another=True)
    assert gui_steps(ws) == cli_steps(document)


def test_the_declaration_timer_turns_real_seconds_into_delay(start, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    ws = start(scenario("addict/winner-first-letter-order.json"))
    board = ws.board
    assert isinstance(board, LetterBoard)
    board.cards.select_id("fighter")  # merely selected: no clock yet
    assert board.timing is None
    press_on_card(board, "fighter", "G")  # the DM begins declaring: the clock starts
    assert board.timing == "fighter" and board.timer.isValid()
    monkeypatch.setattr(board.timer, "elapsed", lambda: 13_400)
    board._show_timer()
    assert "13 s" in board.timer_label.text() and "delay 2 segments" in board.timer_label.text()
    fill_and_declare(board, target="orc-1")
    entry = ws.controller.state.rounds[-1]["declarations"][0]
    assert entry["delay_seconds"] == 13 and entry["action"] == "G"  # the figure shown is used
    assert board.timing is None  # stopped by the declaration
    assert "13 s" in board.timer_label.text() and "used" in board.timer_label.text()
    step = next(s for s in ws.controller.resolution.steps if s.actor == "fighter")
    assert step.segment == 3  # 1 + floor(13 / 6)


def test_a_slow_declaration_in_the_surprise_segments_stays_in_them(start, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Phase 6's timer does not apply in Phase 5: 13 s spent declaring a surprise-segment blow
    does not carry it out of the single surprise segment into the next round (played under
    Xvfb, it did)."""
    document = scenario("addict/winner-first-letter-order.json")
    document["surprise"] = {"party": 5, "monsters": 1}  # the monsters lose 1 segment
    ws = start(document)
    from core.fight.encounter import set_field

    ws.controller.run(set_field("surprise", {"party": 5, "monsters": 1}))
    board = ws.board
    assert isinstance(board, LetterBoard)
    press_on_card(board, "fighter", "G")
    monkeypatch.setattr(board.timer, "elapsed", lambda: 13_400)
    fill_and_declare(board, target="orc-1")
    assert ws.controller.state.rounds[0].get("surprise") is True
    entry = ws.controller.state.rounds[0]["declarations"][0]
    assert "delay_seconds" not in entry
    step = next(s for s in ws.controller.resolution.steps if s.actor == "fighter")
    assert step.surprise and step.round == 1


def test_a_spell_without_target_is_refused_with_the_engines_reason(start) -> None:  # type: ignore[no-untyped-def]
    document = scenario("addict/winner-first-letter-order.json")
    document["combatants"][1]["spells"] = [{"name": "sleep", "casting_time": 1}]
    ws = start(document)
    board = ws.board
    drop_card(board, board.lanes["D"].model, "archer")
    fill_and_declare(board, spell="sleep")
    assert board.message.text().startswith("Refused: ")
    assert "target" in board.message.text()
    assert not ws.controller.state.rounds[-1]["declarations"]


def test_a_morale_check_asked_for_and_typed_in_the_stepper_resolves_as_the_cli(start) -> None:  # type: ignore[no-untyped-def]
    """addict.oos.morale-avoid: the DM names who checks (round `morale`), then types the 2d6
    the engine would otherwise roll from the seed; failures avoid instead of attacking."""
    document = scenario("addict/morale-failure-avoids.json")
    ws = start(document)
    board = ws.board
    assert isinstance(board, LetterBoard)
    for actor, target in (("paladin", "kobold-1"), ("kobold-2", "paladin"),
                          ("kobold-chief", "paladin")):
        press_on_card(board, actor, "G")
        fill_and_declare(board, target=target)
    type_die(ws, "initiative party", "5")
    type_die(ws, "initiative kobolds", "3")
    record(ws, "paladin", True, 7)
    record(ws, "kobold-2", True, 2)
    record(ws, "kobold-chief", True, 3)
    assert ws.stepper.morale_who is not None
    ws.stepper.morale_who.setCurrentText("kobolds (whole side)")
    ws.findChild(QPushButton, "roundMorale").click()
    # set off by the paladin's blow on kobold 1; the kobolds' turn comes after it anyway
    assert ws.controller.state.rounds[-1]["morale"] == {"kobolds": {"after": 0}}
    row = ws.stepper.row_for("morale (round 1) kobolds")
    assert row is not None and row.request.expression == "2d6"
    type_die(ws, "morale (round 1) kobolds", "8")
    assert ws.controller.state.rounds[-1]["morale"] == {"kobolds": {"after": 0, "roll": 8}}
    assert [s.actor for s in ws.controller.resolution.steps if s.event == "flees"] == [
        "kobold-2"]  # the chief's morale is 9: an 8 holds
    assert gui_steps(ws) == cli_steps(document)
    # a passed check instead (typed over in 'Dice made'): the kobolds attack after all
    assert ws.stepper.selected_roll() is None  # none selected: the newest roll is changed
    ws.stepper.type_over.setText("5")
    QTest.keyClick(ws.stepper.type_over, Qt.Key.Key_Return)
    assert ws.controller.state.rounds[-1]["morale"] == {"kobolds": {"after": 0, "roll": 5}}
    assert not [s for s in ws.controller.resolution.steps if s.event == "flees"]


def test_opening_morale_and_an_earlier_rounds_initiative_die_can_be_changed(start) -> None:  # type: ignore[no-untyped-def]
    """addict.morale.opening through the stepper; any die made, not just the last, is retyped."""
    document = scenario("addict/morale-failure-avoids.json")
    ws = start(document)
    board = ws.board
    assert isinstance(board, LetterBoard)
    ws.stepper.ask_morale(opening=True, who="kobold-chief")
    type_die(ws, "opening morale kobold-chief", "10")
    assert ws.controller.state.fields["opening_morale"] == {"kobold-chief": 10}
    assert [s.actor for s in ws.controller.resolution.steps if s.event == "flees"] == [
        "kobold-chief"]
    press_on_card(board, "paladin", "G")
    fill_and_declare(board, target="kobold-1")
    type_die(ws, "initiative party", "2")
    type_die(ws, "initiative kobolds", "3")
    board.start_next_round()
    type_die(ws, "initiative party", "6")
    type_die(ws, "initiative kobolds", "1")
    stepper = ws.stepper
    first_party = next(stepper.made_model.item(r) for r in range(stepper.made_model.rowCount())
                       if stepper.made_model.item(r).text().endswith("initiative party: 2"))
    stepper.made_view.setCurrentIndex(first_party.index())
    stepper.type_over.setText("9")  # a d6 of 9: refused, nothing changed
    QTest.keyClick(stepper.type_over, Qt.Key.Key_Return)
    assert stepper.change_error.text()
    assert ws.controller.state.rounds[0]["initiative"]["party"] == 2
    stepper.select_roll(first_party.data(ROLL_INDEX))
    stepper.reroll_button.click()  # the app's dice, for round 1's party die
    assert stepper.change_error.text() == ""
    assert ws.controller.state.rounds[1]["initiative"] == {"party": 6, "kobolds": 1}
    assert ws.controller.state.rolls[-1].purpose == "initiative party"
    assert ws.controller.state.rounds[0]["initiative"]["party"] == \
        ws.controller.state.rolls[-1].total
    ws.controller.stack.undo()
    assert ws.controller.state.rounds[0]["initiative"]["party"] == 2
    # asking again does not wipe the die given: it is changed in 'Dice made' instead
    assert not ws.stepper.ask_morale(opening=True, who="kobold-chief")
    assert "already" in stepper.change_error.text()
    assert ws.controller.state.fields["opening_morale"] == {"kobold-chief": 10}


def test_a_long_entry_wraps_with_its_full_text_as_tooltip(start) -> None:  # type: ignore[no-untyped-def]
    ws = start(scenario("addict/winner-first-letter-order.json"))
    board = ws.board
    assert isinstance(board, LetterBoard)
    press_on_card(board, "archer", "D")
    board.editor.set_value("prepared", "whatever comes round the far corner of the long hall "
                                       "after the second torch has gone out")
    fill_and_declare(board, target="orc-2", trigger_actor="orc-2")
    assert board.message.text() == ""
    view = board.lanes["D"].view
    index = view.model().index(0, 0)
    full = index.data(Qt.ItemDataRole.DisplayRole)
    assert "second torch has gone out" in full
    assert index.data(Qt.ItemDataRole.ToolTipRole).startswith(full)
    assert full.startswith("archer → orc-2")  # who and whom first, never cut
    assert view.wordWrap()
    assert view.fontMetrics().horizontalAdvance(full) > view.viewport().width()
    assert view.visualRect(index).height() >= 2 * view.fontMetrics().height()  # wrapped


def _shot_rows(ws) -> list[list[str]]:  # type: ignore[no-untyped-def]
    """Gets the archer's shots as the resolution list shows them (cell texts)."""
    model = ws.steps_view.model()
    rows = [[str(model.index(r, c).data() or "") for c in range(model.columnCount())]
            for r in range(model.rowCount())]
    return [cells for cells in rows if cells[2] == "archer"]


def test_each_shot_of_a_volley_keeps_its_step_once_one_is_recorded(start) -> None:  # type: ignore[no-untyped-def]
    """addict.missile.rate-of-fire: a long bow's two shots are both on the list before and after
    the first shot's outcome is recorded (the second had vanished until "another attack")."""
    document = scenario("addict/winner-first-letter-order.json")
    archer = next(c for c in document["combatants"] if c["id"] == "archer")
    archer["weapons"] = [{"name": "long bow", "missile": True, "rate_of_fire": 2}]
    ws = start(document)
    board = ws.board
    assert isinstance(board, LetterBoard)
    assert drop_card(board, board.lanes["D"].model, "archer")
    fill_and_declare(board, target="orc-2")
    type_die(ws, "initiative party", "4")
    type_die(ws, "initiative monsters", "2")
    shots = [s for s in ws.controller.resolution.steps if s.actor == "archer"]
    assert [(str(s.event), s.detail.get("shot")) for s in shots] == [("attacks", 1),
                                                                     ("attacks", 2)]
    assert [cells[3] for cells in _shot_rows(ws)] == ["attacks", "attacks"]
    record(ws, "archer", True, 3)  # the first shot
    shots = [s for s in ws.controller.resolution.steps if s.actor == "archer"]
    assert [(str(s.event), s.detail.get("shot")) for s in shots] == [("hits", 1),
                                                                     ("attacks", 2)]
    assert [cells[3] for cells in _shot_rows(ws)] == ["hits", "attacks"]  # still there
    ws.select_step(shots[1].seq)
    ws.outcome.damage.setValue(0)
    ws.outcome.miss_button.click()
    assert ws.outcome.error.text() == ""
    shots = [s for s in ws.controller.resolution.steps if s.actor == "archer"]
    assert [(str(s.event), s.detail.get("damage")) for s in shots] == [("hits", 3),
                                                                       ("misses", None)]
    assert ws.controller.state.rounds[-1]["declarations"][0]["hits"] == [
        {"hit": True, "damage": 3}, {"hit": False}]
    assert [cells[3] for cells in _shot_rows(ws)] == ["hits", "misses"]


def test_monsters_declared_by_the_dm_are_not_timed(start, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """addict.declare.delay: Phase 6 has the DM note the monsters' declarations privately; a
    timer that ran while the DM picked an orc's target gave it delay segments."""
    ws = start(scenario("addict/winner-first-letter-order.json"))
    board = ws.board
    assert isinstance(board, LetterBoard)
    press_on_card(board, "orc-1", "G")
    assert board.timing is None and not board.timer.isValid()
    monkeypatch.setattr(board.timer, "elapsed", lambda: 13_400)  # however long it takes
    fill_and_declare(board, target="fighter")
    entry = ws.controller.state.rounds[-1]["declarations"][0]
    assert entry["actor"] == "orc-1" and "delay_seconds" not in entry
    press_on_card(board, "fighter", "G")  # a player's combatant is timed
    assert board.timing == "fighter"


def test_the_timer_counts_the_players_deciding_not_the_dms_typing(start, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """addict's declaration delay is the player's hesitation (issue 24): 19 s of the DM
    filling the form in once became "delay 3 segments"."""
    ws = start(scenario("addict/winner-first-letter-order.json"))
    board = ws.board
    assert isinstance(board, LetterBoard)
    board.cards.select_id("fighter")
    board.cards.setFocus()
    QTest.keyClicks(board.cards, "t")  # the DM asks the player: the clock starts
    assert board.timing == "fighter" and board.timer.isValid()
    monkeypatch.setattr(board.timer, "elapsed", lambda: 7_200)
    press_on_card(board, "fighter", "G")  # the player answers "strike": the clock keeps on
    assert board.timing == "fighter"
    board.editor.set_value("target", "orc-1")  # the DM writes it down: the clock stops at 7 s
    assert "decided in 7 s" in board.timer_label.text()
    monkeypatch.setattr(board.timer, "elapsed", lambda: 26_000)  # slow typing, a second look
    QTest.keyClick(board.editor.target, Qt.Key.Key_Return)
    entry = ws.controller.state.rounds[-1]["declarations"][0]
    assert entry["delay_seconds"] == 7
    lane = board.lanes["G"].model
    assert "7 s to decide" in lane.texts()[0]  # the delay shows on the declaration
    ws.controller.stack.undo()  # one Ctrl+Z takes the declaration and its delay back
    assert not (ws.controller.state.rounds and ws.controller.state.rounds[-1]["declarations"])


def test_a_morale_check_asked_after_a_blow_keeps_the_blows_already_recorded(start) -> None:  # type: ignore[no-untyped-def]
    """addict.morale.after-trigger: the orcs won and struck; Elowen's recorded blow drops an
    orc, and the DM asks for the orcs' check. It comes after that blow: the hits recorded
    before it stay (they vanished when the check went to the top of the round), the orc
    who is down does not check, and whoever fails flees."""
    document = scenario("addict/morale-after-the-blow-that-set-it-off.json")
    ws = start(document)
    board = ws.board
    assert isinstance(board, LetterBoard)
    for actor, target in (("orc-3", "halvaine"), ("orc-1", "brannoc"), ("elowen", "orc-2"),
                          ("brannoc", "orc-1")):
        press_on_card(board, actor, "G")
        fill_and_declare(board, target=target)
    type_die(ws, "initiative party", "2")
    type_die(ws, "initiative orcs", "5")
    record(ws, "orc-3", True, 3)
    record(ws, "orc-1", False, 0)
    record(ws, "elowen", True, 4)
    record(ws, "brannoc", True, 2)
    ws.stepper.morale_who.setCurrentText("orcs (whole side)")
    ws.findChild(QPushButton, "roundMorale").click()
    # the last blow recorded on an orc: Brannoc's, simultaneous with Elowen's
    assert ws.controller.state.rounds[-1]["morale"] == {"orcs": {"after": 3}}
    type_die(ws, "morale (round 1) orcs", "11")
    assert ws.controller.state.rounds[-1]["morale"] == {"orcs": {"after": 3, "roll": 11}}
    steps = ws.controller.resolution.steps
    assert [(s.actor, str(s.event)) for s in steps][:4] == [
        ("orc-3", "hits"), ("orc-1", "misses"), ("elowen", "hits"), ("brannoc", "hits")]
    assert ws.controller.resolution.combatants["halvaine"].hp == 6  # orc 3's blow stands
    assert {s.actor for s in steps if s.event == "morale-check"} == {"orc-1", "orc-3"}
    assert {s.actor for s in steps if s.event == "flees"} == {"orc-1", "orc-3"}
    assert gui_steps(ws) == cli_steps(document)
    ws.controller.stack.undo()  # the die
    ws.controller.stack.undo()  # the check itself: one Ctrl+Z each
    assert not ws.controller.state.rounds[-1].get("morale")


def test_a_spell_lost_to_a_blow_is_offered_to_the_roster_as_lost(start) -> None:  # type: ignore[no-untyped-def]
    """addict.spell.lost-on-damage at the end of the fight: the orc's blow spoils Halvaine's
    Magic missile; End offers it as lost (used up, not cast), the Command cast beside it."""
    from desktop.encounter.actions import EncounterActions

    document = scenario("addict/losing-caster-hit-by-winner-loses-spell.json")
    ws = start(document)
    board = ws.board
    assert isinstance(board, LetterBoard)
    for actor, spell, target in (("halvaine", "magic missile", "orc"),
                                 ("ysolde", "command", "archer")):
        press_on_card(board, actor, "D")
        fill_and_declare(board, spell=spell, target=target)
    press_on_card(board, "orc", "G")
    fill_and_declare(board, target="halvaine")
    type_die(ws, "initiative party", "2")
    type_die(ws, "initiative monsters", "5")
    record(ws, "orc", True, 3)
    _state, spent, lost = EncounterActions._end_state(ws)
    assert spent == {"halvaine": ["magic missile"], "ysolde": ["command"]}
    assert lost == {"halvaine": ["magic missile"]}
