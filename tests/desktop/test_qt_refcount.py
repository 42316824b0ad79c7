"""Guards the PySide6 pin: 6.12.0 loses a reference to None on every void Qt call (Python 3.11).

A few thousand such calls — a few repaints of a busy timeline — and the process aborts with
"none_dealloc". If this fails after a PySide6 upgrade, keep the pin in pyproject.toml.
"""

import sys

from PySide6.QtCore import QRectF


def test_void_qt_calls_leave_none_refcount_alone() -> None:
    rect = QRectF()
    before = sys.getrefcount(None)
    for _ in range(2000):
        rect.setX(1.0)
    assert sys.getrefcount(None) >= before - 50  # allow unrelated churn, not 2,000 lost
