"""Tabs whose hidden pages do not set the window's minimum size.

A QTabWidget is as wide as its widest page's minimum, shown or not: a fight's board (about
1,050 px) behind the roster tab pushed the window past a 1280x720 screen and squeezed the
entry form to a sliver. Pages behind the front one get an Ignored size policy, which Qt's
stacked layout leaves out of its minimum.
"""

from __future__ import annotations

from PySide6.QtWidgets import QSizePolicy, QStackedWidget, QTabWidget, QWidget


class FrontTabWidget(QTabWidget):
    """A QTabWidget sized by the page in front only."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._front: QWidget | None = None
        self.currentChanged.connect(lambda _index: self._size_by_front())

    def tabInserted(self, index: int) -> None:
        super().tabInserted(index)
        # Only the new page and the front one change: 200 open fights at start-up made a
        # loop over every page per insertion cost 50 ms.
        page = self.widget(index)
        if page is not self.currentWidget():
            _set_policy(page, QSizePolicy.Policy.Ignored)
        self._size_by_front()

    def _size_by_front(self) -> None:
        front = self.currentWidget()
        if front is self._front:
            return
        if self._front is not None:
            try:
                if self.indexOf(self._front) >= 0:
                    _set_policy(self._front, QSizePolicy.Policy.Ignored)
            except RuntimeError:  # its tab was closed and the page deleted
                pass
        if front is not None:
            _set_policy(front, QSizePolicy.Policy.Preferred)
        self._front = front
        # A page already hidden passes its new policy no further up than its own size cache:
        # the stack and the window would go on using the fight board's minimum, and a dock
        # shown next (the entry form, when the roster comes to the front) widened the window
        # past the screen (1,548 px at 1280×720). Tell them now.
        stack = self.findChild(QStackedWidget)
        if stack is not None:
            stack.updateGeometry()
        self.updateGeometry()


def _set_policy(page: QWidget, policy: QSizePolicy.Policy) -> None:
    page.setSizePolicy(policy, policy)
