"""What the declaration form offers beyond target and weapon: a charge's distance (addict,
side-d6: the engine turns it into the segment of contact) and a popcorn attack's range and
cover, with the attack-roll modifiers they bring shown in words before the die is rolled."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from desktop.encounter.letter_board import LetterBoard
from desktop.main_window import MainWindow
from tests.desktop.table.conftest import IdWatch
from tests.desktop.table.letter_helpers import (  # noqa: F401 (letter_ids is a fixture)
    declarations,
    drop_card,
    field,
    fill,
    letter_ids,
    start_fight,
    type_die,
)


def _hidden(board: LetterBoard, label: str) -> bool:
    try:
        field(board, label)
    except AssertionError:
        return True
    return False


def test_a_charge_over_a_distance_reaches_in_the_segment_its_move_allows(
        table: MainWindow, letter_ids: IdWatch) -> None:  # noqa: F811
    """side-d6.move.contact-segment: Brannoc (Move 9) charges Orc 1 from 6 (the Move's unit):
    a tenth of his Move a segment, so he reaches 7 segments after the party's segment."""
    ws = start_fight(table, "side-d6")
    board = ws.board
    assert isinstance(board, LetterBoard)
    drop_card(board, "Brannoc the Bold", "attack")
    assert _hidden(board, "Distance")  # a blow covers no distance
    QTest.keyClick(board.editor.target, Qt.Key.Key_Escape)
    drop_card(board, "Brannoc the Bold", "charge")
    fill(board, Target="Orc 1", Distance=6)
    assert board.message.text() == "", board.message.text()
    assert declarations(ws)[-1]["distance"] == 6
    type_die(ws, "initiative party", 6)
    type_die(ws, "initiative monsters", 1)  # the party acts in segment 1
    resolution = ws.controller.resolution
    assert resolution is not None and ws.controller.error is None, ws.controller.error
    labels = {c.id: c.label for c in ws.controller.state.combatants.values()}
    blow = next(s for s in resolution.steps if labels[s.actor] == "Brannoc the Bold"
                and s.event in ("attacks", "hits", "misses"))
    assert blow.segment == 7  # ceil(6 × 10 / 9) = 7 segments, counting his own
    assert "side-d6.move.contact-segment" in " ".join(
        r for s in resolution.steps for r in s.because)
    letter_ids.check()


def test_an_addict_charge_distance_is_in_feet(table: MainWindow, letter_ids: IdWatch) -> None:  # noqa: F811
    """addict.move.distance: the form asks for feet on an addict charge; the declaration
    carries them and the engine resolves without a typed segment count."""
    ws = start_fight(table, "addict")
    board = ws.board
    assert isinstance(board, LetterBoard)
    drop_card(board, "Brannoc the Bold", "E · move [E]")
    assert board.editor.distance.suffix() == " ft"
    board.editor.charge.setChecked(True)
    fill(board, Target="Orc 1", Distance=30)
    assert board.message.text() == "", board.message.text()
    assert declarations(ws)[-1].get("distance") == 30 and declarations(ws)[-1].get("charge")
    type_die(ws, "initiative party", 6)
    type_die(ws, "initiative monsters", 1)
    assert ws.controller.error is None, ws.controller.error
    letter_ids.check()


def test_a_popcorn_missile_shows_its_roll_modifiers_by_range_and_cover(table: MainWindow) -> None:
    """popcorn.attack.range-modifier, popcorn.attack.partial-cover,
    popcorn.attack.natural-1-and-20: long range and partial cover are picked in the turn form;
    the form says what they do to the roll before the die is rolled, the turn keeps them, and
    a shot beyond long range is refused in words."""
    from desktop.encounter.popcorn_board import PopcornBoard
    from tests.desktop.table.popcorn_helpers import PopcornWatch, drop_on, lane, pick, type_die

    dialog = table.encounter_actions.ask_new_encounter()
    assert dialog is not None
    dialog.set_system("popcorn")
    for row in range(dialog.fighters.rowCount()):
        item = dialog.fighters.item(row, 0)
        if item.text() != "Brannoc the Bold":
            item.setCheckState(Qt.CheckState.Unchecked)
    dialog.set_count("Orc", 1)
    dialog.accept()
    ws = table.encounter_actions.current()
    assert ws is not None and isinstance(ws.board, PopcornBoard)
    board = ws.board
    ids = PopcornWatch(table)
    type_die(ws, "initiative Brannoc the Bold", 17)
    type_die(ws, "initiative Orc 1", 3)

    assert drop_on(board, lane(board, "missile ["), "Brannoc the Bold")
    editor = board.editor
    pick(editor.target, "Orc 1")
    pick(editor.range, "long (−1)")
    pick(editor.cover, "partial")
    notes = editor.attack_notes.text()
    assert "Long range: -1" in notes and "Orc 1 is in partial cover" in notes
    assert "natural 20 always hits" in notes and "orc-1" not in notes
    QTest.keyClick(editor.target, Qt.Key.Key_Return)
    assert editor.isHidden(), board.message.text()
    turn = ws.controller.state.rounds[-1]["turns"][-1]
    assert (turn["range"], turn["cover"]) == ("long", "partial")
    ids.check()

    # Changed to beyond long range: the form warns, and the engine refuses the turn in words.
    row = lane(board, "missile [").model.index(0, 0)
    lane(board, "missile [").view.setCurrentIndex(row)
    lane(board, "missile [").view.doubleClicked.emit(row)
    assert not editor.isHidden() and editor.range.currentData() == "long"  # as it was saved
    pick(editor.range, "beyond long (no attack)")
    assert "beyond long range: no attack is possible" in editor.attack_notes.text()
    QTest.keyClick(editor.target, Qt.Key.Key_Return)
    assert "no attack is possible beyond long range" in board.message.text(), (
        board.message.text(), editor.isHidden(), ws.controller.state.rounds[-1]["turns"],
        ws.controller.error)
    assert ws.controller.state.rounds[-1]["turns"][-1]["range"] == "long"  # nothing changed
    ids.check()


def test_changing_a_declaration_keeps_the_condition_and_outcome_recorded_on_it(
        table: MainWindow, letter_ids: IdWatch) -> None:  # noqa: F811
    """A sleep with "asleep" recorded from the outcome panel, then the declaration changed
    from its card (another target): the condition stays on the declaration."""
    from tests.desktop.table.conftest import button
    from tests.desktop.table.letter_helpers import press_on_lane

    ws = start_fight(table, "side-d6")
    board = ws.board
    assert isinstance(board, LetterBoard)
    drop_card(board, "Halvaine the Arcane", "spell")
    fill(board, Target="Orc 1", Spell="Sleep")
    type_die(ws, "initiative party", 6)
    type_die(ws, "initiative monsters", 1)
    resolution = ws.controller.resolution
    assert resolution is not None
    effect = next(s for s in resolution.steps if s.event == "spell-takes-effect")
    ws.select_step(effect.seq)
    ws.outcome.conditions.condition.setCurrentText("asleep")
    button(ws.outcome.conditions, "Start").click()
    assert declarations(ws)[-1]["conditions"] == [{"name": "asleep"}]
    press_on_lane(board, "spell", "Halvaine the Arcane", Qt.Key.Key_Return)
    fill(board, Target="Orc 2")
    changed = declarations(ws)[-1]
    assert changed["target"] == "orc-2" and changed["conditions"] == [{"name": "asleep"}]
    letter_ids.check()
