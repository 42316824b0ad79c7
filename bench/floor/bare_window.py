"""The start-up floor: a bare PySide6 + pyqtgraph window, nothing of Combat Desk.

Prints ``shown <monotonic>`` at its window's first frame on screen (exposed, painted and
flushed), as the app does under COMBATDESK_STARTUP_PROBE (desktop/startup_probe.py), then
quits. bench/bench_startup.py runs it from source and frozen. Standalone on purpose: it
imports nothing of Combat Desk.
"""

import sys
import time

import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMainWindow


def _report() -> None:
    print(f"shown {time.monotonic()}", flush=True)
    app.quit()


class FirstFrame(QObject):
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Expose and watched.isExposed():  # type: ignore[attr-defined]
            watched.removeEventFilter(self)
            QTimer.singleShot(0, _report)  # after Qt has painted and flushed the frame
        return False


app = QApplication(sys.argv)
window = QMainWindow()
plot = pg.PlotWidget()
window.setCentralWidget(plot)
window.resize(1240, 760)
window.show()
handle = window.windowHandle()
first_frame = FirstFrame(handle)
if handle.isExposed():
    QTimer.singleShot(0, _report)
else:
    handle.installEventFilter(first_frame)
sys.exit(app.exec())
