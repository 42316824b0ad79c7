"""A mistyped database address gets a sentence for the DM, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.store import Store, StoreError


@pytest.mark.parametrize(("url", "message"), [
    ("postgresql+psycopg://dm@localhost:abc/campaigns", "the port is a number"),
    ("postgresql+psycopg://dm@localhost:99999/campaigns", "not a network port"),
    ("foo://bar", "not in 'foo' databases"),
    ("mysql://dm@localhost/campaigns", "not in 'mysql' databases"),
    ("not an address at all", "not one Combat Desk understands"),
])
def test_a_malformed_address_is_refused_with_a_message(url: str, message: str) -> None:
    with pytest.raises(StoreError, match=message):
        Store.open(url)


def test_a_folder_given_as_the_campaign_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="is a folder"):
        Store.open(f"sqlite:///{tmp_path}")
    assert list(tmp_path.iterdir()) == []
