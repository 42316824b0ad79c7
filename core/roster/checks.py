"""What a roster entry may hold, and the adjustments derived from its ability scores.

The editor shows each reason next to its field and the importers refuse a file with it, so
the messages name the field's own label and the allowed range.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.model.dice import DiceError, parse_dice
from core.model.limits import MAX_NAME
from core.model.values import Weapon
from core.roster.entries import DEATH_SAVES, MAX_CLASSES, MonsterTemplate, RosterEntry
from core.rules.abilities import adnd_dex_reaction, bx_initiative_modifier

ABILITY_RANGE = (3, 18)
MIN_HP = -10
"""The lowest HP the roster holds: below it a character is dead, which its status says."""
AC_RANGE = (-10, 10)
AC_WORDS = (f"AC runs from −{-AC_RANGE[0]} to {AC_RANGE[1]} (descending: the lower, the "
            "better).")
ADJ_RANGE = (-10, 10)
MAX_LEVEL = 40
MAX_HP = 999
MAX_HIT_DICE_TEXT = 50
"""The store keeps a template's hit dice in a column of this many characters."""

ABILITY_LABELS = {"str_score": "Str", "dex": "Dex", "wis": "Wis"}
ADJ_LABELS = {
    "initiative_adj": "Initiative adj.",
    "surprise_adj": "Surprise adj.",
    "missile_adj": "Missile adj.",
    "reaction_adj": "Reaction adj.",
}


def ascending_ac(ac: int) -> int:
    """Gets the ascending armour class equivalent of a descending one (AAC = 19 − AC)."""
    return 19 - ac


MAX_NOTES = 100_000
"""Characters of notes a record may hold: pages of text, far below what slows the roster."""


def _text_problems(record: object, fields: tuple[str, ...]) -> dict[str, str]:
    """Gets text that cannot be stored: too-long notes, broken characters (lone surrogates)."""
    problems: dict[str, str] = {}
    for field in fields:
        text = getattr(record, field, "")
        if not isinstance(text, str):
            continue
        if field == "notes" and len(text) > MAX_NOTES:
            problems[field] = f"Notes are at most {MAX_NOTES:,} characters."
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            problems[field] = "It holds a broken character that cannot be saved; retype it."
    return problems


def check_entry(entry: RosterEntry) -> dict[str, str]:
    """Gets the reason each invalid field of ``entry`` cannot be saved, keyed by field name."""
    problems: dict[str, str] = {}
    if not entry.name.strip():
        problems["name"] = "A name is needed."
    elif len(entry.name) > MAX_NAME:
        problems["name"] = _too_long(entry.name)
    problems.update(_text_problems(entry, ("name", "char_class", "race", "side", "notes")))
    if entry.class_levels:
        level = _class_level_problem(entry)
        if level is not None:
            problems["level"] = level
    elif entry.level is not None and not 0 <= entry.level <= MAX_LEVEL:
        problems["level"] = f"Level is 0–{MAX_LEVEL}."
    if entry.max_hp is not None and not 1 <= entry.max_hp <= MAX_HP:
        problems["max_hp"] = f"Max HP is 1–{MAX_HP}."
    if entry.hp is not None:
        if entry.hp > MAX_HP:
            problems["hp"] = f"HP is at most {MAX_HP}."
        elif entry.max_hp is not None and entry.hp > entry.max_hp:
            problems["hp"] = f"HP cannot exceed max HP {entry.max_hp}."
        elif entry.hp < MIN_HP:
            problems["hp"] = f"HP below −{-MIN_HP} is dead; set the status instead."
    if entry.ac is not None and not AC_RANGE[0] <= entry.ac <= AC_RANGE[1]:
        problems["ac"] = AC_WORDS
    for key, label in ABILITY_LABELS.items():
        score = getattr(entry, key)
        if score is not None and not ABILITY_RANGE[0] <= score <= ABILITY_RANGE[1]:
            problems[key] = f"{label} is {ABILITY_RANGE[0]}–{ABILITY_RANGE[1]}."
    for key, label in ADJ_LABELS.items():
        value = getattr(entry, key)
        if value is not None and not ADJ_RANGE[0] <= value <= ADJ_RANGE[1]:
            problems[key] = f"{label} is {ADJ_RANGE[0]}–{ADJ_RANGE[1]}."
    if entry.movement is not None and not 0 <= entry.movement <= 240:
        problems["movement"] = "Movement is 0–240."
    if entry.morale is not None and not 2 <= entry.morale <= 12:
        problems["morale"] = "Morale is 2–12 (2d6)."
    if not 0 <= entry.death_saves <= DEATH_SAVES:
        problems["death_saves"] = f"Death saves are 0–{DEATH_SAVES} (lifetime)."
    if not 1 <= entry.attack_routines <= 10:
        problems["attack_routines"] = "Attack routines are 1–10."
    if not 0 <= entry.attacks <= 20:
        problems["attacks"] = "Attacks per routine are 0–20."
    weapons = _check_weapons(entry.weapons)
    if weapons is not None:
        problems["weapons"] = weapons
    for i, spell in enumerate(entry.spells, start=1):
        where = f"Spell {i}"
        if not spell.name.strip():
            problems["spells"] = f"{where} needs a name."
        elif not 1 <= spell.level <= 9:
            problems["spells"] = f"{where} ({spell.name}): level is 1–9."
        elif not 0 <= spell.casting_time <= 100:
            problems["spells"] = f"{where} ({spell.name}): casting time is 0–100 segments."
        if "spells" in problems:
            break
    if any(not 0 <= i < len(entry.spells) for i in entry.spent_spells):
        problems.setdefault("spells", "A spent mark belongs to no memorised spell.")
    return problems


def _class_level_problem(entry: RosterEntry) -> str | None:
    """Gets what is wrong with a multi-classed entry's levels (shown beside Level)."""
    shown = "/".join(str(n) for n in entry.class_levels)
    if not 2 <= len(entry.class_levels) <= MAX_CLASSES:
        return f"One level a class: 2 or {MAX_CLASSES} of them (e.g. 2/2), not {shown}."
    if any(not 1 <= n <= MAX_LEVEL for n in entry.class_levels):
        return f"Each class level is 1–{MAX_LEVEL}, so {shown} cannot be saved."
    if entry.level != max(entry.class_levels):
        return f"Level {entry.level} is not the highest of the class levels {shown}."
    return None


def _check_weapons(weapons: Sequence[Weapon]) -> str | None:
    """Gets the reason the first bad weapon row cannot be saved (None when all are fine)."""
    for i, weapon in enumerate(weapons, start=1):
        where = f"Weapon {i}"
        if not weapon.name.strip():
            return f"{where} needs a name."
        if weapon.speed_factor is not None and not 0 <= weapon.speed_factor <= 20:
            return f"{where} ({weapon.name}): speed factor is 0–20."
        if weapon.length is not None and not 0 < weapon.length <= 30:
            return f"{where} ({weapon.name}): length is above 0 and at most 30 ft."
        if weapon.rate_of_fire is not None and not 1 <= weapon.rate_of_fire <= 10:
            return f"{where} ({weapon.name}): rate of fire is 1–10."
    return None


MAX_XP = 1_000_000
"""The most XP one kill can be worth (a guard against typing errors)."""


def _too_long(name: str) -> str:
    return (f"A name is at most {MAX_NAME} characters; this one has {len(name)}. Shorten it "
            "(the rest can go in the notes).")


def check_template(template: MonsterTemplate) -> dict[str, str]:
    """Gets the reason each invalid field of a monster template cannot be saved, by field name.

    Hit dice are read with the same parser stamping uses, so a template that saves can always
    be stamped; the reason is the parser's own (where and why the notation is wrong).
    """
    problems: dict[str, str] = {}
    if not template.name.strip():
        problems["name"] = "A name is needed."
    elif len(template.name) > MAX_NAME:
        problems["name"] = _too_long(template.name)
    problems.update(_text_problems(template, ("name", "notes")))
    try:
        parse_dice(template.hit_dice)
    except DiceError as exc:
        problems["hit_dice"] = str(exc)
    else:
        if len(template.hit_dice) > MAX_HIT_DICE_TEXT:
            problems["hit_dice"] = f"Hit dice are at most {MAX_HIT_DICE_TEXT} characters."
    if template.ac is not None and not AC_RANGE[0] <= template.ac <= AC_RANGE[1]:
        problems["ac"] = AC_WORDS
    if template.movement is not None and not 0 <= template.movement <= 240:
        problems["movement"] = "Movement is 0–240."
    if template.morale is not None and not 2 <= template.morale <= 12:
        problems["morale"] = "Morale is 2–12 (2d6)."
    if not 0 <= template.attacks <= 20:
        problems["attacks"] = "Attacks per round are 0–20."
    if template.surprises_on is not None and not 0 <= template.surprises_on <= 6:
        problems["surprises_on"] = "Surprises on X in 6: X is 0–6 (blank = the system's normal)."
    weapons = _check_weapons(template.weapons)
    if weapons is not None:
        problems["weapons"] = weapons
    if template.xp is not None and not 0 <= template.xp <= MAX_XP:
        problems["xp"] = f"XP for a kill is 0–{MAX_XP:,}."
    return problems


@dataclass(frozen=True, slots=True)
class Adjustments:
    """An entry's Dex adjustments as each family of systems reads them.

    ``*_overridden`` tells the DM's own number from the one derived from the table.
    """

    reaction: int | None
    missile: int | None
    surprise: int | None
    initiative: int | None
    reaction_overridden: bool = False
    missile_overridden: bool = False
    surprise_overridden: bool = False
    initiative_overridden: bool = False


def _pick(override: int | None, derived: int | None) -> tuple[int | None, bool]:
    return (override, True) if override is not None else (derived, False)


def adjustments(entry: RosterEntry) -> Adjustments:
    """Gets the AD&D reaction/missile/surprise and B/X initiative adjustments of ``entry``.

    The DM's override wins; otherwise the value comes from Dex (AD&D PHB table, OSE/LL table).
    """
    dex = entry.dex
    adnd = adnd_dex_reaction(dex) if dex is not None else None
    bx = bx_initiative_modifier(dex) if dex is not None else None
    reaction, r_o = _pick(entry.reaction_adj, adnd)
    missile, m_o = _pick(entry.missile_adj, adnd)
    surprise, s_o = _pick(entry.surprise_adj, adnd)
    initiative, i_o = _pick(entry.initiative_adj, bx)
    return Adjustments(reaction, missile, surprise, initiative, r_o, m_o, s_o, i_o)
