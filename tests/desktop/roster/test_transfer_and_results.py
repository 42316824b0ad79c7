"""Import/export, encounter results flowing back, and stamping monsters, through the window."""

from pathlib import Path

from PySide6.QtWidgets import QDialogButtonBox
from pytestqt.qtbot import QtBot

from core.fight.log import Command, EncounterLog, Event, EventKind, add_combatant
from core.model.values import Status, frozen_mapping
from core.roster.entries import MonsterTemplate, RosterStatus, available_spells
from core.roster.results import roster_combatant
from desktop.main_window import MainWindow
from desktop.roster.dialogs import StampDialog
from desktop.roster.results_dialog import ResultsDialog
from tests.desktop.roster.conftest import Answers


def test_a_file_with_an_error_is_refused_whole(
    window: MainWindow, tmp_path: Path, answers: Answers
) -> None:
    before = list(window.entries)
    bad = tmp_path / "party.csv"
    bad.write_text("name,kind,dex\nAlda,pc,12\nBorin,pc,25\nCarys,pc,9\n", encoding="utf-8")
    assert window.roster_actions.import_path(bad) == 0
    assert answers.warnings and "line 3, field dex: Dex is 3–18." in answers.warnings[0]
    assert "nothing was added" in answers.warnings[0]
    assert window.entries == before
    assert window.store.roster.entries(window.campaign.id) == before  # type: ignore[union-attr]


def test_a_large_import_lands_whole_with_progress_and_exports_back(
    window: MainWindow, tmp_path: Path
) -> None:
    rows = "\n".join(f"Spearman {i},hireling,party,1,4,7" for i in range(400))
    good = tmp_path / "levy.csv"
    good.write_text(f"name,kind,side,hp,max_hp,ac\n{rows}\n", encoding="utf-8")
    assert window.roster_actions.import_path(good) == 400
    assert sum(e.name.startswith("Spearman") for e in window.entries) == 400
    log = window.store.roster.session_log(window.campaign.id)  # type: ignore[union-attr]
    assert log[0].summary == "Import levy.csv: 400 added"
    out = tmp_path / "roster.json"
    window.roster_actions.export_path(out)
    assert out.read_text(encoding="utf-8").count('"Spearman ') == 400


def test_a_spell_lost_in_the_fight_is_named_lost_in_the_results_and_the_log(
    qtbot: QtBot, window: MainWindow
) -> None:
    """A spell spoiled by a blow is used up like a cast one, and the DM reads which it was:
    "lost Hold person" in the results, "(lost)" in the session log (it read "cast")."""
    ysolde = next(e for e in window.entries if e.name == "Sister Ysolde")
    log = EncounterLog()
    log.execute(add_combatant(roster_combatant(ysolde)))
    y = f"roster-{ysolde.id}"
    dialog = window.roster_actions.review_results(log.state, "Orc ambush",
                                                  {y: ["Bless", "Hold person"]},
                                                  spells_lost={y: ["Hold person"]})
    assert isinstance(dialog, ResultsDialog)
    assert dialog.descriptions() == ["Sister Ysolde: spells used — Bless, Hold person (lost)"]
    texts = [dialog.table.item(0, c).text() for c in range(dialog.table.columnCount())
             if dialog.table.item(0, c) is not None]
    assert "cast Bless; lost Hold person" in texts
    dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Apply).click()
    qtbot.waitUntil(lambda: window.undo_stack.count() == 1)
    log_dialog = window.roster_actions.show_session_log()  # what the DM reads
    assert log_dialog is not None
    top = log_dialog.tree.topLevelItem(0)
    assert top.text(1) == "Results of Orc ambush"
    lines = [top.child(i).text(1) for i in range(top.childCount())]
    assert "Sister Ysolde: spells used — Bless, Hold person (lost)" in lines, lines
    log_dialog.close()


def test_encounter_results_flow_back_in_one_undoable_transaction(
    qtbot: QtBot, window: MainWindow
) -> None:
    brannoc = next(e for e in window.entries if e.name == "Brannoc the Bold")
    ysolde = next(e for e in window.entries if e.name == "Sister Ysolde")
    log = EncounterLog()
    for entry in (brannoc, ysolde):
        log.execute(add_combatant(roster_combatant(entry)))
    b, y = f"roster-{brannoc.id}", f"roster-{ysolde.id}"
    log.execute(Command("Hit", (Event(EventKind.HP_CHANGED, frozen_mapping({"id": b, "delta": -30})),)))  # noqa: E501
    log.execute(Command("Down", (Event(EventKind.STATUS_CHANGED, frozen_mapping({"id": b, "status": str(Status.DEAD)})),)))  # noqa: E501
    log.execute(Command("Hit", (Event(EventKind.HP_CHANGED, frozen_mapping({"id": y, "delta": -4})),)))  # noqa: E501
    dialog = window.roster_actions.review_results(log.state, "Orc ambush", {y: ["Bless"]})
    assert isinstance(dialog, ResultsDialog)
    assert dialog.descriptions() == [
        "Brannoc the Bold: HP 24 → -6",
        "Brannoc the Bold: active → dead",
        "Sister Ysolde: HP 17 → 13",
        "Sister Ysolde: spells used — Bless",
    ]
    # Bless is marked spent, never removed: it stays memorised until a rest
    last = dialog.table.columnCount() - 1
    spent = dialog.table.item(3, last)
    assert spent is not None and spent.text() == "mark spent until a rest: Bless"
    assert "stay memorised" in spent.toolTip() and "remove" not in spent.text()
    dialog.set_ticked(0, False)  # the DM rules he is at 0 later
    dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Apply).click()
    qtbot.waitUntil(lambda: window.undo_stack.count() == 1)
    now = {e.name: e for e in window.entries}
    assert now["Brannoc the Bold"].status is RosterStatus.DEAD and now["Brannoc the Bold"].hp == 24
    assert now["Sister Ysolde"].hp == 13
    ysolde_now = now["Sister Ysolde"]  # Bless is spent, not forgotten: a rest brings it back
    assert [s.name for s in available_spells(ysolde_now)] == ["Cure light wounds", "Hold person"]
    assert [s.name for s in ysolde_now.spells] == ["Cure light wounds", "Bless", "Hold person"]
    log_dialog = window.roster_actions.show_session_log()
    assert log_dialog is not None
    top = log_dialog.tree.topLevelItem(0)
    assert top.text(1) == "Results of Orc ambush" and top.childCount() == 3
    window.undo_action.trigger()
    now = {e.name: e for e in window.entries}
    assert now["Brannoc the Bold"].status is RosterStatus.ACTIVE
    assert len(now["Sister Ysolde"].spells) == 3
    log_dialog.close()


def test_stamping_a_template_by_hand_checks_every_total(qtbot: QtBot, window: MainWindow) -> None:
    model = window.roster_panel.model
    templates = model.group_index("templates")
    orc_row = next(
        r for r in range(model.rowCount(templates))
        if model.index(r, 0, templates).data() == "Orc"
    )  # fmt: skip
    window.roster_panel.view.setCurrentIndex(
        window.roster_panel.proxy.mapFromSource(model.index(orc_row, 0, templates))
    )
    window.roster_actions.stamp_action.trigger()
    dialog = window.roster_actions.dialog
    assert isinstance(dialog, StampDialog) and isinstance(dialog.template, MonsterTemplate)
    dialog.count.setValue(3)
    qtbot.keyClicks(dialog.hp_edit, "5, 9, 2")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert "Orc 2: 1d8 shows 1–8; 9 is not possible" in dialog.reason.text()
    assert dialog.isVisible()
    dialog.hp_edit.setText("5, 8, 2")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert [(c.name, c.hp) for c in dialog.combatants] == [("Orc 1", 5), ("Orc 2", 8), ("Orc 3", 2)]
    start = window.encounter_actions.dialog  # they go to a new encounter, HP as typed
    assert start is not None and start.hp_text("Orc") == "5, 8, 2"  # type: ignore[attr-defined]
    start.close()
