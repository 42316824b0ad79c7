"""A client-side deadline on every call to a PostgreSQL server, which fires even when the
server's process is frozen.

The server's own timeouts (``statement_timeout``, ``lock_timeout``) are kept by the server
process: one that is stopped (SIGSTOP, a debugger, a VM paused) with its socket open keeps
none of them, and its kernel still acknowledges what is sent, so TCP timeouts never fire
either. A save then waited without end. Every wait of a connection for the server goes
through :meth:`DeadlineConnection.wait`; past the deadline it closes the connection (its state
is unknown: the server may still commit what it was sent) and raises an OperationalError that
the store words as "did not answer" (:func:`core.store.unit_of_work.database_error`). The
pool then drops the connection; the next call opens a new one.

Connecting has its own limit (``connect_timeout``). Only this module imports psycopg, and only
when a server database is opened.
"""

from __future__ import annotations

from typing import Any

import psycopg

DEADLINE_WORDS = "combatdesk deadline"
"""Marks the error this module raises, for the store's wording."""


class DeadlineConnection(psycopg.Connection[Any]):
    """A psycopg connection whose every wait for the server ends after ``deadline`` seconds."""

    deadline: float = 25.0

    def wait(self, gen: Any, interval: float = 0.1, timeout: float | None = None) -> Any:
        try:
            return super().wait(gen, interval, self.deadline if timeout is None else timeout)
        except psycopg.OperationalError as exc:
            if type(exc).__name__ != "_WaitTimeout":
                raise
            self.pgconn.finish()  # unknown state: never used again (the pool drops it)
            raise psycopg.OperationalError(
                f"{DEADLINE_WORDS}: no answer within {self.deadline:g} seconds"
            ) from None


def connector(deadline: float) -> Any:
    """Gets an SQLAlchemy ``do_connect`` listener that opens deadline-bound connections."""

    def connect(_dialect: Any, _record: Any, cargs: Any, cparams: Any) -> Any:
        conn = DeadlineConnection.connect(*cargs, **cparams)
        conn.deadline = deadline
        return conn

    return connect
