"""Keeps the resolution list and the timeline on the same step, both ways.

The list's own QItemSelectionModel is the single source of truth: a click on the timeline
selects the row, and any change of the current row highlights the timeline's mark.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QObject, Signal
from PySide6.QtWidgets import QAbstractItemView, QTableView

from core.model.values import Combatant, Resolution, Step
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
        bar = self._view.verticalScrollBar()
        top = bar.value()
        self._model.set_resolution(resolution, combatants)
        self._timeline.set_resolution(resolution, combatants)
        now = same_step(old, before, self._model.steps()) if old is not None else None
        # kept selected where the DM left the list: a redraw does not scroll back to it
        self.select_step(now.seq if now is not None else None, scroll=False)
        if bar.value() != top:  # a reset put the list at its top, the selection at its row
            self._view.doItemsLayout()  # the scroll bar's range of the new rows
            bar.setValue(top)
        first = _first_of_new_round(before, self._model.steps())
        if first is not None:
            # A round just resolved: its first step comes into view at the top (the DM's
            # selection stays as it is). The list stayed on the rounds before (89-r3-rolled).
            row = self._model.row_of_seq(first.seq)
            if row is not None:
                self._view.doItemsLayout()
                self._view.scrollTo(self._model.index(row, 0),
                                    QAbstractItemView.ScrollHint.PositionAtTop)

    def selected_step(self) -> int | None:
        """Gets the seq of the step the list has current."""
        index = self._view.selectionModel().currentIndex()
        seq = index.data(SEQ_ROLE) if index.isValid() else None
        return int(seq) if seq is not None else None

    def select_step(self, seq: int | None, scroll: bool = True) -> None:
        """Makes step ``seq`` current in the list (the timeline follows); None clears.
        ``scroll``: brings it into view."""
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
        if scroll:
            self._view.scrollTo(index)

    def _on_timeline_step_selected(self, seq: int) -> None:
        self.select_step(seq)

    def _on_current_row_changed(self, current: QModelIndex, previous: QModelIndex) -> None:
        seq = current.data(SEQ_ROLE) if current.isValid() else None
        self._timeline.highlight_step(int(seq) if seq is not None else None)
        if seq is not None:
            self.step_selected.emit(int(seq))


def _first_of_new_round(before: Sequence[Step], after: Sequence[Step]) -> Step | None:
    """Gets the first step of the latest round that ``after`` has and ``before`` had not
    (None: no new round, or the list was empty: a fight opened shows its start)."""
    if not before:
        return None
    known = {s.round for s in before}
    new = [s for s in after if s.round is not None and s.round not in known]
    if not new:
        return None
    latest = max(s.round or 0 for s in new)
    return next(s for s in after if s.round == latest)
