"""Prints the round summary: print preview, printer, or PDF file (offscreen too).

The summary HTML (``core.printout.html``) embeds its timeline pictures as ``data:`` SVG images,
which QTextDocument cannot draw. :func:`summary_document` swaps each one for a named resource
holding the SVG rendered by QSvgRenderer at print resolution, then sets the HTML.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QByteArray, QMarginsF, QRectF, QUrl
from PySide6.QtGui import (
    QImage,
    QPageLayout,
    QPageSize,
    QPainter,
    QTextDocument,
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

from desktop.dialog_help import add_dialog_help
from desktop.page_breaks import print_pages
from desktop.svg_picture import draw_pictures_as_vectors

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
    pictures: dict[str, bytes] = {}

    def swap(match: re.Match[str]) -> str:
        nonlocal counter
        counter += 1
        name = f"summary-picture-{counter}.png"
        pictures[name] = base64.b64decode(match.group(1))
        image = render_svg(pictures[name])
        document.addResource(QTextDocument.ResourceType.ImageResource, QUrl(name), image)
        return f'src="{name}"'

    document.setHtml(_DATA_IMG.sub(swap, html))
    draw_pictures_as_vectors(document, pictures)  # the preview shrank the raster's letters away
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


def print_document(document: QTextDocument, printer: QPrinter) -> int:
    """Prints the document on the printer's pages, no table row cut by a page end and no
    heading ending a page (:mod:`desktop.page_breaks`). Returns the page count."""
    return print_pages(document, printer)


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
    try:
        return int(dialog.exec())
    finally:
        # The dialog keeps only a pointer to the printer, which Python frees on return: the
        # dialog goes first (left as the parent's hidden child, it outlived its printer).
        dialog.deleteLater()


@dataclass(frozen=True, slots=True)
class PrintChoice:
    """What the DM chose to print: rounds ``first``–``last``, the appendix, the paper."""

    first: int
    last: int
    appendix: bool = True
    page: str = "a4"


class PrintChoiceDialog(QDialog):
    """Asks what to print before the preview: this round, rounds N–M or the whole encounter."""

    def __init__(self, current: int, count: int, parent: QWidget | None = None,
                 round_tu: int | None = None) -> None:
        """``round_tu``: the fight runs on the TU clock, whose printout cuts it into stretches
        of that many TU; the choices then speak of TU, never of rounds it does not have."""
        super().__init__(parent)
        add_dialog_help(self)  # F1 opens the help at this dialog's section
        self.setWindowTitle("Print summary")
        count = max(count, 1)
        current = min(max(current, 1), count)
        if round_tu is None:
            self.this_round = QRadioButton(f"This round (round {current})")
            self.some_rounds = QRadioButton("Rounds")
            self.whole = QRadioButton(
                f"The whole encounter ({count} round{'s' if count > 1 else ''})")
        else:
            lo = (current - 1) * round_tu
            self.this_round = QRadioButton(f"The last {round_tu} TU (TU {lo}–{lo + round_tu - 1})")
            self.some_rounds = QRadioButton(f"Stretches of {round_tu} TU")
            self.whole = QRadioButton(f"The whole encounter (TU 0–{count * round_tu - 1})")
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
        self.tu_note: QLabel | None = None
        if round_tu is not None:
            self.tu_note = QLabel(f"Stretch 1 is TU 0–{round_tu - 1}, stretch 2 TU "
                                  f"{round_tu}–{2 * round_tu - 1}, and so on.")
            self.tu_note.setWordWrap(True)
            layout.addWidget(self.tu_note)
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
