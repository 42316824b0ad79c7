"""Makes the help's screenshots from the real app (``make docs``): one encounter per system,
offscreen, the workspace grabbed, scaled down and annotated with numbered callouts.

Run: ``QT_QPA_PLATFORM=offscreen python -m desktop.help_shots``; the PNGs land in
``resources/help/images/`` and are committed.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QPoint, QRect, QSettings, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPixmap
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QTableView,
    QWidget,
)

from core.model.resources import resource
from core.store import Store
from desktop.app import ensure_sample_campaign
from desktop.main_window import MainWindow

WIDTH = 760  # pixels of the saved picture
SAMPLE_FILE = "campaigns.sqlite"
"""What the status bar names as the database in the pictures: a sample campaign's file, not
the temporary folder the pictures were taken in (/tmp/tmp…/campaign.sqlite)."""
PARTY = ("Brannoc the Bold", "Sister Ysolde")
# Per system, the buttons called out, in the order of their numbers (texts without "&").
CALLOUTS = {
    "addict": ("Next Phase", "Take Back", "Check Surprise", "Opening", "In Round", "Hit",
               "Miss"),
    "side-d6": ("Next Phase", "Take Back", "Check Surprise", "Start Round 1", "Hit", "Miss"),
    "popcorn": ("Next Phase", "Roll", "New Round", "Hit", "Miss", "Fails Save"),
    "time-units": ("Encounter Dice", "Advance to Next Action", "Take Back", "Hit", "Miss"),
}


def _start(window: MainWindow, system_id: str) -> QWidget:
    window.encounter_actions.new_action.trigger()
    dialog = next(w for w in window.findChildren(QDialog)
                  if w.isVisible() and w.windowTitle() == "New Encounter")
    box = dialog.findChild(QComboBox, "systemBox")
    assert box is not None
    box.setCurrentIndex(next(i for i in range(box.count()) if box.itemData(i) == system_id))
    fighters = dialog.findChild(QTableView, "fightersTable")
    monsters = dialog.findChild(QTableView, "monstersTable")
    assert fighters is not None and monsters is not None
    model = fighters.model()
    for row in range(model.rowCount()):
        index = model.index(row, 0)
        state = Qt.CheckState.Checked if index.data() in PARTY else Qt.CheckState.Unchecked
        model.setData(index, state.value, Qt.ItemDataRole.CheckStateRole)
    model = monsters.model()
    row = next(r for r in range(model.rowCount())
               if str(model.index(r, 0).data()).startswith("Orc"))
    model.setData(model.index(row, 1), 2, Qt.ItemDataRole.EditRole)
    buttons = dialog.findChild(QDialogButtonBox)
    assert buttons is not None
    buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    workspace = window.encounter_actions.current()
    assert workspace is not None
    return workspace


def sample_bars(window: MainWindow) -> None:
    """Makes the status bar name the sample campaign's file, the same on every machine."""
    window.db_label.setText(SAMPLE_FILE)
    window.db_label.setToolTip("")


def annotate(window: QWidget, names: tuple[str, ...]) -> QPixmap:
    """Grabs the window, scales it to WIDTH and numbers the named buttons with callouts."""
    shot = window.grab()
    scale = WIDTH / shot.width()
    picture = shot.scaledToWidth(WIDTH, Qt.TransformationMode.SmoothTransformation)
    legend_height = 22
    out = QPixmap(picture.width(), picture.height() + legend_height)
    out.fill(QColor("white"))
    painter = QPainter(out)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.drawPixmap(0, 0, picture)
    font = QFont()
    font.setPixelSize(12)
    font.setBold(True)
    painter.setFont(font)
    legend = []
    for number, name in enumerate(names, start=1):
        found = [b for b in window.findChildren(QAbstractButton)
                 if b.isVisibleTo(window) and b.text().replace("&", "") == name]
        if not found:
            continue
        button = found[0]
        top_left = button.mapTo(window, QPoint(0, 0))
        centre = QPoint(int(top_left.x() * scale), int((top_left.y() + button.height() / 2)
                                                       * scale))
        circle = QRect(centre.x() - 9, centre.y() - 9, 18, 18)
        painter.setPen(QColor("white"))
        painter.setBrush(QColor("#c0392b"))
        painter.drawEllipse(circle)
        painter.drawText(circle, Qt.AlignmentFlag.AlignCenter, str(number))
        legend.append(f"{number} {name}")
    painter.setPen(QColor("#222222"))
    painter.drawText(QRect(6, picture.height(), WIDTH - 12, legend_height),
                     Qt.AlignmentFlag.AlignVCenter, "   ".join(legend))
    painter.end()
    return out


def make_shots(folder: Path) -> list[Path]:
    """Writes one annotated picture per system into ``folder``."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    folder.mkdir(parents=True, exist_ok=True)
    saved = []
    for system_id, names in CALLOUTS.items():
        # A fresh sample campaign each: the same PCs in a second open fight would stop on the
        # "already in another open encounter" question.
        with tempfile.TemporaryDirectory() as tmp:
            store = Store.open(f"sqlite:///{Path(tmp) / 'campaign.sqlite'}")
            ensure_sample_campaign(store)
            settings = QSettings(str(Path(tmp) / "settings.ini"), QSettings.Format.IniFormat)
            window = MainWindow(store, settings)
            window.resize(1280, 720)
            window.show()
            _start(window, system_id)
            sample_bars(window)
            app.processEvents()
            path = folder / f"{system_id}.png"
            annotate(window, names).save(str(path), "PNG", 60)
            saved.append(path)
            window.close()
            store.close()
    return saved


if __name__ == "__main__":
    for written in make_shots(resource("help/images")):
        print(written)
