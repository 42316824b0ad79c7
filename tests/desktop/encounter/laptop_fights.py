"""Four fights mid-round, one per system, for the laptop layout test and the screenshots:
4 PCs against 8 monsters whose names are up to 24 characters long, some outcomes recorded,
the last blows still waiting for theirs."""

from __future__ import annotations

from typing import Any

PCS = ("Brannoc Stoutheart Elder", "Sister Ysolde of Arnmoor", "Kell Quickfinger Thorne",
       "Halvaine the Grey Magus")
MONSTERS = ("Hobgoblin Sergeant Krag", "Gnoll Packmaster Vurrgh", "Skeleton Spearman No. 3",
            "Giant Centipede Brood 14", "Orc Chieftain Grushnakk", "Kobold Trapmaster Yip",
            "Bugbear Ambusher Hruuk", "Lizardman Shaman Ssask")


def _ids(names: tuple[str, ...], prefix: str) -> list[str]:
    return [f"{prefix}-{n}" for n in range(1, len(names) + 1)]


PC_IDS = _ids(PCS, "pc")
MONSTER_IDS = _ids(MONSTERS, "m")


def fighters() -> list[dict[str, Any]]:
    party = [{"id": cid, "name": name, "side": "party", "kind": "pc", "hp": 30, "max_hp": 30,
              "dex": 12, "weapons": [{"name": "long sword", "speed_factor": 5}]}
             for cid, name in zip(PC_IDS, PCS, strict=True)]
    party[3]["spells"] = [{"name": "sleep", "level": 1, "casting_time": 1}]
    foes = [{"id": cid, "name": name, "side": "monsters", "kind": "monster", "hp": 20,
             "max_hp": 20, "ac": 6, "morale": 9, "dex": 10,
             "weapons": [{"name": "axe", "speed_factor": 7}]}
            for cid, name in zip(MONSTER_IDS, MONSTERS, strict=True)]
    return [*party, *foes]


def _pairs() -> list[tuple[str, str]]:
    """Each fighter's target: the PCs strike the first four monsters, every monster a PC."""
    pcs = list(zip(PC_IDS, MONSTER_IDS, strict=False))
    foes = [(m, PC_IDS[i % len(PC_IDS)]) for i, m in enumerate(MONSTER_IDS)]
    return pcs + foes


RECORDED = 5
"""How many blows of the round have their outcome; the rest wait (mid-round)."""


def _declarations(action: str) -> list[dict[str, Any]]:
    out = []
    for n, (actor, target) in enumerate(_pairs()):
        entry: dict[str, Any] = {"actor": actor, "action": action, "target": target}
        if n < RECORDED:
            entry.update(hit=n % 2 == 0, damage=3 if n % 2 == 0 else 0)
        out.append(entry)
    return out


def fight(system: str) -> dict[str, Any]:
    """Gets the scenario of a 12-fighter fight in ``system``, mid-round."""
    document: dict[str, Any] = {"format": "combatdesk/scenario-1", "system": system,
                                "seed": 4, "combatants": fighters()}
    if system == "addict":
        document["rounds"] = [{"initiative": {"party": 4, "monsters": 3},
                               "declarations": _declarations("G")}]
    elif system == "side-d6":
        document["rounds"] = [{"initiative": {"party": 5, "monsters": 2},
                               "declarations": _declarations("attack")}]
    elif system == "popcorn":
        order = [*PC_IDS, *MONSTER_IDS]
        document["initiative"] = {cid: 20 - i for i, cid in enumerate(order)}
        targets = dict(_pairs())
        turns = []
        # one more turn than the segment systems' blows: each turn is two steps (the blow,
        # the nomination), and the list is to hold at least twelve
        for i, cid in enumerate(order[:RECORDED + 2]):
            turn: dict[str, Any] = {"actor": cid, "action": "attack", "target": targets[cid]}
            if i < RECORDED + 1:
                turn.update(hit=i % 2 == 0, damage=3 if i % 2 == 0 else 0,
                            nominates=order[i + 1])
            turns.append(turn)
        document["rounds"] = [{"turns": turns}]
    else:
        targets = dict(_pairs())
        actions = []
        for n, cid in enumerate([*PC_IDS, *MONSTER_IDS]):
            entry: dict[str, Any] = {"actor": cid, "action": "melee", "target": targets[cid],
                                     "roll": 1 + n % 10}
            if n < RECORDED:
                entry.update(hit=n % 2 == 0, damage=3 if n % 2 == 0 else 0)
            actions.append(entry)
        document["actions"] = actions
    return document


SYSTEMS = ("addict", "side-d6", "popcorn", "time-units")
