"""Campaign persistence: SQLAlchemy ORM, Alembic migrations, and the :class:`Store` facade."""

from core.store.errors import (
    ConflictError,
    CorruptDatabaseError,
    DatabaseLockedError,
    NewerDatabaseError,
    NotACampaignDatabaseError,
    NotFoundError,
    StoreError,
)
from core.store.store import EncounterInfo, Store, default_database_url

__all__ = [
    "ConflictError",
    "CorruptDatabaseError",
    "DatabaseLockedError",
    "EncounterInfo",
    "NewerDatabaseError",
    "NotACampaignDatabaseError",
    "NotFoundError",
    "Store",
    "StoreError",
    "default_database_url",
]
