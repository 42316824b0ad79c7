"""Ability-score adjustment tables the systems derive missing adjustments from."""

from __future__ import annotations


def adnd_dex_reaction(dex: int) -> int:
    """Gets the AD&D 1e (PHB) Dexterity reaction/attacking adjustment.

    The same number is the surprise adjustment and the missile to-hit bonus.
    """
    if dex <= 3:
        return -3
    if dex <= 5:
        return dex - 6  # 4 → -2, 5 → -1
    if dex <= 15:
        return 0
    return min(dex, 18) - 15  # 16 → +1, 17 → +2, 18 → +3


def bx_modifier(score: int) -> int:
    """Gets the B/X, OSE and Labyrinth Lord ability modifier (3: -3 … 18: +3)."""
    if score <= 3:
        return -3
    if score <= 5:
        return -2
    if score <= 8:
        return -1
    if score <= 12:
        return 0
    if score <= 15:
        return 1
    if score <= 17:
        return 2
    return 3


def bx_initiative_modifier(dex: int) -> int:
    """Gets the OSE / Labyrinth Lord DEX initiative modifier (3: -2 … 18: +2)."""
    if dex <= 3:
        return -2
    if dex <= 8:
        return -1
    if dex <= 12:
        return 0
    if dex <= 17:
        return 1
    return 2
