"""Store fixtures: every test that takes ``db_url`` or ``store`` runs on SQLite and PostgreSQL."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.store import Store
from tests.store import pg_server

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "campaign.sqlite"


def fresh_database(backend: str, tmp_path: Path) -> Iterator[str]:
    """Yields the URL of an empty campaign database on ``backend``; skips what cannot run."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path / 'campaign.sqlite'}"
        return
    srv = pg_server.server()
    if srv.url is None:
        pytest.skip(f"PostgreSQL: {srv.why}")
    url = pg_server.new_database()
    try:
        yield url
    finally:
        pg_server.drop_database(url)


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from fresh_database(request.param, tmp_path)


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = Store.open(db_url)
    yield s
    s.close()

