"""``weapon_facts`` on a declaration, turn or action: a weapon picked from the weapon table.

The desktop writes the facts into the entry (not a reference to the table), so a log replays
the same way whatever later becomes of ``resources/weapons.json``.
"""

from __future__ import annotations

from typing import Any

import pytest

from core.model.dice import Roller
from core.model.scenario import ScenarioError, declared_weapon, parse_scenario
from core.model.values import Combatant, Resolution, Weapon
from core.rules import find_system
from core.rules.popcorn_attack import attack_notes

Doc = dict[str, Any]
FIGHTER = {"id": "f", "side": "party", "hp": 10, "weapons": [{"name": "Long sword"}]}
ORC = {
    "id": "o",
    "side": "monsters",
    "hp": 6,
    "weapons": [{"name": "Spear", "speed_factor": 6, "length": 8}],
}


def run(system: str, combatants: list[Doc], **top: Any) -> Resolution:
    doc = {"format": "combatdesk/scenario-1", "system": system, "combatants": combatants, **top}
    result: Resolution = find_system(system).resolve(parse_scenario(doc), Roller.seeded(3))
    return result


def addict_tie(fighter_decl: Doc) -> Resolution:
    """A tied round: the orc's spear (speed factor 6) against the fighter's blow."""
    return run(
        "addict",
        [FIGHTER, ORC],
        rounds=[
            {
                "initiative": {"party": 3, "monsters": 3},
                "declarations": [
                    {"actor": "o", "action": "G", "target": "f", "hit": True, "damage": 1},
                    {
                        "actor": "f",
                        "action": "G",
                        "target": "o",
                        "hit": True,
                        "damage": 2,
                        **fighter_decl,
                    },
                ],
            }
        ],
    )


def test_facts_fill_what_the_carried_weapon_lacks() -> None:
    """addict.tie.speed-factor: with the table's speed factor 5 the sword beats the spear's 6;
    without one it joins the fastest group (addict.tie.no-speed-factor), beside the spear."""
    bare = addict_tie({})
    assert bare.steps[0].group == bare.steps[1].group
    filled = addict_tie({"weapon": "Long sword", "weapon_facts": {"speed_factor": 5}})
    assert [(s.actor, s.detail.get("weapon")) for s in filled.steps] == [
        ("f", "Long sword"),
        ("o", "Spear"),
    ]
    assert filled.steps[0].group != filled.steps[1].group
    assert "addict.tie.speed-factor" in filled.steps[0].because


def test_a_table_weapon_the_combatant_does_not_carry() -> None:
    """A weapon named with facts need not be carried; without facts it is still refused."""
    picked = addict_tie(
        {"weapon": "Two-handed sword", "weapon_facts": {"speed_factor": 10, "length": 6}}
    )
    assert [(s.actor, s.detail.get("weapon")) for s in picked.steps] == [
        ("o", "Spear"),
        ("f", "Two-handed sword"),
    ]
    with pytest.raises(ScenarioError, match="has no weapon 'Two-handed sword'"):
        addict_tie({"weapon": "Two-handed sword"})


def test_facts_given_in_the_entry_win_over_the_roster() -> None:
    actor = Combatant("f", "party", weapons=(Weapon("Spear", speed_factor=6, length=9.0),))
    assert declared_weapon(actor, {"weapon": "Spear"}, "d") == actor.weapons[0]
    assert declared_weapon(actor, {"weapon": "Spear", "weapon_facts": {"length": 13}}, "d") == (
        Weapon("Spear", speed_factor=6, length=13.0)
    )
    assert declared_weapon(actor, {"weapon_facts": {"speed_factor": 8}}, "d") == (
        Weapon("Spear", speed_factor=8, length=9.0)
    )  # no name: the first weapon


@pytest.mark.parametrize(
    ("facts", "field", "says"),
    [
        ({"speed": 5}, "weapon_facts.speed", "unknown weapon fact"),
        ({"length": "long"}, "weapon_facts.length", "length in feet"),
        ({"slow": "yes"}, "weapon_facts.slow", "true or false"),
        ("fast", "weapon_facts", "expected an object"),
    ],
)
def test_bad_facts_are_refused_when_the_scenario_is_read(facts: Any, field: str, says: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        addict_tie({"weapon": "Long sword", "weapon_facts": facts})
    assert caught.value.field == f"rounds[0].declarations[1].{field}"
    assert says in str(caught.value)


def test_facts_need_a_weapon_name() -> None:
    unarmed = {"id": "f", "side": "party", "hp": 10}
    with pytest.raises(ScenarioError, match="need a weapon name"):
        run(
            "addict",
            [unarmed, ORC],
            rounds=[
                {
                    "initiative": {"party": 3, "monsters": 3},
                    "declarations": [
                        {
                            "actor": "f",
                            "action": "G",
                            "target": "o",
                            "weapon_facts": {"speed_factor": 5},
                        }
                    ],
                }
            ],
        )


def test_popcorn_slow_from_the_facts() -> None:
    """popcorn.attack.slow-weapon-last: a two-handed sword picked from the OSE list is slow."""
    ann = {"id": "ann", "side": "party", "hp": 20, "weapons": [{"name": "Dagger"}]}
    orc = {"id": "orc", "side": "monsters", "hp": 20}
    gob = {"id": "gob", "side": "monsters", "hp": 20}

    def turns(extra: Doc) -> list[Doc]:
        return [
            {
                "turns": [
                    {
                        "actor": "ann",
                        "action": "attack",
                        "target": "orc",
                        "hit": True,
                        "damage": 1,
                        "nominates": "orc",
                        **extra,
                    },
                    {"actor": "orc", "action": "other", "nominates": "gob"},
                    {"actor": "gob", "action": "other", "nominates": "gob"},
                ]
            }
        ]

    init = {"ann": 15, "orc": 5, "gob": 3}
    plain = run("popcorn", [ann, orc, gob], rounds=turns({}), initiative=init)
    assert plain.steps[0].actor == "ann"
    slow = run(
        "popcorn",
        [ann, orc, gob],
        initiative=init,
        rounds=turns({"weapon": "Two-handed sword", "weapon_facts": {"slow": True}}),
    )
    assert slow.steps[-1].actor == "ann" and slow.steps[-1].detail.get("weapon") == (
        "Two-handed sword"
    )
    assert "popcorn.attack.slow-weapon-last" in slow.steps[-1].because


def test_time_units_missile_from_the_facts() -> None:
    """time-units: an attack with a weapon the facts call a missile is a missile attack."""
    archer = {"id": "a", "side": "party", "hp": 10}
    orc = {"id": "o", "side": "monsters", "hp": 10}
    res = run(
        "time-units",
        [archer, orc],
        actions=[
            {
                "actor": "a",
                "action": "attack",
                "target": "o",
                "roll": 3,
                "weapon": "Long bow",
                "weapon_facts": {"missile": True, "rate_of_fire": 2},
                "hit": False,
            },
            {"actor": "o", "action": "attack", "target": "a", "roll": 3, "hit": False},
        ],
    )
    shot, blow = (next(s for s in res.steps if s.actor == who) for who in ("a", "o"))
    assert shot.tu == blow.tu and shot.group is not None and blow.group is not None
    assert shot.group < blow.group  # without the facts the two are simultaneous
    assert "time-units.order.missile-spell-melee" in shot.because


def test_popcorn_attack_notes_see_a_table_missile() -> None:
    """The modifiers shown for a popcorn attack: a bow from the table is a missile, so the
    attacker's Dexterity counts, not its Strength."""
    archer = {"id": "ann", "side": "party", "hp": 8, "dex": 16, "str": 6}
    orc = {"id": "orc", "side": "monsters", "hp": 8}
    doc = {
        "format": "combatdesk/scenario-1",
        "system": "popcorn",
        "combatants": [archer, orc],
        "rounds": [],
    }
    turn = {"actor": "ann", "action": "attack", "target": "orc", "weapon": "Short bow"}
    melee = attack_notes(parse_scenario(doc), turn)
    shot = attack_notes(parse_scenario(doc), {**turn, "weapon_facts": {"missile": True}})
    assert any("Strength" in n.text for n in melee) and not any(
        "Dexterity" in n.text for n in melee
    )
    assert any("Dexterity" in n.text for n in shot) and not any("Strength" in n.text for n in shot)
