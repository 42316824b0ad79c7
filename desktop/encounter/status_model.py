"""The combatant status panel: HP, status, spells lost and active effects with time left."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from core.fight.encounter import scenario_document
from core.fight.log import EncounterState
from core.model.scenario import Scenario, ScenarioError, parse_scenario
from core.model.values import Resolution, Status, Step, StepEvent
from core.printout.summary import SummaryError, latest_round
from core.printout.words import status_words
from desktop.plain_text import elide_name

_HEADERS = ("Combatant", "Side", "HP", "Status", "Effects and notes")
HIDDEN_NOTE = "hidden from the players"
_Index = QModelIndex | QPersistentModelIndex


def _when(step: Step) -> str:
    """Gets `` (round 2)``, `` (TU 14)`` or nothing: never a round the step does not have."""
    if step.round is not None:
        return f" (round {step.round})"
    if step.tu is not None:
        return f" (TU {step.tu})"
    return ""


def _notes(state: EncounterState, resolution: Resolution,
           scenario: Scenario | None = None) -> tuple[dict[str, list[str]], str]:
    """Gets each combatant's notes, and what the latest round says if nothing happened in it
    (the printout's words: :func:`core.printout.words.quiet_round_words`). ``scenario`` is the
    one ``resolution`` was made from (read from ``state`` when not given)."""
    notes: dict[str, list[str]] = {}
    running: dict[str, dict[str, str]] = {}  # creature → condition → since when
    for step in resolution.steps:
        if step.event is StepEvent.SPELL_DISRUPTED:
            spell = step.detail.get("spell") or "spell"
            notes.setdefault(step.actor, []).append(f"spell lost: {spell}{_when(step)}")
        elif step.event is StepEvent.CONDITION_STARTS:
            running.setdefault(step.actor, {})[str(step.detail.get("condition"))] = (
                _when(step).strip(" ()"))
        elif step.event is StepEvent.CONDITION_ENDS:
            running.get(step.actor, {}).pop(str(step.detail.get("condition")), None)
    for cid, names in running.items():  # conditions still on at the last step resolved
        notes.setdefault(cid, []).extend(
            f"{name} since {when}" if when else name for name, when in names.items())
    try:
        if scenario is None:
            scenario = parse_scenario(scenario_document(state))
        # the last printed round's effects and quiet words, without the whole print summary
        last = latest_round(scenario, resolution)
    except (ScenarioError, SummaryError, ValueError):
        return notes, ""
    cid_of = {c.label: c.id for c in reversed(scenario.combatants)}  # the first of a name
    for effect in last.effects:
        notes.setdefault(cid_of.get(effect.target, effect.target), []).append(
            f"{effect.name}: {effect.remaining}")
    quiet = ""
    if state.rounds and scenario.system != "time-units" and last.rolled:
        # a round whose dice are in and in which nothing happened (not one still being
        # declared: that round has no dice yet)
        quiet = last.quiet
    return notes, quiet


class StatusModel(QAbstractTableModel):
    """One row a combatant as the engine resolves it now."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._rows: list[tuple[str, str, str, Status, str]] = []
        self.round_note = ""
        """What the latest round says when nothing happened in it, as the printout says it."""

    def set_state(self, state: EncounterState, resolution: Resolution | None,
                  scenario: Scenario | None = None) -> None:
        """Shows ``state`` as ``resolution`` (made from ``scenario``) resolves it."""
        notes, self.round_note = _notes(state, resolution, scenario) \
            if resolution is not None else ({}, "")
        for cid in state.hidden:  # the DM sees who the players' screen leaves out
            notes.setdefault(cid, []).insert(0, HIDDEN_NOTE)
        rows = []
        for c in state.combatants.values():
            result = resolution.combatants.get(c.id) if resolution is not None else None
            hp = result.hp if result is not None else c.hp
            start = f" / {c.max_hp or c.hp}" if (c.max_hp or c.hp) is not None else ""
            status = result.status if result is not None else c.status
            shown_hp = f"{hp if hp is not None else '?'}{start}"
            rows.append((elide_name(c.label), c.side, shown_hp, status,
                         "; ".join(notes.get(c.id, []))))
        if rows == self._rows:
            return  # nothing to lay out or paint again
        self.beginResetModel()
        self._rows = rows
        self.endResetModel()

    def notes_of(self, row: int) -> str:
        return self._rows[row][4]

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(_HEADERS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return _HEADERS[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            if index.column() == 3:
                return status_words(row[3])  # "Active", not the stored "active"
            return str(row[index.column()])
        if role == Qt.ItemDataRole.ForegroundRole and row[3] is not Status.ACTIVE:
            return QColor("#c0392b")
        return None


def make_status_view(model: StatusModel, parent: QWidget | None = None) -> QTableView:
    view = QTableView(parent)
    view.setObjectName("statusView")
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.verticalHeader().hide()
    header = view.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setResizeContentsPrecision(0)  # the rows in view, not every fighter's
    header.setStretchLastSection(True)
    return view
