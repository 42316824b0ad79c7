"""The process the kill tests SIGKILL: appends commands forever, printing each committed number.

``python -m tests.reliability.append_child URL ENCOUNTER_ID SEED [COUNT]``, then ``go`` on
stdin; COUNT stops it after that many commands (the concurrency tests). Each command holds 1–6
events and every event says how many its command has, so a reader can tell a whole command
from a partial one. A line is printed (and flushed) only after ``append_command`` returned,
i.e. after the commit.
"""

from __future__ import annotations

import random
import sys

from core.fight.log import Command, Event, EventKind
from core.store import Store


def command(rng: random.Random, number: int) -> Command:
    size = rng.randint(1, 6)
    events = tuple(
        Event(EventKind.HP_CHANGED, {"id": f"orc-{number}", "delta": -i, "of": size})
        for i in range(size)
    )
    return Command(f"Hit {number}", events)


def main(url: str, encounter_id: int, seed: int, count: int | None = None) -> None:
    rng = random.Random(seed)
    print("ready", flush=True)  # imported; the test starts us ahead of time and says go
    if sys.stdin.readline().strip() != "go":
        return
    store = Store.open(url)
    print("open", flush=True)
    number = 0
    while count is None or number < count:
        number += 1
        seq = store.commands.append(encounter_id, command(rng, number))
        print(seq, flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), *map(int, sys.argv[4:5]))
