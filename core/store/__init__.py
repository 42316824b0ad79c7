"""Campaign persistence: SQLAlchemy ORM, Alembic migrations, and the :class:`Store` facade."""

from core.store.errors import (
    ConflictError,
    CorruptDatabaseError,
    DatabaseLockedError,
    DiskFullError,
    EncounterEndedError,
    NewerDatabaseError,
    NotACampaignDatabaseError,
    NotFoundError,
    ReadOnlyDatabaseError,
    StoreError,
)
from core.store.store import EncounterInfo, Store, default_database_url

__all__ = [
    "ConflictError",
    "CorruptDatabaseError",
    "DatabaseLockedError",
    "DiskFullError",
    "EncounterEndedError",
    "EncounterInfo",
    "NewerDatabaseError",
    "NotACampaignDatabaseError",
    "NotFoundError",
    "ReadOnlyDatabaseError",
    "Store",
    "StoreError",
    "default_database_url",
]
