"""The weapon table resource, checked against the published tables, and its loader.

The expected values below were written from the books, not from the resource:
AD&D 1e Players Handbook (1978) p.38, "Weapon types, general data, and 'to hit' adjustments"
(length, speed factor of hand-held weapons) and "Hurled weapons and missiles" (rate of fire);
Old-School Essentials Classic Fantasy, the weapons table and its qualities (slow, two-handed).
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from core.model.resources import load_weapon_table, resource
from core.model.values import Weapon
from core.model.weapons import (
    WeaponTableError,
    declare_weapon,
    facts_words,
    feet,
    fill_missing,
    fold,
    parse_weapon_table,
)

RESOURCE = resource("weapons.json")

# name as a DM types it: (speed factor, length in feet as the book prints it "c. N'")
PHB_MELEE: dict[str, tuple[int, float]] = {
    "long sword": (5, 3.5),
    "broad sword": (5, 3.5),
    "short sword": (3, 2),
    "bastard sword": (6, 4.5),
    "two-handed sword": (10, 6),
    "dagger": (2, 1.25),  # c. 15"
    "scimitar": (4, 3),
    "battle axe": (7, 4),
    "hand axe": (4, 1.5),
    "footman's mace": (7, 2.5),
    "horseman's mace": (6, 1.5),
    "footman's flail": (7, 4),
    "horseman's flail": (6, 2),
    "morning star": (7, 4),
    "club": (4, 3),
    "hammer": (4, 1.5),
    "halberd": (9, 5),
    "bardiche": (9, 5),
    "bec de corbin": (9, 6),
    "awl pike": (13, 18),
    "heavy lance": (8, 14),
    "light lance": (7, 10),
    "medium lance": (6, 12),
    "jo stick": (2, 3),
    "bo stick": (3, 5),
    "glaive": (8, 8),
    "voulge": (10, 8),
}

# The book gives ranges for these: (speed factor low, high), (length low, high).
PHB_RANGES: dict[str, tuple[tuple[int, int] | None, tuple[float, float]]] = {
    "spear": ((6, 8), (5, 13)),
    "trident": ((6, 8), (4, 8)),
    "quarter staff": (None, (6, 8)),
}

# Rate of fire a round, from "Hurled weapons and missiles".
PHB_RATE_OF_FIRE: dict[str, Fraction] = {
    "heavy crossbow": Fraction(1, 2),
    "light crossbow": Fraction(1),
    "long bow": Fraction(2),
    "short bow": Fraction(2),
    "composite long bow": Fraction(2),
    "composite short bow": Fraction(2),
    "sling": Fraction(1),
    "darts": Fraction(3),
    "javelin": Fraction(1),
    "thrown dagger": Fraction(2),
    "thrown hand axe": Fraction(1),
    "thrown spear": Fraction(1),
}

# OSE: (slow, two-handed) as the weapons table marks them.
OSE_FLAGS: dict[str, tuple[bool, bool]] = {
    "two-handed sword": (True, True),
    "battle axe": (True, True),
    "polearm": (True, True),
    "crossbow": (True, True),
    "staff": (True, True),
    "long bow": (False, True),
    "short bow": (False, True),
    "sword": (False, False),
    "short sword": (False, False),
    "dagger": (False, False),
    "mace": (False, False),
    "spear": (False, False),
    "war hammer": (False, False),
    "lance": (False, False),
}


# OSE damage dice as the weapons table gives them.
OSE_DAMAGE: dict[str, str] = {
    "battle axe": "1d8",
    "club": "1d4",
    "crossbow": "1d6",
    "dagger": "1d4",
    "hand axe": "1d6",
    "javelin": "1d4",
    "polearm": "1d10",
    "sword": "1d8",
    "two-handed sword": "1d10",
    "staff": "1d4",
}


def _raw_entries(list_id: str) -> dict[str, dict[str, Any]]:
    """Reads the resource file itself (no loader), keyed by folded name and alias."""
    document = json.loads(Path(RESOURCE).read_text(encoding="utf-8"))
    out: dict[str, dict[str, Any]] = {}
    for entry in document["lists"][list_id]["weapons"]:
        for name in (entry["name"], *entry.get("aliases", [])):
            out[fold(name)] = entry
    return out


@pytest.mark.parametrize("name", sorted(PHB_MELEE))
def test_adnd_melee_speed_factor_and_length_match_the_phb(name: str) -> None:
    entry = _raw_entries("adnd1e")[fold(name)]
    speed_factor, length = PHB_MELEE[name]
    assert (entry["speed_factor"], entry["length"]) == (speed_factor, length)
    assert not entry.get("missile", False)


@pytest.mark.parametrize("name", sorted(PHB_RANGES))
def test_adnd_ranges_match_the_phb_and_hold_their_middle(name: str) -> None:
    entry = _raw_entries("adnd1e")[fold(name)]
    sf_range, length_range = PHB_RANGES[name]
    assert tuple(entry["length_range"]) == length_range
    assert entry["length"] == sum(length_range) / 2
    if sf_range is not None:
        assert tuple(entry["speed_factor_range"]) == sf_range
        assert entry["speed_factor"] == sum(sf_range) // 2


@pytest.mark.parametrize("name", sorted(PHB_RATE_OF_FIRE))
def test_adnd_rate_of_fire_matches_the_phb(name: str) -> None:
    entry = _raw_entries("adnd1e")[fold(name)]
    assert Fraction(entry["rate_of_fire"]) == PHB_RATE_OF_FIRE[name]
    assert entry["missile"] is True


@pytest.mark.parametrize("name", sorted(OSE_FLAGS))
def test_ose_slow_and_two_handed_match_the_weapons_table(name: str) -> None:
    entry = _raw_entries("ose")[fold(name)]
    slow, two_handed = OSE_FLAGS[name]
    qualities = set(entry["qualities"])
    assert ("slow" in qualities, "two-handed" in qualities) == (slow, two_handed)


@pytest.mark.parametrize("name", sorted(OSE_DAMAGE))
def test_ose_damage_matches_the_weapons_table(name: str) -> None:
    assert _raw_entries("ose")[fold(name)]["damage"] == OSE_DAMAGE[name]


def test_every_list_names_its_book_and_its_systems() -> None:
    table = load_weapon_table()
    assert {wl.id for wl in table.lists} == {"adnd1e", "ose"}
    assert "Players Handbook" in table.lists[0].source
    assert table.list_for("addict") is table.list_for("side-d6") is table.lists[0]
    assert table.list_for("popcorn") is table.lists[1]
    assert table.list_for("no-such-system") is None


# --- lookup -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "typed", ["long sword", "Longsword", "LONG SWORD", "Sword, long", "long-sword", " long  sword "]
)
def test_lookup_ignores_case_spaces_hyphens_and_takes_the_book_order(typed: str) -> None:
    found = load_weapon_table().find(typed, "addict")
    assert found is not None and found.name == "Long sword"


def test_lookup_per_system_and_across_lists() -> None:
    table = load_weapon_table()
    assert table.find("long sword", "popcorn").name == "Sword"  # type: ignore[union-attr]
    assert table.find("sword", "addict") is None  # AD&D has no plain "sword": no guess
    assert table.find("no such blade") is None
    assert table.find(None) is None
    assert [w.list_id for w in table.find_all("two-handed sword")] == ["adnd1e", "ose"]


def test_facts_without_a_system_join_both_lists() -> None:
    table = load_weapon_table()
    assert table.facts("two-handed sword") == Weapon(
        "Two-handed sword", speed_factor=10, length=6.0, slow=True
    )
    assert table.facts("two-handed sword", "addict") == Weapon(
        "Two-handed sword", speed_factor=10, length=6.0, slow=False
    )
    heavy = table.facts("heavy crossbow", "addict")
    assert heavy is not None and heavy.missile and heavy.rate_of_fire is None  # 1/2 is not whole
    assert table.facts("darts", "addict") == Weapon("Dart", missile=True, rate_of_fire=3)


def test_names_are_sorted_and_each_weapon_offered_once() -> None:
    names = load_weapon_table().names()
    assert list(names) == sorted(names, key=str.casefold)
    assert len({fold(n) for n in names}) == len(names)
    assert "War hammer" not in names and "Hammer" in names  # one weapon, AD&D's name
    assert "Polearm" in names and "Long sword" in names


def test_fill_missing_keeps_every_value_the_dm_typed() -> None:
    facts = Weapon("Long sword", speed_factor=5, length=3.5, rate_of_fire=1, slow=True)
    typed = Weapon("Long sword", speed_factor=4)
    assert fill_missing(typed, facts) == Weapon(
        "Long sword", speed_factor=4, length=3.5, rate_of_fire=1, slow=False
    )


def test_words() -> None:
    table = load_weapon_table()
    assert feet(1.25) == "1¼ ft" and feet(3.5) == "3½ ft" and feet(18) == "18 ft"
    assert feet(None) == "—" and feet(0.5) == "½ ft"
    assert facts_words(table.find("long sword", "addict")) == "speed factor 5, 3½ ft"  # type: ignore[arg-type]
    assert facts_words(table.find("heavy crossbow", "addict")) == "rate of fire 1/2"  # type: ignore[arg-type]
    assert facts_words(table.find("polearm", "popcorn")) == "slow, two-handed"  # type: ignore[arg-type]
    assert facts_words(table.find("spear", "addict")) == (  # type: ignore[arg-type]
        "speed factor 7 (the book: 6–8), 9 ft (the book: 5–13 ft)"
    )


# --- a malformed file ---------------------------------------------------------------------------


def _document(**weapon: Any) -> dict[str, Any]:
    entry = {"name": "Long sword", "speed_factor": 5, "length": 3.5, **weapon}
    return {
        "format": "combatdesk/weapons-1",
        "lists": {
            "adnd1e": {"title": "AD&D", "source": "PHB", "systems": ["addict"], "weapons": [entry]}
        },
    }


@pytest.mark.parametrize(
    ("change", "where", "says"),
    [
        ({"speed_factor": "5"}, "lists.adnd1e.weapons[0].speed_factor", "whole number"),
        ({"speed_factor": True}, "lists.adnd1e.weapons[0].speed_factor", "whole number"),
        ({"length": -1}, "lists.adnd1e.weapons[0].length", "number of feet"),
        ({"rate_of_fire": "fast"}, "lists.adnd1e.weapons[0].rate_of_fire", "1/2"),
        ({"rate_of_fire": 0}, "lists.adnd1e.weapons[0].rate_of_fire", "above 0"),
        ({"speed_factor_range": [6, 8]}, "lists.adnd1e.weapons[0].speed_factor", "outside"),
        ({"aliases": "longsword"}, "lists.adnd1e.weapons[0].aliases", "list of names"),
        ({"name": ""}, "lists.adnd1e.weapons[0].name", "expected text"),
        ({"speed": 5}, "lists.adnd1e.weapons[0].speed", "unknown field"),
        ({"missile": "yes"}, "lists.adnd1e.weapons[0].missile", "true or false"),
    ],
)
def test_a_bad_weapon_is_refused_saying_where(
    change: dict[str, Any], where: str, says: str
) -> None:
    with pytest.raises(WeaponTableError) as caught:
        parse_weapon_table(_document(**change))
    assert caught.value.where == where
    assert says in caught.value.message


def test_a_bad_document_is_refused() -> None:
    with pytest.raises(WeaponTableError, match="format"):
        parse_weapon_table({**_document(), "format": "combatdesk/weapons-9"})
    with pytest.raises(WeaponTableError, match="no weapon lists"):
        parse_weapon_table({**_document(), "lists": {}})
    twice = _document()
    twice["lists"]["adnd1e"]["weapons"].append({"name": "Longsword", "speed_factor": 4})
    with pytest.raises(WeaponTableError, match=r"weapons\[1\]: the name 'Longsword' is already"):
        parse_weapon_table(twice)
    two = _document()
    two["lists"]["other"] = {**two["lists"]["adnd1e"]}
    with pytest.raises(WeaponTableError, match="'addict' already uses the adnd1e list"):
        parse_weapon_table(two)


def test_the_loader_names_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "weapons.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(WeaponTableError, match=r"weapons\.json: is not JSON"):
        load_weapon_table(bad)
    bad.write_text(json.dumps(_document(length="long")), encoding="utf-8")
    with pytest.raises(WeaponTableError) as caught:
        load_weapon_table(bad)
    assert str(bad) in str(caught.value) and "weapons[0].length" in str(caught.value)
    with pytest.raises(WeaponTableError, match="cannot be read"):
        load_weapon_table(tmp_path / "missing.json")
    good = tmp_path / "good.json"
    good.write_text(json.dumps(_document()), encoding="utf-8")
    assert load_weapon_table(good).find("longsword") is not None


# --- a declared weapon --------------------------------------------------------------------------

CARRIED = (
    Weapon("Long sword"),
    Weapon("Spear", speed_factor=6, length=9.0),
    Weapon("Two-handed sword"),
)


def test_declaring_the_default_weapon_names_it_when_the_table_fills_it() -> None:
    chosen = declare_weapon(CARRIED, None, load_weapon_table(), "addict")
    assert (chosen.name, dict(chosen.facts)) == ("Long sword", {"speed_factor": 5, "length": 3.5})
    assert "from the AD&D 1st edition weapon table" in chosen.words
    bare = declare_weapon((), None, load_weapon_table(), "addict")
    assert (bare.name, dict(bare.facts)) == (None, {}) and "natural attack" in bare.words


def test_declaring_a_carried_weapon_keeps_its_facts() -> None:
    chosen = declare_weapon(CARRIED, "spear", load_weapon_table(), "addict")
    # the entry's own spelling (the engine matches names exactly), nothing filled: both known
    assert (chosen.name, dict(chosen.facts)) == ("Spear", {})
    assert chosen.words == "Spear: speed factor 6, 9 ft"


def test_declaring_a_weapon_only_the_table_has() -> None:
    chosen = declare_weapon(CARRIED, "thrown dagger", load_weapon_table(), "side-d6")
    assert (chosen.name, dict(chosen.facts)) == (
        "Thrown dagger",
        {"rate_of_fire": 2, "missile": True},
    )
    unknown = declare_weapon(CARRIED, "Vorpal spoon", load_weapon_table(), "addict")
    assert (unknown.name, dict(unknown.facts)) == ("Vorpal spoon", {})
    assert "not in the AD&D 1st edition weapon table" in unknown.words


def test_a_carried_weapon_the_table_calls_slow_is_only_pointed_out() -> None:
    chosen = declare_weapon(CARRIED, "Two-handed sword", load_weapon_table(), "popcorn")
    assert dict(chosen.facts) == {}  # the flag the DM left clear is not changed
    assert "marks it slow, this combatant's entry does not" in chosen.words


def test_declaring_without_a_table() -> None:
    chosen = declare_weapon(CARRIED, "Long sword", None, "addict")
    assert (chosen.name, dict(chosen.facts)) == ("Long sword", {})


@pytest.mark.parametrize("name", sorted(PHB_RATE_OF_FIRE))
def test_adnd_missiles_carry_no_speed_factor_and_say_why(name: str) -> None:
    """Issue 25, point 9 (addict.tie.missile-without-speed-factor): the long bow and the sling
    have no speed factor because the book cited gives none: PHB p.38 lists missile weapons
    under "Hurled weapons and missiles" with a rate of fire only. The entry says so."""
    entry = _raw_entries("adnd1e")[fold(name)]
    assert "speed_factor" not in entry and "length" not in entry
    assert "PHB p.38" in entry["note"] and "no speed factor" in entry["note"]
