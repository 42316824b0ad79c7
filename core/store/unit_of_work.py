"""One DM command, one transaction: the engine's sessions, and what every repository shares.

A :class:`UnitOfWork` owns the sessions: each ``with uow() as s`` is one transaction, committed
once at its end or rolled back whole, and a database failure inside it becomes a
:class:`~core.store.errors.StoreError` in words (:func:`database_error`). Repositories
(:class:`Repository`) run their queries inside it and never commit themselves; :func:`reads`
turns a stored value that no longer maps back to a value into a report of damage.
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Concatenate, ParamSpec, TypeVar

from sqlalchemy import Engine, event
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.orm.exc import StaleDataError

from core.store import row_checks
from core.store.errors import (
    ConflictError,
    CorruptDatabaseError,
    DatabaseLockedError,
    DatabaseUnavailableError,
    DiskFullError,
    ReadOnlyDatabaseError,
    StoreError,
    access_denied,
)
from core.store.opening import sqlite_path


class UnitOfWork:
    """The sessions of one campaign database; calling it runs one DM command's transaction."""

    def __init__(self, engine: Engine, label: str) -> None:
        self.engine = engine
        self.label = label
        """The database in words for messages (its file, or its URL without the password)."""
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        # Every row an ORM flush writes gets its check; Core statements stamp their own rows.
        event.listen(self._sessions, "after_flush", row_checks.after_flush)

    @property
    def dialect(self) -> str:
        """Gets the database's kind: "sqlite" or "postgresql"."""
        return self.engine.dialect.name

    @property
    def file(self) -> Path | None:
        """Gets the SQLite campaign file (None for a server database)."""
        return sqlite_path(str(self.engine.url))

    @contextmanager
    def __call__(self) -> Iterator[Session]:
        """Runs one DM command in one transaction; database failures become StoreErrors."""
        try:
            with self._sessions() as session, session.begin():
                yield session
        except StaleDataError:
            raise ConflictError(
                "Someone else saved this entry since you opened it; nothing was overwritten. "
                "Reload to see their version."
            ) from None
        except IntegrityError:
            raise  # the caller knows which constraint means what
        except OperationalError as exc:
            raise database_error(exc, self.label) from None
        except DBAPIError as exc:
            raise database_error(exc, self.label) from None
        except UnicodeDecodeError:
            raise CorruptDatabaseError(
                f"{self.label} is damaged: some text in it cannot be read. Restore a backup."
            ) from None


class Repository:
    """One concern's queries over the store's unit of work (the generic base of them all)."""

    def __init__(self, uow: UnitOfWork) -> None:
        self._uow = uow


_Repo = TypeVar("_Repo", bound=Repository)
_R = TypeVar("_R")
_P = ParamSpec("_P")


def reads(
    method: Callable[Concatenate[_Repo, _P], _R],
) -> Callable[Concatenate[_Repo, _P], _R]:
    """Reports a stored value that cannot be turned back into a roster value as damage.

    Only reads are wrapped: a bad value on the way in is the caller's bug, not the file's.
    """

    @functools.wraps(method)
    def read(repository: _Repo, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return method(repository, *args, **kwargs)
        except (ValueError, KeyError, TypeError, AttributeError):
            raise CorruptDatabaseError(
                f"{repository._uow.label} is damaged: a saved record cannot be read. Restore a "
                "backup."
            ) from None

    return read


_CONNECTION_LOST = ("server closed the connection", "connection refused", "could not connect",
                    "terminating connection", "connection is closed", "ssl syscall error",
                    "consuming input failed", "no route to host", "network is unreachable",
                    "connection is lost", "connection already closed", "connection was closed",
                    "the database system is", "could not receive data", "could not send data",
                    "eof detected", "connection reset", "broken pipe", "bad connection")
"""How a lost connection reads (psycopg and libpq's words, a server shutting down or starting);
a save that fails so may have been stored, so it is never worded as a refusal."""


def database_error(exc: DBAPIError | sqlite3.Error, label: str) -> StoreError:
    """Words a database failure for the DM: locked, unanswered, lost, read-only, full, refused."""
    orig = exc.orig if isinstance(exc, DBAPIError) else exc
    text = str(orig) if orig is not None else str(exc)
    lowered = text.lower()
    denied = access_denied(text, label, getattr(orig, "sqlstate", None))
    if denied is not None:
        return denied
    if "combatdesk deadline" in lowered:  # core.store.deadline: the server process froze
        return DatabaseUnavailableError(
            f"{label} did not answer in time (its server may be stopped, or the network cut); "
            "your last change may not have been saved. Check the network or ask whoever runs "
            "the server, then try again."
        )
    if "lock timeout" in lowered:
        return DatabaseLockedError(
            f"{label}: another Combat Desk window or program is holding this record; nothing "
            "was saved. Try again in a moment."
        )
    if "statement timeout" in lowered or "timeout expired" in lowered or (
            "timed out" in lowered):
        return DatabaseUnavailableError(
            f"{label} did not answer in time; nothing was saved. Check the network or ask "
            "whoever runs the server, then try again."
        )
    if "locked" in lowered or "busy" in lowered:
        return DatabaseLockedError(
            f"{label} is locked by another program or Combat Desk window; nothing was saved. "
            "Try again in a moment."
        )
    invalidated = isinstance(exc, DBAPIError) and exc.connection_invalidated
    if invalidated or any(lost in lowered for lost in _CONNECTION_LOST):
        return DatabaseUnavailableError(
            f"{label} cannot be reached (the connection was lost); your last change may not "
            "have been saved. Check the network or the server, then try again."
        )
    if "readonly" in lowered or "read-only" in lowered:
        return ReadOnlyDatabaseError(
            f"{label} is read-only; nothing was saved. Check the file's permissions."
        )
    if ("disk" in lowered and "full" in lowered) or "no space left" in lowered:
        return DiskFullError(
            f"{label}: the disk is full; nothing was saved. Free some space and repeat the "
            "last command."
        )
    return StoreError(f"{label}: the database refused the change ({text}).")
