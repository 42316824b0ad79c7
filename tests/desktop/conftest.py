from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from core.store import Store
from desktop.app import ensure_sample_campaign

FIXED_SEED = 20261127
"""The dice seed New Encounter offers in every test: a fight a test starts without typing a
seed rolls the same dice on every run (a random one let a morale die rout an orc one run in a
few dozen, and the test then missed him)."""


@pytest.fixture(autouse=True)
def _fixed_new_encounter_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    from desktop.encounter import start_dialog

    monkeypatch.setattr(start_dialog, "fresh_seed", lambda: FIXED_SEED)


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
