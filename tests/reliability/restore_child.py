"""A child process that restores a backup over a campaign and dies before SQL statement N.

``python -m tests.reliability.restore_child BACKUP TARGET N``: every sqlite3 connection the
restore opens counts its statements; before the N-th the process ends with ``os._exit`` (no
rollback, no close), as a crash would. N = 0 runs the whole restore and prints the count.
"""

from __future__ import annotations

import os
import sqlite3
import sys
from pathlib import Path
from typing import Any

from core.store import backups


def main() -> None:
    backup, target, stop_at = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    seen = 0
    real_connect = sqlite3.connect

    def count(_statement: str) -> None:
        nonlocal seen
        seen += 1
        if seen == stop_at:
            os._exit(9)

    def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn = real_connect(*args, **kwargs)
        conn.set_trace_callback(count)
        return conn

    backups.sqlite3.connect = connect  # type: ignore[assignment]
    backups.restore_backup(backup, target)
    print(seen)


if __name__ == "__main__":
    main()
