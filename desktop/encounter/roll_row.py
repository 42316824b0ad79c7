"""One die the engine asks for: roll it with the app's dice, or type what the table's die shows."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QGridLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QWidget,
)

from core.rules.base import RollRequest

FIELD_MIN_WIDTH = 64
"""A die's field never shrinks below two digits and the caret, however many dice are asked."""


class RollRow(QWidget):
    """``Initiative: party (1d6)`` over ``[typed total] [Roll]``, with its refusal under it.

    ``label`` is the die in the DM's words (names, not ids); ``where`` says where its total
    goes. The row keeps its natural height: many dice scroll instead of squeezing.
    """

    roll_requested = Signal(object)
    typed = Signal(object, str)

    def __init__(self, request: RollRequest, label: str = "", where: str = "",
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.request = request
        self.setObjectName(f"roll-{request.purpose}")
        self.text = label or request.purpose
        self.label = QLabel(f"<b>{escape(self.text)}</b> ({escape(request.expression)})")
        self.label.setWordWrap(True)
        if where:
            self.label.setToolTip(f"Its total goes to {where}")
        self.roll_button = QPushButton("Roll")
        self.roll_button.setToolTip(f"Roll {request.expression} for {self.text} with the "
                                    "app's dice")
        self.roll_button.clicked.connect(lambda: self.roll_requested.emit(self.request))
        self.field = QLineEdit()
        self.field.setPlaceholderText("die's total")
        self.field.setMinimumWidth(FIELD_MIN_WIDTH)
        self.field.setToolTip(f"Type the total of a physical {request.expression} for "
                              f"{self.text}, then Enter (focus moves to the next die)")
        self.field.returnPressed.connect(lambda: self.typed.emit(self.request, self.field.text()))
        self.label.setBuddy(self.field)
        self.error = QLabel()
        self.error.setObjectName("rollError")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #c0392b;")
        self.error.hide()
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 2, 0, 2)
        grid.setVerticalSpacing(2)
        grid.addWidget(self.label, 0, 0, 1, 2)
        grid.addWidget(self.field, 1, 0)
        grid.addWidget(self.roll_button, 1, 1)
        grid.addWidget(self.error, 2, 0, 1, 2)
        grid.setColumnStretch(0, 1)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def show_error(self, text: str) -> None:
        """Shows why a typed total was refused, next to the field (nothing changed)."""
        self.error.setText(text)
        self.error.setVisible(bool(text))
