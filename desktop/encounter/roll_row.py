"""One die the engine asks for: roll it with the app's dice, or type what the table's die shows."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from core.rules.base import RollRequest
from desktop.encounter.roll_modifiers import die_words, modifier_words


class RollRow(QWidget):
    """``Initiative party (1d6) [what the d6 shows] [Roll]`` with its refusal under it.

    The field takes the die as it shows on the table; a modifier the app adds (popcorn's DEX
    on the initiative d20) is said in the label, never expected in the field."""

    roll_requested = Signal(object)
    typed = Signal(object, str)

    def __init__(self, request: RollRequest, parent: QWidget | None = None,
                 words: str | None = None, modifier: int = 0) -> None:
        super().__init__(parent)
        self.request = request
        self.setObjectName(f"roll-{request.purpose}")
        # ``words``: what the die decides with names, e.g. "Initiative Orc 1 (1d10)".
        added = modifier_words(modifier)
        self.label = label = QLabel(
            (f"<b>{escape(words)}</b>" if words else
             f"<b>{escape(request.purpose)}</b> ({escape(request.expression)})")
            + (f" — type the die alone, {escape(added)}" if added else ""))
        label.setMinimumWidth(0)
        self.roll_button = QPushButton("Roll")
        self.roll_button.setToolTip(f"Roll {request.expression} with the app's dice")
        self.roll_button.clicked.connect(lambda: self.roll_requested.emit(self.request))
        self.field = QLineEdit()
        self.field.setMinimumWidth(70)  # a die's total stays readable with many dice pending
        asked = die_words(request.expression)
        self.field.setPlaceholderText(asked)
        self.field.setToolTip(
            f"Type {asked} on the table, then Enter"
            + (f" ({added}: the total is shown in Dice made)" if added else ""))
        self.field.returnPressed.connect(lambda: self.typed.emit(self.request, self.field.text()))
        self.error = QLabel()
        self.error.setObjectName("rollError")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #c0392b;")
        self.error.hide()
        label.setWordWrap(True)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.field, 1)
        row.addWidget(self.roll_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(label)
        layout.addLayout(row)
        layout.addWidget(self.error)

    def show_error(self, text: str) -> None:
        """Shows why a typed total was refused, next to the field (nothing changed)."""
        self.error.setText(text)
        self.error.setVisible(bool(text))
