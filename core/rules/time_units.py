"""Time-unit combat: a clock counting up from TU 0, with no rounds.

Source: ``shared/rules/time-unit-combat.md``. Read it beside this module, section by section:

- *The Encounter Sequence* → :func:`_encounter_steps` (d6 per side, 2d6 reaction).
- *The Time-Unit Combat Sequence* → :func:`_initiative` (d10 + 5 + Dexterity + spell level) and
  :class:`_Clock` (each action counts from the TU the actor's previous action completed).
- *Note the following* → change of mind, halflings, multiple attacks, same-TU order, surprise.
- *The Basics* → durations in rounds become 10 TU a round.

Every choice the source leaves open is a field of :class:`Options`; the defaults follow the text.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from typing import Any, ClassVar

from core.model.scenario import (
    Scenario,
    ScenarioError,
    TimedAction,
    declared_weapon,
    read_effect,
    read_int,
)
from core.model.values import (
    PARTY_SIDE,
    Combatant,
    CombatantResult,
    Effect,
    Resolution,
    Roll,
    Status,
    Step,
    StepEvent,
    frozen_mapping,
)
from core.rules.abilities import bx_initiative_modifier
from core.rules.base import (
    Phase,
    RollRequest,
    RollSource,
    Rule,
    healed,
    missing_side_dice,
    parse_options,
    rule_table,
    volley_target,
)
from core.rules.care import Conditions, care_rule_ids, care_rules, read_care

SOURCE = "time-unit-combat.md"
ID = "time-units"


# --- options ------------------------------------------------------------------------------------

class EncounterTie(StrEnum):
    """What a tie on the encounter d6 means (the source does not say)."""

    SIMULTANEOUS = "simultaneous"
    """Neither side has the initiative of the encounter."""
    REROLL = "reroll"
    """Every side rolls its d6 again until one side is lowest."""
    PARTY = "party"
    """The party wins ties."""


class UnlistedKinds(StrEnum):
    """Where moves and other actions go among same-TU actions (the source lists only three)."""

    AFTER_MELEE = "after-melee"
    """Missiles, spells, melee, then moves, then other actions."""
    BEFORE_MISSILES = "before-missiles"
    """Moves, then other actions, then missiles, spells, melee."""


class NextFrom(StrEnum):
    """The TU a fighter's next action counts from after several attacks."""

    LAST_ATTACK = "last-attack"
    """The action is complete at its last attack."""
    FIRST_ATTACK = "first-attack"
    """The next roll counts from the first attack."""


class AfterDisruption(StrEnum):
    """The TU a caster's next action counts from when the spell is ruined."""

    DISRUPTION = "disruption"
    """The spell ended when the hit landed."""
    PLANNED_EFFECT = "planned-effect"
    """The caster is busy until the spell would have taken effect."""


@dataclass(frozen=True, slots=True)
class Options:
    """House-rule options of the time-unit system; every default follows the source."""

    MEANINGS: ClassVar[dict[str, str]] = {
        "encounter_steps": (
            "The encounter die and the reaction roll are also listed as steps of the sides; by "
            "default they appear only among the dice."
        ),
        "effects_expire_first": (
            "An effect ending on a TU ends before anyone acts on that TU, so a one-round effect "
            "lasts exactly 10 TU."
        ),
    }
    """What options with no rule of their own decide, in words (the printed appendix)."""

    action_cost: int = 5
    """TU every action costs to choose (Combat Sequence: "automatic expense of 5 TU's")."""
    round_tu: int = 10
    """TU in one round, for durations given in rounds (The Basics)."""
    surprise_start_tu: int = 10
    """The TU a surprised creature counts its first action from (Note the following)."""
    halfling_bonus: int = 1
    """TU halflings take off every initiative roll (Note the following)."""
    encounter_tie: EncounterTie = EncounterTie.SIMULTANEOUS
    """Tie on the encounter d6 (source silent)."""
    roll_encounter: bool = False
    """Roll the encounter d6s when the scenario gives none (default: the combat is the scenario;
    the encounter dice appear only when given)."""
    encounter_winner_first_on_ties: bool = False
    encounter_steps: bool = False
    """Also list the encounter d6 and reaction as steps of the sides (default: they are rolls,
    not actions of any combatant, so they appear only in the resolution's rolls)."""
    """Same TU, same kind: the encounter winner's side goes first instead of simultaneously."""
    unlisted_kinds: UnlistedKinds = UnlistedKinds.AFTER_MELEE
    """Where moves and other actions go on a shared TU (source lists missiles, spells, melee)."""
    next_from: NextFrom = NextFrom.LAST_ATTACK
    """What "action complete" means for several attacks (source: when the action is complete)."""
    after_disruption: AfterDisruption = AfterDisruption.DISRUPTION
    """Where a ruined caster's next action counts from (source silent)."""
    disrupt_at_start: bool = True
    """A hit on the TU casting begins ruins the spell (source: "hit Bolog at TU = 14")."""
    effects_expire_first: bool = True
    """An effect ending on a TU ends before anyone acts on that TU (lasts exactly 10 TU/round)."""
    death_threshold: int = 0
    """Dead at this hp or less; between 0 and it, unconscious (source silent; Labyrinth Lord: 0)."""


# --- rule catalogue -----------------------------------------------------------------------------

def _rule(rid: str, heading: str, summary: str, option: str | None = None) -> Rule:
    return Rule(f"{ID}.{rid}", SOURCE, heading, summary, option)


_ENC = "The Encounter Sequence"
_SEQ = "The Time-Unit Combat Sequence"
_NOTE = "Note the following"
_BASICS = "The Basics"

RULES: Mapping[str, Rule] = rule_table(
    _rule("encounter.d6-per-side", _ENC,
          "Each side rolls a d6 when the monster is met; the lowest roll has the initiative "
          "of the encounter.", "roll_encounter"),
    _rule("encounter.tie", _ENC,
          "A tie on the encounter d6 is settled by the option (default: no side has it).",
          "encounter_tie"),
    _rule("encounter.reaction-2d6", _ENC,
          "The DM rolls 2d6 for each monster side's first reaction (asked for with the "
          "encounter dice)."),
    _rule("clock.count-up", _BASICS,
          "Combat starts at TU 0 and counts up; there are no rounds, only the TUs things happen."),
    _rule("clock.at-least-one-tu", _SEQ,
          "An action never happens on the TU its actor's previous action completed "
          "(adjustments cannot bring the delay below 1 TU)."),
    _rule("initiative.d10", _SEQ,
          "Each action happens a d10 of TU after the actor's current TU."),
    _rule("initiative.action-cost", _SEQ, "Choosing an action costs 5 TU.", "action_cost"),
    _rule("initiative.dexterity", _SEQ,
          "The Dexterity initiative bonus is taken off the TU (a penalty is added); derived "
          "from Dex with the B/X table when the adjustment is not given."),
    _rule("initiative.halfling", _NOTE, "Halflings take 1 TU off every initiative roll.",
          "halfling_bonus"),
    _rule("initiative.next-from-completion", _SEQ,
          "A new roll is made once an action is complete and added to the TU it completed.",
          "next_from"),
    _rule("spell.heals", _SEQ,
          "A healing spell gives its target hit points back when it takes effect, up to the "
          "maximum (a combatant already down stays down)."),
    _rule("spell.casting-time", _SEQ,
          "A spell adds 1 TU per level: casting begins that many TU before it takes effect."),
    _rule("spell.disrupted-by-hit", _SEQ,
          "A hit on the caster from the TU casting begins until the spell takes effect ruins it.",
          "disrupt_at_start"),
    _rule("spell.disrupted-next-from", _SEQ,
          "After a ruined spell the caster's next action counts from the TU of the hit.",
          "after_disruption"),
    _rule("attacks.two-five-apart", _NOTE,
          "With two attacks the second comes 5 TU after the first."),
    _rule("attacks.three-three-apart", _NOTE,
          "With three attacks each comes 3 TU after the one before."),
    _rule("attacks.four-successive", _NOTE,
          "With four (or more) attacks they come on successive TUs."),
    _rule("attacks.rate-of-fire", _NOTE,
          "A missile weapon's rate of fire gives that many attacks, spaced as several attacks "
          "are (unless the action gives its own attacks)."),
    _rule("attacks.split-targets", _NOTE,
          "Several attacks may be split between listed targets: one at each in order, the "
          "rest at the last; an attack whose target has fallen goes at the next listed one "
          "still standing, or is not made."),
    _rule("attacks.fallen-target", _NOTE,
          "An attack still to be made whose one target has already fallen (dead, "
          "unconscious, fled) is not made at it: the step names no target until the DM picks "
          "a new one (an outcome already recorded stands as recorded)."),
    _rule("order.missile-spell-melee", _NOTE,
          "On a shared TU missiles come first, then spells, then melee (casting begins at the "
          "start of its TU, before all of them)."),
    _rule("order.moves-and-other", _NOTE,
          "On a shared TU moves and then other actions come after melee.", "unlisted_kinds"),
    _rule("order.simultaneous", _NOTE,
          "Actions of one kind on the same TU are simultaneous: damage from all of them lands.",
          "encounter_winner_first_on_ties"),
    _rule("surprise.first-action-from-tu-10", _NOTE,
          "A surprised creature counts its first action from TU 10 instead of TU 0.",
          "surprise_start_tu"),
    _rule("surprise.d6", _NOTE,
          "A side's surprise d6 surprises its members on 1-2 (or their own surprised-on "
          "range); once the DM checks surprise the app asks for each side's die, and a "
          "combatant may be marked surprised on its own."),
    _rule("change-mind.new-roll", _NOTE,
          "A change of mind cancels the pending action and rolls anew from the TU of the change."),
    _rule("duration.rounds-to-tu", _BASICS,
          "A duration in rounds lasts 10 TU a round from the TU the action completes.",
          "round_tu"),
    _rule("duration.minutes-and-turns", _BASICS,
          "A duration in minutes lasts 6 rounds (60 TU) a minute and one in turns 60 rounds "
          "(600 TU) a turn (an effect's length is given in rounds, minutes, turns or TU).",
          "round_tu"),
    _rule("death.no-further-actions", _SEQ,
          "A dead or unconscious combatant's pending and later actions are dropped.",
          "death_threshold"),
    *care_rules(ID, SOURCE, _SEQ),
)
R_CONDITION, R_CANNOT_ACT = care_rule_ids(ID)

PHASES: tuple[Phase, ...] = (
    Phase("encounter", "Encounter: d6 per side, 2d6 reaction",
          (f"{ID}.encounter.d6-per-side", f"{ID}.encounter.tie", f"{ID}.encounter.reaction-2d6")),
    Phase("declare", "Declare actions and roll d10 initiative",
          (f"{ID}.initiative.d10", f"{ID}.initiative.action-cost", f"{ID}.initiative.dexterity",
           f"{ID}.initiative.halfling", f"{ID}.spell.casting-time", f"{ID}.spell.heals",
           f"{ID}.surprise.first-action-from-tu-10")),
    Phase("clock", "Run the TU clock",
          (f"{ID}.clock.count-up", f"{ID}.order.missile-spell-melee",
           f"{ID}.order.simultaneous", f"{ID}.spell.disrupted-by-hit",
           f"{ID}.initiative.next-from-completion", f"{ID}.change-mind.new-roll",
           f"{ID}.duration.rounds-to-tu", f"{ID}.duration.minutes-and-turns",
           f"{ID}.care.condition", f"{ID}.care.cannot-act")),
)


def _r(rid: str) -> str:
    assert f"{ID}.{rid}" in RULES, rid
    return f"{ID}.{rid}"


# --- actions as the clock sees them -------------------------------------------------------------

class Kind(StrEnum):
    """An action kind of the time-unit system."""

    MELEE = "melee"
    MISSILE = "missile"
    SPELL = "spell"
    MOVE = "move"
    OTHER = "other"


_KIND_NAMES: Mapping[str, Kind] = {
    "melee": Kind.MELEE, "attack": Kind.MELEE, "missile": Kind.MISSILE, "spell": Kind.SPELL,
    "move": Kind.MOVE, "other": Kind.OTHER,
}


class Fate(StrEnum):
    """How a declared action ended (each ends exactly one way)."""

    RESOLVED = "resolved"
    DISRUPTED = "disrupted"
    CANCELLED = "cancelled"


class Ev(IntEnum):
    """Kinds of clock entries; the value is only an identifier."""

    CHANGE = 0
    EXPIRE = 1
    BEGIN = 2
    ACT = 3


@dataclass(slots=True)
class _Plan:
    """One declared action while the clock runs (mutable bookkeeping)."""

    index: int
    action: TimedAction
    kind: Kind
    level: int
    attacks: int
    change_at: int | None
    """TU of a change of mind (-1: at once); None when this action is no change of mind."""
    effect: Effect | None
    fate: Fate | None = None
    effect_rounds: int = 1
    """Rounds in one unit of the effect's duration (The Basics: a minute is 6, a turn 60);
    0 when the duration is given in TU."""
    started: bool = False
    begun: bool = False
    """A spell whose casting has begun."""
    done_steps: int = 0
    times: tuple[int, ...] = ()
    """The TUs of its attacks (or of the spell's effect, or of the move/other action)."""
    begin: int | None = None
    roll: int | None = None
    because: tuple[str, ...] = ()
    shot_rules: tuple[str, ...] = ()
    """Rules every attack of the action cites (a missile's rate of fire)."""


@dataclass(frozen=True, slots=True)
class _Entry:
    """One thing due on the clock; ``attack`` numbers the attack of a multi-attack action."""

    tu: int
    prio: int
    ev: Ev
    plan: int
    attack: int = 0
    effect: Effect | None = None
    actor: str = ""

    def key(self) -> tuple[int, int, int, int]:
        """Gets the heap key: time, same-TU order, then declaration order."""
        return (self.tu, self.prio, self.plan, self.attack)


# --- the encounter sequence ---------------------------------------------------------------------

def _check_die(value: int, faces: int, path: str) -> None:
    if not 1 <= value <= faces:
        raise ScenarioError(path, f"a d{faces} shows 1–{faces}, got {value}")


def _reaction_label(total: int) -> str:
    """Gets the Labyrinth Lord reaction-table meaning of a 2d6 total."""
    if total <= 2:
        return "hostile, attacks"
    if total <= 5:
        return "hostile"
    if total <= 8:
        return "uncertain"
    if total <= 11:
        return "no attack"
    return "friendly"


@dataclass(slots=True)
class _Output:
    """Steps and rolls as they are produced; groups rise with every simultaneous set."""

    steps: list[Step] = field(default_factory=list)
    rolls: list[Roll] = field(default_factory=list)
    group: int = 0

    def new_group(self) -> int:
        """Gets the number of a fresh group."""
        self.group += 1
        return self.group

    def add(self, actor: str, event: StepEvent, tu: int, group: int, because: Sequence[str],
            action: str | None = None, target: str | None = None,
            **detail: Any) -> None:
        """Appends one step."""
        self.steps.append(Step(
            seq=len(self.steps) + 1, actor=actor, event=event, round=None, segment=None,
            surprise=False, tu=tu, action=action, target=target, group=group,
            because=tuple(because),
            detail=frozen_mapping({k: v for k, v in detail.items() if v is not None}),
        ))


def _encounter_steps(scenario: Scenario, options: Options, dice: RollSource,
                     out: _Output) -> str | None:
    """Gets the side with the initiative of the encounter (None: none has it) and logs its dice."""
    sides = scenario.sides
    given = dict(scenario.initiative)
    for side, value in given.items():
        if side not in sides:
            raise ScenarioError(f"initiative.{side}",
                                f"unknown side {side!r} (sides: {', '.join(sides)})")
        _check_die(value, 6, f"initiative.{side}")
    winner: str | None = None
    if len(sides) >= 2 and (given or options.roll_encounter):
        rolls: dict[str, int] = {}
        for side in sides:
            purpose = f"encounter initiative {side}"
            if side in given:
                rolls[side] = given[side]
                out.rolls.append(Roll("1d6", given[side], manual=True, purpose=purpose))
            else:
                roll = dice.roll("1d6", purpose=purpose)
                rolls[side] = roll.total
                out.rolls.append(roll)
        because = [_r("encounter.d6-per-side")]
        winner, tied = _lowest(rolls)
        rerolls = 0
        while winner is None and options.encounter_tie is EncounterTie.REROLL and rerolls < 50:
            rerolls += 1
            for side in sides:
                roll = dice.roll("1d6", purpose=f"encounter initiative {side} (reroll)")
                rolls[side] = roll.total
                out.rolls.append(roll)
            winner, tied = _lowest(rolls)
        if winner is None and options.encounter_tie is EncounterTie.PARTY and PARTY_SIDE in tied:
            winner = PARTY_SIDE
        if tied:
            because.append(_r("encounter.tie"))
        if options.encounter_steps:
            group = out.new_group()
            order = sorted(sides, key=lambda s: (rolls[s] if s != winner else 0, sides.index(s)))
            for side in order:
                result = "won" if side == winner else ("tied" if side in tied else "lost")
                out.add(side, StepEvent.ACTS, 0, group, because, reason="encounter-initiative",
                        roll=rolls[side], initiative=result)
    _reaction_steps(scenario, options, dice, out)
    return winner


def _lowest(rolls: Mapping[str, int]) -> tuple[str | None, list[str]]:
    """Gets the single lowest side (or None) and the sides tied for lowest."""
    low = min(rolls.values())
    at_low = [s for s, v in rolls.items() if v == low]
    return (at_low[0], []) if len(at_low) == 1 else (None, at_low)


def _reaction_steps(scenario: Scenario, options: Options, dice: RollSource, out: _Output) -> None:
    """Logs the 2d6 reaction roll of each monster side the scenario gives one for."""
    raw = scenario.reaction
    if raw is None:
        return
    monsters = [s for s in scenario.sides if s != PARTY_SIDE]
    given: dict[str, int] = {}
    if isinstance(raw, Mapping):
        for side in raw:
            if side not in scenario.sides:
                raise ScenarioError(f"reaction.{side}", f"unknown side {side!r}")
            value = read_int(raw, side, "reaction")
            if value is not None:
                given[side] = value
    elif isinstance(raw, int) and not isinstance(raw, bool):
        if not monsters:
            raise ScenarioError("reaction", "there is no monster side to react")
        given[monsters[0]] = raw
    else:
        raise ScenarioError("reaction", f"expected a 2d6 result or {{side: 2d6}}, got {raw!r}")
    group = out.new_group() if options.encounter_steps else 0
    for side, value in given.items():
        path = f"reaction.{side}" if isinstance(raw, Mapping) else "reaction"
        if not 2 <= value <= 12:
            raise ScenarioError(path, f"2d6 shows 2–12, got {value}")
        out.rolls.append(Roll("2d6", value, manual=True, purpose=f"reaction {side}"))
        if options.encounter_steps:
            out.add(side, StepEvent.ACTS, 0, group, [_r("encounter.reaction-2d6")],
                reason="reaction", roll=value, reaction=_reaction_label(value))


# --- initiative: when an action happens ---------------------------------------------------------

def _dex_tu(c: Combatant) -> int:
    """Gets the TU the combatant's Dexterity adds (negative: a bonus, taken off)."""
    if c.initiative_adj is not None:
        return -c.initiative_adj
    if c.dex is not None:
        return -bx_initiative_modifier(c.dex)
    return 0


def _is_halfling(c: Combatant) -> bool:
    return (c.race or "").strip().lower() == "halfling"


def _attack_offsets(attacks: int) -> tuple[int, ...]:
    """Gets each attack's TU after the first (Note the following: two, three, four attacks)."""
    if attacks <= 1:
        return (0,)
    if attacks == 2:
        return (0, 5)
    if attacks == 3:
        return (0, 3, 6)
    return tuple(range(attacks))


def _attack_rule(attacks: int) -> str:
    if attacks == 2:
        return _r("attacks.two-five-apart")
    if attacks == 3:
        return _r("attacks.three-three-apart")
    return _r("attacks.four-successive")


# --- reading the actions ------------------------------------------------------------------------

def _plan(index: int, action: TimedAction, actor: Combatant, ids: frozenset[str]) -> _Plan:
    """Reads and checks one declared action."""
    path = action.path
    name = action.action.strip().lower()
    kind = _KIND_NAMES.get(name)
    if kind is None:
        raise ScenarioError(f"{path}.action",
                            f"unknown action {action.action!r} (one of {', '.join(_KIND_NAMES)})")
    weapon = declared_weapon(actor, action.raw, path) if isinstance(
        action.raw.get("weapon"), str) else None
    if name == "attack" and weapon is not None and weapon.missile:
        kind = Kind.MISSILE
    if action.roll is not None:
        _check_die(action.roll, 10, f"{path}.roll")
    level = 0
    if kind is Kind.SPELL:
        level = _spell_level(action, actor)
    attacks = 1
    because: tuple[str, ...] = ()
    if kind in (Kind.MELEE, Kind.MISSILE):
        attacks = action.attacks or max(1, actor.attacks)
        shooting = weapon if weapon is not None else actor.weapon(None)
        if (kind is Kind.MISSILE and action.attacks is None and shooting is not None
                and shooting.missile and (shooting.rate_of_fire or 1) > attacks):
            # A missile weapon's rate of fire: that many shots, spaced as several attacks.
            attacks = shooting.rate_of_fire or 1
            because = (_r("attacks.rate-of-fire"),)
        if len(action.outcome.hits) > attacks:
            if action.attacks is not None:
                raise ScenarioError(f"{path}.hits", f"{len(action.outcome.hits)} outcomes for "
                                                    f"{attacks} attacks")
            attacks = len(action.outcome.hits)
    elif action.attacks is not None and action.attacks > 1:
        raise ScenarioError(f"{path}.attacks",
                            f"only melee and missile actions make several attacks, not {name!r}")
    if action.targets and kind not in (Kind.MELEE, Kind.MISSILE):
        raise ScenarioError(f"{path}.targets", "several targets are read for attacks only "
                            f"(melee or missile), not {name!r}: name one target")
    effect = read_effect(action.raw, path)
    if effect is not None and effect.target is not None and effect.target not in ids:
        raise ScenarioError(f"{path}.effect.target", f"unknown combatant {effect.target!r}")
    return _Plan(index, action, kind, level, attacks, _change(action), effect,
                 effect_rounds=_effect_unit(action.raw, path), shot_rules=because)


def _spell_level(action: TimedAction, actor: Combatant) -> int:
    path = action.path
    given = read_int(action.raw, "level", path)
    if given is not None:
        if given < 0:
            raise ScenarioError(f"{path}.level", f"a spell level cannot be negative, got {given}")
        return given
    spell = actor.spell(action.spell)
    if spell is None:
        if action.spell is None:
            raise ScenarioError(f"{path}.spell", "a spell action needs a spell (or a level)")
        known = ", ".join(s.name for s in actor.spells) or "none"
        raise ScenarioError(f"{path}.spell", f"{actor.id} has no spell {action.spell!r} "
                                             f"(memorised: {known}); give its level")
    return spell.level


EFFECT_UNITS: Mapping[str, int] = {"rounds": 1, "round": 1, "minutes": 6, "minute": 6,
                                   "turns": 60, "turn": 60, "tu": 0}
"""Rounds per unit of an effect's duration (The Basics); ``tu`` counts TU directly (0)."""


def _effect_unit(raw: Mapping[str, Any], path: str) -> int:
    """Reads an effect's ``unit`` (The Basics: a minute is 6 rounds, a turn 60 rounds)."""
    effect = raw.get("effect")
    unit = effect.get("unit", "rounds") if isinstance(effect, Mapping) else "rounds"
    if not isinstance(unit, str) or unit.lower() not in EFFECT_UNITS:
        raise ScenarioError(f"{path}.effect.unit",
                            f"expected rounds, minutes, turns or tu, got {unit!r}")
    return EFFECT_UNITS[unit.lower()]


def _change(action: TimedAction) -> int | None:
    """Reads ``change``: true (at once) or the TU at which the actor changes its mind."""
    value = action.raw.get("change")
    if value is None or value is False:
        return None
    if value is True:
        return -1
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    raise ScenarioError(f"{action.path}.change",
                        f"expected true or the TU of the change (0 or more), got {value!r}")


# --- the clock ----------------------------------------------------------------------------------

class _Clock:
    """Runs the TU clock over the declared actions."""

    def __init__(self, scenario: Scenario, options: Options, dice: RollSource, out: _Output,
                 winner: str | None) -> None:
        self.options = options
        self.dice = dice
        self.out = out
        self.winner = winner
        self.combatants = {c.id: c for c in scenario.combatants}
        self.hp: dict[str, int | None] = {c.id: c.hp for c in scenario.combatants}
        self.status: dict[str, Status] = {c.id: c.status for c in scenario.combatants}
        ids = scenario.ids  # a property built afresh on each read: read it once
        self.plans = [
            _plan(i, a, self.combatants[a.actor], ids) for i, a in enumerate(scenario.actions)
        ]
        self.queue: dict[str, list[int]] = {c.id: [] for c in scenario.combatants}
        for plan in self.plans:
            self.queue[plan.action.actor].append(plan.index)
        self.next_pos: dict[str, int] = dict.fromkeys(self.queue, 0)
        self.casting: dict[str, int] = {}
        """Actor → plan index of the spell it is casting."""
        self.heap: list[tuple[tuple[int, int, int, int], int, _Entry]] = []
        self.counter = 0
        self.prio = self._priorities()
        self.last_tu = -1
        # Conditions (core.rules.care), read up front so a bad field is refused.
        self.conditions = Conditions()
        self.care = [read_care(a.raw, a.path, a.actor, a.target, ids) for a in scenario.actions]
        self.blocked: set[int] = set()
        self.idle: set[str] = set()
        """Actors whose action a condition stopped: they go on when it ends."""
        for plans in self.queue.values():
            if plans and self.plans[plans[0]].change_at is not None:
                plan = self.plans[plans[0]]
                raise ScenarioError(f"{plan.action.path}.change",
                                    f"{plan.action.actor} has no earlier action to change")

    def _priorities(self) -> dict[object, int]:
        """Gets the same-TU order (Note the following: missiles, then spells, then melee)."""
        order: list[object] = [Ev.CHANGE, Ev.EXPIRE, Ev.BEGIN]
        listed: list[object] = [Kind.MISSILE, Kind.SPELL, Kind.MELEE]
        unlisted: list[object] = [Kind.MOVE, Kind.OTHER]
        if self.options.unlisted_kinds is UnlistedKinds.AFTER_MELEE:
            order += listed + unlisted
        else:
            order += unlisted + listed
        if not self.options.effects_expire_first:
            order.remove(Ev.EXPIRE)
            order.append(Ev.EXPIRE)
        return {k: i for i, k in enumerate(order)}

    def push(self, entry: _Entry) -> None:
        """Puts an entry on the clock."""
        self.counter += 1
        heapq.heappush(self.heap, (entry.key(), self.counter, entry))

    # -- scheduling --

    def start(self, surprised: set[str]) -> None:
        """Schedules every combatant's first action (surprised ones from TU 10)."""
        for cid, plans in self.queue.items():
            if not plans:
                continue
            if self.status[cid] is not Status.ACTIVE:
                self._drop_rest(cid)
                continue
            if cid in surprised:
                self.schedule(cid, self.options.surprise_start_tu,
                              (_r("surprise.first-action-from-tu-10"),))
            else:
                self.schedule(cid, 0, ())

    def schedule(self, cid: str, base: int, why: tuple[str, ...],
                 by_change: bool = False) -> None:
        """Schedules the actor's next declared action, counting from TU ``base``."""
        while self.next_pos[cid] < len(self.queue[cid]):
            pos = self.next_pos[cid]
            plan = self.plans[self.queue[cid][pos]]
            follower = (self.plans[self.queue[cid][pos + 1]]
                        if pos + 1 < len(self.queue[cid]) else None)
            if plan.started or plan.fate is not None:
                return  # already on the clock, or dropped
            if plan.change_at is not None and plan.change_at >= 0 and not by_change:
                return  # its change of mind is on the clock and will schedule it
            by_change = False
            if follower is not None and follower.change_at == -1:
                # Note the following: a change of mind at once replaces this action unrolled.
                plan.fate = Fate.CANCELLED
                self.next_pos[cid] += 1
                why = (_r("change-mind.new-roll"), *why)
                continue
            self._place(plan, base, why)
            if follower is not None and follower.change_at is not None:
                self._place_change(plan, follower, base)
            return

    def _place(self, plan: _Plan, base: int, why: tuple[str, ...]) -> None:
        """Rolls the action's initiative and puts its steps on the clock."""
        c = self.combatants[plan.action.actor]
        plan.started = True
        plan.roll = self._d10(plan)
        because = [_r("initiative.d10"), _r("initiative.action-cost"), *why]
        delay = plan.roll + self.options.action_cost
        dex = _dex_tu(c)
        if dex:
            delay += dex
            because.append(_r("initiative.dexterity"))
        if _is_halfling(c):
            delay -= self.options.halfling_bonus
            because.append(_r("initiative.halfling"))
        if delay < 1:
            delay = 1
            because.append(_r("clock.at-least-one-tu"))
        first = base + delay
        if plan.kind is Kind.SPELL:
            because.append(_r("spell.casting-time"))
            plan.begin = first
            first += plan.level
        offsets = _attack_offsets(plan.attacks)
        plan.times = tuple(first + o for o in offsets)
        plan.because = tuple(because)
        if plan.begin is not None:
            self.push(_Entry(plan.begin, self.prio[Ev.BEGIN], Ev.BEGIN, plan.index,
                             actor=plan.action.actor))
        for i, tu in enumerate(plan.times):
            self.push(_Entry(tu, self.prio[plan.kind], Ev.ACT, plan.index, i,
                             actor=plan.action.actor))

    def _place_change(self, plan: _Plan, follower: _Plan, base: int) -> None:
        """Puts a change of mind at its TU, after checking the changed action is still due."""
        at = follower.change_at
        assert at is not None
        path = f"{follower.action.path}.change"
        if at < base:
            raise ScenarioError(path, f"TU {at} is before {plan.action.path} was declared "
                                      f"(TU {base})")
        due = plan.times[0]
        if at >= due:
            raise ScenarioError(path, f"TU {at} is too late: {plan.action.path} already happens "
                                      f"at TU {due}")
        self.push(_Entry(at, self.prio[Ev.CHANGE], Ev.CHANGE, follower.index,
                         actor=plan.action.actor))

    def _d10(self, plan: _Plan) -> int:
        purpose = f"initiative {plan.action.actor} ({plan.action.path})"
        if plan.action.roll is not None:
            self.out.rolls.append(Roll("1d10", plan.action.roll, manual=True, purpose=purpose))
            return plan.action.roll
        roll = self.dice.roll("1d10", purpose=purpose)
        self.out.rolls.append(roll)
        return roll.total

    def _drop_rest(self, cid: str) -> None:
        """Cancels every action of a fallen combatant not yet resolved."""
        self.casting.pop(cid, None)
        for index in self.queue[cid]:
            plan = self.plans[index]
            if plan.fate is None:
                plan.fate = Fate.CANCELLED
        self.next_pos[cid] = len(self.queue[cid])

    # -- running --

    def run(self) -> None:
        """Pops the clock batch by batch: each batch is one TU and one kind."""
        while True:
            while self.heap:
                key = self.heap[0][0]
                if self.conditions.on:
                    self._expire(key[0])
                    if self.heap[0][0] != key:
                        continue  # a creature woke and acts before this batch
                batch: list[_Entry] = []
                while self.heap and self.heap[0][0][:2] == key[:2]:
                    batch.append(heapq.heappop(self.heap)[2])
                for part in self._split(batch):
                    self._run_batch(part)
            # Conditions still timed run out after the last action; the woken act then.
            ends = [u for names in self.conditions.on.values() for u in names.values()
                    if u is not None]
            if not ends:
                return
            self._expire(max(ends))

    # -- conditions (core.rules.care) --

    def _expire(self, tu: int) -> None:
        """Ends the conditions timed out by ``tu``; idle actors go on from the TU it ended."""
        for cid, name, until in sorted(
                (cid, name, until) for cid, names in self.conditions.on.items()
                for name, until in names.items() if until is not None and until <= tu):
            self.conditions.end(cid, name)
            self.out.add(cid, StepEvent.CONDITION_ENDS, until, self.out.new_group(),
                         [R_CONDITION], condition=name)
            self._wake(cid, until)

    def _wake(self, cid: str, tu: int) -> None:
        """Schedules the next action of an actor a condition had stopped, once none is left."""
        if cid in self.idle and self.conditions.blocking(cid) is None:
            self.idle.discard(cid)
            if self.status[cid] is Status.ACTIVE:
                self.schedule(cid, tu, (R_CONDITION,))

    def _cannot_act(self, e: _Entry, group: int) -> bool:
        """Drops an entry whose actor a condition keeps from acting (one step per action)."""
        why = self.conditions.blocking(e.actor)
        if why is None or e.ev not in (Ev.ACT, Ev.BEGIN):
            return False
        plan = self.plans[e.plan]
        if plan.fate is None:
            plan.fate = Fate.CANCELLED
        self.casting.pop(e.actor, None)
        self._advance_past(plan)
        self.idle.add(e.actor)
        if plan.index not in self.blocked:
            self.blocked.add(plan.index)
            self.out.add(e.actor, StepEvent.CANNOT_ACT, e.tu, group, [R_CANNOT_ACT],
                         action=plan.action.action, target=plan.action.target, condition=why,
                         declaration=plan.action.path)
        return True

    def _conditions(self, plan: _Plan, tu: int, group: int) -> None:
        """Starts or ends the conditions an action names once it has taken effect."""
        care = self.care[plan.index]
        if not care:
            return
        actor = plan.action.actor
        for change in care.conditions:
            if change.ends:
                if self.conditions.end(change.target, change.name):
                    self.out.add(change.target, StepEvent.CONDITION_ENDS, tu, group,
                                 [R_CONDITION], condition=change.name, by=actor)
                    self._wake(change.target, tu)
                continue
            until = None if change.rounds is None else tu + change.rounds * self.options.round_tu
            self.conditions.start(change.target, change.name, until)
            self.out.add(change.target, StepEvent.CONDITION_STARTS, tu, group, [R_CONDITION],
                         condition=change.name, by=actor, rounds=change.rounds)

    def _split(self, batch: list[_Entry]) -> list[list[_Entry]]:
        """Splits a same-TU same-kind batch when the encounter winner goes first (option)."""
        if not self.options.encounter_winner_first_on_ties or self.winner is None:
            return [batch]
        first = [e for e in batch if self.combatants[e.actor].side == self.winner]
        rest = [e for e in batch if self.combatants[e.actor].side != self.winner]
        return [p for p in (first, rest) if p]

    def _live(self, entry: _Entry) -> bool:
        if entry.ev is Ev.EXPIRE:
            return True
        plan = self.plans[entry.plan]
        if entry.ev is Ev.CHANGE:
            return self.status[entry.actor] is Status.ACTIVE and plan.fate is None
        return plan.fate in (None, Fate.RESOLVED) and self.status[entry.actor] is Status.ACTIVE

    def _run_batch(self, batch: list[_Entry]) -> None:
        live = [e for e in batch if self._live(e)]
        if not live:
            return
        tu = live[0].tu
        while self.heap and not self._live(self.heap[0][2]):
            heapq.heappop(self.heap)  # cancelled entries do not share the TU
        shared_tu = self.last_tu == tu or (bool(self.heap) and self.heap[0][0][0] == tu)
        self.last_tu = tu
        if live[0].ev is Ev.CHANGE:
            for e in live:
                self._change_mind(e)
            return
        group = self.out.new_group()
        order: list[str] = []
        if shared_tu:
            order.append(_r("order.missile-spell-melee"))
            if any(self.plans[e.plan].kind in (Kind.MOVE, Kind.OTHER)
                   for e in live if e.ev is Ev.ACT):
                order.append(_r("order.moves-and-other"))
        if len(live) > 1:
            order.append(_r("order.simultaneous"))
        struck: list[tuple[str, str]] = []
        completed: list[_Plan] = []
        for e in live:
            if self.conditions.on and self._cannot_act(e, group):
                continue
            if e.ev is Ev.EXPIRE:
                assert e.effect is not None
                unit_rule = ("duration.rounds-to-tu" if self.plans[e.plan].effect_rounds == 1
                             else "duration.minutes-and-turns")
                self.out.add(e.actor, StepEvent.EFFECT_EXPIRES, tu, group,
                             [_r(unit_rule), *order], target=e.effect.target,
                             effect=e.effect.name, declaration=self.plans[e.plan].action.path)
            elif e.ev is Ev.BEGIN:
                self._begin(e, group, order)
            else:
                self._act(e, group, order, struck, completed)
        self._aftermath(tu, struck)
        for plan in completed:
            self._complete(plan, tu)

    def _begin(self, e: _Entry, group: int, order: list[str]) -> None:
        plan = self.plans[e.plan]
        plan.begun = True
        self.casting[e.actor] = plan.index
        self.out.add(e.actor, StepEvent.BEGINS_CASTING, e.tu, group, [*plan.because, *order],
                     action=plan.action.action, target=plan.action.target,
                     spell=plan.action.spell, level=plan.level, roll=plan.roll,
                     declaration=plan.action.path)

    def _act(self, e: _Entry, group: int, order: list[str], struck: list[tuple[str, str]],
             completed: list[_Plan]) -> None:
        plan = self.plans[e.plan]
        a = plan.action
        plan.fate = Fate.RESOLVED
        plan.done_steps += 1
        because = list(plan.because) if e.attack == 0 else [_attack_rule(plan.attacks)]
        if e.attack == 0 and plan.attacks > 1:
            because.append(_attack_rule(plan.attacks))
        because = [*plan.shot_rules, *because, *order]
        common: dict[str, Any] = {"declaration": a.path,
                                  "roll": plan.roll if e.attack == 0 else None}
        if plan.attacks > 1:
            common["attack"] = e.attack + 1
        if plan.kind is Kind.SPELL:
            self.casting.pop(a.actor, None)
            damage = a.outcome.damage
            hit = any(h.hit for h in a.outcome.hits)
            hp = self._damage(a.target, damage) if hit else None
            if hit and a.target is not None:
                struck.append((a.target, a.actor))
            heal = a.outcome.heal
            healing: dict[str, Any] = {}
            if heal and a.target is not None and self.status[a.target] is not Status.DEAD:
                before = self.hp[a.target]
                after = healed(before, self.combatants[a.target].max_hp, heal)
                if before is not None and after is not None:
                    self.hp[a.target] = hp = after
                    healing = {"healed": after - before}
                    because = [_r("spell.heals"), *because]
            self.out.add(a.actor, StepEvent.SPELL_TAKES_EFFECT, e.tu, group, because,
                         action=a.action, target=a.target, spell=a.spell,
                         damage=damage if hit else None, hp=hp, **healing, **common)
        elif plan.kind in (Kind.MELEE, Kind.MISSILE):
            outcome = a.outcome.hits[e.attack] if e.attack < len(a.outcome.hits) else None
            target = a.target
            if len(a.targets) > 1:
                target, fallen = volley_target(
                    a.targets, e.attack, lambda t: self.status[t] is Status.ACTIVE)
                because = [_r("attacks.split-targets"), *because]
                if fallen is not None:
                    common["instead_of"] = fallen
            fallen_aim = common.pop("instead_of", None) if target is None else None
            if outcome is None and (fallen_aim is not None or (
                    target is not None and self.status[target] is not Status.ACTIVE)):
                # Not a swing at a corpse, nor an attack dropped unseen: the DM names someone
                # else (one Change on the step).
                self.out.add(a.actor, StepEvent.ATTACKS, e.tu, group,
                             [_r("attacks.fallen-target"), *because], action=a.action,
                             target=None, fallen_target=fallen_aim or target, **common)
            elif len(a.targets) > 1 and target is None:
                pass  # every listed target left has fallen: this recorded attack is not made
            elif outcome is None:
                self.out.add(a.actor, StepEvent.ATTACKS, e.tu, group, because,
                             action=a.action, target=target, **common)
            elif outcome.hit:
                hp = self._damage(target, outcome.damage)
                if target is not None:
                    struck.append((target, a.actor))
                self.out.add(a.actor, StepEvent.HITS, e.tu, group, because, action=a.action,
                             target=target, damage=outcome.damage, hp=hp, **common)
            else:
                self.out.add(a.actor, StepEvent.MISSES, e.tu, group, because,
                             action=a.action, target=target, **common)
        else:
            event = StepEvent.MOVES if plan.kind is Kind.MOVE else StepEvent.ACTS
            self.out.add(a.actor, event, e.tu, group, because, action=a.action,
                         target=a.target, **common)
        last = plan.done_steps == len(plan.times)
        if last:
            self._conditions(plan, e.tu, group)
        first_counts = self.options.next_from is NextFrom.FIRST_ATTACK and e.attack == 0
        if last or first_counts:
            completed.append(plan)

    def _damage(self, target: str | None, damage: int) -> int | None:
        """Applies damage to the target; gets its hp after (None when hp is not tracked)."""
        if target is None:
            return None
        hp = self.hp[target]
        if hp is None:
            return None
        self.hp[target] = hp - damage
        return hp - damage

    def _aftermath(self, tu: int, struck: list[tuple[str, str]]) -> None:
        """Ruins spells and kills after a simultaneous set, in the order the hits landed."""
        seen: set[str] = set()
        for target, attacker in struck:
            if target in seen:
                continue
            seen.add(target)
            index = self.casting.get(target)
            if index is not None:
                plan = self.plans[index]
                begin = plan.begin if plan.begin is not None else tu
                if plan.fate is None and (tu > begin or self.options.disrupt_at_start):
                    self._disrupt(plan, tu, [_r("spell.disrupted-by-hit")], by=attacker)
            self._check_fall(target, tu, attacker)

    def _disrupt(self, plan: _Plan, tu: int, because: list[str], by: str | None = None,
                 reason: str = "hit") -> None:
        a = plan.action
        plan.fate = Fate.DISRUPTED
        self.casting.pop(a.actor, None)
        self.out.add(a.actor, StepEvent.SPELL_DISRUPTED, tu, self.out.new_group(), because,
                     action=a.action, target=a.target, spell=a.spell, by=by, reason=reason,
                     declaration=a.path)
        self._advance_past(plan)
        if self.status[a.actor] is Status.ACTIVE and not self._falls(a.actor):
            if self.options.after_disruption is AfterDisruption.DISRUPTION:
                self.schedule(a.actor, tu, (_r("spell.disrupted-next-from"),))
            else:
                self.schedule(a.actor, plan.times[-1], (_r("spell.disrupted-next-from"),))

    def _falls(self, cid: str) -> bool:
        hp = self.hp[cid]
        return hp is not None and hp <= 0

    def _check_fall(self, cid: str, tu: int, attacker: str) -> None:
        hp = self.hp[cid]
        if hp is None or hp > 0 or self.status[cid] is not Status.ACTIVE:
            return
        if hp <= self.options.death_threshold:
            self.status[cid] = Status.DEAD
            self.out.add(cid, StepEvent.DIES, tu, self.out.new_group(),
                         [_r("death.no-further-actions")], hp=hp, by=attacker)
        else:
            self.status[cid] = Status.UNCONSCIOUS
        self._drop_rest(cid)

    def _change_mind(self, e: _Entry) -> None:
        """Note the following: the pending action is cancelled and a new roll made from now."""
        follower = self.plans[e.plan]
        pos = self.queue[e.actor].index(follower.index, self.next_pos[e.actor])
        pending = self.plans[self.queue[e.actor][pos - 1]]
        if pending.fate is None:
            if pending.begun:
                self._disrupt_quietly(pending, e.tu)
            else:
                pending.fate = Fate.CANCELLED
        self.next_pos[e.actor] = pos
        self.schedule(e.actor, e.tu, (_r("change-mind.new-roll"),), by_change=True)

    def _disrupt_quietly(self, plan: _Plan, tu: int) -> None:
        """Abandons a spell whose casting began (a change of mind, not a hit)."""
        a = plan.action
        plan.fate = Fate.DISRUPTED
        self.casting.pop(a.actor, None)
        self.out.add(a.actor, StepEvent.SPELL_DISRUPTED, tu, self.out.new_group(),
                     [_r("change-mind.new-roll")], action=a.action, target=a.target,
                     spell=a.spell, reason="changed mind", declaration=a.path)

    def _complete(self, plan: _Plan, tu: int) -> None:
        """Starts the action's effect and schedules the actor's next action from this TU."""
        cid = plan.action.actor
        if plan.effect is not None and plan.done_steps == len(plan.times):
            per = (self.options.round_tu * plan.effect_rounds if plan.effect_rounds else 1)
            ends = tu + plan.effect.duration * per
            self.push(_Entry(ends, self.prio[Ev.EXPIRE], Ev.EXPIRE, plan.index,
                             effect=plan.effect, actor=cid))
        if self.status[cid] is not Status.ACTIVE:
            return
        if self.options.next_from is NextFrom.FIRST_ATTACK and plan.done_steps > 1:
            return  # the next action was counted from the first attack
        self._advance_past(plan)
        self.schedule(cid, tu, (_r("initiative.next-from-completion"),))

    def _advance_past(self, plan: _Plan) -> None:
        """Moves the actor's pointer past a finished action (it is the one at the pointer)."""
        cid = plan.action.actor
        pos = self.next_pos[cid]
        if pos < len(self.queue[cid]) and self.queue[cid][pos] == plan.index:
            self.next_pos[cid] = pos + 1


# --- surprise -----------------------------------------------------------------------------------

def _surprised(scenario: Scenario, out: _Output) -> set[str]:
    """Gets who is surprised: forced by ``surprised`` or by the side's surprise d6."""
    for side, value in scenario.surprise.items():
        if side not in scenario.sides:
            raise ScenarioError(f"surprise.{side}", f"unknown side {side!r}")
        _check_die(value, 6, f"surprise.{side}")
        out.rolls.append(Roll("1d6", value, manual=True, purpose=f"surprise {side}"))
    surprised: set[str] = set()
    rule: dict[str, str] = {}
    for c in scenario.combatants:
        if c.status is not Status.ACTIVE:
            continue
        if c.surprised is not None:
            if c.surprised:
                surprised.add(c.id)
                rule[c.id] = _r("surprise.first-action-from-tu-10")
            continue
        d6 = scenario.surprise.get(c.side)
        on = 2 if c.surprised_on is None else c.surprised_on
        if d6 is not None and d6 <= on:
            surprised.add(c.id)
            rule[c.id] = _r("surprise.d6")
    if surprised:
        group = out.new_group()
        for c in scenario.combatants:
            if c.id in surprised:
                out.add(c.id, StepEvent.SURPRISED, 0, group,
                        [rule[c.id], _r("surprise.first-action-from-tu-10")]
                        if rule[c.id] != _r("surprise.first-action-from-tu-10")
                        else [rule[c.id]])
    return surprised


# --- the system ---------------------------------------------------------------------------------

def schedule(scenario: Scenario, dice: RollSource) -> tuple[Resolution, dict[int, Fate]]:
    """Resolves a scenario and gets how each declared action (by index) ended."""
    options = parse_options(Options, scenario.options)
    for name in ("action_cost", "round_tu", "surprise_start_tu", "halfling_bonus"):
        if getattr(options, name) < 0:
            raise ScenarioError(f"options.{name}", f"cannot be negative, got "
                                                   f"{getattr(options, name)}")
    out = _Output()
    winner = _encounter_steps(scenario, options, dice, out)
    surprised = _surprised(scenario, out)
    clock = _Clock(scenario, options, dice, out, winner)
    clock.start(surprised)
    clock.run()
    fates: dict[int, Fate] = {}
    for plan in clock.plans:
        fates[plan.index] = plan.fate if plan.fate is not None else Fate.CANCELLED
    results = {
        c.id: CombatantResult(hp=clock.hp[c.id], status=clock.status[c.id])
        for c in scenario.combatants
    }
    resolution = Resolution(system=ID, steps=tuple(out.steps), combatants=results,
                            rolls=tuple(out.rolls))
    return resolution, fates


def ordinal(n: int) -> str:
    """Gets ``2nd`` from 2."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class TimeUnitSystem:
    """The time-unit combat system (``time-units``)."""

    id: ClassVar[str] = ID
    title: ClassVar[str] = "Time-unit combat (TU clock, no rounds)"
    options_type: ClassVar[type[Any]] = Options
    rules: ClassVar[Mapping[str, Rule]] = RULES

    def phases(self) -> Sequence[Phase]:
        """Gets the procedure the stepper walks through."""
        return PHASES

    def rolls_needed(self, document: Mapping[str, Any]) -> list[RollRequest]:
        """Lists the d10 of every declared action without one (and asked-for encounter d6s)."""
        needed = []
        if isinstance(document.get("initiative"), Mapping):
            needed += missing_side_dice(document, ("initiative",), document["initiative"],
                                        "encounter initiative")
        reaction = document.get("reaction")
        if isinstance(reaction, Mapping):
            # The Encounter Sequence, item 2: the DM's 2d6 for each monster side's reaction.
            needed += missing_side_dice(document, ("reaction",), reaction, "reaction",
                                        expression="2d6", skip=frozenset({PARTY_SIDE}))
        if isinstance(document.get("surprise"), Mapping):
            # time-units.surprise.d6: a side's surprise d6, once the DM asks for surprise.
            needed += missing_side_dice(document, ("surprise",), document["surprise"],
                                        "surprise")
        count: dict[object, int] = {}
        for index, action in enumerate(document.get("actions") or []):
            if not isinstance(action, Mapping):
                continue
            who = action.get("actor")
            count[who] = count.get(who, 0) + 1
            if action.get("roll") is None:
                # A fighter's later actions say which they are: three alike could not be told
                # apart in the dice list.
                nth = count[who]
                which = f", {ordinal(nth)} action" if nth > 1 else ""
                needed.append(RollRequest(("actions", index, "roll"), "1d10",
                                          f"initiative {who} ({action.get('action')}{which})"))
        return needed

    def resolve(self, scenario: Scenario, dice: RollSource) -> Resolution:
        """Resolves a scenario's actions on the TU clock."""
        return schedule(scenario, dice)[0]


SYSTEM = TimeUnitSystem()
