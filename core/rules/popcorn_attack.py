"""The popcorn source's attack-roll rules, in words, for an attack as it is declared.

Source: shared/rules/popcorn-initiative-ose.md, "Attacking" (Attack Rolls, 1s and 20s,
Invulnerabilities), "Missile Attacks" (Range Modifiers, Targets Behind Cover) and "Movement"
(Retreat). The engine (``core.rules.popcorn``) refuses outcomes these rules forbid; this module
tells the DM, before the die is rolled, what modifies the roll, so the app can show it beside
the declaration form. Rule ids are those of the popcorn catalogue.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from core.model.scenario import Scenario, ScenarioError, declared_weapon
from core.rules.abilities import bx_modifier

R_ABILITY = "popcorn.attack.ability-modifier"
R_RANGE = "popcorn.attack.range-modifier"
R_PARTIAL = "popcorn.attack.partial-cover"
R_COVER = "popcorn.attack.range-and-cover"
R_NATURAL = "popcorn.attack.natural-1-and-20"
R_IMMUNE = "popcorn.attack.invulnerable"
R_RETREAT = "popcorn.move.retreat"

RANGE_BONUS: Mapping[str, int] = {"short": 1, "medium": 0, "long": -1}
"""Range Modifiers: short +1, medium nothing, long −1 (beyond: no attack)."""


@dataclass(frozen=True, slots=True)
class AttackNote:
    """One thing that bears on a declared attack roll."""

    text: str
    bonus: int | None
    """Fixed amount added to the d20, or None when the note is not a fixed number."""
    rule: str
    blocks: bool = False
    """True when the attack cannot be made or cannot hit at all."""


def cover_penalty(data: Mapping[str, Any], where: str) -> int | None:
    """Reads a turn's ``cover_penalty`` (−1 to −4, partial cover only); None when absent."""
    value = data.get("cover_penalty")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not -4 <= value <= -1:
        raise ScenarioError(where, f"partial cover costs −1 to −4, got {value!r}")
    if data.get("cover") != "partial":
        raise ScenarioError(where, "a cover penalty needs cover: partial")
    return value


def _ability(extra: Mapping[str, Any], *keys: str) -> int | None:
    for key in keys:
        value = extra.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def attack_notes(
    scenario: Scenario, turn: Mapping[str, Any], *, target_retreating: bool = False
) -> list[AttackNote]:
    """Gets the modifiers and limits of a declared popcorn attack, in words with names.

    ``turn`` holds the declaration's fields (``actor``, ``action`` attack or missile,
    ``target``, ``range``, ``cover``, ``cover_penalty``, ``immune``). ``target_retreating``
    tells whether the target retreated within the last round (the app knows from the log).
    """
    by_id = {c.id: c for c in scenario.combatants}
    actor = by_id.get(str(turn.get("actor")))
    if actor is None:
        raise ScenarioError("actor", f"unknown combatant {turn.get('actor')!r}")
    target_id = turn.get("target")
    target = by_id.get(target_id) if isinstance(target_id, str) else None
    them = target.label if target is not None else "the target"
    weapon_name = turn.get("weapon")
    # with weapon_facts a weapon picked from the weapon table counts (missile or not)
    weapon = declared_weapon(actor, turn, "") if isinstance(weapon_name, str) else None
    missile = turn.get("action") == "missile" or (weapon is not None and weapon.missile)
    notes: list[AttackNote] = []
    if missile:
        dex = actor.dex
        if dex is not None and bx_modifier(dex) != 0:
            notes.append(
                AttackNote(
                    f"{actor.label}'s Dexterity: {bx_modifier(dex):+d}", bx_modifier(dex), R_ABILITY
                )
            )
    else:
        strength = _ability(actor.extra, "str", "strength")
        if strength is not None and bx_modifier(strength) != 0:
            notes.append(
                AttackNote(
                    f"{actor.label}'s Strength: {bx_modifier(strength):+d}",
                    bx_modifier(strength),
                    R_ABILITY,
                )
            )
    rng = turn.get("range")
    if missile and rng == "beyond":
        notes.append(
            AttackNote(
                f"{them} is beyond long range: no attack is possible", None, R_COVER, blocks=True
            )
        )
    elif missile and isinstance(rng, str) and rng in RANGE_BONUS:
        bonus = RANGE_BONUS[rng]
        words = f"{bonus:+d}" if bonus else "no modifier"
        notes.append(AttackNote(f"{rng.capitalize()} range: {words}", bonus, R_RANGE))
    cover = turn.get("cover")
    if cover == "complete":
        notes.append(
            AttackNote(f"{them} is in complete cover and cannot be hit", None, R_COVER, blocks=True)
        )
    elif cover == "partial":
        penalty = cover_penalty(turn, "cover_penalty")
        if penalty is None:
            notes.append(
                AttackNote(
                    f"{them} is in partial cover: the referee may apply −1 to −4", None, R_PARTIAL
                )
            )
        else:
            notes.append(
                AttackNote(f"{them} is in partial cover: {penalty:+d}", penalty, R_PARTIAL)
            )
    if target_retreating:
        notes.append(
            AttackNote(f"{them} is retreating: +2, and its shield does not count", 2, R_RETREAT)
        )
    notes.append(AttackNote("A natural 20 always hits; a natural 1 always misses", None, R_NATURAL))
    if turn.get("immune") is True:
        notes.append(
            AttackNote(f"{them} is immune to this attack: a hit deals no damage", None, R_IMMUNE)
        )
    return notes


def total_bonus(notes: list[AttackNote]) -> int:
    """Adds up the fixed modifiers of a declared attack."""
    return sum(n.bonus for n in notes if n.bonus is not None)
