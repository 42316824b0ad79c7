"""Stamping numbered combatants out of a monster template ("Orc ×6" → Orc 1 … Orc 6)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.model.dice import DiceError, Roller, manual_roll, parse_dice
from core.model.limits import MAX_NAME
from core.model.values import Combatant, Kind
from core.roster.entries import MonsterTemplate

MAX_STAMP = 200
MONSTER_SIDE = "monsters"


class StampError(ValueError):
    """A count or a hand-entered hit point total that cannot be used (nothing is stamped)."""


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-") or "monster"


def stamp(
    template: MonsterTemplate,
    count: int,
    hit_points: Roller | Sequence[int],
    side: str = MONSTER_SIDE,
    first_number: int = 1,
) -> list[Combatant]:
    """Makes ``count`` combatants from ``template``, numbered from ``first_number``.

    ``hit_points`` is either a roller (each monster rolls the template's hit dice) or the totals
    the DM rolled by hand, one a monster, each checked against what the dice can show.
    """
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_STAMP:
        raise StampError(f"Stamp 1–{MAX_STAMP} monsters at a time, not {count!r}.")
    if len(template.name) > MAX_NAME:
        raise StampError(f"{template.name[:MAX_NAME]}…: a template's name is at most "
                         f"{MAX_NAME} characters (this one has {len(template.name)}); "
                         "shorten it in the template form first.")
    try:
        dice = parse_dice(template.hit_dice)
    except DiceError as exc:
        raise StampError(f"{template.name}: hit dice {exc}") from None
    if isinstance(hit_points, Roller):
        totals = [
            max(1, hit_points.roll(str(dice), f"hp {template.name} {first_number + i}").total)
            for i in range(count)
        ]
    else:
        totals = list(hit_points)
        if len(totals) != count:
            raise StampError(f"Enter {count} hit point totals, one a monster; got {len(totals)}.")
        for i, total in enumerate(totals, start=first_number):
            try:
                manual_roll(str(dice), total)
            except DiceError as exc:
                raise StampError(f"{template.name} {i}: {exc}") from None
        totals = [max(1, t) for t in totals]  # a 1d8-1 monster still has 1 hp
    slug = _slug(template.name)
    return [
        Combatant(
            id=f"{slug}-{first_number + i}",
            side=side,
            name=f"{template.name} {first_number + i}",
            kind=Kind.MONSTER,
            hp=hp,
            max_hp=hp,
            ac=template.ac,
            movement=template.movement,
            morale=template.morale,
            attacks=template.attacks,
            surprises_on=template.surprises_on,
            weapons=template.weapons,
        )
        for i, hp in enumerate(totals)
    ]
