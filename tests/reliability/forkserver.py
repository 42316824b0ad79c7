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
``ready``, then reads one JSON request a line and answers each with one JSON line: ``run`` (a
child to its end: returncode, stdout, stderr), ``spawn`` (a child left running, its streams on
named pipes the test made: its pid, which the test may SIGKILL) and ``wait`` (a spawned child's
returncode).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import runpy
import shutil
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
        answer = self._ask({"op": "run", "module": module, "args": list(args),
                            "timeout": timeout})  # fmt: skip
        if answer.get("timeout"):
            raise subprocess.TimeoutExpired([module, *args], timeout, answer["stdout"],
                                            answer["stderr"])  # fmt: skip
        return subprocess.CompletedProcess([module, *args], answer["returncode"],
                                           answer["stdout"], answer["stderr"])  # fmt: skip

    def spawn(self, module: str, *args: str) -> Forked:
        """Starts ``python -m module args…`` as a forked child and returns at once, with pipes
        to its standard streams (as ``subprocess.Popen`` with PIPEs and text=True)."""
        folder = Path(tempfile.mkdtemp(prefix="combatdesk-forked-"))
        streams = {name: str(folder / name) for name in ("stdin", "stdout", "stderr")}
        for path in streams.values():
            os.mkfifo(path)
        pid = int(self._ask({"op": "spawn", "module": module, "args": list(args), **streams})
                  ["pid"])  # fmt: skip
        return Forked(self, pid, folder)

    def wait(self, pid: int, timeout: float) -> int:
        """Waits for a spawned child (past ``timeout``: kills it, TimeoutExpired)."""
        answer = self._ask({"op": "wait", "pid": pid, "timeout": timeout})
        if answer.get("timeout"):
            raise subprocess.TimeoutExpired(str(pid), timeout)
        return int(answer["returncode"])

    def _ask(self, request: dict[str, Any]) -> dict[str, Any]:
        process = self._process
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(json.dumps(request) + "\n")
        process.stdin.flush()
        line = process.stdout.readline()
        if not line:
            raise RuntimeError(f"the fork server ended (exit status {process.wait()})")
        answer: dict[str, Any] = json.loads(line)
        return answer

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


class Forked:
    """A child started by :meth:`ForkServer.spawn`: what the kill tests use of ``Popen``."""

    def __init__(self, server: ForkServer, pid: int, folder: Path) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._server = server
        self._folder = folder
        # Opened in the child's order (each open waits for the other end): no deadlock.
        self.stdin: IO[str] | None = open(folder / "stdin", "w")  # noqa: SIM115
        self.stdout: IO[str] | None = open(folder / "stdout")  # noqa: SIM115
        self.stderr: IO[str] | None = open(folder / "stderr")  # noqa: SIM115

    def send_signal(self, signum: int) -> None:
        if self.returncode is None:  # not reaped yet: the pid is still this child's
            os.kill(self.pid, signum)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def wait(self, timeout: float = 120) -> int:
        if self.returncode is None:
            self.returncode = self._server.wait(self.pid, timeout)
            for stream in (self.stdin, self.stdout, self.stderr):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()
            shutil.rmtree(self._folder, ignore_errors=True)
        return self.returncode


# --- the server -----------------------------------------------------------------------------


def _child(module: str, args: list[str], stdin: int, stdout: int, stderr: int) -> None:
    """In the forked child: the standard streams become its own, then ``python -m`` runs."""
    try:
        os.dup2(stdin, 0)
        os.dup2(stdout, 1)
        os.dup2(stderr, 2)
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


def _fork() -> int:
    sys.stdout.flush()
    sys.stderr.flush()
    return os.fork()


def _serve(request: dict[str, Any]) -> dict[str, Any]:
    if request["op"] == "spawn":  # streams on the test's named pipes; answers at once
        pid = _fork()
        if pid == 0:
            stdin = os.open(request["stdin"], os.O_RDONLY)
            stdout = os.open(request["stdout"], os.O_WRONLY)
            stderr = os.open(request["stderr"], os.O_WRONLY)
            _child(request["module"], request["args"], stdin, stdout, stderr)
        return {"pid": pid}
    if request["op"] == "wait":
        returncode, timed_out = _wait(int(request["pid"]), float(request["timeout"]))
        return {"returncode": returncode, "timeout": timed_out}
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        pid = _fork()
        if pid == 0:
            _child(request["module"], request["args"], os.open(os.devnull, os.O_RDONLY),
                   out.fileno(), err.fileno())  # fmt: skip
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
