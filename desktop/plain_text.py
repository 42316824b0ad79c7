"""Shows user text exactly as typed where Qt would guess it is HTML (message boxes, labels).

Qt renders a message that *looks* like rich text (a name such as ``<b>Orc</b>``) as HTML. Text
Qt would take as plain is returned unchanged; anything else is escaped and wrapped so that it
reads back as the very characters the DM typed.
"""

from __future__ import annotations

import html

from PySide6.QtGui import Qt


def plain(text: str) -> str:
    """Gets ``text`` in a form every Qt text widget displays literally."""
    if not Qt.mightBeRichText(text):
        return text
    return f"<p style='white-space:pre-wrap'>{html.escape(text)}</p>"


SHOWN_NAME = 40
"""Characters of a name shown in a list, lane, table or timeline row (core.model.limits'
MAX_NAME: a longer name, saved by an older version, is cut there with "…")."""


def elide_name(name: str, limit: int = SHOWN_NAME) -> str:
    """Gets ``name`` cut to ``limit`` characters with "…" (a tooltip or form shows it whole)."""
    return name if len(name) <= limit else name[:limit - 1].rstrip() + "…"
