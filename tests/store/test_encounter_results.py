"""Encounter results as changes to the roster as it is now; ended encounters stay ended.

Every test runs on SQLite and PostgreSQL (see conftest.py).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from core.fight.log import Command, Event, EventKind, add_combatant
from core.model.values import Spell, frozen_mapping
from core.play.session import EncounterSession, encounters_holding
from core.roster.entries import RosterEntry
from core.roster.results import (
    Choice,
    apply_changes,
    propose_results,
    reopen_baseline,
    roster_combatant,
)
from core.store import EncounterEndedError, Store, StoreError

BRANNOC = RosterEntry(name="Brannoc the Bold", hp=24, max_hp=30, spells=())
YSOLDE = RosterEntry(name="Sister Ysolde", hp=17, max_hp=17,
                     spells=(Spell("Bless"), Spell("Cure Light Wounds")))


def hit(cid: str, delta: int) -> Command:
    event = Event(EventKind.HP_CHANGED, frozen_mapping({"id": cid, "delta": delta}))
    return Command("Hit", (event,))


def fight(store: Store, campaign: int, name: str, *entries: RosterEntry) -> EncounterSession:
    session = EncounterSession.start(store, campaign, name, "side-d6", {}, seed=1)
    for entry in entries:
        session.execute(add_combatant(roster_combatant(entry)))
    return session


def end_and_apply(store: Store, campaign: int, session: EncounterSession,
                  choice: Choice = Choice.ON_TOP) -> list[str]:
    """Ends the fight and writes its results the way the results dialog does."""
    session.end()
    roster = store.roster.entries(campaign)
    proposed = propose_results(roster, session.state,
                               baseline=session.info.results_baseline)
    accepted = [c for c in (p.chosen(choice) if p.changed_since else p for p in proposed) if c]
    after = apply_changes(roster, accepted)
    store.roster.apply_results(campaign, after, f"Results of {session.info.name}",
                        [c.description for c in accepted])
    return [c.description for c in accepted]


@pytest.mark.parametrize("first", ["Orc guardroom", "Goblin stair"])
def test_two_open_fights_sharing_a_pc_both_count_whichever_ends_first(
    store: Store, first: str
) -> None:
    campaign = store.campaigns.create("Saltmarsh").id
    brannoc, ysolde = store.roster.add_all(campaign, [BRANNOC, YSOLDE])
    orcs = fight(store, campaign, "Orc guardroom", brannoc, ysolde)
    goblins = fight(store, campaign, "Goblin stair", brannoc)
    assert encounters_holding(store, campaign, [brannoc.id or 0], but=goblins.info.id) == {
        brannoc.id: ["Orc guardroom"]
    }
    orcs.execute(hit(f"roster-{brannoc.id}", -5))
    goblins.execute(hit(f"roster-{brannoc.id}", -3))
    order = [orcs, goblins] if first == "Orc guardroom" else [goblins, orcs]
    end_and_apply(store, campaign, order[0])
    second = end_and_apply(store, campaign, order[1])
    assert any("changed since the fight began" in text for text in second)
    now = {e.name: e for e in store.roster.entries(campaign)}
    assert now["Brannoc the Bold"].hp == 24 - 5 - 3
    assert now["Sister Ysolde"].hp == 17  # untouched in both


def test_the_dm_may_keep_the_roster_or_take_the_fights_end_instead(store: Store) -> None:
    campaign = store.campaigns.create("Saltmarsh").id
    (brannoc,) = store.roster.add_all(campaign, [BRANNOC])
    orcs = fight(store, campaign, "Orc guardroom", brannoc)
    orcs.execute(hit(f"roster-{brannoc.id}", -5))  # 24 → 19 in the fight
    store.roster.update(_healed(store, campaign, 28))  # a potion, written in another window
    orcs.end()
    proposed = propose_results(store.roster.entries(campaign), orcs.state)
    (hp,) = proposed
    assert (hp.start, hp.end, hp.old, hp.new, hp.changed_since) == (24, 19, 28, 23, True)
    assert hp.chosen(Choice.KEEP) is None
    fight_end = hp.chosen(Choice.FIGHT_END)
    assert fight_end is not None and fight_end.new == 19


def _healed(store: Store, campaign: int, hp: int) -> RosterEntry:
    return replace(store.roster.entries(campaign)[0], hp=hp)


def test_an_ended_encounter_refuses_commands_here_and_in_another_window(
    store: Store, db_url: str
) -> None:
    campaign = store.campaigns.create("Saltmarsh").id
    (brannoc,) = store.roster.add_all(campaign, [BRANNOC])
    orcs = fight(store, campaign, "Orc guardroom", brannoc)
    other_store = Store.open(db_url)
    try:
        elsewhere = EncounterSession.resume(other_store, orcs.info)  # still thinks it is open
        orcs.end()
        commands = store.commands.load(orcs.info.id)
        with pytest.raises(EncounterEndedError, match="Orc guardroom has ended"):
            orcs.execute(hit(f"roster-{brannoc.id}", -1))
        with pytest.raises(EncounterEndedError, match="Orc guardroom has ended"):
            elsewhere.execute(hit(f"roster-{brannoc.id}", -1))
        with pytest.raises(EncounterEndedError):
            elsewhere.undo()
        with pytest.raises(EncounterEndedError, match="already ended"):
            store.encounters.end(orcs.info.id)
        assert store.commands.load(orcs.info.id) == commands
    finally:
        other_store.close()


def test_a_reopened_encounter_applies_only_what_changed_after_reopening(store: Store) -> None:
    campaign = store.campaigns.create("Saltmarsh").id
    (brannoc,) = store.roster.add_all(campaign, [BRANNOC])
    orcs = fight(store, campaign, "Orc guardroom", brannoc)
    orcs.execute(hit(f"roster-{brannoc.id}", -5))
    end_and_apply(store, campaign, orcs)
    assert store.roster.entries(campaign)[0].hp == 19
    orcs.reopen(reopen_baseline(store.roster.entries(campaign), orcs.state))
    assert not store.encounters.get(orcs.info.id).ended
    orcs.execute(hit(f"roster-{brannoc.id}", -2))
    end_and_apply(store, campaign, orcs)
    assert store.roster.entries(campaign)[0].hp == 17  # not 24 - 7 applied on top of 19


def test_start_up_reads_only_the_open_fights_and_numbers_the_next_one(store: Store) -> None:
    """What the main window reads at start: the open fights, and how many there are in all
    (the next one is "Encounter N+1"); the ended ones only when Open Encounter is opened."""
    campaign = store.campaigns.create("Saltmarsh").id
    (brannoc,) = store.roster.add_all(campaign, [BRANNOC])
    first = fight(store, campaign, "Orc guardroom", brannoc)
    fight(store, campaign, "Goblin stair", brannoc)
    first.end()
    fight(store, campaign, "Sahuagin raid", brannoc)
    assert [i.name for i in store.encounters.all(
        campaign, with_options=False, status="active")] == [
        "Goblin stair", "Sahuagin raid"]
    assert [i.name for i in store.encounters.all(campaign, status="ended")] == ["Orc guardroom"]
    assert store.encounters.count(campaign) == 3
    assert store.encounters.count(store.campaigns.create("Empty").id) == 0


def test_a_second_reopening_is_refused_in_words(db_url: str) -> None:
    """Two Combat Desks showing the same ended fight: the first Reopen wins, the second is
    told it is open again (never an id), and a deleted one is named as gone."""
    first, second = Store.open(db_url), Store.open(db_url)
    try:
        campaign = first.campaigns.create("Saltmarsh").id
        session = EncounterSession.start(first, campaign, "Orc guardroom", "side-d6", {}, seed=1)
        session.end()
        first.encounters.reopen(session.info.id, None)
        with pytest.raises(StoreError, match="Orc guardroom is already open again"):
            second.encounters.reopen(session.info.id, None)
        with pytest.raises(StoreError) as gone:
            second.encounters.reopen(session.info.id + 1000, None)
        assert "no longer in the campaign" in str(gone.value)
        assert str(session.info.id + 1000) not in str(gone.value)
    finally:
        first.close()
        second.close()
