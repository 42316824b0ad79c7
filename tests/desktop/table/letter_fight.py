"""One three-round fight on a letter board, from the surprise dice to the last blow.

Shared by the addict and side-d6 table tests: ``lanes`` names the lanes a DM uses for a blow,
a spell, a move and a grapple-or-other in that system.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt

from core.model.values import Step
from desktop.encounter.letter_board import LetterBoard
from desktop.encounter.workspace import EncounterWorkspace
from desktop.main_window import MainWindow
from tests.desktop.table.conftest import IdWatch, button
from tests.desktop.table.letter_helpers import (
    combo_texts,
    declarations,
    drag_lane_card,
    drop_card,
    fill,
    gui_and_cli_steps,
    key_card,
    lane,
    names_only,
    press_on_lane,
    record,
    start_fight,
    type_die,
    undo_redo,
)
from tests.desktop.table.results_helpers import shot


@dataclass(frozen=True)
class Lanes:
    blow: str
    blow_key: str
    spell: str
    spell_key: str
    move: str
    other: str
    other_key: str


def fight(window: MainWindow, ids: IdWatch, system: str, lanes: Lanes) -> None:
    ws = start_fight(window, system)
    board = ws.board
    assert isinstance(board, LetterBoard)
    ids.check()

    # --- surprise: the dice decide, and nothing is claimed before they are all in ------------
    button(ws.stepper, "Check Surprise").click()
    type_die(ws, "surprise party", 5)
    assert "waiting for dice" in board.dice_label.text()
    assert "surprised" not in board.dice_label.text().lower().replace("surprise:", "")
    ids.check()
    type_die(ws, "surprise monsters", 2)
    assert "Surprised: Orc 1, Orc 2" in board.dice_label.text()
    assert "surprise segments" in board.round_label.text()
    ids.check()

    # --- the surprise segments: a blow, a one-segment spell, a spell that finishes later -----
    drop_card(board, "Brannoc the Bold", lanes.blow)
    targets = combo_texts(board, "Target")
    names_only(targets)
    assert "Brannoc the Bold" not in targets and "Orc 1" in targets
    assert combo_texts(board, "Weapon")[0] == "default: Long sword"  # never a silent dash
    fill(board, Target="Orc 1", Surprise_segment=1)
    assert board.message.text() == "", board.message.text()
    assert ws.controller.state.rounds[0].get("surprise") is True
    assert "surprise segments" in board.round_label.text()
    undo_redo(window, ids, [], lambda: declarations(ws))

    before = declarations(ws)
    key_card(board, "Halvaine the Arcane", lanes.spell_key)
    fill(board, Target="Orc 2", Spell="Magic missile", Surprise_segment=1)
    undo_redo(window, ids, before, lambda: declarations(ws))
    drop_card(board, "Sister Ysolde", lanes.spell)
    fill(board, Target="Orc 1", Spell="Hold person", Surprise_segment=2)
    assert board.message.text() == "", board.message.text()
    record(ws, "Brannoc the Bold", "Orc 1", True, 1)
    ids.check()
    steps = ws.controller.resolution.steps
    names = {c.id: c.label for c in ws.controller.state.combatants.values()}
    blow = [s for s in steps if names[s.actor] == "Brannoc the Bold" and s.event == "hits"]
    assert blow and blow[0].surprise and blow[0].segment == 1
    missile = [s for s in steps if names[s.actor] == "Halvaine the Arcane"
               and s.event == "spell-takes-effect"]
    assert missile and missile[0].surprise and missile[0].segment == 1
    hold = [s for s in steps if names[s.actor] == "Sister Ysolde"
            and s.event == "spell-takes-effect"]
    assert hold and not hold[0].surprise  # begun in surprise segment 2, completes later
    assert not [s for s in steps if names[s.actor].startswith("Orc") and s.event == "attacks"]

    # --- round 2 (the first after surprise): declared, changed, moved, taken back ---
    button(board, "Start Round 2").click()  # numbered as the resolution list numbers it
    # the board, the timeline and the printout say the convention alike (issue 27)
    first_full = "Round 2 — first full round (round 1 was the surprise segments)"
    assert board.round_label.text() == f"<b>{first_full}</b>"
    headers = [b.label for b in ws.timeline.timeline_layout.rounds]
    assert headers == ["Round 1 — surprise segments", first_full]  # before round 2's dice
    shot(window, f"{system}-round-2-after-surprise.png")
    assert "waiting for dice" in board.dice_label.text()
    ids.check()
    drop_card(board, "Brannoc the Bold", lanes.blow)
    fill(board, Target="Orc 1")
    drop_card(board, "Orc 1", lanes.blow)
    fill(board, Target="Brannoc the Bold")
    drop_card(board, "Orc 2", lanes.blow)
    fill(board, Target="Pip Underbough")
    drop_card(board, "Pip Underbough", lanes.move)
    fill(board)
    assert "waiting for dice" in board.dice_label.text()  # no segments before the dice
    ids.check()

    # changed: Enter on the card opens it; Orc 2 now goes for Garrick
    before = declarations(ws)
    press_on_lane(board, lanes.blow, "Orc 2 → Pip", Qt.Key.Key_Return)
    assert not board.editor.isHidden() and board.editor.submit_button.text() == "&Change"
    fill(board, Target="Garrick")
    assert lane(board, lanes.blow).model.texts()[-1].startswith("Orc 2 → Garrick")
    assert len(declarations(ws)) == len(before)
    undo_redo(window, ids, before, lambda: declarations(ws))

    # moved by a real drag: Brannoc grapples instead; and back again with the lane's key
    before = declarations(ws)
    drag_lane_card(board, lanes.blow, "Brannoc the Bold", lanes.other)
    moved_texts = lane(board, lanes.other).model.texts()
    assert any(t.startswith("Brannoc the Bold → Orc 1") for t in moved_texts)
    undo_redo(window, ids, before, lambda: declarations(ws))
    moved = declarations(ws)
    press_on_lane(board, lanes.other, "Brannoc the Bold", lanes.blow_key)
    assert declarations(ws) == before
    undo_redo(window, ids, moved, lambda: declarations(ws))

    # taken back from the card itself
    before = declarations(ws)
    press_on_lane(board, lanes.move, "Pip Underbough", Qt.Key.Key_Delete)
    assert not lane(board, lanes.move).model.texts()
    undo_redo(window, ids, before, lambda: declarations(ws))

    type_die(ws, "initiative party", 4)
    assert "waiting for dice" in board.dice_label.text()
    type_die(ws, "initiative monsters", 2)
    assert "waiting for dice" not in board.dice_label.text()
    record(ws, "Orc 1", "Brannoc the Bold", True, 4)
    record(ws, "Orc 2", "Garrick", False)
    ids.check()

    # --- rounds 3 and 4 --------------------------------------------------------------------
    for number, dice in ((3, (3, 5)), (4, (6, 1))):
        button(board, "New Round").click()
        assert board.round_label.text() == f"<b>Round {number}</b>"
        drop_card(board, "Garrick", lanes.blow)
        fill(board, Target="Orc 2")
        key_card(board, "Orc 2", lanes.blow_key)
        fill(board, Target="Garrick")
        if number == 3:
            # a sleep and a cure, declared before the dice like any spell
            drop_card(board, "Halvaine the Arcane", lanes.spell)
            fill(board, Target="Orc 1", Spell="Sleep")
            drop_card(board, "Sister Ysolde", lanes.spell)
            fill(board, Target="Brannoc the Bold", Spell="Cure light wounds")
            assert board.message.text() == "", board.message.text()
        type_die(ws, "initiative party", dice[0])
        type_die(ws, "initiative monsters", dice[1])
        record(ws, "Garrick", "Orc 2", False)
        ids.check()
        if number == 3:
            heal_and_sleep(window, ws, ids)
    undo_redo(window, ids, None, lambda: None)  # the last outcome: Ctrl+Z, Ctrl+Shift+Z

    gui, cli = gui_and_cli_steps(ws)
    assert gui == cli
    ids.check()


def _spell_step(ws: EncounterWorkspace, caster: str, spell: str) -> Step:
    names = {c.id: c.label for c in ws.controller.state.combatants.values()}
    resolution = ws.controller.resolution
    assert resolution is not None
    return next(s for s in resolution.steps if names[s.actor] == caster
                and s.event == "spell-takes-effect" and s.detail.get("spell") == spell)


def _hp(ws: EncounterWorkspace, name: str) -> int | None:
    resolution = ws.controller.resolution
    assert resolution is not None
    cid = next(c.id for c in ws.controller.state.combatants.values() if c.label == name)
    return resolution.combatants[cid].hp


def heal_and_sleep(window: MainWindow, ws: EncounterWorkspace, ids: IdWatch) -> None:
    """The cure heals Brannoc by the figure typed; the sleep puts Orc 1 to sleep until ended,
    so its next blow does not happen; Ctrl+Z after each takes exactly that back."""
    hurt = _hp(ws, "Brannoc the Bold")
    ws.select_step(_spell_step(ws, "Sister Ysolde", "Cure light wounds").seq)
    ws.outcome.damage.setValue(3)
    ws.outcome.heal_button.click()
    assert ws.outcome.error.text() == ""
    assert hurt is not None and _hp(ws, "Brannoc the Bold") == hurt + 3
    undo_redo(window, ids, hurt, lambda: _hp(ws, "Brannoc the Bold"))

    def asleep() -> list[str]:
        resolution = ws.controller.resolution
        assert resolution is not None
        names = {c.id: c.label for c in ws.controller.state.combatants.values()}
        return [f"{names[s.actor]} {s.event} {s.detail.get('condition')}"
                for s in resolution.steps if str(s.event).startswith(("condition", "cannot"))]

    assert asleep() == []
    ws.select_step(_spell_step(ws, "Halvaine the Arcane", "Sleep").seq)
    controls = ws.outcome.conditions
    assert controls.on.currentText() == "Orc 1"  # the spell's target, by name
    assert controls.on.itemText(0) == "Orc 1"
    controls.condition.setCurrentText("asleep")
    button(controls, "Start").click()
    assert ws.outcome.error.isHidden(), ws.outcome.error.text()
    assert asleep()[0] == "Orc 1 condition-starts asleep"
    ids.check()
    undo_redo(window, ids, [], asleep)
