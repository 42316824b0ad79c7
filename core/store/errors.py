"""What can go wrong when opening or writing a campaign database, in words for the DM."""

from __future__ import annotations


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


class ConflictError(StoreError):
    """Someone else saved this record since it was loaded; nothing was overwritten."""


class NotFoundError(StoreError):
    """The record asked for does not exist (any more)."""
