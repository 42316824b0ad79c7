"""Store methods behind the roster editor: restore, bulk import, results, the session log."""

from dataclasses import replace

import pytest

from core.model.values import Spell
from core.roster.entries import RosterEntry, RosterStatus
from core.store import ConflictError, Store

WAT = RosterEntry(name="Wat", hp=3, max_hp=3, spells=(Spell("Light"),), initiative_adj=1)


def test_a_removed_entry_comes_back_with_its_id_and_version(store: Store) -> None:
    campaign = store.campaigns.create("Greyhawk")
    saved = store.roster.update(replace(store.roster.add(campaign.id, WAT), hp=2))
    store.roster.remove(saved.id or 0, saved.version)
    restored = store.roster.restore(campaign.id, saved)
    assert restored == saved and restored.initiative_adj == 1
    assert store.roster.update(replace(restored, hp=1)).version == saved.version + 1
    with pytest.raises(ConflictError):
        store.roster.remove(saved.id or 0, saved.version)  # stale version: refused


def test_a_bulk_import_is_one_transaction_and_logged(store: Store) -> None:
    campaign = store.campaigns.create("Greyhawk")
    entries = [replace(WAT, name=f"Levy {i}") for i in range(1000)]
    assert store.roster.import_entries(campaign.id, entries, "Levy") == 1000
    roster = store.roster.entries(campaign.id)
    assert len(roster) == 1000 and roster[0].version == 1 and roster[0].spells == WAT.spells
    store.roster.update(replace(roster[0], hp=1))  # bulk-inserted rows are version-checked too
    assert store.roster.session_log(campaign.id)[0].summary == "Levy"


def test_results_write_all_or_nothing(store: Store) -> None:
    campaign = store.campaigns.create("Greyhawk")
    a, b = store.roster.add_all(campaign.id, [WAT, replace(WAT, name="Alda")])
    store.roster.update(replace(b, notes="elsewhere"))
    with pytest.raises(ConflictError):
        store.roster.apply_results(
            campaign.id, [replace(a, hp=0), replace(b, status=RosterStatus.DEAD)], "Fight", []
        )
    assert [e.hp for e in store.roster.entries(campaign.id)] == [3, 3]
    assert store.roster.session_log(campaign.id) == []
    (saved,) = store.roster.apply_results(
        campaign.id, [replace(a, hp=0)], "Fight", ["Wat: HP 3 → 0"])
    assert saved.hp == 0
    (line,) = store.roster.session_log(campaign.id)
    assert (line.summary, line.details) == ("Fight", ("Wat: HP 3 → 0",))


ELWYN = RosterEntry(name="Elwyn", char_class="Fighter/Magic-User", level=3, class_levels=(3, 2))


def test_class_levels_survive_every_way_an_entry_is_written(store: Store) -> None:
    """Saved, updated, bulk-imported, restored and changed by results: "3/2" stays "3/2"."""
    campaign = store.campaigns.create("Greyhawk")
    saved = store.roster.add(campaign.id, ELWYN)
    assert (saved.level, saved.class_levels) == (3, (3, 2))
    raised = store.roster.update(replace(saved, level=3, class_levels=(3, 3)))
    assert store.roster.entries(campaign.id)[0].class_levels == (3, 3)
    single = store.roster.update(replace(raised, level=4, class_levels=()))
    assert (single.level, single.class_levels) == (4, ())
    store.roster.import_entries(campaign.id, [replace(ELWYN, name="Brother")], "Import")
    store.roster.remove(single.id or 0, single.version)
    back = store.roster.restore(campaign.id, replace(single, class_levels=(4, 1)))
    assert back.class_levels == (4, 1)
    (after_fight,) = store.roster.apply_results(campaign.id, [replace(back, hp=2)], "Fight", [])
    assert (after_fight.hp, after_fight.class_levels) == (2, (4, 1))
    by_name = {e.name: e for e in store.roster.entries(campaign.id)}
    assert by_name["Brother"].class_levels == (3, 2)
    assert by_name["Elwyn"].class_levels == (4, 1)
