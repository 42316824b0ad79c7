"""The resolved steps as a table: seq, when, actor, event, target, why (all in words on hover)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from core.model.values import Combatant, Resolution, Step
from core.printout.words import Names, event_words, step_why
from desktop.plain_text import elide_name
from desktop.resolution.steps_columns import SharedColumns
from desktop.step_text import step_tooltip, step_when_short

SEQ_ROLE = Qt.ItemDataRole.UserRole + 1
"""Gets a row's step seq (an int) from any of its cells."""

_DISPLAY = int(Qt.ItemDataRole.DisplayRole.value)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole.value)
_ROLES_ANSWERED = frozenset({_DISPLAY, _TOOLTIP, int(SEQ_ROLE)})
_HEADERS = ("#", "When", "Actor", "Event", "Target", "Why")
_Index = QModelIndex | QPersistentModelIndex


class StepsModel(QAbstractTableModel):
    """Read-only rows, one per step of a resolution, in resolution order."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._system = ""
        self._steps: tuple[Step, ...] = ()
        self._row_of: dict[int, int] = {}
        self._labels: Mapping[str, str] = {}
        self._names = Names({})

    def set_resolution(
        self, resolution: Resolution | None, combatants: Sequence[Combatant] | None = None
    ) -> None:
        """Shows ``resolution``'s steps; ``combatants`` gives the names to show.

        Only the rows that changed are redrawn when the list keeps its length (a hit recorded,
        a die given): a reset laid out and painted the whole list, and lost the selection.
        """
        system = resolution.system if resolution else ""
        steps = resolution.steps if resolution else ()
        labels = self._labels if combatants is None else {
            c.id: elide_name(c.label) for c in combatants}
        if system != self._system or labels != self._labels or len(steps) != len(self._steps):
            self.beginResetModel()
            self._system, self._steps, self._labels = system, steps, labels
            self._names = Names(dict(labels))
            self._row_of = {step.seq: row for row, step in enumerate(steps)}
            self.endResetModel()
            return
        changed = [row for row, (old, new) in enumerate(zip(self._steps, steps, strict=True))
                   if old != new]
        self._steps = steps
        self._row_of = {step.seq: row for row, step in enumerate(steps)}
        if changed:
            self.dataChanged.emit(self.index(changed[0], 0),
                                  self.index(changed[-1], len(_HEADERS) - 1))

    def row_of_seq(self, seq: int) -> int | None:
        """Gets the row showing step ``seq``."""
        return self._row_of.get(seq)

    def steps(self) -> tuple[Step, ...]:
        """Gets the steps shown, in order."""
        return self._steps

    def step_at(self, row: int) -> Step | None:
        return self._steps[row] if 0 <= row < len(self._steps) else None

    # --- Qt overrides ---------------------------------------------------------------------------

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self._steps)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(_HEADERS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return _HEADERS[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        # Painting asks every cell for a dozen roles this model has no answer to: those are
        # turned away first, on plain ints (bench/bench_command.py).
        if role not in _ROLES_ANSWERED:
            return None
        step = self.step_at(index.row()) if index.isValid() else None
        if step is None:
            return None
        if role == _DISPLAY:
            return self._cell(step, index.column())
        if role == _TOOLTIP:
            return step_tooltip(step, self._system, self._labels)
        return step.seq

    def _cell(self, step: Step, column: int) -> str:
        label = self._labels.get
        if column == 0:
            return str(step.seq)
        if column == 1:
            return step_when_short(step)  # in full in the tooltip and the outcome panel
        if column == 2:
            return label(step.actor, step.actor)
        if column == 3:
            return event_words(step.event)
        if column == 4:
            return label(step.target, step.target) if step.target else ""
        # why the step came there, in the printout's words (never a rule's id)
        return step_why(step, self._names, self._system)


def make_steps_view(model: StepsModel, parent: QWidget | None = None) -> QTableView:
    """Builds the resolution list: whole-row single selection; actor, target and why share
    the width the list has, so no row needs a sideways scroll (each cut one reads in full in
    its tooltip and, selected, in the outcome panel)."""
    view = QTableView(parent)
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.verticalHeader().hide()
    view.setAlternatingRowColors(True)
    # One line a step: the shared columns elide (the row's tooltip gives it all, in plain
    # words), so a narrow list never grows rows two lines tall.
    view.setWordWrap(False)
    view.setTextElideMode(Qt.TextElideMode.ElideRight)
    header = view.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    # Columns fit the rows in view, not all of them: measuring every cell of 200 fighters'
    # steps at each redraw cost more than the engine (bench/bench_command.py).
    header.setResizeContentsPrecision(0)
    # actor, target and why share the width left (issue 24: the list scrolled sideways)
    SharedColumns(view, names=(2, 4), rest=5)
    header.setMinimumSectionSize(40)
    return view
