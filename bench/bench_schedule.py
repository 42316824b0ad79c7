"""Time to schedule one round for 10, 100, 1,000 and 4,000 combatants, per system.

Run by hand: ``.venv/bin/python bench/bench_schedule.py [SYSTEM…]``. Prints the best of
several runs and the growth ratio 4,000 / 1,000 (target: at most 5×; 4× is linear). Asserts
nothing.

Each size is timed in a fresh process, and the sizes take turns (three passes over them): timed
one after the other in one process, the 4,000 run inherited the heap the smaller runs had
fragmented and the best of the 1,000 runs came from a quieter minute, which leaned the ratio
up by 10–15% from one run of the bench to the next (4.8–5.6× for the same code). The work
itself is counted, not timed, in ``tests/core/rules/growth.py``.
"""

from __future__ import annotations

import gc
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.model.dice import Roller
from core.model.scenario import parse_scenario
from core.rules import find_system

SIZES = (10, 100, 1_000, 4_000)


def _cast(n: int) -> list[dict[str, Any]]:
    half = n // 2
    return [
        {"id": f"p{i}", "side": "party", "hp": 30, "dex": 10 + i % 9,
         "weapons": [{"name": "sword", "speed_factor": 5, "length": 3.5}]}
        for i in range(half)
    ] + [
        {"id": f"m{i}", "side": "monsters", "hp": 30, "morale": 12,
         "weapons": [{"name": "club", "speed_factor": 4, "length": 3}]}
        for i in range(n - half)
    ]


def _foe(cid: str, n: int) -> str:
    half = n // 2
    i = int(cid[1:])
    return f"m{i % (n - half)}" if cid[0] == "p" else f"p{i % half}"


def segment_round(system: str, letter: str) -> Callable[[int], dict[str, Any]]:
    def make(n: int) -> dict[str, Any]:
        cast = _cast(n)
        decls = [
            {"actor": c["id"], "action": letter, "target": _foe(c["id"], n),
             "hit": i % 3 == 0, "damage": 2 if i % 3 == 0 else 0}
            for i, c in enumerate(cast)
        ]
        return {"system": system, "combatants": cast,
                "rounds": [{"initiative": {"party": 4, "monsters": 3}, "declarations": decls}]}
    return make


def popcorn_round(n: int) -> dict[str, Any]:
    cast = _cast(n)
    ids = [c["id"] for c in cast]
    initiative = {cid: 20 - (i % 20) for i, cid in enumerate(ids)}
    order = sorted(ids, key=lambda cid: -initiative[cid])
    turns = [
        {"actor": cid, "action": "attack", "target": _foe(cid, n), "hit": False,
         "nominates": order[i + 1] if i + 1 < len(order) else order[0]}
        for i, cid in enumerate(order)
    ]
    for c in cast:
        c.pop("morale", None)  # keep end-of-round morale dice out of the measurement
        c["initiative_adj"] = 0  # the d20 alone decides, so the order above is legal
    return {"system": "popcorn", "combatants": cast, "initiative": initiative,
            "rounds": [{"turns": turns}]}


def time_units_round(n: int) -> dict[str, Any]:
    cast = _cast(n)
    actions = [
        {"actor": c["id"], "action": "melee", "target": _foe(c["id"], n),
         "roll": 1 + i % 10, "hit": False}
        for i, c in enumerate(cast)
    ]
    return {"system": "time-units", "combatants": cast, "actions": actions}


MAKERS: dict[str, Callable[[int], dict[str, Any]]] = {
    "addict": segment_round("addict", "G"),
    "side-d6": segment_round("side-d6", "attack"),
    "popcorn": popcorn_round,
    "time-units": time_units_round,
}


def measure(system: str, n: int, repeats: int) -> float:
    scenario = parse_scenario(MAKERS[system](n))
    engine = find_system(system)
    times = []
    for _ in range(repeats):
        gc.collect()
        gc.disable()  # a collection landing in one run would swamp the growth ratio
        try:
            start = time.perf_counter()
            engine.resolve(scenario, Roller.seeded(1))
            times.append(time.perf_counter() - start)
        finally:
            gc.enable()
    return min(times)  # the least-disturbed run; medians still wobble ±15% here


PASSES = 3
"""Turns over the sizes; each size keeps its best time."""


def measure_apart(system: str, n: int) -> float:
    """Gets the best of 9 runs of ``system`` at ``n`` combatants, timed in a fresh process."""
    out = subprocess.run([sys.executable, __file__, "--one", system, str(n)], check=True,
                         capture_output=True, text=True).stdout
    return float(out)


def main(systems: list[str]) -> None:
    print(f"{'system':<11}" + "".join(f"{n:>12,}" for n in SIZES) + "   4000/1000")
    for system in systems:
        best = {n: float("inf") for n in SIZES}
        for _ in range(PASSES):
            for n in SIZES:
                best[n] = min(best[n], measure_apart(system, n))
        row = [best[n] for n in SIZES]
        cells = "".join(f"{t * 1000:>10.1f}ms" for t in row)
        print(f"{system:<11}{cells}   {row[-1] / row[-2]:>6.2f}×", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:
        print(measure(sys.argv[2], int(sys.argv[3]), 9))
    else:
        main(sys.argv[1:] or list(MAKERS))
