"""A one-line label that cuts its text with "…" instead of wrapping or widening its column.

For status lines that change every second (the declaration timer): a wrapping label grew a
line as the text lengthened and pushed everything below it down. The full text stays in
``text()`` and in the tooltip.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget


class ElidedLabel(QLabel):
    """A fixed height of ``lines`` lines; text too long for them ends in "…".

    Several lines wrap at words; the cut is made on the text as a whole, a little early, so
    the wrapped text never needs a line more than it has.
    """

    def __init__(self, text: str = "", parent: QWidget | None = None, lines: int = 1) -> None:
        super().__init__(text, parent)
        self._lines = max(lines, 1)
        self.setWordWrap(False)
        self.setTextFormat(Qt.TextFormat.PlainText)
        # Ignored width: the column sets the label's width, never the label the column's.
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.setFixedHeight(self.fontMetrics().lineSpacing() * self._lines + 4)
        self.setToolTip(text)

    def setText(self, text: str) -> None:
        super().setText(text)
        self.setToolTip(text)

    def minimumSizeHint(self) -> QSize:
        return QSize(0, self.height())

    def shown_text(self) -> str:
        """Gets the text as painted: the whole text, or its start ending in "…"."""
        rect = self.contentsRect()
        metrics = self.fontMetrics()
        if self._lines == 1:
            return metrics.elidedText(self.text(), Qt.TextElideMode.ElideRight, rect.width())
        # What wrapping at words wastes at each line's end: about a long word per line.
        room = rect.width() * self._lines - metrics.averageCharWidth() * 12 * (self._lines - 1)
        return metrics.elidedText(" ".join(self.text().split()), Qt.TextElideMode.ElideRight,
                                  max(room, rect.width()))

    def is_cut(self) -> bool:
        """Tells whether the painted text lost its end to "…"."""
        return self.shown_text() != " ".join(self.text().split())

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        rect = self.contentsRect()
        if self._lines == 1:
            painter.drawText(rect, int(self.alignment() | Qt.AlignmentFlag.AlignVCenter),
                             self.shown_text())
            return
        painter.drawText(rect, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop
                                   | Qt.TextFlag.TextWordWrap), self.shown_text())
