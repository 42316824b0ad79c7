"""Imports, multi-deletes and rests as single transactions, on SQLite and PostgreSQL.

A DM's import must be one step: undone, the campaign database holds exactly the rows it held
before (row for row, the session log included); an exported roster imported again changes
nothing.
"""

from dataclasses import replace
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from core.model.values import Spell, Weapon
from core.roster.entries import MonsterTemplate, RosterEntry, rested, spend_spells
from core.roster.files import read_roster_document, write_roster_csv, write_roster_json
from core.roster.merge import Choice, plan_import, resolve
from core.roster.sample import load_sample
from core.store import ConflictError, Store

TABLES = ("campaigns", "characters", "monster_templates", "session_log")
AUDIT = ("changed_by", "changed_at")
WHEN_SAVED = ("updated_at", "row_check")
"""A put-back entry is saved anew: its time, and the row check covering it, change."""
"""Who wrote a row last, and when: an undo is a write of its own, so these name the undo."""


def dump(url: str, skip: tuple[str, ...] = ()) -> dict[str, list[tuple[Any, ...]]]:
    """Gets every row of every campaign table, in id order (what "as it was" means)."""
    engine = create_engine(url)
    out: dict[str, list[tuple[Any, ...]]] = {}
    try:
        with engine.connect() as conn:
            for table in TABLES:
                result = conn.execute(text(f"SELECT * FROM {table} ORDER BY id"))
                keep = [i for i, key in enumerate(result.keys()) if key not in skip]
                out[table] = [tuple(row[i] for i in keep) for row in result]
    finally:
        engine.dispose()
    return out


def sample_campaign(store: Store) -> int:
    name, roster, templates = load_sample()
    ysolde = next(e for e in roster if e.spells)
    roster = [spend_spells(e, [e.spells[0].name]) if e is ysolde else e for e in roster]
    templates = [replace(templates[0], xp=10), *templates[1:]]
    campaign = store.campaigns.create_with(name, roster, templates)
    store.roster.import_entries(campaign.id, [], "an earlier session")  # the log is not empty
    return campaign.id


def test_spent_spells_and_template_xp_are_kept(store: Store) -> None:
    campaign = store.campaigns.create("Greyhawk")
    caster = RosterEntry(name="Halvaine", spells=(Spell("Sleep"), Spell("Web", 2, 2)))
    saved = store.roster.add(campaign.id, spend_spells(caster, ["Web"]))
    assert store.roster.entries(campaign.id)[0].spent_spells == (1,) == saved.spent_spells
    orc = store.templates.add(campaign.id, MonsterTemplate(name="Orc", xp=10,
                                                          weapons=(Weapon("Spear", 6),)))
    assert store.templates.all(campaign.id) == [orc]
    assert (orc.xp, orc.weapons[0].name) == (10, "Spear")
    plain = store.templates.add(campaign.id, MonsterTemplate(name="Rat"))
    assert store.templates.get(plain.id or 0) == plain and plain.xp is None


def test_an_undone_import_leaves_the_database_as_it_was(store: Store) -> None:
    campaign_id = sample_campaign(store)
    before = dump(store.full_url, skip=AUDIT)
    entries, templates = store.roster.entries(campaign_id), store.templates.all(campaign_id)
    brannoc = next(e for e in entries if e.name == "Brannoc the Bold")
    incoming = [replace(brannoc, hp=3, id=None, version=0),  # a duplicate, updated
                replace(brannoc, hp=5, id=None, version=0),  # the same name again: added
                RosterEntry(name="Wat the Levy", hp=3)]  # fmt: skip
    new_templates = [replace(templates[0], hit_dice="2d8", id=None, version=0),
                     MonsterTemplate(name="Giant rat", hit_dice="1d4", xp=7)]  # fmt: skip
    plan = plan_import(entries, templates, incoming, new_templates)
    assert [d.label for d in plan.duplicates] == [
        "Brannoc the Bold (PC)", f"{templates[0].name} (monster template)"]
    assert "HP 24 → 3" in plan.duplicates[0].differences
    changes = resolve(plan, [Choice.UPDATE, Choice.UPDATE])
    applied = store.batches.apply_import(campaign_id, changes, changes.summary("party.json"),
                                 changes.details())
    after = store.roster.entries(campaign_id)
    assert len(after) == len(entries) + 2
    assert next(e for e in after if e.id == brannoc.id).hp == 3
    assert store.roster.session_log(campaign_id)[
        0].summary == "Import party.json: 3 added, 2 updated"
    assert dump(store.full_url, skip=AUDIT) != before

    store.batches.undo_import(campaign_id, applied)
    assert dump(store.full_url, skip=AUDIT) == before

    again = store.batches.apply_import(campaign_id, applied.changes, "redo", [])  # redo: same ids
    assert {e.id for e in store.roster.entries(campaign_id)} == {e.id for e in after}
    store.batches.undo_import(campaign_id, again)
    assert dump(store.full_url, skip=AUDIT) == before


def test_an_import_changed_since_is_not_undone_halfway(store: Store) -> None:
    campaign_id = sample_campaign(store)
    entries = store.roster.entries(campaign_id)
    changes = resolve(plan_import(entries, [], [RosterEntry(name="Wat"),
                                                RosterEntry(name="Alda")]), [])
    applied = store.batches.apply_import(campaign_id, changes, "Import", [])
    wat = next(e for e in store.roster.entries(campaign_id) if e.name == "Wat")
    store.roster.update(replace(wat, notes="edited in another window"))
    held = dump(store.full_url)
    with pytest.raises(ConflictError, match="Wat changed or went away since; nothing was undone"):
        store.batches.undo_import(campaign_id, applied)
    assert dump(store.full_url) == held


@pytest.mark.parametrize("writer", [write_roster_json, write_roster_csv])
def test_export_then_import_changes_nothing(store: Store, writer: Any) -> None:
    campaign_id = sample_campaign(store)
    entries, templates = store.roster.entries(campaign_id), store.templates.all(campaign_id)
    assert any(e.spent_spells for e in entries) and any(t.xp for t in templates)
    name = "roster.csv" if writer is write_roster_csv else "roster.json"
    document = read_roster_document(name, writer(entries, templates))
    assert len(document.templates) == len(templates)
    plan = plan_import(entries, templates, document.entries, document.templates)
    assert plan.nothing_to_do and not plan.duplicates
    assert len(plan.unchanged) == len(entries) + len(templates)


def test_a_multi_delete_is_one_transaction_and_comes_back_whole(store: Store) -> None:
    campaign_id = sample_campaign(store)
    before = dump(store.full_url, skip=(*WHEN_SAVED, *AUDIT))
    entries, templates = store.roster.entries(campaign_id), store.templates.all(campaign_id)
    gone, gone_t = entries[:3], templates[:1]
    store.roster.update(replace(entries[2], notes="elsewhere"))
    with pytest.raises(ConflictError):
        store.batches.remove(gone, gone_t)  # one was changed since: none removed
    assert len(store.roster.entries(campaign_id)) == len(entries)
    store.roster.update(replace(store.roster.entries(campaign_id)[2], notes=entries[2].notes))
    gone = store.roster.entries(campaign_id)[:3]
    mid = dump(store.full_url, skip=(*WHEN_SAVED, *AUDIT))
    store.batches.remove(gone, gone_t)
    assert [e.id for e in store.roster.entries(campaign_id)] == [e.id for e in entries[3:]]
    store.batches.restore(campaign_id, gone, gone_t)
    assert store.roster.entries(campaign_id)[:3] == gone
    assert store.templates.all(campaign_id) == templates
    assert dump(store.full_url, skip=(*WHEN_SAVED, *AUDIT)) == mid  # ids and versions kept
    assert before["campaigns"] == mid["campaigns"]


def test_a_rest_saves_the_party_in_one_logged_transaction(store: Store) -> None:
    campaign_id = sample_campaign(store)
    entries = store.roster.entries(campaign_id)
    caster = next(e for e in entries if e.spent_spells)
    hurt = replace(caster, hp=1)
    (caster,) = store.batches.save_entries(campaign_id, [hurt], "Hurt", [])
    party = [e for e in store.roster.entries(campaign_id)]
    saved = store.batches.save_entries(campaign_id, [rested(e, restore_hp=True) for e in party],
                               "Rest", ["Sister Ysolde: spells restored"])
    now = next(e for e in saved if e.id == caster.id)
    assert now.spent_spells == () and now.hp == now.max_hp
    assert store.roster.session_log(campaign_id)[0].summary == "Rest"
    with pytest.raises(ConflictError):
        store.batches.save_entries(campaign_id, [caster], "stale", [])  # an old version: refused
