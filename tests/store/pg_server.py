"""A throwaway PostgreSQL server for the store tests, or the one named by COMBATDESK_TEST_PG.

The same store tests run on SQLite and PostgreSQL. When COMBATDESK_TEST_PG is not given, this
starts a private server: Debian's postgresql package (installed with apt-get when missing and we
are root), ``initdb`` into a temporary folder as the ``postgres`` user, ``pg_ctl`` on a free
loopback port. It is stopped and deleted when the test process exits. Every test process (each
pytest-xdist worker) starts a server of its own, and every test gets a database of its own.
COMBATDESK_TEST_PG=skip turns PostgreSQL off on purpose; a server it names is shared by the
workers (database names are random, role names carry a per-test suffix).
"""

from __future__ import annotations

import atexit
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

import psycopg

ENV = "COMBATDESK_TEST_PG"


@dataclass
class Server:
    url: str | None = None
    """postgresql+psycopg://… of a maintenance database, or None when PostgreSQL is off."""
    why: str = ""
    """How the server came to be (or why there is none), for the test summary."""
    databases: int = 0


_server: Server | None = None


def _run(cmd: list[str], user: str | None = None, timeout: float = 300) -> str:
    if user is not None and os.geteuid() == 0:
        cmd = ["runuser", "-u", user, "--", *cmd]
    done = subprocess.run(
        cmd, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL
    )
    if done.returncode:
        raise RuntimeError(f"{' '.join(cmd)} failed: {done.stderr.strip()[-500:]}")
    return done.stdout


def _bin_dir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).resolve().parent if initdb else None


def _install() -> Path | None:
    """apt-get installs Debian's postgresql (root only); returns its bin folder."""
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        return None
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    base = ["apt-get", "install", "-y", "-q", "--no-install-recommends", "postgresql"]
    for attempt in (base, ["apt-get", "update", "-q"], base):
        subprocess.run(attempt, env=env, capture_output=True, timeout=600, check=False)
        if _bin_dir() is not None:
            break
    return _bin_dir()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _start() -> Server:
    given = os.environ.get(ENV, "").strip()
    if given.lower() in {"skip", "0", "off", "no"}:
        return Server(None, f"{ENV}={given} turned PostgreSQL off")
    if given:
        return Server(given, f"{ENV} given")
    bin_dir = _bin_dir()
    installed = False
    if bin_dir is None:
        bin_dir = _install()
        installed = bin_dir is not None
    if bin_dir is None:
        return Server(None, "no PostgreSQL server on this machine and not root to install it")
    user = "postgres" if os.geteuid() == 0 else None
    if user is not None:
        try:
            _run(["id", "postgres"])
        except RuntimeError:
            return Server(None, "PostgreSQL is installed but there is no postgres user")
    root = Path(tempfile.mkdtemp(prefix="combatdesk-pg-"))
    root.chmod(0o755)
    data = root / "data"
    data.mkdir()
    if user is not None:
        shutil.chown(root, user)
        shutil.chown(data, user)
    port = _free_port()
    try:
        _run([str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust",
              "-E", "UTF8", "--no-sync"], user)  # fmt: skip
        # fsync off: the kill tests kill the client, not the server; the server's own crash
        # safety is PostgreSQL's promise, and this keeps the suite quick on 2 cores.
        options = f"-p {port} -k {root} -h 127.0.0.1 -F -c max_connections=60"
        _run([str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options, "-l",
              str(root / "log"), "-w", "-t", "60", "start"], user, timeout=90)  # fmt: skip
    except (RuntimeError, subprocess.TimeoutExpired) as exc:
        shutil.rmtree(root, ignore_errors=True)
        return Server(None, f"the local PostgreSQL server did not start: {exc}")

    def stop() -> None:
        subprocess.run(
            [*(["runuser", "-u", user, "--"] if user else []), str(bin_dir / "pg_ctl"),
             "-D", str(data), "-m", "immediate", "-w", "stop"],
            capture_output=True, timeout=60, check=False,
        )  # fmt: skip
        shutil.rmtree(root, ignore_errors=True)

    atexit.register(stop)
    version = _run([str(bin_dir / "postgres"), "--version"]).strip()
    how = "installed with apt-get and started" if installed else "started"
    return Server(
        f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres",
        f"a throwaway local server ({version}) {how} on 127.0.0.1:{port}",
    )


def server() -> Server:
    """Gets the test server, starting it on first use (once per test process)."""
    global _server
    if _server is None:
        _server = _start()
    return _server


def _libpq(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def new_database(template: str | None = None) -> str:
    """Creates a database on the test server and returns its SQLAlchemy URL: empty, or a copy
    of ``template`` (the URL of another database of this server, with no one connected)."""
    srv = server()
    assert srv.url is not None
    name = f"cd_{uuid.uuid4().hex[:12]}"
    copy = f' TEMPLATE "{template.rpartition("/")[2]}"' if template else ""
    with psycopg.connect(_libpq(srv.url), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"{copy}')
    srv.databases += 1
    base, _, _ = srv.url.rpartition("/")
    return f"{base}/{name}"


def drop_database(url: str) -> None:
    """Drops a database made by :func:`new_database` (its connections are ended first)."""
    srv = server()
    assert srv.url is not None
    name = url.rpartition("/")[2]
    with psycopg.connect(_libpq(srv.url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
