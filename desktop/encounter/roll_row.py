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

FIELD_MIN_WIDTH = 44
"""A die's field never shrinks below two digits and the caret, however many dice are asked."""


class RollRow(QWidget):
    """``party [typed total] [Roll]`` with its refusal under it, on one line.

    ``label`` is the die in the DM's words (``Initiative: party``, names not ids); the stepper
    shows the kind once above a run of dice of the same kind (``short`` hides it here).
    ``where`` says where its total goes. The row keeps its natural height: many dice scroll
    instead of squeezing.
    """

    roll_requested = Signal(object)
    typed = Signal(object, str)

    def __init__(self, request: RollRequest, label: str = "", where: str = "",
                 short: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.request = request
        self.setObjectName(f"roll-{request.purpose}")
        self.text = label or request.purpose
        kind, _, who = self.text.partition(": ")
        shown = who if short and who else f"{self.text} ({request.expression})"
        self.label = QLabel(escape(shown))
        self.label.setWordWrap(True)
        self.label.setToolTip(f"{kind} ({request.expression})" + (
            f"; its total goes to {where}" if where else ""))
        self.roll_button = QPushButton("Roll")
        self.roll_button.setMaximumWidth(44)
        self.roll_button.setToolTip(f"Roll {request.expression} for {self.text} with the "
                                    "app's dice")
        self.roll_button.clicked.connect(lambda: self.roll_requested.emit(self.request))
        self.field = QLineEdit()
        self.field.setPlaceholderText("die")
        self.field.setMinimumWidth(FIELD_MIN_WIDTH)
        self.field.setMaximumWidth(FIELD_MIN_WIDTH + 12)
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
        grid.setContentsMargins(0, 1, 0, 1)
        grid.setVerticalSpacing(2)
        grid.setHorizontalSpacing(4)
        grid.addWidget(self.label, 0, 0)
        grid.addWidget(self.field, 0, 1)
        grid.addWidget(self.roll_button, 0, 2)
        grid.addWidget(self.error, 1, 0, 1, 3)
        grid.setColumnStretch(0, 1)
        # Height for width: a long name wraps onto a second line instead of being clipped.
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)

    def show_error(self, text: str) -> None:
        """Shows why a typed total was refused, next to the field (nothing changed)."""
        self.error.setText(text)
        self.error.setVisible(bool(text))
