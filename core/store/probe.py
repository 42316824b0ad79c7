"""Testing a database URL without changing it (the settings dialog's "Test connection")."""

from __future__ import annotations

from sqlalchemy import create_engine
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from core.store.addresses import checked_address
from core.store.errors import StoreError
from core.store.opening import Verdict, inspect_connection, inspect_sqlite_file, sqlite_path

_VERDICTS = {
    Verdict.CREATE: "it is empty; Combat Desk will create a campaign database there",
    Verdict.UPGRADE: "it is a campaign from an older version; it will be backed up and upgraded",
    Verdict.CURRENT: "it is a Combat Desk campaign, ready to use",
}


def _in_words(url: URL) -> str:
    """Names a server's database as a DM reads it: "database 'greyhawk' on db.example:5432"."""
    if url.get_backend_name() == "sqlite":
        return url.database or "memory"
    where = f"{url.host or 'this computer'}:{url.port or 5432}"
    who = f" as {url.username}" if url.username else ""
    return f"database '{url.database or ''}' on {where}{who}"


def probe(url: str, timeout: int = 5) -> str:
    """Connects to ``url`` read-only and says what opening it would do; raises StoreError."""
    checked_address(url)  # a port that is not a number, a folder…: a sentence, not a traceback
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise StoreError(f"That is not a database URL: {exc}") from None
    label = _in_words(parsed)
    path = sqlite_path(url)
    if path is not None:
        return f"{path}: {_VERDICTS[inspect_sqlite_file(path).verdict]}."
    if parsed.get_backend_name() == "sqlite":
        raise StoreError("That SQLite address names no file: a campaign kept in memory is gone "
                         "when Combat Desk closes. Choose a campaign file.")
    args = {"connect_timeout": timeout} if parsed.get_backend_name() == "postgresql" else {}
    try:
        engine = create_engine(parsed, connect_args=args)
    except (SQLAlchemyError, ImportError) as exc:
        raise StoreError(f"Combat Desk cannot use {label}: {exc}") from None
    try:
        with engine.connect() as conn:
            verdict = inspect_connection(conn, label).verdict
    except SQLAlchemyError as exc:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        raise StoreError(f"Cannot connect to {label}: {reason}") from None
    finally:
        engine.dispose()
    return f"Connected to {label}: {_VERDICTS[verdict]}."
