"""Reliability fixtures: the same PostgreSQL test server as tests/store, and the figures line."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.reliability import figures
from tests.store.conftest import BACKENDS, fresh_database


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from fresh_database(request.param, tmp_path)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    found = figures.lines()
    if found:
        terminalreporter.write_sep("-", "reliability figures")
        for line in found:
            terminalreporter.write_line(line)
        terminalreporter.write_line(f"(also written to {figures.FILE})")
