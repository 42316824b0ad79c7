"""Side initiative on d6, ten-segment rounds (source: shared/rules/side-d6-segment-initiative.md).

Each side rolls a d6 and acts in the segment the OTHER side's die shows, so the higher roll is
better. Surprise is a d6 per side once per combat (1 or 2 = that many segments surprised, more
against stealthy monsters), trimmed per combatant by the Dexterity surprise adjustment. Spells
begin in the caster's initiative segment and go off when the casting time has run, unless
damage lands on the caster first. Tied dice make the segment simultaneous.

The procedure, in the source's order (section numbers as in the source's "Combat" heading):
1. surprise (``_surprise``), 2. declarations (``_plan_round``/``_plan_surprise``),
3. initiative (``_round_dice`` and ``_acting_segment``), then the segments are played in time
order (``_Engine``), with spells completing and held actions in segments 7–10.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import Any, ClassVar

from core.model.scenario import (
    Declaration,
    RoundSpec,
    Scenario,
    ScenarioError,
    declared_weapon,
    read_outcome,
)
from core.model.values import (
    Combatant,
    CombatantResult,
    Hit,
    Resolution,
    Roll,
    Spell,
    Status,
    Step,
    StepEvent,
    frozen_mapping,
)
from core.rules.abilities import adnd_dex_reaction
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

SOURCE = "side-d6-segment-initiative.md"
SEGMENTS_PER_ROUND = 10
INITIATIVE_SEGMENTS = 6
NORMAL_SURPRISE_ON = 2
"""Without special rules a side is surprised on a 1 or a 2 (section 1)."""

# --- options ----------------------------------------------------------------------------------


class DexPenalty(StrEnum):
    """What a negative Dexterity surprise adjustment does."""

    IGNORED = "ignored"
    """Dexterity cannot create surprise (the later, explicit sentence of section 1)."""
    LENGTHENS = "lengthens"
    """A penalty adds segments only to a combatant who is already surprised."""
    CREATES = "creates"
    """A penalty adds segments even to a combatant whose side was not surprised."""


class StealthScope(StrEnum):
    """Who may act in surprise segments beyond the second, won by an X-in-6 surpriser."""

    SIDE = "side"
    """The whole surprising side acts in every segment its opponents are surprised."""
    SURPRISER = "surpriser"
    """Only combatants whose own ``surprises_on`` reaches the segment act in it."""


class SpellGoesOff(StrEnum):
    """When a spell with casting time N, begun in segment S, takes effect."""

    AFTER_CASTING_TIME = "after-casting-time"
    """At the start of segment S + N (the Halvaine example: 4 + 2 = 6)."""
    LAST_CASTING_SEGMENT = "last-casting-segment"
    """At the end of segment S + N − 1."""


class Substitution(StrEnum):
    """What to do with a scenario in which a caster swaps the declared spell for another act."""

    REFUSE = "refuse"
    IGNORE = "ignore"
    """The substitute is dropped; the caster is taken to have elected not to cast."""


class MultiSide(StrEnum):
    """Which die sets a side's segment when there are more than two sides."""

    TARGET_SIDE = "target-side"
    """The die of the side the action targets; with no enemy target, the highest other die."""
    HIGHEST_OTHER = "highest-other"
    LOWEST_OTHER = "lowest-other"


class SpellStarts(StrEnum):
    """In which segment a spell's casting begins."""

    INITIATIVE_SEGMENT = "initiative-segment"
    """The caster's initiative segment ("Note about spells"; the Halvaine example)."""
    SEGMENT_1 = "segment-1"
    """Segment 1 of the round, whatever the dice (a common house rule)."""


class SurpriseMove(StrEnum):
    """How far a charge or a close may go in one surprise segment."""

    ROUND_ALLOWS = "round-allows"
    """As far as a round's move allows: "actions that would normally happen over the course
    of a round may be completed in one surprise segment … charging, closing to melee"."""
    ONE_SEGMENT = "one-segment"
    """Only as far as one segment's share of the move (a tenth), as before issue 25."""


class HpRule(StrEnum):
    """When a combatant stops fighting (the source is silent)."""

    DEAD_AT_ZERO = "dead-at-zero"
    ADND_MINUS_TEN = "adnd-minus-ten"
    """0 to −9 unconscious, −10 or less dead."""


@dataclass(frozen=True, slots=True)
class Options:
    """House-rule options for side-d6; every default follows the source text."""

    MEANINGS: ClassVar[dict[str, str]] = {
        "dex_from_score": (
            "A combatant with a Dexterity score but no surprise or missile adjustment of its own "
            "takes them from the AD&D reaction table for that score."
        ),
    }
    """What options with no rule of their own decide, in words (the printed appendix)."""

    dex_penalty: DexPenalty = DexPenalty.IGNORED
    dex_from_score: bool = True
    """Derive a missing surprise/missile adjustment from ``dex`` (AD&D reaction table)."""
    stealth_scope: StealthScope = StealthScope.SIDE
    one_segment_spell_completes_in_surprise: bool = True
    spell_goes_off: SpellGoesOff = SpellGoesOff.AFTER_CASTING_TIME
    spell_substitution: Substitution = Substitution.REFUSE
    multi_side: MultiSide = MultiSide.TARGET_SIDE
    missile_bonus: bool = True
    hp_rule: HpRule = HpRule.DEAD_AT_ZERO
    spell_starts: SpellStarts = SpellStarts.INITIATIVE_SEGMENT
    set_weapon_double_damage: bool = False
    """A weapon set against a charge deals double the recorded damage (AD&D; the source is
    silent, so recorded damage stands by default)."""
    surprise_move: SurpriseMove = SurpriseMove.ROUND_ALLOWS


# --- rule catalogue ---------------------------------------------------------------------------

H_COMBAT = "Combat (order of events)"
H_SURPRISE = "1. Determine Surprise"
H_DECLARE = "2. Declare Spells and General Actions"
H_INIT = "3. Determine Initiative"
H_SPELLS = "3. Determine Initiative — Note about spells"

R_SURPRISE_DIE = "side-d6.surprise.d6-per-side"
R_SURPRISE_SEGMENTS = "side-d6.surprise.segments-from-roll"
R_STEALTHY = "side-d6.surprise.stealthy-surpriser"
R_CANNOT = "side-d6.surprise.cannot-be-surprised"
R_ALERTED = "side-d6.surprise.alerted-no-roll"
R_DEX = "side-d6.surprise.dex-adjusts"
R_SURPRISE_ACT = "side-d6.surprise.unsurprised-act"
R_ONE_SEGMENT = "side-d6.surprise.one-segment-actions"
R_DECLARE_SPELL = "side-d6.declare.spell-before-initiative"
R_NO_SUBSTITUTE = "side-d6.declare.cancel-not-substitute"
R_INIT_DIE = "side-d6.initiative.d6-per-side"
R_OTHER_DIE = "side-d6.initiative.other-sides-die"
R_MULTI_SIDE = "side-d6.initiative.multi-side"
R_MISSILE = "side-d6.initiative.missile-bonus"
R_TIE = "side-d6.initiative.tie-simultaneous"
R_SHARED = "side-d6.initiative.shared-segment"
R_SPELL_SEGMENT_1 = "side-d6.spell.starts-in-segment-1"
R_TIE_DAMAGE = "side-d6.initiative.damage-lands-in-tie"
R_IMMEDIATE = "side-d6.round.damage-immediate"
R_TEN = "side-d6.round.ten-segments"
R_HELD = "side-d6.round.held-action"
R_ROUTINE = "side-d6.routine.second-after-other-segment"
R_SPELL_START = "side-d6.spell.starts-in-initiative-segment"
R_SPELL_EFFECT = "side-d6.spell.takes-effect-after-casting-time"
R_HEALS = "side-d6.spell.heals"
R_CONDITION, R_CANNOT_ACT = care_rule_ids("side-d6")
R_SPELL_SPOILED = "side-d6.spell.disrupted-by-damage"
R_BUSY = "side-d6.spell.busy-while-casting"
R_ACTIONS = "side-d6.action.kinds"
R_DEATH = "side-d6.hp.death"
R_FLEEING_ATTACK = "side-d6.interrupt.fleeing-attack"
R_SET_VS_CHARGE = "side-d6.interrupt.set-against-charge"
R_SET_DOUBLE = "side-d6.interrupt.set-double-damage"
R_CONTACT = "side-d6.move.contact-segment"
R_NO_INTERRUPT = "side-d6.surprise.no-interrupt-while-surprised"
R_SURPRISE_CHARGE = "side-d6.surprise.charge-a-round-allows"
R_SPLIT = "side-d6.routine.split-targets"

RULES = rule_table(
    Rule(R_SURPRISE_DIE, SOURCE, H_SURPRISE,
         "Surprise is checked once per combat: each side rolls one d6."),
    Rule(R_SURPRISE_SEGMENTS, SOURCE, H_SURPRISE,
         "A side rolling 1 is surprised for one segment, 2 for two segments, 3–6 not at all."),
    Rule(R_STEALTHY, SOURCE, H_SURPRISE,
         "Against a creature that surprises on 1–X (X above 2), a side is surprised for as "
         "many segments as it rolled when the roll is X or less.", "stealth_scope"),
    Rule(R_CANNOT, SOURCE, H_SURPRISE,
         "Creatures that cannot be surprised (surprised on 0) never lose segments."),
    Rule(R_ALERTED, SOURCE, H_SURPRISE,
         "A side the enemy has alerted makes no surprise roll and is not surprised."),
    Rule(R_DEX, SOURCE, H_SURPRISE,
         "A combatant's Dexterity surprise bonus removes that many of its surprise segments; "
         "a penalty never creates surprise.", "dex_penalty"),
    Rule(R_SURPRISE_ACT, SOURCE, H_SURPRISE,
         "In each surprise segment every combatant not (or no longer) surprised acts; the "
         "surprise segments last as long as anyone is surprised.", "stealth_scope"),
    Rule(R_ONE_SEGMENT, SOURCE, H_SURPRISE,
         "A surprise segment holds one action that fits in one segment; a spell is fully cast "
         "only if its casting time is 1, a longer one only begins.",
         "one_segment_spell_completes_in_surprise"),
    Rule(R_DECLARE_SPELL, SOURCE, H_DECLARE,
         "Casters name their spell before initiative; it must be one they have memorised."),
    Rule(R_NO_SUBSTITUTE, SOURCE, H_DECLARE,
         "A caster may drop the declared spell but not swap it for another action.",
         "spell_substitution"),
    Rule(R_INIT_DIE, SOURCE, H_INIT, "Each round every side rolls one d6 for initiative."),
    Rule(R_OTHER_DIE, SOURCE, H_INIT,
         "A side acts in the segment shown by the other side's die, so higher is better."),
    Rule(R_MULTI_SIDE, SOURCE, H_INIT,
         "With three or more sides, the die that sets a side's segment is chosen by an option "
         "(default: the die of the side it acts against).", "multi_side"),
    Rule(R_MISSILE, SOURCE, H_INIT,
         "A combatant shooting a missile weapon acts earlier by its missile bonus (within "
         "segments 1–6); Dexterity does not change melee initiative.", "missile_bonus"),
    Rule(R_TIE, SOURCE, H_INIT,
         "Tied dice make the sides act simultaneously."),
    Rule(R_SHARED, SOURCE, H_INIT,
         "Sides that act in one segment without tied dice (a surprise segment both may act "
         "in, a missile bonus, a held action) act in it simultaneously, as tied sides do."),
    Rule(R_TIE_DAMAGE, SOURCE, H_INIT,
         "Damage dealt in a simultaneous segment lands even if its dealer dies in it."),
    Rule(R_IMMEDIATE, SOURCE, H_INIT,
         "Outside simultaneous segments damage takes effect at once: the slain do not act."),
    Rule(R_TEN, SOURCE, H_INIT,
         "A round has ten segments; 7–10 serve only for spells completing and held actions."),
    Rule(R_HELD, SOURCE, H_INIT,
         "A combatant may hold its action to a later segment of the round."),
    Rule(R_ROUTINE, SOURCE, H_INIT,
         "A second attack routine waits until the other side's initiative segment is done."),
    Rule(R_SPLIT, SOURCE, H_INIT,
         "The attacks of a routine (a volley, a monster's several attacks) may be split "
         "between listed targets: one at each in order, the rest at the last; an attack whose "
         "target has fallen goes at the next listed one still standing, or is not made: "
         "with none left it waits for the DM to name a new target (a volley at one target "
         "whose first arrow killed it included)."),
    Rule(R_SPELL_START, SOURCE, H_SPELLS,
         "Casting begins in the caster's initiative segment, the first casting segment.",
         "spell_starts"),
    Rule(R_SPELL_SEGMENT_1, SOURCE, H_SPELLS,
         "As a house rule (option), casting begins in segment 1 of the round whatever the "
         "dice.", "spell_starts"),
    Rule(R_HEALS, SOURCE, H_SPELLS,
         "A healing spell gives its target hit points back when it takes effect, up to the "
         "maximum (a combatant already down stays down)."),
    Rule(R_SPELL_EFFECT, SOURCE, H_SPELLS,
         "The spell goes off at the initiative segment plus the casting time.",
         "spell_goes_off"),
    Rule(R_SPELL_SPOILED, SOURCE, H_SPELLS,
         "Damage landing on a caster while the spell is being cast spoils it."),
    Rule(R_BUSY, SOURCE, H_DECLARE,
         "A caster still casting cannot start another action; that action is cancelled."),
    Rule(R_ACTIONS, SOURCE, H_DECLARE,
         "Declarations take plain kinds (attack, missile, spell, move, charge, …) or the DMG "
         "letters A–H and P, mapped to the same kinds."),
    Rule(R_DEATH, SOURCE, H_COMBAT,
         "The source is silent on hit points: by default 0 or less is dead.", "hp_rule"),
    Rule(R_FLEEING_ATTACK, SOURCE, H_COMBAT,
         "A combatant who flees may be interrupted by its opponents' fleeing attacks; the DM "
         "records each (hit, damage or miss), and they land before the flight."),
    Rule(R_SET_VS_CHARGE, SOURCE, H_COMBAT,
         "A weapon set against a charge (a set declaration) interrupts the charge: it strikes "
         "when the charger reaches, before the charger's blow."),
    Rule(R_SET_DOUBLE, SOURCE, H_COMBAT,
         "Optionally a weapon set against a charge deals double the recorded damage (AD&D); "
         "the source is silent, so by default the recorded damage stands.",
         "set_weapon_double_damage"),
    Rule(R_SURPRISE_CHARGE, SOURCE, H_SURPRISE,
         "A charge or a close that a round's move allows is completed in one surprise "
         "segment, as talking, attacking, charging and closing to melee are; one that needs "
         "more than a round's move cannot be done in a single segment and is refused (as an "
         "option: only a tenth of the move fits in the segment).", "surprise_move"),
    Rule(R_NO_INTERRUPT, SOURCE, H_SURPRISE,
         "A combatant still surprised in a surprise segment is \"unable to act\": it is "
         "neither offered nor allowed an interrupt (a fleeing attack, a weapon set against a "
         "charge) in that segment."),
    Rule(R_CONTACT, SOURCE, H_SURPRISE,
         "Source silent on distances: a charge or close given a distance reaches after "
         "distance ÷ (movement rate ÷ 10) segments, counting its own segment; a charge strikes "
         "in that segment (or after the number of segments the DM gives)."),
    *care_rules("side-d6", SOURCE, H_INIT),
)

PHASES = (
    Phase("surprise", "Surprise: d6 per side, then the surprise segments",
          (R_SURPRISE_DIE, R_SURPRISE_SEGMENTS, R_STEALTHY, R_CANNOT, R_ALERTED, R_DEX,
           R_SURPRISE_ACT, R_ONE_SEGMENT, R_SURPRISE_CHARGE, R_NO_INTERRUPT)),
    Phase("declare", "Declare spells and general actions",
          (R_DECLARE_SPELL, R_NO_SUBSTITUTE, R_ACTIONS)),
    Phase("initiative", "Roll initiative (d6 per side)",
          (R_INIT_DIE, R_OTHER_DIE, R_MULTI_SIDE, R_MISSILE)),
    Phase("act", "Play segments 1–10",
          (R_TIE, R_SHARED, R_TIE_DAMAGE, R_IMMEDIATE, R_TEN, R_HELD, R_ROUTINE, R_SPELL_START,
           R_SPELL_SEGMENT_1, R_SPELL_EFFECT, R_HEALS, R_SPELL_SPOILED, R_BUSY, R_DEATH,
           R_FLEEING_ATTACK, R_SET_VS_CHARGE, R_SET_DOUBLE, R_CONTACT, R_CONDITION, R_CANNOT_ACT)),
)

# --- action kinds -----------------------------------------------------------------------------


class Kind(Enum):
    """What a declared action does, whatever word or letter the scenario used."""

    MELEE = "melee"
    MISSILE = "missile"
    SPELL = "spell"
    MOVE = "move"
    CHARGE = "charge"
    FLEE = "flee"
    PARLEY = "parley"
    WAIT = "wait"
    SET = "set"
    OTHER = "other"
    DISCHARGE = "discharge"
    """DMG letter D: a spell when a spell is named, otherwise a missile."""


PLAIN_KINDS: Mapping[str, Kind] = {
    "attack": Kind.MELEE, "melee": Kind.MELEE, "grapple": Kind.MELEE,
    "missile": Kind.MISSILE, "shoot": Kind.MISSILE,
    "spell": Kind.SPELL, "cast": Kind.SPELL,
    "move": Kind.MOVE, "close": Kind.MOVE,
    "charge": Kind.CHARGE,
    "flee": Kind.FLEE, "avoid": Kind.FLEE,
    "parley": Kind.PARLEY, "talk": Kind.PARLEY,
    "wait": Kind.WAIT, "await": Kind.WAIT,
    "set": Kind.SET,
    "other": Kind.OTHER, "device": Kind.OTHER, "turn": Kind.OTHER, "psionic": Kind.OTHER,
}
DMG_LETTERS: Mapping[str, Kind] = {
    "P": Kind.OTHER, "A": Kind.FLEE, "B": Kind.PARLEY, "C": Kind.WAIT, "D": Kind.DISCHARGE,
    "E": Kind.MOVE, "F": Kind.SET, "G": Kind.MELEE, "H": Kind.MELEE,
}
ATTACK_KINDS = frozenset({Kind.MELEE, Kind.MISSILE, Kind.CHARGE})
SIMPLE_EVENTS: Mapping[Kind, StepEvent] = {
    Kind.MOVE: StepEvent.MOVES, Kind.FLEE: StepEvent.FLEES, Kind.PARLEY: StepEvent.PARLEYS,
    Kind.WAIT: StepEvent.WAITS, Kind.SET: StepEvent.READIES, Kind.OTHER: StepEvent.ACTS,
}


def action_kind(decl: Declaration) -> Kind:
    """Gets the kind of a declared action from its plain word or DMG letter."""
    text = decl.action.strip()
    kind = DMG_LETTERS.get(text.upper()) if len(text) == 1 else PLAIN_KINDS.get(text.lower())
    if kind is None:
        known = ", ".join([*PLAIN_KINDS, *DMG_LETTERS])
        raise ScenarioError(f"{decl.path}.action", f"unknown action {decl.action!r} ({known})")
    if kind is Kind.DISCHARGE:
        kind = Kind.SPELL if decl.spell else Kind.MISSILE
    if kind is Kind.MOVE and decl.charge:
        kind = Kind.CHARGE
    if len(decl.targets) > 1 and kind not in (Kind.MELEE, Kind.MISSILE):
        raise ScenarioError(f"{decl.path}.targets", "several targets are read for attacks only "
                            "(melee or missile): name one target")
    return kind


# --- small readers ----------------------------------------------------------------------------


def _d6(value: int, path: str) -> int:
    if not 1 <= value <= 6:
        raise ScenarioError(path, f"a d6 shows 1–6, got {value}")
    return value


def _given_d6(dice: Mapping[str, int], path: str, sides: Sequence[str]) -> dict[str, int]:
    for side, value in dice.items():
        if side not in sides:
            raise ScenarioError(f"{path}.{side}", f"unknown side {side!r} ({', '.join(sides)})")
        _d6(value, f"{path}.{side}")
    return dict(dice)


def _raw_int(raw: Mapping[str, Any], key: str, path: str) -> int | None:
    value = raw.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(f"{path}.{key}", f"expected a whole number, got {value!r}")
    return value


def _raw_bool(raw: Mapping[str, Any], key: str, path: str) -> bool:
    value = raw.get(key, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ScenarioError(f"{path}.{key}", f"expected true or false, got {value!r}")
    return value


def _alerted_sides(scenario: Scenario, sides: Sequence[str]) -> frozenset[str]:
    """Reads the scenario's ``alerted`` field: a list of sides (or an object side → true)."""
    raw = scenario.raw.get("alerted")
    if raw is None:
        return frozenset()
    if isinstance(raw, Mapping):
        names = [k for k, v in raw.items() if _raw_bool(raw, k, "alerted") and v]
    elif isinstance(raw, list):
        names = list(raw)
    else:
        raise ScenarioError("alerted", f"expected a list of sides, got {raw!r}")
    for i, name in enumerate(names):
        if not isinstance(name, str) or name not in sides:
            raise ScenarioError(f"alerted[{i}]", f"unknown side {name!r} ({', '.join(sides)})")
    return frozenset(names)


def _dex_adj(c: Combatant, given: int | None, options: Options) -> int:
    if given is not None:
        return given
    if options.dex_from_score and c.dex is not None:
        return adnd_dex_reaction(c.dex)
    return 0


def _cannot_be_surprised(c: Combatant) -> bool:
    return c.surprised_on == 0 or c.extra.get("cannot_be_surprised") is True


# --- 1. surprise ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SurpriseResult:
    """Surprise segments per combatant, and who may act in each surprise segment."""

    segments: Mapping[str, int]
    """Combatant id → surprise segments it suffers (0: not surprised)."""
    total: int
    """How many surprise segments there are (the longest anyone is surprised)."""
    reasons: Mapping[str, tuple[str, ...]]
    checked: bool


def _surprise(
    scenario: Scenario, options: Options, dice: RollSource, rolls: list[Roll]
) -> SurpriseResult:
    """Works out each combatant's surprise segments (source: "1. Determine Surprise")."""
    sides = scenario.sides
    has_surprise_round = bool(scenario.rounds) and scenario.rounds[0].surprise
    checked = "surprise" in scenario.raw or has_surprise_round
    given = _given_d6(scenario.surprise, "surprise", sides)
    alerted = _alerted_sides(scenario, sides)
    active = [c for c in scenario.combatants if c.status is Status.ACTIVE]
    for i, c in enumerate(scenario.combatants):
        if c.surprises_on is not None and not 0 <= c.surprises_on <= 6:
            raise ScenarioError(f"combatants[{i}].surprises_on",
                                f"surprises on 1–X in 6 needs X of 0–6, got {c.surprises_on}")
        if c.surprised_on is not None and not 0 <= c.surprised_on <= 6:
            raise ScenarioError(f"combatants[{i}].surprised_on",
                                f"surprised on 1–X in 6 needs X of 0–6, got {c.surprised_on}")
    # The best surpriser of each side decides how long its opponents can be surprised.
    best_x: dict[str, int] = {}
    for c in active:
        x = NORMAL_SURPRISE_ON if c.surprises_on is None else c.surprises_on
        best_x[c.side] = max(best_x.get(c.side, 0), x)
    side_roll: dict[str, int] = {}
    if checked:
        for side in sides:
            members = [c for c in active if c.side == side]
            if side in alerted or not members or all(_cannot_be_surprised(c) for c in members):
                continue
            if side in given:
                side_roll[side] = given[side]
                rolls.append(Roll("1d6", given[side], manual=True, purpose=f"surprise {side}"))
            else:
                roll = dice.roll("1d6", purpose=f"surprise {side}")
                side_roll[side] = _d6(roll.total, f"surprise.{side}")
                rolls.append(roll)
    segments: dict[str, int] = {}
    reasons: dict[str, tuple[str, ...]] = {}
    for c in active:
        opp_x = max((x for s, x in best_x.items() if s != c.side), default=NORMAL_SURPRISE_ON)
        because: list[str] = [R_SURPRISE_SEGMENTS, R_SURPRISE_DIE]
        count = 0
        roll_value = side_roll.get(c.side)
        if roll_value is not None and not _cannot_be_surprised(c):
            own = NORMAL_SURPRISE_ON if c.surprised_on is None else c.surprised_on
            threshold = own + max(0, opp_x - NORMAL_SURPRISE_ON)
            count = roll_value if roll_value <= threshold else 0
            if roll_value > NORMAL_SURPRISE_ON and count:
                because.append(R_STEALTHY)
            adj = _dex_adj(c, c.surprise_adj, options)
            if adj > 0 and count:
                count = max(0, count - adj)
                because.append(R_DEX)
            elif adj < 0 and (
                options.dex_penalty is DexPenalty.CREATES
                or (options.dex_penalty is DexPenalty.LENGTHENS and count > 0)
            ):
                count -= adj
                because.append(R_DEX)
        if c.surprised is True:
            count = max(count, 1)
        elif c.surprised is False:
            count = 0
        segments[c.id] = count
        reasons[c.id] = tuple(because)
    return SurpriseResult(
        segments=segments, total=max(segments.values(), default=0), reasons=reasons,
        checked=checked,
    )


def _can_act_in_surprise(c: Combatant, seg: int, surprise: SurpriseResult,
                         options: Options) -> bool:
    """Tells whether ``c`` acts in surprise segment ``seg`` (source: "1. Determine Surprise")."""
    if surprise.segments.get(c.id, 0) >= seg or seg > surprise.total:
        return False
    if options.stealth_scope is StealthScope.SURPRISER and seg > NORMAL_SURPRISE_ON:
        own_x = NORMAL_SURPRISE_ON if c.surprises_on is None else c.surprises_on
        return own_x >= seg
    return True


# --- planning: declarations into timed actions ------------------------------------------------

FLEEING_ATTACK = "fleeing attack"
SET_AGAINST_CHARGE = "set against a charge"


@dataclass(frozen=True, slots=True)
class _Interrupt:
    """An opponent's blow that interrupts a flight or a charge ("Combat", order of events)."""

    path: str
    actor: str
    hits: tuple[Hit, ...]
    kind: str
    """``FLEEING_ATTACK`` or ``SET_AGAINST_CHARGE``."""
    set_path: str | None = None
    """The set declaration a weapon set against a charge uses up."""


@dataclass(slots=True)
class _Action:
    """One scheduled piece of a declaration (an action, a second routine or a spell's effect)."""

    t: int
    sub: int
    """Order inside a segment: 0 spells completing, 1 actions, 2 second routines, 3 end."""
    order: int
    decl: Declaration
    kind: Kind
    actor: Combatant
    hits: tuple[Hit, ...] = ()
    because: tuple[str, ...] = ()
    spell: Spell | None = None
    effect_of: _Action | None = None
    """Set on a spell's completion: the action that began it."""
    routine: int = 1
    surprise_spell: bool = False
    interrupts: tuple[_Interrupt, ...] = ()
    """Recorded interrupts, resolved just before this action."""
    may_interrupt: tuple[str, ...] = ()
    """Who the DM may offer an interrupt to (shown on the flight or charge step)."""
    contact: int | None = None
    """Continuous time a charge or close given a distance reaches its target."""
    approach: bool = False
    """A charge's start when it reaches later: only the ``charges`` step."""
    arrival: bool = False
    """A charge's blows in the segment it reaches (no ``charges`` step)."""

    def key(self) -> tuple[int, int, int, int, bool]:
        """Gets the sort key: time, place in the segment, declaration order, routine."""
        return (self.t, self.sub, self.order, self.routine, self.arrival)

    def __lt__(self, other: _Action) -> bool:
        return self.key() < other.key()


@dataclass(frozen=True, slots=True)
class _Clock:
    """Maps the continuous segment count to (round, segment, surprise) and back."""

    surprise_segments: int
    first_normal_round: int
    """1-based round number of the first normal round (2 after a surprise entry)."""

    def at(self, t: int) -> tuple[int | None, int, bool]:
        """Gets (round, segment, surprise) for continuous time ``t``."""
        if t <= self.surprise_segments:
            return (1 if self.first_normal_round == 2 else None), t, True
        n = t - self.surprise_segments - 1
        return self.first_normal_round + n // SEGMENTS_PER_ROUND, n % SEGMENTS_PER_ROUND + 1, False

    def time(self, round_index: int, segment: int) -> int:
        """Gets continuous time of ``segment`` in normal round ``round_index`` (0-based)."""
        return self.surprise_segments + round_index * SEGMENTS_PER_ROUND + segment


def _spell_for(decl: Declaration, actor: Combatant) -> Spell:
    """Finds the declared spell (source: "2. Declare Spells and General Actions")."""
    if not decl.spell:
        raise ScenarioError(f"{decl.path}.spell", "a caster must name the spell before initiative")
    spell = actor.spell(decl.spell)
    given_ct = _raw_int(decl.raw, "casting_time", decl.path)
    if spell is None:
        if actor.spells and given_ct is None:
            known = ", ".join(s.name for s in actor.spells)
            raise ScenarioError(f"{decl.path}.spell",
                                f"{actor.id} has not memorised {decl.spell!r} ({known})")
        spell = Spell(name=decl.spell, casting_time=1 if given_ct is None else given_ct)
    elif given_ct is not None:
        spell = Spell(name=spell.name, level=spell.level, casting_time=given_ct)
    if spell.casting_time < 0:
        raise ScenarioError(f"{decl.path}.casting_time", "cannot be negative")
    return spell


def _check_declaration(decl: Declaration, kind: Kind, options: Options) -> bool:
    """Validates cancel/substitute fields; tells whether the declaration is cancelled."""
    cancelled = _raw_bool(decl.raw, "cancel", decl.path) or _raw_bool(
        decl.raw, "cancelled", decl.path)
    if decl.raw.get("instead") not in (None, False):
        if kind is not Kind.SPELL:
            raise ScenarioError(f"{decl.path}.instead",
                                "only a spell declaration may be given up; declare the action "
                                "actually taken")
        if options.spell_substitution is Substitution.REFUSE:
            raise ScenarioError(f"{decl.path}.instead",
                                "a caster may cancel the declared spell but not substitute "
                                "another action")
        cancelled = True
    if (kind in ATTACK_KINDS or kind is Kind.SPELL) and (
            decl.outcome.damage > 0 and decl.target is None):
        raise ScenarioError(f"{decl.path}.target", "damage needs a target")
    return cancelled


def _missile_in_hand(decl: Declaration, kind: Kind, actor: Combatant) -> bool:
    if kind is Kind.MISSILE:
        return True
    weapon = declared_weapon(actor, decl.raw, decl.path) if decl.weapon else None
    return kind is Kind.MELEE and weapon is not None and weapon.missile


def _routine_hits(decl: Declaration, actor: Combatant) -> tuple[tuple[Hit, ...], tuple[Hit, ...]]:
    per = max(actor.attacks, 1)
    hits = decl.outcome.hits
    return hits[:per], hits[per:]


def _contact_segments(decl: Declaration, kind: Kind, actor: Combatant) -> int | None:
    """Gets how many segments a charge or close needs to reach, counting its own segment.

    The source gives no distances; by our rule (``side-d6.move.contact-segment``) a mover covers
    a tenth of its movement rate a segment, as in the AD&D procedure's footnote 19.
    """
    has_count, has_distance = "charge_segments" in decl.raw, "distance" in decl.raw
    if not (has_count or has_distance):
        return None
    key = "charge_segments" if has_count else "distance"
    if kind not in (Kind.CHARGE, Kind.MOVE):
        raise ScenarioError(f"{decl.path}.{key}", "only a charge or a close covers a distance")
    if has_count and has_distance:
        raise ScenarioError(f"{decl.path}.charge_segments",
                            "give the distance or the segments needed, not both")
    if has_count:
        count = _raw_int(decl.raw, "charge_segments", decl.path)
        if count is None or count < 1:
            raise ScenarioError(f"{decl.path}.charge_segments",
                                f"a charge needs at least 1 segment, got {count}")
        return count
    distance = decl.raw.get("distance")
    if isinstance(distance, bool) or not isinstance(distance, int | float) or distance < 0:
        raise ScenarioError(f"{decl.path}.distance", f"expected a distance of 0 or more, "
                            f"got {distance!r}")
    rate_raw = actor.extra.get("charge_movement") if kind is Kind.CHARGE else None
    rate = rate_raw if isinstance(rate_raw, int | float) and not isinstance(
        rate_raw, bool) else actor.movement
    if rate is None or rate <= 0:
        raise ScenarioError(f"{decl.path}.distance",
                            f"{actor.label} has no movement rate to cover a distance with")
    return max(1, math.ceil(distance * SEGMENTS_PER_ROUND / rate))


def _read_interrupts(decl: Declaration, kind: Kind, actor: Combatant,
                     by_id: Mapping[str, Combatant],
                     sets: Mapping[str, Declaration]) -> tuple[_Interrupt, ...]:
    """Reads a flight's or a charge's recorded interrupts (field ``interrupts``)."""
    raw = decl.raw.get("interrupts")
    if raw is None:
        return ()
    where = f"{decl.path}.interrupts"
    if kind not in (Kind.FLEE, Kind.CHARGE):
        raise ScenarioError(where, "only a flight (fleeing attacks) or a charge (weapons set "
                            "against it) can be interrupted")
    if not isinstance(raw, list):
        raise ScenarioError(where, f"expected a list of interrupting attacks, got {raw!r}")
    out: list[_Interrupt] = []
    for i, entry in enumerate(raw):
        path = f"{where}[{i}]"
        if not isinstance(entry, Mapping):
            raise ScenarioError(path, f"expected an object with an actor, got {entry!r}")
        who = entry.get("actor")
        if not isinstance(who, str) or who not in by_id:
            raise ScenarioError(f"{path}.actor", f"unknown combatant {who!r}")
        if by_id[who].side == actor.side:
            raise ScenarioError(f"{path}.actor",
                                f"{by_id[who].label} is on {actor.label}'s side")
        if any(o.actor == who for o in out):
            raise ScenarioError(f"{path}.actor", f"{by_id[who].label} already interrupts")
        set_path = None
        if kind is Kind.CHARGE:
            set_decl = sets.get(who)
            if set_decl is None:
                raise ScenarioError(f"{path}.actor",
                                    f"{by_id[who].label} has not set a weapon against a charge "
                                    "this round (declare the action set)")
            if set_decl.target is not None and set_decl.target != actor.id:
                raise ScenarioError(f"{path}.actor",
                                    f"{by_id[who].label} set its weapon against "
                                    f"{by_id[set_decl.target].label}")
            set_path = set_decl.path
        out.append(_Interrupt(path, who, read_outcome(entry, path).hits,
                              FLEEING_ATTACK if kind is Kind.FLEE else SET_AGAINST_CHARGE,
                              set_path))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class _RoundFacts:
    """Who set a weapon and who is engaged with whom in one round (read once per round)."""

    sets: Mapping[str, Declaration]
    """Combatant → its set declaration (plain ``set`` or F)."""
    set_against: Mapping[str | None, tuple[str, ...]]
    """Target of the set (None: any charger) → who set a weapon against it."""
    engaged: Mapping[str, tuple[str, ...]]
    """Combatant → those it attacks or who attack it this round, in declaration order."""


def _round_facts(rnd: RoundSpec) -> _RoundFacts:
    sets: dict[str, Declaration] = {}
    against: dict[str | None, list[str]] = {}
    engaged: dict[str, dict[str, None]] = {}
    for decl in rnd.declarations:
        text = decl.action.strip()
        if (text.lower() == "set" or (len(text) == 1 and text.upper() == "F")) and (
                decl.actor not in sets):
            sets[decl.actor] = decl
            against.setdefault(decl.target, []).append(decl.actor)
        if decl.target:
            engaged.setdefault(decl.actor, {})[decl.target] = None
            engaged.setdefault(decl.target, {})[decl.actor] = None
    return _RoundFacts(sets, {k: tuple(v) for k, v in against.items()},
                       {k: tuple(v) for k, v in engaged.items()})


def _interrupt_candidates(kind: Kind, actor: Combatant, facts: _RoundFacts,
                          by_id: Mapping[str, Combatant]) -> tuple[str, ...]:
    """Lists who may interrupt a flight or a charge, for the DM to be offered."""
    if kind is Kind.CHARGE:
        who = (*facts.set_against.get(None, ()), *facts.set_against.get(actor.id, ()))
    elif kind is Kind.FLEE:
        who = facts.engaged.get(actor.id, ())
    else:
        return ()
    return tuple(w for w in who
                 if by_id[w].side != actor.side and by_id[w].status is Status.ACTIVE)


class _Planner:
    """Turns the scenario's rounds into timed actions and validates them."""

    def __init__(self, scenario: Scenario, options: Options, dice: RollSource,
                 rolls: list[Roll], surprise: SurpriseResult) -> None:
        self.scenario = scenario
        self.options = options
        self.dice = dice
        self.rolls = rolls
        self.surprise = surprise
        self.by_id = {c.id: c for c in scenario.combatants}
        self.sides = scenario.sides
        self.actions: list[_Action] = []
        self.cancelled: dict[str, str] = {}
        self.facts: dict[str, _RoundFacts] = {}
        self.tied: dict[int, int] = {}
        """Round number → the die every side rolled, for rounds of tied dice."""
        self.order = 0
        has_sr = bool(scenario.rounds) and scenario.rounds[0].surprise
        self.clock = _Clock(surprise.total, 2 if has_sr else 1)

    def plan(self) -> None:
        """Plans every round of the scenario."""
        normal_index = 0
        for i, rnd in enumerate(self.scenario.rounds):
            if rnd.surprise:
                if i != 0:
                    raise ScenarioError(f"{rnd.path}.surprise",
                                        "surprise is checked once, at the start: only the "
                                        "first round may be a surprise round")
                self._plan_surprise(rnd)
            else:
                self._plan_round(rnd, normal_index, i + 1)
                normal_index += 1

    def _next_order(self) -> int:
        self.order += 1
        return self.order

    def _kinds(self, rnd: RoundSpec) -> list[tuple[Declaration, Kind, bool]]:
        seen: set[str] = set()
        out = []
        for decl in rnd.declarations:
            if decl.actor in seen:
                raise ScenarioError(f"{decl.path}.actor",
                                    f"{decl.actor} already declared an action this round")
            seen.add(decl.actor)
            kind = action_kind(decl)
            cancelled = _check_declaration(decl, kind, self.options)
            out.append((decl, kind, cancelled))
        return out

    def _plan_surprise(self, rnd: RoundSpec) -> None:
        """Places surprise-round declarations in surprise segments ("1. Determine Surprise")."""
        used: dict[str, int] = {}
        for decl, kind, cancelled in self._kinds_surprise(rnd):
            actor = self.by_id[decl.actor]
            if actor.status is not Status.ACTIVE or cancelled:
                self.cancelled[decl.path] = "cancelled" if cancelled else "not active"
                continue
            if self.surprise.total == 0:
                raise ScenarioError(f"{decl.path}.actor",
                                    "no one is surprised: there are no surprise segments")
            seg = _raw_int(decl.raw, "segment", decl.path)
            if seg is None:
                seg = used.get(actor.id, 0) + 1
                while seg <= self.surprise.total and not _can_act_in_surprise(
                        actor, seg, self.surprise, self.options):
                    seg += 1
            if seg < 1 or seg > self.surprise.total or not _can_act_in_surprise(
                    actor, seg, self.surprise, self.options):
                raise ScenarioError(f"{decl.path}.segment" if "segment" in decl.raw
                                    else f"{decl.path}.actor",
                                    f"{actor.id} cannot act in surprise segment {seg} "
                                    f"(surprised for {self.surprise.segments.get(actor.id, 0)}"
                                    f" of {self.surprise.total})")
            if used.get(actor.id, 0) >= seg:
                raise ScenarioError(f"{decl.path}.segment",
                                    f"{actor.id} already acts in surprise segment {seg}")
            if decl.raw.get("hold") is not None or decl.raw.get("held") is not None:
                raise ScenarioError(f"{decl.path}.hold", "actions are held only in a round")
            used[actor.id] = seg
            because = (R_SURPRISE_ACT, R_ONE_SEGMENT, *self.surprise.reasons.get(actor.id, ()))
            action = _Action(seg, 1, self._next_order(), decl, kind, actor,
                             hits=decl.outcome.hits, because=because)
            if kind is Kind.SPELL:
                action.spell = _spell_for(decl, actor)
                action.surprise_spell = True
            needed = _contact_segments(decl, kind, actor)
            if needed is not None and needed > 1:
                # "1. Determine Surprise": charging and closing to melee fit in one surprise
                # segment "provided that it is possible for the action to take place during a
                # single segment": what a round's move allows, not a minute-long speech.
                where = (f"{decl.path}.distance" if "distance" in decl.raw
                         else f"{decl.path}.charge_segments")
                if self.options.surprise_move is SurpriseMove.ONE_SEGMENT:
                    raise ScenarioError(where, f"a surprise segment holds only a tenth of a "
                                        f"move (option); {actor.label} needs {needed} "
                                        "segments to reach")
                if needed > SEGMENTS_PER_ROUND:
                    raise ScenarioError(where, f"{actor.label} cannot reach in one surprise "
                                        f"segment: the distance is more than a round's move "
                                        f"({needed} segments of movement)")
            self._place(action, rnd, in_surprise=True)

    def _place(self, action: _Action, rnd: RoundSpec, in_surprise: bool = False) -> None:
        """Adds an action with its interrupts, splitting a charge that reaches later."""
        decl, kind, actor = action.decl, action.kind, action.actor
        facts = self.facts.get(rnd.path)
        if facts is None:
            facts = self.facts[rnd.path] = _round_facts(rnd)
        interrupts = _read_interrupts(decl, kind, actor, self.by_id, facts.sets)
        may = _interrupt_candidates(kind, actor, facts, self.by_id)
        if in_surprise:
            # "Unable to act during the first few seconds": no interrupt from the surprised.
            free = tuple(w for w in may if _can_act_in_surprise(
                self.by_id[w], action.t, self.surprise, self.options))
            if free != may:
                action.because = (*action.because, R_NO_INTERRUPT)
            may = free
            for it in interrupts:
                if not _can_act_in_surprise(self.by_id[it.actor], action.t, self.surprise,
                                            self.options):
                    what = "strike as it flees" if it.kind == FLEEING_ATTACK else (
                        "strike with a weapon set against its charge")
                    raise ScenarioError(
                        f"{it.path}.actor",
                        f"{self.by_id[it.actor].label} is surprised in surprise segment "
                        f"{action.t} and unable to act, so it cannot {what}")
        action.may_interrupt = may
        needed = _contact_segments(decl, kind, actor)
        if needed is not None:
            if in_surprise and needed > 1:
                needed = 1  # checked by the caller: a round's move fits in the segment
                action.because = (R_SURPRISE_CHARGE, *action.because)
            action.contact = action.t + needed - 1
            action.because = (R_CONTACT, *action.because)
        if kind is Kind.CHARGE and (interrupts or (
                action.contact is not None and action.contact > action.t)):
            # The charger sets off now and strikes in the segment it reaches, after any
            # weapon set against it.
            action.approach = True
            self.actions.append(action)
            self.actions.append(_Action(
                action.t if action.contact is None else action.contact, 1, action.order, decl,
                kind, actor, hits=action.hits,
                because=action.because, interrupts=interrupts, arrival=True,
                contact=action.contact))
            return
        action.interrupts = interrupts
        self.actions.append(action)

    def _kinds_surprise(self, rnd: RoundSpec) -> list[tuple[Declaration, Kind, bool]]:
        out = []
        for decl in rnd.declarations:
            kind = action_kind(decl)
            out.append((decl, kind, _check_declaration(decl, kind, self.options)))
        return out

    def _round_dice(self, rnd: RoundSpec, number: int) -> dict[str, int]:
        """Gets each side's initiative d6, given or rolled ("3. Determine Initiative")."""
        given = _given_d6(rnd.initiative, f"{rnd.path}.initiative", self.sides)
        out: dict[str, int] = {}
        for side in self.sides:
            if side in given:
                out[side] = given[side]
                self.rolls.append(Roll("1d6", given[side], manual=True,
                                       purpose=f"initiative {side} round {number}"))
            else:
                roll = self.dice.roll("1d6", purpose=f"initiative {side} round {number}")
                out[side] = _d6(roll.total, f"{rnd.path}.initiative.{side}")
                self.rolls.append(roll)
        return out

    def _acting_segment(self, side: str, target_side: str | None,
                        dice: Mapping[str, int]) -> tuple[int, bool]:
        """Gets the segment a side acts in: the other side's die; and whether >2 sides mattered."""
        others = [d for s, d in dice.items() if s != side]
        if not others:
            return 1, False
        multi = len(others) > 1
        mode = self.options.multi_side
        if mode is MultiSide.TARGET_SIDE and target_side is not None and target_side != side:
            return dice[target_side], multi
        if mode is MultiSide.LOWEST_OTHER:
            return min(others), multi
        return max(others), multi

    def _other_sides_segment(self, side: str, dice: Mapping[str, int]) -> int:
        """Gets the latest segment in which the sides opposing ``side`` act against it."""
        if self.options.multi_side is MultiSide.TARGET_SIDE or len(dice) <= 2:
            return dice.get(side, 1)
        return max(self._acting_segment(s, None, dice)[0] for s in dice if s != side)

    def _plan_round(self, rnd: RoundSpec, index: int, number: int) -> None:
        """Schedules a normal round's declarations ("3. Determine Initiative")."""
        kinds = self._kinds(rnd)
        dice = self._round_dice(rnd, number)
        if len(dice) > 1 and len(set(dice.values())) == 1:
            self.tied[self.clock.at(self.clock.time(index, 1))[0] or number] = next(
                iter(dice.values()))
        for decl, kind, cancelled in kinds:
            actor = self.by_id[decl.actor]
            if "segment" in decl.raw:
                raise ScenarioError(f"{decl.path}.segment",
                                    "a round's segment comes from initiative; use hold to delay")
            if cancelled:
                self.cancelled[decl.path] = "cancelled"
                continue
            target_side = self.by_id[decl.target].side if decl.target else None
            seg, multi = self._acting_segment(actor.side, target_side, dice)
            because: list[str] = [R_OTHER_DIE, R_INIT_DIE]
            if multi:
                because.append(R_MULTI_SIDE)
            segment_1 = kind is Kind.SPELL and (
                self.options.spell_starts is SpellStarts.SEGMENT_1)
            if segment_1:
                seg = 1  # option spell_starts: casting begins in segment 1 whatever the dice
                because = [R_SPELL_SEGMENT_1]
            if self.options.missile_bonus and _missile_in_hand(decl, kind, actor):
                adj = _dex_adj(actor, actor.missile_adj, self.options)
                if adj:
                    seg = min(INITIATIVE_SEGMENTS, max(1, seg - adj))
                    because.insert(0, R_MISSILE)
            hold = _raw_int(decl.raw, "hold", decl.path)
            if hold is None:
                hold = _raw_int(decl.raw, "held", decl.path)
            if hold is not None:
                key = "hold" if "hold" in decl.raw else "held"
                if not seg <= hold <= SEGMENTS_PER_ROUND:
                    raise ScenarioError(f"{decl.path}.{key}",
                                        f"a held action goes in segment {seg}–10 "
                                        f"(initiative segment {seg}), got {hold}")
                if hold != seg:
                    seg = hold
                    because = [R_HELD, R_TEN, *because]
            first, second = _routine_hits(decl, actor)
            start_because = (R_SPELL_START, *because) if kind is Kind.SPELL and not (
                segment_1) else tuple(because)
            action = _Action(self.clock.time(index, seg), 1, self._next_order(), decl, kind,
                             actor, hits=first if kind is Kind.MELEE else decl.outcome.hits,
                             because=start_because)
            if kind is Kind.SPELL:
                action.spell = _spell_for(decl, actor)
            self._place(action, rnd)
            if kind is Kind.MELEE and actor.attack_routines >= 2:
                # "3. Determine Initiative": the second routine waits for the other side.
                wait = max(seg, self._other_sides_segment(actor.side, dice))
                self.actions.append(_Action(
                    self.clock.time(index, wait), 2, action.order, decl, kind, actor,
                    hits=second, because=(R_ROUTINE, *because), routine=2))


# --- playing the segments ---------------------------------------------------------------------


@dataclass(slots=True)
class _State:
    hp: dict[str, int | None]
    status: dict[str, Status]
    casting: dict[str, _Action] = field(default_factory=dict)
    """Caster id → the begin action of the spell being cast."""
    ledger: dict[str, str] = field(default_factory=dict)
    """Declaration path → resolved / disrupted / cancelled."""


class _Engine:
    """Plays timed actions in order, applying damage, deaths and spell disruption."""

    def __init__(self, scenario: Scenario, options: Options, clock: _Clock) -> None:
        self.options = options
        self.clock = clock
        self.state = _State(
            hp={c.id: c.hp for c in scenario.combatants},
            status={c.id: c.status for c in scenario.combatants},
        )
        self.by_id = {c.id: c for c in scenario.combatants}
        self.steps: list[Step] = []
        self.group = 0
        self.heap: list[_Action] = []
        # Conditions (core.rules.care), read up front so a bad field is refused.
        self.conditions = Conditions()
        self.care = {d.path: read_care(d.raw, d.path, d.actor, d.target, self.by_id.keys())
                     for rnd in scenario.rounds for d in rnd.declarations}
        self.cared: set[str] = set()
        self.blocked: set[str] = set()
        self.round_no = 0
        self.last_round = len(scenario.rounds)
        self.used_sets: set[str] = set()
        """Set declarations whose weapon already struck a charge."""
        self.tied: Mapping[int, int] = {}
        """Round number → the tied die (set by the planner)."""

    # -- steps --

    def _step(self, t: int, actor: str, event: StepEvent, because: Sequence[str], *,
              action: _Action | None = None, target: str | None = None,
              group: int | None = None, **detail: Any) -> None:
        if group is None:
            self.group += 1
            group = self.group
        rnd, seg, surprise = self.clock.at(t)
        info: dict[str, Any] = {}
        if action is not None:
            info["declaration"] = action.decl.path
            if action.decl.weapon:
                info["weapon"] = action.decl.weapon
            if action.spell is not None:
                info["spell"] = action.spell.name
            if action.routine > 1:
                info["routine"] = action.routine
            if action.contact is not None:
                contact_round, contact_segment, _ = self.clock.at(action.contact)
                info["contact_segment"] = contact_segment
                if contact_round != self.clock.at(t)[0]:
                    info["contact_round"] = contact_round
        info.update(detail)
        self.steps.append(Step(
            seq=len(self.steps) + 1, actor=actor, event=event, round=rnd, segment=seg,
            surprise=surprise, action=None if action is None else action.decl.action,
            target=target, group=group, because=tuple(dict.fromkeys(because)),
            detail=frozen_mapping(info),
        ))

    def surprised(self, surprise: SurpriseResult, scenario: Scenario) -> None:
        """Emits one ``surprised`` step per surprised combatant, sharing one group."""
        who = [c for c in scenario.combatants if surprise.segments.get(c.id, 0) > 0]
        if not who:
            return
        self.group += 1
        for c in who:
            self._step(1, c.id, StepEvent.SURPRISED, surprise.reasons.get(c.id, ()),
                       group=self.group, segments=surprise.segments[c.id])

    # -- damage --

    def _standing(self, cid: str) -> bool:
        """Tells whether a combatant still stands, counting damage whose fall is not yet
        shown (deaths are emitted once the action's blows have all landed)."""
        hp = self.state.hp.get(cid)
        return self.state.status[cid] is Status.ACTIVE and (
            hp is None or self._threshold_status(hp) is Status.ACTIVE)

    def _threshold_status(self, hp: int) -> Status:
        if self.options.hp_rule is HpRule.ADND_MINUS_TEN:
            if hp <= -10:
                return Status.DEAD
            return Status.UNCONSCIOUS if hp <= 0 else Status.ACTIVE
        return Status.DEAD if hp <= 0 else Status.ACTIVE

    def _wound(self, target: str, damage: int) -> int | None:
        hp = self.state.hp.get(target)
        if hp is None or damage <= 0:
            return hp
        hp -= damage
        self.state.hp[target] = hp
        return hp

    def _consequences(self, t: int, damaged: Sequence[str], simultaneous: bool) -> None:
        """Emits deaths then spell disruptions for targets damage just landed on."""
        deaths = []
        for target in dict.fromkeys(damaged):
            hp = self.state.hp.get(target)
            if hp is None or self.state.status[target] is not Status.ACTIVE:
                continue
            new = self._threshold_status(hp)
            if new is not Status.ACTIVE:
                self.state.status[target] = new
                if new is Status.DEAD:
                    deaths.append(target)
        because_death = (R_DEATH, R_TIE_DAMAGE) if simultaneous else (R_DEATH, R_IMMEDIATE)
        group = None
        if simultaneous and deaths:
            self.group += 1
            group = self.group
        for target in deaths:
            self._step(t, target, StepEvent.DIES, because_death, group=group,
                       hp=self.state.hp[target])
        spoiled = [c for c in dict.fromkeys(damaged) if c in self.state.casting]
        group = None
        if simultaneous and len(spoiled) > 1:
            self.group += 1
            group = self.group
        for caster in spoiled:
            begun = self.state.casting.pop(caster)
            self.state.ledger[begun.decl.path] = "disrupted"
            self._step(t, caster, StepEvent.SPELL_DISRUPTED, (R_SPELL_SPOILED,), action=begun,
                       target=begun.decl.target, group=group, reason="damaged while casting")

    # -- actions --

    def _effect_slot(self, begun: _Action) -> tuple[int, int]:
        spell = begun.spell
        assert spell is not None
        ct = spell.casting_time
        in_surprise = self.options.one_segment_spell_completes_in_surprise
        if begun.surprise_spell and ct <= 1 and in_surprise:
            return begun.t, 3
        if self.options.spell_goes_off is SpellGoesOff.LAST_CASTING_SEGMENT:
            return begun.t + max(ct, 1) - 1, 3
        if ct <= 0:
            return begun.t, 3
        return begun.t + ct, 0

    def _perform(self, a: _Action, group: int | None, damaged: list[str],
                 fleeing: list[str]) -> None:
        """Emits the steps of one action and applies its damage."""
        actor = a.actor.id
        target = a.decl.target
        if a.effect_of is not None:
            begun = a.effect_of
            self.state.casting.pop(actor, None)
            self.state.ledger[a.decl.path] = "resolved"
            damage = sum(h.damage for h in a.hits if h.hit)
            extra: dict[str, Any] = {}
            if a.decl.effect is not None:
                extra["effect"] = {"name": a.decl.effect.name,
                                   "duration": a.decl.effect.duration,
                                   "target": a.decl.effect.target}
            if damage and target is not None and self.state.status[target] is Status.ACTIVE:
                extra["damage"] = damage
                extra["hp"] = self._wound(target, damage)
                damaged.append(target)
            because = a.because
            heal = a.decl.outcome.heal
            if heal and target is not None and self.state.status[target] is not Status.DEAD:
                before = self.state.hp.get(target)
                after = healed(before, self.by_id[target].max_hp, heal)
                if before is not None and after is not None:
                    self.state.hp[target] = after
                    extra.update(healed=after - before, hp=after)
                    because = (R_HEALS, *because)
            self._step(a.t, actor, StepEvent.SPELL_TAKES_EFFECT, because, action=begun,
                       target=target, group=group, **extra)
            return
        self.state.ledger.setdefault(a.decl.path, "resolved")
        if a.kind is Kind.SPELL:
            assert a.spell is not None
            self.state.casting[actor] = a
            self._step(a.t, actor, StepEvent.BEGINS_CASTING, a.because, action=a,
                       target=target, group=group, casting_time=a.spell.casting_time)
            t_eff, sub = self._effect_slot(a)
            effect_because = (R_SPELL_EFFECT, R_SPELL_START)
            if sub == 3 and a.surprise_spell:
                effect_because = (R_ONE_SEGMENT, R_SPELL_EFFECT)
            heapq.heappush(self.heap, _Action(
                t_eff, sub, a.order, a.decl, a.kind, a.actor, hits=a.hits,
                because=effect_because, spell=a.spell, effect_of=a, routine=a.routine))
            return
        if a.kind is Kind.SET and a.decl.path in self.used_sets:
            return  # the set weapon already struck the charge it was set against
        offer: dict[str, Any] = {"may_interrupt": list(a.may_interrupt)} if a.may_interrupt else {}
        if a.kind in SIMPLE_EVENTS:
            self._step(a.t, actor, SIMPLE_EVENTS[a.kind], a.because, action=a, target=target,
                       group=group, **(offer if a.kind is Kind.FLEE else {}))
            if a.kind is Kind.FLEE:
                fleeing.append(actor)
            return
        if a.kind is Kind.CHARGE and not a.arrival:
            self._step(a.t, actor, StepEvent.CHARGES, a.because, action=a, target=target,
                       group=group, **offer)
            if a.approach:
                return  # the blows come in the segment the charger reaches
        if not a.hits:
            if a.kind is not Kind.CHARGE or a.arrival:
                self._step(a.t, actor, StepEvent.ATTACKS, a.because, action=a, target=target,
                           group=group)
            return
        several = len(a.decl.outcome.hits) > 1 and a.kind in (Kind.MELEE, Kind.MISSILE)
        split = several and len(a.decl.targets) > 1
        listed = a.decl.targets or ((a.decl.target,) if a.decl.target else ())
        # A second routine's hits follow the first's in the list, and so do its targets.
        offset = len(a.decl.outcome.hits) - len(a.hits) if a.routine == 2 else 0
        for i, h in enumerate(a.hits):
            because = a.because
            aimed: dict[str, Any] = {}
            if several and listed:
                aimed = {"attack": offset + i + 1}  # which of the routine's attacks
                target, fallen = volley_target(listed, offset + i, self._standing)
                if target is None:
                    # Every listed target left has fallen: no blow at a corpse. The step
                    # says so and the DM may name a new target (the attack is not made
                    # until then: side-d6.routine.split-targets).
                    self._step(a.t, actor, StepEvent.ATTACKS, (R_SPLIT, *a.because),
                               action=a, target=None, group=group,
                               fallen_target=fallen or listed[-1], **aimed)
                    return
                if split or fallen is not None:
                    because = (R_SPLIT, *a.because)
                if fallen is not None:
                    aimed["instead_of"] = fallen
            if h.hit:
                hp = self.state.hp.get(target) if target else None
                if target is not None and h.damage > 0:
                    hp = self._wound(target, h.damage)
                    damaged.append(target)
                self._step(a.t, actor, StepEvent.HITS, because, action=a, target=target,
                           group=group, damage=h.damage, hp=hp, **aimed)
            else:
                self._step(a.t, actor, StepEvent.MISSES, because, action=a, target=target,
                           group=group, **aimed)

    def _usable(self, a: _Action) -> bool:
        """Tells whether an action can still happen; records why not in the ledger."""
        actor = a.actor.id
        if self._cannot_act(a):
            return False
        if a.effect_of is not None:
            return self.state.casting.get(actor) is a.effect_of
        if a.routine > 1 and self.state.ledger.get(a.decl.path) != "resolved":
            return False  # the first routine never happened
        if self.state.status[actor] is not Status.ACTIVE:
            self.state.ledger.setdefault(a.decl.path, "cancelled")
            return False
        if actor in self.state.casting and a.routine == 1:
            self.state.ledger[a.decl.path] = "cancelled"  # busy-while-casting
            return False
        target = a.decl.target
        if (a.kind in ATTACK_KINDS and target is not None
                and self.state.status[target] is not Status.ACTIVE):
            self.state.ledger.setdefault(a.decl.path, "cancelled")
            return False
        return True

    # -- conditions (core.rules.care) --

    def _cannot_act(self, a: _Action) -> bool:
        """Drops an action whose actor a condition keeps from acting (one step per entry)."""
        actor = a.actor.id
        why = self.conditions.blocking(actor)
        if why is None or self.state.status[actor] is not Status.ACTIVE:
            return False
        if self.state.casting.get(actor) is a.effect_of and a.effect_of is not None:
            self.state.casting.pop(actor, None)  # the spell being cast is lost with it
        self.state.ledger.setdefault(a.decl.path, "cancelled")
        if a.decl.path not in self.blocked:
            self.blocked.add(a.decl.path)
            self._step(a.t, actor, StepEvent.CANNOT_ACT, (R_CANNOT_ACT,), action=a,
                       target=a.decl.target, condition=why)
        return True

    def _conditions(self, a: _Action, group: int | None) -> None:
        """Starts or ends the conditions an action names once it has taken effect."""
        path = a.decl.path
        if a.routine != 1 or path in self.cared or (a.kind is Kind.SPELL
                                                    and a.effect_of is None):
            return
        self.cared.add(path)
        care = self.care.get(path)
        if not care or self.state.ledger.get(path) != "resolved":
            return
        actor = a.actor.id
        number = self.clock.at(a.t)[0] or 1
        for change in care.conditions:
            if change.ends:
                if self.conditions.end(change.target, change.name):
                    self._step(a.t, change.target, StepEvent.CONDITION_ENDS, (R_CONDITION,),
                               group=group, condition=change.name, by=actor)
                continue
            until = None if change.rounds is None else number + change.rounds
            self.conditions.start(change.target, change.name, until)
            extra: dict[str, Any] = {"condition": change.name, "by": actor}
            if change.rounds is not None:
                extra["rounds"] = change.rounds
            self._step(a.t, change.target, StepEvent.CONDITION_STARTS, (R_CONDITION,),
                       group=group, **extra)

    def _round_end(self, number: int) -> int:
        """Gets the continuous time of the last segment of round ``number`` (1-based)."""
        if number < self.clock.first_normal_round:
            return max(self.clock.surprise_segments, 1)
        return self.clock.time(number - self.clock.first_normal_round, SEGMENTS_PER_ROUND)

    def _expire(self, before: int) -> None:
        """Ends the conditions whose time ran out at the end of a round before ``before``."""
        for number in range(max(self.round_no, 1), before):
            ended = self.conditions.due(number)
            if ended:
                self.group += 1
            for cid, name in ended:
                self._step(self._round_end(number), cid, StepEvent.CONDITION_ENDS,
                           (R_CONDITION,), group=self.group, condition=name)
        self.round_no = max(self.round_no, before)

    def run(self, actions: Sequence[_Action]) -> None:
        """Plays every action bucket by bucket (same segment, same place in it)."""
        self.heap = list(actions)
        heapq.heapify(self.heap)
        while self.heap:
            first = heapq.heappop(self.heap)
            bucket = [first]
            while self.heap and self.heap[0].t == first.t and self.heap[0].sub == first.sub:
                bucket.append(heapq.heappop(self.heap))
            if self.conditions.on:
                self._expire(self.clock.at(first.t)[0] or 1)
            self._bucket(bucket)
        if self.conditions.on:
            self._expire(self.last_round + 1)

    def _interrupt(self, a: _Action) -> None:
        """Resolves the blows that interrupt a flight or a charge, before it goes on.

        "Combat" (order of events): some actions let the other side interrupt, such as a
        fleeing attack or spears set against a charge. The DM records each interrupt's outcome;
        it lands at once, so a charger slain by a set spear never strikes.
        """
        victim = a.actor.id
        for it in a.interrupts:
            if self.state.status[victim] is not Status.ACTIVE:
                return
            if (self.state.status[it.actor] is not Status.ACTIVE
                    or self.conditions.blocking(it.actor) is not None):
                continue
            is_set = it.kind == SET_AGAINST_CHARGE
            if it.set_path is not None:
                self.used_sets.add(it.set_path)
                self.state.ledger[it.set_path] = "resolved"
            because: tuple[str, ...] = (R_SET_VS_CHARGE if is_set else R_FLEEING_ATTACK,
                                        R_IMMEDIATE)
            info: dict[str, Any] = {"declaration": it.path, "interrupt": it.kind,
                                    "interrupts": a.decl.path}
            if not it.hits:
                self._step(a.t, it.actor, StepEvent.ATTACKS, because, target=victim, **info)
                continue
            damaged: list[str] = []
            for h in it.hits:
                if not h.hit:
                    self._step(a.t, it.actor, StepEvent.MISSES, because, target=victim, **info)
                    continue
                damage, extra = h.damage, dict(info)
                if is_set and self.options.set_weapon_double_damage and damage > 0:
                    damage *= 2
                    extra.update(doubled=True, damage_rolled=h.damage)
                hp = self._wound(victim, damage) if damage > 0 else self.state.hp.get(victim)
                if damage > 0:
                    damaged.append(victim)
                rules = (*because, R_SET_DOUBLE) if "doubled" in extra else because
                self._step(a.t, it.actor, StepEvent.HITS, rules, target=victim, damage=damage,
                           hp=hp, **extra)
            self._consequences(a.t, damaged, simultaneous=False)

    def _bucket(self, bucket: list[_Action]) -> None:
        live = [a for a in bucket if self._usable(a)]
        if not live:
            return
        t = live[0].t
        simultaneous = len({a.actor.side for a in live}) > 1
        if simultaneous:
            # "3. Determine Initiative": tied sides act at once; every blow lands. Sides that
            # share a segment for another reason act at once too (not "tied dice").
            rnd_no, seg, in_surprise = self.clock.at(t)
            why_together = R_TIE if not in_surprise and self.tied.get(
                rnd_no or 0) == seg else R_SHARED
            self.group += 1
            group = self.group
            damaged: list[str] = []
            fleeing: list[str] = []
            for a in live:
                if a.interrupts:
                    self._interrupt(a)
                    if not self._usable(a):
                        continue
                a.because = (why_together, *a.because) if a.effect_of is None else a.because
                self._perform(a, group, damaged, fleeing)
                self._conditions(a, group)
            self._consequences(t, damaged, simultaneous=True)
            self._flee(fleeing)
            return
        for n, a in enumerate(live):
            if n and not self._usable(a):
                continue  # "3. Determine Initiative": the slain do not act later on
            if a.interrupts:
                self._interrupt(a)
                if not self._usable(a):
                    continue
            damaged = []
            fleeing = []
            self._perform(a, None, damaged, fleeing)
            self._conditions(a, None)
            self._consequences(t, damaged, simultaneous=False)
            self._flee(fleeing)

    def _flee(self, fleeing: Sequence[str]) -> None:
        for cid in fleeing:
            if self.state.status[cid] is Status.ACTIVE:
                self.state.status[cid] = Status.FLED


# --- the system -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LedgerResolution:
    """A resolution plus what happened to each declaration (for tests and the app)."""

    resolution: Resolution
    ledger: Mapping[str, str]


def resolve_with_ledger(scenario: Scenario, dice: RollSource) -> LedgerResolution:
    """Resolves a scenario and reports each declaration as resolved, disrupted or cancelled."""
    options = parse_options(Options, scenario.options)
    rolls: list[Roll] = []
    surprise = _surprise(scenario, options, dice, rolls)
    planner = _Planner(scenario, options, dice, rolls, surprise)
    planner.plan()
    engine = _Engine(scenario, options, planner.clock)
    engine.tied = planner.tied
    engine.state.ledger.update(planner.cancelled)
    engine.surprised(surprise, scenario)
    engine.run(planner.actions)
    for rnd in scenario.rounds:
        for decl in rnd.declarations:
            engine.state.ledger.setdefault(decl.path, "cancelled")
    resolution = Resolution(
        system=SideD6System.id,
        steps=tuple(engine.steps),
        combatants={
            c.id: CombatantResult(hp=engine.state.hp[c.id], status=engine.state.status[c.id])
            for c in scenario.combatants
        },
        rolls=tuple(rolls),
    )
    return LedgerResolution(resolution, dict(engine.state.ledger))


class _UnrolledSurprise:
    """Stands in for a surprise die not rolled yet: it surprises no one (a 6)."""

    def roll(self, expression: str, purpose: str = "") -> Roll:
        return Roll(expression, 6, purpose=purpose)


@dataclass(frozen=True, slots=True)
class InterruptOffer:
    """An interrupt the DM may offer: who may strike a fleeing or charging combatant."""

    declaration: str
    """Path of the flight or charge (``rounds[1].declarations[0]``)."""
    mover: str
    kind: str
    """``fleeing attack`` or ``set against a charge``."""
    by: tuple[str, ...]
    choices: tuple[str, ...] = ("hits, with its damage", "misses", "is let pass")

    def words(self, names: Mapping[str, str]) -> str:
        """Describes the offer with names, e.g. for the declaration form."""
        who = ", ".join(names.get(b, b) for b in self.by)
        mover = names.get(self.mover, self.mover)
        what = ("may strike as it flees" if self.kind == FLEEING_ATTACK
                else "may strike with a weapon set against its charge")
        return (f"{mover}: {who} {what} (the interrupt "
                f"{', '.join(self.choices[:-1])} or {self.choices[-1]}).")


def interrupt_offers(scenario: Scenario, round_index: int) -> list[InterruptOffer]:
    """Lists the interrupts a round's flights and charges allow ("Combat", order of events).

    A flight may be struck by the opponents engaged with the fleer (those it attacks or who
    attack it this round); a charge by opponents who set a weapon against it. The DM records
    the chosen outcome in the declaration's ``interrupts``.
    """
    rnd = scenario.rounds[round_index]
    by_id = {c.id: c for c in scenario.combatants}
    facts = _round_facts(rnd)
    surprise: SurpriseResult | None = None
    options = parse_options(Options, scenario.options)
    if rnd.surprise:
        surprise = _surprise(scenario, options, _UnrolledSurprise(), [])
    out: list[InterruptOffer] = []
    for decl in rnd.declarations:
        kind = action_kind(decl)
        if kind not in (Kind.FLEE, Kind.CHARGE):
            continue
        who = _interrupt_candidates(kind, by_id[decl.actor], facts, by_id)
        if surprise is not None:
            # side-d6.surprise.no-interrupt-while-surprised: the surprised are offered nothing.
            seg = _raw_int(decl.raw, "segment", decl.path) or 1
            who = tuple(w for w in who if _can_act_in_surprise(by_id[w], seg, surprise, options))
        if who:
            out.append(InterruptOffer(decl.path, decl.actor,
                                      FLEEING_ATTACK if kind is Kind.FLEE
                                      else SET_AGAINST_CHARGE, who))
    return out


def _alerted_in(document: Mapping[str, Any]) -> frozenset[str]:
    """Gets the sides a scenario document marks as alerted (they roll no surprise)."""
    raw = document.get("alerted")
    if isinstance(raw, Mapping):
        return frozenset(str(k) for k, v in raw.items() if v)
    if isinstance(raw, list):
        return frozenset(str(v) for v in raw)
    return frozenset()


class SideD6System:
    """Side initiative on d6 with ten-segment rounds."""

    id: ClassVar[str] = "side-d6"
    title: ClassVar[str] = "Side initiative on d6, segment rounds"
    options_type: ClassVar[type[Any]] = Options
    rules: ClassVar[Mapping[str, Rule]] = RULES

    def phases(self) -> Sequence[Phase]:
        """Gets the procedure the stepper walks through."""
        return PHASES

    def rolls_needed(self, document: Mapping[str, Any]) -> list[RollRequest]:
        """Lists the surprise d6s (once a surprise check is asked for) and this round's d6s."""
        needed = []
        if isinstance(document.get("surprise"), Mapping):
            needed += missing_side_dice(document, ("surprise",), document["surprise"],
                                        "surprise", skip=_alerted_in(document))
        rounds = document.get("rounds") or []
        if rounds and isinstance(rounds[-1], Mapping) and not rounds[-1].get("surprise"):
            needed += missing_side_dice(document, ("rounds", -1, "initiative"),
                                        rounds[-1].get("initiative"), "initiative")
        return needed

    def resolve(self, scenario: Scenario, dice: RollSource) -> Resolution:
        """Resolves a scenario into ordered steps and end states."""
        return resolve_with_ledger(scenario, dice).resolution


SYSTEM = SideD6System()
