"""Results flowing back from an encounter's end state to the roster."""

from dataclasses import replace

from core.fight.log import Command, EncounterLog, Event, EventKind, add_combatant
from core.model.values import Combatant, Spell, Status, frozen_mapping
from core.roster.entries import RosterEntry, RosterStatus
from core.roster.results import ChangeField, apply_changes, propose_results, roster_combatant

HALVAINE = RosterEntry(
    name="Halvaine", id=3, hp=9, max_hp=9, spells=(Spell("Sleep"), Spell("Web", 2, 2))
)
GARRICK = RosterEntry(name="Garrick", id=5, hp=8, max_hp=8)


def event(kind: EventKind, **data: object) -> Command:
    return Command(str(kind), (Event(kind, frozen_mapping(data)),))


def test_hp_status_and_spells_are_proposed_and_applied() -> None:
    log = EncounterLog()
    log.execute(add_combatant(replace(roster_combatant(HALVAINE), spells=(Spell("Web", 2, 2),))))
    log.execute(add_combatant(roster_combatant(GARRICK)))
    log.execute(add_combatant(Combatant(id="orc-1", side="monsters", name="Orc 1", hp=5)))
    log.execute(event(EventKind.HP_CHANGED, id="roster-5", delta=-9))
    log.execute(event(EventKind.STATUS_CHANGED, id="roster-5", status="unconscious"))
    changes = propose_results([HALVAINE, GARRICK], log.state)
    assert [(c.entry_name, c.field, c.new) for c in changes] == [
        ("Halvaine", ChangeField.SPELLS, ("Sleep",)),
        ("Garrick", ChangeField.HP, -1),
        ("Garrick", ChangeField.STATUS, RosterStatus.UNCONSCIOUS),
    ]
    changed = apply_changes([HALVAINE, GARRICK], changes)
    assert changed == [
        replace(HALVAINE, spent_spells=(0,)),  # Sleep spent, still memorised for a rest
        replace(GARRICK, hp=-1, status=RosterStatus.UNCONSCIOUS),
    ]


def test_nothing_changed_proposes_nothing_and_healing_stops_at_max() -> None:
    log = EncounterLog([add_combatant(roster_combatant(GARRICK))])
    assert propose_results([GARRICK], log.state) == []
    log.execute(event(EventKind.HP_CHANGED, id="roster-5", delta=5))
    assert propose_results([GARRICK], log.state) == []  # 13 of 8 is still 8


def test_a_combatant_matched_by_name_and_spells_cast_by_id() -> None:
    log = EncounterLog([add_combatant(Combatant(id="h", side="party", name="Halvaine", hp=2))])
    log.execute(event(EventKind.STATUS_CHANGED, id="h", status=str(Status.SURRENDERED)))
    changes = propose_results([HALVAINE], log.state, {"h": ["Sleep", "Fireball"]})
    assert [(c.field, c.new) for c in changes] == [
        (ChangeField.HP, 2),
        (ChangeField.SPELLS, ("Sleep",)),  # a surrender changes no roster status
    ]


def test_only_a_value_that_moved_since_the_start_is_flagged_as_changed() -> None:
    """Sister Ysolde's spells were edited elsewhere during the fight (the entry was saved), but
    her HP is still 17 as when the fight began: the HP line needs no choice; the spells do."""
    ysolde = RosterEntry(name="Sister Ysolde", id=7, hp=17, max_hp=17, version=1,
                         spells=(Spell("Bless"), Spell("Cure Light Wounds")))
    log = EncounterLog([add_combatant(roster_combatant(ysolde))])
    log.execute(event(EventKind.HP_CHANGED, id="roster-7", delta=-4))
    edited = replace(ysolde, version=2, spells=(Spell("Bless"),))
    changes = propose_results([edited], log.state, {"roster-7": ["Bless"]})
    flags = {c.field: (c.start, c.old, c.changed_since) for c in changes}
    assert flags[ChangeField.HP] == (17, 17, False)
    assert flags[ChangeField.SPELLS][2] is True
    hp = next(c for c in changes if c.field is ChangeField.HP)
    assert "changed since" not in hp.description
