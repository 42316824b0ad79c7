"""The players' screen: a window for a second monitor, a TV or a projector.

It draws a :class:`core.printout.players.PlayersView` and nothing else: everything it could
show has been cleared for the players before it gets here. Type is sized by the window's
height, so the same screen reads across a table at 1920×1080 and on a 1280×720 laptop.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QRect, Qt, Signal
from PySide6.QtGui import (
    QCloseEvent,
    QColor,
    QFont,
    QGuiApplication,
    QKeyEvent,
    QResizeEvent,
    QScreen,
)
from PySide6.QtWidgets import (
    QBoxLayout,
    QFrame,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.printout.players import PlayersView
from desktop.screens import screen_of
from desktop.timeline import TimelineWidget

LEAVE_KEYS = "Esc or F11"
"""The keys that bring a full-screen players' screen back to a window (said in the window)."""


def _list(name: str) -> QListWidget:
    view = QListWidget()
    view.setObjectName(name)
    view.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    view.setSelectionMode(QListWidget.SelectionMode.NoSelection)
    view.setWordWrap(True)
    view.setFrameShape(QFrame.Shape.NoFrame)
    view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    return view


class PlayersWindow(QWidget):
    """A top-level window that shows the players what they may know of the fight."""

    closed = Signal()
    """The window was closed (by its own close button or by the DM's menu)."""
    full_screen_changed = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("playersWindow")
        self.setWindowTitle("Players' Screen — Combat Desk")
        self.view: PlayersView | None = None
        self.heading = QLabel()
        self.heading.setObjectName("playersHeading")
        self.system = QLabel()
        self.system.setObjectName("playersSystem")
        self.clock = QLabel()
        self.clock.setObjectName("playersClock")
        self.last = QLabel()
        self.last.setObjectName("playersLast")
        self.last.setWordWrap(True)
        self.turn = QLabel()
        self.turn.setObjectName("playersTurn")
        self.turn.setWordWrap(True)
        self.play = _list("playersPlay")
        self.party = _list("playersParty")
        self.monsters = _list("playersMonsters")
        self.hint = QLabel()
        self.hint.setObjectName("playersHint")
        self.hint.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.timeline = TimelineWidget(tips=False)
        self.timeline.setObjectName("playersTimeline")
        self.timeline.setFocusPolicy(Qt.FocusPolicy.NoFocus)

        # Every text wraps: a narrow window (beside the fight, 620×1050) cut "Round" and the
        # "Last: …" line at its edge, and one long name made the window wider than the screen.
        for label in (self.heading, self.system, self.clock):
            label.setWordWrap(True)
        self.top = QBoxLayout(QBoxLayout.Direction.LeftToRight)
        titles = QVBoxLayout()
        titles.addWidget(self.heading)
        titles.addWidget(self.system)
        self.top.addLayout(titles, 1)
        self.top.addWidget(self.clock, 0, Qt.AlignmentFlag.AlignTop)
        self.play_title = QLabel("Order of play")
        self.party_title = QLabel("The party")
        self.monsters_title = QLabel("Foes")
        left = QWidget()
        left_column = QVBoxLayout(left)
        left_column.setContentsMargins(0, 0, 0, 0)
        left_column.addWidget(self.play_title)
        left_column.addWidget(self.play, 1)
        right = QWidget()
        right_column = QVBoxLayout(right)
        right_column.setContentsMargins(0, 0, 0, 0)
        right_column.addWidget(self.party_title)
        right_column.addWidget(self.party, 3)
        right_column.addWidget(self.monsters_title)
        right_column.addWidget(self.monsters, 2)
        # Side by side on a wide screen; the party and foes under the order of play on a narrow
        # one (they were pushed off a 620-pixel window).
        self.middle = QBoxLayout(QBoxLayout.Direction.LeftToRight)
        self.middle.addWidget(left, 11)
        self.middle.addWidget(right, 8)
        for view in (self.play, self.party, self.monsters):
            view.setMinimumSize(1, 1)  # not the platform's 68 pixels: the timeline comes first
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 10, 16, 6)
        layout.addLayout(self.top)
        layout.addWidget(self.last)
        layout.addWidget(self.turn)
        # The timeline gets over half the height: every row named without scrolling.
        layout.addLayout(self.middle, 9)
        layout.addWidget(self.timeline, 11)
        layout.addWidget(self.hint)
        self.setStyleSheet(
            "#playersWindow { background: #16181d; }"
            "QLabel, QListWidget { color: #f2efe6; background: transparent; }"
            "#playersClock { color: #ffd37a; font-weight: bold; }"
            "#playersLast { color: #ffffff; }"
            "#playersTurn { color: #9fd3ff; }"
            "#playersHint, #playersSystem { color: #9a968c; }")
        self.timeline.setStyleSheet("background: #16181d; color: #f2efe6;")
        palette = self.timeline.palette()
        palette.setColor(palette.ColorRole.Base, QColor("#16181d"))
        palette.setColor(palette.ColorRole.Text, QColor("#f2efe6"))
        palette.setColor(palette.ColorRole.Window, QColor("#16181d"))
        palette.setColor(palette.ColorRole.Mid, QColor("#55575d"))
        self.timeline.setPalette(palette)
        self._text_px = 0
        self._changed: list[QWidget] = []
        """What the last view changed: painted at once by :meth:`paint_now`."""
        self._normal: QRect | None = None
        self.placed_on = ""
        """The name of the screen the DM put this window on (View › Players' Screen On): a
        name, not the screen itself, which a widget must not hold (desktop/screens.py)."""
        """Where the window was before it filled the screen."""
        # Its own least size, not its layout's at the type of the size before: a window of large
        # type refused to be made smaller, and the type is only fitted once it is resized.
        self.setMinimumSize(320, 240)
        self._scale()
        self._show_hint()
        self.resize(1280, 720)

    # --- what it shows ---------------------------------------------------------------------------

    def show_view(self, view: PlayersView) -> None:
        """Shows ``view`` (already cleared for the players); only what changed is redrawn."""
        before, self.view = self.view, view
        changed: list[QWidget] = []

        def label(widget: QLabel, text: str) -> None:
            if widget.text() != text:
                widget.setText(text)
                changed.append(widget)
            widget.setVisible(bool(text))

        label(self.heading, view.heading)
        label(self.system, view.system)
        label(self.clock, view.clock)
        label(self.last, f"Last: {view.last}" if view.last else "")
        label(self.turn, "   ·   ".join(view.turn))
        fight = bool(view.system)
        for widget in (self.play_title, self.play, self.party_title, self.party,
                       self.monsters_title, self.monsters, self.timeline):
            widget.setVisible(fight)
        if before is None or before.play != view.play:
            self._fill_play(view)
            changed.append(self.play)
        if before is None or before.party != view.party:
            self._fill_party(view)
            self._fit_list(self.party)
            changed.append(self.party)
        if before is None or before.monsters != view.monsters:
            self._fill_monsters(view)
            self._fit_list(self.monsters)
            changed.append(self.monsters)
        self.monsters_title.setVisible(fight and bool(view.monsters))
        if (before is None or before.resolution != view.resolution
                or before.combatants != view.combatants):
            self.timeline.set_resolution(view.resolution, view.combatants)
            self._fit_timeline()
            changed.append(self.timeline)
        title = f"{view.heading} — Players' Screen" if view.heading else "Players' Screen"
        self.setWindowTitle(f"{title} — Combat Desk")
        self._changed = changed

    def paint_now(self) -> None:
        """Paints what the last :meth:`show_view` changed, now (not at the next event loop:
        the DM's window has its own redraw to do first)."""
        for widget in self._changed:
            if widget.isVisible():
                widget.repaint()
        self._changed = []

    def _fill_party(self, view: PlayersView) -> None:
        self.party.clear()
        for line in view.party:
            words = [line.name]
            if line.hp:
                words.append(f"HP {line.hp}")
            if line.state:
                words.append(line.state)
            words += line.effects
            self.party.addItem(" — ".join(words))

    def _fit_list(self, view: QListWidget) -> None:
        """Makes the party's or the foes' list tall enough for all its lines (the players
        cannot scroll it: "Brother Tam" was cut at 960×540); the order of play gives way."""
        lines = sum(view.sizeHintForRow(row) for row in range(view.count()))
        view.setMinimumHeight(max(1, lines + 2 * view.frameWidth() + 2))

    def _fill_monsters(self, view: PlayersView) -> None:
        self.monsters.clear()
        for monster in view.monsters:
            words = [monster.name, *([monster.state] if monster.state else []),
                     *monster.effects]
            item = QListWidgetItem(" — ".join(words))
            if monster.state:
                item.setForeground(QColor("#8a867d"))
            self.monsters.addItem(item)

    def _fill_play(self, view: PlayersView) -> None:
        """Adds only the new lines when play went on (the usual case), else fills it anew."""
        shown = self.play.count()
        lines = [f"{line.when}   {line.text}" for line in view.play]
        same_start = shown <= len(lines) and all(
            self.play.item(i).text() == lines[i] for i in range(shown))
        if not same_start:
            self.play.clear()
            shown = 0
        for text in lines[shown:]:
            self.play.addItem(text)
        self.play.scrollToBottom()

    # --- full screen -----------------------------------------------------------------------------

    def _placed_screen(self) -> QScreen | None:
        return next((s for s in QGuiApplication.screens() if s.name() == self.placed_on), None)

    def set_full_screen(self, full: bool) -> None:
        """Shows the window full screen on the screen it is on, or as a window again."""
        if full and not self.isFullScreen():
            # The whole screen asked for by hand too: without a window manager (a bare X
            # server, a kiosk) full screen is only a wish, and the window would stay small.
            self._normal = self.geometry()
            screen = self._placed_screen() or screen_of(self)
            if screen is not None:
                self.setGeometry(screen.geometry())
            self.showFullScreen()
        elif not full and self.isFullScreen():
            self.showNormal()
            if self._normal is not None:
                self.setGeometry(self._normal)
        self.raise_()
        self._show_hint()
        self.full_screen_changed.emit(full)

    def _show_hint(self) -> None:
        self.hint.setText(f"{LEAVE_KEYS}: back to a window" if self.isFullScreen()
                          else "F11: full screen")

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_F11:
            self.set_full_screen(not self.isFullScreen())
        elif event.key() == Qt.Key.Key_Escape and self.isFullScreen():
            self.set_full_screen(False)
        else:
            super().keyPressEvent(event)

    # --- type for reading across a table ---------------------------------------------------------

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._scale()
        self.play.scrollToBottom()  # the newest line stays in view at the new size

    def _scale(self) -> None:
        """Sizes the type by the window's height (about 26 px at 1080, 17 px at 720), and by
        its width when it is narrow; stacks the columns of a narrow window."""
        narrow = self.width() < 900 or self.width() < self.height()
        direction = (QBoxLayout.Direction.TopToBottom if narrow
                     else QBoxLayout.Direction.LeftToRight)
        for row in (self.top, self.middle):
            if row.direction() != direction:
                row.setDirection(direction)
        self.clock.setAlignment(Qt.AlignmentFlag.AlignLeft if narrow
                                else Qt.AlignmentFlag.AlignRight)
        px = max(11, min(self.height() // 41, self.width() // 36))
        self._set_type(px)
        while px > 9 and not self._fits():  # a short window: smaller type, nothing cut
            px -= 1
            self._set_type(px)
        self._fit_timeline()

    def _fits(self) -> bool:
        """True when everything shown fits the window at the type set."""
        layout = self.layout()
        if layout is None:
            return True
        layout.invalidate()
        need = layout.minimumSize()
        return need.height() <= self.height() and need.width() <= self.width()

    def _set_type(self, px: int) -> None:
        if px == self._text_px:
            return
        self._text_px = px
        for widget, times, bold in (
                (self.heading, 1.5, True), (self.system, 0.8, False), (self.clock, 2.4, True),
                (self.last, 1.35, True), (self.turn, 1.2, True), (self.play, 1.0, False),
                (self.party, 1.1, False), (self.monsters, 1.1, False),
                (self.play_title, 0.85, True), (self.party_title, 0.85, True),
                (self.monsters_title, 0.85, True), (self.hint, 0.65, False)):
            font = QFont(self.font())
            font.setPixelSize(round(px * times))
            font.setBold(bold)
            widget.setFont(font)
        self.timeline.set_text_size(round(px * 0.9))
        self._fit_list(self.party)
        self._fit_list(self.monsters)
        self._fit_timeline()

    def _fit_timeline(self) -> None:
        """Gives the timeline the height its rows need, all named (the players cannot scroll
        it: at 960×540 the foes' rows were below its edge); the lists above give way, and
        scroll themselves to the newest line."""
        lay = self.timeline.timeline_layout
        rows = lay.y_range[1] - lay.y_range[0] if lay.sides else 0.0
        box = self.timeline.plot_item.getViewBox()
        around = self.timeline.height() - box.height() if box.height() > 0 else 0.0
        around = max(around, 5 * self.timeline.row_pitch())  # the axis and the legend
        needed = math.ceil(rows * self.timeline.row_pitch() + around)
        screen = self._placed_screen() or screen_of(self)
        if screen is not None:  # a fight of many: the rows scroll rather than the window grow
            needed = min(needed, screen.availableGeometry().height() * 6 // 10)
        if self.timeline.minimumHeight() != needed:
            self.timeline.setMinimumHeight(needed)

    def closeEvent(self, event: QCloseEvent) -> None:
        super().closeEvent(event)
        self.closed.emit()
