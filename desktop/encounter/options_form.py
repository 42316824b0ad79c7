"""A form for a system's house-rule options, built from its frozen Options dataclass.

Defaults are the dataclass defaults (the source's reading); each field's tooltip says which
rules it changes, in the catalogue's own words. Only values changed from the default are kept,
so an untouched form gives the same empty ``options`` a scenario file would.

The form sits in a scroll area: a spin box or list under the mouse while the DM scrolls past
must not change (only a clicked or tabbed-to editor takes the wheel), and a value outside what
the option means is refused with the reason (:mod:`core.option_limits`).
"""

from __future__ import annotations

from dataclasses import fields
from enum import Enum
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QApplication,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from core.option_limits import limit, name_words, option_problems
from core.rules import InitiativeSystem

ANY_NUMBER = (-1000, 1000)


class OptionError(ValueError):
    """An option the DM set cannot be used; the text says which and why."""


def option_tooltip(system: InitiativeSystem, name: str, default: Any) -> str:
    """Gets the plain-words summaries of the rules an option changes, and its default."""
    rules = [r for r in system.rules.values() if r.option == name]
    shown = default.value if isinstance(default, Enum) else default
    lines = [f"Default (the source): {shown}"]
    bounds = limit(system.id, name)
    if bounds is not None:
        lines.append(f"From {bounds.low} to {bounds.high}: {bounds.counts}")
    lines += [f"• {r.summary} ({r.id}; {r.source}, “{r.heading}”)" for r in rules]
    return "\n".join(lines)


class WheelGuard(QObject):
    """Lets a spin box or list take the mouse wheel only once the DM has put focus on it.

    Otherwise the wheel scrolls the scroll area around it, as the DM meant.
    """

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.Wheel or not isinstance(watched, QWidget) \
                or watched.hasFocus():
            return super().eventFilter(watched, event)
        area = watched.parentWidget()
        while area is not None and not isinstance(area, QAbstractScrollArea):
            area = area.parentWidget()
        if area is not None:
            QApplication.sendEvent(area.viewport(), event)
        event.accept()
        return True


def guard_wheel(editor: QWidget, guard: WheelGuard) -> None:
    """Keeps the wheel from changing ``editor`` until it has focus (click or Tab)."""
    editor.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    editor.installEventFilter(guard)


class OptionsForm(QWidget):
    """One editor per option field; :meth:`values` gives the changed ones."""

    def __init__(self, system: InitiativeSystem, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.system = system
        self.defaults = system.options_type()
        self.editors: dict[str, QWidget] = {}
        self.wheel_guard = WheelGuard(self)
        form = QFormLayout(self)
        for f in fields(self.defaults):
            default = getattr(self.defaults, f.name)
            editor: QWidget
            if isinstance(default, bool):
                editor = QCheckBox()
                editor.setChecked(default)
            elif isinstance(default, Enum):
                editor = QComboBox()
                editor.addItems([str(m.value) for m in type(default)])
                editor.setCurrentText(str(default.value))
                guard_wheel(editor, self.wheel_guard)
            elif isinstance(default, int):
                editor = QSpinBox()
                bounds = limit(system.id, f.name)
                editor.setRange(*((bounds.low, bounds.high) if bounds else ANY_NUMBER))
                editor.setValue(default)
                guard_wheel(editor, self.wheel_guard)
            else:
                editor = QLineEdit("" if default is None else str(default))
            editor.setObjectName(f"option-{f.name}")
            editor.setToolTip(option_tooltip(system, f.name, default))
            self.editors[f.name] = editor
            form.addRow(name_words(f.name), editor)
        self.error = QLabel()
        self.error.setObjectName("optionsError")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #c0392b;")
        self.error.hide()
        form.addRow(self.error)

    def _value(self, name: str) -> Any:
        editor = self.editors[name]
        if isinstance(editor, QCheckBox):
            return editor.isChecked()
        if isinstance(editor, QComboBox):
            return editor.currentText()
        if isinstance(editor, QSpinBox):
            return editor.value()
        assert isinstance(editor, QLineEdit)
        return editor.text()

    def changed(self) -> dict[str, Any]:
        """Gets the options the DM changed from the source's defaults, unchecked."""
        changed: dict[str, Any] = {}
        for name in self.editors:
            default = getattr(self.defaults, name)
            plain = default.value if isinstance(default, Enum) else default
            value = self._value(name)
            if default is None and value == "":
                continue
            if value != plain:
                changed[name] = value
        return changed

    def problems(self) -> dict[str, str]:
        """Gets why each refused option cannot be used (empty: the form is fine)."""
        return option_problems(self.system.id, self.changed())

    def values(self) -> dict[str, Any]:
        """Gets the options the DM changed; raises :class:`OptionError` naming a bad one.

        The reason is also shown under the form, and the bad editor gets the focus.
        """
        changed = self.changed()
        problems = option_problems(self.system.id, changed)
        if problems:
            name, reason = next(iter(problems.items()))
            text = f"Option refused: {reason}."
            self.error.setText(text)
            self.error.show()
            self.editors[name].setFocus(Qt.FocusReason.OtherFocusReason)
            raise OptionError(text)
        self.error.hide()
        return changed
