from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from core.store import Store
from desktop.app import ensure_sample_campaign


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    """Window settings in a temporary INI file, never the developer's own."""
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def sample_store(tmp_path: Path) -> Iterator[Store]:
    store = Store.open(f"sqlite:///{tmp_path / 'campaigns.sqlite'}")
    ensure_sample_campaign(store)
    yield store
    store.close()
