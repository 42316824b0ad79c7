"""The Rest dialog: who rests, what comes back (memorised spells always, HP to max if ticked)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListView,
    QListWidget,
    QVBoxLayout,
    QWidget,
)

from core.roster.entries import RosterEntry, available_spells, rested
from desktop.dialog_help import add_dialog_help
from desktop.plain_text import plain


def rest_line(before: RosterEntry, after: RosterEntry) -> str:
    """Gets what a rest gives one entry back, in words ("Sister Ysolde: 2 spells, HP 8 → 17")."""
    parts = []
    regained = len(available_spells(after)) - len(available_spells(before))
    if regained:
        parts.append(f"{regained} spell{'s' if regained != 1 else ''} back")
    if after.hp != before.hp:
        parts.append(f"HP {before.hp} → {after.hp}")
    if after.status != before.status:
        parts.append(f"{before.status} → {after.status}")
    return f"{before.name}: {', '.join(parts) or 'nothing to restore'}"


class RestDialog(QDialog):
    """Asks how the chosen entries rest; ``results()`` gives the (before, after) pairs."""

    def __init__(
        self, entries: Sequence[RosterEntry], title: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        add_dialog_help(self)  # F1 opens the help at this dialog's section
        self.setObjectName("restDialog")
        self.setWindowTitle(title)
        self.entries = list(entries)
        self.hp_box = QCheckBox("Also restore &HP to maximum")
        self.hp_box.setObjectName("restoreHp")
        self.list = QListWidget()
        self.list.setObjectName("restList")
        # Each line whole: a long one wraps in the list's width instead of running off under
        # a sideways scroll bar ("HP 6 →" and no figure, 166-rest-hp).
        self.list.setWordWrap(True)
        self.list.setResizeMode(QListView.ResizeMode.Adjust)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.hp_box.toggled.connect(self._show)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("&Rest")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        intro = QLabel(plain("Spent spells become available again (the memorised list is kept). "
                             "The dead do not rest. Ctrl+Z takes the rest back."))  # fmt: skip
        intro.setWordWrap(True)
        layout.addWidget(intro)
        layout.addWidget(self.hp_box)
        layout.addWidget(self.list, 1)
        layout.addWidget(buttons)
        self._show()
        # As wide as the longest line needs, up to a comfortable reading width.
        widest = max((self.list.fontMetrics().horizontalAdvance(self.list.item(i).text())
                      for i in range(self.list.count())), default=0)
        self.list.setMinimumWidth(min(widest + 40, 560))

    def results(self) -> list[tuple[RosterEntry, RosterEntry]]:
        """Gets (before, after) for each entry the rest changes."""
        pairs = [(e, rested(e, self.hp_box.isChecked())) for e in self.entries]
        return [(before, after) for before, after in pairs if before != after]

    def _show(self, *_args: object) -> None:
        self.list.clear()
        changed = {b.id: rest_line(b, a) for b, a in self.results()}
        for entry in self.entries:
            self.list.addItem(changed.get(entry.id, f"{entry.name}: nothing to restore"))
