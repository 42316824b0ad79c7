"""Tabs whose hidden pages do not set the window's minimum size.

A QTabWidget is as wide as its widest page's minimum, shown or not: a fight's board (about
1,050 px) behind the roster tab pushed the window past a 1280x720 screen and squeezed the
entry form to a sliver. Pages behind the front one get an Ignored size policy, which Qt's
stacked layout leaves out of its minimum.
"""

from __future__ import annotations

from PySide6.QtWidgets import QSizePolicy, QTabWidget, QWidget


class FrontTabWidget(QTabWidget):
    """A QTabWidget sized by the page in front only."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.currentChanged.connect(lambda _index: self._size_by_front())

    def tabInserted(self, index: int) -> None:
        super().tabInserted(index)
        self._size_by_front()

    def _size_by_front(self) -> None:
        front = self.currentIndex()
        for i in range(self.count()):
            policy = (QSizePolicy.Policy.Preferred if i == front
                      else QSizePolicy.Policy.Ignored)
            self.widget(i).setSizePolicy(policy, policy)
