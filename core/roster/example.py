"""The example roster file Roster › Export Example File… writes: every column in use, so a DM
can see the layout, fill it in a spreadsheet and import it."""

from __future__ import annotations

from dataclasses import replace

from core.model.values import Kind, Spell, Weapon
from core.roster.entries import MonsterTemplate, RosterEntry, RosterStatus


def example_roster() -> tuple[list[RosterEntry], list[MonsterTemplate]]:
    """Gets the example's entries (a fighter, a cleric with a spell spent, a multi-classed
    elf, a henchman) and monster template (an orc with XP)."""
    entries = [
        RosterEntry(
            name="Aldric the Example", kind=Kind.PC, char_class="Fighter", race="Human",
            level=3, hp=19, max_hp=24, ac=4, str_score=17, dex=13, wis=9, movement=9,
            weapons=(Weapon("Long sword", speed_factor=5, length=3.5),
                     Weapon("Long bow", speed_factor=8, missile=True, rate_of_fire=2)),
            notes="HP below the most: wounded last session."),
        RosterEntry(
            name="Mother Example", kind=Kind.PC, char_class="Cleric", race="Human", level=3,
            hp=17, max_hp=17, ac=3, dex=9, wis=16, movement=6,
            weapons=(Weapon("Footman's mace", speed_factor=7, length=2.5),),
            spells=(Spell("Cure light wounds", 1, 5), Spell("Bless", 1, 10),
                    Spell("Hold person", 2, 5)),
            spent_spells=(1,), notes="Bless is spent until the next rest."),
        RosterEntry(
            name="Elwyn Example", kind=Kind.PC, char_class="Fighter/Magic-User", race="Elf",
            level=2, class_levels=(2, 2), hp=9, max_hp=9, ac=5, dex=16, movement=12,
            weapons=(Weapon("Dagger", speed_factor=2, length=1.25),),
            spells=(Spell("Sleep", 1, 1),)),
        RosterEntry(
            name="Example Henchman", kind=Kind.HENCHMAN, char_class="Fighter", level=1,
            hp=0, max_hp=8, ac=5, morale=8, status=RosterStatus.UNCONSCIOUS,
            weapons=(Weapon("Spear", speed_factor=6, length=8),)),
    ]
    # Numbered as exports number entries (the JSON form names each by it; import ignores it).
    entries = [replace(e, id=i) for i, e in enumerate(entries, start=1)]
    templates = [MonsterTemplate(
        name="Example Orc", hit_dice="1d8", ac=6, movement=9, morale=8, xp=10,
        weapons=(Weapon("Scimitar", speed_factor=4, length=3),), notes="Stamp as Orc 1, 2…")]
    return entries, templates
