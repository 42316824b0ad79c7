"""Helpers that drive the encounter workspace as a DM would: drops, keys, typed dice."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QModelIndex, QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from core.cli.commands import resolve_scenario
from core.fight.encounter import commands_for_scenario
from core.fight.log import EventKind
from core.model.scenario import parse_scenario
from core.model.values import Step
from core.play.session import EncounterSession
from core.store import Store
from desktop.encounter.board_base import BoardBase
from desktop.encounter.lane_model import LaneModel
from desktop.encounter.workspace import EncounterWorkspace
from desktop.main_window import MainWindow

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def scenario(name: str) -> dict[str, Any]:
    return json.loads((SCENARIOS / name).read_text())


def cli_steps(document: dict[str, Any]) -> list[dict[str, Any]]:
    return resolve_scenario(parse_scenario(document)).to_json()["steps"]


def gui_steps(workspace: EncounterWorkspace) -> list[dict[str, Any]]:
    resolution = workspace.controller.resolution
    assert resolution is not None and workspace.controller.error is None
    return resolution.to_json()["steps"]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store.open(f"sqlite:///{tmp_path / 'encounters.sqlite'}")
    yield opened
    opened.close()


def _open_workspace(qtbot: QtBot, store: Store, document: dict[str, Any], name: str,
                    size: tuple[int, int], everything: bool) -> EncounterWorkspace:
    """Saves a fight of ``document`` in a new campaign and shows its workspace; only its
    combatants unless ``everything`` (declarations, dice and outcomes too)."""
    campaign = store.campaigns.create(f"{name} {len(store.campaigns.all()) + 1}")
    session = EncounterSession.start(store, campaign.id, name, document["system"],
                                     document.get("options"), document.get("seed"))
    for command in commands_for_scenario(document):
        if everything or command.events[0].kind is EventKind.COMBATANT_ADDED:
            session.execute(command)
    workspace = EncounterWorkspace(session)
    qtbot.addWidget(workspace)
    workspace.resize(*size)
    workspace.show()
    return workspace


@pytest.fixture
def start(qtbot: QtBot, store: Store):  # type: ignore[no-untyped-def]
    """Starts a workspace on a scenario's system, options, seed and combatants (no dice)."""

    def _start(document: dict[str, Any]) -> EncounterWorkspace:
        return _open_workspace(qtbot, store, document, "Fight", (1440, 820), everything=False)

    return _start


@pytest.fixture
def played(qtbot: QtBot, store: Store):  # type: ignore[no-untyped-def]
    """Opens a workspace on a scenario as played so far (every command of it: combatants,
    declarations, dice and outcomes), at a laptop's 1280×720."""

    def _open(document: dict[str, Any], name: str = "Fight") -> EncounterWorkspace:
        return _open_workspace(qtbot, store, document, name, (1280, 720), everything=True)

    return _open


def popcorn_rolled(start: Any, document: dict[str, Any]) -> tuple[EncounterWorkspace, Any]:
    """Starts a popcorn scenario's fight and types every initiative d20 it gives: the engine
    then names who opens. Gets the workspace and its popcorn board."""
    from desktop.encounter.popcorn_board import PopcornBoard

    ws: EncounterWorkspace = start(document)
    board = ws.board
    assert isinstance(board, PopcornBoard)
    for cid, total in document["initiative"].items():
        type_die(ws, f"initiative {cid}", str(total))
    return ws, board


def popcorn_dag_readied(start: Any, trigger: str) -> tuple[EncounterWorkspace, Any]:
    """The readied-attack fight, its initiative typed: Dag's turn readies a blow on the
    shaman (``trigger``) and names the shaman, whose turn is next."""
    ws, board = popcorn_rolled(start, scenario("popcorn/readied-attack-disrupts-spell.json"))
    press_on_card(board, "dag", "1")
    board.editor.set_value("target", "shaman")
    board.editor.set_value("ready", trigger)
    press_on_card(board, "shaman", "N")
    return ws, board


def card_mime(board: BoardBase, cid: str):  # type: ignore[no-untyped-def]
    """Gets the MIME data the cards view would drag for ``cid`` (its model's own mimeData)."""
    row = board.cards_model.row_of(cid)
    assert row is not None, cid
    return board.cards_model.mimeData([board.cards_model.index(row, 0)])


def drop_card(board: BoardBase, lane: LaneModel, cid: str) -> bool:
    """Drops a card onto a lane the way the view does: through the lane model's dropMimeData."""
    data = card_mime(board, cid)
    assert lane.canDropMimeData(data, Qt.DropAction.CopyAction, -1, 0, QModelIndex())
    return lane.dropMimeData(data, Qt.DropAction.CopyAction, -1, 0, QModelIndex())


def press_on_card(board: BoardBase, cid: str, key: str) -> None:
    """Selects a card and types a key on the cards view (the keyboard equivalent of a drag)."""
    board.cards.select_id(cid)
    board.cards.setFocus()
    QTest.keyClicks(board.cards, key)


def fill_and_declare(board: BoardBase, **values: Any) -> None:
    """Fills the inline editor and presses Enter in it."""
    assert not board.editor.isHidden(), "the drop should have opened the editor"
    for name, value in values.items():
        board.editor.set_value(name, value)
    QTest.keyClick(board.editor.target, Qt.Key.Key_Return)


def type_die(workspace: EncounterWorkspace, purpose: str, total: str) -> QWidget:
    """Types a physical die's total into the stepper's field and presses Enter."""
    row = workspace.stepper.row_for(purpose)
    assert row is not None, [r.request.purpose for r in workspace.stepper.rows]
    row.field.setText(total)
    QTest.keyClick(row.field, Qt.Key.Key_Return)
    return row


def step_of(workspace: EncounterWorkspace, actor: str, *events: str) -> Step:
    resolution = workspace.controller.resolution
    assert resolution is not None
    found = [s for s in resolution.steps if s.actor == actor and (not events or s.event in events)]
    assert found, f"no step of {actor} {events}"
    return found[0]


def record(workspace: EncounterWorkspace, actor: str, hit: bool, damage: int = 0,
           another: bool = False, events: tuple[str, ...] = ("attacks", "hits", "misses")) -> None:
    """Selects the actor's step in the resolution list and records its outcome."""
    workspace.select_step(step_of(workspace, actor, *events).seq)
    workspace.outcome.damage.setValue(damage)
    workspace.outcome.another.setChecked(another)
    button = workspace.outcome.hit_button if hit else workspace.outcome.miss_button
    assert button.isEnabled(), workspace.outcome.label.text()
    button.click()
    assert workspace.outcome.error.text() == ""


@pytest.fixture
def window(qtbot: QtBot, sample_store: Store, settings: QSettings) -> MainWindow:
    """The main window on the sample campaign (offscreen)."""
    win = MainWindow(sample_store, settings)
    qtbot.addWidget(win)
    win.show()
    return win
