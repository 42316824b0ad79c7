"""Test configuration for every test process (one, or each pytest-xdist worker and its controller).

- Qt runs offscreen unless a developer asks for a real display.
- Each process keeps the app's data folder (XDG_DATA_HOME) in a temporary folder of its own.
- After each test, the widgets it closed are deleted (with the dialogs they own and their
  timers), so no window or timer of one test lives on into the next.
- The summary sections "campaign store backends" and "reliability figures" are printed once, by
  the process that prints the summary, from what every worker counted.
- ``--replay-order FILE`` runs exactly the tests listed in FILE, in that order: a failing run
  writes one such file per worker (it says where) to replay what that worker ran.
- A worker that crashes (a segmentation fault in Qt, say) reports nothing itself; each worker
  therefore writes the tests it starts, and Python's fault handler its stacks, to files the
  summary prints from ("a crashed worker").
"""

from __future__ import annotations

import faulthandler
import gc
import json
import os
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

# Set before any Qt import so that CI (no display) and developers get the same platform.
# Export QT_QPA_PLATFORM=xcb yourself to watch the tests on a real (or Xvfb) screen.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The app keeps a few files in the user's data folder (which Combat Desks run, for leases):
# the tests' go to a folder of their own (one per test process, so per xdist worker), shared
# with the apps they start as child processes.
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="combatdesk-tests-data-")

REPORT_KEY = "combatdesk"
"""The key of what a worker counted in xdist's workeroutput."""


# --- Qt: nothing one test shows or starts reaches the next ----------------------------------------


def _drop_qt_leftovers(used_qt: bool) -> None:
    """Deletes the widgets the test closed (pytest-qt calls deleteLater on them), now.

    A deferred delete posted outside any event loop waits for one: the closed main windows
    lived on, with their timers (lease heartbeats, watchers) running against old stores, until
    some later test's store call or qtbot wait happened to run an event loop, and they were
    deleted in the middle of that test. The dialogs a test left open go with their window.
    (The top-level widgets are not walked here: PySide can hand back a stale wrapper for one
    of Qt's own that was deleted, and touching it crashes the process.)
    """
    widgets = sys.modules.get("PySide6.QtWidgets")
    if widgets is None:
        return
    app = widgets.QApplication.instance()
    if app is None:
        return
    from PySide6.QtCore import QCoreApplication, QEvent

    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    app.processEvents()
    if not used_qt:
        return
    # What a Qt test left in reference cycles (Qt wrappers among them) is collected here, on
    # the main thread, before the next test starts. (A store call's worker thread never
    # collects: desktop/store_call.py. The crashes in a later window's constructor came from
    # the application's screen held by our widgets: desktop/screens.py.) Only after Qt
    # tests, and what survives is frozen
    # (left to reference counting): a full collection after every test, each scanning all that
    # earlier tests kept, doubled the suite's time.
    gc.collect()
    gc.freeze()


def _used_qt(item: pytest.Item) -> bool:
    names = set(getattr(item, "fixturenames", ()))
    return bool(names & {"qtbot", "qapp"}) or "/desktop/" in item.nodeid or \
        item.nodeid.startswith("tests/desktop/")


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    result = yield  # pytest-qt's teardown (closing the test's widgets) and the fixtures' first
    _drop_qt_leftovers(_used_qt(item))
    return result


# --- order: replaying what one worker ran --------------------------------------------------------


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--replay-order", metavar="FILE", default=None,
        help="run exactly the test ids listed in FILE (one a line), in that order",
    )  # fmt: skip


@pytest.hookimpl(trylast=True)  # after pytest-random-order has shuffled
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    listed = config.getoption("--replay-order")
    if not listed:
        _spread_slow(config, items)
        return
    wanted = [line.strip() for line in Path(listed).read_text().splitlines() if line.strip()]
    by_id = {item.nodeid: item for item in items}
    missing = [nodeid for nodeid in wanted if nodeid not in by_id]
    if missing:
        raise pytest.UsageError(f"--replay-order: not collected: {missing[:5]}")
    keep = {*wanted}
    config.hook.pytest_deselected(items=[item for item in items if item.nodeid not in keep])
    items[:] = [by_id[nodeid] for nodeid in wanted]


_ran: list[str] = []
"""The test ids this process ran, in order."""
_failed: set[str] = set()
_crashed: dict[str, str] = {}
"""On the xdist controller: the crashed workers, by id, with the test each was running."""


# --- a crashed worker: what it ran and where it died ----------------------------------------------

CRASH_DIR = "COMBATDESK_TEST_CRASH_DIR"
"""The folder (set by the controller, inherited by its workers) of the workers' crash files."""
CRASHED = re.compile(r"worker '(?P<worker>[^']+)' crashed while running '(?P<test>[^']+)'")
PLUMBING = re.compile(r"/(pluggy|_pytest|execnet|xdist)/")
_crash_files: list[Any] = []  # kept open for the fault handler, which writes to their descriptors


def _worker_id(config: pytest.Config) -> str | None:
    workerinput = getattr(config, "workerinput", None)
    return None if workerinput is None else str(workerinput["workerid"])


@pytest.hookimpl(trylast=True)  # after pytest's faulthandler plugin, which writes to stderr
def pytest_configure(config: pytest.Config) -> None:
    worker = _worker_id(config)
    if worker is None:
        os.environ.setdefault(CRASH_DIR, tempfile.mkdtemp(prefix="combatdesk-test-crashes-"))
        return
    folder = Path(os.environ.get(CRASH_DIR) or tempfile.mkdtemp(prefix="combatdesk-crash-"))
    faults = open(folder / f"{worker}.faults", "w")  # noqa: SIM115 (open while the worker lives)
    order = open(folder / f"{worker}.order", "w")  # noqa: SIM115
    _crash_files.extend([faults, order])
    faulthandler.enable(file=faults, all_threads=True)


def _note_started(nodeid: str) -> None:
    """Writes a started test's id to the worker's order file at once (a crash loses no line)."""
    if len(_crash_files) == 2:
        _crash_files[1].write(nodeid + "\n")
        _crash_files[1].flush()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "setup":
        _ran.append(report.nodeid)
    if report.failed:
        _failed.add(report.nodeid)
        found = CRASHED.search(str(report.longrepr))
        if found:
            _crashed[found["worker"]] = found["test"]


def pytest_runtest_logstart(nodeid: str, location: Any) -> None:
    _note_started(nodeid)


def _report_crashes(terminalreporter: pytest.TerminalReporter) -> None:
    folder = os.environ.get(CRASH_DIR)
    if not _crashed or not folder:
        return
    terminalreporter.write_sep("-", "a crashed worker")
    for worker, test in sorted(_crashed.items()):
        faults = Path(folder, f"{worker}.faults")
        order = Path(folder, f"{worker}.order")
        terminalreporter.write_line(f"{worker} crashed in {test}; what it ran, in order: {order}")
        terminalreporter.write_line(
            f"  replay alone: python -m pytest -p no:xdist --replay-order {order} tests")
        text = faults.read_text(errors="replace") if faults.exists() else ""
        terminalreporter.write_line("  its fault handler's stacks (innermost call first; pytest's "
                                    "own frames left out):")
        lines = [line for line in text.splitlines() if not PLUMBING.search(line)]
        for line in lines[:120] or ["  (none written)"]:
            terminalreporter.write_line("  " + line)


# --- the summary: PostgreSQL backends and reliability figures, summed over the workers -----------


def _local_report() -> dict[str, Any]:
    """What this process counted: its PostgreSQL server (if any), figures, tests run."""
    from tests.reliability import figures
    from tests.store import pg_server

    srv = pg_server._server
    return {
        "pg": None if srv is None else {"ran": srv.url is not None, "why": srv.why,
                                        "databases": srv.databases},
        "figures": dict(figures.FIGURES),
        "ran": list(_ran),
    }


_workers: dict[str, dict[str, Any]] = {}
"""On the xdist controller: each worker's report, by worker id."""


def pytest_sessionfinish(session: pytest.Session) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: the controller prints
        workeroutput[REPORT_KEY] = json.dumps(_local_report())


@pytest.hookimpl(optionalhook=True)  # an xdist hook: absent with -p no:xdist
def pytest_testnodedown(node: Any, error: Any) -> None:
    """xdist (controller): a worker finished; keeps what it counted."""
    output = getattr(node, "workeroutput", None) or {}
    if REPORT_KEY in output:
        worker = getattr(getattr(node, "gateway", None), "id", None) or f"gw{len(_workers)}"
        _workers[str(worker)] = json.loads(output[REPORT_KEY])


def _backend_line(servers: list[dict[str, Any]]) -> str:
    if not servers:
        return "PostgreSQL store suite: not run (no PostgreSQL test was selected)"
    skipped = [s["why"] for s in servers if not s["ran"]]
    if skipped:
        return f"PostgreSQL store suite: SKIPPED — {skipped[0]}"
    databases = sum(s["databases"] for s in servers)
    if len(servers) == 1:
        return f"PostgreSQL store suite: RAN on {servers[0]['why']}; {databases} test databases"
    return (f"PostgreSQL store suite: RAN on {servers[0]['why']}, and {len(servers) - 1} more "
            f"like it (one per test worker); {databases} test databases")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter,
                            config: pytest.Config) -> None:
    from tests.reliability import figures

    reports = dict(_workers) if _workers else {"": _local_report()}
    servers = [r["pg"] for r in reports.values() if r["pg"] is not None]
    terminalreporter.write_sep("-", "campaign store backends")
    terminalreporter.write_line(_backend_line(servers))

    counts: Counter[str] = Counter()
    for report in reports.values():
        counts.update(report["figures"])
    if counts:
        terminalreporter.write_sep("-", "reliability figures")
        for line in figures.lines(counts):
            terminalreporter.write_line(line)
        terminalreporter.write_line(f"(also written to {figures.write(counts)})")

    _report_crashes(terminalreporter)
    if _failed and _workers:
        folder = Path(tempfile.mkdtemp(prefix="combatdesk-test-order-"))
        terminalreporter.write_sep("-", "replaying a worker's order")
        for worker, report in sorted(reports.items()):
            if _failed & set(report["ran"]):
                path = folder / f"{worker}.txt"
                path.write_text("".join(f"{nodeid}\n" for nodeid in report["ran"]))
                terminalreporter.write_line(
                    f"{worker} ran {len(report['ran'])} tests; in the same order, alone: "
                    f"python -m pytest -p no:xdist --replay-order {path} tests")


# --- order: long tests first, spread over the workers ---------------------------------------------


def _spread_slow(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Puts the tests marked ``slow`` (the kill loops, …) at the head of each worker's share.

    xdist's worksteal hands each worker an equal run of the (shuffled) list and lets an idle
    one steal from the end of another's; a kill loop drawn last would keep one core busy
    alone at the end. Started first and dealt out in turn, the long tests run side by side
    while the short ones fill in. Their order among themselves, and everything else's, stays
    as shuffled.
    """
    workerinput = getattr(config, "workerinput", None)
    workers = int(workerinput["workercount"]) if workerinput else 1
    slow = [item for item in items if item.get_closest_marker("slow")]
    if workers < 2 or not slow:
        return
    rest = iter([item for item in items if not item.get_closest_marker("slow")])
    ordered: list[pytest.Item] = []
    remaining = len(items)
    for worker in range(workers):
        share = remaining // (workers - worker)  # as worksteal's first distribution counts
        remaining -= share
        head = slow[worker::workers]
        ordered += head
        ordered += [next(rest) for _ in range(max(share - len(head), 0))]
    ordered += list(rest)
    assert len(ordered) == len(items)
    items[:] = ordered
