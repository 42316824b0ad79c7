"""What can go wrong when opening or writing a campaign database, in words for the DM."""

from __future__ import annotations

from core.roster.entries import MonsterTemplate, RosterEntry


class StoreError(Exception):
    """A campaign database problem; the message is meant for the DM as it is."""


class NotACampaignDatabaseError(StoreError):
    """The file exists but is not a Combat Desk campaign (it is left untouched)."""


class CorruptDatabaseError(StoreError):
    """The file looks like a database but cannot be read safely (it is left untouched)."""


class NewerDatabaseError(StoreError):
    """The database was written by a newer Combat Desk (it is left untouched)."""


class DatabaseLockedError(StoreError):
    """Another program holds the database; try again when it lets go."""


class DatabaseUnavailableError(StoreError):
    """The database did not answer in time or the connection to it was lost; try again.

    A command may or may not have reached it; repeating it is safe for encounter commands,
    which are stored once per command id.
    """


class ReadOnlyDatabaseError(StoreError):
    """The database may be read but not written (file permissions, read-only medium)."""


class DiskFullError(StoreError):
    """The disk (or the database's size limit) is full; the command was rolled back whole."""


class ConflictError(StoreError):
    """Someone else saved this record since it was loaded; nothing was overwritten.

    ``saved`` is the version now in the database (None when the record is gone or is not a
    roster entry or template), so that the app can show the DM both versions to choose from.
    """

    def __init__(self, message: str, saved: RosterEntry | MonsterTemplate | None = None) -> None:
        super().__init__(message)
        self.saved = saved


class NotFoundError(StoreError):
    """The record asked for does not exist (any more)."""


class EncounterMovedOnError(ConflictError):
    """Another window (or Combat Desk) added to the encounter since this one last saw it.

    Nothing was stored: the command would not follow the last one, and an undo would take
    back someone else's work. Reopening the encounter shows what the other window did.
    """


class EncounterTakenOverError(ConflictError):
    """Another Combat Desk took this encounter over (its lease): nothing was stored here.

    The message names who and since when; the window that gets it only watches from then on.
    """


class CommandIdError(ConflictError):
    """A command's id is not of the documented shape, or already names a different stored
    command (a replay with another body, an undo under a command's id): nothing was stored."""


class EncounterEndedError(StoreError):
    """The encounter has ended: it can be read and printed, not played on, until reopened."""


class AccessDeniedError(ReadOnlyDatabaseError):
    """The database role may not do this: no grants on the tables, or the campaign's access
    (PostgreSQL row-level security) lets it read at most. Nothing was stored."""


class NameTakenError(StoreError):
    """Another campaign has this name (on a shared server, perhaps one this role cannot see)."""


SHARED_CAMPAIGNS_DOC = "docs/shared-campaigns.md"
"""Where a group reads how to set up access to a shared database (named in messages)."""


def access_denied(text: str, label: str, sqlstate: str | None) -> AccessDeniedError | None:
    """Turns PostgreSQL's refusal of a role (SQLSTATE 42501) into words; None if it is not one."""
    if sqlstate != "42501":  # insufficient_privilege
        return None
    lowered = text.lower()
    if "row-level security" in lowered:
        return AccessDeniedError(
            f"{label}: your database role may read this campaign but not change it (you are a "
            "player in it), or it is not one of yours; nothing was saved. Its owner can make "
            "you a co-DM."
        )
    if "combatdesk:" in lowered:  # the schema's own guards (0008) refuse in words
        sentence = text.partition("combatdesk:")[2].strip().splitlines()[0]
        return AccessDeniedError(f"{label}: {sentence}")
    if "must be owner" in lowered:
        return AccessDeniedError(
            f"{label} needs its schema upgraded, and only the database's administrator may do "
            "that: ask them to run `python -m core access setup` on it "
            f"({SHARED_CAMPAIGNS_DOC}). Nothing was changed."
        )
    return AccessDeniedError(
        f"{label}: your database role has no rights on Combat Desk's tables there; nothing was "
        "saved or changed. Ask whoever runs the database to add your role to the Combat Desk "
        f"group ({SHARED_CAMPAIGNS_DOC})."
    )
