"""Between sessions, as a DM does it: import a file that overlaps the campaign and take it
back with Ctrl+Z, remove several entries at once, rest the party — through the real roster
widgets, on a real campaign file, with no id on screen."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QDialogButtonBox,
    QFileDialog,
    QMessageBox,
    QScrollArea,
    QWidget,
)
from pytestqt.qtbot import QtBot

from core.fight.log import Command, EncounterLog, Event, EventKind, add_combatant
from core.model.values import Combatant, Spell, Status, frozen_mapping
from core.roster.entries import MonsterTemplate, RosterEntry, available_spells, spend_spells
from core.roster.merge import Choice
from desktop.main_window import MainWindow
from desktop.roster.conflict_dialog import differences as conflict_differences
from desktop.roster.import_dialog import DuplicatesDialog
from desktop.roster.kills_table import KillsBox
from desktop.roster.rest_dialog import RestDialog
from tests.desktop.table import conftest as table_conftest
from tests.desktop.table.conftest import IdWatch, action, button, make_active
from tests.desktop.table.roster_io_helpers import (
    AUDIT,
    CTRL,
    Questions,
    ctrl_click_rows,
    dump,
    safe_model_texts,
    tree_index,
)

SHOTS = Path(os.environ.get("COMBATDESK_SHOTS", "/work/wt/shots"))


@pytest.fixture(autouse=True)
def _guard_reads_table_widgets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_conftest, "_model_texts", safe_model_texts)


@pytest.fixture
def questions(monkeypatch: pytest.MonkeyPatch) -> Questions:
    fake = Questions()
    monkeypatch.setattr(QMessageBox, "question", staticmethod(fake.question))
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(fake.warning))
    return fake


def choose_file(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    def chosen(*_args: object, **_kwargs: object) -> tuple[str, str]:
        return str(path), ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(chosen))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(chosen))


def ctrl_z(window: MainWindow, shift: bool = False) -> None:
    """Presses Ctrl+Z (Ctrl+Shift+Z) in the roster tree, as the DM does."""
    window.activateWindow()
    QTest.qWaitForWindowActive(window, 2000)  # under Xvfb the shortcut needs the active window
    make_active(window)  # itself, not a dialog of it that Qt counts as sharing activation
    window.roster_panel.view.setFocus()
    modifiers = CTRL | (Qt.KeyboardModifier.ShiftModifier if shift else CTRL)
    QTest.keyClick(window.roster_panel.view, Qt.Key.Key_Z, modifiers)


def by_name(window: MainWindow) -> dict[str, list]:  # type: ignore[type-arg]
    out: dict[str, list] = {}  # type: ignore[type-arg]
    for entry in window.entries:
        out.setdefault(entry.name, []).append(entry)
    return out


def shoot(window: MainWindow, name: str, dialog: QWidget | None = None) -> None:
    """Saves the 1280×720 window, with ``dialog`` painted centred over it as the DM sees it
    (offscreen, each top-level window is grabbed on its own)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    window.resize(1280, 720)
    picture = window.grab()
    if dialog is not None:
        painter = QPainter(picture)
        shot = dialog.grab()
        painter.drawPixmap((picture.width() - shot.width()) // 2,
                           (picture.height() - shot.height()) // 2, shot)
        painter.end()
    picture.save(str(SHOTS / name))


def test_an_overlapping_import_is_one_step_and_ctrl_z_takes_all_of_it_back(
    qtbot: QtBot, table: MainWindow, ids: IdWatch, campaign_file: Path, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch, questions: Questions,
) -> None:
    exported = tmp_path / "party.json"
    choose_file(monkeypatch, exported)
    action(table, "Export").trigger()
    document = json.loads(exported.read_text(encoding="utf-8"))
    assert [t["name"] for t in document["templates"]][:2] == ["Bugbear", "Goblin"]

    # The DM's file from another table: Brannoc hurt, Garrick another man, a new PC, Orcs 2d8.
    for c in document["combatants"]:
        if c["name"] == "Brannoc the Bold":
            c["hp"] = 11
        if c["name"] == "Garrick":
            c["notes"] = "Garrick of Hommlet, not ours"
    document["combatants"].append({"name": "Mirela", "kind": "pc", "hp": 6, "max_hp": 6})
    next(t for t in document["templates"] if t["name"] == "Orc")["hit_dice"] = "2d8"
    document["templates"].append({"name": "Giant rat", "hit_dice": "1d4", "xp": 7})
    exported.write_text(json.dumps(document), encoding="utf-8")
    before = dump(campaign_file)
    roster_before = list(table.entries)

    action(table, "Import").trigger()
    dialog = table.roster_actions.dialog
    assert isinstance(dialog, DuplicatesDialog) and dialog.isVisible()
    labels = [dialog.table.item(r, 0).text() for r in range(dialog.table.rowCount())]
    assert labels == ["Brannoc the Bold (PC)", "Garrick (henchman)", "Orc (monster template)"]
    assert dialog.table.item(0, 1).text() == "HP 24 → 11"
    assert dialog.intro.text().startswith("3 entries in ")
    assert "have the same name and kind as ones already in the campaign" in dialog.intro.text()
    assert "2 new entries will be added" in dialog.intro.text()
    ids.check()
    dialog.set_choice(0, Choice.UPDATE)
    dialog.set_choice(1, Choice.ADD)
    dialog.set_choice(2, Choice.SKIP)
    dialog.resize(900, 420)
    shoot(table, "roster-import-duplicates.png", dialog)
    button(dialog, "Import").click()

    names = by_name(table)
    assert names["Brannoc the Bold"][0].hp == 11
    assert len(names["Garrick"]) == 2 and "Mirela" in names
    assert next(t for t in table.templates if t.name == "Orc").hit_dice == "1d8"  # skipped
    assert next(t for t in table.templates if t.name == "Giant rat").xp == 7
    assert table.undo_action.text() == "&Undo Import party.json: 3 added, 1 updated"
    ids.check()

    ctrl_z(table)
    assert dump(campaign_file) == before  # row for row, the session log included
    assert table.entries == roster_before
    assert "Giant rat" not in [t.name for t in table.templates]

    ctrl_z(table, shift=True)  # redo: the same import again
    assert by_name(table)["Brannoc the Bold"][0].hp == 11 and "Mirela" in by_name(table)
    ctrl_z(table)
    assert dump(campaign_file) == before
    ids.check()


def test_reimporting_an_export_changes_nothing_and_apply_to_all_skips(
    table: MainWindow, ids: IdWatch, campaign_file: Path, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch, questions: Questions,
) -> None:
    exported = tmp_path / "roster.csv"
    choose_file(monkeypatch, exported)
    action(table, "Export").trigger()
    before = dump(campaign_file)
    action(table, "Import").trigger()
    assert dump(campaign_file) == before and table.undo_stack.count() == 0
    assert "Nothing to import: all 12 in roster.csv are already in the campaign" in (
        table.statusBar().currentMessage())

    # The same file with every HP changed: "apply to all" → skip keeps the campaign as it is.
    text = exported.read_text(encoding="utf-8").replace(",24,24,", ",20,24,").replace(
        ",17,17,", ",9,17,")
    exported.write_text(text, encoding="utf-8")
    action(table, "Import").trigger()
    dialog = table.roster_actions.dialog
    assert isinstance(dialog, DuplicatesDialog) and dialog.table.rowCount() == 2
    dialog.all_box.setCurrentIndex(dialog.all_box.findData(Choice.SKIP))
    dialog.all_button.click()
    assert dialog.choices() == [Choice.SKIP, Choice.SKIP]
    button(dialog, "Import").click()
    assert dump(campaign_file) == before and table.undo_stack.count() == 0
    assert "everything skipped; nothing changed" in table.statusBar().currentMessage()
    ids.check()


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("party.json", '{"combatants": [{"name": "Alda", "dex": 25}]}',
         "entry 1 (Alda), field dex: Dex is 3–18."),
        ("party.json", '{"combatants": [{"name": "Alda", "spells": [{"name": "Sleep", '
         '"spent": "yes"}]}]}', "entry 1 (Alda), spell 1, field spent: expected true or false"),
        ("party.json", '{"templates": [{"name": "Orc", "hit_dice": "1d8", "xp": -5}]}',
         "template 1 (Orc), field xp: XP for a kill is 0–1,000,000."),
        ("party.json", '{"templates": [{"name": "Orc", "wings": 2}]}',
         "template 1 (Orc), field wings: unknown field"),
        ("party.csv", "name,kind,hit_dice\nOrc,template,2q8\n", "line 2, field hit_dice"),
        ("party.json", "[]", "holds no roster entries or monster templates"),
        ("party.json", b"\xff\xfe{", "cannot be read (it is not UTF-8 text)"),
    ],
)
def test_a_bad_import_file_says_what_is_wrong_and_changes_nothing(
    table: MainWindow, ids: IdWatch, campaign_file: Path, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch, questions: Questions, name: str, content: str | bytes,
    message: str,
) -> None:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    choose_file(monkeypatch, path)
    before = dump(campaign_file)
    action(table, "Import").trigger()
    assert len(questions.warned) == 1 and message in questions.warned[0], questions.warned
    assert "nothing was" in questions.warned[0]
    assert dump(campaign_file) == before and table.undo_stack.count() == 0
    ids.check()


def test_several_rows_removed_with_delete_come_back_with_one_ctrl_z(
    table: MainWindow, ids: IdWatch, campaign_file: Path, questions: Questions,
) -> None:
    # A put-back row is saved anew: its time, and so its row check, are new.
    saved_anew = ("updated_at", "row_check", *AUDIT)
    before = dump(campaign_file, skip=saved_anew)
    ctrl_click_rows(table, ["Pip Underbough", "Garrick", "Torchbearer Wat", "Kobold"])
    table.activateWindow()
    QTest.qWaitForWindowActive(table, 2000)
    table.roster_panel.view.setFocus()
    QTest.keyClick(table.roster_panel.view, Qt.Key.Key_Delete)
    assert questions.asked == ["Remove 4 from the campaign: Pip Underbough, Garrick, Torchbearer "
                               "Wat and the Kobold template? (Ctrl+Z brings them all back.)"]
    names = [e.name for e in table.entries]
    assert "Garrick" not in names and "Pip Underbough" not in names
    assert "Kobold" not in [t.name for t in table.templates]
    assert table.undo_action.text() == "&Undo Remove Pip Underbough, Garrick, Torchbearer Wat " \
        "and 1 more"
    ids.check()
    ctrl_z(table)
    assert dump(campaign_file, skip=saved_anew) == before  # same ids and versions

    # The menu item does the same; No removes nothing.
    ctrl_click_rows(table, ["Garrick", "Torchbearer Wat"])
    questions.answer = QMessageBox.StandardButton.No
    action(table, "Remove").trigger()
    assert len(questions.asked) == 2 and len(table.entries) == 6


def test_rest_brings_spent_spells_and_hp_back_in_one_undoable_step(
    qtbot: QtBot, table: MainWindow, ids: IdWatch, questions: Questions,
) -> None:
    # The fight left Sister Ysolde at 8 HP with Bless spent: the DM marks it in her form.
    table.roster_panel.view.setCurrentIndex(tree_index(table, "Sister Ysolde"))
    editor = table.editor
    spells = editor.spells
    assert [spells.table.item(r, 0).text() for r in range(3)] == [
        "Cure light wounds", "Bless", "Hold person"]
    spells.table.item(1, spells.SPENT).setCheckState(Qt.CheckState.Checked)
    hp = editor.fields["hp"]
    hp.selectAll()
    QTest.keyClicks(hp, "8")
    editor.save_button.click()
    ysolde = next(e for e in table.entries if e.name == "Sister Ysolde")
    assert (ysolde.hp, ysolde.spent_spells) == (8, (1,))
    assert [s.name for s in available_spells(ysolde)] == ["Cure light wounds", "Hold person"]
    assert spells.summary.text() == (
        "2 of 3 memorised spells available, 1 spent.")
    assert spells.table.item(1, spells.SPENT).checkState() == Qt.CheckState.Checked
    ids.check()
    scroll = editor.findChild(QScrollArea)
    scroll.verticalScrollBar().setValue(scroll.verticalScrollBar().maximum())
    shoot(table, "roster-editor-spent-spells.png")

    action(table, "Rest the Party").trigger()
    dialog = table.roster_actions.dialog
    assert isinstance(dialog, RestDialog)
    dialog.hp_box.setChecked(True)
    rows = [dialog.list.item(i).text() for i in range(dialog.list.count())]
    assert "Sister Ysolde: 1 spell back, HP 8 → 17" in rows
    assert "Brannoc the Bold: nothing to restore" in rows
    ids.check()
    button(dialog, "Rest").click()
    ysolde = next(e for e in table.entries if e.name == "Sister Ysolde")
    assert (ysolde.hp, ysolde.spent_spells) == (17, ())
    assert len(ysolde.spells) == 3  # the memorised list is kept
    assert table.undo_action.text() == "&Undo Rest the party"
    log = table.store.roster.session_log(table.campaign.id)  # type: ignore[union-attr]
    assert (log[0].summary, log[0].details) == (
        "Rest the party", ("Sister Ysolde: 1 spell back, HP 8 → 17",))

    ctrl_z(table)
    ysolde = next(e for e in table.entries if e.name == "Sister Ysolde")
    assert (ysolde.hp, ysolde.spent_spells) == (8, (1,))
    assert spells.table.item(1, spells.SPENT).checkState() == Qt.CheckState.Checked
    ids.check()

    # Rest… on the selection only, spells without HP.
    table.roster_panel.view.setCurrentIndex(tree_index(table, "Sister Ysolde"))
    action(table, "Rest").trigger()
    dialog = table.roster_actions.dialog
    assert isinstance(dialog, RestDialog) and dialog.windowTitle() == "Rest Sister Ysolde"
    button(dialog, "Rest").click()
    ysolde = next(e for e in table.entries if e.name == "Sister Ysolde")
    assert (ysolde.hp, ysolde.spent_spells) == (8, ())


def test_the_session_log_records_kills_with_template_or_typed_xp(
    table: MainWindow, ids: IdWatch, questions: Questions,
) -> None:
    # The DM gives the Orc template its XP in the template form.
    table.roster_panel.view.setCurrentIndex(tree_index(table, "Orc"))
    xp = table.template_editor.fields["xp"]
    QTest.keyClicks(xp, "10")
    table.template_editor.save_button.click()
    assert next(t for t in table.templates if t.name == "Orc").xp == 10

    log = EncounterLog()
    for cid, name in (("orc-1", "Orc 1"), ("orc-2", "Orc 2"), ("ogre-1", "Ogre 1")):
        log.execute(add_combatant(Combatant(id=cid, side="monsters", name=name, hp=5)))
    for cid in ("orc-1", "ogre-1"):
        log.execute(Command("Down", (Event(EventKind.STATUS_CHANGED, frozen_mapping(
            {"id": cid, "status": str(Status.DEAD)})),)))  # fmt: skip
    dialog = table.roster_actions.review_results(log.state, "Orc guardroom")
    assert dialog is not None
    box = dialog.findChild(KillsBox)
    assert [box.table.item(r, 0).text() for r in range(2)] == ["Orc 1", "Ogre 1"]
    assert box.table.item(0, 1).text() == "the Orc template"
    assert box.spins[0].value() == 10 and box.spins[1].text() == "—"
    box.spins[1].setValue(90)  # the DM types the ogre's XP
    ids.check()
    dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Apply).click()
    entry = table.store.roster.session_log(table.campaign.id)[0]  # type: ignore[union-attr]
    assert entry.summary == "Results of Orc guardroom"
    assert entry.details == ("Killed Orc 1: 10 XP", "Killed Ogre 1: 90 XP", "XP for kills: 100")


def test_a_conflict_names_spent_spells_and_template_xp_in_words() -> None:
    ysolde = RosterEntry(name="Sister Ysolde", spells=(Spell("Cure light wounds"), Spell("Bless")))
    assert conflict_differences(spend_spells(ysolde, ["Bless"]), ysolde) == [
        ("Spent spells", "Bless", "none spent")]
    orc = MonsterTemplate(name="Orc")
    assert conflict_differences(replace(orc, xp=10), orc) == [("XP a kill", "10", "—")]
