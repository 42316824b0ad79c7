"""The time-unit board: an action palette dragged onto a combatant, and the TU clock.

The engine asks for each action's d10 (the stepper shows it) and places the action on the
clock; "advance" walks the clock to the next resolved step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QMimeData,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QListView,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from core.fight.encounter import add_entry, remove_entry
from core.fight.log import advance_clock, mark_surprised
from core.model.values import Status, Step
from desktop.encounter.board_base import (
    BoardBase,
    entry_text,
    form_area,
    with_buttons,
    wrapped_label,
)
from desktop.encounter.controller import EncounterController
from desktop.encounter.lane_model import LaneBox
from desktop.encounter.lanes import TU_ACTIONS
from desktop.encounter.mime import ACTION_MIME, encode
from desktop.encounter.retarget import fallen_target
from desktop.encounter.tu_clock import clock_mark, clock_step
from desktop.plain_text import plain
from desktop.resolution.step_identity import step_source
from desktop.step_text import step_sentence

_Index = QModelIndex | QPersistentModelIndex


class ActionPaletteModel(QAbstractListModel):
    """The palette: each row drags ``application/x-combatdesk-action``."""

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(TU_ACTIONS)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        lane = TU_ACTIONS[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{lane.title}   [{lane.key}]"
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{lane.meaning}. Drag onto a combatant, or select one and press {lane.key}."
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        return super().flags(index) | Qt.ItemFlag.ItemIsDragEnabled

    def mimeTypes(self) -> list[str]:
        return [ACTION_MIME]

    def mimeData(self, indexes: Sequence[QModelIndex]) -> QMimeData:
        rows = [i.row() for i in indexes if i.isValid()]
        return encode(ACTION_MIME, {"action": TU_ACTIONS[rows[0]].action if rows else None})

    def supportedDragActions(self) -> Qt.DropAction:
        return Qt.DropAction.CopyAction

FORM_WIDTH = 240
"""The declare form's fixed width (px): the Combatants column is this wide from the start."""


class TimeUnitBoard(BoardBase):
    """Palette → combatant cards; the declared actions and the clock beside them."""

    advanced = Signal(int)
    """The clock moved to step ``seq``."""

    def __init__(self, controller: EncounterController, parent: QWidget | None = None) -> None:
        super().__init__(controller, accepts_actions=True, parent=parent)
        self.setObjectName("timeUnitBoard")
        self.palette_model = ActionPaletteModel(self)
        self.palette = QListView()
        self.palette.setObjectName("actionPalette")
        self.palette.setModel(self.palette_model)
        self.palette.setDragEnabled(True)
        self.palette.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.palette.setMinimumWidth(100)
        self.palette.setMaximumWidth(120)
        self.cards.setAcceptDrops(True)
        # A card's "next at TU 25" wraps under its name instead of running off the column.
        self.cards.setWordWrap(True)
        self.cards.setResizeMode(QListView.ResizeMode.Adjust)
        self.cards.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.cards.setDropIndicatorShown(True)
        self.cards_model.action_dropped.connect(self.choose_action)
        self.cards.key_typed.connect(self._on_key_typed)
        self._keys = {lane.key: lane.action for lane in TU_ACTIONS}
        self.actions_lane = LaneBox("actions", "Declared actions (in order)",
                                    "Every action in declaration order; its d10 comes from the "
                                    "stepper", max_lines=6)
        # The clock reads "TU clock: 22" on a line of its own and the step under it, wrapped,
        # so neither is cut however narrow the board gets (1280x720 and up).
        self.clock_label = QLabel()
        self.clock_label.setObjectName("tuClock")
        self.clock_label.setStyleSheet("font-size: 15pt; font-weight: bold;")
        self.clock_step = QLabel()
        self.clock_step.setObjectName("tuClockStep")
        self.clock_step.setWordWrap(True)
        self.advance_button = QPushButton("&Advance to Next Action")
        self.advance_button.setShortcut(QKeySequence("Ctrl+."))
        self.advance_button.setToolTip("Move the TU clock to the next step (Ctrl+.)")
        self.advance_button.clicked.connect(self.advance)
        self.take_back_button = QPushButton("&Take Back")
        self.take_back_button.clicked.connect(self.take_back_selected)
        # time-units.surprise.d6: one creature surprised on its own, at the table (a scenario
        # file says ``surprised: true``); its first action counts from TU 10.
        self.surprised_button = QPushButton("Mark Surprised")
        self.surprised_button.setObjectName("markSurprised")
        self.surprised_button.setToolTip(
            "Mark the selected creature surprised (or not) on its own: surprised creatures add "
            "their first initiative roll to TU 10")
        self.surprised_button.clicked.connect(self.toggle_surprised)
        self.cards.selectionModel().currentChanged.connect(
            lambda *_: self._show_surprised_button())

        palette_box = QVBoxLayout()
        palette_box.addWidget(QLabel("<b>Actions</b>"))
        palette_box.addWidget(self.palette, 1)
        left = QVBoxLayout()
        left.addWidget(wrapped_label("<b>Combatants</b> — drop an action here"))
        left.addWidget(self.cards, 2)
        card_buttons = QHBoxLayout()  # acts on the selected card, so under the cards
        card_buttons.addWidget(self.surprised_button)
        card_buttons.addStretch(1)
        left.addLayout(card_buttons)
        # The form has a fixed, scrollable place below the cards (as on the other boards):
        # opening it neither widens the column (the clock and its buttons stayed put) nor
        # shortens the cards. Its heading wraps and a field too wide goes under its label.
        for combo in self.editor.findChildren(QComboBox):
            combo.setMinimumContentsLength(5)
        self.editor.heading.setWordWrap(True)
        self.editor.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.editor_area = form_area(self.editor, "declarationForm", FORM_WIDTH)
        left.addWidget(with_buttons(self.editor_area, self.editor), 3)
        self.combatants_panel.setLayout(left)
        self.actions_lane.view.setWordWrap(True)  # a long action wraps instead of being cut
        buttons = QHBoxLayout()
        buttons.addWidget(self.advance_button)
        buttons.addWidget(self.take_back_button)
        buttons.addStretch(1)
        right = QVBoxLayout()
        right.addWidget(self.clock_label)
        # Two lines kept for the step, so Advance stays where the DM last clicked it when the
        # step's words wrap (a third line, rare at 1280 px, is the only thing that moves it).
        self.clock_step.setMinimumHeight(2 * self.clock_step.fontMetrics().lineSpacing())
        self.clock_step.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        right.addWidget(self.clock_step)
        right.addLayout(buttons)
        right.addWidget(self.actions_lane, 1)
        right.addWidget(self.message)
        layout = QHBoxLayout(self)
        layout.addLayout(palette_box, 0)
        layout.addLayout(right, 3)

    @property
    def clock_seq(self) -> int | None:
        """Gets the ``seq`` of the step the clock stands on (None: TU 0), read from the log's
        last ``clock-advanced`` and the engine's steps: never the board's own memory, so a
        restarted app (or a second window) shows the same clock."""
        step = self._clock_step()
        return step.seq if step is not None else None

    def _clock_step(self) -> Step | None:
        resolution = self.controller.resolution
        return clock_step(self.controller.state.clock,
                          resolution.steps if resolution is not None else ())

    def refresh(self) -> None:
        state = self.controller.state
        clock_seq = self.clock_seq
        # Only what is known: an action whose d10 is not in yet has no TU to show (it moved as
        # others declared), and a creature out of the fight acts no more.
        resolution = self.controller.known_resolution()
        pending: dict[str, str] = {}
        labels_now = self.labels()
        fallen: dict[str, str] = {}
        if resolution is not None:
            out = {cid for cid, r in resolution.combatants.items()
                   if r.status is not Status.ACTIVE}
            unrolled = {f"actions[{i}]" for i, a in enumerate(state.actions)
                        if a.get("roll") is None}
            for step in resolution.steps:
                if step.event == "surprised":  # a mark at TU 0, not an action to come
                    continue
                if step.tu is not None and step.actor not in out \
                        and step_source(step) not in unrolled and (
                        clock_seq is None or step.seq > clock_seq):
                    pending.setdefault(step.actor, f"next at TU {step.tu}")
            for step in resolution.steps:  # time-units.attacks.fallen-target: the DM chooses
                fell = fallen_target(step)
                if fell is not None and step.actor not in out and step.actor not in fallen:
                    fallen[step.actor] = (f"attack at TU {step.tu}: {labels_now.get(fell, fell)}"
                                          " fell, choose a new target")
        for cid, note in fallen.items():
            pending[cid] = " · ".join(n for n in (pending.get(cid), note) if n)
        clock = self._clock_step()
        for c in self.combatants():
            # time-units.surprise: the note matters until TU 10, and never on the fallen
            standing = resolution is None or c.id not in resolution.combatants or \
                resolution.combatants[c.id].status is Status.ACTIVE
            if c.surprised and standing and (clock is None or clock.tu is None or clock.tu < 10):
                pending[c.id] = " · ".join(n for n in (
                    "surprised: first action from TU 10", pending.get(c.id)) if n)
        self.refresh_cards(notes=pending)
        self._show_surprised_button()
        labels = self.labels()
        rows = []
        for index, action in enumerate(state.actions):
            roll = action.get("roll")
            rolled = f"d10 {roll}" if roll is not None else "d10 not rolled yet: TU unknown"
            rows.append((f"{entry_text(action, labels)} — {rolled}", index))
        self.actions_lane.model.set_rows(rows)
        self._show_clock()

    def _show_clock(self) -> None:
        step = self._clock_step()
        if step is None:
            self.clock_label.setText("TU clock: 0")
            self.clock_step.setText("Advance to the first action")
        else:
            self.clock_label.setText(f"TU clock: {step.tu}")
            self.clock_step.setText(plain(step_sentence(step, self.labels(), brief=True)))

    def _on_key_typed(self, cid: str, key: str) -> None:
        if key in self._keys:
            self.choose_action(cid, self._keys[key])

    def choose_action(self, cid: str, action: str) -> None:
        """An action went onto a combatant (dropped or keyed): open its editor."""
        self.open_editor(cid, action)

    def _on_entry_submitted(self, entry: dict[str, Any]) -> None:
        if self.controller.run(add_entry("actions", entry)):
            self.editor.hide()
            self.cards.setFocus()

    def advance(self) -> int | None:
        """Moves the clock to the next resolved step, as a saved command (one Ctrl+Z moves it
        back); returns the step's seq (None at the end, or when the move was not saved)."""
        resolution = self.controller.resolution
        clock_seq = self.clock_seq
        steps = [s for s in resolution.steps if clock_seq is None or s.seq > clock_seq] \
            if resolution is not None else []
        if not steps or resolution is None:
            self.show_refusal("the clock is at the last resolved step; declare more actions")
            return None
        if not self.controller.run(advance_clock(clock_mark(steps[0], resolution.steps)),
                                   check=False):
            return None
        seq = self.clock_seq
        if seq is not None:
            self.advanced.emit(seq)
        return seq

    def _show_surprised_button(self) -> None:
        cid = self.cards.current_id()
        actor = self.combatant(cid) if cid is not None else None
        self.surprised_button.setText(
            "Not Surprised" if actor is not None and actor.surprised else "Mark Surprised")

    def toggle_surprised(self) -> None:
        """Marks the selected creature surprised, or leaves it to its side's die again."""
        cid = self.cards.current_id()
        actor = self.combatant(cid) if cid is not None else None
        if actor is None:
            self.show_refusal("select a creature to mark it surprised")
            return
        self.controller.run(mark_surprised(actor.id, None if actor.surprised else True))

    def take_back_selected(self) -> None:
        index = self.actions_lane.current_entry()
        if index is None:
            self.show_refusal("select an action to take it back")
            return
        self.controller.run(remove_entry("actions", index))
