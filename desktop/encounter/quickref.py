"""The one-page quick-reference card of a system, printed from the Help menu."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QMarginsF
from PySide6.QtGui import QAction, QPageLayout, QPageSize, QTextDocument
from PySide6.QtWidgets import QMenu, QWidget

from core.model.resources import resource
from desktop.page_breaks import print_pages

if TYPE_CHECKING:  # QtPrintSupport loads when the DM first prints
    from PySide6.QtPrintSupport import QPrinter, QPrintPreviewDialog

MARGINS_MM = QMarginsF(20, 20, 20, 20)
"""The 2 cm Qt's own printing gave the card."""

CARDS = (
    ("addict", "ADDICT"),
    ("side-d6", "Side initiative on d6"),
    ("popcorn", "Popcorn initiative"),
    ("time-units", "Time-unit combat"),
)


def card_document(system_id: str) -> QTextDocument:
    document = QTextDocument()
    document.setDefaultStyleSheet("body { font-size: 11pt; } th { text-align: left; }")
    document.setHtml(resource(f"help/quickref/{system_id}.html").read_text(encoding="utf-8"))
    return document


def _printer() -> QPrinter:
    from PySide6.QtPrintSupport import QPrinter

    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4),
                                      QPageLayout.Orientation.Portrait, MARGINS_MM,
                                      QPageLayout.Unit.Millimeter))
    return printer


def print_card(document: QTextDocument, printer: QPrinter) -> None:
    """Prints the card the way the summary prints: no table row cut by a page end."""
    print_pages(document, printer)


def print_card_pdf(system_id: str, path: Path) -> None:
    """Prints the card to a PDF file (the tests read it back)."""
    printer = _printer()
    printer.setOutputFormat(printer.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(path))
    print_card(card_document(system_id), printer)


def preview_card(system_id: str, parent: QWidget | None = None) -> QPrintPreviewDialog:
    """Opens the print preview of the card (non-modal).

    QPrintPreviewDialog keeps only a pointer to its printer: the printer and the document are
    attributes of the dialog, so they live exactly as long as it (a printer freed by Python
    while the preview still paints on it crashed the program). The dialog deletes itself when
    closed.
    """
    from PySide6.QtCore import Qt
    from PySide6.QtPrintSupport import QPrintPreviewDialog

    printer = _printer()
    dialog = QPrintPreviewDialog(printer, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.setWindowTitle(f"Quick reference: {dict(CARDS)[system_id]}")
    document = card_document(system_id)
    dialog.printer_ = printer  # type: ignore[attr-defined]  # owned by the dialog, see above
    dialog.document = document  # type: ignore[attr-defined]
    dialog.paintRequested.connect(lambda p: print_card(document, p))
    dialog.show()
    return dialog


def add_card_menu(help_menu: QMenu, parent: QWidget) -> QMenu:
    """Adds Help › Print Quick Reference › one item per system."""
    menu = help_menu.addMenu("Print &Quick Reference")
    for system_id, title in CARDS:
        action = QAction(f"{title}…", parent)
        action.setStatusTip(f"Print the one-page card of {title}")
        action.triggered.connect(lambda _c=False, s=system_id: preview_card(s, parent))
        menu.addAction(action)
    return menu
