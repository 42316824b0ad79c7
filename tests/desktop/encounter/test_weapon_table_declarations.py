"""The declaration form and the weapon table: facts shown, a table weapon picked, the engine
fed the facts (issue 13)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QWidget

from core.fight.encounter import commands_for_scenario
from core.fight.log import EventKind
from desktop.encounter.entry_editor import EntryEditor
from desktop.encounter.letter_board import LetterBoard
from tests.desktop.encounter.conftest import drop_card, fill_and_declare, step_of, type_die

FIGHTER = {
    "id": "fighter",
    "name": "Brunhild",
    "side": "party",
    "hp": 12,
    "weapons": [{"name": "Long sword"}, {"name": "Dagger", "speed_factor": 2}],
}
ORC = {
    "id": "orc",
    "name": "Orc",
    "side": "monsters",
    "hp": 6,
    "weapons": [{"name": "Spear", "speed_factor": 6, "length": 8}],
}


def document(system: str = "addict", **top: Any) -> dict[str, Any]:
    return {
        "format": "combatdesk/scenario-1",
        "system": system,
        "seed": 5,
        "combatants": [FIGHTER, ORC],
        **top,
    }


def field(editor: EntryEditor, label: str) -> QWidget:
    """Gets the form's field beside ``label``, as a DM finds it."""
    form = editor.form
    for row in range(form.rowCount()):
        caption = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
        if (
            caption is not None
            and isinstance(caption.widget(), QLabel)
            and (caption.widget().text() == label)
        ):  # type: ignore[union-attr]
            item = form.itemAt(row, QFormLayout.ItemRole.FieldRole)
            assert item is not None
            return item.widget()
    raise AssertionError(f"no field labelled {label!r}")


def facts_shown(editor: EntryEditor) -> str:
    label = editor.findChild(QLabel, "weaponFacts")
    assert label is not None and label.isVisible()
    return label.text()


def declare(board: LetterBoard, actor: str, letter: str) -> EntryEditor:
    assert drop_card(board, board.lanes[letter].model, actor)
    return board.editor


def test_the_default_weapon_shows_and_uses_the_table_facts_it_lacks(start) -> None:  # type: ignore[no-untyped-def]
    ws = start(document())
    board = ws.board
    assert isinstance(board, LetterBoard)
    editor = declare(board, "fighter", "G")
    weapon = field(editor, "Weapon")
    assert isinstance(weapon, QComboBox) and weapon.currentText() == "default: Long sword"
    assert facts_shown(editor) == (
        "Long sword: speed factor 5, 3½ ft (speed factor and length "
        "from the AD&D 1st edition weapon table)"
    )
    fill_and_declare(board, target="orc")
    entry = ws.controller.state.rounds[-1]["declarations"][0]
    assert entry["weapon"] == "Long sword"
    assert entry["weapon_facts"] == {"speed_factor": 5, "length": 3.5}
    declare(board, "orc", "G")
    fill_and_declare(board, target="fighter")
    type_die(ws, "initiative party", "3")
    type_die(ws, "initiative monsters", "3")
    # a tie: speed factor 5 (from the table) before the spear's 6
    fighter, orc = step_of(ws, "fighter"), step_of(ws, "orc")
    assert fighter.seq < orc.seq and fighter.group != orc.group
    assert fighter.detail["weapon"] == "Long sword"


def test_a_weapon_picked_from_the_table_fills_the_declared_action(start) -> None:  # type: ignore[no-untyped-def]
    ws = start(document())
    board = ws.board
    assert isinstance(board, LetterBoard)
    editor = declare(board, "fighter", "G")
    weapon = field(editor, "Weapon")
    assert isinstance(weapon, QComboBox)
    carried = [weapon.itemText(i) for i in range(3)]
    assert carried == ["default: Long sword", "Long sword", "Dagger"]
    offered = [weapon.itemText(i) for i in range(weapon.count())]
    assert "Two-handed sword" in offered and offered.count("Long sword") == 1
    weapon.setFocus()
    weapon.lineEdit().selectAll()
    QTest.keyClicks(weapon.lineEdit(), "Two-handed sword")  # typed; the list completes it
    assert weapon.currentText() == "Two-handed sword"
    assert facts_shown(editor) == (
        "Two-handed sword (the AD&D 1st edition weapon table): speed factor 10, 6 ft"
    )
    editor.set_value("target", "orc")
    QTest.keyClick(editor.target, Qt.Key.Key_Return)
    entry = ws.controller.state.rounds[-1]["declarations"][0]
    assert (entry["weapon"], entry["weapon_facts"]) == (
        "Two-handed sword",
        {"speed_factor": 10, "length": 6.0},
    )
    declare(board, "orc", "G")
    fill_and_declare(board, target="fighter")
    type_die(ws, "initiative party", "3")
    type_die(ws, "initiative monsters", "3")
    fighter, orc = step_of(ws, "fighter"), step_of(ws, "orc")
    assert orc.seq < fighter.seq  # the spear (6) before the two-handed sword (10)
    assert fighter.detail["weapon"] == "Two-handed sword"


def test_a_carried_weapon_with_its_facts_writes_no_facts(start) -> None:  # type: ignore[no-untyped-def]
    ws = start(document())
    board = ws.board
    assert isinstance(board, LetterBoard)
    editor = declare(board, "fighter", "G")
    weapon = field(editor, "Weapon")
    assert isinstance(weapon, QComboBox)
    weapon.setCurrentIndex(weapon.findText("Dagger"))
    assert (
        facts_shown(editor) == "Dagger: speed factor 2, 1¼ ft (length from the AD&D 1st "
        "edition weapon table)"
    )
    fill_and_declare(board, target="orc")
    entry = ws.controller.state.rounds[-1]["declarations"][0]
    # the roster's speed factor stays; only the length it lacks comes from the table
    assert (entry["weapon"], entry["weapon_facts"]) == ("Dagger", {"length": 1.25})


def test_facts_a_scenario_gave_survive_an_edit(start) -> None:  # type: ignore[no-untyped-def]
    given = {
        "actor": "fighter",
        "action": "G",
        "target": "orc",
        "weapon": "Long sword",
        "weapon_facts": {"speed_factor": 4},
    }
    doc = document(rounds=[{"declarations": [given]}])
    ws = start(doc)
    for command in commands_for_scenario(doc):
        if command.events[0].kind in (EventKind.ROUND_STARTED, EventKind.ROUND_ENTRY_ADDED):
            assert ws.controller.run(command)
    board = ws.board
    assert isinstance(board, LetterBoard)
    board.change_declaration(0)
    assert field(board.editor, "Weapon").currentText() == "Long sword"  # type: ignore[attr-defined]
    assert "speed factor 5" in facts_shown(board.editor)  # what the table says
    assert board.editor.entry()["weapon_facts"] == {"speed_factor": 4}  # what the file says


def test_popcorn_offers_the_ose_list_and_a_slow_weapon_is_slow(start, qtbot) -> None:  # type: ignore[no-untyped-def]
    ws = start(document("popcorn"))
    editor = EntryEditor("popcorn")
    qtbot.addWidget(editor)
    actor = next(c for c in ws.board.combatants() if c.id == "fighter")
    editor.open_for(actor, "attack", ws.board.combatants())
    weapon = field(editor, "Weapon")
    assert isinstance(weapon, QComboBox)
    offered = [weapon.itemText(i) for i in range(weapon.count())]
    assert "Polearm" in offered and "Halberd" not in offered  # OSE's list, not AD&D's
    weapon.setCurrentIndex(weapon.findText("Polearm"))
    assert facts_shown(editor) == (
        "Polearm (the Old-School Essentials weapon table): slow, two-handed"
    )
    editor.set_value("target", "orc")
    entry = editor.entry()
    assert (entry["weapon"], entry["weapon_facts"]) == ("Polearm", {"slow": True})
