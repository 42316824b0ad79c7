"""One fight per system for the players' screen tests, the benchmark and the screenshots.

Each has monsters with HP, AC, morale, hit dice, notes and XP the players must never read,
a creature the DM hides ("Lurking Assassin") that acts, and an attack still waiting for its
outcome at the end (mid-round).
"""

from __future__ import annotations

from typing import Any

HIDDEN_ID = "assassin"
HIDDEN_NAME = "Lurking Assassin"
SECRETS = ("71", "65", "78", "74", "54", "-6", "9d8", "vault key", "1234", "morale", "Morale",
           "AC ", "Lurking", "Assassin", "assassin", "roster-", "orc-chief")
"""Texts that must never show on the players' screen: monster HP (start and after damage),
AC, hit dice, notes, XP, the word morale, the hidden creature's name and any id."""


def _party(extra: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    spells = [{"name": "sleep", "level": 1, "casting_time": 2}]
    return [
        {"id": "garrick", "name": "Garrick", "side": "party", "kind": "pc", "hp": 12,
         "max_hp": 12, "dex": 12, "weapons": [{"name": "long sword", "speed_factor": 5}],
         **(extra or {})},
        {"id": "halvaine", "name": "Halvaine", "side": "party", "kind": "pc", "hp": 9,
         "max_hp": 9, "dex": 12, "spells": spells},
        {"id": "brother-tam", "name": "Brother Tam", "side": "party", "kind": "henchman",
         "hp": 8, "max_hp": 8, "dex": 12, "weapons": [{"name": "mace", "speed_factor": 7}]},
    ]


def _monsters() -> list[dict[str, Any]]:
    secret = {"kind": "monster", "ac": -6, "morale": 11, "notes": "carries the vault key",
              "xp": 1234, "hit_dice": "9d8+3", "dex": 10}
    return [
        {"id": "orc-chief", "name": "Orc Chief", "side": "monsters", "hp": 71, "max_hp": 71,
         "weapons": [{"name": "axe", "speed_factor": 7}], **secret},
        {"id": "orc-2", "name": "Orc Guard", "side": "monsters", "hp": 78, "max_hp": 78,
         **secret},
        {"id": HIDDEN_ID, "name": HIDDEN_NAME, "side": "monsters", "hp": 54, "max_hp": 54,
         **secret},
    ]


SIDE_D6: dict[str, Any] = {
    "format": "combatdesk/scenario-1", "system": "side-d6", "seed": 7,
    "combatants": [*_party(), *_monsters()],
    "rounds": [
        {"initiative": {"party": 5, "monsters": 3},
         "declarations": [
             {"actor": "garrick", "action": "attack", "target": "orc-chief", "hit": True,
              "damage": 6},
             {"actor": "halvaine", "action": "spell", "spell": "sleep", "target": "orc-2"},
             {"actor": "orc-chief", "action": "attack", "target": "garrick", "hit": True,
              "damage": 3},
             {"actor": HIDDEN_ID, "action": "attack", "target": "brother-tam", "hit": True,
              "damage": 2},
         ]},
        {"initiative": {"party": 2, "monsters": 4},
         "declarations": [
             {"actor": "garrick", "action": "attack", "target": "orc-2", "hit": True,
              "damage": 4},
             {"actor": "orc-chief", "action": "attack", "target": "halvaine"},
             {"actor": "brother-tam", "action": "attack", "target": "orc-chief"},
         ]},
    ],
}

ADDICT: dict[str, Any] = {
    "format": "combatdesk/scenario-1", "system": "addict", "seed": 11,
    "surprise": {"party": 2, "monsters": 5},
    "combatants": [*_party(), *_monsters()],
    "rounds": [
        {"surprise": True,
         "declarations": [
             {"actor": HIDDEN_ID, "action": "G", "target": "halvaine", "segment": 1,
              "hit": True, "damage": 2},
             {"actor": "orc-chief", "action": "G", "target": "garrick", "segment": 2,
              "hit": False},
         ]},
        {"initiative": {"party": 6, "monsters": 1},
         "declarations": [
             {"actor": "garrick", "action": "G", "target": "orc-chief", "hit": True,
              "damage": 6},
             {"actor": "brother-tam", "action": "G", "target": "orc-2", "hit": True,
              "damage": 4},
             {"actor": "orc-2", "action": "G", "target": "brother-tam"},
         ]},
    ],
}

POPCORN: dict[str, Any] = {
    "format": "combatdesk/scenario-1", "system": "popcorn", "seed": 3,
    "combatants": [*_party(), *_monsters()],
    "initiative": {"garrick": 18, "orc-chief": 14, HIDDEN_ID: 12, "halvaine": 9,
                   "brother-tam": 6, "orc-2": 4},
    "rounds": [
        {"turns": [
            {"actor": "garrick", "action": "attack", "target": "orc-chief", "hit": True,
             "damage": 6, "nominates": HIDDEN_ID},
            {"actor": HIDDEN_ID, "action": "attack", "target": "halvaine", "hit": True,
             "damage": 2, "nominates": "orc-2"},
            {"actor": "orc-2", "action": "attack", "target": "brother-tam", "hit": False,
             "nominates": "halvaine"},
            {"actor": "halvaine", "action": "spell", "spell": "sleep", "target": "orc-2",
             "effect": {"name": "asleep", "duration": 2, "target": "orc-2"},
             "nominates": "orc-chief"},
            {"actor": "orc-chief", "action": "attack", "target": "garrick"},
        ]},
    ],
}

TIME_UNITS: dict[str, Any] = {
    "format": "combatdesk/scenario-1", "system": "time-units", "seed": 5,
    "combatants": [*_party(), *_monsters()],
    "actions": [
        {"actor": "garrick", "action": "melee", "target": "orc-chief", "roll": 2, "hit": True,
         "damage": 6},
        {"actor": "halvaine", "action": "spell", "spell": "sleep", "target": "orc-2",
         "roll": 3, "effect": {"name": "asleep", "duration": 2, "target": "orc-2"}},
        {"actor": HIDDEN_ID, "action": "melee", "target": "brother-tam", "roll": 4,
         "hit": True, "damage": 2},
        {"actor": "orc-chief", "action": "melee", "target": "garrick", "roll": 6},
        {"actor": "brother-tam", "action": "melee", "target": "orc-chief", "roll": 9},
    ],
}

FIGHTS: dict[str, dict[str, Any]] = {
    "addict": ADDICT, "side-d6": SIDE_D6, "popcorn": POPCORN, "time-units": TIME_UNITS}
