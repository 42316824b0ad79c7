"""Reliability fixtures: the same PostgreSQL test server as tests/store.

The figures the tests count are printed by tests/conftest.py.
"""

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.store.conftest import BACKENDS, fresh_database


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from fresh_database(request.param, tmp_path)

