"""Prints the round summary: print preview, printer, or PDF file (offscreen too).

The summary HTML (``core.summary_html``) embeds its timeline pictures as ``data:`` SVG images,
which QTextDocument cannot draw. :func:`summary_document` swaps each one for a named resource
holding the SVG rendered by QSvgRenderer at print resolution, then sets the HTML.
"""

from __future__ import annotations

import base64
import re
from pathlib import Path

from PySide6.QtCore import QByteArray, QMarginsF, QRectF, QSizeF, QUrl
from PySide6.QtGui import QGuiApplication, QImage, QPageLayout, QPageSize, QPainter, QTextDocument
from PySide6.QtPrintSupport import QPrinter, QPrintPreviewDialog
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QWidget

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


def print_document(document: QTextDocument, printer: QPrinter) -> None:
    """Prints the document page by page on the printer's page size."""
    # Without a page size print_() adds 2 cm margins of its own. Give it the printable area in
    # screen pixels (what CSS px and the picture widths mean); it scales that to the printer.
    screen = QGuiApplication.primaryScreen()
    dpi = screen.logicalDotsPerInchX() if screen is not None else 96.0
    rect = printer.pageLayout().paintRect(QPageLayout.Unit.Inch)
    document.setPageSize(QSizeF(rect.width() * dpi, rect.height() * dpi))
    document.print_(printer)


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
