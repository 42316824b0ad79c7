"""The start-up floor: a bare PySide6 + pyqtgraph window, nothing of Combat Desk.

Prints ``shown <monotonic>`` once its window is shown, like the app under
COMBATDESK_STARTUP_PROBE, then quits. bench/bench_startup.py runs it from source and frozen.
"""

import sys
import time

import pyqtgraph as pg
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMainWindow

app = QApplication(sys.argv)
window = QMainWindow()
plot = pg.PlotWidget()
window.setCentralWidget(plot)
window.resize(1240, 760)
window.show()
QTimer.singleShot(0, lambda: (print(f"shown {time.monotonic()}", flush=True), app.quit()))
sys.exit(app.exec())
