"""Prints the round summary: print preview, printer, or PDF file (offscreen too).

The summary HTML (``core.summary_html``) embeds its timeline pictures as ``data:`` SVG images,
which QTextDocument cannot draw. :func:`summary_document` swaps each one for a named resource
holding the SVG rendered by QSvgRenderer at print resolution, then sets the HTML.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QByteArray, QMarginsF, QRectF, QSizeF, QUrl
from PySide6.QtGui import (
    QGuiApplication,
    QImage,
    QPageLayout,
    QPageSize,
    QPainter,
    QTextBlock,
    QTextBlockFormat,
    QTextCursor,
    QTextDocument,
    QTextFrame,
    QTextTable,
    QTextTableCell,
)
from PySide6.QtPrintSupport import QPrinter, QPrintPreviewDialog
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

PAGE_SIZES: dict[str, QPageSize.PageSizeId] = {
    "a4": QPageSize.PageSizeId.A4,
    "letter": QPageSize.PageSizeId.Letter,
}
MARGINS_MM = QMarginsF(15, 15, 15, 15)
PICTURE_SCALE = 3.0
"""Pixels rendered per CSS pixel: sharp at 288 dpi on paper without a huge PDF."""

_DATA_IMG = re.compile(r'src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"')


def render_svg(svg: bytes, scale: float = PICTURE_SCALE) -> QImage:
    """Renders an SVG picture to an image ``scale`` times its own size, on white."""
    renderer = QSvgRenderer(QByteArray(svg))
    size = renderer.defaultSize()
    if not renderer.isValid() or size.isEmpty():
        image = QImage(1, 1, QImage.Format.Format_RGB32)
        image.fill(0xFFFFFF)
        return image
    image = QImage(
        int(size.width() * scale), int(size.height() * scale), QImage.Format.Format_RGB32
    )
    image.fill(0xFFFFFF)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    renderer.render(painter, QRectF(0, 0, image.width(), image.height()))
    painter.end()
    return image


def summary_document(html: str) -> QTextDocument:
    """Builds a printable document from the summary HTML, pictures included."""
    document = QTextDocument()
    counter = 0

    def swap(match: re.Match[str]) -> str:
        nonlocal counter
        counter += 1
        name = f"summary-picture-{counter}.png"
        image = render_svg(base64.b64decode(match.group(1)))
        document.addResource(QTextDocument.ResourceType.ImageResource, QUrl(name), image)
        return f'src="{name}"'

    document.setHtml(_DATA_IMG.sub(swap, html))
    return document


def page_layout(page: str = "a4") -> QPageLayout:
    """Gets the portrait page layout for ``a4`` or ``letter`` with our margins."""
    try:
        size_id = PAGE_SIZES[page.lower()]
    except KeyError:
        raise ValueError(f"unknown page size {page!r} (a4 or letter)") from None
    return QPageLayout(
        QPageSize(size_id),
        QPageLayout.Orientation.Portrait,
        MARGINS_MM,
        QPageLayout.Unit.Millimeter,
    )


def make_printer(page: str = "a4", pdf_path: Path | None = None) -> QPrinter:
    """Gets a high-resolution printer, writing a PDF when ``pdf_path`` is given."""
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setPageLayout(page_layout(page))
    if pdf_path is not None:
        printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
        printer.setOutputFileName(str(pdf_path))
    return printer


def _what_follows(heading: QTextBlock) -> QTextBlock:
    """Gets the block a heading must share its page with: the first line after it, or for a
    table the first row below its header (Qt repeats the header on the next page)."""
    following = heading.next()
    table = QTextCursor(following).currentTable()
    if table is not None:
        header = min(table.format().headerRowCount(), table.rows() - 1)
        following = table.cellAt(max(header, 0), 0).firstCursorPosition().block()
    return following


def _tables(frame: QTextFrame) -> list[QTextTable]:
    out: list[QTextTable] = []
    for child in frame.childFrames():
        if isinstance(child, QTextTable):
            out.append(child)
        out += _tables(child)
    return out


def _cell_lines(document: QTextDocument, cell: QTextTableCell) -> tuple[float, float]:
    """Gets the top of a cell's first line of text and the bottom of its last one.

    Lines, not block rectangles: a cell's rectangle also holds the padding added below.
    """
    layout = document.documentLayout()
    top, bottom = float("inf"), float("-inf")
    block, last = cell.firstCursorPosition().block(), cell.lastCursorPosition().block()
    while block.isValid():
        text = block.layout()
        base = layout.blockBoundingRect(block).top() - text.boundingRect().top()
        for i in range(text.lineCount()):
            line = text.lineAt(i)
            top, bottom = min(top, base + line.y()), max(bottom, base + line.y() + line.height())
        if block == last:
            break
        block = block.next()
    return top, bottom


def _row_lines(document: QTextDocument, table: QTextTable, row: int) -> list[tuple[float, float]]:
    return [_cell_lines(document, table.cellAt(row, c)) for c in range(table.columns())]


def _heading_to_move(
    document: QTextDocument, page_height: float, after: float = 0.0
) -> QTextBlock | None:
    """Gets the first heading at or below ``after`` that ends a page apart from what follows
    it (None: none)."""
    layout = document.documentLayout()
    block = document.begin()
    while block.isValid():
        if block.blockFormat().headingLevel() > 0 and block.next().isValid():
            top = layout.blockBoundingRect(block).top()
            if top >= after:
                following = layout.blockBoundingRect(_what_follows(block))
                if int(following.bottom() // page_height) > int(top // page_height):
                    return block
        block = block.next()
    return None


def _row_to_move(
    document: QTextDocument, page_height: float, after: float = 0.0
) -> tuple[QTextTable, int, float] | None:
    """Gets the first table row at or below ``after`` whose lines straddle a page end:
    (table, row, its top)."""
    layout = document.documentLayout()
    for table in _tables(document.rootFrame()):
        if layout.frameBoundingRect(table).bottom() < after:
            continue
        for row in range(max(table.format().headerRowCount(), 1), table.rows()):
            first = table.cellAt(row, 0).firstCursorPosition().block()
            if layout.blockBoundingRect(first).bottom() < after:
                continue  # cheap: only rows from ``after`` on are measured line by line
            lines = [x for x in _row_lines(document, table, row) if x[0] <= x[1]]
            if not lines:
                continue
            top, bottom = min(x[0] for x in lines), max(x[1] for x in lines)
            taller_than_a_page = bottom - top > page_height * 0.8
            if (
                top >= after
                and not taller_than_a_page
                and int(top // page_height) != int((bottom - 1) // page_height)
            ):
                return table, row, top
    return None


def _push_heading(document: QTextDocument, block: QTextBlock, page_height: float) -> None:
    # push it past the page end with its top margin: Qt's own "break before" skips a whole
    # page after some tables
    top = document.documentLayout().blockBoundingRect(block).top()
    fmt = block.blockFormat()
    fmt.setTopMargin(fmt.topMargin() + (int(top // page_height) + 1) * page_height - top + 1)
    QTextCursor(block).setBlockFormat(fmt)


def _split_table(document: QTextDocument, table: QTextTable, row: int) -> None:
    """Moves the rows above ``row`` (header repeated) into a new table just above ``table``.

    Qt cannot keep a row whole (it breaks a row between its lines whenever the first line
    fits, and padding the row above moves that row's own lines); a table of its own can be
    pushed to the next page like a heading. The rows above are copied, not those below: a
    long table split page after page copies each row once.
    """
    edit = QTextCursor(document)
    edit.beginEditBlock()  # one layout for the whole split, not one per cell copied
    try:
        _copy_rows_above(document, table, row)
    finally:
        edit.endEditBlock()


def _copy_rows_above(document: QTextDocument, table: QTextTable, row: int) -> None:
    header = min(table.format().headerRowCount(), row)
    columns = table.columns()
    before = table.firstCursorPosition().block().previous()
    cursor = QTextCursor(before)
    cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock)
    cursor.insertBlock(QTextBlockFormat())  # the new table goes below what preceded
    top = cursor.insertTable(row, columns, table.format())
    for i in range(row):
        for column in range(columns):
            source, target = table.cellAt(i, column), top.cellAt(i, column)
            target.setFormat(source.format())
            copy = QTextCursor(document)
            copy.setPosition(source.firstPosition())
            copy.setPosition(source.lastPosition(), QTextCursor.MoveMode.KeepAnchor)
            target.firstCursorPosition().insertFragment(copy.selection())
    table.removeRows(header, row - header)
    separator = table.firstCursorPosition().block().previous()
    QTextCursor(separator).setBlockFormat(QTextBlockFormat())


def _push_table(document: QTextDocument, table: QTextTable, page_end: float) -> None:
    """Starts ``table`` at ``page_end`` (if it starts above it) by the top margin of the empty
    block before it: a table's own top margin would be repeated on every page it spans."""
    top = document.documentLayout().frameBoundingRect(table).top()
    if top >= page_end:
        return
    before = table.firstCursorPosition().block().previous()
    fmt = before.blockFormat()
    fmt.setTopMargin(fmt.topMargin() + page_end - top + 1)
    QTextCursor(before).setBlockFormat(fmt)


MAX_PAGES_FOR_WHOLE_ROWS = 30
"""Up to this many pages every table row is kept on one page (see :func:`keep_together`)."""


def keep_together(document: QTextDocument, rounds: int = 10_000) -> int:
    """Keeps each heading with what follows it and each table row on one page.

    QTextDocument ignores CSS ``page-break-after: avoid`` and ``page-break-inside: avoid``.
    This works on the laid-out document (its page size set), top down: it mends the first
    fault (a heading ending a page; a row straddling one: the table is split there and its
    rest, header repeated, starts the next page), lays out again and looks on from there,
    so a mend never spoils one above it. A row taller than a page is left to break.
    Returns how many headings and rows were moved.
    """
    page_height = document.pageSize().height()
    if page_height <= 0:
        return 0
    layout = document.documentLayout()
    moved = 0
    after = 0.0  # every fault above this is mended: the search goes on from here
    # Splitting tables costs a layout per split: past this many pages (a whole long
    # encounter) only headings are kept, as before, so the print stays quick.
    rows_too = document.pageCount() <= MAX_PAGES_FOR_WHOLE_ROWS
    for _ in range(rounds):
        heading = _heading_to_move(document, page_height, after)
        row = _row_to_move(document, page_height, after) if rows_too else None
        if heading is None and row is None:
            break
        heading_top = (
            layout.blockBoundingRect(heading).top() if heading is not None else float("inf")
        )
        if row is not None and row[2] < heading_top:
            table, number, top = row
            page_end = (int(top // page_height) + 1) * page_height
            if number > table.format().headerRowCount():
                _split_table(document, table, number)
                _push_table(document, table, page_end)
                after = page_end
            else:  # its first row: the whole table goes; its heading is looked at again
                before = table.firstCursorPosition().block().previous()
                _push_table(document, table, page_end)
                after = min(top, layout.blockBoundingRect(before).top())
        elif heading is not None:
            page_end = (int(heading_top // page_height) + 1) * page_height
            _push_heading(document, heading, page_height)
            after = page_end
        moved += 1
    if moved:
        # a full layout again: after these edits Qt's incremental one can leave blocks unpainted
        document.markContentsDirty(0, document.characterCount())
    return moved


def keep_headings_with_next(document: QTextDocument, rounds: int = 30) -> int:
    """Keeps headings with what follows them and table rows whole (see :func:`keep_together`)."""
    return keep_together(document, rounds)


SHRINK_STEPS = (1.05, 1.1, 1.15)
"""How much more a page may hold (printed at most 13% smaller) to save a nearly empty last
page: 9-point text stays above 7.8 points."""
NEARLY_EMPTY = 0.25
"""A last page filled less than this is worth saving."""


def laid_out(document: QTextDocument, page: QSizeF) -> QTextDocument:
    """Gets a copy of the document laid out on ``page``, headings and rows kept together.

    When only a little spills onto a last page (a round's one-row Declarations table alone on
    page 2), a slightly smaller print that keeps it with what comes before is taken instead,
    if there is one.
    """
    best = _kept_together(document, page)
    height = best.pageSize().height()
    pages = best.pageCount()
    used = best.documentLayout().documentSize().height() - (pages - 1) * height
    if 1 < pages <= MAX_PAGES_FOR_WHOLE_ROWS and used < NEARLY_EMPTY * height:
        for scale in SHRINK_STEPS:
            trial = _kept_together(document, page * scale)
            if trial.pageCount() < pages:
                return trial
    return best


def _kept_together(document: QTextDocument, page: QSizeF) -> QTextDocument:
    copy = document.clone(document)
    copy.setPageSize(page)
    keep_together(copy)
    return copy


def print_document(document: QTextDocument, printer: QPrinter) -> None:
    """Prints the document page by page on the printer's page size (the document itself is
    left as it is: the preview prints it again for each paper the DM picks)."""
    # Without a page size print_() adds 2 cm margins of its own. Give it the printable area in
    # screen pixels (what CSS px and the picture widths mean); it scales that to the printer.
    screen = QGuiApplication.primaryScreen()
    dpi = screen.logicalDotsPerInchX() if screen is not None else 96.0
    rect = printer.pageLayout().paintRect(QPageLayout.Unit.Inch)
    laid_out(document, QSizeF(rect.width() * dpi, rect.height() * dpi)).print_(printer)


def export_pdf(html: str, path: Path, page: str = "a4") -> None:
    """Writes the summary as a PDF file (works offscreen: no window, no printer)."""
    print_document(summary_document(html), make_printer(page, path))
    if not path.exists():
        raise OSError(f"{path}: the PDF was not written")


def show_print_preview(html: str, parent: QWidget | None = None, page: str = "a4") -> int:
    """Opens the print preview (the caller binds it to Ctrl+P); returns the dialog's result."""
    document = summary_document(html)
    printer = make_printer(page)
    dialog = QPrintPreviewDialog(printer, parent)
    dialog.setWindowTitle("Round summary — print preview")
    dialog.paintRequested.connect(lambda p: print_document(document, p))
    return int(dialog.exec())


@dataclass(frozen=True, slots=True)
class PrintChoice:
    """What the DM chose to print: rounds ``first``–``last``, the appendix, the paper."""

    first: int
    last: int
    appendix: bool = True
    page: str = "a4"


class PrintChoiceDialog(QDialog):
    """Asks what to print before the preview: this round, rounds N–M or the whole encounter."""

    def __init__(self, current: int, count: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Print summary")
        count = max(count, 1)
        current = min(max(current, 1), count)
        self.this_round = QRadioButton(f"This round (round {current})")
        self.some_rounds = QRadioButton("Rounds")
        self.whole = QRadioButton(f"The whole encounter ({count} round{'s' if count > 1 else ''})")
        self.group = QButtonGroup(self)
        for button in (self.this_round, self.some_rounds, self.whole):
            self.group.addButton(button)
        self.this_round.setChecked(True)
        self.first = QSpinBox()
        self.last = QSpinBox()
        for spin, value in ((self.first, 1), (self.last, count)):
            spin.setRange(1, count)
            spin.setValue(value)
            spin.valueChanged.connect(lambda _v: self.some_rounds.setChecked(True))
        self.first.valueChanged.connect(lambda v: self.last.setValue(max(v, self.last.value())))
        self.last.valueChanged.connect(lambda v: self.first.setValue(min(v, self.first.value())))
        self._current = current
        rounds_row = QHBoxLayout()
        rounds_row.addWidget(self.some_rounds)
        rounds_row.addWidget(self.first)
        rounds_row.addWidget(QLabel("to"))
        rounds_row.addWidget(self.last)
        rounds_row.addStretch(1)
        self.appendix = QCheckBox("Appendix: dice, rule ids and options")
        self.appendix.setChecked(True)
        self.paper = QComboBox()
        self.paper.addItem("A4", "a4")
        self.paper.addItem("Letter", "letter")
        form = QFormLayout()
        form.addRow("Paper", self.paper)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Preview…")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Print which part of the fight?"))
        layout.addWidget(self.this_round)
        layout.addLayout(rounds_row)
        layout.addWidget(self.whole)
        layout.addWidget(self.appendix)
        layout.addLayout(form)
        layout.addWidget(buttons)
        self._count = count

    def choice(self) -> PrintChoice:
        """Gets the rounds, appendix and paper as chosen."""
        if self.this_round.isChecked():
            first = last = self._current
        elif self.whole.isChecked():
            first, last = 1, self._count
        else:
            first, last = self.first.value(), self.last.value()
        return PrintChoice(first, last, self.appendix.isChecked(), str(self.paper.currentData()))
