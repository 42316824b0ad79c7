"""Drag-and-drop payloads of the action board: our own MIME types carrying JSON."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QMimeData

COMBATANT_MIME = "application/x-combatdesk-combatant"
"""A combatant card: ``{"id": combatant id}``."""
DECLARATION_MIME = "application/x-combatdesk-declaration"
"""A declaration card already on a lane: ``{"index": its place in the round's list}``."""
ACTION_MIME = "application/x-combatdesk-action"
"""An action from the time-unit palette: ``{"action": "melee"}``."""


def encode(mime_type: str, payload: dict[str, Any]) -> QMimeData:
    """Packs a JSON payload (with a plain-text copy for drops outside the app)."""
    data = QMimeData()
    text = json.dumps(payload)
    data.setData(mime_type, text.encode("utf-8"))
    data.setText(text)
    return data


def decode(data: QMimeData | None, mime_type: str) -> dict[str, Any] | None:
    """Unpacks a payload of ``mime_type``; None when the drop carries something else."""
    if data is None or not data.hasFormat(mime_type):
        return None
    try:
        payload = json.loads(bytes(data.data(mime_type).data()).decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    return payload if isinstance(payload, dict) else None
