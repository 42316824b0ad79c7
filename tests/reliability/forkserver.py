"""Child processes for the kill loops without a fresh interpreter and imports for each.

The kill loops run a child program (``tests.reliability.upgrade_child`` …) once per kill point,
and the child dies with ``os._exit`` in the middle of its work, as a crash or power cut would
stop it. Started as ``python -m …`` each time, most of every child's time went on starting
Python and importing SQLAlchemy, Alembic and the store (about a second each, 88 + 104 of them
for the upgrade loops). Here one server process imports those once and *forks* a child per run:
the child is a process of its own, with no connection or open file of the server's (the server
opens none) and its own standard streams, runs the program's ``__main__`` exactly as
``python -m`` would, and its exit status (``os._exit(9)``: 9; killed by a signal: minus it)
comes back as a :class:`subprocess.CompletedProcess` like ``subprocess.run`` gives.

``python -m tests.reliability.forkserver MODULE…`` is the server: it imports the MODULEs, prints
``ready``, then reads one JSON request a line (module, arguments, timeout) and answers each with
one JSON line (returncode, stdout, stderr).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import runpy
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[2]


class ForkServer:
    """The test's side: starts the server and runs children through it."""

    def __init__(self, *preload: str) -> None:
        self._process = subprocess.Popen(
            [sys.executable, "-m", "tests.reliability.forkserver", *preload],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert self._process.stdout is not None
        line = self._process.stdout.readline()
        if line.strip() != "ready":
            self.close()
            raise RuntimeError(f"the fork server did not start: {line!r}")

    def run(self, module: str, *args: str,
            timeout: float = 120) -> subprocess.CompletedProcess[str]:
        """Runs ``python -m module args…`` as a child forked from the server; waits for its end."""
        process = self._process
        assert process.stdin is not None and process.stdout is not None
        request = {"module": module, "args": list(args), "timeout": timeout}
        process.stdin.write(json.dumps(request) + "\n")
        process.stdin.flush()
        line = process.stdout.readline()
        if not line:
            raise RuntimeError(f"the fork server ended (exit status {process.wait()})")
        answer = json.loads(line)
        if answer.get("timeout"):
            raise subprocess.TimeoutExpired([module, *args], timeout, answer["stdout"],
                                            answer["stderr"])  # fmt: skip
        return subprocess.CompletedProcess([module, *args], answer["returncode"],
                                           answer["stdout"], answer["stderr"])  # fmt: skip

    def close(self) -> None:
        with contextlib.suppress(OSError):
            if self._process.stdin is not None:
                self._process.stdin.close()
        try:
            self._process.wait(30)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()

    def __enter__(self) -> ForkServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# --- the server -----------------------------------------------------------------------------


def _child(module: str, args: list[str], out: IO[str], err: IO[str]) -> None:
    """In the forked child: the standard streams become its own, then ``python -m`` runs."""
    try:
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.dup2(out.fileno(), 1)
        os.dup2(err.fileno(), 2)
        sys.stdin = open(0, closefd=False)  # noqa: SIM115 - the child's for its whole life
        sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", closefd=False)  # noqa: SIM115
        sys.argv = [module, *args]
        status = 0
        try:
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        except SystemExit as exc:
            code = exc.code
            status = code if isinstance(code, int) else (0 if code is None else 1)
            if not isinstance(code, int) and code is not None:
                print(code, file=sys.stderr)
        except BaseException:
            traceback.print_exc()
            status = 1
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    finally:
        os._exit(70)  # never back into the server's loop


def _wait(pid: int, timeout: float) -> tuple[int | None, bool]:
    """Waits for the child; past ``timeout`` kills it. Returns (returncode, timed out)."""
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status), False
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return None, True
        time.sleep(0.002)


def _serve(request: dict[str, Any]) -> dict[str, Any]:
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _child(request["module"], request["args"], out, err)
        returncode, timed_out = _wait(pid, float(request["timeout"]))
        out.seek(0)
        err.seek(0)
        return {"returncode": returncode, "timeout": timed_out, "stdout": out.read(),
                "stderr": err.read()}


def main() -> None:
    for module in sys.argv[1:]:
        importlib.import_module(module)
    answers = sys.stdout
    print("ready", file=answers, flush=True)
    for line in sys.stdin:
        answers.write(json.dumps(_serve(json.loads(line))) + "\n")
        answers.flush()


if __name__ == "__main__":
    main()
