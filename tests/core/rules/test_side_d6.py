"""Tests for side-d6 (shared/rules/side-d6-segment-initiative.md), one or more per rule id."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.model.dice import Roller
from core.model.scenario import ScenarioError, parse_scenario
from core.model.values import Resolution, Roll, Status, Step
from core.rules import find_system
from core.rules.side_d6 import RULES, SYSTEM, resolve_with_ledger


def scenario(combatants: list[dict[str, Any]], rounds: list[dict[str, Any]] | None = None,
             **extra: Any) -> Any:
    """Builds a parsed side-d6 scenario."""
    doc: dict[str, Any] = {"system": "side-d6", "combatants": combatants, **extra}
    if rounds is not None:
        doc["rounds"] = rounds
    return parse_scenario(doc)


def run(combatants: list[dict[str, Any]], rounds: list[dict[str, Any]] | None = None,
        seed: int = 1, **extra: Any) -> Resolution:
    """Resolves a scenario with a seeded roller."""
    return SYSTEM.resolve(scenario(combatants, rounds, **extra), Roller.seeded(seed))


def events(res: Resolution) -> list[tuple[str, str, int | None, bool]]:
    """Gets (actor, event, segment, surprise) per step."""
    return [(s.actor, str(s.event), s.segment, s.surprise) for s in res.steps]


def only(res: Resolution, actor: str, event: str) -> Step:
    """Gets the single step of ``actor`` with ``event``."""
    found = [s for s in res.steps if s.actor == actor and str(s.event) == event]
    assert len(found) == 1, events(res)
    return found[0]


P = {"id": "fighter", "side": "party", "hp": 10}
M = {"id": "orc", "side": "monsters", "hp": 5}
MAGE = {"id": "mage", "side": "party", "hp": 6,
        "spells": [{"name": "sleep", "casting_time": 2}, {"name": "mm", "casting_time": 1}]}


def test_registry_finds_the_system_and_every_rule_has_a_test() -> None:
    assert find_system("side-d6") is SYSTEM
    source = Path(__file__).read_text(encoding="utf-8")
    missing = [rid for rid in RULES if rid not in source]
    assert not missing


# --- surprise ---------------------------------------------------------------------------------


def test_surprise_d6_per_side_rolled_when_missing() -> None:
    """side-d6.surprise.d6-per-side: one die per side, given or rolled, all recorded."""
    res = run([P, M], [], surprise={"party": 4})
    purposes = [(r.purpose, r.manual) for r in res.rolls]
    assert ("surprise party", True) in purposes and ("surprise monsters", False) in purposes


def test_no_surprise_check_without_surprise_field() -> None:
    """side-d6.surprise.d6-per-side: no surprise field and no surprise round: no check."""
    res = run([P, M], [])
    assert res.rolls == () and res.steps == ()


@pytest.mark.parametrize(("roll", "segments"), [(1, 1), (2, 2), (3, 0), (6, 0)])
def test_surprise_segments_from_roll(roll: int, segments: int) -> None:
    """side-d6.surprise.segments-from-roll: 1 → 1 segment, 2 → 2, 3–6 none."""
    res = run([P, M], [], surprise={"party": roll, "monsters": 6})
    steps = [s for s in res.steps if str(s.event) == "surprised"]
    assert [s.detail.get("segments") for s in steps] == ([segments] if segments else [])


def test_stealthy_surpriser_gives_three_segments() -> None:
    """side-d6.surprise.stealthy-surpriser: party rolls 3 vs surprises on 1–3: 3 segments."""
    cat = {"id": "cat", "side": "monsters", "surprises_on": 3}
    res = run([P, cat], [], surprise={"party": 3, "monsters": 5})
    assert only(res, "fighter", "surprised").detail["segments"] == 3
    # and the party's roll decides: a 4 is no surprise even so
    res = run([P, cat], [], surprise={"party": 4, "monsters": 5})
    assert not res.steps


def test_stealth_scope_surpriser_option_limits_extra_segments() -> None:
    """side-d6.surprise.unsurprised-act with stealth_scope=surpriser: plain orcs stop at 2."""
    cat = {"id": "cat", "side": "monsters", "surprises_on": 3}
    decls = [{"actor": "orc", "action": "attack", "target": "fighter"} for _ in range(3)]
    rounds = [{"surprise": True, "declarations": decls}]
    res = run([P, M, cat], rounds, surprise={"party": 3, "monsters": 6})
    assert [s.segment for s in res.steps if s.actor == "orc"] == [1, 2, 3]
    with pytest.raises(ScenarioError, match="cannot act in surprise segment"):
        run([P, M, cat], rounds, surprise={"party": 3, "monsters": 6},
            options={"stealth_scope": "surpriser"})


def test_cannot_be_surprised() -> None:
    """side-d6.surprise.cannot-be-surprised: surprised_on 0 never loses segments."""
    golem = {"id": "golem", "side": "monsters", "surprised_on": 0}
    res = run([P, golem], [], surprise={"party": 6, "monsters": 1})
    assert not res.steps
    assert all(r.purpose != "surprise monsters" for r in res.rolls)


def test_alerted_side_makes_no_roll() -> None:
    """side-d6.surprise.alerted-no-roll: an alerted side rolls no die and is not surprised."""
    res = run([P, M], [], surprise={"party": 5}, alerted=["monsters"])
    assert [r.purpose for r in res.rolls] == ["surprise party"]
    with pytest.raises(ScenarioError, match="alerted"):
        run([P, M], [], surprise={}, alerted=["nobody"])


def test_dex_bonus_negates_and_penalty_does_not_create() -> None:
    """side-d6.surprise.dex-adjusts: +2 cancels two segments; a penalty creates none."""
    quick = {"id": "quick", "side": "party", "surprise_adj": 2}
    slow = {"id": "slow", "side": "party", "dex": 3}
    res = run([quick, slow, M], [], surprise={"party": 2, "monsters": 6})
    assert [s.actor for s in res.steps] == ["slow"]
    res = run([quick, slow, M], [], surprise={"party": 5, "monsters": 6})
    assert res.steps == ()


def test_dex_penalty_options() -> None:
    """side-d6.surprise.dex-adjusts: lengthens/creates options."""
    slow = {"id": "slow", "side": "party", "surprise_adj": -1}
    res = run([slow, M], [], surprise={"party": 1, "monsters": 6},
              options={"dex_penalty": "lengthens"})
    assert only(res, "slow", "surprised").detail["segments"] == 2
    res = run([slow, M], [], surprise={"party": 5, "monsters": 6},
              options={"dex_penalty": "lengthens"})
    assert res.steps == ()
    res = run([slow, M], [], surprise={"party": 5, "monsters": 6},
              options={"dex_penalty": "creates"})
    assert only(res, "slow", "surprised").detail["segments"] == 1


def test_unsurprised_act_in_surprise_segments_example() -> None:
    """side-d6.surprise.unsurprised-act: the source's +2 Dex example, segment by segment."""
    thief = {"id": "thief", "side": "party", "surprise_adj": 2}
    rounds = [{"surprise": True, "declarations": [
        {"actor": "thief", "action": "attack", "target": "orc"},
        {"actor": "thief", "action": "attack", "target": "orc"},
        {"actor": "orc", "action": "attack", "target": "thief"}]}]
    res = run([thief, P, M], rounds, surprise={"party": 2, "monsters": 1})
    acts = [(s.actor, s.segment, s.group) for s in res.steps if str(s.event) == "attacks"]
    assert acts[0][:2] == ("thief", 1)
    assert acts[1][1] == acts[2][1] == 2 and acts[1][2] == acts[2][2]


def test_one_segment_actions_in_surprise() -> None:
    """side-d6.surprise.one-segment-actions: a 1-segment spell completes, a longer one begins."""
    rounds = [{"surprise": True, "declarations": [
        {"actor": "mage", "action": "spell", "spell": "mm", "target": "orc", "damage": 2},
        {"actor": "mage", "action": "spell", "spell": "sleep", "target": "orc"}]}]
    res = run([MAGE, M], rounds, surprise={"party": 6, "monsters": 2})
    assert events(res)[1:] == [
        ("mage", "begins-casting", 1, True), ("mage", "spell-takes-effect", 1, True),
        ("mage", "begins-casting", 2, True), ("mage", "spell-takes-effect", 2, False)]
    res = run([MAGE, M], rounds, surprise={"party": 6, "monsters": 2},
              options={"one_segment_spell_completes_in_surprise": False})
    assert events(res)[2] == ("mage", "spell-takes-effect", 2, True)


# --- declarations -----------------------------------------------------------------------------


def test_spell_must_be_named_and_memorised() -> None:
    """side-d6.declare.spell-before-initiative: unnamed or unknown spells are refused."""
    for decl, match in (({"actor": "mage", "action": "spell"}, "name the spell"),
                        ({"actor": "mage", "action": "spell", "spell": "wish"}, "memorised")):
        with pytest.raises(ScenarioError, match=match):
            run([MAGE, M], [{"initiative": {"party": 1, "monsters": 1},
                             "declarations": [decl]}])


def test_a_healing_spell_gives_hit_points_back_up_to_the_maximum() -> None:
    """side-d6.spell.heals: the cleric's cure gives the hurt fighter 6 back, capped at 9."""
    fighter = {"id": "f", "side": "party", "hp": 4, "max_hp": 9}
    cleric = {"id": "c", "side": "party", "hp": 7,
              "spells": [{"name": "cure light wounds", "level": 1, "casting_time": 5}]}
    res = run([fighter, cleric, M], [{"initiative": {"party": 3, "monsters": 1},
                                      "declarations": [{"actor": "c", "action": "spell",
                                                        "spell": "cure light wounds",
                                                        "target": "f", "heal": 6}]}])
    effect = only(res, "c", "spell-takes-effect")
    assert effect.detail["healed"] == 5 and effect.detail["hp"] == 9
    assert "side-d6.spell.heals" in effect.because and res.combatants["f"].hp == 9


def test_cancel_but_not_substitute() -> None:
    """side-d6.declare.cancel-not-substitute: cancelling is fine, substituting is refused."""
    base = {"actor": "mage", "action": "spell", "spell": "sleep"}
    ok = scenario([MAGE, M], [{"initiative": {"party": 1, "monsters": 1},
                               "declarations": [{**base, "cancel": True}]}])
    out = resolve_with_ledger(ok, Roller.seeded(1))
    assert out.resolution.steps == () and out.ledger == {"rounds[0].declarations[0]": "cancelled"}
    rounds = [{"initiative": {"party": 1, "monsters": 1},
               "declarations": [{**base, "instead": "attack"}]}]
    with pytest.raises(ScenarioError, match="not substitute"):
        run([MAGE, M], rounds)
    res = run([MAGE, M], rounds, options={"spell_substitution": "ignore"})
    assert res.steps == ()


def test_action_kinds_and_letters() -> None:
    """side-d6.action.kinds: plain kinds and DMG letters map to the same events."""
    pairs = [("move", "moves"), ("E", "moves"), ("flee", "flees"), ("A", "flees"),
             ("parley", "parleys"), ("B", "parleys"), ("wait", "waits"), ("C", "waits"),
             ("set", "readies"), ("F", "readies"), ("G", "attacks"), ("D", "attacks"),
             ("missile", "attacks"), ("charge", "charges"), ("other", "acts"), ("P", "acts")]
    for action, event in pairs:
        res = run([P, M], [{"initiative": {"party": 2, "monsters": 2},
                            "declarations": [{"actor": "fighter", "action": action}]}])
        assert [str(s.event) for s in res.steps] == [event], action
        assert res.steps[0].action == action
    with pytest.raises(ScenarioError, match="unknown action 'dance'"):
        run([P, M], [{"initiative": {"party": 2, "monsters": 2},
                      "declarations": [{"actor": "fighter", "action": "dance"}]}])


def test_fleeing_combatant_is_fled() -> None:
    """side-d6.action.kinds: flight ends the combatant's part in the fight."""
    res = run([P, M], [{"initiative": {"party": 2, "monsters": 2},
                        "declarations": [{"actor": "fighter", "action": "flee"}]}])
    assert res.combatants["fighter"].status is Status.FLED


# --- initiative -------------------------------------------------------------------------------


def test_initiative_dice_recorded_and_validated() -> None:
    """side-d6.initiative.d6-per-side: given dice are manual rolls; a 7 is refused."""
    res = run([P, M], [{"initiative": {"party": 6}, "declarations": []}])
    assert res.rolls[0] == Roll("1d6", 6, manual=True, purpose="initiative party round 1")
    assert res.rolls[1].purpose == "initiative monsters round 1" and not res.rolls[1].manual
    with pytest.raises(ScenarioError, match=r"rounds\[0\].initiative.party: a d6 shows 1–6"):
        run([P, M], [{"initiative": {"party": 7, "monsters": 1}}])
    with pytest.raises(ScenarioError, match="unknown side"):
        run([P, M], [{"initiative": {"elves": 3}}])


def test_acts_in_segment_of_other_sides_die() -> None:
    """side-d6.initiative.other-sides-die: party 6, monsters 1 → party in 1, monsters in 6."""
    res = run([P, M], [{"initiative": {"party": 6, "monsters": 1}, "declarations": [
        {"actor": "orc", "action": "attack", "target": "fighter"},
        {"actor": "fighter", "action": "attack", "target": "orc"}]}])
    assert [(s.actor, s.segment) for s in res.steps] == [("fighter", 1), ("orc", 6)]


def test_multi_side_options() -> None:
    """side-d6.initiative.multi-side: target's die by default; highest/lowest other as options."""
    wolf = {"id": "wolf", "side": "wolves"}
    rounds = [{"initiative": {"party": 2, "monsters": 5, "wolves": 4}, "declarations": [
        {"actor": "fighter", "action": "attack", "target": "wolf"}]}]
    assert run([P, M, wolf], rounds).steps[0].segment == 4
    assert run([P, M, wolf], rounds, options={"multi_side": "highest-other"}).steps[0].segment == 5
    assert run([P, M, wolf], rounds, options={"multi_side": "lowest-other"}).steps[0].segment == 4


def test_missile_bonus_acts_earlier_only_with_missiles() -> None:
    """side-d6.initiative.missile-bonus: missile_adj moves a shooter earlier, not a swordsman."""
    archer = {"id": "archer", "side": "party", "missile_adj": 2,
              "weapons": [{"name": "bow", "missile": True}, {"name": "sword"}]}
    rounds = [{"initiative": {"party": 1, "monsters": 5}, "declarations": [
        {"actor": "archer", "action": "attack", "weapon": "bow", "target": "orc"}]}]
    assert run([archer, M], rounds).steps[0].segment == 3
    rounds[0]["declarations"][0]["weapon"] = "sword"
    assert run([archer, M], rounds).steps[0].segment == 5
    rounds[0]["declarations"][0] = {"actor": "archer", "action": "missile", "target": "orc"}
    assert run([archer, M], rounds, options={"missile_bonus": False}).steps[0].segment == 5
    slow = {"id": "slow", "side": "party", "dex": 3}
    rounds = [{"initiative": {"party": 1, "monsters": 6}, "declarations": [
        {"actor": "slow", "action": "missile", "target": "orc"}]}]
    assert run([slow, M], rounds).steps[0].segment == 6  # never into 7–10


def test_tie_is_simultaneous_and_damage_lands() -> None:
    """side-d6.initiative.tie-simultaneous + side-d6.initiative.damage-lands-in-tie."""
    res = run([{**P, "hp": 3}, M], [{"initiative": {"party": 4, "monsters": 4}, "declarations": [
        {"actor": "fighter", "action": "attack", "target": "orc", "hit": True, "damage": 9},
        {"actor": "orc", "action": "attack", "target": "fighter", "hit": True, "damage": 9}]}])
    hits = [s for s in res.steps if str(s.event) == "hits"]
    deaths = [s for s in res.steps if str(s.event) == "dies"]
    assert len(hits) == 2 and hits[0].group == hits[1].group
    assert "side-d6.initiative.tie-simultaneous" in hits[0].because
    assert "side-d6.initiative.shared-segment" not in hits[0].because
    assert len(deaths) == 2 and deaths[0].group == deaths[1].group > hits[0].group
    assert "side-d6.initiative.damage-lands-in-tie" in deaths[0].because


def test_a_shared_segment_without_tied_dice_is_not_called_a_tie() -> None:
    """side-d6.initiative.shared-segment: a surprise segment both may act in, or a held
    action landing in the other side's segment, is simultaneous but not "tied dice"."""
    thief = {"id": "thief", "side": "party", "hp": 5, "surprise_adj": 1}
    res = run([P, thief, M], [{"surprise": True, "declarations": [
        {"actor": "thief", "action": "attack", "target": "orc", "segment": 2, "hit": False},
        {"actor": "orc", "action": "attack", "target": "thief", "segment": 2, "hit": False}]}],
        surprise={"party": 2, "monsters": 6})
    for s in res.steps[-2:]:
        assert s.because[0] == "side-d6.initiative.shared-segment", s
        assert "side-d6.initiative.tie-simultaneous" not in s.because
    held = run([P, M], [{"initiative": {"party": 5, "monsters": 2}, "declarations": [
        {"actor": "fighter", "action": "attack", "target": "orc", "hold": 5, "hit": False},
        {"actor": "orc", "action": "attack", "target": "fighter", "hit": False}]}])
    assert {s.because[0] for s in held.steps} == {"side-d6.initiative.shared-segment"}


def test_damage_is_immediate_outside_ties() -> None:
    """side-d6.round.damage-immediate: a goblin slain in segment 1 does not act in 5."""
    res = run([P, M], [{"initiative": {"party": 5, "monsters": 1}, "declarations": [
        {"actor": "orc", "action": "attack", "target": "fighter", "hit": True, "damage": 3},
        {"actor": "fighter", "action": "attack", "target": "orc", "hit": True, "damage": 5}]}])
    assert [(s.actor, str(s.event)) for s in res.steps] == [("fighter", "hits"), ("orc", "dies")]
    assert res.combatants["orc"].status is Status.DEAD and res.combatants["fighter"].hp == 10


def test_ten_segments_and_held_action() -> None:
    """side-d6.round.ten-segments + side-d6.round.held-action: hold to 7–10, not earlier."""
    decl = {"actor": "fighter", "action": "attack", "target": "orc", "hold": 9}
    res = run([P, M], [{"initiative": {"party": 2, "monsters": 3}, "declarations": [decl]}])
    assert res.steps[0].segment == 9 and res.steps[0].because[0] == "side-d6.round.held-action"
    for bad in (2, 11):
        with pytest.raises(ScenarioError, match="hold"):
            run([P, M], [{"initiative": {"party": 2, "monsters": 3},
                          "declarations": [{**decl, "hold": bad}]}])


def test_second_routine_waits_for_other_side() -> None:
    """side-d6.routine.second-after-other-segment: winner's second routine after the loser."""
    lord = {"id": "lord", "side": "party", "attack_routines": 2}
    decls = [{"actor": "lord", "action": "attack", "target": "orc",
              "hits": [{"hit": False}, {"hit": False}]},
             {"actor": "orc", "action": "attack", "target": "lord"}]
    res = run([lord, M], [{"initiative": {"party": 6, "monsters": 2}, "declarations": decls}])
    assert [(s.actor, s.segment) for s in res.steps] == [("lord", 2), ("orc", 6), ("lord", 6)]
    res = run([lord, M], [{"initiative": {"party": 1, "monsters": 2}, "declarations": decls}])
    assert [(s.actor, s.segment) for s in res.steps] == [("orc", 1), ("lord", 2), ("lord", 2)]


def test_a_volley_at_one_target_does_not_shoot_the_dead() -> None:
    """side-d6.routine.split-targets with one target: the long bow's first arrow kills the
    goblin; the second is not loosed at the corpse (it was: "hits Goblin 1 for 3, now at -3
    hp"), and its step asks the DM for a new target."""
    archer = {**P, "id": "wolf", "weapons": [{"name": "long bow", "missile": True,
                                               "rate_of_fire": 2}]}
    goblins = [{**M, "id": "gob", "hp": 4}, {**M, "id": "gob-2"}]
    res = run([archer, *goblins], [{"initiative": {"party": 6, "monsters": 2}, "declarations": [
        {"actor": "wolf", "action": "missile", "target": "gob",
         "hits": [{"hit": True, "damage": 4}, {"hit": True, "damage": 3}]}]}])
    shots = [s for s in res.steps if s.actor == "wolf"]
    assert [(str(s.event), s.target, s.detail.get("attack")) for s in shots] == [
        ("hits", "gob", 1), ("attacks", None, 2)]
    assert shots[1].detail["fallen_target"] == "gob"
    assert res.combatants["gob"].hp == 0
    # Aimed at the second goblin (what "Attack This One" writes), the arrow lands there.
    res = run([archer, *goblins], [{"initiative": {"party": 6, "monsters": 2}, "declarations": [
        {"actor": "wolf", "action": "missile", "target": "gob", "targets": ["gob", "gob-2"],
         "hits": [{"hit": True, "damage": 4}, {"hit": True, "damage": 3}]}]}])
    assert [s.target for s in res.steps if s.actor == "wolf"] == ["gob", "gob-2"]


def test_routine_split_between_targets() -> None:
    """side-d6.routine.split-targets: the lord's two routines listed at two orcs strike one
    each (the second routine takes the second listed target); an ogre's three claws at two
    targets go one, then the rest at the last, and a claw at a target already down moves to
    the next listed one, or is not made when none is left (its step asks for a new one)."""
    lord = {"id": "lord", "side": "party", "attack_routines": 2}
    orcs = [{**M, "id": "orc"}, {**M, "id": "orc-2"}]
    decls = [{"actor": "lord", "action": "attack", "targets": ["orc", "orc-2"],
              "hits": [{"hit": True, "damage": 1}, {"hit": True, "damage": 2}]}]
    res = run([lord, *orcs], [{"initiative": {"party": 6, "monsters": 2},
                               "declarations": decls}])
    assert [(s.target, s.segment) for s in res.steps if s.actor == "lord"] == [
        ("orc", 2), ("orc-2", 6)]
    assert all("side-d6.routine.split-targets" in s.because for s in res.steps)
    ogre = {"id": "ogre", "side": "monsters", "hp": 20, "attacks": 3}
    party = [{**P, "id": "ann", "hp": 3}, {**P, "id": "bo", "hp": 3},
             {**P, "id": "cy", "hp": 3, "status": "dead"}]
    claws = [{"hit": True, "damage": 1}, {"hit": True, "damage": 4}, {"hit": True, "damage": 1}]
    res = run([ogre, *party], [{"initiative": {"party": 2, "monsters": 5}, "declarations": [
        {"actor": "ogre", "action": "attack", "targets": ["ann", "bo"], "hits": claws}]}])
    ogre_steps = [s for s in res.steps if s.actor == "ogre"]
    assert [s.target for s in ogre_steps] == ["ann", "bo", None]
    # the third claw is not made at the fallen Bo: it waits for a new target
    assert (str(ogre_steps[2].event), ogre_steps[2].detail["fallen_target"]) == ("attacks", "bo")
    res = run([ogre, *party], [{"initiative": {"party": 2, "monsters": 5}, "declarations": [
        {"actor": "ogre", "action": "attack", "targets": ["ann", "cy", "bo"],
         "hits": [claws[0], claws[0]]}]}])
    step = [s for s in res.steps if s.actor == "ogre"][1]
    assert (step.target, step.detail["instead_of"]) == ("bo", "cy")
    with pytest.raises(ScenarioError, match="several targets"):
        run([MAGE, *orcs], [{"initiative": {"party": 6, "monsters": 2}, "declarations": [
            {"actor": "mage", "action": "spell", "spell": "sleep", "targets": ["orc", "orc-2"]}]}])


# --- spells -----------------------------------------------------------------------------------


def halvaine(orc_hit: bool, **options: Any) -> Resolution:
    """The source's Halvaine example: party 5, orcs 4, a 2-segment spell."""
    mage = {"id": "halvaine", "side": "party", "hp": 9,
            "spells": [{"name": "sleep", "casting_time": 2}]}
    return run([mage, M], [{"initiative": {"party": 5, "monsters": 4}, "declarations": [
        {"actor": "halvaine", "action": "spell", "spell": "sleep", "target": "orc"},
        {"actor": "orc", "action": "attack", "target": "halvaine", "hit": orc_hit,
         "damage": 2 if orc_hit else 0}]}], options=options)


def test_spell_starts_in_initiative_segment() -> None:
    """side-d6.spell.starts-in-initiative-segment: Halvaine begins in segment 4."""
    assert only(halvaine(False), "halvaine", "begins-casting").segment == 4


def test_spell_takes_effect_after_casting_time() -> None:
    """side-d6.spell.takes-effect-after-casting-time: 4 + 2 = segment 6 (or 5 by option)."""
    assert events(halvaine(False)) == [("halvaine", "begins-casting", 4, False),
                                       ("orc", "misses", 5, False),
                                       ("halvaine", "spell-takes-effect", 6, False)]
    res = halvaine(False, spell_goes_off="last-casting-segment")
    assert only(res, "halvaine", "spell-takes-effect").segment == 5


def test_spell_disrupted_by_damage() -> None:
    """side-d6.spell.disrupted-by-damage: the orc's blow in segment 5 spoils the spell."""
    out = events(halvaine(True))
    assert out[-1] == ("halvaine", "spell-disrupted", 5, False)
    assert all(e[1] != "spell-takes-effect" for e in out)


def test_busy_while_casting_cancels_next_action() -> None:
    """side-d6.spell.busy-while-casting: a spell still casting blocks the next round's action."""
    mage = {"id": "mage", "side": "party", "spells": [{"name": "long", "casting_time": 10}]}
    rounds = [{"initiative": {"party": 1, "monsters": 3}, "declarations": [
                  {"actor": "mage", "action": "spell", "spell": "long"}]},
              {"initiative": {"party": 1, "monsters": 1}, "declarations": [
                  {"actor": "mage", "action": "attack", "target": "orc"}]}]
    out = resolve_with_ledger(scenario([mage, M], rounds), Roller.seeded(1))
    assert events(out.resolution) == [("mage", "begins-casting", 3, False),
                                      ("mage", "spell-takes-effect", 3, False)]
    assert out.resolution.steps[1].round == 2
    assert out.ledger["rounds[1].declarations[0]"] == "cancelled"


def test_hp_rule_options() -> None:
    """side-d6.hp.death: 0 is dead by default; -1 is unconscious under adnd-minus-ten."""
    rounds = [{"initiative": {"party": 5, "monsters": 1}, "declarations": [
        {"actor": "fighter", "action": "attack", "target": "orc", "hit": True, "damage": 6}]}]
    assert run([P, M], rounds).combatants["orc"].status is Status.DEAD
    res = run([P, M], rounds, options={"hp_rule": "adnd-minus-ten"})
    assert res.combatants["orc"].status is Status.UNCONSCIOUS
    assert all(str(s.event) != "dies" for s in res.steps)


def test_sleep_in_segments() -> None:
    """side-d6.care.condition, side-d6.care.cannot-act: the mage's sleep (2 segments) lands on
    the orc, which then does not act for the rest of the round and one more; in round 3 it
    attacks. A bad condition target is refused by its path."""
    rounds = [{"initiative": {"party": 6, "monsters": 1}, "declarations": [
        {"actor": "mage", "action": "spell", "spell": "sleep", "target": "orc",
         "conditions": [{"name": "asleep", "rounds": 1}]},
        {"actor": "orc", "action": "attack", "target": "fighter"}]},
        {"initiative": {"party": 1, "monsters": 6}, "declarations": [
            {"actor": "orc", "action": "attack", "target": "fighter"}]},
        {"initiative": {"party": 1, "monsters": 6}, "declarations": [
            {"actor": "orc", "action": "attack", "target": "fighter"}]}]
    res = run([P, MAGE, M], rounds)
    start = only(res, "orc", "condition-starts")
    assert (start.round, start.segment) == (1, 3) and start.detail["condition"] == "asleep"
    assert start.because == ("side-d6.care.condition",)
    assert [(s.round, str(s.event)) for s in res.steps if s.actor == "orc"] == [
        (1, "condition-starts"), (1, "cannot-act"), (2, "cannot-act"), (2, "condition-ends"),
        (3, "attacks")]
    blocked = [s for s in res.steps if str(s.event) == "cannot-act"]
    assert blocked[0].because == ("side-d6.care.cannot-act",)
    rounds[0]["declarations"][0]["conditions"] = [{"name": "asleep", "target": "nobody"}]
    with pytest.raises(ScenarioError, match=r"conditions\[0\]\.target"):
        run([P, MAGE, M], rounds)


# --- errors -----------------------------------------------------------------------------------


def test_bad_inputs_are_scenario_errors() -> None:
    """side-d6.surprise.d6-per-side: bad fields name the field."""
    with pytest.raises(ScenarioError, match=r"surprise.party: a d6 shows 1–6, got 0"):
        run([P, M], [], surprise={"party": 0})
    with pytest.raises(ScenarioError, match="unknown option"):
        run([P, M], [], options={"nope": 1})
    with pytest.raises(ScenarioError, match="only the first round"):
        run([P, M], [{"initiative": {}}, {"surprise": True}])
    with pytest.raises(ScenarioError, match="already declared"):
        run([P, M], [{"declarations": [{"actor": "orc", "action": "G"},
                                       {"actor": "orc", "action": "G"}]}])


# --- properties -------------------------------------------------------------------------------

ACTIONS = ["attack", "missile", "spell", "move", "charge", "G", "D", "wait", "flee"]


@st.composite
def random_scenarios(draw: st.DrawFn) -> dict[str, Any]:
    """Draws small random but valid side-d6 scenarios."""
    sides = ["party", "monsters", "third"][: draw(st.integers(2, 3))]
    n = draw(st.integers(len(sides), 6))
    combatants = []
    for i in range(n):
        combatants.append({
            "id": f"c{i}", "side": sides[i % len(sides)], "hp": draw(st.integers(1, 12)),
            "attack_routines": draw(st.integers(1, 2)),
            "surprise_adj": draw(st.integers(-2, 2)),
            "spells": [{"name": "s", "casting_time": draw(st.integers(0, 12))}],
        })
    ids = [c["id"] for c in combatants]
    rounds = []
    for _ in range(draw(st.integers(1, 3))):
        decls = []
        for cid in draw(st.permutations(ids))[: draw(st.integers(0, n))]:
            action = draw(st.sampled_from(ACTIONS))
            decl: dict[str, Any] = {"actor": cid, "action": action,
                                    "target": draw(st.sampled_from(ids))}
            if action in ("spell", "D") and draw(st.booleans()):
                decl["spell"] = "s"
            if action == "spell":
                decl["spell"] = "s"
            if draw(st.booleans()):
                decl["hits"] = [{"hit": draw(st.booleans()), "damage": draw(st.integers(0, 8))}
                                for _ in range(draw(st.integers(1, 2)))]
            decls.append(decl)
        init = {s: draw(st.integers(1, 6)) for s in sides if draw(st.booleans())}
        rounds.append({"initiative": init, "declarations": decls})
    doc: dict[str, Any] = {"system": "side-d6", "combatants": combatants, "rounds": rounds}
    if draw(st.booleans()):
        doc["surprise"] = {s: draw(st.integers(1, 6)) for s in sides if draw(st.booleans())}
    doc["options"] = {"multi_side": draw(st.sampled_from(
        ["target-side", "highest-other", "lowest-other"]))}
    return doc


@settings(max_examples=300, deadline=None)
@given(random_scenarios(), st.integers(0, 10_000))
def test_properties(doc: dict[str, Any], seed: int) -> None:
    """Every declaration once; steps in time order; deterministic; seeded dice reproducible."""
    sc = parse_scenario(doc)
    out = resolve_with_ledger(sc, Roller.seeded(seed))
    paths = {d.path for r in sc.rounds for d in r.declarations}
    assert set(out.ledger) == paths
    assert set(out.ledger.values()) <= {"resolved", "disrupted", "cancelled"}
    steps = out.resolution.steps
    assert [s.seq for s in steps] == list(range(1, len(steps) + 1))
    groups = [s.group or 0 for s in steps]
    assert groups == sorted(groups)
    assert all(s.because for s in steps)
    times = [((s.round or 0), 0 if s.surprise else 1, s.segment or 0) for s in steps]
    assert times == sorted(times)
    again = resolve_with_ledger(sc, Roller.seeded(seed))
    assert again.resolution == out.resolution
    for path, fate in out.ledger.items():
        declared = [s for s in steps if s.detail.get("declaration") == path]
        if fate == "disrupted":
            assert [str(s.event) for s in declared][-1] == "spell-disrupted"
        if fate == "cancelled":
            assert not declared
    assert set(out.resolution.combatants) == {c.id for c in sc.combatants}


# --- interrupts, contact segments and the options of issue 13 -----------------------------------

KNIGHT = {"id": "knight", "side": "raiders", "hp": 12, "movement": 120}
PIKE = {"id": "pikeman", "side": "militia", "hp": 7}


def _charge(charge: dict[str, Any], set_decl: dict[str, Any] | None = None,
            **extra: Any) -> Resolution:
    decls = [set_decl or {"actor": "pikeman", "action": "set"},
             {"actor": "knight", "action": "charge", "target": "pikeman", **charge}]
    return run([KNIGHT, PIKE], [{"initiative": {"raiders": 1, "militia": 3},
                                 "declarations": decls}], **extra)


def test_fleeing_attack_interrupts_the_flight() -> None:
    """side-d6.interrupt.fleeing-attack: the blow lands first; a slain fleer never flees."""
    def flee(damage: int) -> Resolution:
        return run([P, M], [{"initiative": {"party": 2, "monsters": 5}, "declarations": [
            {"actor": "fighter", "action": "attack", "target": "orc"},
            {"actor": "orc", "action": "flee",
             "interrupts": [{"actor": "fighter", "hit": True, "damage": damage}]}]}])
    res = flee(2)
    assert [(s.actor, str(s.event), s.segment) for s in res.steps] == [
        ("fighter", "hits", 2), ("orc", "flees", 2)]
    assert res.steps[0].detail["interrupt"] == "fleeing attack"
    assert list(res.steps[1].detail["may_interrupt"]) == ["fighter"]
    assert (res.combatants["orc"].hp, res.combatants["orc"].status) == (3, Status.FLED)
    res = flee(5)
    assert [str(s.event) for s in res.steps] == ["hits", "dies"]
    assert res.combatants["orc"].status is Status.DEAD
    with pytest.raises(ScenarioError, match=r"only a flight .* or a charge"):
        run([P, M], [{"initiative": {"party": 2, "monsters": 5}, "declarations": [
            {"actor": "orc", "action": "attack", "target": "fighter",
             "interrupts": [{"actor": "fighter", "hit": False}]}]}])
    with pytest.raises(ScenarioError, match="on orc's side"):
        run([P, M, {"id": "orc-2", "side": "monsters"}], [
            {"initiative": {"party": 2, "monsters": 5}, "declarations": [
                {"actor": "orc", "action": "flee", "interrupts": [{"actor": "orc-2"}]}]}])


def test_set_weapon_interrupts_the_charge_at_contact() -> None:
    """side-d6.interrupt.set-against-charge: the set spear strikes before the charger."""
    res = _charge({"hit": True, "damage": 4,
                   "interrupts": [{"actor": "pikeman", "hit": True, "damage": 3}]})
    assert [(s.actor, str(s.event), s.segment) for s in res.steps] == [
        ("pikeman", "readies", 1), ("knight", "charges", 3), ("pikeman", "hits", 3),
        ("knight", "hits", 3)]
    assert res.combatants["knight"].hp == 9 and res.combatants["pikeman"].hp == 3
    res = _charge({"hit": True, "damage": 4,
                   "interrupts": [{"actor": "pikeman", "hit": True, "damage": 12}]})
    assert [str(s.event) for s in res.steps][-2:] == ["hits", "dies"]
    assert res.combatants["pikeman"].hp == 7
    with pytest.raises(ScenarioError, match="set its weapon against"):
        run([KNIGHT, PIKE, {"id": "squire", "side": "raiders"}],
            [{"initiative": {"raiders": 1, "militia": 3}, "declarations": [
                {"actor": "pikeman", "action": "set", "target": "squire"},
                {"actor": "knight", "action": "charge", "target": "pikeman",
                 "interrupts": [{"actor": "pikeman", "hit": False}]}]}])


def test_set_weapon_double_damage_is_an_option() -> None:
    """side-d6.interrupt.set-double-damage: off by default; on, the step shows both numbers."""
    spear = {"interrupts": [{"actor": "pikeman", "hit": True, "damage": 4}]}
    plain = only(_charge(spear), "pikeman", "hits")
    assert plain.detail["damage"] == 4 and "doubled" not in plain.detail
    doubled = only(_charge(spear, options={"set_weapon_double_damage": True}),
                   "pikeman", "hits")
    assert doubled.detail["damage"] == 8 and doubled.detail["damage_rolled"] == 4
    assert "side-d6.interrupt.set-double-damage" in doubled.because


def test_contact_segment_from_distance_and_movement() -> None:
    """side-d6.move.contact-segment: 60 at 120 a round is 5 segments; the blow waits."""
    res = _charge({"distance": 60, "hit": True, "damage": 4})
    charge, blow = only(res, "knight", "charges"), only(res, "knight", "hits")
    assert (charge.segment, charge.detail["contact_segment"], blow.segment) == (3, 7, 7)
    assert only(_charge({"charge_segments": 2, "hit": True, "damage": 1}),
                "knight", "hits").segment == 4
    # a long charge reaches in the next round, on the same clock
    far = _charge({"distance": 120, "hit": True, "damage": 1})
    assert only(far, "knight", "charges").detail["contact_round"] == 2
    assert (only(far, "knight", "hits").round, only(far, "knight", "hits").segment) == (2, 2)
    with pytest.raises(ScenarioError, match="no movement rate"):
        run([P, M], [{"initiative": {"party": 2, "monsters": 5}, "declarations": [
            {"actor": "fighter", "action": "close", "target": "orc", "distance": 30}]}])
    with pytest.raises(ScenarioError, match="only a charge or a close"):
        run([KNIGHT, PIKE], [{"initiative": {"raiders": 1, "militia": 3}, "declarations": [
            {"actor": "knight", "action": "attack", "target": "pikeman", "distance": 30}]}])
    with pytest.raises(ScenarioError, match="surprise segment holds only a tenth"):
        run([KNIGHT, PIKE], [{"surprise": True, "declarations": [
            {"actor": "knight", "action": "charge", "target": "pikeman", "distance": 30}]}],
            surprise={"raiders": 6, "militia": 1}, options={"surprise_move": "one-segment"})


# --- issue 25: the third audit --------------------------------------------------------------------

GOBLIN = {"id": "goblin", "name": "Goblin 2", "side": "monsters", "hp": 4, "movement": 6}
GUARD = {"id": "guard", "name": "Guard", "side": "party", "hp": 8}


def test_charge_a_round_allows_completes_in_one_surprise_segment() -> None:
    """side-d6.surprise.charge-a-round-allows: "charging, closing to melee" fit in a surprise
    segment when a round's move allows them; more than a round's move is refused."""
    def charge(distance: int, **extra: Any) -> Resolution:
        return run([GOBLIN, GUARD], [{"surprise": True, "declarations": [
            {"actor": "goblin", "action": "charge", "target": "guard", "distance": distance,
             "hit": True, "damage": 3}]}], surprise={"party": 1, "monsters": 6}, **extra)
    res = charge(2)  # 2 at Move 6: 4 segments of movement, within the round's 6
    assert [(s.actor, str(s.event), s.segment, s.surprise) for s in res.steps] == [
        ("guard", "surprised", 1, True), ("goblin", "charges", 1, True),
        ("goblin", "hits", 1, True)]
    blow = only(res, "goblin", "hits")
    assert "side-d6.surprise.charge-a-round-allows" in blow.because
    assert blow.detail["contact_segment"] == 1 and res.combatants["guard"].hp == 5
    with pytest.raises(ScenarioError, match="more than a round's move") as err:
        charge(7)
    assert err.value.field == "rounds[0].declarations[0].distance"
    with pytest.raises(ScenarioError, match="only a tenth"):
        charge(2, options={"surprise_move": "one-segment"})


def test_surprised_combatant_makes_no_interrupt_in_a_surprise_segment() -> None:
    """side-d6.surprise.no-interrupt-while-surprised: "unable to act" — a surprised fighter
    is not offered, and may not make, a fleeing attack in the segment he is surprised."""
    from core.rules.side_d6 import interrupt_offers

    def flee(segment: int, interrupts: list[dict[str, Any]] | None = None) -> Any:
        decl: dict[str, Any] = {"actor": "orc", "action": "flee", "segment": segment}
        if interrupts is not None:
            decl["interrupts"] = interrupts
        return scenario([P, M], [{"surprise": True, "declarations": [
            {"actor": "orc", "action": "attack", "target": "fighter", "segment": 1,
             "hit": False}, decl] if segment > 1 else [decl]}],
            surprise={"party": 1, "monsters": 6})
    sc = flee(1)
    res = SYSTEM.resolve(sc, Roller.seeded(1))
    assert "may_interrupt" not in only(res, "orc", "flees").detail
    assert interrupt_offers(sc, 0) == []
    with pytest.raises(ScenarioError, match="surprised in surprise segment 1 and unable to "
                       "act") as err:
        SYSTEM.resolve(flee(1, [{"actor": "fighter", "hit": True, "damage": 2}]),
                       Roller.seeded(1))
    assert err.value.field == "rounds[0].declarations[0].interrupts[0].actor"
    # surprised for two segments: still no interrupt in the second
    sc2 = scenario([P, M], [{"surprise": True, "declarations": [
        {"actor": "orc", "action": "attack", "target": "fighter", "segment": 1, "hit": False},
        {"actor": "orc", "action": "flee", "segment": 2}]}], surprise={"party": 2,
                                                                       "monsters": 6})
    flight = only(SYSTEM.resolve(sc2, Roller.seeded(1)), "orc", "flees")
    assert "may_interrupt" not in flight.detail
    assert "side-d6.surprise.no-interrupt-while-surprised" in flight.because
    # once no longer surprised the fleeing attack is offered and taken
    thief = {"id": "thief", "side": "party", "hp": 5, "surprise_adj": 1}
    sc3 = scenario([P, thief, M], [{"surprise": True, "declarations": [
        {"actor": "orc", "action": "attack", "target": "thief", "segment": 1, "hit": False},
        {"actor": "orc", "action": "flee", "segment": 2,
         "interrupts": [{"actor": "thief", "hit": True, "damage": 1}]}]},
        {"initiative": {"party": 3, "monsters": 3}, "declarations": []}],
        surprise={"party": 2, "monsters": 6})
    res3 = SYSTEM.resolve(sc3, Roller.seeded(1))
    assert list(only(res3, "orc", "flees").detail["may_interrupt"]) == ["thief"]
    assert only(res3, "thief", "hits").segment == 2
    assert [o.by for o in interrupt_offers(sc3, 0)] == [("thief",)]


def test_spell_starts_option_segment_1() -> None:
    """side-d6.spell.starts-in-initiative-segment: option spell_starts=segment-1
    (side-d6.spell.starts-in-segment-1); without the option no step cites the house rule."""
    rounds = [{"initiative": {"party": 1, "monsters": 4},
               "declarations": [{"actor": "mage", "action": "spell", "spell": "sleep"}]}]
    begun = only(run([MAGE, M], rounds), "mage", "begins-casting")
    assert begun.segment == 4 and "side-d6.spell.starts-in-segment-1" not in begun.because
    res = run([MAGE, M], rounds, options={"spell_starts": "segment-1"})
    assert only(res, "mage", "begins-casting").segment == 1
    assert only(res, "mage", "begins-casting").because[0] == "side-d6.spell.starts-in-segment-1"
    assert only(res, "mage", "spell-takes-effect").segment == 3


def test_interrupt_offers_name_who_may_strike() -> None:
    """side-d6.interrupt.fleeing-attack and side-d6.interrupt.set-against-charge: offers."""
    from core.rules.side_d6 import interrupt_offers

    sc = scenario([P, M, KNIGHT, PIKE], [{"initiative": {"party": 2, "monsters": 5},
                                          "declarations": [
        {"actor": "fighter", "action": "attack", "target": "orc"},
        {"actor": "orc", "action": "flee"},
        {"actor": "pikeman", "action": "set"},
        {"actor": "knight", "action": "charge", "target": "pikeman"}]}])
    offers = interrupt_offers(sc, 0)
    assert [(o.mover, o.kind, o.by) for o in offers] == [
        ("orc", "fleeing attack", ("fighter",)),
        ("knight", "set against a charge", ("pikeman",))]
    text = offers[0].words({"orc": "Grishnak", "fighter": "Aldo"})
    assert text.startswith("Grishnak: Aldo may strike as it flees")
    assert "misses" in text and "orc" not in text
