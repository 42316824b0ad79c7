"""popcorn at the table: a 3-round fight driven as a DM drives it, on a real campaign file.

Kill a creature a later turn had nominated (popcorn.pass.fallen-nominee), pass a turn after it
was taken, wait, ready, a readied action set off, a saved turn changed; Ctrl+Z after each step;
no id on screen; and the fight resolves as the CLI resolves the same encounter as a scenario.
"""

from __future__ import annotations

from html import unescape

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from core.cli.commands import resolve_scenario
from core.fight.encounter import scenario_document
from core.model.scenario import parse_scenario
from core.model.values import Step
from desktop.encounter.popcorn_board import PopcornBoard
from desktop.encounter.workspace import EncounterWorkspace
from desktop.main_window import MainWindow
from tests.desktop.table.conftest import button
from tests.desktop.table.popcorn_helpers import (
    PopcornWatch,
    card_row,
    drop_on,
    items,
    key_on_card,
    lane,
    lane_names,
    pick,
    type_die,
    undo_redo,
)

BRANNOC, YSOLDE, ORC1, ORC2 = "Brannoc the Bold", "Sister Ysolde", "Orc 1", "Orc 2"


def _start(window: MainWindow) -> EncounterWorkspace:
    dialog = window.encounter_actions.ask_new_encounter()
    assert dialog is not None
    dialog.set_system("popcorn")
    for row in range(dialog.fighters.rowCount()):  # two of the party fight
        item = dialog.fighters.item(row, 0)
        if item.text() not in (BRANNOC, YSOLDE):
            item.setCheckState(Qt.CheckState.Unchecked)
    dialog.set_count("Orc", 2)
    dialog.accept()
    ws = window.encounter_actions.current()
    assert ws is not None and isinstance(ws.board, PopcornBoard)
    return ws


def _record(ws: EncounterWorkspace, actor: str, hit: bool, damage: int = 0) -> None:
    """Selects the actor's last attack in the resolution list and clicks Hit or Miss."""
    labels = {c.id: c.label for c in ws.controller.state.combatants.values()}
    steps = [s for s in ws.controller.resolution.steps
             if labels[s.actor] == actor and s.event in ("attacks", "hits", "misses")]
    ws.select_step(steps[-1].seq)
    ws.outcome.damage.setValue(damage)
    (ws.outcome.hit_button if hit else ws.outcome.miss_button).click()
    assert ws.outcome.error.text() == ""


def _events(ws: EncounterWorkspace) -> list[tuple[str, str]]:
    labels = {c.id: c.label for c in ws.controller.state.combatants.values()}
    return [(str(s.event), labels[s.actor]) for s in ws.controller.resolution.steps]


def _spell_step(ws: EncounterWorkspace, caster: str) -> Step:
    """The caster's last spell step (takes effect, or begins casting)."""
    labels = {c.id: c.label for c in ws.controller.state.combatants.values()}
    return [s for s in ws.controller.resolution.steps if labels[s.actor] == caster
            and s.event in ("spell-takes-effect", "begins-casting")][-1]


def _take(board: PopcornBoard, actor: str, action: str, **fields: str) -> None:
    """Drops the actor's card on an action lane, fills the turn by names, saves with Enter."""
    assert drop_on(board, lane(board, f"{action} ["), actor)
    for name, text in fields.items():
        widget = getattr(board.editor, name)
        if hasattr(widget, "findText"):
            pick(widget, text)
        else:
            widget.setText(text)
    QTest.keyClick(board.editor.target, Qt.Key.Key_Return)
    assert board.editor.isHidden(), board.message.text()


def test_a_three_round_popcorn_fight_at_the_table(table: MainWindow) -> None:
    ids = PopcornWatch(table)
    ws = _start(table)
    board = ws.board
    assert isinstance(board, PopcornBoard)
    ids.check()

    # 1. Roll Initiative: dice typed from the table; 18 against 18, the players win the tie.
    for name, d20 in ((BRANNOC, 17), (YSOLDE, 9), (ORC1, 18), (ORC2, 4)):
        type_die(ws, f"initiative {name}", d20)
    totals = board.initiative_label.text()  # Brannoc's DEX adds 1 (the sample campaign)
    assert f"{BRANNOC} <b>18</b>" in totals and f"{ORC1} <b>18</b>" in totals
    assert f"tie at 18: {BRANNOC} opens (players win ties)" in totals
    undo_redo(ws)
    ids.check()
    assert BRANNOC in board.active_label.text()

    # Round 1. Brannoc swings at Orc 1 (outcome not known yet) and names Ysolde.
    _take(board, BRANNOC, "attack", target=ORC1, nominates=YSOLDE)
    undo_redo(ws)
    ids.check()
    # Ysolde names Orc 1 before Brannoc's blow is known; her list offers names only,
    # never herself, and not Brannoc (he has acted this round).
    assert drop_on(board, lane(board, "other ["), YSOLDE)
    offered = items(board.editor.nominates)
    assert YSOLDE not in offered and ORC1 in offered
    pick(board.editor.nominates, ORC1)
    QTest.keyClick(board.editor.target, Qt.Key.Key_Return)
    assert board.editor.isHidden(), board.message.text()
    ids.check()
    # Now the blow lands: Orc 1 dies. Recorded, not refused; the nomination falls back.
    _record(ws, BRANNOC, True, 9)
    assert board.message.text() == ""
    fell = [s for s in ws.controller.resolution.steps
            if "popcorn.pass.fallen-nominee" in s.because]
    assert fell and fell[0].detail["nominee_fell"] == "dead"
    assert f"{ORC1} fell before acting" in board.active_label.text()
    assert ORC1 not in lane_names(board.status_lanes["not-acted"])
    undo_redo(ws)
    ids.check()

    # Orc 2 acts, saved without a nominee; the miss is recorded; then the pass.
    _take(board, ORC2, "attack", target=BRANNOC)
    _record(ws, ORC2, False)
    key_on_card(board, BRANNOC, "N")  # the last of the round names who opens round 2
    turns = ws.controller.state.rounds[-1]["turns"]
    assert turns[-1].get("nominates") and board.message.text() == ""
    undo_redo(ws)
    ids.check()
    # 4. End of Round: Orc 2 checks morale with the table's 2d6 (it holds).
    type_die(ws, f"morale {ORC2} (round 1)", 5, "morale orc-2 (round 1)")
    undo_redo(ws)

    # Round 2: Brannoc waits (names Ysolde); Ysolde readies against Orc 2 (names Orc 2);
    # Orc 2 moves, which sets off Ysolde's readied attack; Orc 2 names Brannoc, who acts.
    button(board, "New Round").click()
    undo_redo(ws)
    _take(board, BRANNOC, "wait", nominates=YSOLDE)
    assert BRANNOC in lane_names(board.status_lanes["waiting"])
    undo_redo(ws)
    _take(board, YSOLDE, "attack", target=ORC2, nominates=ORC2)
    ids.check()
    # The readied variant: change the saved turn (double-click) to ready it instead.
    row = lane(board, "attack [").model.index(0, 0)
    lane(board, "attack [").view.setCurrentIndex(row)
    lane(board, "attack [").view.doubleClicked.emit(row)
    assert not board.editor.isHidden()
    board.editor.ready.setText("Orc 2 moves")
    QTest.keyClick(board.editor.target, Qt.Key.Key_Return)
    assert board.editor.isHidden(), board.message.text()
    assert YSOLDE in lane_names(board.status_lanes["readied"])
    undo_redo(ws)
    ids.check()
    _take(board, ORC2, "move", triggers=YSOLDE, nominates=BRANNOC)
    assert YSOLDE not in lane_names(board.status_lanes["readied"])
    assert YSOLDE in lane_names(board.status_lanes["acted"])
    undo_redo(ws)
    ids.check()
    _take(board, BRANNOC, "attack", target=ORC2, nominates=ORC2)
    _record(ws, BRANNOC, False)
    undo_redo(ws)
    ids.check()

    type_die(ws, f"morale {ORC2} (round 2)", 6, "morale orc-2 (round 2)")

    # Round 3: Orc 2 hits Ysolde and names her; she holds it (a condition recorded on her
    # spell) and names Brannoc, who strikes the held orc down and names her to open round 4.
    button(board, "New Round").click()
    _take(board, ORC2, "attack", target=YSOLDE, nominates=YSOLDE)
    _record(ws, ORC2, True, 2)
    undo_redo(ws)
    _take(board, YSOLDE, "spell", target=ORC2, spell="Hold person", nominates=BRANNOC)
    before = _events(ws)
    ws.select_step(_spell_step(ws, YSOLDE).seq)
    controls = ws.outcome.conditions
    assert controls.on.currentText() == ORC2
    controls.condition.setCurrentText("held")
    button(controls, "Start").click()
    assert ws.outcome.error.isHidden(), ws.outcome.error.text()
    assert ("condition-starts", ORC2) in _events(ws)
    undo_redo(ws)
    ids.check()
    ws.controller.stack.undo()
    assert _events(ws) == before
    ws.controller.stack.redo()
    _take(board, BRANNOC, "attack", target=ORC2, nominates=YSOLDE)
    _record(ws, BRANNOC, True, 12)
    undo_redo(ws)
    ids.check()

    # Round 4: Ysolde cures herself of the orc's 2 points.
    button(board, "New Round").click()
    _take(board, YSOLDE, "spell", target=YSOLDE, spell="Cure light wounds")
    hurt = ws.controller.resolution.combatants["roster-2"].hp
    ws.select_step(_spell_step(ws, YSOLDE).seq)
    ws.outcome.damage.setValue(2)
    ws.outcome.heal_button.click()
    assert ws.outcome.error.isHidden(), ws.outcome.error.text()
    assert ws.controller.resolution.combatants["roster-2"].hp == hurt + 2
    undo_redo(ws)
    ws.controller.stack.undo()
    assert ws.controller.resolution.combatants["roster-2"].hp == hurt
    ws.controller.stack.redo()
    ids.check()

    # The GUI's steps are the CLI's resolution of the same encounter written as a scenario.
    document = scenario_document(ws.controller.state)
    cli = resolve_scenario(parse_scenario(document)).to_json()["steps"]
    assert ws.controller.resolution.to_json()["steps"] == cli
    events = [(s["event"], s["because"]) for s in cli]
    assert any(e == "readied-triggers" for e, _ in events)
    assert any(e == "waits" for e, _ in events)
    assert ws.controller.resolution.combatants["orc-1"].status == "dead"


# --- what a new DM ran into (fallen nominee, morale, words, lists, a missile's weapon) ---------

PIP, KOBOLD1, KOBOLD2 = "Pip Underbough", "Kobold 1", "Kobold 2"
MORALE_FAILS_SEED = 1
"""A dice seed whose 2d6 fails the kobold's morale (the test checks the engine says so)."""


def _start_with(window: MainWindow, party: tuple[str, ...], seed: int = 0,
                **monsters: int) -> EncounterWorkspace:
    """Starts a popcorn fight of ``party`` against ``monsters`` (template name: count)."""
    dialog = window.encounter_actions.ask_new_encounter()
    assert dialog is not None
    dialog.set_system("popcorn")
    dialog.seed.setValue(seed)
    for row in range(dialog.fighters.rowCount()):
        item = dialog.fighters.item(row, 0)
        if item.text() not in party:
            item.setCheckState(Qt.CheckState.Unchecked)
    for name, count in monsters.items():
        dialog.set_count(name, count)
    dialog.accept()
    ws = window.encounter_actions.current()
    assert ws is not None and isinstance(ws.board, PopcornBoard)
    return ws


def _step_texts(ws: EncounterWorkspace) -> list[str]:
    """Every step of the resolution list as the DM reads it on hovering its row."""
    model = ws.steps_view.model()
    return [unescape(str(model.index(r, 0).data(Qt.ItemDataRole.ToolTipRole)))
            for r in range(model.rowCount())]


def test_a_fallen_nominee_is_replaced_by_pressing_n(table: MainWindow) -> None:
    """popcorn.pass.fallen-nominee: N on a living creature makes it the active one."""
    ids = PopcornWatch(table)
    ws = _start_with(table, (BRANNOC, PIP), Kobold=2)
    board = ws.board
    assert isinstance(board, PopcornBoard)
    for name, d20 in ((BRANNOC, 17), (PIP, 9), (KOBOLD1, 5), (KOBOLD2, 4)):
        type_die(ws, f"initiative {name}", d20)

    # A missile turn shoots the bow Brannoc carries, not his first weapon (the sword).
    assert drop_on(board, lane(board, "missile ["), BRANNOC)
    assert board.editor.weapon.currentText() == "Long bow"
    pick(board.editor.target, KOBOLD1)
    pick(board.editor.nominates, KOBOLD1)
    QTest.keyClick(board.editor.target, Qt.Key.Key_Return)
    assert board.editor.isHidden(), board.message.text()
    assert ws.controller.state.rounds[-1]["turns"][0]["weapon"] == "Long bow"
    assert any(f"attacks {KOBOLD1} with Long bow" in t for t in _step_texts(ws))
    assert ws.controller.stack.undoText() == f"{BRANNOC}: missile on {KOBOLD1}, names {KOBOLD1}"

    # The arrow kills the nominee: the header says in full what to do, and wraps.
    _record(ws, BRANNOC, True, 9)
    header = board.active_label
    assert header.wordWrap()
    assert (f"{KOBOLD1} fell before acting, so {BRANNOC} names another creature: select one "
            "still to act and press N (or drop it on “Acts next”), then drop it on an action"
            in header.text())
    assert any(f"names {KOBOLD1} to act next, but {KOBOLD1} died before acting" in t
               for t in _step_texts(ws))

    # Brannoc has acted: N on him is refused in the engine's words; N on Pip makes Pip active.
    key_on_card(board, BRANNOC, "N")
    assert "already acted" in board.message.text()
    key_on_card(board, PIP, "N")
    assert board.message.text() == ""
    assert f"active: <b>{PIP}</b>" in header.text()
    assert lane_names(lane(board, "⇒ Acts next")) == [PIP]
    ids.check()

    # Pip's list names only who is still to act (not Brannoc, not Pip); nobody readied.
    assert drop_on(board, lane(board, "attack ["), PIP)
    assert items(board.editor.nominates)[1:] == [KOBOLD2]
    assert items(board.editor.triggers)[1:] == []
    pick(board.editor.target, KOBOLD2)
    QTest.keyClick(board.editor.target, Qt.Key.Key_Return)
    assert board.editor.isHidden(), board.message.text()
    again = [s for s in ws.controller.resolution.steps if s.detail.get("chosen_again")]
    pip = next(c.id for c in ws.controller.state.combatants.values() if c.label == PIP)
    assert again and again[0].target == pip  # the engine: Brannoc named Pip again
    assert any(f"{BRANNOC} names {PIP} to act next instead, after the first choice fell" in t
               for t in _step_texts(ws))
    assert not any("[" in t and ("chosen again" in t or "nominee fell" in t)
                   for t in _step_texts(ws))
    undo_redo(ws)
    ids.check()


def test_dm_words_name_what_the_dm_did(table: MainWindow) -> None:
    """A readied hit and a late nomination are named so, in the status bar and Undo."""
    ids = PopcornWatch(table)
    ws = _start_with(table, (BRANNOC, PIP), Kobold=2)
    board = ws.board
    assert isinstance(board, PopcornBoard)
    for name, d20 in ((BRANNOC, 17), (PIP, 9), (KOBOLD1, 5), (KOBOLD2, 4)):
        type_die(ws, f"initiative {name}", d20)
    # Brannoc readies an attack on Kobold 2 and names it; Kobold 2 moves and sets it off.
    _take(board, BRANNOC, "attack", target=KOBOLD2, nominates=KOBOLD2)
    row = lane(board, "attack [").model.index(0, 0)
    lane(board, "attack [").view.setCurrentIndex(row)
    lane(board, "attack [").view.doubleClicked.emit(row)
    assert not board.editor.isHidden()
    board.editor.ready.setText("Kobold 2 moves")
    QTest.keyClick(board.editor.target, Qt.Key.Key_Return)
    assert board.editor.isHidden(), board.message.text()
    assert ws.controller.stack.undoText() == f"Change {BRANNOC}'s turn"
    assert drop_on(board, lane(board, "move ["), KOBOLD2)
    # Sets off offers only who holds a readied action; Nominates only who is still to act.
    assert items(board.editor.triggers)[1:] == [BRANNOC]
    assert items(board.editor.nominates)[1:] == [PIP, KOBOLD1]
    key_on_card(board, BRANNOC, "N")  # not offered: refused in the engine's words, not saved
    assert "Refused" in board.message.text() and "already acted" in board.message.text()
    assert not board.editor.isHidden() and len(ws.controller.state.rounds[-1]["turns"]) == 1
    pick(board.editor.triggers, BRANNOC)
    pick(board.editor.nominates, PIP)
    QTest.keyClick(board.editor.target, Qt.Key.Key_Return)
    assert board.editor.isHidden(), board.message.text()

    _record(ws, BRANNOC, True, 1)
    words = f"{BRANNOC}'s readied attack hits {KOBOLD2} for 1"
    assert ws.controller.stack.undoText() == words
    assert table.statusBar().currentMessage() == f"Saved: {words}"
    ids.check()

    # Pip attacks, saved without a nominee; N on Kobold 1 names it afterwards.
    _take(board, PIP, "attack", target=KOBOLD1)
    _record(ws, PIP, False)
    assert ws.controller.stack.undoText() == f"{PIP} misses {KOBOLD1}"
    key_on_card(board, KOBOLD1, "N")
    words = f"{PIP} names {KOBOLD1} to act next"
    assert ws.controller.stack.undoText() == words
    assert table.statusBar().currentMessage() == f"Saved: {words}"
    undo_redo(ws)
    ids.check()


def test_a_morale_check_waits_for_its_die(table: MainWindow) -> None:
    """No morale result, and no fled monster, before the morale 2d6 is in."""
    ids = PopcornWatch(table)
    ws = _start_with(table, (BRANNOC,), seed=MORALE_FAILS_SEED, Kobold=1)
    board = ws.board
    assert isinstance(board, PopcornBoard)
    kobold = KOBOLD1
    for name, d20 in ((BRANNOC, 17), (kobold, 5)):
        type_die(ws, f"initiative {name}", d20)
    _take(board, BRANNOC, "attack", target=kobold, nominates=kobold)
    _record(ws, BRANNOC, False)
    _take(board, kobold, "attack", target=BRANNOC, nominates=BRANNOC)
    _record(ws, kobold, False)
    # The engine resolves with the seed's 2d6 meanwhile: with this seed the kobold fails.
    raw = ws.controller.resolution
    kid = next(c.id for c in ws.controller.state.combatants.values() if c.label == kobold)
    assert raw.combatants[kid].status == "fled"
    assert any(r.request.where[2:3] == ("morale",) for r in ws.stepper.rows)  # Dice needed
    texts = _step_texts(ws)
    assert any(f"{kobold} checks morale against 6: waits for its die" in t for t in texts)
    assert not any("rolled" in t or "flees" in t for t in texts)
    status = ws.status_model
    shown = [str(status.index(r, c).data()) for r in range(status.rowCount())
             for c in range(status.columnCount())]
    assert "fled" not in " ".join(shown)
    card = board.cards_model.index(card_row(board, kobold), 0)
    assert "fled" not in str(card.data())
    printed = table.encounter_actions.summary_html(ws)
    assert printed is not None and "waits for its die" in printed
    assert "checks morale: rolled" not in printed
    ids.check()
    # The table's die comes in: now it is known, and shown.
    type_die(ws, f"morale {kobold} (round 1)", 12, f"morale {kid} (round 1)")
    assert any(f"{kobold} checks morale: rolled 12 against 6, fails" in t
               for t in _step_texts(ws))
    assert "fled" in str(board.cards_model.index(card_row(board, kobold), 0).data())


def test_orcs_stamped_into_a_running_round_wait_for_their_dice_and_a_nomination(
    table: MainWindow,
) -> None:
    """popcorn.initiative.newcomer-joins at the table: two orcs stamped into round 1 after
    Brannoc's turn ask for their initiative dice; a 20 does not take Brannoc's turn from him
    (no red banner) and Brannoc may name one of them next."""
    from tests.desktop.table.conftest import action
    from tests.desktop.table.results_helpers import shot

    ws = _start(table)
    board = ws.board
    assert isinstance(board, PopcornBoard)
    for name, d20 in ((BRANNOC, 17), (YSOLDE, 9), (ORC1, 12), (ORC2, 4)):
        type_die(ws, f"initiative {name}", d20)
    _take(board, BRANNOC, "attack", target=ORC1)
    table.tabs.setCurrentIndex(0)
    panel = table.roster_panel
    templates = panel.model.group_index("templates")
    row = next(r for r in range(panel.model.rowCount(templates))
               if panel.model.index(r, 0, templates).data() == "Orc")
    panel.view.setCurrentIndex(panel.proxy.mapFromSource(panel.model.index(row, 0, templates)))
    action(table, "Stamp Monsters").trigger()
    stamp = table.roster_actions.dialog
    stamp.target.setCurrentText(ws.session.info.name)  # type: ignore[union-attr]
    stamp.count.setValue(2)  # type: ignore[union-attr]
    button(stamp, "OK").click()  # type: ignore[arg-type]
    assert table.tabs.currentWidget() is ws
    asked = [r.purpose for r in ws.controller.rolls_needed()]
    assert asked == ["initiative Orc 3", "initiative Orc 4"]
    assert ws.engine_error.isHidden(), ws.engine_error.text()
    assert "hits list" not in ws.outcome.another.toolTip()  # no field names on screen
    assert board.initiative_label.text().startswith(
        "Joining the fight: Orc 3, Orc 4 — waiting for their initiative d20")
    shot(table, "popcorn-newcomers-wait-for-dice.png")
    type_die(ws, "initiative Orc 3", 20)
    type_die(ws, "initiative Orc 4", 19)
    assert ws.engine_error.isHidden(), ws.engine_error.text()
    key_on_card(board, "Orc 3", "N")  # Brannoc names a newcomer
    assert board.message.text() == "" and ws.engine_error.isHidden()
    assert ws.controller.state.rounds[-1]["turns"][-1].get("nominates")
    assert "Orc 3" in board.active_label.text()
    shot(table, "popcorn-newcomer-named.png")
