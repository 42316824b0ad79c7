"""A form for a system's house-rule options, built from its frozen Options dataclass.

Defaults are the dataclass defaults (the source's reading); each field's tooltip says which
rules it changes, in the catalogue's own words. Only values changed from the default are kept,
so an untouched form gives the same empty ``options`` a scenario file would.
"""

from __future__ import annotations

from dataclasses import fields
from enum import Enum
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QLineEdit, QSpinBox, QWidget

from core.printout.words import option_label, value_words
from core.rules import InitiativeSystem


class WheelOnlyWhenFocused(QObject):
    """Lets the wheel scroll the form past a spin box or list instead of changing it.

    A DM scrolling the options once turned "fixed surprise segments" to −3 by accident; the
    wheel now changes a value only in the field the DM clicked into.
    """

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Wheel and isinstance(watched, QWidget) and (
                not watched.hasFocus()):
            event.ignore()
            return True
        return False


def option_tooltip(system: InitiativeSystem, name: str, default: Any) -> str:
    """Gets the plain-words summaries of the rules an option changes, and its default."""
    rules = [r for r in system.rules.values() if r.option == name]
    shown = value_words(default)
    lines = [f"Default (the source): {shown}"]
    lines += [f"• {r.summary} ({r.id}; {r.source}, “{r.heading}”)" for r in rules]
    return "\n".join(lines)


class OptionsForm(QWidget):
    """One editor per option field; :meth:`values` gives the changed ones."""

    def __init__(self, system: InitiativeSystem, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.system = system
        self.defaults = system.options_type()
        self.editors: dict[str, QWidget] = {}
        self._wheel_guard = WheelOnlyWhenFocused(self)
        form = QFormLayout(self)
        for f in fields(self.defaults):
            default = getattr(self.defaults, f.name)
            editor: QWidget
            if isinstance(default, bool):
                editor = QCheckBox()
                editor.setChecked(default)
            elif isinstance(default, Enum):
                editor = QComboBox()
                for member in type(default):  # words on screen, the value in the item data
                    editor.addItem(value_words(member), member.value)
                editor.setCurrentIndex(editor.findData(default.value))
            elif isinstance(default, int):
                editor = QSpinBox()
                # Counts, segments and seconds cannot go below 0; hit-point thresholds
                # (death at −10) may be negative. The engine checks the rest on OK.
                editor.setRange(0, 1000) if default >= 0 else editor.setRange(-100, 100)
                editor.setValue(default)
            else:
                editor = QLineEdit("" if default is None else str(default))
            if isinstance(editor, QSpinBox | QComboBox):
                editor.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
                editor.installEventFilter(self._wheel_guard)
            editor.setObjectName(f"option-{f.name}")
            editor.setToolTip(option_tooltip(system, f.name, default))
            self.editors[f.name] = editor
            form.addRow(option_label(f.name), editor)

    def _value(self, name: str) -> Any:
        editor = self.editors[name]
        if isinstance(editor, QCheckBox):
            return editor.isChecked()
        if isinstance(editor, QComboBox):
            return editor.currentData()
        if isinstance(editor, QSpinBox):
            return editor.value()
        assert isinstance(editor, QLineEdit)
        return editor.text()

    def values(self) -> dict[str, Any]:
        """Gets the options the DM changed from the source's defaults."""
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
