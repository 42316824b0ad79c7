"""Alembic environment: a connection handed over by core.store.migrate, or ``-x url=``."""

from alembic import context
from sqlalchemy import Connection, create_engine

from core.store.schema import Base

config = context.config
target_metadata = Base.metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",  # SQLite cannot ALTER most things
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


connection = config.attributes.get("connection")
if connection is not None:
    _run(connection)
else:
    url = context.get_x_argument(as_dictionary=True).get("url")
    if not url:
        raise SystemExit("pass the database with -x url=sqlite:///path/to/campaign.db")
    with create_engine(url).connect() as conn:
        _run(conn)
        conn.commit()
