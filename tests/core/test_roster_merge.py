"""Import merging, spending and resting: what a DM's file and a night's sleep do to the roster."""

from dataclasses import replace

import pytest

from core.fight.log import EncounterLog, EventKind, add_combatant
from core.model.values import Combatant, Kind, Spell, Status, frozen_mapping
from core.roster.checks import check_entry, check_template
from core.roster.entries import (
    MonsterTemplate,
    RosterEntry,
    RosterStatus,
    available_spells,
    rested,
    spend_spells,
)
from core.roster.kills import Kill, encounter_kills, kill_lines
from core.roster.merge import Choice, plan_import, resolve
from tests.core.test_results import event

YSOLDE = RosterEntry(name="Sister Ysolde", id=2, hp=8, max_hp=17,
                     spells=(Spell("Bless"), Spell("Bless"), Spell("Hold person", 2)))  # fmt: skip
ORC = MonsterTemplate(name="Orc", id=1, xp=10)


def test_a_spent_spell_stays_memorised_until_a_rest() -> None:
    once = spend_spells(YSOLDE, ["Bless"])
    twice = spend_spells(once, ["Bless", "Bless", "Fireball"])  # only two to spend, none known
    assert (once.spent_spells, twice.spent_spells) == ((0,), (0, 1))
    assert [s.name for s in available_spells(twice)] == ["Hold person"]
    assert twice.spells == YSOLDE.spells
    assert rested(twice) == replace(YSOLDE, spent_spells=())
    assert rested(twice, restore_hp=True).hp == 17
    dead = replace(twice, status=RosterStatus.DEAD)
    assert rested(dead, restore_hp=True) == dead  # the dead do not rest
    assert "spells" in check_entry(replace(YSOLDE, spent_spells=(3,)))


def test_duplicates_are_matched_by_name_and_kind_and_unchanged_ones_left_alone() -> None:
    garrick = RosterEntry(name="Garrick", kind=Kind.HENCHMAN, id=5, hp=8, version=3)
    campaign = [YSOLDE, garrick]
    incoming = [
        replace(YSOLDE, id=None),  # the same: nothing to do
        replace(garrick, name=" garrick ", hp=4, id=None),  # name ignoring case and spaces
        RosterEntry(name="Garrick", kind=Kind.PC),  # another kind: a new entry
    ]
    plan = plan_import(campaign, [ORC], incoming, [replace(ORC, xp=12, id=None)])
    assert [d.label for d in plan.duplicates] == [" garrick  (henchman)", "Orc (monster template)"]
    assert plan.duplicates[0].differences == ("name Garrick →  garrick ", "HP 8 → 4")
    assert plan.duplicates[1].differences == ("XP 10 → 12",)
    assert [e.kind for e in plan.new_entries] == [Kind.PC] and plan.unchanged == (YSOLDE,)
    changes = resolve(plan, [Choice.UPDATE, Choice.SKIP])
    ((before, after),) = changes.updated_entries
    assert (before, after.id, after.version, after.hp) == (garrick, 5, 3, 4)
    assert changes.summary("party.json") == "Import party.json: 1 added, 1 updated"
    added = resolve(plan, [Choice.ADD, Choice.ADD])
    assert len(added.added_entries) == 2 and added.added_templates[0].id is None
    with pytest.raises(ValueError):
        resolve(plan, [Choice.SKIP])


def test_kills_take_their_xp_from_the_template_and_the_total_is_logged() -> None:
    log = EncounterLog()
    for cid, name in (("orc-1", "Orc 1"), ("orc-2", "Orc 2"), ("ogre-1", "Ogre 1")):
        log.execute(add_combatant(Combatant(id=cid, side="monsters", name=name, hp=5)))
    log.execute(add_combatant(Combatant(id="roster-2", side="party", name="Sister Ysolde",
                                        extra=frozen_mapping({"roster_id": 2}))))  # fmt: skip
    for cid in ("orc-1", "ogre-1", "roster-2"):
        log.execute(event(EventKind.STATUS_CHANGED, id=cid, status=str(Status.DEAD)))
    kills = encounter_kills(log.state, [ORC, MonsterTemplate(name="Ogre")])
    assert kills == [Kill("Orc 1", "Orc", 10), Kill("Ogre 1", "Ogre", None)]
    assert kill_lines(kills) == [
        "Killed Orc 1: 10 XP", "Killed Ogre 1: XP not given", "XP for kills: 10 (1 without XP)"]
    assert kill_lines([]) == []
    assert "xp" in check_template(replace(ORC, xp=-1))
