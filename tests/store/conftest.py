from collections.abc import Iterator
from pathlib import Path

import pytest

from core.store import Store


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "campaign.sqlite"


@pytest.fixture
def store(db_path: Path) -> Iterator[Store]:
    s = Store.open(f"sqlite:///{db_path}")
    yield s
    s.close()
