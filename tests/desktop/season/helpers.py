"""What a DM touches over a season, found by the words on screen: the roster form, New
Encounter, the boards' drops, the outcome panel, End / Reopen, the session log."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox, QPushButton

from core.roster.entries import RosterEntry
from desktop.encounter.workspace import EncounterWorkspace
from desktop.main_window import MainWindow
from desktop.roster.results_dialog import ResultsDialog
from tests.desktop.table.conftest import action, button


def elide_name(name: str) -> str:
    """Gets a name as lists show it: at most 40 characters, a longer one cut with "…"."""
    return name if len(name) <= 40 else name[:39].rstrip() + "…"


def entry(window: MainWindow, name: str) -> RosterEntry:
    """Gets the entry as the campaign file holds it now (read from the database)."""
    campaign = window.campaign
    assert campaign is not None
    found = [e for e in window.store.roster.entries(campaign.id) if e.name == name]
    assert len(found) == 1, (name, [e.name for e in window.store.roster.entries(campaign.id)])
    return found[0]


def log_lines(window: MainWindow) -> list[tuple[str, list[str]]]:
    """Gets the session log, oldest first, as Roster › Session Log shows it."""
    campaign = window.campaign
    assert campaign is not None
    return [(e.summary, list(e.details))
            for e in reversed(window.store.roster.session_log(campaign.id))]


def select(window: MainWindow, name: str) -> None:
    """Clicks the entry's row in the roster tree."""
    window.tabs.setCurrentWidget(window.roster_panel)
    found = next(e for e in window.entries if e.name == name)
    assert found.id is not None and window.roster_panel.select_entry(found.id)
    QApplication.processEvents()


def type_field(window: MainWindow, field: str, text: str) -> None:
    """Selects the form field's text and types over it."""
    edit = window.editor.fields[field]
    edit.selectAll()
    QTest.keyClick(edit, Qt.Key.Key_Backspace)
    QTest.keyClicks(edit, text)


def edit_entry(window: MainWindow, name: str, status: str | None = None,
               **fields: str) -> None:
    """Selects the entry, types into the form's fields (and picks a status), presses Save."""
    select(window, name)
    for key, text in fields.items():
        type_field(window, key, text)
    if status is not None:
        box: QComboBox = window.editor.status_box
        box.setCurrentIndex(box.findText(status.capitalize()))
    assert window.editor.save_button.isEnabled(), window.editor.reasons
    window.editor.save_button.click()


def new_encounter(window: MainWindow, name: str, system: str, fighters: Sequence[str] | None,
                  monsters: dict[str, str], seed: int = 5) -> EncounterWorkspace:
    """Encounter › New Encounter…: name, system, who fights (None: as ticked by default), the
    monsters as "count:hp, hp" per template; OK."""
    action(window, "New Encounter").trigger()
    dialog = window.encounter_actions.dialog
    assert dialog is not None
    dialog.name.setText(name)  # type: ignore[attr-defined]
    dialog.set_system(system)  # type: ignore[attr-defined]
    dialog.seed.setValue(seed)  # type: ignore[attr-defined]
    model = dialog.fighters  # type: ignore[attr-defined]
    if fighters is not None:
        for row in range(model.rowCount()):
            item = model.item(row, 0)
            item.setCheckState(Qt.CheckState.Checked if item.text() in fighters
                               else Qt.CheckState.Unchecked)
    for template, text in monsters.items():
        count, _, hp = text.partition(":")
        dialog.set_count(template, int(count))  # type: ignore[attr-defined]
        if hp:
            dialog.set_hp(template, hp)  # type: ignore[attr-defined]
    button(dialog, "OK").click()  # type: ignore[arg-type]
    workspace = window.encounter_actions.current()
    assert workspace is not None and workspace.session.info.name == name, \
        dialog.error.text()  # type: ignore[attr-defined]
    return workspace


def cid(workspace: EncounterWorkspace, name: str) -> str:
    """Gets the fight's combatant shown as ``name`` (for the boards' own MIME data)."""
    return next(c.id for c in workspace.controller.state.combatants.values() if c.label == name)


def end(window: MainWindow) -> ResultsDialog:
    """Encounter › End Encounter…: Yes; gets the results dialog."""
    action(window, "End Encounter").trigger()
    dialog = window.encounter_actions.dialog
    assert isinstance(dialog, ResultsDialog), dialog
    return dialog


def results_table(dialog: ResultsDialog) -> list[list[str]]:
    """Gets the results dialog's lines as the DM reads them."""
    table = dialog.table
    out = []
    for row in range(table.rowCount()):
        cells = []
        for column in range(table.columnCount()):
            widget = table.cellWidget(row, column)
            if isinstance(widget, QComboBox):
                cells.append(widget.currentText())
            else:
                item = table.item(row, column)
                cells.append(item.text() if item is not None else "")
        out.append(cells)
    return out


LETTER_BLOW = {"addict": "G · strike [G]", "side-d6": "attack"}
"""The lane a blow is dropped on, by system (its title on the board)."""


def letter_blow(workspace: EncounterWorkspace, attacker: str, target: str, damage: int | None,
                dice: tuple[int, int] = (4, 2)) -> None:
    """On a letter board (addict, side-d6): drops the attacker's card on the blow lane, picks
    the target, types the round's d6s (party, monsters) if asked, and records a hit for
    ``damage`` on that blow (None: no outcome)."""
    from tests.desktop.table import letter_helpers as letters

    system = workspace.controller.system_id
    letters.drop_card(workspace.board, attacker, LETTER_BLOW[system])  # type: ignore[arg-type]
    letters.fill(workspace.board, Target=target)  # type: ignore[arg-type]
    for side, total in zip(("party", "monsters"), dice, strict=True):
        if workspace.stepper.row_for(f"initiative {side}") is not None:
            letters.type_die(workspace, f"initiative {side}", total)
    if damage is not None:
        latest_blow(workspace, attacker, target)
        workspace.outcome.damage.setValue(damage)
        workspace.outcome.hit_button.click()
        assert workspace.outcome.error.text() == "", workspace.outcome.error.text()


def latest_blow(workspace: EncounterWorkspace, attacker: str, target: str) -> None:
    """Clicks the attacker's latest blow at ``target`` in the resolution list (names as the
    screen shows them)."""
    names = {c.id: elide_name(c.label) for c in workspace.controller.state.combatants.values()}
    attacker, target = elide_name(attacker), elide_name(target)
    resolution = workspace.controller.resolution
    assert resolution is not None
    steps = [s for s in resolution.steps if names.get(s.actor) == attacker
             and names.get(str(s.target)) == target and s.event in ("attacks", "hits", "misses")]
    assert steps, f"no blow of {attacker} at {target}"
    workspace.select_step(steps[-1].seq)


def new_round(workspace: EncounterWorkspace) -> None:
    """Presses the board's New Round (Start Round N) button."""
    starts = [b for b in workspace.board.findChildren(QPushButton)
              if b.text().replace("&", "").startswith(("Start Round", "New Round"))
              and b.isEnabled()]
    assert len(starts) == 1, [b.text() for b in workspace.board.findChildren(QPushButton)]
    starts[0].click()
