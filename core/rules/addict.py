"""The ADDICT ("quantum") side-initiative combat procedure for AD&D 1e.

Source: ``shared/rules/addict-procedure.md`` and its March 2024 revision
``addict-procedure-2024-03-revision.md`` (one system; the revision wins where they differ).

How a round is timed here (see ``docs/systems/addict.md``): the source does not give ordinary
actions a segment of their own ("quantum" initiative). An action happens in the segment it
starts in (segment 1, or later after a declaration delay); within a segment the sides act in
initiative order (higher d6 first, tied sides together) and each side's actions in action-list
order P, A–H. Only things that take time move to later segments: a spell completes in segment
``start + casting_time - 1``, a device or custom action likewise. Attacks aimed at a caster are
then placed before, with or after the spell's completion by the out-of-sequence and tie rules
(speed factor or the caster's initiative die against the casting time).

Internally every resolvable item has a sort key ``(round, segment, tier, letter, minor, sub,
*children)``: items with equal keys resolve simultaneously (one ``group``); ``tier`` is minus
the acting side's d6 so the higher die goes first and tied sides share a tier.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any, ClassVar

from core.model.scenario import Declaration, RoundSpec, Scenario, ScenarioError, declared_weapon
from core.model.values import (
    Combatant,
    CombatantResult,
    Hit,
    Kind,
    Resolution,
    Roll,
    Spell,
    Status,
    Step,
    StepEvent,
    Weapon,
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

SRC = "addict-procedure.md"
REV = "addict-procedure-2024-03-revision.md"

LETTERS = "PABCDEFGH"
"""The DMG p.61 action letters in resolution order (source: Action list)."""

_RANK = {letter: i + 1 for i, letter in enumerate(LETTERS)}
_MORALE_RANK = 0
_P_TIER = -100
_SETUP_TIER = -200
_END_SEGMENT = 11
"""Internal segment of Phase 9 (after segment 10); reported as segment 10."""


# --- options ---------------------------------------------------------------------------------


class NoSpeedFactorInTies(StrEnum):
    """Where attacks without a speed factor go on a tied round (source footnote 16)."""

    WITH_FASTEST = "with-fastest"
    """Simultaneous with the fastest speed-factor attacks of the tie, so they always land."""
    FIRST = "first"
    """In a group of their own before every speed-factor attack."""
    LAST = "last"
    """After every speed-factor attack (they may then be lost if the attacker is slain)."""
    WITH_OPPONENT = "with-opponent"
    """Simultaneous with the blow of the creature it attacks (its own speed factor), else with
    the fastest."""


class MissilesVsCharge(StrEnum):
    """When missiles aimed at a charger are loosed."""

    FIRST = "first"
    """E vs D: always before the charge, with every shot recorded (full rate of fire)."""
    INITIATIVE = "initiative"
    """By initiative like any D, and only one volley (the first shot recorded)."""


class MarSlotBefore(StrEnum):
    """Whose first attack a multiple-attack-routine creature slots in front of."""

    TARGET = "target"
    """The first melee attack of the creature it attacks."""
    SIDE = "side"
    """The first melee attack of the target's whole side."""


class Untargetable(StrEnum):
    """What happens to a surprise-segment attack on a combatant who may not be targeted."""

    REFUSE = "refuse"
    CANCEL = "cancel"


@dataclass(frozen=True, slots=True)
class Options:
    """House-rule options of the ADDICT procedure; every default follows the source."""

    MEANINGS: ClassVar[dict[str, str]] = {
        "mar_slot_before": (
            "A creature with two attack routines slots its first one in front of the first attack "
            "of the creature it attacks (the source), or as a house rule of that creature's whole "
            "side."
        ),
        "avoid_means_fled": (
            "A combatant that avoids the fight (action A) leaves it and counts as fled."
        ),
        "morale_dice": (
            "The dice rolled for a morale check when no roll is given; the check passes on a "
            "total at or under the morale score."
        ),
    }
    """What options with no rule of their own decide, in words (the printed appendix)."""

    seconds_per_segment: int = 6
    """Phase 6: each full 6 s of real delay in declaring delays the action 1 segment."""
    surprised_on: int = 2
    """Phase 2: a side is surprised on a d6 of 1..N (the linked DMG rule: 1–2)."""
    fixed_surprise_segments: int = 0
    """Phase 5: surprise segments; 0 = the surprised side's die (DMG: 1 or 2)."""
    same_letter_simultaneous: bool = True
    """Phase 8: one side's actions of the same letter resolve together."""
    no_speed_factor_in_ties: NoSpeedFactorInTies = NoSpeedFactorInTies.WITH_FASTEST
    multiple_routines_slot_in: bool = True
    mar_slot_before: MarSlotBefore = MarSlotBefore.TARGET
    missile_reaction_adjustment: bool = True
    spell_lost_on_any_damage: bool = True
    """Phase 8: damage any time in the round loses the spell, even before casting began."""
    untargetable_in_surprise: Untargetable = Untargetable.REFUSE
    avoid_means_fled: bool = True
    """An avoiding (A) combatant leaves the fight (status ``fled``)."""
    attacks_on_fallen_resolve: bool = False
    """Attacks on a target already dead or fled still resolve (default: they are dropped)."""
    default_charge_segments: int = 1
    """E vs D: segments a charge needs to reach its target when the scenario does not say."""
    unconscious_at: int = 0
    death_at: int = -10
    monsters_die_at_zero: bool = False
    """Phase 9 bleeds "any combatants"; many tables kill monsters at 0 hp while characters
    bleed to -10. True: a monster (kind ``monster``) dies at 0 hp or below."""
    bleed_from_zero: bool = False
    """Phase 9 says *negative* hp at the start of the round bleeds; True bleeds at 0 too."""
    healed_stops_bleeding: bool = False
    """Phase 9 word for word: whoever had negative hp at the start of the round loses 1 hp,
    even if healed above 0 during it. True: healing above 0 stops that round's loss too."""
    roll_missing_reaction: bool = False
    """Phase 1: a scenario without ``reaction`` is read as "the DM's notes decided"."""
    morale_dice: str = "2d6"
    """Dice rolled for a morale check the scenario names without a roll (pass: roll ≤ morale)."""
    losing_caster_compares: bool = False
    """Out-of-sequence cases: True also times a LOSING caster's spell against the winners'
    attacks (the MAR bullet's "depends solely on the G vs D rule" read as covering every
    caster); the default follows G vs D's "even if the spellcaster won initiative" and Phase 8:
    the winners strike first and any damage loses the spell."""
    g_vs_d_losing_die: bool = False
    """DMG p.67: a losing attacker's speed factor is lowered by its side's die before it is
    compared with the casting time (the sources compare the speed factor as it stands)."""
    tie_extra_blow_gap: int = 0
    """DMG p.66: on a tie, a weapon this much faster than its opponent's strikes a second
    time with the opponent's blow (twice the gap: before it); 0 = off, as in the sources."""
    missiles_vs_charge: MissilesVsCharge = MissilesVsCharge.FIRST
    initiative_overrides: bool = False
    """Accept a declaration's ``initiative``: ``wins`` / ``loses`` (weapon of speed, slowed)."""
    mutual_charges_by_length: bool = False
    """Two combatants charging each other meet in one exchange by weapon length (the sources
    resolve each charge in its side's turn)."""
    feet_per_inch: int = 10
    """Scale of a movement rate in inches (″) when a charge or close gives a ``distance``."""
    outdoors: bool = False
    """Footnote 9: a charge adds 100% to the movement indoors, a third outdoors."""


# --- rule catalogue ----------------------------------------------------------------------------

RULES = rule_table(
    Rule("addict.reaction.dm-notes", REV, "Phase 1: Reaction check",
         "When the DM's notes say how the other party reacts, no reaction roll is made.",
         "roll_missing_reaction"),
    Rule("addict.reaction.roll", REV, "Phase 1: Reaction check",
         "Otherwise the DM rolls 2d6 reaction for the opposing party."),
    Rule("addict.surprise.check", REV, "Phase 2: Surprise check",
         "Each side that might be surprised rolls a d6; 1..N (default 2) means surprised.",
         "surprised_on"),
    Rule("addict.surprise.segments", REV, "Phase 5: Surprise resolution",
         "The surprised side loses as many segments as its die shows.",
         "fixed_surprise_segments"),
    Rule("addict.distance.check", REV, "Phase 3: Distance check",
         "Encounter distance is recorded when rolled or given; obvious distances need no roll."),
    Rule("addict.morale.opening", REV, "Phase 4: Opening morale check",
         "A morale check before the first round; failing combatants avoid (flee)."),
    Rule("addict.surprise.resolution", REV, "Phase 5: Surprise resolution",
         "The surprising side declares and resolves one surprise segment at a time."),
    Rule("addict.surprise.avoid", REV, "Special notes",
         "A surprising combatant may avoid (A) even in melee."),
    Rule("addict.surprise.full-routine", REV, "Special notes",
         "D, F, G, H in a surprise segment: a whole attack routine fits in that one segment."),
    Rule("addict.surprise.not-targetable", REV, "Special notes",
         "A surprised combatant whose reaction bonus is at least the surprise segment number "
         "cannot be targeted in that segment.", "untargetable_in_surprise"),
    Rule("addict.surprise.spell-carries-over", REV, "Special notes",
         "A spell begun in surprise that needs more segments than remain completes in the "
         "next round."),
    Rule("addict.surprise.move-tenth", REV, "Special notes",
         "E in a surprise segment moves 1/10 of the movement rate."),
    Rule("addict.surprise.custom-carries-over", REV, "Special notes",
         "A custom action (switch weapons, ready an item) that needs more segments than remain "
         "completes after surprise."),
    Rule("addict.declare.action-letters", REV, "Action list",
         "Each declaration is one of the DMG letters P, A–H."),
    Rule("addict.declare.spell-target", REV, "Phase 6: Action declarations",
         "Only a spell (D) must name a precise target or area of effect."),
    Rule("addict.declare.delay", REV, "Phase 6: Action declarations",
         "Every full 6 seconds of a player's real delay in declaring delays the action one "
         "segment; the DM notes the other combatants' declarations privately (hirelings too), "
         "untimed.",
         "seconds_per_segment"),
    Rule("addict.declare.prepare", REV, "Preparing actions",
         "A prepared action becomes ready when it would resolve and triggers when its "
         "trigger happens later in the round."),
    Rule("addict.prepare.spell-start-only", REV, "Preparing actions",
         "A prepared spell starts casting on its trigger; its casting time still runs."),
    Rule("addict.initiative.side-d6", REV, "Phase 7: Initiative check",
         "Each side rolls a d6; the higher die wins initiative."),
    Rule("addict.initiative.tie", REV, "Phase 7: Initiative check",
         "Equal dice: no side wins and the tie rules apply."),
    Rule("addict.resolve.psionics", REV, "Phase 8: Action resolution",
         "Psionic combat (P) resolves at the top of every segment."),
    Rule("addict.resolve.winner-first", REV, "Phase 8: Action resolution",
         "The winning side resolves all its actions before the losing side."),
    Rule("addict.resolve.letter-order", REV, "Phase 8: Action resolution",
         "A side's actions resolve in action-list order P, A, B, C, D, E, F, G, H."),
    Rule("addict.resolve.same-letter-together", REV, "Phase 8: Action resolution",
         "A side's actions of one letter resolve together.", "same_letter_simultaneous"),
    Rule("addict.resolve.simultaneous", REV, "Simultaneous resolution",
         "Actions at the same moment all fully resolve, even if an actor falls."),
    Rule("addict.resolve.incapacitated", REV, "Phase 8: Action resolution",
         "A dead, unconscious or fled combatant's remaining actions are dropped.",
         "attacks_on_fallen_resolve"),
    Rule("addict.resolve.delayed-segment", REV, "Phase 6: Action declarations",
         "A delayed action happens in its later segment."),
    Rule("addict.spell.casting-time", REV, "Important notes",
         "A spell completes as many segments after it starts as its casting time "
         "(the start segment included)."),
    Rule("addict.spell.lost-on-damage", REV, "Preparing actions",
         "Any damage to a caster during the round before the spell completes loses it, even "
         "before casting started; damage in the completing moment does not.",
         "spell_lost_on_any_damage"),
    Rule("addict.oos.morale-avoid", REV, "Out-of-sequence cases",
         "At a side's turn a triggered morale check is rolled; failures avoid instead."),
    Rule("addict.morale.after-trigger", REV, "Out-of-sequence cases",
         "A check set off by an outcome of the round is rolled after that outcome, never before "
         "the side's turn: what was resolved before it stands; failures avoid from then on."),
    Rule("addict.oos.multiple-routines", REV, "Out-of-sequence cases",
         "A creature with multiple attack routines slots its first routine in just before "
         "the enemy's first attack.", "multiple_routines_slot_in"),
    Rule("addict.oos.missile-reaction", REV, "Out-of-sequence cases",
         "Missile fire moves by the reaction adjustment: die + adj ≥ enemy die shoots first "
         "(equal: with the enemy); a negative adj can make a winner shoot last.",
         "missile_reaction_adjustment"),
    Rule("addict.oos.d-vs-d", REV, "Out-of-sequence cases",
         "Casters targeting each other: lower casting time first; equal: higher die first; "
         "equal dice: together."),
    Rule("addict.oos.e-vs-d", REV, "Out-of-sequence cases",
         "Missiles and turning aimed at a charger resolve before the charge."),
    Rule("addict.oos.g-vs-d", REV, "Out-of-sequence cases",
         "An attack on a caster: casting time below the weapon's speed factor (or, without "
         "one, the caster's side die) completes the spell first; equal: together; else the "
         "attack first."),
    Rule("addict.oos.losing-caster", REV, "Out-of-sequence cases",
         "A caster whose side lost initiative is not timed against the winners' attacks: "
         "they strike in their turn first, and damage before completion loses the spell.",
         "losing_caster_compares"),
    Rule("addict.spell.carried-on-time", REV, "Important notes",
         "A spell begun in an earlier round completes in its segment whatever this round's "
         "initiative: a blow in that same segment lands with it (both resolve), and the "
         "losing-caster reading does not apply."),
    Rule("addict.oos.charge-retaliation", REV, "Out-of-sequence cases",
         "Set weapons and retaliations against a charger strike in weapon-length order, "
         "longer first, equal lengths together."),
    Rule("addict.oos.retaliation-waits", REV, "Out-of-sequence cases",
         "A retaliation against a charger is made when the charge is resolved, even if the "
         "defender's side won initiative: the routine waits for the charge."),
    Rule("addict.oos.charge-contact", REV, "E vs D (footnote 19)",
         "A charger covers a tenth of its charge move a segment: the exchange of blows happens "
         "in the segment of contact, not the segment the charge began."),
    Rule("addict.oos.missile-during-charge", REV, "E vs D (footnote 14)",
         "A missile aimed at a charger may be loosed in any segment of the charge up to "
         "contact (the segment it is loosed in); it still resolves before the exchange of blows."),
    Rule("addict.move.distance", REV, "E vs D (footnote 19)",
         "Given a distance and a movement rate, a charge (or a close) covers a tenth of its "
         "move a segment (a charge adds 100% indoors, a third outdoors, footnote 9) and "
         "reaches when within its weapon's length; out of reach by segment 10, it strikes "
         "no blow this round.", "feet_per_inch"),
    Rule("addict.move.outdoors", REV, "Special notes (footnote 9)",
         "Charging doubles the movement rate indoors; outdoors it adds a third.", "outdoors"),
    Rule("addict.device.not-spoiled", REV, "G vs D (footnote 20)",
         "A hit does not spoil a device: it is used as long as its wielder still stands."),
    Rule("addict.device.retrieval", REV, "E vs D",
         "A device takes its retrieval time plus its use time, in segments; the total is "
         "what charges and attacks are timed against."),
    Rule("addict.tie.device", REV, "G vs D",
         "On a tie, attacks and missiles at a device user are timed against the device's "
         "time as against a casting time."),
    Rule("addict.option.g-vs-d-losing-die", REV, "G vs D",
         "The attacker's speed factor is compared with the casting time as it stands; as an "
         "option (DMG p.67) a losing attacker's side die is subtracted from it first.",
         "g_vs_d_losing_die"),
    Rule("addict.option.tie-extra-blows", REV, "Speed factor",
         "On a tie each weapon strikes once at its speed factor; as an option (DMG p.66) a "
         "weapon faster by the gap strikes again with its opponent's blow, by twice the gap "
         "before it.", "tie_extra_blow_gap"),
    Rule("addict.option.missiles-vs-charge", REV, "E vs D",
         "Missiles at a charger go first with every shot recorded; as an option they keep "
         "their initiative place and loose one volley.", "missiles_vs_charge"),
    Rule("addict.option.initiative-override", REV, "Phase 7: Initiative check",
         "Every action takes its side's die; as an option a declaration may win or lose "
         "initiative on its own (a weapon of speed, a slowed caster).", "initiative_overrides"),
    Rule("addict.option.mutual-charges", REV, "Out-of-sequence cases (footnote 17)",
         "Each charge is resolved in its side's turn; as an option two combatants charging "
         "each other meet in one exchange by weapon length.", "mutual_charges_by_length"),
    Rule("addict.missile.rate-of-fire", REV, "E vs D",
         "A missile weapon looses its full rate of fire in its place in the round, every shot "
         "a step of its own with its own outcome, before and after any is recorded (an "
         "outcome recorded beyond them is one more shot)."),
    Rule("addict.missile.split-volley", REV, "Phase 6: Action declarations",
         "A volley may be split: one shot at each listed target in order, the rest at the "
         "last."),
    Rule("addict.missile.next-target", REV, "E vs D",
         "A shot whose target has fallen goes at the next listed target still standing; with "
         "none left it is not taken."),
    Rule("addict.area.targets", REV, "Phase 6: Action declarations",
         "An area spell or a device affects every listed target when it takes effect, each "
         "with its own outcome, in the order listed."),
    Rule("addict.tie.letter-order", REV, "Resolving ties",
         "On a tie both sides resolve each letter together, in action-list order."),
    Rule("addict.tie.speed-factor", REV, "Speed factor",
         "On a tie melee attacks resolve by speed factor, low to high."),
    Rule("addict.tie.no-speed-factor", REV, "Speed factor (footnote 16)",
         "On a tie attacks without speed factor always resolve.", "no_speed_factor_in_ties"),
    Rule("addict.tie.d-vs-d", REV, "D vs D",
         "On a tie, missiles at a caster compare the caster's side die with casting time."),
    Rule("addict.tie.missile-without-speed-factor", REV, "G vs D (footnote 21)",
         "A missile weapon is timed by its speed factor when it has one (footnote 21: speed "
         "factors include missile weapons); the PHB gives bows, slings, crossbows, darts and "
         "thrown weapons none (p.38 lists only their rate of fire), so a shot from one at a "
         "caster is timed by the caster's die, as a weapon without speed factor."),
    Rule("addict.tie.e-vs-d", REV, "E vs D",
         "A charge at a caster compares the charge time with the casting time.",
         "default_charge_segments"),
    Rule("addict.tie.g-vs-d", REV, "G vs D",
         "On a tie, melee at a caster compares speed factor with casting time."),
    Rule("addict.death.unconscious", REV, "Phase 9: Bleeding",
         "At 0 to -9 hp a combatant is unconscious.", "unconscious_at"),
    Rule("addict.death.dead", REV, "Phase 9: Bleeding",
         "At -10 hp a combatant dies.", "death_at"),
    Rule("addict.spell.heals", REV, "Phase 8: Action resolution",
         "A healing spell gives its target hit points back when it takes effect, up to the "
         "maximum; an unconscious target healed above 0 wakes and bleeds no more from the "
         "next round on."),
    Rule("addict.death.monsters-at-zero", REV, "Phase 9: Bleeding",
         "Bleeding is for any combatants, monsters too; as a house rule a monster may die at "
         "0 hp instead.", "monsters_die_at_zero"),
    Rule("addict.bleeding.lose-one", REV, "Phase 9: Bleeding",
         "Whoever had negative hp at the start of the round loses 1 hp at its end.",
         "bleed_from_zero"),
    Rule("addict.bleeding.healed-this-round", REV, "Phase 9: Bleeding",
         "Read word for word, a combatant who had negative hp at the start of the round loses "
         "its 1 hp at the end even if healed above 0 during the round; as an option healing "
         "above 0 stops that loss at once.", "healed_stops_bleeding"),
    Rule("addict.recap", REV, "Phase 10: Recap",
         "The DM sums up the round (the resolution list is that summary)."),
    *care_rules("addict", REV, "Phase 8: Action resolution"),
    Rule("addict.recovery", REV, "Phase 11: Reset or recovery",
         "Unresolved combat returns to declarations; a resolved one gives a turn of recovery."),
)

R_CONDITION, R_CANNOT_ACT = care_rule_ids("addict")

PHASES: tuple[Phase, ...] = (
    Phase("addict.phase-1", "Phase 1: Reaction check",
          ("addict.reaction.dm-notes", "addict.reaction.roll")),
    Phase("addict.phase-2", "Phase 2: Surprise check", ("addict.surprise.check",)),
    Phase("addict.phase-3", "Phase 3: Distance check", ("addict.distance.check",)),
    Phase("addict.phase-4", "Phase 4: Opening morale check", ("addict.morale.opening",)),
    Phase("addict.phase-5", "Phase 5: Surprise resolution",
          ("addict.surprise.resolution", "addict.surprise.segments", "addict.surprise.avoid",
           "addict.surprise.full-routine", "addict.surprise.not-targetable",
           "addict.surprise.spell-carries-over", "addict.surprise.move-tenth",
           "addict.surprise.custom-carries-over")),
    Phase("addict.phase-6", "Phase 6: Action declarations",
          ("addict.declare.action-letters", "addict.declare.spell-target",
           "addict.declare.delay", "addict.declare.prepare")),
    Phase("addict.phase-7", "Phase 7: Initiative check",
          ("addict.initiative.side-d6", "addict.initiative.tie")),
    Phase("addict.phase-8", "Phase 8: Action resolution",
          ("addict.resolve.psionics", "addict.resolve.winner-first",
           "addict.resolve.letter-order", "addict.resolve.same-letter-together",
           "addict.resolve.simultaneous", "addict.resolve.incapacitated",
           "addict.resolve.delayed-segment", "addict.spell.casting-time",
           "addict.spell.lost-on-damage", "addict.spell.carried-on-time",
           "addict.prepare.spell-start-only", "addict.spell.heals",
           "addict.care.condition", "addict.care.cannot-act",
           "addict.oos.morale-avoid", "addict.morale.after-trigger",
           "addict.oos.multiple-routines",
           "addict.oos.missile-reaction", "addict.oos.d-vs-d", "addict.oos.e-vs-d",
           "addict.oos.g-vs-d", "addict.oos.charge-retaliation", "addict.oos.retaliation-waits",
           "addict.oos.charge-contact", "addict.oos.missile-during-charge",
           "addict.move.distance", "addict.move.outdoors", "addict.device.not-spoiled",
           "addict.device.retrieval", "addict.tie.device", "addict.option.g-vs-d-losing-die",
           "addict.option.tie-extra-blows", "addict.option.missiles-vs-charge",
           "addict.option.initiative-override", "addict.option.mutual-charges",
           "addict.missile.rate-of-fire", "addict.missile.split-volley",
           "addict.missile.next-target", "addict.area.targets", "addict.tie.letter-order",
           "addict.tie.speed-factor", "addict.tie.no-speed-factor", "addict.tie.d-vs-d",
           "addict.tie.missile-without-speed-factor",
           "addict.tie.e-vs-d", "addict.tie.g-vs-d", "addict.death.unconscious",
           "addict.death.dead", "addict.death.monsters-at-zero")),
    Phase("addict.phase-9", "Phase 9: Bleeding",
          ("addict.bleeding.lose-one", "addict.bleeding.healed-this-round")),
    Phase("addict.phase-10", "Phase 10: Recap", ("addict.recap",)),
    Phase("addict.phase-11", "Phase 11: Reset or recovery", ("addict.recovery",)),
)


# --- scheduled items ---------------------------------------------------------------------------

Key = tuple[int, ...]


def _after(key: Key) -> Key:
    """Gets the key of the moment just after ``key`` (same segment, tier, letter)."""
    return (*key[:5], key[5] + 1)


def _later(key: Key, segments: int) -> Key:
    """Gets the key of an action taking ``segments`` segments from ``key`` (start included)."""
    return (key[0], key[1] + max(segments, 1) - 1, *key[2:])


def _before(key: Key) -> Key:
    """Gets the key of the moment just before ``key``."""
    return (*key[:5], key[5] - 1)


@dataclass(eq=False, slots=True)
class _Item:
    """One resolvable piece of a declaration (an attack, a spell's start or end, …)."""

    kind: str
    actor: str
    key: Key
    because: list[str]
    letter: str | None = None
    path: str = ""
    target: str | None = None
    hits: tuple[Hit, ...] = ()
    detail: dict[str, Any] = field(default_factory=dict)
    final: bool = True
    """Resolving this item settles its declaration (a spell's start does not)."""
    done: bool = False
    payload: list[_Item] = field(default_factory=list)
    """A prepared action's items, or a spell start's pending end."""
    trigger: str | None = None
    length: float = 0.0
    segments: int = 1
    """Segments the item needs (spells, devices, custom actions)."""
    round_index: int = 0
    """Round of the declaration (spell risk starts at that round's beginning)."""
    targets: tuple[str, ...] = ()
    """Every target the declaration lists (a split volley, an area's victims), in order."""


@dataclass(frozen=True, slots=True)
class LedgerResolution:
    """A resolution plus how each declaration (by path) ended: resolved/disrupted/cancelled."""

    resolution: Resolution
    ledger: Mapping[str, str]


# --- small readers -------------------------------------------------------------------------------


def _int_field(raw: Mapping[str, Any], key: str, path: str, low: int | None = None,
               high: int | None = None) -> int | None:
    """Gets an optional whole-number field, refusing values outside low..high."""
    value = raw.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(f"{path}.{key}", f"expected a whole number, got {value!r}")
    if low is not None and value < low:
        raise ScenarioError(f"{path}.{key}", f"must be at least {low}, got {value}")
    if high is not None and value > high:
        raise ScenarioError(f"{path}.{key}", f"must be at most {high}, got {value}")
    return value


def _d6(value: int, path: str) -> int:
    """Checks a d6 face."""
    if not 1 <= value <= 6:
        raise ScenarioError(path, f"a d6 shows 1–6, got {value}")
    return value


def _reaction_adj(c: Combatant) -> int:
    """Gets a combatant's reaction adjustment (given, or derived from Dex)."""
    if c.reaction_adj is not None:
        return c.reaction_adj
    return adnd_dex_reaction(c.dex) if c.dex is not None else 0


# --- the engine ------------------------------------------------------------------------------


class _Engine:
    """Resolves one scenario: builds each round's items, then pops them in key order."""

    def __init__(self, scenario: Scenario, dice: RollSource, opts: Options) -> None:
        self.sc = scenario
        self.dice = dice
        self.opts = opts
        self.by_id = {c.id: c for c in scenario.combatants}
        self.hp: dict[str, int | None] = {c.id: c.hp for c in scenario.combatants}
        self.status: dict[str, Status] = {c.id: c.status for c in scenario.combatants}
        self.steps: list[Step] = []
        self.rolls: list[Roll] = []
        self.ledger: dict[str, str] = {}
        self.heap: list[tuple[Key, int, _Item]] = []
        self.counter = itertools.count()
        self.group = 0
        self.surprise_round = bool(scenario.rounds and scenario.rounds[0].surprise)
        self.pending_spells: dict[str, list[_Item]] = {}
        self.waiting: dict[str, list[_Item]] = {}
        self.carry: list[tuple[_Item, int]] = []
        self.used: set[int] = set()
        self.round_dice: dict[int, dict[str, int]] = {}
        self.retaliators: dict[str, list[tuple[Declaration, _Item | None]]] = {}
        self.set_by_actor: dict[str, list[tuple[Declaration, _Item]]] = {}
        self.charges: dict[str, _Item] = {}
        """Each charger's charge this round: a retaliation against it waits for it."""
        self.retaliations: set[int] = set()
        self.own_die: dict[str, int] = {}
        """Declarations that win (7) or lose (0) initiative on their own (option)."""
        self.extra_blows: list[tuple[list[_Item], _Item]] = []
        """DMG p.66 extra blows (option), added to their declaration after the tie rules."""
        self.round_start_hp: dict[int, dict[str, int | None]] = {}
        self.open_group = False
        self.resolving: _Item | None = None
        """The item whose steps are being emitted (their ``source``)."""
        # Conditions (core.rules.care): read up front so a bad field is refused.
        self.conditions = Conditions()
        self.care = {d.path: read_care(d.raw, d.path, d.actor, d.target, self.by_id.keys())
                     for spec in scenario.rounds for d in spec.declarations}
        self.actor_of = {d.path: d.actor for spec in scenario.rounds for d in spec.declarations}
        self.blocked: set[str] = set()
        self.now: Key = (0, 0, 0, 0, 0, 0)
        for c in scenario.combatants:
            self.update_status(c.id, [])

    # ---- bookkeeping ----

    def push(self, item: _Item) -> None:
        """Schedules an item."""
        heapq.heappush(self.heap, (item.key, next(self.counter), item))

    def settle(self, path: str, outcome: str) -> None:
        """Records how a declaration ended (the first decisive outcome wins)."""
        if path:
            first = path not in self.ledger
            self.ledger.setdefault(path, outcome)
            if first and outcome == "resolved":
                self.apply_conditions(path)

    def roll(self, expression: str, purpose: str) -> Roll:
        """Rolls a missing die and records it."""
        r = self.dice.roll(expression, purpose=purpose)
        self.rolls.append(r)
        return r

    def given(self, expression: str, total: int, purpose: str) -> None:
        """Records a die the scenario gave."""
        self.rolls.append(Roll(expression, total, manual=True, purpose=purpose))

    def emit(self, key: Key, actor: str, event: StepEvent, because: Sequence[str],
             action: str | None = None, target: str | None = None,
             detail: Mapping[str, Any] | None = None, new_group: bool = False,
             surprise: bool | None = None) -> None:
        """Appends a step in the current group (or a fresh one)."""
        if new_group or self.open_group or not self.steps:
            self.group += 1
            self.open_group = False
        r_index, segment = key[0], key[1]
        if surprise is None:
            surprise = self.surprise_round and r_index == 0
        self.steps.append(Step(
            seq=len(self.steps) + 1, actor=actor, event=event, round=r_index + 1,
            segment=min(max(segment, 1), 10), surprise=surprise, action=action,
            target=target, group=self.group, because=tuple(because) or ("addict.recap",),
            detail=dict(detail or {}), source=self.source_of(actor),
        ))

    def source_of(self, actor: str) -> str | None:
        """Gets the declaration path behind a step of ``actor`` while its item resolves."""
        item = self.resolving
        if item is None or item.actor != actor:
            return None  # a consequence for another creature (a spell ruined, a death)
        return item.path or None

    def active(self, cid: str) -> bool:
        """Tells whether a combatant can still act."""
        return self.status[cid] is Status.ACTIVE

    # ---- damage and deaths ----

    def update_status(self, cid: str, fallen: list[str]) -> None:
        """Sets unconscious/dead from hp (Phase 9 thresholds)."""
        hp = self.hp[cid]
        if hp is None or self.status[cid] in (Status.DEAD, Status.FLED):
            return
        monster = self.by_id[cid].kind is Kind.MONSTER
        if hp <= self.opts.death_at or (monster and self.opts.monsters_die_at_zero and hp <= 0):
            self.status[cid] = Status.DEAD
            fallen.append(cid)
        elif hp <= self.opts.unconscious_at:
            self.status[cid] = Status.UNCONSCIOUS

    def heal(self, target: str, amount: int, detail: dict[str, Any]) -> None:
        """Raises hp up to the maximum; one healed above the unconscious line wakes."""
        before = self.hp[target]
        after = healed(before, self.by_id[target].max_hp, amount)
        self.hp[target] = after
        if after is not None and before is not None:
            detail["healed"] = after - before
            detail["hp"] = after
            if self.status[target] is Status.UNCONSCIOUS and after > self.opts.unconscious_at:
                self.status[target] = Status.ACTIVE

    def disrupt(self, key: Key, caster: str) -> None:
        """Loses every spell of the caster still being cast (or yet to start) this round."""
        keep: list[_Item] = []
        for end in self.pending_spells.get(caster, []):
            if end.done:
                continue
            if end.path in self.ledger:  # already decided (a caster down before readying it)
                end.done = True
                continue
            # At risk from the start of the declaring round; damage in the completing moment
            # itself is simultaneous and does not stop the spell (Important notes, fn. 1).
            if key[0] < end.round_index or (end.key and key >= end.key):
                keep.append(end)
                continue
            if not self.opts.spell_lost_on_any_damage and not end.detail.get("_begun"):
                keep.append(end)
                continue
            end.done = True
            self.emit(key, caster, StepEvent.SPELL_DISRUPTED,
                      ["addict.spell.lost-on-damage"], "D", end.target,
                      {"spell": end.detail.get("spell")})
            self.settle(end.path, "disrupted")
        self.pending_spells[caster] = keep

    def announce_deaths(self, key: Key, fallen: Iterable[str]) -> None:
        """Gives each newly dead combatant a ``dies`` step of its own."""
        for cid in fallen:
            hp = self.hp[cid]
            rule = ("addict.death.monsters-at-zero" if hp is not None and hp > self.opts.death_at
                    else "addict.death.dead")
            self.emit(key, cid, StepEvent.DIES, [rule], new_group=True, detail={"hp": hp})

    # ---- conditions (core.rules.care) ----

    def apply_conditions(self, path: str) -> None:
        """Starts or ends the conditions a declaration names once it has resolved."""
        care = self.care.get(path)
        if not care:
            return
        key = self.now
        actor = self.actor_of.get(path, "")
        for change in care.conditions:
            if change.ends:
                if self.conditions.end(change.target, change.name):
                    self.emit(key, change.target, StepEvent.CONDITION_ENDS, [R_CONDITION],
                              detail={"condition": change.name, "by": actor})
                continue
            # Rounds are numbered from 1: it lasts this round and ``rounds`` more.
            until = None if change.rounds is None else key[0] + 1 + change.rounds
            self.conditions.start(change.target, change.name, until)
            detail: dict[str, Any] = {"condition": change.name, "by": actor}
            if change.rounds is not None:
                detail["rounds"] = change.rounds
            self.emit(key, change.target, StepEvent.CONDITION_STARTS, [R_CONDITION],
                      detail=detail)

    def expire_conditions(self, r_index: int) -> None:
        """Ends the conditions whose time runs out at the end of round ``r_index``."""
        key: Key = (r_index, _END_SEGMENT, 0, 0, 0, 1)
        for n, (cid, name) in enumerate(self.conditions.due(r_index + 1)):
            self.emit(key, cid, StepEvent.CONDITION_ENDS, [R_CONDITION], new_group=n == 0,
                      detail={"condition": name})

    def cannot_act(self, it: _Item) -> bool:
        """Drops an item whose actor a condition keeps from acting (one step per entry)."""
        why = self.conditions.blocking(it.actor)
        if why is None or it.kind == "morale" or not self.active(it.actor):
            return False
        it.done = True
        if it.path not in self.blocked:
            self.blocked.add(it.path)
            self.emit(self.now, it.actor, StepEvent.CANNOT_ACT, [R_CANNOT_ACT], it.letter,
                      it.target, {"condition": why}, new_group=True)
        self.settle(it.path, "cancelled")
        return True

    # ---- main loop ----

    def run(self) -> Resolution:
        """Walks the eleven phases and returns the resolution."""
        self.phase_1_reaction()
        surprised, segments = self.phase_2_surprise()
        if surprised:
            key: Key = (0, 0, _SETUP_TIER, 0, 0, 0)
            self.open_group = True
            for cid in surprised:
                self.emit(key, cid, StepEvent.SURPRISED, ["addict.surprise.check"],
                          detail={"segments": segments}, surprise=True)
        self.phase_3_distance()
        self.phase_4_opening_morale()
        for r_index, spec in enumerate(self.sc.rounds):
            self.round_start_hp[r_index] = dict(self.hp)
            if spec.surprise:
                if r_index != 0:
                    raise ScenarioError(f"{spec.path}.surprise",
                                        "only the first round can be a surprise round")
                if not surprised:
                    raise ScenarioError(f"{spec.path}.surprise",
                                        "nobody is surprised (see the surprise dice)")
                self.build_surprise(spec, set(surprised), segments)
            else:
                self.build_round(r_index, spec)
            self.process(r_index)
            if not spec.surprise:
                self.phase_9_bleeding(r_index)
            self.expire_conditions(r_index)
        last = len(self.sc.rounds)
        if self.carry:
            dice = {side: 0 for side in self.sc.sides}
            self.place_carry(last, dice)
            self.process(last)
        for paths in self.waiting.values():
            for ready in paths:
                self.settle(ready.path, "cancelled")
        return Resolution(
            system="addict",
            steps=tuple(self.steps),
            combatants={cid: CombatantResult(self.hp[cid], self.status[cid])
                        for cid in self.by_id},
            rolls=tuple(self.rolls),
        )

    def process(self, r_index: int) -> None:
        """Pops and resolves every item up to the end of round ``r_index``."""
        while self.heap and self.heap[0][0][0] <= r_index:
            key = self.heap[0][0]
            group: list[_Item] = []
            while self.heap and self.heap[0][0] == key:
                group.append(heapq.heappop(self.heap)[2])
            self.resolve_group(key, group)

    # ---- phases 1–4 ----

    def phase_1_reaction(self) -> None:
        """Phase 1: records the reaction roll, or nothing when the DM's notes decide."""
        value = self.sc.reaction
        if value is None:
            if self.opts.roll_missing_reaction:
                self.roll("2d6", "reaction")
            return
        if isinstance(value, str):
            return
        if isinstance(value, Mapping):
            if "roll" not in value:
                if isinstance(value.get("notes"), str):
                    return
                raise ScenarioError("reaction", "expected a 2d6 roll, DM notes text, or "
                                    "{roll} / {notes}")
            value = value["roll"]
            path = "reaction.roll"
        else:
            path = "reaction"
        if isinstance(value, bool) or not isinstance(value, int):
            raise ScenarioError(path, f"expected a 2d6 roll (2–12), got {value!r}")
        if not 2 <= value <= 12:
            raise ScenarioError(path, f"a 2d6 roll shows 2–12, got {value}")
        self.given("2d6", value, "reaction")

    def phase_2_surprise(self) -> tuple[list[str], int]:
        """Phase 2: surprise dice per side; returns who is surprised and for how many segments."""
        sides = self.sc.sides
        for side in self.sc.surprise:
            if side not in sides:
                raise ScenarioError(f"surprise.{side}", f"unknown side {side!r}")
        forced = any(c.surprised for c in self.sc.combatants)
        if not self.sc.surprise and not self.surprise_round and not forced:
            return [], 0
        dice: dict[str, int] = {}
        if self.sc.surprise or self.surprise_round:
            for side in sides:
                if side in self.sc.surprise:
                    dice[side] = _d6(self.sc.surprise[side], f"surprise.{side}")
                    self.given("1d6", dice[side], f"surprise {side}")
                else:
                    dice[side] = self.roll("1d6", f"surprise {side}").total
        side_lost: dict[str, int] = {}
        surprised_sides = [s for s in sides if s in dice and dice[s] <= self.opts.surprised_on]
        if surprised_sides and len(surprised_sides) == len(sides):
            # Everyone surprised: only the lowest die loses the difference (DMG p.61–62).
            low = min(dice.values())
            second = min((d for d in dice.values() if d > low), default=low)
            surprised_sides = [s for s in sides if dice[s] == low and second > low]
            side_lost = {s: second - low for s in surprised_sides}
        else:
            side_lost = {s: dice[s] for s in surprised_sides}
        surprised: list[str] = []
        lost = 0
        for c in self.sc.combatants:
            if c.surprised is False:
                continue
            threshold = c.surprised_on if c.surprised_on is not None else None
            by_die = c.side in side_lost
            if threshold is not None and c.side in dice:
                by_die = dice[c.side] <= threshold and c.side in surprised_sides
            if c.surprised or by_die:
                if self.status[c.id] is Status.ACTIVE:
                    surprised.append(c.id)
                lost = max(lost, side_lost.get(c.side, 1))
        if self.opts.fixed_surprise_segments > 0:
            lost = self.opts.fixed_surprise_segments
        if self.surprise_round:
            override = _int_field(self.sc.rounds[0].raw, "segments", self.sc.rounds[0].path, 1,
                                  10)
            if override is not None:
                lost = override
        return surprised, lost

    def phase_3_distance(self) -> None:
        """Phase 3: records the encounter distance when given."""
        value = self.sc.distance
        if value is None:
            return
        expression = "given"
        path = "distance"
        if isinstance(value, Mapping):
            dice = value.get("dice", "given")
            if not isinstance(dice, str):
                raise ScenarioError("distance.dice", f"expected dice notation, got {dice!r}")
            expression = dice
            value = value.get("roll")
            path = "distance.roll"
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ScenarioError(path, f"expected a distance (0 or more), got {value!r}")
        self.given(expression, value, "encounter distance")

    def morale_entries(self, raw: Any, path: str) -> list[tuple[str, int | None, int | None]]:
        """Reads ``{who: roll | {roll, target} | null}``; who is a side or a combatant id."""
        return [(who, roll, target) for who, roll, target, _ in self.round_morale(raw, path)]

    def round_morale(self, raw: Any, path: str
                     ) -> list[tuple[str, int | None, int | None, int | None]]:
        """Reads ``{who: roll | {roll, target, after} | null}``; ``after`` is the index of
        the round's declaration whose outcome set the check off."""
        if raw is None:
            return []
        if not isinstance(raw, Mapping):
            raise ScenarioError(path, "expected an object {side or combatant: roll}")
        out: list[tuple[str, int | None, int | None, int | None]] = []
        for who, value in raw.items():
            wpath = f"{path}.{who}"
            if who not in self.by_id and who not in self.sc.sides:
                raise ScenarioError(wpath, f"unknown side or combatant {who!r}")
            if isinstance(value, Mapping):
                out.append((who, _int_field(value, "roll", wpath, 0),
                            _int_field(value, "target", wpath),
                            _int_field(value, "after", wpath, 0)))
            elif value is None:
                out.append((who, None, None, None))
            elif isinstance(value, bool) or not isinstance(value, int):
                raise ScenarioError(wpath, f"expected a morale roll, got {value!r}")
            else:
                out.append((who, value, None, None))
        return out

    def morale_members(self, who: str) -> list[str]:
        """Gets the active combatants a morale check covers."""
        if who in self.by_id:
            return [who] if self.active(who) else []
        return [c.id for c in self.sc.combatants if c.side == who and self.active(c.id)]

    def check_morale(self, key: Key, who: str, roll: int | None, target: int | None,
                     path: str, *rules: str) -> list[str]:
        """Rolls one morale check and returns the members who fail it."""
        members = self.morale_members(who)
        if not members:
            return []
        if roll is None:
            roll = self.roll(self.opts.morale_dice, f"morale {who}").total
        else:
            self.given(self.opts.morale_dice, roll, f"morale {who}")
        failed: list[str] = []
        for cid in members:
            number = target if target is not None else self.by_id[cid].morale
            if number is None:
                raise ScenarioError(path, f"{cid!r} has no morale score; give a target")
            ok = roll <= number
            self.emit(key, cid, StepEvent.MORALE_CHECK, list(rules),
                      detail={"roll": roll, "morale": number, "result": "pass" if ok else "fail"})
            if not ok:
                failed.append(cid)
        return failed

    def phase_4_opening_morale(self) -> None:
        """Phase 4: opening morale checks; failures avoid at once."""
        key: Key = (0, 0, _SETUP_TIER, 1, 0, 0)
        for who, roll, target in self.morale_entries(self.sc.raw.get("opening_morale"),
                                                     "opening_morale"):
            self.open_group = True
            for cid in self.check_morale(key, who, roll, target, f"opening_morale.{who}",
                                         "addict.morale.opening"):
                self.flee(key, cid, ["addict.morale.opening", "addict.oos.morale-avoid"],
                          new_group=True)

    def flee(self, key: Key, cid: str, because: list[str], new_group: bool = False,
             path: str = "") -> None:
        """Emits an avoidance and takes the combatant out of the fight."""
        self.emit(key, cid, StepEvent.FLEES, because, "A", new_group=new_group)
        if self.opts.avoid_means_fled:
            self.status[cid] = Status.FLED
        self.settle(path, "resolved")

    # ---- Phase 5: surprise segments ----

    def build_surprise(self, spec: RoundSpec, surprised: set[str], segments: int) -> None:
        """Phase 5: the surprising side's declarations, one surprise segment at a time."""
        for decl in spec.declarations:
            actor = self.by_id[decl.actor]
            if decl.actor in surprised:
                raise ScenarioError(f"{decl.path}.actor",
                                    f"{decl.actor!r} is surprised and cannot act")
            segment = _int_field(decl.raw, "segment", decl.path, 1) or 1
            if segment > segments:
                raise ScenarioError(f"{decl.path}.segment",
                                    f"only {segments} surprise segment(s), got {segment}")
            letter = self.letter(decl)
            if letter in "DFGH" and decl.target in surprised:
                bonus = _reaction_adj(self.by_id[decl.target])
                if bonus >= segment:
                    if self.opts.untargetable_in_surprise is Untargetable.REFUSE:
                        raise ScenarioError(
                            f"{decl.path}.target",
                            f"{decl.target!r} cannot be targeted in surprise segment {segment} "
                            f"(reaction bonus {bonus})")
                    self.settle(decl.path, "cancelled")
                    continue
            start = segment + self.delay(decl)
            base: Key = (0, start, 0, _RANK[letter], 0, 0)
            items = self.items_for(decl, actor, letter, base, 0, surprise_segments=segments)
            self.schedule(decl, items, 0, segments)

    # ---- Phase 6/7/8: a regular round ----

    def letter(self, decl: Declaration) -> str:
        """Gets the declaration's action letter (Action list), refusing anything else."""
        letter = decl.action.strip().upper()
        if len(letter) != 1 or letter not in LETTERS:
            raise ScenarioError(f"{decl.path}.action",
                                f"unknown action {decl.action!r} (one of P, A–H)")
        return letter

    def delay(self, decl: Declaration) -> int:
        """Gets the segments of declaration delay (Phase 6: one per full 6 s)."""
        seconds = _int_field(decl.raw, "delay_seconds", decl.path, 0) or 0
        return seconds // max(self.opts.seconds_per_segment, 1)

    def side_dice(self, r_index: int, spec: RoundSpec) -> dict[str, int]:
        """Phase 7: each side's d6, given or rolled."""
        sides = self.sc.sides
        for side in spec.initiative:
            if side not in sides:
                raise ScenarioError(f"{spec.path}.initiative.{side}", f"unknown side {side!r}")
        declaring = {self.by_id[d.actor].side for d in spec.declarations}
        dice: dict[str, int] = {}
        for side in sides:
            if side in spec.initiative:
                dice[side] = _d6(spec.initiative[side], f"{spec.path}.initiative.{side}")
                self.given("1d6", dice[side], f"initiative {side}")
            elif side in declaring or any(
                    self.active(c.id) for c in self.sc.combatants if c.side == side):
                dice[side] = self.roll("1d6", f"initiative {side}").total
            else:
                dice[side] = 0
        return dice

    def build_round(self, r_index: int, spec: RoundSpec) -> None:
        """Phases 6–8: turns the round's declarations into keyed items."""
        dice = self.side_dice(r_index, spec)
        self.round_dice[r_index] = dice
        counts: dict[int, int] = {}
        for d in dice.values():
            counts[d] = counts.get(d, 0) + 1
        tied = {d for d, n in counts.items() if n > 1 and d > 0}
        self.place_carry(r_index, dice)
        morale = self.round_morale(spec.raw.get("morale"), f"{spec.path}.morale")
        built: list[tuple[Declaration, list[_Item]]] = []
        for decl in spec.declarations:
            actor = self.by_id[decl.actor]
            letter = self.letter(decl)
            die = dice.get(actor.side, 0)
            start = 1 + self.delay(decl)
            because = ["addict.resolve.winner-first", "addict.resolve.letter-order"]
            if die in tied:
                because = ["addict.initiative.tie", "addict.tie.letter-order"]
            override = self.initiative_override(decl)
            if override is not None:
                die = 7 if override == "wins" else 0
                because = ["addict.option.initiative-override", "addict.resolve.letter-order"]
                self.own_die[decl.path] = die
            if start > 1:
                because.insert(0, "addict.resolve.delayed-segment")
            if start > 10:
                self.settle(decl.path, "cancelled")
                continue
            base: Key = (r_index, start, -die, _RANK[letter], 0, 0)
            items = self.items_for(decl, actor, letter, base, r_index, because=because)
            built.append((decl, items))
        self.adjust_round(r_index, dice, tied, built)
        for decl, items in built:
            self.schedule(decl, items, r_index, 10)
        self.queue_round_morale(r_index, spec, dice, morale, built)

    def queue_round_morale(self, r_index: int, spec: RoundSpec, dice: Mapping[str, int],
                           morale: list[tuple[str, int | None, int | None, int | None]],
                           built: list[tuple[Declaration, list[_Item]]]) -> None:
        """Queues the round's morale checks at the side's turn (addict.oos.morale-avoid), or
        just after the declaration that set one off when that comes later
        (addict.morale.after-trigger): what was resolved before the check stands."""
        keys = {decl.path: [it.key for it in items if it.key] for decl, items in built}
        for who, roll, target, after in morale:
            side = self.by_id[who].side if who in self.by_id else who
            key: Key = (r_index, 1, -dice.get(side, 0), _MORALE_RANK, 0, 0)
            because = ["addict.oos.morale-avoid"]
            if after is not None:
                if after >= len(spec.declarations):
                    raise ScenarioError(f"{spec.path}.morale.{who}.after",
                                        f"no declaration {after + 1} in this round")
                done = keys.get(spec.declarations[after].path) or []
                if done and _after(max(done)) > key:
                    key = _after(max(done))
                    because = ["addict.morale.after-trigger", "addict.oos.morale-avoid"]
            self.push(_Item("morale", who, key, because,
                            detail={"roll": roll, "target": target,
                                    "path": f"{spec.path}.morale"}))

    def initiative_override(self, decl: Declaration) -> str | None:
        """Gets a declaration's own ``initiative`` (``wins`` / ``loses``), when allowed."""
        value = decl.raw.get("initiative")
        if value is None:
            return None
        if value not in ("wins", "loses"):
            raise ScenarioError(f"{decl.path}.initiative",
                                f"expected \"wins\" or \"loses\", got {value!r}")
        if not self.opts.initiative_overrides:
            raise ScenarioError(f"{decl.path}.initiative",
                                "an action of its own initiative needs the option "
                                "\"initiative overrides\" turned on")
        return str(value)

    def place_carry(self, r_index: int, dice: Mapping[str, int]) -> None:
        """Keys the items carried over from the previous round (long spells, custom actions)."""
        carried, self.carry = self.carry, []
        for item, segment in carried:
            side = self.by_id[item.actor].side
            item.key = (r_index, segment, -dice.get(side, 0), _RANK[item.letter or "D"], 0, 0)
            if segment > 10:
                self.carry.append((item, segment - 10))
            else:
                self.push(item)

    def items_for(self, decl: Declaration, actor: Combatant, letter: str, base: Key,
                  r_index: int, because: list[str] | None = None,
                  surprise_segments: int = 0) -> list[_Item]:
        """Phase 6: turns one declaration into its items (keys relative to ``base``)."""
        surprise = surprise_segments > 0
        if len(decl.targets) > 1 and (letter != "D" or decl.raw.get("kind") == "turn"):
            raise ScenarioError(f"{decl.path}.targets", "several targets are read for a missile "
                                "volley, an area spell or a device (D): name one target")
        because = list(because or (["addict.surprise.resolution"] if surprise else []))
        if surprise:
            because = ["addict.surprise.resolution", *because[1:]]
        path = decl.path

        def item(kind: str, key: Key = base, **kw: Any) -> _Item:
            rules = list(kw.pop("because", because))
            return _Item(kind, decl.actor, key, rules, letter, path, decl.target,
                         round_index=r_index, targets=decl.targets, **kw)

        if letter == "P":
            out = []
            hits = decl.outcome.hits
            for i, segment in enumerate(range(base[1], 11)):
                key = (base[0], segment, _P_TIER, _RANK["P"], 0, 0)
                out.append(item("psionic", key, hits=hits[i:i + 1], final=segment == 10,
                                because=["addict.resolve.psionics"]))
            if surprise:
                out = out[:1]
                out[0].final = True
            return out
        if letter == "A":
            rules = ["addict.surprise.avoid"] if surprise else []
            return [item("flee", because=[*rules, *because])]
        if letter == "B":
            return [item("parley")]
        if letter == "C":
            return [item("wait")]
        if letter == "D":
            return self.d_items(decl, actor, base, item, surprise)
        if letter == "E":
            if decl.charge:
                return [self.charge_item(decl, actor, base, item)]
            custom = _int_field(decl.raw, "segments", path, 1)
            if custom is not None:
                rules = ["addict.surprise.custom-carries-over"] if surprise else []
                return [item("custom", _later(base, custom), because=[*because, *rules],
                             segments=custom,
                             detail={"custom": decl.raw.get("custom", "custom action")})]
            detail: dict[str, Any] = {}
            if surprise:
                because.append("addict.surprise.move-tenth")
                if actor.movement is not None:
                    detail["distance"] = actor.movement / 10
                return [item("move", detail=detail)]
            weapon = self.weapon(decl, actor) if actor.weapons else None
            closing = self.travel(decl, actor, (weapon.length or 0.0) if weapon else 0.0,
                                  charge=False)
            if closing is None:
                return [item("move", detail=detail)]
            segments, rules = closing
            detail["distance"] = decl.raw["distance"]
            return [item("move", _later(base, segments), detail=detail, segments=segments,
                         because=[*because, *rules])]
        if letter == "F":
            weapon = self.weapon(decl, actor)
            it = item("set", hits=decl.outcome.hits,
                      length=(weapon.length or 0.0) if weapon else 0.0,
                      detail={"weapon": weapon.name} if weapon else {})
            return [it]
        # G strikes blows, H grapples (Action list).
        weapon = self.weapon(decl, actor)
        detail = {"weapon": weapon.name} if weapon else {}
        kind = "attack" if letter == "G" else "grapple"
        sf = weapon.speed_factor if weapon else None
        length = (weapon.length or 0.0) if weapon else 0.0
        if surprise:
            because.append("addict.surprise.full-routine")
        routines = 1 if surprise or letter == "H" else actor.attack_routines
        if routines <= 1:
            return [item(kind, hits=decl.outcome.hits, detail=detail, length=length,
                         segments=sf if sf is not None else -1)]
        per = max(actor.attacks, 1)
        hits = decl.outcome.hits
        first = item(kind, hits=hits[:per], detail=dict(detail), final=True, length=length,
                     segments=sf if sf is not None else -1)
        rest = item(kind, hits=hits[per:], detail=dict(detail), final=False, length=length,
                    segments=sf if sf is not None else -1)
        first.detail["routine"] = 1
        rest.detail["routine"] = 2
        return [first, rest]

    def charge_item(self, decl: Declaration, actor: Combatant, base: Key, item: Any) -> _Item:
        """E charge: its weapon, and the segments it needs (typed, or from the distance)."""
        segments = _int_field(decl.raw, "charge_segments", decl.path, 1)
        weapon = self.weapon(decl, actor)
        length = (weapon.length or 0.0) if weapon else 0.0
        detail: dict[str, Any] = {"weapon": weapon.name} if weapon else {}
        moved = self.travel(decl, actor, length, charge=True)
        rules: list[str] = []
        if moved is not None:
            if segments is not None:
                raise ScenarioError(f"{decl.path}.distance", "give the distance or the "
                                    "charge's segments, not both")
            segments, rules = moved
            detail["distance"] = decl.raw["distance"]
            if base[1] + segments - 1 > 10:
                detail["_out_of_reach"] = True
        it: _Item = item("charge", hits=decl.outcome.hits, length=length,
                         segments=segments or self.opts.default_charge_segments, detail=detail)
        it.because.extend(rules)
        return it

    def travel(self, decl: Declaration, actor: Combatant, reach: float,
               charge: bool) -> tuple[int, list[str]] | None:
        """Footnote 19: segments a charge (or close) needs to come within ``reach`` feet.

        A tenth of the move a segment; a charge adds 100% indoors, a third outdoors
        (footnote 9). None when the declaration gives no ``distance``.
        """
        distance = decl.raw.get("distance")
        if distance is None:
            return None
        where = f"{decl.path}.distance"
        if isinstance(distance, bool) or not isinstance(distance, int | float) or distance < 0:
            raise ScenarioError(where, f"expected a distance in feet (0 or more), got "
                                f"{distance!r}")
        if not actor.movement or actor.movement <= 0:
            raise ScenarioError(where, f"{decl.actor!r} needs a movement rate to turn a "
                                "distance into segments")
        if self.opts.feet_per_inch < 1:
            raise ScenarioError("options.feet_per_inch", "must be at least 1")
        per_segment = Fraction(actor.movement * self.opts.feet_per_inch, 10)
        rules = ["addict.move.distance"]
        if charge:
            per_segment *= Fraction(4, 3) if self.opts.outdoors else 2
            if self.opts.outdoors:
                rules.append("addict.move.outdoors")
        gap = max(Fraction(distance) - Fraction(reach), Fraction(0))
        return max(1, math.ceil(gap / per_segment)), rules

    def weapon(self, decl: Declaration, actor: Combatant) -> Weapon | None:
        """Gets the declared weapon (or the first one), refusing unknown names."""
        if (decl.weapon is not None and actor.weapons and actor.weapon(decl.weapon) is None
                and decl.raw.get("weapon_facts") is None):  # facts given: a table weapon
            raise ScenarioError(f"{decl.path}.weapon",
                                f"{decl.actor!r} has no weapon {decl.weapon!r}")
        return declared_weapon(actor, decl.raw, decl.path)

    def d_items(self, decl: Declaration, actor: Combatant, base: Key, item: Any,
                surprise: bool) -> list[_Item]:
        """D: missiles, devices, spells or turning undead."""
        kind = decl.raw.get("kind")
        path = decl.path
        if kind is not None and kind not in ("spell", "missile", "device", "turn"):
            raise ScenarioError(f"{path}.kind",
                                f"unknown D kind {kind!r} (spell, missile, device, turn)")
        if decl.spell is not None or kind in ("spell", "device"):
            hits, targets = decl.outcome.hits, decl.targets
            if len(targets) > 1 and hits and len(hits) != len(targets):
                # Phase 6: an area's outcomes are read one per listed target, in order.
                raise ScenarioError(f"{path}.hits", f"gives {len(hits)} outcomes for "
                                    f"{len(targets)} targets: give one per target, in order")
        if decl.spell is not None or kind == "spell":
            return self.spell_items(decl, actor, base, item, surprise)
        if kind == "device":
            # E vs D: "time to retrieve and use the device"; footnote 20: a hit does not
            # spoil it (devices never join the spells a wound can lose).
            use = _int_field(decl.raw, "segments", path, 1) or 1
            retrieve = _int_field(decl.raw, "retrieve_segments", path, 0) or 0
            device: _Item = item("device", _later(base, use + retrieve), segments=use + retrieve,
                                 hits=decl.outcome.hits,
                                 detail={"retrieval": retrieve} if retrieve else {})
            if retrieve:
                device.because.append("addict.device.retrieval")
            return [device]
        if kind == "turn":
            return [item("turn")]
        weapon = self.weapon(decl, actor)
        if weapon is None or (kind is None and not weapon.missile):
            raise ScenarioError(f"{path}.action", "a D declaration needs a spell, a missile "
                                "weapon or kind device/turn")
        detail: dict[str, Any] = {"weapon": weapon.name, "_rof": weapon.rate_of_fire or 1}
        fire = _int_field(decl.raw, "fire_segment", path, 1, 10)
        if fire is not None:
            detail["_fire_segment"] = fire
        because = ["addict.surprise.full-routine"] if surprise else []
        it: _Item = item("missile", hits=decl.outcome.hits, detail=detail,
                         segments=weapon.speed_factor if weapon.speed_factor else -1)
        it.because.extend(because)
        return [it]

    def spell_items(self, decl: Declaration, actor: Combatant, base: Key, item: Any,
                    surprise: bool) -> list[_Item]:
        """D spell: a start and an end item; refuses a spell without target or area."""
        path = decl.path
        area = decl.raw.get("area")
        if area is not None and not isinstance(area, str):
            raise ScenarioError(f"{path}.area", f"expected text, got {area!r}")
        if decl.target is None and not area:
            # 2024-03 revision, Phase 6: a spell must name a precise target or area.
            raise ScenarioError(f"{path}.target",
                                "a spell (D) must name a target or an area (e.g. \"self\")")
        if decl.spell is None:
            raise ScenarioError(f"{path}.spell", "a spell declaration needs the spell's name")
        spell = actor.spell(decl.spell)
        if spell is None:
            if actor.spells:
                raise ScenarioError(f"{path}.spell",
                                    f"{decl.actor!r} has no spell {decl.spell!r} memorised")
            ct = _int_field(decl.raw, "casting_time", path, 0)
            spell = Spell(decl.spell, casting_time=ct if ct is not None else 1)
        detail: dict[str, Any] = {"spell": spell.name, "casting_time": spell.casting_time}
        if area:
            detail["area"] = area
        if decl.effect is not None:
            detail["effect"] = {"name": decl.effect.name, "duration": decl.effect.duration,
                                "target": decl.effect.target}
        begin = item("spell-begin", detail=dict(detail), final=False)
        if len(decl.targets) > 1:
            begin.detail["also"] = list(decl.targets[1:])  # the area's other targets
        ct = max(spell.casting_time, 1)
        end = item("spell-end", _later(base, ct), hits=decl.outcome.hits,
                   detail={**detail, "_heal": decl.outcome.heal}, segments=ct)
        end.because = ["addict.spell.casting-time", *end.because]
        if surprise:
            end.because.append("addict.surprise.spell-carries-over")
        begin.payload = [end]
        return [begin, end]

    # ---- out-of-sequence and tie adjustments ----

    def adjust_round(self, r_index: int, dice: Mapping[str, int], tied: set[int],
                     built: list[tuple[Declaration, list[_Item]]]) -> None:
        """Applies the out-of-sequence cases and tie rules to a round's keys."""
        ends: dict[str, list[_Item]] = {}
        for _decl, items in built:
            for it in items:
                if it.kind in ("spell-end", "device"):
                    ends.setdefault(it.actor, []).append(it)
        for item in self.carried_into(r_index):
            ends.setdefault(item.actor, []).append(item)
        self.missile_reaction(dice, built)
        self.tie_speed_factor(tied, built)
        self.multiple_routines(built)
        charges = [it for _d, items in built for it in items if it.kind == "charge"]
        self.missiles_before_charge(charges, built)
        for _decl, items in built:
            for it in items:
                if it.target is None or it.target not in ends:
                    continue
                # A spell begun in an earlier round completes in its segment whatever this
                # round's dice: only a blow of an earlier segment can spoil it.
                spells = [e for e in ends[it.target]
                          if e.kind == "spell-end" and e.round_index == r_index]
                if spells and self.caster_lost(it, dice, spells):
                    it.because.insert(0, "addict.oos.losing-caster")
                    continue
                for end in ends[it.target]:
                    if end.kind == "spell-end" and end.round_index < r_index:
                        it.because.insert(0, "addict.spell.carried-on-time")
                    if it.kind in ("attack", "missile"):
                        self.attack_vs_caster(it, end, dice, tied)
                    elif it.kind == "charge":
                        self.charge_vs_caster(it, end, tied)
        self.casters_vs_casters(ends)
        for _decl, items in built:
            for it in items:
                if "_fire_segment" in it.detail:
                    raise ScenarioError(f"{it.path}.fire_segment",
                                        "only a missile aimed at a combatant charging the "
                                        "archer this round picks its segment")
        for items, extra in self.extra_blows:
            items.append(extra)
        self.extra_blows.clear()

    def caster_lost(self, it: _Item, dice: Mapping[str, int], ends: Sequence[_Item]) -> bool:
        """Tells whether ``it`` targets a caster whose side lost initiative to ``it``'s side.

        The casting-time comparisons (G vs D, D vs D, E vs D) time a spell that could beat the
        blow; a caster who lost is simply struck in the winners' turn (Phase 8), and the
        damage loses the spell ("Preparing actions").
        """
        if self.opts.losing_caster_compares or it.target is None:
            return False
        caster = self.by_id[it.target].side
        attacker = self.by_id[it.actor].side
        if caster == attacker:
            return False
        caster_die = dice.get(caster, 0)
        for end in ends:
            caster_die = self.own_die.get(end.path, caster_die)
        return caster_die < self.own_die.get(it.path, dice.get(attacker, 0))

    def carried_into(self, r_index: int) -> list[_Item]:
        """Gets the spells carried into this round (for the G vs D comparisons)."""
        return [entry[2] for entry in self.heap
                if entry[2].key[0] == r_index and entry[2].kind in ("spell-end", "device")
                and entry[2].round_index < r_index]

    def missile_reaction(self, dice: Mapping[str, int],
                         built: list[tuple[Declaration, list[_Item]]]) -> None:
        """Out-of-sequence D: the reaction adjustment moves a missile before or after."""
        if not self.opts.missile_reaction_adjustment:
            return
        top_other: dict[str, int] = {}
        for side in dice:
            top_other[side] = max((d for s, d in dice.items() if s != side), default=0)
        for _decl, items in built:
            for it in items:
                if it.kind != "missile":
                    continue
                c = self.by_id[it.actor]
                adj = _reaction_adj(c)
                if adj == 0:
                    continue
                own = dice.get(c.side, 0)
                if it.target is not None and self.by_id[it.target].side != c.side:
                    enemy = dice.get(self.by_id[it.target].side, 0)
                else:
                    enemy = top_other.get(c.side, 0)
                eff = own + adj
                moved = (adj > 0 and own <= enemy <= eff) or (adj < 0 and own >= enemy > eff)
                if moved:
                    it.key = (it.key[0], it.key[1], -eff, *it.key[3:])
                    it.because.insert(0, "addict.oos.missile-reaction")
                    it.detail["effective_initiative"] = eff

    def tie_speed_factor(self, tied: set[int],
                         built: list[tuple[Declaration, list[_Item]]]) -> None:
        """Tie rounds: melee by speed factor, low to high; attacks without one always land."""
        fastest: dict[tuple[int, int], int] = {}
        melee = [it for _d, items in built for it in items
                 if it.kind == "attack" and -it.key[2] in tied]
        for it in melee:
            if it.segments >= 0:
                slot = (it.key[1], it.key[2])
                fastest[slot] = min(fastest.get(slot, it.segments), it.segments)
        opponent: dict[str, int] = {}
        """Speed factor of each tied actor's first blow (its opponent's, seen from the foe)."""
        for it in melee:
            if it.segments >= 0 and it.actor not in opponent:
                opponent[it.actor] = it.segments
        mode = self.opts.no_speed_factor_in_ties
        for it in melee:
            if it.segments >= 0:
                minor = it.segments
                it.because.insert(0, "addict.tie.speed-factor")
            else:
                fast = fastest.get((it.key[1], it.key[2]), 0)
                if mode is NoSpeedFactorInTies.WITH_FASTEST:
                    minor = fast
                elif mode is NoSpeedFactorInTies.WITH_OPPONENT:
                    minor = opponent.get(it.target or "", fast)
                else:
                    minor = -1 if mode is NoSpeedFactorInTies.FIRST else 1000
                it.because.insert(0, "addict.tie.no-speed-factor")
            it.key = (*it.key[:4], minor, it.key[5])
        if self.opts.tie_extra_blow_gap > 0:
            self.tie_extra_blows(melee, opponent, built)

    def tie_extra_blows(self, melee: list[_Item], opponent: Mapping[str, int],
                        built: list[tuple[Declaration, list[_Item]]]) -> None:
        """DMG p.66 (option): a much faster weapon's second recorded hit is an extra blow."""
        gap = self.opts.tie_extra_blow_gap
        owner = {id(it): items for _decl, items in built for it in items}
        for it in melee:
            foe = opponent.get(it.target or "")
            if it.segments < 0 or foe is None or foe - it.segments < gap or len(it.hits) < 2:
                continue
            extra = _Item(it.kind, it.actor, (*it.key[:4], foe, it.key[5]),
                          ["addict.option.tie-extra-blows", *it.because], it.letter, it.path,
                          it.target, it.hits[1:2], dict(it.detail), final=False,
                          length=it.length, segments=it.segments, round_index=it.round_index)
            if foe - it.segments >= 2 * gap:
                extra.key = _before(extra.key)
            extra.detail["blow"] = 2
            it.hits = (it.hits[0], *it.hits[2:])
            self.extra_blows.append((owner[id(it)], extra))

    def multiple_routines(self, built: list[tuple[Declaration, list[_Item]]]) -> None:
        """Out-of-sequence D, G: a first routine slots in before the enemy's first attack."""
        if not self.opts.multiple_routines_slot_in:
            return
        first_by_actor: dict[str, Key] = {}
        first_by_side: dict[str, Key] = {}
        for _d, items in built:
            for it in items:
                if it.kind != "attack":
                    continue
                if it.actor not in first_by_actor or it.key < first_by_actor[it.actor]:
                    first_by_actor[it.actor] = it.key
                side = self.by_id[it.actor].side
                if side not in first_by_side or it.key < first_by_side[side]:
                    first_by_side[side] = it.key
        for _d, items in built:
            first = items[0]
            target = first.target
            if len(items) != 2 or first.kind != "attack" or target is None:
                continue
            if self.opts.mar_slot_before is MarSlotBefore.TARGET:
                enemy_key = first_by_actor.get(target)
            else:
                enemy_key = first_by_side.get(self.by_id[target].side)
            if enemy_key is not None and enemy_key < first.key:
                first.key = _before(enemy_key)
                first.because.insert(0, "addict.oos.multiple-routines")

    def missiles_before_charge(self, charges: list[_Item],
                               built: list[tuple[Declaration, list[_Item]]]) -> None:
        """E vs D: missiles and turning by the charge's target resolve before the charge."""
        if not charges:
            return
        d_by_actor: dict[str, list[_Item]] = {}
        for _d, items in built:
            for it in items:
                if it.kind in ("missile", "turn"):
                    d_by_actor.setdefault(it.actor, []).append(it)
        by_initiative = self.opts.missiles_vs_charge is MissilesVsCharge.INITIATIVE
        for charge in charges:
            if charge.target is None:
                continue
            for it in d_by_actor.get(charge.target, []):
                if it.target != charge.actor and it.target is not None:
                    continue  # shooting at someone else: no race with this charge
                if it.kind == "missile" and by_initiative:
                    it.hits = it.hits[:1]  # one volley, in its initiative place
                    it.detail["_rof"] = 1
                    it.because.insert(0, "addict.option.missiles-vs-charge")
                    continue
                fire = self.fire_segment(it, charge)
                it.because.insert(0, "addict.oos.e-vs-d")
                if fire is not None:
                    # Footnote 14: loosed in a chosen segment of the charge, still before the
                    # blows exchanged at contact.
                    it.key = _before((charge.key[0], fire, *charge.key[2:]))
                    it.because.insert(0, "addict.oos.missile-during-charge")
                elif it.key > charge.key:
                    it.key = _before(charge.key)

    def fire_segment(self, it: _Item, charge: _Item) -> int | None:
        """Gets the segment a missile at a charger is loosed in (footnote 14), if chosen."""
        fire = it.detail.pop("_fire_segment", None)
        if fire is None:
            return None
        first, contact = charge.key[1], min(charge.key[1] + charge.segments - 1, 10)
        if not first <= fire <= contact:
            raise ScenarioError(f"{it.path}.fire_segment",
                                f"the charge runs from segment {first} to contact in segment "
                                f"{contact}; got {fire}")
        return int(fire)

    def attack_vs_caster(self, it: _Item, end: _Item, dice: Mapping[str, int],
                         tied: set[int]) -> None:
        """G vs D (and D vs D for missiles): places an attack on a caster around the spell."""
        is_tie = -it.key[2] in tied and -end.key[2] in tied
        if end.kind != "spell-end" and not is_tie:
            return  # out of sequence, G vs D speaks of a spellcaster only
        caster_side = self.by_id[end.actor].side
        caster_die = dice.get(caster_side, 0)
        delay = it.key[1] - 1 if it.key[0] == end.key[0] else 0
        value = (it.segments if it.segments >= 0 else caster_die) + delay
        attacker_die = dice.get(self.by_id[it.actor].side, 0)
        if (self.opts.g_vs_d_losing_die and it.segments >= 0 and not is_tie
                and attacker_die < caster_die):
            value -= attacker_die  # DMG p.67, as an option
            it.because.insert(0, "addict.option.g-vs-d-losing-die")
        complete = end.key[1]
        if is_tie:
            rule = "addict.tie.g-vs-d" if it.kind == "attack" else "addict.tie.d-vs-d"
            if it.kind == "missile":
                it.because.insert(0, "addict.tie.missile-without-speed-factor")
        elif it.kind == "missile":
            return  # out of sequence, G vs D speaks of a caster "targeted by a melee" only
        else:
            rule = "addict.oos.g-vs-d"
        if end.kind == "spell-end":
            it.detail["compared"] = {"casting": complete, "against": value}
        else:
            it.because.insert(0, "addict.tie.device")
        self.order_around(it, end, complete, value, rule)

    def charge_vs_caster(self, it: _Item, end: _Item, tied: set[int]) -> None:
        """E vs D: a charge at a caster compares the charge time with the casting time."""
        delay = it.key[1] - 1 if it.key[0] == end.key[0] else 0
        self.order_around(it, end, end.key[1], it.segments + delay, "addict.tie.e-vs-d")

    def order_around(self, it: _Item, end: _Item, complete: int, value: int,
                     rule: str) -> None:
        """Puts ``it`` after, with or before ``end`` as ``complete`` <, =, > ``value``."""
        if complete < value:
            if it.key <= end.key:
                it.key = _after(end.key)
        elif complete == value:
            if it.key < end.key:
                it.key = end.key
        elif it.key > end.key:
            it.key = _before(end.key)
        it.because.insert(0, rule)

    def casters_vs_casters(self, ends: Mapping[str, list[_Item]]) -> None:
        """D vs D: two casters targeting each other race by casting time, then by die."""
        # Completion segments already order them (initiative ignored); equal segments fall
        # back to the tier (higher die first) and equal dice share a key (together).
        for caster, items in ends.items():
            for end in items:
                if end.kind != "spell-end" or end.target is None:
                    continue
                for other in ends.get(end.target, []):
                    mutual = other.kind == "spell-end" and other.target == caster
                    if mutual and "addict.oos.d-vs-d" not in end.because:
                        end.because.insert(0, "addict.oos.d-vs-d")

    # ---- scheduling ----

    def schedule(self, decl: Declaration, items: list[_Item], r_index: int,
                 last_segment: int) -> None:
        """Queues a declaration's items (prepared ones wait for their trigger)."""
        if decl.prepared is not None:
            trigger = decl.raw.get("trigger_actor")
            if trigger is not None and (not isinstance(trigger, str) or trigger not in self.by_id):
                raise ScenarioError(f"{decl.path}.trigger_actor",
                                    f"unknown combatant {trigger!r}")
            first = items[0]
            if trigger is None:
                raise ScenarioError(f"{decl.path}.trigger_actor",
                                    "a prepared action needs the id of the combatant whose "
                                    "action triggers it")
            ready = _Item("ready", decl.actor, first.key,
                          ["addict.declare.prepare", *first.because], first.letter, decl.path,
                          decl.target, payload=items, trigger=trigger, round_index=r_index,
                          detail={"trigger": decl.prepared})
            if ready.key[1] > last_segment:
                self.settle(decl.path, "cancelled")
                return  # never readied: nothing of it can be begun, or lost
            for it in items:
                if it.kind == "spell-end":
                    self.pending_spells.setdefault(decl.actor, []).append(it)
                    it.key = ()
            self.push(ready)
            return
        retaliate = decl.raw.get("retaliate")
        if retaliate is not None and not isinstance(retaliate, bool):
            raise ScenarioError(f"{decl.path}.retaliate", f"expected true or false, got "
                                f"{retaliate!r}")
        for it in items:
            if it.kind == "spell-end":
                self.pending_spells.setdefault(decl.actor, []).append(it)
            if it.kind == "set":
                self.set_by_actor.setdefault(decl.actor, []).append((decl, it))
            elif it.kind == "charge":
                self.charges[decl.actor] = it
            elif retaliate and decl.target is not None and it.kind == "attack":
                self.retaliators.setdefault(decl.target, []).append((decl, it))
                self.retaliations.add(id(it))
            self.queue(it, last_segment)

    def queue(self, it: _Item, last_segment: int) -> None:
        """Pushes an item, or carries it into the next round when it overruns this one."""
        if it.key[1] > last_segment and it.key[1] != _END_SEGMENT:
            self.carry.append((it, it.key[1] - last_segment))
            return
        self.push(it)

    # ---- resolving ----

    def resolve_group(self, key: Key, group: list[_Item]) -> None:
        """Resolves items sharing one moment: all fully resolve (Simultaneous resolution)."""
        live: list[_Item] = []
        self.now = key
        for it in group:
            if it.done or self.cannot_act(it):
                continue
            if it.kind == "morale":
                live.append(it)
                continue
            if it.kind == "spell-begin" and all(end.done for end in it.payload):
                it.done = True  # already lost to damage taken earlier in the round
                continue
            if not self.active(it.actor) or id(it) in self.used:
                it.done = True
                self.settle(it.path, "cancelled")
                continue
            if self.waits_for_charge(it):
                continue
            if (it.kind in ("attack", "missile", "grapple", "charge", "exchange")
                    and it.target is not None
                    and not self.opts.attacks_on_fallen_resolve
                    and self.status[it.target] in (Status.DEAD, Status.FLED)):
                it.done = True
                self.settle(it.path, "cancelled")
                continue
            live.append(it)
        if not live:
            return
        self.open_group = True
        fallen: list[str] = []
        followups: list[_Item] = []
        for it in live:
            it.done = True
            self.resolve_item(key, it, fallen, followups)
        self.open_group = False
        self.announce_deaths(key, fallen)
        for it in followups:
            self.push(it)
        for it in live:
            if it.actor in self.waiting and it.kind not in ("morale", "ready"):
                self.fire_triggers(key, it.actor)

    def waits_for_charge(self, it: _Item) -> bool:
        """Out-of-sequence E: a retaliation is made *when the charge is resolved*.

        A defender whose side won would otherwise spend the routine in its own turn, before
        the charger has moved; it is put back just after the charge's contact instead (where
        the exchange uses it, or, if the charge never comes, it resolves then).
        """
        charge = self.charges.get(it.target or "")
        if id(it) not in self.retaliations or charge is None or charge.done:
            return False
        if charge.key[0] != it.key[0]:
            return False
        it.key = _after(_later(charge.key, charge.segments))
        it.because.insert(0, "addict.oos.retaliation-waits")
        self.push(it)
        return True

    def fire_triggers(self, key: Key, actor: str) -> None:
        """Triggers prepared actions waiting on ``actor`` (Preparing actions)."""
        waiting = self.waiting.pop(actor, [])
        later = [r for r in waiting if r.key >= key]
        if later:
            self.waiting[actor] = later
        ready = [r for r in waiting if r.key < key and self.active(r.actor)]
        for r in waiting:
            if r.key < key and not self.active(r.actor):
                self.settle(r.path, "cancelled")
        for n, r in enumerate(ready):
            child: Key = (*key, n + 1)
            # "I shoot anything that comes around the corner": no target means the trigger.
            target = r.target if r.target is not None else actor
            trigger = _Item("triggered", r.actor, child, ["addict.declare.prepare"], r.letter,
                            r.path, target, final=False)
            self.push(trigger)
            for it in r.payload:
                if it.target is None and it.kind not in ("spell-begin", "spell-end"):
                    it.target = target
                it.because.insert(0, "addict.declare.prepare")
                if it.kind == "spell-begin":
                    it.key = child
                elif it.kind == "spell-end":
                    if it.segments <= 1:
                        it.key = (*child, 0)
                    else:
                        it.key = (key[0], key[1] + it.segments - 1, r.key[2], _RANK["D"], 0, 0)
                    it.because.insert(0, "addict.prepare.spell-start-only")
                    if it.key[1] > 10:
                        self.carry.append((it, it.key[1] - 10))
                        continue
                else:
                    it.key = child
                self.push(it)

    def resolve_item(self, key: Key, it: _Item, fallen: list[str],
                     followups: list[_Item]) -> None:
        """Emits the steps of one item and applies its outcome."""
        self.resolving = it
        try:
            self._resolve_item(key, it, fallen, followups)
        finally:
            self.resolving = None

    def _resolve_item(self, key: Key, it: _Item, fallen: list[str],
                      followups: list[_Item]) -> None:
        emit = self.emit
        letter = it.letter
        detail = {k: v for k, v in it.detail.items() if not k.startswith("_")}
        kind = it.kind
        if kind == "morale":
            raw = it.detail
            failed = self.check_morale(key, it.actor, raw.get("roll"), raw.get("target"),
                                       str(raw.get("path")), *it.because)
            avoid_key = (*key[:3], _RANK["A"], 0, 0)
            for cid in failed:
                flee = _Item("flee-morale", cid, avoid_key, list(it.because), "A")
                followups.append(flee)
            return
        if kind == "flee-morale":
            self.flee(key, it.actor, it.because)
            return
        if kind == "ready":
            emit(key, it.actor, StepEvent.READIES, it.because, letter, it.target,
                 {"trigger": it.detail.get("trigger")})
            if it.trigger is not None:
                self.waiting.setdefault(it.trigger, []).append(it)
            else:
                self.settle(it.path, "cancelled")
            return
        if kind == "triggered":
            emit(key, it.actor, StepEvent.READIED_TRIGGERS, it.because, letter, it.target)
            return
        if kind == "flee":
            self.flee(key, it.actor, it.because, path=it.path)
            return
        simple = {"parley": StepEvent.PARLEYS, "wait": StepEvent.WAITS,
                  "move": StepEvent.MOVES, "turn": StepEvent.ACTS, "device": StepEvent.ACTS,
                  "custom": StepEvent.ACTS, "set": StepEvent.READIES}
        if kind == "device":
            start_hp = self.round_start_hp.get(key[0], {}).get(it.actor)
            now_hp = self.hp[it.actor]
            if start_hp is not None and now_hp is not None and now_hp < start_hp:
                it.because.insert(0, "addict.device.not-spoiled")  # footnote 20
        if kind == "device" and (it.hits or len(it.targets) > 1):
            self.area(key, it, StepEvent.ACTS, detail, fallen)
            return
        if kind in simple:
            emit(key, it.actor, simple[kind], it.because, letter, it.target, detail)
            self.settle(it.path, "resolved")
            return
        if kind == "spell-begin":
            for end in it.payload:
                end.detail["_begun"] = True
            emit(key, it.actor, StepEvent.BEGINS_CASTING, it.because, letter, it.target, detail)
            return
        if kind == "spell-end" and len(it.targets) > 1:
            self.area(key, it, StepEvent.SPELL_TAKES_EFFECT, detail, fallen)
            return
        if kind == "spell-end":
            damage = sum(h.damage for h in it.hits if h.hit)
            if it.hits and it.target is not None:
                self.apply_damage_quiet(it.target, damage, fallen)
                detail["damage"] = damage
                detail["hp"] = self.hp[it.target]
            heal = int(it.detail.get("_heal") or 0)
            if heal and it.target is not None and self.status[it.target] is not Status.DEAD:
                self.heal(it.target, heal, detail)
                it.because.insert(0, "addict.spell.heals")
            emit(key, it.actor, StepEvent.SPELL_TAKES_EFFECT, it.because, letter, it.target,
                 detail)
            self.settle(it.path, "resolved")
            if damage > 0 and it.target is not None:
                self.disrupt(key, it.target)
            return
        if kind == "charge":
            emit(key, it.actor, StepEvent.CHARGES, it.because, letter, it.target, detail)
            self.settle(it.path, "resolved")
            self.charge_exchange(key, it, followups)
            return
        if kind == "exchange":
            self.strike(key, it, fallen, event_for_none=StepEvent.ATTACKS)
            return
        if kind == "missile" and (int(it.detail.get("_rof", 1)) > 1 or len(it.hits) > 1
                                  or len(it.targets) > 1):
            self.volley(key, it, fallen)
            self.settle(it.path, "resolved")
            return
        # attacks, missiles, grapples, psionics
        none_event = StepEvent.ACTS if kind == "psionic" else StepEvent.ATTACKS
        self.strike(key, it, fallen, event_for_none=none_event)
        if it.final:
            self.settle(it.path, "resolved")

    def strike(self, key: Key, it: _Item, fallen: list[str],
               event_for_none: StepEvent | None) -> None:
        """Emits hits/misses (or one attack step) and applies damage to the target."""
        detail = {k: v for k, v in it.detail.items() if not k.startswith("_")
                  and k not in ("compared",)}
        if it.detail.get("compared"):
            detail["compared"] = it.detail["compared"]
        if not it.hits:
            if event_for_none is not None:
                self.emit(key, it.actor, event_for_none, it.because, it.letter, it.target,
                          detail)
            return
        for hit in it.hits:
            event = StepEvent.HITS if hit.hit else StepEvent.MISSES
            extra = dict(detail)
            if hit.hit and it.target is not None:
                self.apply_damage_quiet(it.target, hit.damage, fallen)
                extra["damage"] = hit.damage
                extra["hp"] = self.hp[it.target]
            self.emit(key, it.actor, event, it.because, it.letter, it.target, extra)
            if hit.hit and it.target is not None and hit.damage > 0:
                self.disrupt(key, it.target)

    def volley(self, key: Key, it: _Item, fallen: list[str]) -> None:
        """Looses a missile volley shot by shot, each its own step (rate of fire, split).

        E vs D: missiles attack "with their full rate of fire": the weapon's rate of fire gives
        the number of shots whether or not outcomes are recorded yet (each recorded outcome
        fills its shot's step; one recorded beyond them, "another attack", adds a shot). Shot *i*
        goes at the *i*-th listed target, the rest at the last; a shot whose target has fallen
        goes at the next listed target still standing, or is not taken.
        """
        base = {k: v for k, v in it.detail.items() if not k.startswith("_")
                and k not in ("compared",)}
        if it.detail.get("compared"):
            base["compared"] = it.detail["compared"]
        shots = max(len(it.hits), int(it.detail.get("_rof", 1)))
        targets = it.targets or ((it.target,) if it.target is not None else ())
        rules = ["addict.missile.rate-of-fire"] if shots > 1 else []
        if len(targets) > 1:
            rules.append("addict.missile.split-volley")
        for i in range(shots):
            target, fallen_aim = (volley_target(targets, i, self.active) if targets
                                  else (None, None))
            because = [*rules, *it.because]
            extra = dict(base)
            if shots > 1:
                extra.update(shot=i + 1, shots=shots)
            if targets and target is None:
                return  # no one left standing among the listed targets: not taken
            if fallen_aim is not None:
                because.insert(0, "addict.missile.next-target")
                extra["instead_of"] = fallen_aim
            hit = it.hits[i] if i < len(it.hits) else None
            if hit is None:
                self.emit(key, it.actor, StepEvent.ATTACKS, because, it.letter, target, extra)
                continue
            if hit.hit and target is not None:
                self.apply_damage_quiet(target, hit.damage, fallen)
                extra["damage"] = hit.damage
                extra["hp"] = self.hp[target]
            event = StepEvent.HITS if hit.hit else StepEvent.MISSES
            self.emit(key, it.actor, event, because, it.letter, target, extra)
            if hit.hit and target is not None and hit.damage > 0:
                self.disrupt(key, target)

    def area(self, key: Key, it: _Item, event: StepEvent, detail: dict[str, Any],
             fallen: list[str]) -> None:
        """An area spell or a device takes effect on every listed target, one step each.

        Phase 6 (2024-03 revision): a spell names "a precise target or area of effect"; the
        recorded ``hits`` are the outcomes per target, in the order the targets are listed.
        """
        targets = it.targets or ((it.target,) if it.target is not None else ())
        because = ["addict.area.targets", *it.because] if len(targets) > 1 else it.because
        heal = int(it.detail.get("_heal") or 0)
        damaged: list[str] = []
        for i, target in enumerate(targets or (None,)):
            extra = dict(detail)
            hit = it.hits[i] if i < len(it.hits) else None
            rules = list(because)
            if hit is not None and target is not None:
                damage = hit.damage if hit.hit else 0
                self.apply_damage_quiet(target, damage, fallen)
                extra["damage"] = damage
                extra["hp"] = self.hp[target]
                if damage > 0:
                    damaged.append(target)
            if heal and target is not None and self.status[target] is not Status.DEAD:
                self.heal(target, heal, extra)
                rules.insert(0, "addict.spell.heals")
            self.emit(key, it.actor, event, rules, it.letter, target, extra)
        self.settle(it.path, "resolved")
        for target in damaged:
            self.disrupt(key, target)

    def apply_damage_quiet(self, target: str, damage: int, fallen: list[str]) -> None:
        """Lowers hp and updates the status (spell loss is checked by the caller)."""
        hp = self.hp[target]
        if hp is not None and damage > 0:
            self.hp[target] = hp - damage
            self.update_status(target, fallen)

    def charge_exchange(self, key: Key, charge: _Item, followups: list[_Item]) -> None:
        """E: the charger's blow and set weapons / retaliations in weapon-length order."""
        if charge.target is None:
            return
        if charge.detail.get("_out_of_reach"):
            return  # footnote 19: not within its weapon's length by segment 10, no blow yet
        blows: list[tuple[float, _Item]] = [(charge.length, _Item(
            "exchange", charge.actor, key, ["addict.oos.charge-retaliation"], "E", charge.path,
            charge.target, charge.hits, dict(charge.detail)))]
        answers = list(self.retaliators.get(charge.actor, []))
        answers += [(d, it) for d, it in self.set_by_actor.get(charge.target, [])
                    if d.target is None or d.target == charge.actor]
        other = self.charges.get(charge.target)
        if (self.opts.mutual_charges_by_length and other is not None and not other.done
                and other.target == charge.actor and other.key[0] == charge.key[0]
                and self.active(other.actor)):
            # Option: two chargers meet in one exchange, by weapon length (footnote 17).
            other.done = True
            other.because.insert(0, "addict.option.mutual-charges")
            self.emit(key, other.actor, StepEvent.CHARGES, other.because, "E", other.target,
                      {k: v for k, v in other.detail.items() if not k.startswith("_")})
            self.settle(other.path, "resolved")
            blows[0][1].because.append("addict.option.mutual-charges")
            blows.append((other.length, _Item(
                "exchange", other.actor, key, ["addict.oos.charge-retaliation",
                                               "addict.option.mutual-charges"], "E",
                other.path, other.target, other.hits, dict(other.detail))))
        seen: set[int] = set()
        for decl, it in answers:
            if it is None or id(it) in seen or id(it) in self.used:
                continue
            if it.done and it.kind != "set":
                continue  # that attack routine is already spent
            if not self.active(it.actor):
                continue
            seen.add(id(it))
            self.used.add(id(it))
            self.settle(decl.path, "resolved")
            waited = [r for r in it.because if r == "addict.oos.retaliation-waits"]
            blows.append((it.length, _Item(
                "exchange", it.actor, key, ["addict.oos.charge-retaliation", *waited], it.letter,
                decl.path, charge.actor, it.hits, dict(it.detail))))
        # Footnote 19: the charger covers a tenth of its charge move a segment and strikes when
        # within reach, so the exchange happens in the segment of contact.
        contact = _later(key, min(charge.segments, 11 - key[1]))
        if contact != key:
            for _length, blow in blows:
                blow.because.append("addict.oos.charge-contact")
        lengths = sorted({length for length, _ in blows}, reverse=True)
        for length, blow in blows:
            blow.key = (*contact, lengths.index(length) + 1)
            followups.append(blow)

    # ---- Phase 9 ----

    def phase_9_bleeding(self, r_index: int) -> None:
        """Phase 9: negative hp at the start of the round loses 1 hp; -10 dies."""
        start = self.round_start_hp.get(r_index, {})
        key: Key = (r_index, _END_SEGMENT, 0, 0, 0, 0)
        fallen: list[str] = []
        first = True
        for cid, hp in start.items():
            if hp is None or self.status[cid] in (Status.DEAD, Status.FLED):
                continue
            limit = 0 if self.opts.bleed_from_zero else -1
            if hp > limit:
                continue
            current = self.hp[cid]
            assert current is not None
            because = ["addict.bleeding.lose-one"]
            if current > 0:
                # Healed above 0 this round: "Any combatants who had negative hit points at
                # the start of the round lose 1 hit point", word for word (an option stops it).
                if self.opts.healed_stops_bleeding:
                    continue
                because.append("addict.bleeding.healed-this-round")
            self.hp[cid] = current - 1
            self.update_status(cid, fallen)
            self.emit(key, cid, StepEvent.BLEEDS, because,
                      new_group=first, detail={"hp": self.hp[cid]})
            first = False
        self.announce_deaths(key, fallen)



class AddictSystem:
    """The ADDICT procedure behind the common system protocol."""

    id: ClassVar[str] = "addict"
    title: ClassVar[str] = "ADDICT / quantum side initiative (AD&D 1e)"
    options_type: ClassVar[type[Any]] = Options
    rules: ClassVar[Mapping[str, Rule]] = RULES

    def phases(self) -> Sequence[Phase]:
        """Gets the eleven phases the stepper walks through."""
        return PHASES

    def rolls_needed(self, document: Mapping[str, Any]) -> list[RollRequest]:
        """Lists the surprise d6s (once a surprise check is asked for) and this round's d6s."""
        needed = []
        if isinstance(document.get("surprise"), Mapping):
            needed += missing_side_dice(document, ("surprise",), document["surprise"],
                                        "surprise")
        rounds = document.get("rounds") or []
        if rounds and isinstance(rounds[-1], Mapping) and not rounds[-1].get("surprise"):
            needed += missing_side_dice(document, ("rounds", -1, "initiative"),
                                        rounds[-1].get("initiative"), "initiative")
        return needed

    def resolve(self, scenario: Scenario, dice: RollSource) -> Resolution:
        """Resolves a scenario into ordered steps."""
        return resolve_with_ledger(scenario, dice).resolution


def resolve_with_ledger(scenario: Scenario, dice: RollSource) -> LedgerResolution:
    """Resolves a scenario and tells how every declaration ended."""
    opts = parse_options(Options, scenario.options)
    if opts.seconds_per_segment < 1:
        raise ScenarioError("options.seconds_per_segment", "must be at least 1")
    engine = _Engine(scenario, dice, opts)
    resolution = engine.run()
    ledger = dict(engine.ledger)
    for spec in scenario.rounds:
        for decl in spec.declarations:
            ledger.setdefault(decl.path, "cancelled")
    return LedgerResolution(resolution, ledger)


SYSTEM = AddictSystem()
