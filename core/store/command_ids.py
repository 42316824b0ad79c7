"""What a command id is: its documented shape, checked before anything is stored.

A command id names one command of an encounter's log (``Command.id``), made by the client so that
a save retried after a lost answer is found stored instead of stored twice.
"""

from __future__ import annotations

import re

from core.store.errors import CommandIdError

COMMAND_ID_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""What a command id is: 1 to 32 ASCII letters, digits, '-' or '_' (Combat Desk's own are 32
hexadecimal digits, :func:`core.fight.log.new_command_id`). None is allowed for callers from
before ids (rows written before schema 0003 have none)."""

def check_command_id(command_id: str | None) -> None:
    """Refuses, in words, a command id that is not of the documented shape (nothing stored)."""
    if command_id is None or (isinstance(command_id, str)
                              and COMMAND_ID_SHAPE.fullmatch(command_id)):
        return
    if not isinstance(command_id, str) or not command_id:
        what = "is empty"
    elif len(command_id) > 32:
        what = f"is {len(command_id):,} characters long"
    else:
        what = "holds a character other than a letter, a digit, '-' or '_'"
    raise CommandIdError(
        f"A command's id is 1 to 32 letters, digits, '-' or '_'; this one {what}, so nothing "
        "was saved. Combat Desk makes a fresh one for every command; a script should too."
    )


__all__ = ["COMMAND_ID_SHAPE", "check_command_id"]
