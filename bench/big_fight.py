"""Writes the 300-fighter encounter whose summary PDF the print benchmarks time.

``.venv/bin/python bench/big_fight.py big.json`` then
``time .venv/bin/python -m desktop --pdf out.pdf big.json`` (offscreen). 150 PCs against 150
monsters over three rounds of side-d6, every blow recorded: about 900 steps, a printout of
some hundred pages (the one issue 24 names: 38 s to print before the row-splitting attempt).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

PER_SIDE = 150
ROUNDS = 3


def big_fight() -> dict[str, Any]:
    party = [{"id": f"pc-{i}", "name": f"Hero of the Vale {i}", "side": "party", "hp": 60,
              "weapons": [{"name": "long sword", "speed_factor": 5}]} for i in range(PER_SIDE)]
    foes = [{"id": f"orc-{i}", "name": f"Orc of the Red Hand {i}", "side": "monsters",
             "hp": 60, "weapons": [{"name": "axe", "speed_factor": 7}]}
            for i in range(PER_SIDE)]
    rounds = []
    for n in range(ROUNDS):
        blows = [{"actor": f"pc-{i}", "action": "attack", "target": f"orc-{i}",
                  "hit": (i + n) % 3 != 0, "damage": 4} for i in range(PER_SIDE)]
        blows += [{"actor": f"orc-{i}", "action": "attack", "target": f"pc-{i}",
                   "hit": (i + n) % 2 == 0, "damage": 3} for i in range(PER_SIDE)]
        rounds.append({"initiative": {"party": 1 + n % 6, "monsters": 1 + (n + 3) % 6},
                       "declarations": blows})
    return {"format": "combatdesk/scenario-1", "system": "side-d6", "seed": 300,
            "combatants": [*party, *foes], "rounds": rounds}


if __name__ == "__main__":
    Path(sys.argv[1] if len(sys.argv) > 1 else "big.json").write_text(
        json.dumps(big_fight(), indent=1), encoding="utf-8")
