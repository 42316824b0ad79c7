"""Renders resources/icons/combatdesk.svg into packaging/windows/combatdesk.ico.

The .ico is committed (the Windows build then needs neither Qt's SVG renderer on the host nor
Pillow); run this again after changing the SVG: ``.venv/bin/python packaging/windows/make_icon.py``.
It holds the sizes Windows picks from — 16, 24, 32, 48 (Explorer lists, taskbar, title bar),
64 and 256 (large icons, high DPI) — each rendered from the SVG at that size rather than scaled
from one bitmap, stored as PNG entries (read by Windows Vista and later). Same SVG, same bytes.
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SVG = ROOT / "resources" / "icons" / "combatdesk.svg"
ICO = ROOT / "packaging" / "windows" / "combatdesk.ico"
SIZES = (16, 24, 32, 48, 64, 256)


def render_png(size: int) -> bytes:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice
    from PySide6.QtGui import QImage, QPainter, Qt
    from PySide6.QtSvg import QSvgRenderer

    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    QSvgRenderer(str(SVG)).render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(data.data())


def ico_bytes(pngs: dict[int, bytes]) -> bytes:
    """The ICO container: ICONDIR, one ICONDIRENTRY per image, then the images."""
    header = struct.pack("<HHH", 0, 1, len(pngs))  # reserved, type 1 = icon, count
    offset = len(header) + 16 * len(pngs)
    entries, images = b"", b""
    for size, png in sorted(pngs.items()):
        side = 0 if size >= 256 else size  # 0 means 256 in a directory entry
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(png), offset)
        images += png
        offset += len(png)
    return header + entries + images


def main() -> int:
    from PySide6.QtGui import QGuiApplication

    _app = QGuiApplication.instance() or QGuiApplication([sys.argv[0]])
    ICO.write_bytes(ico_bytes({size: render_png(size) for size in SIZES}))
    print(f"wrote {ICO.relative_to(ROOT)} ({', '.join(map(str, SIZES))} px)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
