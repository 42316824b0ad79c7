"""Campaign persistence: SQLAlchemy ORM, Alembic migrations, and the :class:`Store` facade."""

from core.store.errors import (
    AccessDeniedError,
    ConflictError,
    CorruptDatabaseError,
    DatabaseLockedError,
    DatabaseUnavailableError,
    DiskFullError,
    EncounterEndedError,
    EncounterMovedOnError,
    EncounterTakenOverError,
    NameTakenError,
    NewerDatabaseError,
    NotACampaignDatabaseError,
    NotFoundError,
    ReadOnlyDatabaseError,
    StoreError,
)
from core.store.leases import LEASE_SECONDS, Lease, LeaseHolder
from core.store.store import AppliedImport, EncounterInfo, Store, default_database_url

__all__ = [
    "LEASE_SECONDS",
    "AccessDeniedError",
    "AppliedImport",
    "ConflictError",
    "CorruptDatabaseError",
    "DatabaseLockedError",
    "DatabaseUnavailableError",
    "DiskFullError",
    "EncounterEndedError",
    "EncounterInfo",
    "EncounterMovedOnError",
    "EncounterTakenOverError",
    "Lease",
    "LeaseHolder",
    "NameTakenError",
    "NewerDatabaseError",
    "NotACampaignDatabaseError",
    "NotFoundError",
    "ReadOnlyDatabaseError",
    "Store",
    "StoreError",
    "default_database_url",
]
