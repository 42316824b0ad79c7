"""Campaign persistence: SQLAlchemy ORM, Alembic migrations, and the :class:`Store` facade."""

from core.store.errors import (
    ConflictError,
    CorruptDatabaseError,
    DatabaseLockedError,
    DatabaseUnavailableError,
    DiskFullError,
    EncounterEndedError,
    EncounterMovedOnError,
    NewerDatabaseError,
    NotACampaignDatabaseError,
    NotFoundError,
    ReadOnlyDatabaseError,
    StoreError,
)
from core.store.store import AppliedImport, EncounterInfo, Store, default_database_url

__all__ = [
    "AppliedImport",
    "ConflictError",
    "CorruptDatabaseError",
    "DatabaseLockedError",
    "DatabaseUnavailableError",
    "DiskFullError",
    "EncounterEndedError",
    "EncounterInfo",
    "EncounterMovedOnError",
    "NewerDatabaseError",
    "NotACampaignDatabaseError",
    "NotFoundError",
    "ReadOnlyDatabaseError",
    "Store",
    "StoreError",
    "default_database_url",
]
