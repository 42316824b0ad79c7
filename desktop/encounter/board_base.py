"""What every action board shares: the combatant cards, the inline editor, a message line."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QVBoxLayout, QWidget

from core.model.values import Combatant, Status
from desktop.encounter.cards import CardsView, CombatantCardsModel, conditions_on
from desktop.encounter.controller import EncounterController
from desktop.encounter.elided_label import ElidedLabel
from desktop.encounter.entry_editor import EntryEditor
from desktop.plain_text import elide_name


def entry_text(entry: Mapping[str, Any], labels: Mapping[str, str]) -> str:
    """Gets ``Halvaine: spell sleep → Orc 1 (miss)``, ``Brannoc: waits, names Ysolde``,
    ``Wolfgang: missile → Orc 1 (hit 8), Orc 2 (hit 3)`` for a declaration, turn or action."""
    actor = labels.get(str(entry.get("actor")), str(entry.get("actor")))
    # the words the undo menu uses ("Brannoc: waits, names Ysolde"), never markers
    action = entry.get("action") or ("waits" if entry.get("waits") else "turn")
    text = f"{actor}: {action}"
    what = entry.get("spell") or entry.get("weapon")
    if what:
        text += f" {what}"
    outcome = []
    if "hit" in entry:
        outcome.append(f"hit {entry.get('damage', 0)}" if entry["hit"] else "miss")
    for hit in entry.get("hits") or ():
        outcome.append(f"hit {hit.get('damage', 0)}" if hit.get("hit") else "miss")
    targets = [str(t) for t in entry.get("targets") or ()]
    if len(targets) > 1:
        # split-targets: one attack at each listed target in order, the rest at the last;
        # each outcome is said under the target its attack went at
        under: list[list[str]] = [[] for _ in targets]
        for n, words in enumerate(outcome):
            under[min(n, len(targets) - 1)].append(words)
        text += " → " + ", ".join(labels.get(t, t) + (f" ({', '.join(o)})" if o else "")
                                  for t, o in zip(targets, under, strict=True))
        outcome = []
    elif entry.get("target"):
        text += f" → {labels.get(str(entry['target']), entry['target'])}"
    if entry.get("prepared") or entry.get("ready"):
        text += f", readied for: {entry.get('prepared') or entry.get('ready')}"
    if entry.get("waits") and entry.get("action"):
        text += ", waits"
    if entry.get("nominates"):
        text += f", names {labels.get(str(entry['nominates']), entry['nominates'])}"
    if outcome:
        text += f" ({', '.join(outcome)})"
    return text


def form_area(editor: QWidget, name: str, width: int | None = None) -> QScrollArea:
    """Puts the declaration (or turn) form in a fixed, scrollable place below the cards.

    Opening the form then moves nothing, and a long form never makes the window taller than a
    1280x720 screen. The area does not scroll sideways, so it is as wide as the form needs
    (``width``, or the form's own minimum and the scroll bar).
    """
    area = QScrollArea()
    area.setObjectName(name)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    area.setWidget(editor)
    editor.hide()  # setWidget shows it: an empty form would offer Declare with no one
    area.setMinimumHeight(160)
    _FormWidth(area, editor, width)
    return area


class _FormWidth(QObject):
    """Keeps the form's area at least as wide as the form needs, as its rows change.

    The width was set once, from the form as first built: the form in the surprise segments
    (its "Surprise segment" row widens the labels' column) needed more, and its lists were cut
    on the right in a Combatants panel narrowed by short names. The area only grows, so the
    panel does not jump back and forth between one form and the next; ``floor`` is the width
    it starts at.
    """

    def __init__(self, area: QScrollArea, editor: QWidget, floor: int | None) -> None:
        super().__init__(area)
        self._area, self._editor, self._floor = area, editor, floor or 0
        editor.installEventFilter(self)
        self.fit()

    def fit(self) -> None:
        need = max(self._floor, self._editor.minimumSizeHint().width()
                   + self._area.verticalScrollBar().sizeHint().width())
        if self._area.minimumWidth() < need:
            self._area.setMinimumWidth(need)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.LayoutRequest, QEvent.Type.Show):
            self.fit()
        return False


def with_buttons(area: QScrollArea, editor: EntryEditor) -> QWidget:
    """Puts the form's scroll area above its Declare/Cancel bar, which never scrolls away."""
    box = QWidget()
    box.setObjectName(f"{area.objectName()}Box")
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(0)
    layout.addWidget(area, 1)
    layout.addWidget(editor.button_bar)
    return box


def wrapped_label(text: str) -> QLabel:
    """A heading that wraps in a narrow column instead of setting the column's width."""
    label = QLabel(text)
    label.setWordWrap(True)
    return label


class BoardBase(QWidget):
    """The cards, the editor and the refusal line; subclasses add lanes or a palette."""

    def __init__(
        self, controller: EncounterController, accepts_actions: bool = False,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.controller = controller
        self.cards_model = CombatantCardsModel(accepts_actions, self)
        self.cards = CardsView()
        self.cards.setObjectName("cards")
        self.cards.setModel(self.cards_model)
        self.cards.setMinimumWidth(200)
        self.editor = EntryEditor(controller.system_id)
        self.editor.submitted.connect(self._on_entry_submitted)
        # Two lines at most, cut with "…" (the whole text in its tooltip): a long refusal
        # that wrapped to four lines made the window taller than a 720-line screen.
        self.message = ElidedLabel(lines=2)
        self.message.setObjectName("boardMessage")
        self.message.setStyleSheet("color: #c0392b;")
        controller.refused.connect(self.show_refusal)
        controller.completed.connect(lambda _name: self.message.clear())
        self.combatants_panel = QWidget()
        """The cards and the form: the workspace shows them as a panel of their own."""
        self.combatants_panel.setObjectName("combatantsPanel")

    # --- shared helpers -------------------------------------------------------------------------

    def combatants(self) -> list[Combatant]:
        return list(self.controller.state.combatants.values())

    def combatant(self, cid: str) -> Combatant | None:
        return self.controller.state.combatants.get(cid)

    def labels(self) -> dict[str, str]:
        return {c.id: elide_name(c.label) for c in self.combatants()}

    def show_refusal(self, text: str) -> None:
        """Shows why a command was refused, next to the board (nothing changed)."""
        self.message.setText(f"Refused: {text}")  # a plain-text label: shown as typed

    def refresh_cards(self, notes: dict[str, str] | None = None, active: str | None = None) -> None:
        kept = self.cards.current_id()
        resolution = self.controller.known_resolution()  # no fled monster before its die
        results = dict(resolution.combatants) if resolution is not None else {}
        hidden = self.controller.state.hidden
        if hidden:  # the DM sees on the card who the players' screen leaves out
            notes = dict(notes or {})
            for cid in hidden:
                notes[cid] = " · ".join(n for n in ("hidden from the players", notes.get(cid))
                                        if n)
        # A held or sleeping creature acts differently: its card says so, as it says unconscious.
        held = {cid: names for cid, names in conditions_on(resolution).items()
                if cid not in results or results[cid].status is not Status.DEAD}  # not a corpse
        if held:
            notes = dict(notes or {})
            for cid, names in held.items():
                notes[cid] = " · ".join(n for n in (", ".join(names), notes.get(cid)) if n)
        self.cards_model.set_combatants(self.combatants(), results, notes, active)
        if kept is not None:
            self.cards.select_id(kept)

    def open_editor(self, cid: str, action: str, verb: str = "Declare") -> bool:
        """Opens the inline editor for a card dropped (or keyed) onto an action."""
        actor = self.combatant(cid)
        if actor is None:
            self.show_refusal(f"no combatant {cid!r} in this encounter")
            return False
        resolution = self.controller.resolution
        dead = {cid for cid, r in resolution.combatants.items()
                if str(r.status) == "dead"} if resolution is not None else set()
        living = [c for c in self.combatants() if c.id not in dead]
        self.editor.open_for(actor, action, living, verb)
        return True

    # --- for subclasses -------------------------------------------------------------------------

    def refresh(self) -> None:
        """Shows the encounter as it stands now."""
        self.refresh_cards()

    def _on_entry_submitted(self, entry: dict[str, Any]) -> None:
        raise NotImplementedError
