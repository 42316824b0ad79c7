"""The resolution list's columns share the list's width: no row needs a sideways scroll.

At 1280×720 the list is some 380 px wide; names of 24 characters, the event and why the step
came then do not all fit. The short columns (#, when, event) keep their words' width; the
actor and the target get what their names need up to a share each, and why takes the rest.
A cut cell ends in "…"; the row's tooltip and the outcome panel give it whole (issue 24).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QHeaderView, QTableView

NAME_SHARE = 0.34
"""The most of the room left that the actor's (or the target's) column takes."""
WHY_LEAST = 60
"""The least width of the why column, in pixels."""


class SharedColumns(QObject):
    """Sets the widths of ``names`` columns and of the ``rest`` column when the list's width
    or its rows change; the other columns size to their contents (Qt does that)."""

    def __init__(self, view: QTableView, names: tuple[int, ...], rest: int) -> None:
        super().__init__(view)
        self._view = view
        self._names = names
        self._rest = rest
        header = view.horizontalHeader()
        for column in (*names, rest):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
        self._pending = QTimer(self)
        self._pending.setSingleShot(True)
        self._pending.setInterval(0)
        self._pending.timeout.connect(self.fit)
        view.viewport().installEventFilter(self)
        model = view.model()
        model.modelReset.connect(self._pending.start)
        header.sectionResized.connect(self._on_section_resized)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self.fit()
        return False

    def _on_section_resized(self, column: int, _old: int, _new: int) -> None:
        if column not in (*self._names, self._rest):  # a short column grew or shrank
            self._pending.start()

    def fit(self) -> None:
        """Shares the width left by the short columns between the names and why."""
        view, header = self._view, self._view.horizontalHeader()
        shared = (*self._names, self._rest)
        fixed = sum(header.sectionSize(c) for c in range(header.count())
                    if c not in shared and not header.isSectionHidden(c))
        room = max(0, view.viewport().width() - fixed)
        least = header.minimumSectionSize()
        widths = {}
        for column in self._names:
            wanted = max(view.sizeHintForColumn(column), header.sectionSizeHint(column))
            widths[column] = max(least, min(wanted, int(room * NAME_SHARE)))
        widths[self._rest] = max(WHY_LEAST, room - sum(widths.values()))
        for column, width in widths.items():
            if header.sectionSize(column) != width:
                header.resizeSection(column, width)
