"""Draws a lane's card on at most a few lines, the last one cut with "…".

Who and whom come first, the target on a line of its own ("→ Orc 2 · …"), so each reads at
once; the lanes allow enough lines that a 24-letter name is never cut (issue 24: "Gnoll 1 →
Kell …" hid whom the blow was for). The card's tooltip holds the full text as well.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSize, Qt
from PySide6.QtGui import QFont, QFontMetrics, QPainter, QPalette, QTextLayout, QTextOption
from PySide6.QtWidgets import (
    QApplication,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

_Index = QModelIndex | QPersistentModelIndex
_PAD = 3
"""Pixels around the text, as the style's own item padding roughly leaves."""
_CACHE_SIZE = 4096
_lines_cache: dict[tuple[str, str, int, int], tuple[str, ...]] = {}
"""Lines already laid out, by text, font, width and line limit: every redraw measures each
card of every lane again (the lanes' layout asks each card's size), and a text layout per
card cost more than the rest of the board (bench/bench_command.py)."""


def clipped_lines(text: str, font: QFont, width: int, max_lines: int) -> list[str]:
    """Gets ``text`` wrapped at word boundaries to ``width`` pixels, at most ``max_lines``
    lines, the last one ending in "…" when words were left out.

    A card reading "actor → target · …" keeps the actor on the first line and the target at
    the start of the next, each cut on its own, so neither is lost to a long name.
    """
    key = (text, font.key(), width, max_lines)
    known = _lines_cache.get(key)
    if known is None:
        if len(_lines_cache) >= _CACHE_SIZE:
            _lines_cache.clear()
        known = _lines_cache[key] = tuple(_laid_out(text, font, width, max_lines))
    return list(known)


def _laid_out(text: str, font: QFont, width: int, max_lines: int) -> list[str]:
    actor, arrow, rest = text.partition(" → ")
    if arrow and max_lines >= 2:
        first = _wrapped(actor, font, width, max_lines - 1)
        return [*first, *_wrapped(f"→ {rest}", font, width, max_lines - len(first))]
    return _wrapped(text, font, width, max_lines)


def _wrapped(text: str, font: QFont, width: int, max_lines: int) -> list[str]:
    layout = QTextLayout(text, font)
    # A word wider than the lane breaks onto the next line instead of losing its end.
    layout.setTextOption(QTextOption(Qt.AlignmentFlag.AlignLeft))
    option = layout.textOption()
    option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    layout.setTextOption(option)
    layout.beginLayout()
    spans: list[tuple[int, int]] = []
    while True:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(max(width, 1))
        spans.append((line.textStart(), line.textLength()))
    layout.endLayout()
    lines = [text[start : start + length].strip() for start, length in spans[:max_lines]]
    if len(spans) > max_lines:
        rest = text[spans[max_lines - 1][0] :].strip()
        lines[-1] = QFontMetrics(font).elidedText(rest, Qt.TextElideMode.ElideRight, width)
    return lines or [""]


class ClippedCardDelegate(QStyledItemDelegate):
    """Paints each card on at most ``max_lines`` lines of the view's width."""

    def __init__(self, max_lines: int = 2, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.max_lines = max_lines

    def _width(self, option: QStyleOptionViewItem) -> int:
        """Gets the text's width: the view's, less its scroll bar even while that is hidden.

        A card measured before the scroll bar appeared kept the height of a wider lane, and
        the line the narrower lane wrapped onto was not painted ("Sister Ysolde of" lost
        "Arnmoor"): measured and painted at the same, narrower width, it never is.
        """
        view = option.widget  # type: ignore[attr-defined]
        if view is None:
            return max(option.rect.width() - 2 * _PAD, 10)  # type: ignore[attr-defined]
        width = view.viewport().width()
        bar = view.verticalScrollBar()
        if not bar.isVisible():
            width -= bar.sizeHint().width()
        return max(width - 2 * _PAD, 10)

    def sizeHint(self, option: QStyleOptionViewItem, index: _Index) -> QSize:
        self.initStyleOption(option, index)
        text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        width = self._width(option)
        lines = clipped_lines(text, option.font, width, self.max_lines)  # type: ignore[attr-defined]
        height = len(lines) * QFontMetrics(option.font).lineSpacing()  # type: ignore[attr-defined]
        return QSize(width, height + 2 * _PAD)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        self.initStyleOption(option, index)
        text = option.text  # type: ignore[attr-defined]
        option.text = ""  # type: ignore[attr-defined]
        widget = option.widget  # type: ignore[attr-defined]
        # The application's style, not widget.style() (see desktop/screens.py): the lanes
        # have no style sheet of their own.
        style = QApplication.style()
        if style is not None:  # the background, selection and focus as the style draws them
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, option, painter, widget)
        rect = option.rect.adjusted(_PAD, _PAD, -_PAD, -_PAD)  # type: ignore[attr-defined]
        lines = clipped_lines(text, option.font, self._width(option), self.max_lines)  # type: ignore[attr-defined]
        selected = bool(option.state & QStyle.StateFlag.State_Selected)  # type: ignore[attr-defined]
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        painter.save()
        painter.setFont(option.font)  # type: ignore[attr-defined]
        painter.setPen(option.palette.color(role))  # type: ignore[attr-defined]
        painter.drawText(
            rect, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop), "\n".join(lines)
        )
        painter.restore()
