"""Keeps the resolution list and the timeline on the same step, both ways.

The list's own QItemSelectionModel is the single source of truth: a click on the timeline
selects the row, and any change of the current row highlights the timeline's mark.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QObject, Signal
from PySide6.QtWidgets import QTableView

from core.model.values import Combatant, Resolution
from desktop.resolution.step_identity import same_step
from desktop.resolution.steps_model import SEQ_ROLE, StepsModel
from desktop.timeline.widget import TimelineWidget


class StepSelectionSync(QObject):
    """Links a steps view and a timeline; ``step_selected(seq)`` tells anyone else."""

    step_selected = Signal(int)

    def __init__(self, view: QTableView, timeline: TimelineWidget) -> None:
        super().__init__(view)
        model = view.model()
        if not isinstance(model, StepsModel):
            raise TypeError("the view must show a StepsModel")
        self._view = view
        self._model = model
        self._timeline = timeline
        timeline.step_selected.connect(self._on_timeline_step_selected)
        view.selectionModel().currentRowChanged.connect(self._on_current_row_changed)

    def set_resolution(
        self, resolution: Resolution | None, combatants: Sequence[Combatant] | None = None
    ) -> None:
        """Shows a new resolution in both, keeping the selected step if it still exists.

        The step is followed by what it is (its declaration, attack and moment), not by its
        number: new dice that re-sort the list must not move the selection onto another step.
        """
        before = self._model.steps()
        seq = self.selected_step()
        old = next((s for s in before if s.seq == seq), None) if seq is not None else None
        self._model.set_resolution(resolution, combatants)
        self._timeline.set_resolution(resolution, combatants)
        now = same_step(old, before, self._model.steps()) if old is not None else None
        self.select_step(now.seq if now is not None else None)

    def selected_step(self) -> int | None:
        """Gets the seq of the step the list has current."""
        index = self._view.selectionModel().currentIndex()
        seq = index.data(SEQ_ROLE) if index.isValid() else None
        return int(seq) if seq is not None else None

    def select_step(self, seq: int | None) -> None:
        """Makes step ``seq`` current in the list (the timeline follows); None clears."""
        selection = self._view.selectionModel()
        row = self._model.row_of_seq(seq) if seq is not None else None
        if row is None:
            selection.clear()
            self._timeline.highlight_step(None)
            return
        index = self._model.index(row, 0)
        flags = (
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows
        )
        selection.setCurrentIndex(index, flags)
        self._view.scrollTo(index)

    def _on_timeline_step_selected(self, seq: int) -> None:
        self.select_step(seq)

    def _on_current_row_changed(self, current: QModelIndex, previous: QModelIndex) -> None:
        seq = current.data(SEQ_ROLE) if current.isValid() else None
        self._timeline.highlight_step(int(seq) if seq is not None else None)
        if seq is not None:
            self.step_selected.emit(int(seq))
