"""Tests of the time-unit system (core/rules/time_units.py), one or more per rule id."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from core.model.dice import Roller
from core.model.scenario import ScenarioError, parse_scenario
from core.model.values import Resolution, Status, Step
from core.rules import find_system
from core.rules.time_units import RULES, SYSTEM, Fate, Options, schedule
from tests.core.rules.growth import GROWTH_LIMIT, growth


def doc(combatants: list[dict[str, Any]], actions: list[dict[str, Any]],
        **extra: Any) -> dict[str, Any]:
    """Builds a time-units scenario document."""
    return {"format": "combatdesk/scenario-1", "system": "time-units",
            "combatants": combatants, "actions": actions, **extra}


def resolve(document: dict[str, Any], seed: int = 1) -> Resolution:
    """Resolves a scenario document with a seeded roller."""
    return SYSTEM.resolve(parse_scenario(document), Roller.seeded(seed))


def acts(res: Resolution) -> list[tuple[int | None, str, str]]:
    """Gets (tu, actor, event) of every step."""
    return [(s.tu, s.actor, str(s.event)) for s in res.steps]


def first(res: Resolution, actor: str, event: str) -> Step:
    """Gets the first step of ``actor`` with ``event``."""
    return next(s for s in res.steps if s.actor == actor and s.event == event)


PAIR = [{"id": "a", "side": "party", "hp": 10}, {"id": "b", "side": "monsters", "hp": 10}]
BOLOG = [{"id": "bolog", "side": "party", "dex": 7, "hp": 6,
          "spells": [{"name": "magic missile", "level": 1}]},
         {"id": "orc-1", "side": "monsters", "hp": 5},
         {"id": "orc-2", "side": "monsters", "hp": 5}]


def test_system_is_registered() -> None:
    """The registry finds the module by id; options default to the source."""
    assert find_system("time-units") is SYSTEM
    assert Options().action_cost == 5 and Options().round_tu == 10
    assert [p.id for p in SYSTEM.phases()] == ["encounter", "declare", "clock"]


def test_every_rule_has_a_test() -> None:
    """Every rule id is cited in this file."""
    text = Path(__file__).read_text()
    missing = [rid for rid in RULES if f'"""{rid}' not in text]
    assert not missing


# --- The Encounter Sequence -----------------------------------------------------------------------

def test_encounter_d6_lower_side_wins() -> None:
    """time-units.encounter.d6-per-side: each side's d6 is recorded; the lower has initiative."""
    res = resolve(doc(PAIR, [], initiative={"party": 5, "monsters": 2},
                      options={"encounter_steps": True}))
    enc = [s for s in res.steps if s.detail.get("reason") == "encounter-initiative"]
    assert [(s.actor, s.detail["initiative"]) for s in enc] == [("monsters", "won"),
                                                               ("party", "lost")]
    assert enc[0].group == enc[1].group and enc[0].tu == 0
    assert [(r.purpose, r.total, r.manual) for r in res.rolls] == [
        ("encounter initiative party", 5, True), ("encounter initiative monsters", 2, True)]


def test_encounter_missing_die_is_rolled_only_when_asked() -> None:
    """time-units.encounter.d6-per-side: missing d6s are rolled when one is given or on option."""
    res = resolve(doc(PAIR, [], initiative={"party": 3}))
    assert [r.manual for r in res.rolls] == [True, False]
    assert resolve(doc(PAIR, [])).steps == ()
    rolled = resolve(doc(PAIR, [], options={"roll_encounter": True}))
    assert len(rolled.rolls) >= 2 and not rolled.rolls[0].manual


@pytest.mark.parametrize(("tie", "winner"), [("simultaneous", None), ("party", "party")])
def test_encounter_tie(tie: str, winner: str | None) -> None:
    """time-units.encounter.tie: a tie gives no winner by default, the party on option."""
    res = resolve(doc(PAIR, [], initiative={"party": 3, "monsters": 3},
                      options={"encounter_tie": tie, "encounter_steps": True}))
    won = [s.actor for s in res.steps if s.detail.get("initiative") == "won"]
    assert won == ([winner] if winner else [])
    assert "time-units.encounter.tie" in res.steps[0].because


def test_encounter_tie_reroll_rolls_until_one_side_is_lowest() -> None:
    """time-units.encounter.tie: the reroll option rolls fresh d6s from the seed."""
    res = resolve(doc(PAIR, [], initiative={"party": 3, "monsters": 3},
                      options={"encounter_tie": "reroll", "encounter_steps": True}))
    assert len(res.rolls) >= 4
    assert [s.detail["initiative"] for s in res.steps[:2]].count("won") == 1


def test_reaction_roll_is_recorded_and_checked() -> None:
    """time-units.encounter.reaction-2d6: the 2d6 reaction is a roll (and, on option, a step)."""
    assert resolve(doc(PAIR, [], reaction=2)).steps == ()  # a roll, not a step, by default
    res = resolve(doc(PAIR, [], reaction=2, options={"encounter_steps": True}))
    step = res.steps[0]
    assert (step.actor, step.tu, step.detail["roll"], step.detail["reaction"]) == (
        "monsters", 0, 2, "hostile, attacks")
    assert res.rolls[0].expression == "2d6" and res.rolls[0].manual
    with pytest.raises(ScenarioError, match="reaction"):
        resolve(doc(PAIR, [], reaction=13))
    with pytest.raises(ScenarioError, match=r"reaction\.orcs"):
        resolve(doc(PAIR, [], reaction={"orcs": 7}))


# --- The clock ------------------------------------------------------------------------------------

def test_clock_counts_up_with_no_rounds() -> None:
    """time-units.clock.count-up: steps carry a TU and neither round nor segment."""
    res = resolve(doc(PAIR, [{"actor": "a", "action": "melee", "target": "b", "roll": 1}] * 3))
    assert [s.tu for s in res.steps] == [6, 12, 18]
    assert all(s.round is None and s.segment is None and not s.surprise for s in res.steps)
    assert res.to_json()["steps"][0]["round"] is None


def test_delay_never_below_one_tu() -> None:
    """time-units.clock.at-least-one-tu: huge bonuses cannot make an action happen at once."""
    fast = [{"id": "a", "side": "party", "initiative_adj": 20}, {"id": "b", "side": "x"}]
    res = resolve(doc(fast, [{"actor": "a", "action": "other", "roll": 1}] * 2))
    assert [s.tu for s in res.steps] == [1, 2]
    assert "time-units.clock.at-least-one-tu" in res.steps[0].because


def test_d10_roll_is_given_or_rolled_from_the_seed() -> None:
    """time-units.initiative.d10: the d10 is taken as given (manual) or rolled reproducibly."""
    given_roll = resolve(doc(PAIR, [{"actor": "a", "action": "melee", "roll": 4}]))
    assert given_roll.steps[0].tu == 9 and given_roll.rolls[0].manual
    rolled = resolve(doc(PAIR, [{"actor": "a", "action": "melee"}]), seed=7)
    again = resolve(doc(PAIR, [{"actor": "a", "action": "melee"}]), seed=7)
    assert rolled == again and not rolled.rolls[0].manual
    assert rolled.steps[0].tu == 5 + rolled.rolls[0].total
    with pytest.raises(ScenarioError, match=r"actions\[0\]\.roll: a d10 shows 1–10, got 0"):
        resolve(doc(PAIR, [{"actor": "a", "action": "melee", "roll": 0}]))


def test_action_cost_is_five_tu() -> None:
    """time-units.initiative.action-cost: every action costs 5 TU (an option)."""
    action = [{"actor": "a", "action": "move", "roll": 2}]
    assert resolve(doc(PAIR, action)).steps[0].tu == 7
    assert resolve(doc(PAIR, action, options={"action_cost": 3})).steps[0].tu == 5


@pytest.mark.parametrize(("fields", "tu"), [
    ({"dex": 15}, 9), ({"dex": 18}, 8), ({"dex": 10}, 10), ({"dex": 7}, 11), ({"dex": 3}, 12),
    ({"dex": 3, "initiative_adj": 1}, 9),
])
def test_dexterity_bonus_subtracts_tu(fields: dict[str, Any], tu: int) -> None:
    """time-units.initiative.dexterity: Dex 15 (+1) takes 1 TU off; low Dex adds (thief example)."""
    res = resolve(doc([{"id": "t", "side": "party", **fields}],
                      [{"actor": "t", "action": "move", "roll": 5}]))
    assert res.steps[0].tu == tu


def test_halfling_takes_one_tu_off_every_roll() -> None:
    """time-units.initiative.halfling: race halfling is 1 TU quicker on each action."""
    hob = [{"id": "h", "side": "party", "race": "Halfling", "dex": 15}]
    res = resolve(doc(hob, [{"actor": "h", "action": "move", "roll": 5}] * 2))
    assert [s.tu for s in res.steps] == [8, 16]
    assert "time-units.initiative.halfling" in res.steps[1].because


def test_bolog_example_exactly() -> None:
    """time-units.initiative.next-from-completion: Bolog casts at 14/15, then attacks at TU 28."""
    res = resolve(doc(BOLOG, [
        {"actor": "bolog", "action": "spell", "spell": "magic missile", "target": "orc-1",
         "roll": 8},
        {"actor": "bolog", "action": "melee", "target": "orc-2", "roll": 7}]))
    assert acts(res) == [(14, "bolog", "begins-casting"), (15, "bolog", "spell-takes-effect"),
                         (28, "bolog", "attacks")]
    assert "time-units.initiative.next-from-completion" in res.steps[2].because


def test_next_action_counts_from_last_attack_or_first_on_option() -> None:
    """time-units.initiative.next-from-completion: several attacks complete at the last one."""
    fighter = [{"id": "f", "side": "party", "attacks": 2}, {"id": "o", "side": "x"}]
    actions = [{"actor": "f", "action": "melee", "roll": 1},
               {"actor": "f", "action": "move", "roll": 1}]
    assert [s.tu for s in resolve(doc(fighter, actions)).steps] == [6, 11, 17]
    res = resolve(doc(fighter, actions, options={"next_from": "first-attack"}))
    assert sorted(s.tu or 0 for s in res.steps) == [6, 11, 12]


# --- spells ---------------------------------------------------------------------------------------

def test_a_healing_spell_gives_hit_points_back_up_to_the_maximum() -> None:
    """time-units.spell.heals: a cure of 8 on a fighter at 3 of 6 hit points brings him to 6."""
    cleric = [{"id": "c", "side": "party", "spells": [{"name": "cure", "level": 1}]},
              {"id": "f", "side": "party", "hp": 3, "max_hp": 6},
              {"id": "o", "side": "x", "hp": 8}]
    res = resolve(doc(cleric, [{"actor": "c", "action": "spell", "spell": "cure",
                                "target": "f", "roll": 2, "heal": 8}]))
    effect = res.steps[1]
    assert str(effect.event) == "spell-takes-effect" and effect.detail["healed"] == 3
    assert res.combatants["f"].hp == 6 and "time-units.spell.heals" in effect.because


def test_spell_casting_begins_level_tu_before_effect() -> None:
    """time-units.spell.casting-time: a level-3 spell begins 3 TU before it takes effect."""
    mage = [{"id": "m", "side": "party", "spells": [{"name": "fireball", "level": 3}]},
            {"id": "o", "side": "x", "hp": 8}]
    res = resolve(doc(mage, [{"actor": "m", "action": "spell", "spell": "fireball",
                              "target": "o", "roll": 2, "damage": 9}]))
    assert acts(res) == [(7, "m", "begins-casting"), (10, "m", "spell-takes-effect"),
                         (10, "o", "dies")]
    assert res.steps[1].detail["damage"] == 9
    with pytest.raises(ScenarioError, match=r"actions\[0\]\.spell"):
        resolve(doc(mage, [{"actor": "m", "action": "spell", "spell": "sleep"}]))
    level = resolve(doc(mage, [{"actor": "m", "action": "spell", "spell": "x", "level": 2,
                                "roll": 1}]))
    assert [s.tu for s in level.steps] == [6, 8]


def _bolog_hit_at(orc_roll: int, kind: str = "melee", **options: Any) -> Resolution:
    return resolve(doc(BOLOG, [
        {"actor": "bolog", "action": "spell", "spell": "magic missile", "target": "orc-1",
         "roll": 8},
        {"actor": "orc-1", "action": kind, "target": "bolog", "roll": orc_roll, "hit": True,
         "damage": 1},
        {"actor": "bolog", "action": "melee", "target": "orc-2", "roll": 7}], options=options))


def test_hit_while_casting_ruins_the_spell() -> None:
    """time-units.spell.disrupted-by-hit: a hit at TU 14 (the start) ruins Bolog's spell."""
    res = _bolog_hit_at(9)
    assert acts(res)[:3] == [(14, "bolog", "begins-casting"), (14, "orc-1", "hits"),
                             (14, "bolog", "spell-disrupted")]
    assert all(s.event != "spell-takes-effect" for s in res.steps)
    # At TU 15 a melee hit comes after the spell; a missile hit comes before and ruins it.
    assert (15, "bolog", "spell-takes-effect") in acts(_bolog_hit_at(10))
    assert (15, "bolog", "spell-disrupted") in acts(_bolog_hit_at(10, "missile"))
    # Option: the start TU does not count.
    assert (15, "bolog", "spell-takes-effect") in acts(_bolog_hit_at(9, disrupt_at_start=False))


def test_ruined_caster_counts_on_from_the_hit() -> None:
    """time-units.spell.disrupted-next-from: next action from the hit (default) or planned end."""
    assert acts(_bolog_hit_at(9))[-1] == (27, "bolog", "attacks")
    planned = _bolog_hit_at(9, after_disruption="planned-effect")
    assert acts(planned)[-1] == (28, "bolog", "attacks")


# --- several attacks ------------------------------------------------------------------------------

def _attack_tus(attacks: int) -> list[int | None]:
    res = resolve(doc([{"id": "f", "side": "party", "attacks": attacks}, {"id": "o", "side": "x"}],
                      [{"actor": "f", "action": "melee", "target": "o", "roll": 1}]))
    return [s.tu for s in res.steps]


def test_two_attacks_five_apart() -> None:
    """time-units.attacks.two-five-apart: the second attack is 5 TU after the first."""
    assert _attack_tus(2) == [6, 11]


def test_three_attacks_three_apart() -> None:
    """time-units.attacks.three-three-apart: 3 TU, then 3 TU again."""
    assert _attack_tus(3) == [6, 9, 12]


def test_four_attacks_successive() -> None:
    """time-units.attacks.four-successive: four (and more) attacks on successive TUs."""
    assert _attack_tus(4) == [6, 7, 8, 9]
    assert _attack_tus(5) == [6, 7, 8, 9, 10]


def test_attack_outcomes_per_attack() -> None:
    """time-units.attacks.two-five-apart: ``hits`` gives each attack's outcome in order."""
    res = resolve(doc(PAIR, [{"actor": "a", "action": "melee", "target": "b", "roll": 1,
                              "hits": [{"hit": True, "damage": 3}, {"hit": False}]}]))
    assert [(s.tu, str(s.event)) for s in res.steps] == [(6, "hits"), (11, "misses")]
    assert res.steps[0].detail["hp"] == 7
    with pytest.raises(ScenarioError, match="outcomes for 1 attacks"):
        resolve(doc(PAIR, [{"actor": "a", "action": "melee", "attacks": 1,
                            "hits": [{"hit": True}, {"hit": True}]}]))


BOWMAN = [{"id": "a", "side": "party", "hp": 10,
           "weapons": [{"name": "short bow", "missile": True, "rate_of_fire": 2}]},
          {"id": "b", "side": "monsters", "hp": 3}, {"id": "c", "side": "monsters", "hp": 4},
          {"id": "d", "side": "monsters", "hp": 4}]


def test_rate_of_fire_gives_spaced_shots() -> None:
    """time-units.attacks.rate-of-fire: a bow of rate of fire 2 shoots twice, 5 TU apart (the
    spacing of two attacks); ``attacks`` on the action still wins."""
    res = resolve(doc(BOWMAN, [{"actor": "a", "action": "attack", "weapon": "short bow",
                                "target": "b", "roll": 1}]))
    shots = [s for s in res.steps if s.actor == "a"]
    assert [(s.tu, str(s.event)) for s in shots] == [(6, "attacks"), (11, "attacks")]
    assert all("time-units.attacks.rate-of-fire" in s.because for s in shots)
    res = resolve(doc(BOWMAN, [{"actor": "a", "action": "attack", "weapon": "short bow",
                                "target": "b", "roll": 1, "attacks": 1}]))
    assert len([s for s in res.steps if s.actor == "a"]) == 1


def test_attacks_split_between_targets() -> None:
    """time-units.attacks.split-targets: three attacks listed at b and c go b, c, c; with b
    dead before its shot, that shot goes at c (the next listed still standing); with every
    listed target down, the attack is not made. A spell cannot list several targets."""
    hits = [{"hit": True, "damage": 1}, {"hit": True, "damage": 1}, {"hit": False}]
    res = resolve(doc(BOWMAN, [{"actor": "a", "action": "melee", "targets": ["b", "c"],
                                "roll": 1, "attacks": 3, "hits": hits}]))
    assert [(s.target, str(s.event)) for s in res.steps if s.actor == "a"] == [
        ("b", "hits"), ("c", "hits"), ("c", "misses")]
    dead = [BOWMAN[0], {**BOWMAN[1], "status": "dead"}, *BOWMAN[2:]]
    res = resolve(doc(dead, [{"actor": "a", "action": "melee", "targets": ["b", "c"],
                              "roll": 1, "attacks": 2, "hits": hits[:2]}]))
    steps = [s for s in res.steps if s.actor == "a"]
    assert [s.target for s in steps] == ["c", "c"]
    assert steps[0].detail["instead_of"] == "b"
    killing = [{"hit": True, "damage": 5}, {"hit": True, "damage": 1}]
    res = resolve(doc(BOWMAN, [{"actor": "a", "action": "melee", "targets": ["c"],
                                "roll": 1, "attacks": 2, "hits": killing}]))
    assert len([s for s in res.steps if s.actor == "a"]) == 2  # one target: as before
    res = resolve(doc(BOWMAN, [{"actor": "a", "action": "melee", "targets": ["b", "c"],
                                "roll": 1, "attacks": 3,
                                "hits": [killing[0], killing[0], killing[1]]}]))
    assert [s.target for s in res.steps if s.actor == "a" and str(s.event) == "hits"] == [
        "b", "c"]
    with pytest.raises(ScenarioError, match="several targets"):
        resolve(doc(BOLOG, [{"actor": "bolog", "action": "spell", "spell": "magic missile",
                             "targets": ["orc-1", "orc-2"]}]))


# --- same-TU order --------------------------------------------------------------------------------

def test_missiles_then_spells_then_melee() -> None:
    """time-units.order.missile-spell-melee: on one TU missiles, spells, melee, in own groups."""
    cast = [{"id": "m", "side": "party", "spells": [{"name": "s", "level": 1}]},
            {"id": "r", "side": "party"}, {"id": "f", "side": "party"}, {"id": "o", "side": "x"}]
    res = resolve(doc(cast, [
        {"actor": "f", "action": "melee", "target": "o", "roll": 5},
        {"actor": "m", "action": "spell", "spell": "s", "roll": 4},
        {"actor": "r", "action": "missile", "target": "o", "roll": 5}]))
    at10 = [s for s in res.steps if s.tu == 10]
    assert [s.actor for s in at10] == ["r", "m", "f"]
    assert len({s.group for s in at10}) == 3
    assert all("time-units.order.missile-spell-melee" in s.because for s in at10)


def test_moves_and_other_after_melee_or_first_on_option() -> None:
    """time-units.order.moves-and-other: moves, then other, after melee; first on option."""
    cast = [{"id": k, "side": "party"} for k in ("mv", "ot", "me")]
    actions = [{"actor": "ot", "action": "other", "roll": 5},
               {"actor": "mv", "action": "move", "roll": 5},
               {"actor": "me", "action": "melee", "roll": 5}]
    assert [s.actor for s in resolve(doc(cast, actions)).steps] == ["me", "mv", "ot"]
    res = resolve(doc(cast, actions, options={"unlisted_kinds": "before-missiles"}))
    assert [s.actor for s in res.steps] == ["mv", "ot", "me"]
    assert "time-units.order.moves-and-other" in res.steps[0].because


def test_same_kind_same_tu_is_simultaneous() -> None:
    """time-units.order.simultaneous: both melee blows land though each kills; one group."""
    res = resolve(doc(PAIR, [
        {"actor": "b", "action": "melee", "target": "a", "roll": 3, "damage": 10},
        {"actor": "a", "action": "melee", "target": "b", "roll": 3, "damage": 12}]))
    assert acts(res) == [(8, "b", "hits"), (8, "a", "hits"), (8, "a", "dies"), (8, "b", "dies")]
    assert res.steps[0].group == res.steps[1].group != res.steps[2].group
    assert "time-units.order.simultaneous" in res.steps[0].because
    first_side = resolve(doc(PAIR, [
        {"actor": "b", "action": "melee", "target": "a", "roll": 3, "damage": 10},
        {"actor": "a", "action": "melee", "target": "b", "roll": 3, "damage": 12}],
        initiative={"party": 1, "monsters": 4},
        options={"encounter_winner_first_on_ties": True}))
    assert [(s.actor, str(s.event)) for s in first_side.steps[:2]] == [("a", "hits"),
                                                                       ("b", "dies")]


# --- surprise -------------------------------------------------------------------------------------

def test_surprised_creature_counts_from_tu_10() -> None:
    """time-units.surprise.first-action-from-tu-10: first action from TU 10, later ones as usual."""
    cast = [{"id": "a", "side": "party", "surprised": True}, {"id": "b", "side": "x"}]
    res = resolve(doc(cast, [{"actor": "a", "action": "move", "roll": 1}] * 2))
    assert acts(res) == [(0, "a", "surprised"), (16, "a", "moves"), (22, "a", "moves")]
    later = resolve(doc(cast, [{"actor": "a", "action": "move", "roll": 1}],
                        options={"surprise_start_tu": 20}))
    assert later.steps[-1].tu == 26


def test_surprise_d6_surprises_a_side_on_one_or_two() -> None:
    """time-units.surprise.d6: a side's surprise d6 of 1-2 surprises its members."""
    cast = [{"id": "a", "side": "party"}, {"id": "b", "side": "x"},
            {"id": "c", "side": "x", "surprised_on": 0}]
    res = resolve(doc(cast, [], surprise={"x": 2, "party": 3}))
    assert acts(res) == [(0, "b", "surprised")]
    assert [r.purpose for r in res.rolls] == ["surprise x", "surprise party"]
    with pytest.raises(ScenarioError, match=r"surprise\.x: a d6 shows 1–6, got 9"):
        resolve(doc(cast, [], surprise={"x": 9}))


# --- change of mind -------------------------------------------------------------------------------

def test_change_of_mind_cancels_and_rolls_anew() -> None:
    """time-units.change-mind.new-roll: the pending action is cancelled; a new roll from then."""
    res = resolve(doc(PAIR, [
        {"actor": "a", "action": "melee", "target": "b", "roll": 9},
        {"actor": "a", "action": "move", "change": 4, "roll": 2}]))
    assert acts(res) == [(11, "a", "moves")]
    assert "time-units.change-mind.new-roll" in res.steps[0].because
    at_once = resolve(doc(PAIR, [
        {"actor": "a", "action": "melee", "target": "b", "roll": 9},
        {"actor": "a", "action": "move", "change": True, "roll": 2}]))
    assert acts(at_once) == [(7, "a", "moves")]
    assert len(at_once.rolls) == 1
    with pytest.raises(ScenarioError, match="no earlier action"):
        resolve(doc(PAIR, [{"actor": "a", "action": "move", "change": True}]))
    with pytest.raises(ScenarioError, match=r"actions\[1\]\.change"):
        resolve(doc(PAIR, [{"actor": "a", "action": "move", "roll": 1},
                           {"actor": "a", "action": "move", "change": "soon"}]))


def test_change_of_mind_while_casting_abandons_the_spell() -> None:
    """time-units.change-mind.new-roll: changing mind after casting began loses the spell."""
    res = resolve(doc(BOLOG, [
        {"actor": "bolog", "action": "spell", "spell": "web", "level": 3, "roll": 8},
        {"actor": "bolog", "action": "melee", "change": 15, "roll": 1}]))
    assert acts(res) == [(14, "bolog", "begins-casting"), (15, "bolog", "spell-disrupted"),
                         (22, "bolog", "attacks")]
    assert res.steps[1].detail["reason"] == "changed mind"
    # A change on the TU casting would begin comes first: the spell is never begun.
    early = resolve(doc(BOLOG, [
        {"actor": "bolog", "action": "spell", "spell": "web", "level": 3, "roll": 8},
        {"actor": "bolog", "action": "melee", "change": 14, "roll": 1}]))
    assert acts(early) == [(21, "bolog", "attacks")]


# --- durations and deaths -------------------------------------------------------------------------

def test_duration_in_rounds_is_ten_tu_a_round() -> None:
    """time-units.duration.rounds-to-tu: four rounds = 40 TU from the TU the action completes."""
    res = resolve(doc(PAIR, [{"actor": "a", "action": "other", "roll": 1,
                              "effect": {"name": "bless", "duration": 4, "target": "a"}}]))
    assert acts(res) == [(6, "a", "acts"), (46, "a", "effect-expires")]
    assert res.steps[1].target == "a" and res.steps[1].detail["effect"] == "bless"
    with pytest.raises(ScenarioError, match=r"effect\.target"):
        resolve(doc(PAIR, [{"actor": "a", "action": "other",
                            "effect": {"name": "x", "duration": 1, "target": "zz"}}]))


def test_durations_in_minutes_and_turns() -> None:
    """time-units.duration.minutes-and-turns: a minute is 60 TU, a turn 600, tu counts TU."""
    def expiry(unit: str, duration: int = 1, **options: Any) -> int | None:
        d = doc(PAIR, [{"actor": "a", "action": "other", "roll": 1,
                        "effect": {"name": "bless", "duration": duration, "unit": unit}}])
        if options:
            d["options"] = options
        step = first(resolve(d), "a", "effect-expires")
        assert "time-units.duration.minutes-and-turns" in step.because or unit == "rounds"
        return step.tu
    assert expiry("minutes", 2) == 6 + 120
    assert expiry("turns") == 6 + 600
    assert expiry("tu", 7) == 6 + 7
    assert expiry("rounds", 3) == 6 + 30
    assert expiry("minutes", round_tu=6) == 6 + 36  # a minute stays six rounds
    with pytest.raises(ScenarioError, match=r"effect\.unit"):
        expiry("hours")


def test_dead_combatants_later_actions_are_dropped() -> None:
    """time-units.death.no-further-actions: a dies step, then nothing more from the dead."""
    scenario = parse_scenario(doc(PAIR, [
        {"actor": "a", "action": "melee", "target": "b", "roll": 1, "damage": 10},
        {"actor": "b", "action": "melee", "target": "a", "roll": 5},
        {"actor": "b", "action": "melee", "target": "a", "roll": 5}]))
    res, fates = schedule(scenario, Roller.seeded(1))
    assert acts(res) == [(6, "a", "hits"), (6, "b", "dies")]
    assert res.combatants["b"].status is Status.DEAD and res.combatants["b"].hp == 0
    assert fates == {0: Fate.RESOLVED, 1: Fate.CANCELLED, 2: Fate.CANCELLED}


def test_death_threshold_option_makes_unconscious() -> None:
    """time-units.death.no-further-actions: with a -10 threshold 0 hp is unconscious, no dies."""
    res = resolve(doc(PAIR, [
        {"actor": "a", "action": "melee", "target": "b", "roll": 1, "damage": 12},
        {"actor": "b", "action": "melee", "target": "a", "roll": 5}],
        options={"death_threshold": -10}))
    assert acts(res) == [(6, "a", "hits")]
    assert res.combatants["b"].status is Status.UNCONSCIOUS


def test_conditions_start_when_the_action_is_complete_and_end_after_their_rounds() -> None:
    """time-units.care.condition: sleep at TU 7 for 1 round lasts to TU 17 (10 TU a round)."""
    mage = {"id": "a", "side": "party", "hp": 5, "spells": [{"name": "sleep", "level": 1}]}
    res = resolve(doc([mage, PAIR[1]], [
        {"actor": "a", "action": "spell", "spell": "sleep", "target": "b", "roll": 1,
         "conditions": [{"name": "asleep", "rounds": 1}]}]))
    start = first(res, "b", "condition-starts")
    assert (start.tu, start.detail["condition"], start.detail["by"]) == (7, "asleep", "a")
    assert first(res, "b", "condition-ends").tu == 17


def test_an_asleep_creature_loses_its_action_and_goes_on_when_it_wakes() -> None:
    """time-units.care.cannot-act: the orc's blow due at TU 10 does not happen while it sleeps;
    its next action counts from TU 17, when the sleep ends."""
    mage = {"id": "a", "side": "party", "hp": 5, "spells": [{"name": "sleep", "level": 1}]}
    res = resolve(doc([mage, PAIR[1]], [
        {"actor": "a", "action": "spell", "spell": "sleep", "target": "b", "roll": 1,
         "conditions": [{"name": "asleep", "rounds": 1}]},
        {"actor": "b", "action": "melee", "target": "a", "roll": 5},
        {"actor": "b", "action": "melee", "target": "a", "roll": 3}]))
    assert [a for a in acts(res) if a[1] == "b"] == [
        (7, "b", "condition-starts"), (10, "b", "cannot-act"), (17, "b", "condition-ends"),
        (25, "b", "attacks")]
    assert first(res, "b", "cannot-act").detail["condition"] == "asleep"


# --- errors ---------------------------------------------------------------------------------------

def test_bad_values_are_refused_with_the_field() -> None:
    """Unknown actions, bad options and sides name the field."""
    cases: list[tuple[dict[str, Any], str]] = [
        (doc(PAIR, [{"actor": "a", "action": "juggle"}]), r"actions\[0\]\.action"),
        (doc(PAIR, [], initiative={"elves": 3}), r"initiative\.elves"),
        (doc(PAIR, [], options={"speed": 1}), r"options\.speed"),
        (doc(PAIR, [], options={"action_cost": -1}), r"options\.action_cost"),
        (doc(PAIR, [{"actor": "a", "action": "move", "attacks": 2}]), r"actions\[0\]\.attacks"),
        (doc(PAIR, [{"actor": "a", "action": "spell"}]), r"actions\[0\]\.spell"),
        (doc(PAIR, [{"actor": "a", "action": "spell", "level": -1}]), r"actions\[0\]\.level"),
        (doc(PAIR, [], reaction="hostile"), "reaction"),
    ]
    for document, pattern in cases:
        with pytest.raises(ScenarioError, match=pattern):
            resolve(document)


# --- properties -----------------------------------------------------------------------------------

KINDS = ["melee", "missile", "spell", "move", "other", "attack"]


@st.composite
def scenarios(draw: st.DrawFn) -> dict[str, Any]:
    """Draws a valid time-units scenario with deaths, spells, changes and missing dice."""
    n = draw(st.integers(1, 5))
    combatants = [
        {"id": f"c{i}", "side": draw(st.sampled_from(["party", "monsters"])),
         "hp": draw(st.integers(1, 12)), "dex": draw(st.integers(3, 18)),
         "attacks": draw(st.integers(1, 4)),
         "race": draw(st.sampled_from([None, "halfling", "elf"])),
         "surprised": draw(st.sampled_from([None, True, False])),
         "spells": [{"name": "s", "level": draw(st.integers(0, 4))}]}
        for i in range(n)
    ]
    actions = []
    seen: set[str] = set()
    for _ in range(draw(st.integers(0, 12))):
        actor = f"c{draw(st.integers(0, n - 1))}"
        action: dict[str, Any] = {
            "actor": actor, "action": draw(st.sampled_from(KINDS)),
            "target": f"c{draw(st.integers(0, n - 1))}",
        }
        if action["action"] == "spell":
            action["spell"] = "s"
        if draw(st.booleans()):
            action["roll"] = draw(st.integers(1, 10))
        if draw(st.booleans()):
            action["hit"] = draw(st.booleans())
            action["damage"] = draw(st.integers(0, 8))
        if actor in seen and draw(st.integers(0, 5)) == 0:
            action["change"] = draw(st.sampled_from([True, 0, 5, 12, 30]))
        if draw(st.integers(0, 4)) == 0:
            action["effect"] = {"name": "e", "duration": draw(st.integers(0, 3))}
        seen.add(actor)
        actions.append(action)
    return doc(combatants, actions, seed=draw(st.integers(0, 99)),
               options={"next_from": draw(st.sampled_from(["last-attack", "first-attack"])),
                        "after_disruption": draw(st.sampled_from(["disruption",
                                                                  "planned-effect"]))})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_properties(document: dict[str, Any]) -> None:
    """Every action ends once; steps run in time order; groups rise; resolving is repeatable."""
    scenario = parse_scenario(document)
    try:
        res, fates = schedule(scenario, Roller.seeded(document["seed"]))
    except ScenarioError as exc:
        # A change of mind drawn at a TU before or after the action it changes is refused.
        assume(exc.field.endswith(".change"))
        return
    assert sorted(fates) == list(range(len(scenario.actions)))
    assert all(isinstance(f, Fate) for f in fates.values())
    tus = [s.tu for s in res.steps]
    assert all(t is not None for t in tus)
    assert tus == sorted(tus)  # type: ignore[type-var]
    groups = [s.group or 0 for s in res.steps]
    assert groups == sorted(groups) and all(s.because for s in res.steps)
    assert [s.seq for s in res.steps] == list(range(1, len(res.steps) + 1))
    # Resolved actions give steps; disrupted spells exactly one spell-disrupted.
    declared = [s.detail.get("declaration") for s in res.steps]
    for index, fate in fates.items():
        path = f"actions[{index}]"
        if fate is Fate.DISRUPTED:
            assert [s.event for s in res.steps if s.detail.get("declaration") == path
                    ].count("spell-disrupted") == 1
        elif fate is Fate.RESOLVED:
            assert path in declared
        else:
            assert all(s.event not in ("hits", "misses", "attacks", "moves", "acts",
                                       "spell-takes-effect")
                       for s in res.steps if s.detail.get("declaration") == path)
    # Same seed, same resolution; dead combatants act no more after dying.
    assert schedule(parse_scenario(document), Roller.seeded(document["seed"]))[0] == res
    died = {s.actor: s.seq for s in res.steps if s.event == "dies"}
    for s in res.steps:
        if s.actor in died and s.event in ("hits", "misses", "attacks", "moves", "acts"):
            assert s.seq < died[s.actor]
    json.dumps(res.to_json())


@settings(max_examples=200, deadline=None)
@given(st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["actor", "action", "roll", "change", "spell", "level", "attacks",
                         "hits", "effect", "target", "hit", "damage", "duration", "name"]),
        inner, max_size=5),
    max_leaves=12))
def test_any_action_json_gives_a_resolution_or_a_scenario_error(junk: Any) -> None:
    """No KeyError, IndexError or TypeError escapes for odd action values."""
    document = doc([*PAIR, {"id": "c", "side": "party", "spells": [{"name": "s"}]}],
                   [junk, {"actor": "a", "action": "melee", "change": junk}],
                   reaction=junk if not isinstance(junk, list) else None)
    with contextlib.suppress(ScenarioError):
        resolve(document)


def test_near_linear_for_4000_combatants() -> None:
    """Resolving 4,000 combatants with two actions each makes at most 5× the calls of 1,000."""

    def clock_of(n: int) -> Resolution:
        combatants = [{"id": f"c{i}", "side": "party" if i % 2 else "monsters", "hp": 20,
                       "dex": 3 + i % 16, "spells": [{"name": "s", "level": 2}]}
                      for i in range(n)]
        actions = [{"actor": f"c{i}", "action": KINDS[i % 5], "spell": "s",
                    "target": f"c{(i + 1) % n}", "damage": 3} for i in range(n)] * 2
        return resolve(doc(combatants, actions))

    assert len(clock_of(4000).steps) > 8000
    assert growth(clock_of) <= GROWTH_LIMIT


def test_an_attack_whose_target_already_fell_is_not_made_at_the_corpse() -> None:
    """time-units.attacks.fallen-target: two attacks at b; the first kills b, so the second
    (no outcome yet) names no target and says whom it was meant for, for the DM to choose
    anew. An outcome already recorded at the fallen target stands as recorded; the same goes
    for a split volley whose listed targets have all fallen."""
    killing = [{"hit": True, "damage": 5}]
    res = resolve(doc(BOWMAN, [{"actor": "a", "action": "melee", "target": "b", "roll": 1,
                                "attacks": 2, "hits": killing}]))
    steps = [s for s in res.steps if s.actor == "a"]
    assert [(str(s.event), s.target) for s in steps] == [("hits", "b"), ("attacks", None)]
    assert steps[1].detail["fallen_target"] == "b"
    assert "time-units.attacks.fallen-target" in steps[1].because
    recorded = [*killing, {"hit": True, "damage": 1}]
    res = resolve(doc(BOWMAN, [{"actor": "a", "action": "melee", "target": "b", "roll": 1,
                                "attacks": 2, "hits": recorded}]))
    assert [(str(s.event), s.target) for s in res.steps if s.actor == "a"] == [
        ("hits", "b"), ("hits", "b")]
    res = resolve(doc(BOWMAN, [{"actor": "a", "action": "melee", "targets": ["c", "b"],
                                "roll": 1, "attacks": 3,
                                "hits": [{"hit": True, "damage": 4}, {"hit": True, "damage": 3}]}]))
    steps = [s for s in res.steps if s.actor == "a"]
    assert [(str(s.event), s.target) for s in steps] == [
        ("hits", "c"), ("hits", "b"), ("attacks", None)]
    assert steps[2].detail["fallen_target"] == "b" and "instead_of" not in steps[2].detail
    # The DM names d for the third attack: the first two stay where they landed.
    res = resolve(doc(BOWMAN, [{"actor": "a", "action": "melee", "targets": ["c", "b", "d"],
                                "target": "c", "roll": 1, "attacks": 3,
                                "hits": [{"hit": True, "damage": 4}, {"hit": True, "damage": 3}]}]))
    assert [(str(s.event), s.target) for s in res.steps if s.actor == "a"] == [
        ("hits", "c"), ("hits", "b"), ("attacks", "d")]
