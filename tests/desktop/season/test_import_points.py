"""Issue 22, points 9 and 11 (and issue 23's CSV spells cell of a 5,000-digit number): an
import names everything wrong with a file at once, updates only the fields the file gives,
and reads weapons and spells as a DM writes them in a spreadsheet. Roster › Import… and
Roster › Export Example File… are pressed on the main window, files chosen as a DM would."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog

from core.model.values import Spell, Weapon
from core.roster.files import read_roster_csv
from core.roster.merge import Choice
from desktop.main_window import MainWindow
from desktop.roster.import_dialog import DuplicatesDialog
from tests.desktop.season.helpers import entry, log_lines
from tests.desktop.table.conftest import action, button
from tests.desktop.table.roster_io_helpers import Questions


def choose_file(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *_a: (str(path), "")))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *_a: (str(path), "")))


def import_file(window: MainWindow, monkeypatch: pytest.MonkeyPatch, path: Path,
                text: str) -> None:
    path.write_text(text, encoding="utf-8")
    choose_file(monkeypatch, path)
    action(window, "Import").trigger()


def test_point_9_update_from_a_csv_without_a_weapons_column_keeps_the_weapons(
    table: MainWindow, questions: Questions, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = entry(table, "Brannoc the Bold")
    import_file(table, monkeypatch, tmp_path / "hp.csv", "name,kind,hp\nBrannoc the Bold,pc,20\n")
    dialog = table.roster_actions.dialog
    assert isinstance(dialog, DuplicatesDialog)
    assert dialog.table.item(0, 1).text() == "HP 24 → 20"  # nothing about weapons or class
    assert dialog.intro.text() == (  # one entry: "has", "one", "it" (issue 27)
        "1 entry in hp.csv has the same name and kind as one already in the campaign. Choose "
        "what to do with it.")
    dialog.set_choice(0, Choice.UPDATE)
    button(dialog, "Import").click()
    after = entry(table, "Brannoc the Bold")
    assert after.hp == 20
    assert (after.weapons, after.char_class, after.str_score, after.notes, after.max_hp) == (
        before.weapons, before.char_class, before.str_score, before.notes, before.max_hp)


def test_point_9_json_update_changes_only_the_keys_an_entry_gives(
    table: MainWindow, questions: Questions, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = entry(table, "Sister Ysolde")
    import_file(table, monkeypatch, tmp_path / "ysolde.json",
                '[{"name": "Sister Ysolde", "kind": "pc", "ac": 2}]')
    dialog = table.roster_actions.dialog
    assert isinstance(dialog, DuplicatesDialog)
    assert dialog.table.item(0, 1).text() == "AC 3 → 2"
    dialog.set_choice(0, Choice.UPDATE)
    button(dialog, "Import").click()
    after = entry(table, "Sister Ysolde")
    assert after.ac == 2 and (after.spells, after.weapons, after.wis) == (
        before.spells, before.weapons, before.wis)


BAD = """name,kind,hp,dex,weapons,spells
,pc,5,10,,
Borin,pc,abc,12,,
Elwyn,pc,7,30,,
Gil,pc,6,11,Long sword (speed factor five),
Odo,pc,4,9,,[{"name": "Sleep", "level": 1""" + "9" * 5000 + """}]
Tam,pc,8,14,Dagger (speed factor 2),Sleep (level 1)
"""


def test_point_11_every_problem_of_a_file_is_named_at_once_and_nothing_is_imported(
    table: MainWindow, questions: Questions, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = [(e.name, e.hp) for e in table.entries]
    import_file(table, monkeypatch, tmp_path / "bad.csv", BAD.replace(
        '[{"name": "Sleep", "level": 1' + "9" * 5000 + "}]",
        '"[{""name"": ""Sleep"", ""level"": 1' + "9" * 5000 + '}]"'))
    (message,) = questions.warned
    assert "bad.csv was not imported (nothing was added). 5 problems:" in message
    for line in ("line 2, field name: A name is needed.",
                 "line 3, column hp: 'abc' is not a whole number",
                 "line 4, field dex: ",
                 "line 5, column weapons: Long sword: speed factor is a whole number, not "
                 "'five'",
                 "line 6, column spells: a number in it is thousands of digits long"):
        assert line in message, (line, message)
    assert "Tam" not in message and "Traceback" not in message
    assert [(e.name, e.hp) for e in table.entries] == before


def test_point_11_weapons_and_spells_read_as_text_and_old_json_cells_still_import() -> None:
    text = ('name,weapons,spells\n'
            'Mira,"Long sword (speed factor 5, length 3.5); Long bow (speed factor 8, missile, '
            'rate of fire 2); Dagger","Bless (level 1, casting time 10, spent); Sleep"\n'
            'Old,"[{""name"": ""Spear"", ""speed_factor"": 6}]",'
            '"[{""name"": ""Web"", ""level"": 2, ""spent"": true}]"\n')
    mira, old = read_roster_csv(text)
    assert mira.weapons == (Weapon("Long sword", 5, 3.5), Weapon("Long bow", 8, None, True,
                                                                 rate_of_fire=2),
                            Weapon("Dagger"))
    assert mira.spells == (Spell("Bless", 1, 10), Spell("Sleep", 1, 1))
    assert mira.spent_spells == (0,)
    assert old.weapons == (Weapon("Spear", 6),) and old.spells == (Spell("Web", 2, 1),)
    assert old.spent_spells == (0,)


def test_point_11_the_example_file_is_written_documented_and_imports_as_it_is(
    table: MainWindow, questions: Questions, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "roster-example.csv"
    choose_file(monkeypatch, path)
    action(table, "Export Example File").trigger()
    text = path.read_text(encoding="utf-8")
    assert "Long sword (speed factor 5, length 3.5); Long bow (speed factor 8, missile, " \
           "rate of fire 2)" in text
    assert "Bless (level 1, casting time 10, spent)" in text and '{"' not in text
    assert "Wrote roster-example.csv" in table.statusBar().currentMessage()
    action(table, "Import").trigger()
    assert not questions.warned
    names = [e.name for e in table.entries]
    assert {"Aldric the Example", "Mother Example", "Elwyn Example",
            "Example Henchman"} <= set(names)
    assert "Example Orc" in [t.name for t in table.templates]
    assert log_lines(table)[-1][0] == "Import roster-example.csv: 5 added"
    help_page = (Path(__file__).resolve().parents[3] / "resources" / "help" /
                 "import-export.html").read_text(encoding="utf-8")
    for words in ("[[export-example]]", "Long sword (speed factor 5, length 3.5)",
                  "every</b> problem", "changes only what the file gives"):
        assert words in help_page


def test_issue_23_a_5000_digit_number_in_a_csv_spells_cell_is_a_message() -> None:
    from core.roster.files import RosterImportError

    for cell in ('"[{""name"": ""Sleep"", ""level"": ' + "9" * 5000 + '}]"',
                 "Sleep (level " + "9" * 5000 + ")"):
        with pytest.raises(RosterImportError) as refused:
            read_roster_csv(f"name,spells\nOdo,{cell}\n")
        assert str(refused.value).startswith("line 2, column spells: ")
        assert "digits" in str(refused.value) and len(str(refused.value)) < 200


def test_a_csv_export_with_readable_cells_imports_back_unchanged(table: MainWindow) -> None:
    from core.roster.example import example_roster
    from core.roster.files import read_roster_csv_document, write_roster_csv

    examples, templates = example_roster()
    entries = [*table.entries, *examples]
    document = read_roster_csv_document(write_roster_csv(entries, templates))
    bare = [e.__class__(**{**{f: getattr(e, f) for f in e.__dataclass_fields__},
                           "id": None, "version": 0}) for e in entries]
    assert list(document.entries) == bare
    assert [t.name for t in document.templates] == ["Example Orc"]
