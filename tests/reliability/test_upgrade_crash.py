"""A schema upgrade killed at any statement leaves a campaign that opens, old or new, whole.

Before, each DDL statement of a migration committed on its own (Python's sqlite3 opens a
transaction only before DML): a crash mid-upgrade left a half-upgraded file that every later
start refused ("duplicate column name"), and the next attempt overwrote the pre-upgrade copy.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine

from core.store import Store
from core.store.migrate import alembic_config
from core.store.opening import APPLICATION_ID, HEAD_REVISION
from tests.reliability import figures, size
from tests.reliability.forkserver import ForkServer
from tests.store import pg_server


def old_campaign(path: Path) -> None:
    """Writes a real 0001 campaign (made by Alembic) holding one campaign and one PC."""
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0001")
        conn.exec_driver_sql(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.exec_driver_sql(
            "INSERT INTO campaigns (id, name, created_at) VALUES (1, 'Greyhawk', '2026-01-01')")
        conn.exec_driver_sql(
            "INSERT INTO characters (campaign_id, kind, name, side, status, char_class, race,"
            " attack_routines, attacks, weapons, spells, notes, version, updated_at) VALUES"
            " (1, 'pc', 'Brannoc', 'party', 'active', 'Fighter', 'Human', 1, 1, '[]', '[]',"
            " '', 1, '2026-01-01')")
    engine.dispose()


@pytest.fixture(scope="module")
def children() -> Iterator[ForkServer]:
    """Starts the upgrade children with SQLAlchemy, Alembic and the store already imported."""
    with ForkServer("tests.reliability.upgrade_child", "alembic.command") as server:
        yield server


def run_child(children: ForkServer, path: Path | str,
              stop_at: int) -> subprocess.CompletedProcess[str]:
    """Upgrades the campaign at ``path`` in a child process that dies before statement
    ``stop_at`` (0: upgrades fully and prints how many statements that took)."""
    return children.run("tests.reliability.upgrade_child", str(path), str(stop_at))


def revision(path: Path) -> str:
    conn = sqlite3.connect(path)
    try:
        return str(conn.execute("SELECT version_num FROM alembic_version").fetchone()[0])
    finally:
        conn.close()


@pytest.mark.slow
def test_an_upgrade_killed_at_every_statement_leaves_a_campaign_that_opens(
        tmp_path: Path, children: ForkServer) -> None:
    template = tmp_path / "old.sqlite"
    old_campaign(template)
    probe = tmp_path / "probe.sqlite"
    shutil.copy(template, probe)
    done = run_child(children, probe, 0)
    assert done.returncode == 0, done.stderr
    statements = int(done.stdout.split()[-1])
    assert revision(probe) == HEAD_REVISION

    killed = 0
    kill_points = size.points(statements)  # every statement unless COMBATDESK_RELIABILITY
    for stop_at in kill_points:
        path = tmp_path / f"kill-{stop_at}.sqlite"
        shutil.copy(template, path)
        child = run_child(children, path, stop_at)
        assert child.returncode in (0, 9), child.stderr
        killed += child.returncode == 9
        # The app starts again after the crash: the campaign opens, upgraded, data whole.
        store = Store.open(f"sqlite:///{path}")
        try:
            assert [c.name for c in store.campaigns.all()] == ["Greyhawk"]
            assert [e.name for e in store.roster.entries(1)] == ["Brannoc"]
        finally:
            store.close()
        assert revision(path) == HEAD_REVISION
        first_copy = path.with_name(f"{path.name}.before-{HEAD_REVISION}.bak")
        if first_copy.exists():  # written before the crash: still the untouched old file
            assert revision(first_copy) == "0001"
    assert killed >= len(kill_points) - 1  # at full size: statements - 1
    figures.add("upgrade statements killed at, each campaign reopened whole (sqlite)", killed)


def old_server_campaign(url: str) -> None:
    """Brings a fresh PostgreSQL database to schema 0001 holding one campaign and one PC."""
    engine = create_engine(url)
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0001")
        conn.exec_driver_sql(
            "INSERT INTO campaigns (id, name, created_at) VALUES (1, 'Greyhawk', now())")
        conn.exec_driver_sql(
            "INSERT INTO characters (campaign_id, kind, name, side, status, char_class, race,"
            " attack_routines, attacks, weapons, spells, notes, version, updated_at) VALUES"
            " (1, 'pc', 'Brannoc', 'party', 'active', 'Fighter', 'Human', 1, 1, '[]', '[]',"
            " '', 1, now())")
    engine.dispose()


def server_revision(url: str) -> str:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return str(conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar())
    finally:
        engine.dispose()


@pytest.mark.slow
def test_a_server_upgrade_killed_at_every_statement_leaves_a_campaign_that_opens(
        children: ForkServer) -> None:
    """PostgreSQL runs the whole upgrade in one transaction: a client that dies before COMMIT
    leaves the server at the old schema, and the next start upgrades it, data whole."""
    srv = pg_server.server()
    if srv.url is None:
        pytest.skip(f"PostgreSQL: {srv.why}")
    # The 0001 campaign is written once and copied by the server for each kill (CREATE
    # DATABASE … TEMPLATE): what is tested is the upgrade from it, not writing it again.
    template = pg_server.new_database()
    try:
        old_server_campaign(template)
        probe = pg_server.new_database(template)
        try:
            done = run_child(children, probe, 0)
            assert done.returncode == 0, done.stderr
            statements = int(done.stdout.split()[-1])
            assert server_revision(probe) == HEAD_REVISION
        finally:
            pg_server.drop_database(probe)
        killed, kill_points = _kill_server_upgrades(children, template, statements)
    finally:
        pg_server.drop_database(template)
    assert killed >= len(kill_points) - 1  # at full size: statements - 1
    figures.add("upgrade statements killed at, each campaign reopened whole (postgresql)", killed)


def _kill_server_upgrades(children: ForkServer, template: str,
                          statements: int) -> tuple[int, list[int]]:
    """Kills an upgrade of a copy of ``template`` before each statement; gets (killed, where)."""
    killed = 0
    kill_points = size.points(statements)  # every statement unless COMBATDESK_RELIABILITY
    for stop_at in kill_points:
        url = pg_server.new_database(template)
        try:
            assert server_revision(url) == "0001"  # the copy is the old campaign
            child = run_child(children, url, stop_at)
            assert child.returncode in (0, 9), child.stderr
            killed += child.returncode == 9
            if child.returncode == 9:
                assert server_revision(url) in ("0001", HEAD_REVISION)
            store = Store.open(url)  # the app starts again after the crash
            try:
                assert [c.name for c in store.campaigns.all()] == ["Greyhawk"]
                assert [e.name for e in store.roster.entries(1)] == ["Brannoc"]
            finally:
                store.close()
            assert server_revision(url) == HEAD_REVISION
        finally:
            pg_server.drop_database(url)
    return killed, kill_points
