"""The campaign database: SQLAlchemy ORM, Alembic migrations, and the :class:`Store` facade.

It may use :mod:`core.roster`, :mod:`core.fight`, :mod:`core.rules` and :mod:`core.model`;
never :mod:`core.play`, :mod:`core.printout` or :mod:`core.cli`. Its modules stand in layers,
each using only those below it (the import-linter contracts in ``pyproject.toml``):

================  ===============================================================================
``backups``       restoring a backup over a campaign (opens a :class:`Store` to upgrade it)
``store``         :class:`Store`: opens a database; one repository per concern, below
``copies``        a consistent copy of an SQLite file (a backup, the copy before an upgrade)
``health``        damage found when a file opens: its seal, SQLite's checks, every record read
``tallies``       per-table counts kept by Combat Desk only: records removed or renumbered by others
``commands``      ``store.commands``: an encounter's log — append exactly once, undo, read back
``command_ids``   what a command id is (its documented shape)
``encounters``    ``store.encounters``: encounter headers — create, list, end, reopen
``leases``        ``store.leases``: who plays an encounter now; the other windows watch
``batches``       ``store.batches``: many records in one transaction — imports, deletes, rests
``roster``        ``store.roster``: roster entries one at a time, results, the session log
``templates``     ``store.templates``: monster templates
``versioned``     what versioned records share: conflicts carry the saved record
``access``        ``store.access``: roles and row-level security on a server; who writes
``campaigns``     ``store.campaigns``: the campaigns, listed and created
``mapping``       rows to roster values and back, column by column
``unit_of_work``  one DM command, one transaction; database failures in words
``addresses``     database URLs checked and shown without passwords; server timeouts
``deadline``      a client-side deadline on every server answer (a frozen server process)
``probe``         what opening a URL would do, without changing it (the settings dialog)
``opening``       whether a database may be opened, read before anything is written
``migrate``       Alembic to head (the ``migrations`` scripts), loaded only when needed
``row_checks``    each record's own checksum
``schema``        the tables (SQLAlchemy declarative models)
``errors``        what can go wrong, in words for the DM
================  ===============================================================================
"""

from core.store.addresses import default_database_url
from core.store.batches import AppliedImport
from core.store.encounters import EncounterInfo
from core.store.errors import (
    AccessDeniedError,
    CommandIdError,
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
from core.store.store import Store

__all__ = [
    "LEASE_SECONDS",
    "AccessDeniedError",
    "AppliedImport",
    "CommandIdError",
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
