"""Where a campaign database is: its address checked, named in messages, and waited on.

A mistyped address gets a sentence, not a traceback; a URL is shown without its password; a
server gets libpq timeouts so that nothing waits on it without end, and the app knows about
how long one call may wait (its progress message).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.store.errors import StoreError
from core.store.opening import sqlite_path

SERVER_CONNECT_TIMEOUT = 8
"""Seconds to reach a database server (and finish its greeting) before giving up."""
SERVER_STATEMENT_TIMEOUT = 20
"""Seconds one statement may run on the server (the app's statements take milliseconds)."""
SERVER_CALL_DEADLINE = SERVER_STATEMENT_TIMEOUT + 5
"""Seconds the client waits for any one answer of a server before it closes the connection
(:mod:`core.store.deadline`): the server's own timeouts do not fire when its process is frozen."""


def default_database_url() -> str:
    """Gets the URL of the DM's own campaign file in the platform's user data folder."""
    from platformdirs import user_data_dir  # only the default path needs it

    folder = Path(user_data_dir("CombatDesk", appauthor=False))
    return f"sqlite:///{folder / 'campaigns.sqlite'}"


def checked_address(url: str) -> Path | None:
    """Gets the SQLite file of ``url`` (None for a server), refusing addresses that cannot work.

    A mistyped address gets a sentence, not a traceback: a port that is not a number, a kind of
    database Combat Desk does not use, a folder where a campaign file should be.
    """
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url)
        port = parsed.port  # parsing the port is lazy: a typo shows here
    except (ArgumentError, ValueError):
        raise StoreError(
            "That database address is not one Combat Desk understands; write "
            "sqlite:///path/to/campaign.sqlite or postgresql+psycopg://user@host:5432/name "
            "(the port is a number)."
        ) from None
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise StoreError(
            f"Combat Desk keeps campaigns in SQLite files or on a PostgreSQL server, not in "
            f"'{backend}' databases."
        )
    if port is not None and not 0 < port < 65536:
        raise StoreError(f"{port} is not a network port (1 to 65535).")
    path = sqlite_path(url)
    if path is not None and path.is_dir():
        raise StoreError(f"{path} is a folder; give the campaign file inside it instead.")
    return path


def safe_label(url: str) -> str:
    """Gets ``url`` without its password for messages, or "the database" if it cannot."""
    try:
        return make_safe(url)
    except Exception:
        return "the database"


def make_safe(url: str) -> str:
    """Gets a URL with its password hidden, for messages."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def server_timeouts(url: str, lock_timeout: float) -> dict[str, Any]:
    """Gets libpq settings so that nothing waits on a server without end.

    A server that does not answer (packets dropped), a frozen backend and a row lock held by
    another client each hung the app before; now the connection, each statement and each lock
    wait give up with a message. The URL's own settings win over these defaults.
    """
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if not parsed.drivername.startswith("postgresql"):
        return {}
    lock_ms = max(int(lock_timeout * 1000), 1)
    settings: dict[str, Any] = {
        "connect_timeout": SERVER_CONNECT_TIMEOUT,
        # Sent data unacknowledged this long means the server is gone (Linux, libpq ≥ 12).
        "tcp_user_timeout": SERVER_STATEMENT_TIMEOUT * 1000,
        "keepalives": 1, "keepalives_idle": 10, "keepalives_interval": 5, "keepalives_count": 3,
        "options": (f"-c statement_timeout={SERVER_STATEMENT_TIMEOUT * 1000} "
                    f"-c lock_timeout={lock_ms} -c idle_in_transaction_session_timeout=60000"),
    }
    return {k: v for k, v in settings.items() if k not in parsed.query}


def server_wait_limit(url: str, lock_timeout: float,
                      deadline: float = SERVER_CALL_DEADLINE) -> float:
    """Gets about how long one call can wait on a server: reaching it, then one answer
    (``lock_timeout`` and the statement timeout end sooner on a server that answers)."""
    from sqlalchemy.engine import make_url

    query = make_url(url).query
    try:
        connect = float(str(query.get("connect_timeout", SERVER_CONNECT_TIMEOUT)))
    except ValueError:
        connect = SERVER_CONNECT_TIMEOUT
    # The deadline bounds every wait for an answer, the server's own timeouts included (they
    # end sooner when the server is alive; a frozen one keeps none of them).
    return connect + deadline
