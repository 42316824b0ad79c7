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


def test_a_deleted_entrys_logged_results_are_not_proposed_again_after_a_reopening() -> None:
    """Halvaine casts Sleep and takes 3, then is deleted from the roster while the fight is
    open: End proposes both, to be logged only. Reopened (the baseline records where the
    logged results left him) and ended again, nothing is proposed a second time; what the
    fight does to him after the reopening is proposed from there."""
    from core.roster.results import reopen_baseline

    log = EncounterLog([add_combatant(roster_combatant(HALVAINE))])
    log.execute(event(EventKind.HP_CHANGED, id="roster-3", delta=-3))
    cast = {"roster-3": ["Sleep"]}
    first = propose_results([], log.state, cast)
    assert [(c.field, c.old, c.new, c.gone) for c in first] == [
        (ChangeField.HP, 9, 6, True),
        (ChangeField.SPELLS, ("Sleep", "Web"), ("Sleep",), True),
    ]
    assert first[1].description == (
        "Halvaine: spells used — Sleep (no longer in the roster: logged only)")
    again = reopen_baseline([], log.state, cast)
    assert propose_results([], log.state, cast, baseline=again) == []
    log.execute(event(EventKind.HP_CHANGED, id="roster-3", delta=-2))
    cast = {"roster-3": ["Sleep", "Web"]}
    later = propose_results([], log.state, cast, baseline=again)
    assert [(c.field, c.old, c.new) for c in later] == [
        (ChangeField.HP, 6, 4), (ChangeField.SPELLS, ("Web",), ("Web",))]
    # a second reopening keeps what the first recorded and adds what followed
    twice = reopen_baseline([], log.state, cast, again)
    assert propose_results([], log.state, cast, baseline=twice) == []


def test_a_death_save_spent_in_a_fight_lowers_the_rosters_count() -> None:
    """popcorn.death.death-saves: the count is kept per PC across fights. Brannoc comes in with
    2; the fight's steps say he spent one (1 left): End proposes 2 → 1, applied to the roster
    as it is now; ending again after a reopening proposes nothing more."""
    from core.model.scenario import parse_scenario
    from core.roster.files import (
        read_roster_csv,
        read_roster_json,
        write_roster_csv,
        write_roster_json,
    )
    from core.roster.results import (
        death_saves_left,
        reopen_baseline,
        with_death_saves,
    )
    from core.rules.popcorn import SYSTEM

    brannoc = RosterEntry(name="Brannoc", id=4, hp=4, max_hp=9, death_saves=2)
    fighter = roster_combatant(brannoc)
    assert fighter.extra["death_saves"] == 2
    doc = {"system": "popcorn",
           "combatants": [{**{k: v for k, v in fighter.extra.items()}, "id": fighter.id,
                           "name": "Brannoc", "side": "party", "kind": "pc", "hp": 4},
                          {"id": "ogre", "side": "monsters", "kind": "monster", "hp": 9}],
           "initiative": {"ogre": 15, fighter.id: 3},
           "rounds": [{"turns": [{"actor": "ogre", "action": "attack", "target": fighter.id,
                                  "hit": True, "damage": 6}]}]}
    resolution = SYSTEM.resolve(parse_scenario(doc), _NoDice())
    left = death_saves_left(resolution.steps)
    assert left == {fighter.id: 1}
    log = EncounterLog([add_combatant(fighter)])
    end = replace(log.state, combatants=frozen_mapping(
        {cid: with_death_saves(c, left) for cid, c in log.state.combatants.items()}))
    changes = propose_results([brannoc], end)
    saves = [c for c in changes if c.field is ChangeField.DEATH_SAVES]
    assert [(c.old, c.new, c.description) for c in saves] == [
        (2, 1, "Brannoc: Death saves 2 → 1 (1 spent in this fight)")]
    assert apply_changes([brannoc], saves) == [replace(brannoc, death_saves=1)]
    after = replace(brannoc, death_saves=1, version=1)
    again = reopen_baseline([after], end)
    assert propose_results([after], end, baseline=again) == []
    # the count travels through the roster's files
    assert read_roster_json(write_roster_json([after]))[0].death_saves == 1
    assert read_roster_csv(write_roster_csv([after]))[0].death_saves == 1
    assert read_roster_csv("name\nPip\n")[0].death_saves == 3  # not given: the full three


class _NoDice:
    def roll(self, expression: str, purpose: str = "") -> object:
        raise AssertionError(f"no die should be rolled: {purpose}")


def test_a_spell_memorised_twice_is_spent_once_for_one_cast_however_often_the_fight_ends() -> None:
    """Halvaine holds Sleep twice and casts one. End marks one spent; reopened and ended
    again, the second Sleep stays unspent (the first cast was counted again before); a cast
    after the reopening spends it."""
    from core.roster.results import reopen_baseline

    twice = replace(HALVAINE, id=3, spells=(Spell("Sleep", 1, 1), Spell("Sleep", 1, 1)))
    log = EncounterLog([add_combatant(roster_combatant(twice, "h"))])
    cast = {"h": ["Sleep"]}
    first = propose_results([twice], log.state, cast)
    assert [(c.field, c.new) for c in first] == [(ChangeField.SPELLS, ("Sleep",))]
    after_first = apply_changes([twice], first)[0]
    assert after_first.spent_spells == (0,)
    baseline = reopen_baseline([after_first], log.state, cast)
    assert propose_results([after_first], log.state, cast, baseline=baseline) == []
    cast = {"h": ["Sleep", "Sleep"]}  # the second one, cast after the reopening
    later = propose_results([after_first], log.state, cast, baseline=baseline)
    assert [(c.field, c.new) for c in later] == [(ChangeField.SPELLS, ("Sleep",))]


def test_hp_below_the_rosters_lowest_is_written_as_the_lowest_it_holds() -> None:
    """A blow of 24 leaves Garrick (8 HP) at −16; the roster holds no HP below −10 (its form
    and its importers refuse it): the results propose −10, whichever way the DM chooses when
    the entry was changed since (healed to 6 in another window)."""
    from core.roster.checks import MIN_HP, check_entry
    from core.roster.results import Choice

    log = EncounterLog([add_combatant(roster_combatant(replace(GARRICK, version=1)))])
    log.execute(event(EventKind.HP_CHANGED, id="roster-5", delta=-24))
    log.execute(event(EventKind.STATUS_CHANGED, id="roster-5", status="dead"))
    assert log.state.combatants["roster-5"].hp == -16
    now = replace(GARRICK, version=1)
    hp = next(c for c in propose_results([now], log.state) if c.field is ChangeField.HP)
    assert hp.new == MIN_HP == -10 and hp.description == "Garrick: HP 8 → -10"
    (written,) = apply_changes([now], propose_results([now], log.state))
    assert (written.hp, written.status) == (-10, RosterStatus.DEAD) and check_entry(written) == {}
    healed = replace(GARRICK, hp=6, version=2)
    hp = next(c for c in propose_results([healed], log.state) if c.field is ChangeField.HP)
    assert hp.changed_since and hp.new == -10  # 6 − 24 would be −18
    fight_end = hp.chosen(Choice.FIGHT_END)
    assert fight_end is not None and fight_end.new == -10
