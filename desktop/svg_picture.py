"""The summary's pictures drawn as vectors in the printed document, not as a raster image.

A picture kept as a 3× raster (``render_svg``) lost letters in the print preview at 93 %: the
preview draws the page shrunk without smoothing, so thin strokes ("i", "l") fell between the
pixels it kept. Drawn from the SVG itself the text stays whole at every zoom and in the PDF.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QObject, QRectF, QSizeF
from PySide6.QtGui import (
    QPainter,
    QPyTextObject,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
)
from PySide6.QtSvg import QSvgRenderer

SVG_OBJECT = int(QTextFormat.ObjectTypes.UserObject) + 7
"""The text object type of a picture drawn from its SVG."""
_SVG_DATA = int(QTextFormat.Property.UserProperty) + 7
_SVG_SIZE = int(QTextFormat.Property.UserProperty) + 8


class SvgPictureHandler(QPyTextObject):
    """Draws a picture object from the SVG its format carries, at the size it was laid out."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)

    def intrinsicSize(self, doc: QTextDocument, pos: int, fmt: QTextFormat) -> QSizeF:
        size = fmt.property(_SVG_SIZE)
        return size if isinstance(size, QSizeF) else QSizeF(0, 0)

    def drawObject(self, painter: QPainter, rect: QRectF, doc: QTextDocument, pos: int,
                   fmt: QTextFormat) -> None:
        data = fmt.property(_SVG_DATA)
        renderer = QSvgRenderer(data if isinstance(data, QByteArray) else QByteArray())
        if renderer.isValid():
            painter.save()
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            renderer.render(painter, QRectF(rect.topLeft(), QSizeF(rect.size())))
            painter.restore()


def draw_pictures_as_vectors(document: QTextDocument, pictures: dict[str, bytes]) -> int:
    """Replaces each image of ``document`` named in ``pictures`` (resource name → SVG) with
    an object drawn from the SVG, at the image's laid-out width; returns how many."""
    handler = SvgPictureHandler(document)  # owned by the document: lives as long as it
    document.documentLayout().registerHandler(SVG_OBJECT, handler)
    found: list[tuple[int, int, str, float]] = []
    block = document.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            fmt = fragment.charFormat()
            if fmt.isImageFormat():
                image = fmt.toImageFormat()
                if image.name() in pictures:
                    found.append((fragment.position(), fragment.length(), image.name(),
                                  image.width()))
            it += 1
        block = block.next()
    for position, length, name, width in reversed(found):  # from the end: positions hold
        svg = QByteArray(pictures[name])
        natural = QSvgRenderer(svg).defaultSize()
        if natural.isEmpty():
            continue
        shown = width if width > 0 else float(natural.width())
        fmt = QTextCharFormat()
        fmt.setObjectType(SVG_OBJECT)
        fmt.setProperty(_SVG_DATA, svg)
        fmt.setProperty(_SVG_SIZE, QSizeF(shown, shown * natural.height() / natural.width()))
        cursor = QTextCursor(document)
        cursor.setPosition(position)
        cursor.setPosition(position + length, QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText("\ufffc", fmt)
    return len(found)
