"""Cuts a document into pages between table rows and never right after a heading (issue 24).

QTextDocument's own pagination ignores CSS ``break-inside: avoid`` and ``break-after: avoid``:
it cuts a table row at the page end line by line (the row's first lines on one page, the rest
under the repeated header on the next) and lets a heading end a page. Nudging its layout with
margins or paddings until no row straddles a page end means laying the document out again at
every nudge (the 300-fighter summary has dozens), and Qt counts a cell's padding against the
page end, so a padded row pushes its own text to the next page instead of the row below it.

So the document is laid out once, as one long page, and :func:`page_plan` chooses where each
page starts: between table rows, between the lines of a paragraph, never between a heading and
what follows it; only something taller than a page (a timeline picture of a big fight) is cut
inside. A page that starts inside a table gets the table's header again, as Qt would repeat it.
:func:`print_pages` paints each page's stretch of that layout.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QGuiApplication,
    QPagedPaintDevice,
    QPageLayout,
    QPainter,
    QPalette,
    QTextBlock,
    QTextCursor,
    QTextDocument,
    QTextFormat,
    QTextTable,
    QTextTableCell,
)

EDGE = 1.0
"""Document pixels kept on both sides of a cut between rows: the 1 px line between them closes
the row above and opens the row below; text keeps its cell padding (2–4 px) away from it."""


@dataclass(frozen=True, slots=True)
class Piece:
    """Something a page cut must not cross (a line of text, a table row), in document y."""

    top: float
    bottom: float
    keep_with_next: bool = False
    header: tuple[float, float] | None = None
    """The table header to repeat above this row when a page starts with it."""


@dataclass(frozen=True, slots=True)
class Page:
    """One page: the document's stretch ``top``–``bottom``, below a repeated table header."""

    top: float
    bottom: float
    header: tuple[float, float] | None = None

    @property
    def body_at(self) -> float:
        """Where the stretch starts on the page: below the header, its first line drawn over
        the header's last (both are the line between the header and the rows)."""
        return 0.0 if self.header is None else self.header[1] - self.header[0] - 2 * EDGE


@dataclass(frozen=True, slots=True)
class CutRow:
    """A table row that the page plan cuts: ``label`` is its first cell's text."""

    page: int
    row: int
    label: str


def _padding(table: QTextTable, cell: QTextTableCell, side: QTextFormat.Property) -> float:
    fmt = cell.format()
    if fmt.hasProperty(side):
        return float(fmt.doubleProperty(side))
    return float(table.format().cellPadding())


def row_text(layout: QAbstractTextDocumentLayout, table: QTextTable, row: int
             ) -> tuple[float, float]:
    """Gets the top of a table row's text and the bottom of its lowest cell's text."""
    top, bottom = math.inf, -math.inf
    for column in range(table.columns()):
        cell = table.cellAt(row, column)
        if cell.row() != row or cell.column() != column:
            continue  # covered by a spanning cell
        top = min(top, layout.blockBoundingRect(cell.firstCursorPosition().block()).top())
        bottom = max(bottom, layout.blockBoundingRect(cell.lastCursorPosition().block()).bottom())
    return top, bottom


def _row_lines(layout: QAbstractTextDocumentLayout, table: QTextTable) -> list[float]:
    """Gets the y of each line between rows: above row 0, between each pair, below the last."""
    texts = [row_text(layout, table, row) for row in range(table.rows())]
    first = table.cellAt(0, 0)
    lines = [texts[0][0] - _padding(table, first, QTextFormat.Property.TableCellTopPadding)]
    for (_, above_bottom), (below_top, _) in itertools.pairwise(texts):
        lines.append((above_bottom + below_top) / 2)
    last = table.cellAt(table.rows() - 1, 0)
    lines.append(texts[-1][1] + _padding(table, last, QTextFormat.Property.TableCellBottomPadding))
    return lines


def _table_pieces(layout: QAbstractTextDocumentLayout, table: QTextTable) -> list[Piece]:
    lines = _row_lines(layout, table)
    header_rows = min(table.format().headerRowCount(), table.rows() - 1)
    header = (lines[0] - EDGE, lines[header_rows] + EDGE) if header_rows > 0 else None
    # the header starts the table with its first row; later rows may start a page under a copy
    pieces = [Piece(lines[0] - EDGE, lines[header_rows + 1] + EDGE)]
    pieces += [Piece(lines[row] - EDGE, lines[row + 1] + EDGE, header=header)
               for row in range(header_rows + 1, table.rows())]
    return pieces


def _block_pieces(layout: QAbstractTextDocumentLayout, block: QTextBlock) -> list[Piece]:
    text = block.layout()
    top = layout.blockBoundingRect(block).top()
    heading = block.blockFormat().headingLevel() > 0
    pieces = []
    for index in range(text.lineCount()):
        line = text.lineAt(index)
        last = index == text.lineCount() - 1
        pieces.append(Piece(top + line.y(), top + line.y() + line.height(),
                            keep_with_next=heading and last))
    return pieces


def pieces(document: QTextDocument) -> list[Piece]:
    """Gets what a page cut must not cross, top to bottom (laid out on the text width)."""
    layout = document.documentLayout()
    found: list[Piece] = []
    block = document.begin()
    while block.isValid():
        table = QTextCursor(block).currentTable()
        if table is not None:
            found += _table_pieces(layout, table)
            end = table.lastPosition()
            block = document.findBlock(end)
            while block.isValid() and block.position() <= end:
                block = block.next()
            continue
        if block.length() > 1:  # an empty block shows nothing (Qt hides one before a table)
            found += _block_pieces(layout, block)
        block = block.next()
    return found


def _glued(found: list[Piece]) -> list[Piece]:
    """Joins each heading with what follows it into one piece."""
    glued: list[Piece] = []
    keep = False
    for piece in found:
        if keep and glued:
            head = glued.pop()
            piece = Piece(head.top, piece.bottom, piece.keep_with_next, head.header)
        glued.append(piece)
        keep = piece.keep_with_next
    return glued


def page_plan(document: QTextDocument, page_height: float) -> list[Page]:
    """Chooses each page's stretch of the document (laid out as one long page)."""
    plan: list[Page] = []
    top, bottom, header = 0.0, 0.0, None

    def room() -> float:
        return top + page_height - (0.0 if header is None else header[1] - header[0])

    for piece in _glued(pieces(document)):
        if piece.bottom <= room():
            bottom = max(bottom, piece.bottom)
            continue
        fresh = page_height - (0.0 if piece.header is None else piece.header[1] - piece.header[0])
        if piece.top > top and (piece.bottom - piece.top <= fresh
                                or room() - piece.top < page_height / 4):
            # Something is on this page: start the next one with this piece. What is taller
            # than a page is cut anyway: it starts here unless only a sliver of it would.
            plan.append(Page(top, max(bottom, top), header))
            top, bottom, header = piece.top, piece.bottom, piece.header
            continue
        while piece.bottom > room():  # taller than a page: cut it where each page ends
            plan.append(Page(top, room(), header))
            top, header = room(), piece.header  # a table ended above it: no header any more
        bottom = piece.bottom
    plan.append(Page(top, max(bottom, top), header))
    return plan


def cut_rows(document: QTextDocument, plan: list[Page]) -> list[CutRow]:
    """Gets every table body row that no page of ``plan`` holds whole (for the tests)."""
    layout = document.documentLayout()
    cut = []
    tables = [frame for frame in document.rootFrame().childFrames()
              if isinstance(frame, QTextTable)]
    for table in tables:
        for row in range(min(table.format().headerRowCount(), table.rows()), table.rows()):
            top, bottom = row_text(layout, table, row)
            if any(page.top <= top and bottom <= page.bottom for page in plan):
                continue
            page = next((n for n, p in enumerate(plan, 1) if p.top <= top < p.bottom), 0)
            cell = table.cellAt(row, 0)
            text = QTextCursor(cell.firstCursorPosition())
            text.setPosition(cell.lastCursorPosition().position(),
                             QTextCursor.MoveMode.KeepAnchor)
            cut.append(CutRow(page, row, text.selectedText()))
    return cut


def _paint(painter: QPainter, layout: QAbstractTextDocumentLayout, width: float,
           stretch: tuple[float, float], at: float) -> None:
    """Paints the document's stretch ``top``–``bottom`` at ``at`` on the page."""
    top, bottom = stretch
    painter.save()
    painter.translate(0, at - top)
    view = QRectF(0, top, width, bottom - top)
    painter.setClipRect(view)
    context = QAbstractTextDocumentLayout.PaintContext()
    # Qt draws what touches its clip: keep the rows beyond the cut lines out of the PDF's text
    context.clip = view.adjusted(0, EDGE, 0, -EDGE)
    palette = QPalette(context.palette)
    palette.setColor(QPalette.ColorRole.Text, Qt.GlobalColor.black)  # never a theme's white
    context.palette = palette
    layout.draw(painter, context)
    painter.restore()


def print_pages(document: QTextDocument, printer: QPagedPaintDevice) -> int:
    """Lays ``document`` out on the printer's printable width, plans its pages for the printer's
    page body and paints them. Returns the page count."""
    # Document pixels are screen pixels (what CSS px and the picture widths mean); the pages
    # are scaled to the printer.
    screen = QGuiApplication.primaryScreen()
    dpi = screen.logicalDotsPerInchX() if screen is not None else 96.0
    width = printer.pageLayout().paintRect(QPageLayout.Unit.Inch).width() * dpi
    document.setTextWidth(width)  # one long page: Qt's own pagination stays out of it
    painter = QPainter(printer)
    if not painter.isActive():
        return 0
    scale = printer.width() / width
    plan = page_plan(document, printer.height() / scale)
    layout = document.documentLayout()
    painter.scale(scale, scale)
    first, last = 1, len(plan)
    # a QPrinter knows the pages the DM chose in the print dialog (QtPrintSupport is not
    # imported here: the app loads it when the DM first prints)
    chosen = getattr(printer, "fromPage", None)
    if chosen is not None and chosen() > 0:
        first, last = chosen(), min(printer.toPage() or last, last)  # type: ignore[attr-defined]
    for number in range(first, last + 1):
        page = plan[number - 1]
        if number > first:
            printer.newPage()
        if page.header is not None:
            _paint(painter, layout, width, page.header, 0.0)
        _paint(painter, layout, width, (page.top, page.bottom), page.body_at)
    painter.end()
    return len(plan)
