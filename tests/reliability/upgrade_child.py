"""A child process that opens (and so upgrades) a campaign and dies at statement N.

``python -m tests.reliability.upgrade_child FILE|URL N``: counts every SQL statement the store sends
and calls ``os._exit`` just before the N-th, as a crash or power cut would stop it — no
rollback, no close. With N = 0 it upgrades fully and prints how many statements that took.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine

from core.store import Store


def main() -> None:
    path, stop_at = sys.argv[1], int(sys.argv[2])
    seen = 0

    def count(*_args: Any) -> None:
        nonlocal seen
        seen += 1
        if seen == stop_at:
            os._exit(9)

    event.listen(Engine, "before_cursor_execute", count)
    Store.open(path if "://" in path else f"sqlite:///{path}").close()
    print(seen)


if __name__ == "__main__":
    main()
