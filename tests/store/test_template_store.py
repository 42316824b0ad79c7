"""Store methods behind the template editor: add, update, delete, restore, version checks."""

from dataclasses import replace

import pytest

from core.model.values import Weapon
from core.roster.entries import MonsterTemplate
from core.store import ConflictError, NotFoundError, Store, StoreError

GNOLL = MonsterTemplate(
    name="Gnoll", hit_dice="2d8", ac=5, movement=9, morale=8, attacks=1, surprises_on=2,
    weapons=(Weapon("Halberd", speed_factor=9, length=8.0),), notes="Pack hunters",
)  # fmt: skip


def test_a_template_is_added_edited_deleted_and_restored_with_its_version(store: Store) -> None:
    campaign = store.campaigns.create("Greyhawk")
    added = store.templates.add(campaign.id, GNOLL)
    assert added.id is not None and added.version == 1
    assert replace(added, id=None, version=0) == GNOLL
    edited = store.templates.update(replace(added, hit_dice="2d8+2", surprises_on=None))
    assert (edited.hit_dice, edited.surprises_on, edited.version) == ("2d8+2", None, 2)
    assert store.templates.get(added.id) == edited

    store.templates.remove(added.id, edited.version)
    assert store.templates.all(campaign.id) == []
    restored = store.templates.restore(campaign.id, edited)
    assert restored == edited and store.templates.all(campaign.id) == [edited]
    assert store.templates.update(replace(restored, ac=4)).version == edited.version + 1


def test_a_stale_template_is_never_overwritten_and_the_conflict_carries_the_saved_one(
    store: Store,
) -> None:
    campaign = store.campaigns.create("Greyhawk")
    mine = store.templates.add(campaign.id, GNOLL)
    theirs = store.templates.update(replace(mine, morale=11, notes="Their note"))
    with pytest.raises(ConflictError) as caught:
        store.templates.update(replace(mine, morale=5))
    assert caught.value.saved == theirs
    with pytest.raises(ConflictError) as removing:
        store.templates.remove(mine.id or 0, mine.version)
    assert removing.value.saved == theirs
    assert store.templates.all(campaign.id) == [theirs]
    # Saved on top of theirs, as a DM who saw both may choose to:
    kept = store.templates.update(replace(mine, morale=5, version=theirs.version))
    assert (kept.morale, kept.notes, kept.version) == (5, "Pack hunters", 3)
    store.templates.remove(kept.id or 0, kept.version)
    with pytest.raises(NotFoundError):
        store.templates.update(kept)


def test_a_template_with_bad_hit_dice_is_refused_with_the_parsers_reason(store: Store) -> None:
    campaign = store.campaigns.create("Greyhawk")
    with pytest.raises(StoreError, match="expected \\+ or - at position 4"):
        store.templates.add(campaign.id, replace(GNOLL, hit_dice="2d8x"))
    saved = store.templates.add(campaign.id, GNOLL)
    with pytest.raises(StoreError, match="Surprises on X in 6"):
        store.templates.update(replace(saved, surprises_on=7))
    assert store.templates.all(campaign.id) == [saved]
