"""A child process that backs a campaign up and dies before SQL statement N of the copy.

``python -m tests.reliability.backup_child CAMPAIGN TARGET N``: the store is opened first; then
every sqlite3 connection the backup opens counts its statements and, before the N-th, the
process ends with ``os._exit`` (no rollback, no close). N = 0 backs up fully and prints the
count.
"""

from __future__ import annotations

import os
import sqlite3
import sys
from pathlib import Path
from typing import Any

from core.store import Store, copies


def main() -> None:
    campaign, target, stop_at = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    store = Store.open(f"sqlite:///{campaign}")
    seen = 0
    real_connect = sqlite3.connect

    def count(_statement: str) -> None:
        nonlocal seen
        seen += 1
        if seen == stop_at:
            os._exit(9)

    class Counted(sqlite3.Connection):
        def backup(self, *args: Any, **kwargs: Any) -> None:
            count("backup")  # the page copy is one step, not a statement: a kill point
            super().backup(*args, **kwargs)
            count("backup done")

    def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn = real_connect(*args, factory=Counted, **kwargs)
        conn.set_trace_callback(count)
        return conn

    copies.sqlite3.connect = connect  # type: ignore[assignment]
    store.backup(target)
    print(seen)


if __name__ == "__main__":
    main()
