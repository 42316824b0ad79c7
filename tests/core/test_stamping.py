"""Numbered combatants from a monster template."""

import random

import pytest

from core.model.dice import Roller
from core.roster.entries import MonsterTemplate
from core.roster.stamping import StampError, stamp

ORC = MonsterTemplate(name="Orc", hit_dice="1d8", ac=6, movement=9, morale=8)


def test_six_orcs_are_numbered_and_roll_their_hit_dice() -> None:
    orcs = stamp(ORC, 6, Roller(random.Random(7)))
    assert [o.name for o in orcs] == [f"Orc {i}" for i in range(1, 7)]
    assert [o.id for o in orcs] == [f"orc-{i}" for i in range(1, 7)]
    assert all(1 <= (o.hp or 0) <= 8 and o.hp == o.max_hp for o in orcs)
    assert orcs == stamp(ORC, 6, Roller(random.Random(7)))  # same seed, same orcs
    assert all(o.side == "monsters" and o.ac == 6 for o in orcs)


def test_hand_entered_totals_are_checked_against_the_dice() -> None:
    assert [o.hp for o in stamp(ORC, 2, [3, 8])] == [3, 8]
    with pytest.raises(StampError, match="Orc 2: 1d8 shows 1–8; 9 is not possible"):
        stamp(ORC, 2, [3, 9])
    with pytest.raises(StampError, match="Enter 3 hit point totals"):
        stamp(ORC, 3, [3, 4])
    with pytest.raises(StampError, match="1–200"):
        stamp(ORC, 0, [])


def test_a_goblin_never_stamps_with_zero_hp() -> None:
    goblin = MonsterTemplate(name="Goblin", hit_dice="1d8-1")
    assert [g.hp for g in stamp(goblin, 1, [0])] == [1]


def test_bad_hit_dice_say_so() -> None:
    with pytest.raises(StampError, match="Troll: hit dice"):
        stamp(MonsterTemplate(name="Troll", hit_dice="6x8"), 1, [5])
