"""Popcorn initiative on Old-School Essentials (``shared/rules/popcorn-initiative-ose.md``).

Every creature rolls 1d20 + DEX (or WIS) once per combat; the highest acts first and each
active creature then nominates who acts next. The scenario's ``turns`` are the order of play
as the DM ran it: this module checks them against the rules, sequences what the rules move
(slow weapons, readied actions), applies outcomes and runs the End of Round (morale,
effect durations). Sections below follow the source's headings.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, ClassVar

from core.model.scenario import (
    Outcome,
    RoundSpec,
    Scenario,
    ScenarioError,
    Turn,
    declared_weapon,
    read_effect,
    read_outcome,
    read_targets,
)
from core.model.values import (
    PARTY_SIDE,
    Combatant,
    CombatantResult,
    Effect,
    Hit,
    Kind,
    Resolution,
    Roll,
    Status,
    Step,
    StepEvent,
    Weapon,
    frozen_mapping,
)
from core.rules.abilities import bx_initiative_modifier, bx_modifier
from core.rules.base import (
    Phase,
    RollRequest,
    RollSource,
    Rule,
    healed,
    parse_options,
    rule_table,
    volley_target,
)
from core.rules.care import Care, Conditions, care_rule_ids, care_rules, read_care
from core.rules.popcorn_attack import cover_penalty

SOURCE = "popcorn-initiative-ose.md"


# --- options ------------------------------------------------------------------------------------

class InitiativeAbility(StrEnum):
    """Which ability score modifies a creature's initiative roll."""

    CHOICE = "choice"
    """The creature's ``initiative_ability`` field ("dex"/"wis"), else the better of the two."""
    DEX = "dex"
    WIS = "wis"


class AbilityTable(StrEnum):
    """Which OSE table turns the score into the initiative modifier."""

    INITIATIVE = "initiative"
    """The OSE DEX initiative column (3: −2 … 18: +2)."""
    MODIFIER = "modifier"
    """The general ability modifier (3: −3 … 18: +3)."""


class TieBreak(StrEnum):
    """How a tie for the highest initiative is settled."""

    PLAYERS_WIN = "players-win"
    REROLL = "reroll"


class ZeroHp(StrEnum):
    """What 0 hit points or less means for a player's creature (monsters always die)."""

    DEATH_SAVES = "death-saves"
    """"For PCs reduced to 0 hit points, see Death"; "PCs have 3 lifetime Death saves": a PC
    with a Death save left spends one and is out of the fight (unconscious), not killed;
    with none left it dies. Henchmen and hirelings die at 0 like monsters."""
    DEAD = "dead"
    """Dead at 0 or less, PCs too (OSE without the group's Death saves)."""
    UNCONSCIOUS = "unconscious"
    """Every player's creature (PCs, henchmen, hirelings) falls unconscious at 0 or less."""


DEATH_SAVES = 3
"""Lifetime Death saves a PC has when the scenario gives none (the source's note)."""


class MoraleChecks(StrEnum):
    """When monsters check morale."""

    EVERY_ROUND = "every-round"
    OFF = "off"


class MoraleFailure(StrEnum):
    """What a monster that fails morale does."""

    FLEES = "flees"
    SURRENDERS = "surrenders"


class FallenNominee(StrEnum):
    """What happens when the creature nominated to act next is down before its turn."""

    CHOOSE_AGAIN = "choose-again"
    """The nominator names another creature (the next turn's actor); nothing is refused."""
    REFUSE = "refuse"
    """The nomination is refused: the DM must change it."""


class SlowWeapons(StrEnum):
    """What happens to a slow-weapon attack taken before every non-waiting creature has acted."""

    DEFER = "defer"
    """The attack is held and resolved as soon as every non-waiting creature has acted."""
    REFUSE = "refuse"
    """The turn is refused: the DM must make the creature wait."""


class ReadiedSlow(StrEnum):
    """When a readied attack with a slow weapon is made once its trigger comes."""

    WAITS = "waits"
    """Like any slow-weapon attack, after every non-waiting creature has taken its turn."""
    AT_ONCE = "at-once"
    """At once, when the trigger comes, as other readied actions."""


@dataclass(frozen=True, slots=True)
class Options:
    """House-rule options for popcorn initiative; every default follows the source text."""

    MEANINGS: ClassVar[dict[str, str]] = {
        "ability_table": (
            "Which OSE table turns Dexterity into the initiative modifier: the DEX initiative "
            "column (3: −2 … 18: +2) or the general ability modifier (3: −3 … 18: +3)."
        ),
        "morale_failure": (
            "What a monster that fails its morale check does: it flees, or it surrenders."
        ),
    }
    """What options with no rule of their own decide, in words (the printed appendix)."""

    initiative_ability: InitiativeAbility = InitiativeAbility.CHOICE
    ability_table: AbilityTable = AbilityTable.INITIATIVE
    ties: TieBreak = TieBreak.PLAYERS_WIN
    pc_zero_hp: ZeroHp = ZeroHp.DEATH_SAVES
    morale: MoraleChecks = MoraleChecks.EVERY_ROUND
    morale_failure: MoraleFailure = MoraleFailure.FLEES
    minimum_damage: bool = True
    slow_weapons: SlowWeapons = SlowWeapons.DEFER
    require_full_rounds: bool = True
    surprised_lose_round: bool = True
    fallen_nominee: FallenNominee = FallenNominee.CHOOSE_AGAIN
    readied_slow_weapons: ReadiedSlow = ReadiedSlow.WAITS


# --- rule catalogue -----------------------------------------------------------------------------

def _rule(rid: str, heading: str, summary: str, option: str | None = None) -> Rule:
    return Rule(f"popcorn.{rid}", SOURCE, heading, summary, option)


RULES = rule_table(
    _rule("spell.heals", "Spell Casting",
          "A healing spell gives its target hit points back when it takes effect, up to the "
          "maximum (a creature already down stays out of the round's order)."),
    _rule("initiative.d20-plus-modifier", "1. Roll Initiative",
          "Each creature rolls 1d20 once at the start of the combat, adding its DEX or WIS "
          "initiative modifier; the roll stands for the whole combat.", "initiative_ability"),
    _rule("initiative.highest-first", "1. Roll Initiative",
          "The creature with the highest initiative takes the first turn of the combat."),
    _rule("initiative.players-win-ties", "1. Roll Initiative",
          "A tie for the highest result between players and monsters goes to the players; "
          "tied creatures of one side choose among themselves.", "ties"),
    _rule("initiative.reroll-ties", "1. Roll Initiative",
          "Optionally, creatures tied across sides roll again until one side is ahead.", "ties"),
    _rule("initiative.newcomer-joins", "1. Roll Initiative",
          "A creature that joins once the combat's first turn is taken rolls its initiative on "
          "arrival; it does not take the first turn, and from its arrival it is one of the "
          "creatures still to act in that round, to be nominated as any other (3. Pass the "
          "Action)."),
    _rule("turn.take-action", "2. Take Action",
          "The active creature takes one action (attack, spell, move, …) and may move."),
    _rule("pass.nominate-next", "3. Pass the Action",
          "After its action the active creature names the next creature to act; a creature "
          "that has already acted this round cannot be named."),
    _rule("pass.last-nominates-next-round", "3. Pass the Action",
          "When every creature has acted, the last one names who acts first next round, "
          "itself included."),
    _rule("pass.fallen-nominee", "3. Pass the Action",
          "Source silent: a nominee that is dead or down before its turn cannot take it; the "
          "nomination passes back and the nominator names another creature (the creature "
          "that acts next). The text has the nominator name who acts, so it chooses again.",
          "fallen_nominee"),
    _rule("pass.fallen-actor", "3. Pass the Action",
          "Source silent: an active creature killed or knocked out during its own turn (a "
          "readied blow) names no one, and a name written down before the blow was known "
          "lapses; the DM gives the next turn to any creature still to act. One that fled on "
          "its turn has finished its action and still names the next."),
    _rule("round.every-creature-acts", "3. Pass the Action",
          "A round lasts until every creature able to act has taken its action.",
          "require_full_rounds"),
    _rule("wait.nominate-another", "Waiting",
          "A creature may wait instead of acting: it names another creature and acts when it "
          "is named again."),
    _rule("wait.must-act", "Waiting",
          "A waiting creature named when every creature still to act is waiting must act."),
    _rule("ready.trigger", "Readying an Action",
          "A creature may ready an action with a trigger; when the trigger happens it may take "
          "that action at once, outside the nomination order."),
    _rule("ready.lapses-when-nominated", "Readying an Action",
          "A readied action not taken by the time its creature is named again is lost."),
    _rule("attack.slow-weapon-last", "Slow Weapons",
          "An attack with a slow weapon happens only once every non-waiting creature has "
          "taken its turn.", "slow_weapons"),
    _rule("ready.slow-weapon-waits", "Slow Weapons",
          "A readied attack with a slow weapon is set off by its trigger but made only once "
          "every non-waiting creature has taken its turn (the text makes no exception for "
          "readied attacks); as an option it is made at once.", "readied_slow_weapons"),
    _rule("attack.per-round", "Attacks Per Round",
          "A creature makes at most its number of attacks in one action (PCs: one)."),
    _rule("attack.split-targets", "Attacks Per Round",
          "A creature's several attacks may be split between listed targets: one at each in "
          "order, the rest at the last; an attack whose target has fallen goes at the next "
          "listed one still standing, or is not made."),
    _rule("attack.natural-1-and-20", "1s and 20s",
          "An unmodified 20 always hits and an unmodified 1 always misses."),
    _rule("attack.range-and-cover", "Targets Behind Cover",
          "A target in complete cover cannot be hit; no missile attack beyond long range; "
          "melee only within 5 feet, missiles only beyond."),
    _rule("attack.minimum-damage", "Rolling for Damage",
          "A hit deals at least 1 point of damage.", "minimum_damage"),
    _rule("attack.invulnerable", "Invulnerabilities",
          "A hit on a creature immune to the attack deals no damage."),
    _rule("death.zero-hp", "Rolling for Damage",
          "A monster reduced to 0 hit points or less is killed; PCs are sent to Death (see "
          "the Death saves); as options PCs die at 0 too, or every player's creature falls "
          "unconscious.", "pc_zero_hp"),
    _rule("death.death-saves", "Rolling for Damage",
          "A PC reduced to 0 hit points or less spends one of its 3 lifetime Death saves and "
          "is out of the fight (unconscious) instead of dying; a PC with none left dies. The "
          "count is kept per PC across fights (the roster's Death saves).", "pc_zero_hp"),
    _rule("move.encounter-rate", "Movement",
          "A creature may move up to its encounter rate on its turn, for at most 60 rounds."),
    _rule("move.fighting-withdrawal", "Movement",
          "In melee, a fighting withdrawal moves back at half the encounter rate."),
    _rule("move.retreat", "Movement",
          "A retreat flees melee at the full rate; for a Duration of 1 round the creature may "
          "not attack (opponents +2 to hit, no shield bonus)."),
    _rule("spell.sole-action", "Spell Casting",
          "A caster neither moves nor takes any other action in the round it casts."),
    _rule("spell.freedom", "Spell Casting",
          "A gagged, bound or silenced creature cannot cast spells."),
    _rule("spell.line-of-sight", "Spell Casting",
          "A spell's target must be visible to the caster unless the spell says otherwise "
          "(the DM marks an unseen target, and a spell that needs no sight)."),
    _rule("attack.range-modifier", "Range Modifiers",
          "A missile attack gets +1 at short range, nothing at medium, −1 at long range; none "
          "is possible beyond long range. Shown when an attack is declared."),
    _rule("attack.partial-cover", "Targets Behind Cover",
          "Against a target in partial cover the referee may apply −1 to −4 to the attack "
          "roll (the DM may give the penalty). Shown when an attack is declared."),
    _rule("attack.ability-modifier", "Attack Rolls",
          "Strength modifies melee attack rolls and Dexterity missile attack rolls (OSE "
          "−3…+3 table). Shown when an attack is declared."),
    _rule("spell.disrupted-before-turn-ends", "Disrupting Spells",
          "A caster successfully attacked (or failing a save) before its turn ends loses the "
          "spell, which is gone from memory as if cast."),
    _rule("end.morale-check", "4. End of Round",
          "At the End of Round every monster checks morale (2d6 over its morale fails).",
          "morale"),
    _rule("end.effect-durations", "Effect Durations",
          "At the End of Round an effect already at Duration 0 expires; every other effect "
          "loses 1 from its Duration. An effect at Duration 0 still runs through that round "
          "(a 1-round spell cast in round 1 lasts all of round 2) and is shown as running "
          "until it expires."),
    _rule("surprise.lose-round", "Combat Order - Popcorn Initiative",
          "Source silent: in a surprise round surprised creatures take no turn (OSE).",
          "surprised_lose_round"),
    *care_rules("popcorn", SOURCE, "2. Take Action"),
)

PHASES = (
    Phase("roll-initiative", "Roll Initiative",
          ("popcorn.initiative.d20-plus-modifier", "popcorn.initiative.highest-first",
           "popcorn.initiative.players-win-ties", "popcorn.initiative.reroll-ties",
           "popcorn.initiative.newcomer-joins")),
    Phase("take-action", "Take Action",
          ("popcorn.turn.take-action", "popcorn.wait.nominate-another", "popcorn.spell.heals",
           "popcorn.care.condition", "popcorn.care.cannot-act",
           "popcorn.ready.trigger", "popcorn.attack.slow-weapon-last",
           "popcorn.ready.slow-weapon-waits")),
    Phase("pass-action", "Pass the Action",
          ("popcorn.pass.nominate-next", "popcorn.pass.last-nominates-next-round",
           "popcorn.pass.fallen-nominee", "popcorn.pass.fallen-actor")),
    Phase("end-of-round", "End of Round",
          ("popcorn.end.morale-check", "popcorn.end.effect-durations")),
)

R_INIT = "popcorn.initiative.d20-plus-modifier"
R_FIRST = "popcorn.initiative.highest-first"
R_TIE = "popcorn.initiative.players-win-ties"
R_REROLL = "popcorn.initiative.reroll-ties"
R_NEWCOMER = "popcorn.initiative.newcomer-joins"
ARRIVES = "arrives"
"""A combatant's field: where it joined a running fight, ``{"round": 2, "after_turns": 1}``
(the round's number and how many of its turns were already written)."""
R_ACTION = "popcorn.turn.take-action"
R_NOMINATE = "popcorn.pass.nominate-next"
R_LAST = "popcorn.pass.last-nominates-next-round"
R_WAIT = "popcorn.wait.nominate-another"
R_FALLEN = "popcorn.pass.fallen-nominee"
R_MUST_ACT = "popcorn.wait.must-act"
R_READY = "popcorn.ready.trigger"
R_LAPSE = "popcorn.ready.lapses-when-nominated"
R_SLOW = "popcorn.attack.slow-weapon-last"
R_READY_SLOW = "popcorn.ready.slow-weapon-waits"
R_ATTACKS = "popcorn.attack.per-round"
R_SPLIT = "popcorn.attack.split-targets"
R_NATURAL = "popcorn.attack.natural-1-and-20"
R_COVER = "popcorn.attack.range-and-cover"
R_MIN_DAMAGE = "popcorn.attack.minimum-damage"
R_IMMUNE = "popcorn.attack.invulnerable"
R_DEATH = "popcorn.death.zero-hp"
R_DEATH_SAVE = "popcorn.death.death-saves"
R_MOVE = "popcorn.move.encounter-rate"
R_WITHDRAW = "popcorn.move.fighting-withdrawal"
R_RETREAT = "popcorn.move.retreat"
R_SOLE = "popcorn.spell.sole-action"
R_FREEDOM = "popcorn.spell.freedom"
R_DISRUPT = "popcorn.spell.disrupted-before-turn-ends"
R_MORALE = "popcorn.end.morale-check"
R_DURATION = "popcorn.end.effect-durations"
R_SURPRISE = "popcorn.surprise.lose-round"
R_CONDITION, R_CANNOT_ACT = care_rule_ids("popcorn")

ATTACKS = frozenset({"attack", "missile"})
MOVES = {"move": "move", "withdraw": "fighting-withdrawal", "retreat": "retreat"}
ACTIONS = frozenset({"attack", "missile", "spell", "move", "withdraw", "retreat", "flee",
                     "parley", "other"})
MAX_MOVE_ROUNDS = 60
RETREAT_EFFECT = "retreat"
FREEDOM_WORDS = ("silence", "gag", "bound")
RANGES = frozenset({"short", "medium", "long", "beyond"})
COVERS = frozenset({"none", "partial", "complete"})


# --- the actions the engine performs ------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _Act:
    """One action to perform: a turn's own, a held slow attack, or a readied one."""

    path: str
    actor: str
    kind: str
    target: str | None
    weapon: Weapon | None
    spell: str | None
    outcome: Outcome
    natural: tuple[int | None, ...]
    effect: Effect | None
    move: str | None
    immune: bool
    fails_save: bool
    moved: int | float | None = None
    """How far the creature says it moved (field ``moved``), within its allowance."""
    targets: tuple[str, ...] = ()
    """Several attacks split between targets (``targets``), in the order listed."""


@dataclass(frozen=True, slots=True)
class _Readied:
    """A readied action waiting for its trigger."""

    path: str
    act: _Act
    trigger: str


@dataclass(slots=True)
class _Reaction:
    """A readied action set off by a turn (its ``triggers`` entry or a ``triggered`` turn)."""

    path: str
    actor: str
    data: Mapping[str, Any]


@dataclass(slots=True)
class _Running:
    """An effect counting down (Effect Durations)."""

    name: str
    remaining: int
    origin: str
    target: str
    retreat: bool = False


def _is_player(c: Combatant) -> bool:
    """Tells whether a creature counts as a player's for ties and morale."""
    return c.side == PARTY_SIDE or c.kind in (Kind.PC, Kind.HENCHMAN, Kind.HIRELING)


def _join(path: str, key: str) -> str:
    return f"{path}.{key}"


class _Engine:
    """Resolves one scenario; holds the state that the rounds fold over."""

    def __init__(self, scenario: Scenario, options: Options, dice: RollSource) -> None:
        self.scenario = scenario
        self.options = options
        self.dice = dice
        self.by_id: dict[str, Combatant] = {c.id: c for c in scenario.combatants}
        self.hp: dict[str, int | None] = {c.id: c.hp for c in scenario.combatants}
        self.status: dict[str, Status] = {c.id: c.status for c in scenario.combatants}
        self.steps: list[Step] = []
        self.rolls: list[Roll] = []
        self.group = 0
        self.readied: dict[str, _Readied] = {}
        self.lapsed: dict[str, str] = {}
        self.effects: list[_Running] = []
        self.effects_on: dict[str, list[_Running]] = {}
        self.memory: dict[str, Counter[str]] = {
            c.id: Counter(s.name for s in c.spells) for c in scenario.combatants if c.spells
        }
        self.move_rounds: Counter[str] = Counter()
        self.initiative: dict[str, int] = {}
        self.saves_left: dict[str, int] = {}
        """PC id → Death saves left after one was spent in this fight."""
        # per round
        self.round_no = 0
        self.surprise = False
        self.to_act: set[str] = set()
        self.waiting: set[str] = set()
        self.next_round_only: set[str] = set()
        """Newcomers added once every creature had acted: in the fight from the next round."""
        self.cast: set[str] = set()
        self.reacted: set[str] = set()
        self.moved: set[str] = set()
        self.held_slow: list[tuple[_Act, list[_Reaction], list[str]]] = []
        self.casting: _Act | None = None
        # Pass the Action: who named the creature due next, and who must choose again
        self.nominated_by: tuple[str, str] | None = None
        self.chooser: tuple[str, str] | None = None
        self.chooser_was: str | None = None
        self.turns_by_path: dict[str, Turn] = {}
        self.disrupted = False
        # Conditions (core.rules.care): read with each action's fields.
        self.conditions = Conditions()
        self.care_of: dict[str, Care] = {}
        self.arrivals = self.read_arrivals()
        """Creature id → (round, turns written before it) for those that joined mid-fight."""

    # --- output helpers ------------------------------------------------------------------------

    def emit(self, actor: str, event: StepEvent, because: Sequence[str], *,
             action: str | None = None, target: str | None = None, same_group: bool = False,
             **detail: Any) -> None:
        """Appends a step; ``same_group`` joins the previous step's group (simultaneous)."""
        if not same_group or not self.steps:
            self.group += 1
        self.steps.append(Step(
            seq=len(self.steps) + 1, actor=actor, event=event, round=self.round_no,
            segment=None, surprise=self.surprise, tu=None, action=action, target=target,
            group=self.group, because=tuple(dict.fromkeys(because)),
            detail=frozen_mapping({k: v for k, v in detail.items() if v is not None}),
        ))

    def die(self, expression: str, given: int | None, purpose: str) -> int:
        """Records a die: the scenario's value (manual) or one rolled from the seed."""
        if given is None:
            roll = self.dice.roll(expression, purpose=purpose)
        else:
            roll = Roll(expression, given, dice=(given,) if expression == "1d20" else (),
                        manual=True, purpose=purpose)
        self.rolls.append(roll)
        return roll.total

    def name(self, cid: str) -> str:
        """Gets the name a DM reads for a creature (its id when the scenario gives none)."""
        c = self.by_id.get(cid)
        return c.name if c is not None and c.name else cid

    def active(self, cid: str) -> bool:
        """Tells whether a creature can still act (not dead, fled, unconscious…)."""
        return self.status.get(cid) == Status.ACTIVE

    def remove(self, cid: str) -> None:
        """Takes a creature out of the creatures still to act this round."""
        self.to_act.discard(cid)
        self.waiting.discard(cid)

    # --- newcomers (1. Roll Initiative; 3. Pass the Action) -------------------------------------

    def read_arrivals(self) -> dict[str, tuple[int, int]]:
        """Reads where each newcomer joined the fight (its ``arrives`` field)."""
        out: dict[str, tuple[int, int]] = {}
        for i, c in enumerate(self.scenario.combatants):
            value = c.extra.get(ARRIVES)
            if value is None:
                continue
            path = f"combatants[{i}].{ARRIVES}"
            at = value.get("round") if isinstance(value, Mapping) else None
            after = value.get("after_turns", 0) if isinstance(value, Mapping) else None
            if (isinstance(at, bool) or not isinstance(at, int) or at < 1
                    or isinstance(after, bool) or not isinstance(after, int) or after < 0):
                raise ScenarioError(path, "expected a round number from 1 and a count of turns "
                                    f"from 0, got {value!r}")
            out[c.id] = (at, after)
        return out

    def arrived(self, cid: str, round_no: int, turns_before: int) -> bool:
        """Tells whether a creature is in the fight once ``turns_before`` turns of round
        ``round_no`` are taken (a newcomer joins at the turn it was added after)."""
        at = self.arrivals.get(cid)
        if at is None or round_no > at[0]:
            return True
        return round_no == at[0] and turns_before >= at[1]

    def newcomer_because(self, cid: str) -> list[str]:
        """Gets the newcomer rule for a creature that joined the running fight."""
        return [R_NEWCOMER] if cid in self.arrivals else []

    # --- 1. Roll Initiative --------------------------------------------------------------------

    def modifier(self, c: Combatant) -> int:
        """Gets the DEX or WIS initiative modifier (1. Roll Initiative; the source's notes)."""
        if c.initiative_adj is not None:
            return c.initiative_adj
        table = (bx_initiative_modifier if self.options.ability_table == AbilityTable.INITIATIVE
                 else bx_modifier)
        dex = None if c.dex is None else table(c.dex)
        wis = None if c.wis is None else table(c.wis)
        ability = self.options.initiative_ability
        if ability == InitiativeAbility.CHOICE:
            chosen = c.extra.get("initiative_ability")
            if chosen in ("dex", "wis"):
                ability = InitiativeAbility(chosen)
            elif chosen is not None:
                raise ScenarioError(f"combatants[{self.scenario.combatants.index(c)}]"
                                    ".initiative_ability", f"expected dex or wis, got {chosen!r}")
            else:
                found = [m for m in (dex, wis) if m is not None]
                return max(found) if found else 0
        value = dex if ability == InitiativeAbility.DEX else wis
        return value or 0

    def roll_initiative(self) -> None:
        """Rolls (or reads) every creature's d20 once for the combat."""
        given = self.scenario.initiative
        for cid, value in given.items():
            if cid not in self.by_id:
                raise ScenarioError(f"initiative.{cid}", f"unknown combatant {cid!r}")
            if not 1 <= value <= 20:
                raise ScenarioError(f"initiative.{cid}", f"a d20 shows 1–20, got {value}")
        for c in self.scenario.combatants:
            if self.active(c.id):
                d20 = self.die("1d20", given.get(c.id), f"initiative {c.id}")
                self.initiative[c.id] = d20 + self.modifier(c)

    def winners(self, eligible: Sequence[str]) -> tuple[frozenset[str], tuple[str, ...]]:
        """Gets who may take the first turn of the combat, and the rules that decided it."""
        scores = {cid: self.initiative[cid] for cid in eligible if cid in self.initiative}
        if not scores:
            return frozenset(eligible), (R_ACTION,)
        top = max(scores.values())
        tied = [cid for cid, s in scores.items() if s == top]
        because: list[str] = [R_FIRST, R_INIT]
        if self.options.ties == TieBreak.REROLL:
            rerolls = self.scenario.raw.get("initiative_rerolls", {})
            if not isinstance(rerolls, Mapping):
                raise ScenarioError("initiative_rerolls", "expected an object of d20 results")
            attempt = 0
            while self.spans_sides(tied) and attempt < 100:
                attempt += 1
                because.append(R_REROLL)
                again = {cid: self.die("1d20", self.reroll_given(rerolls, cid, attempt),
                                       f"initiative reroll {cid}")
                         + self.modifier(self.by_id[cid]) for cid in tied}
                best = max(again.values())
                tied = [cid for cid in tied if again[cid] == best]
        if self.spans_sides(tied):
            because.append(R_TIE)
            tied = [cid for cid in tied if _is_player(self.by_id[cid])]
        return frozenset(tied), tuple(because)

    def spans_sides(self, cids: Sequence[str]) -> bool:
        """Tells whether tied creatures include both players and monsters."""
        kinds = {_is_player(self.by_id[cid]) for cid in cids}
        return len(kinds) > 1

    @staticmethod
    def reroll_given(rerolls: Mapping[str, Any], cid: str, attempt: int) -> int | None:
        """Gets the scenario's n-th reroll for a creature (``initiative_rerolls``), if any."""
        value = rerolls.get(cid)
        path = f"initiative_rerolls.{cid}"
        values = value if isinstance(value, list) else [] if value is None else [value]
        if attempt > len(values):
            return None
        die = values[attempt - 1]
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 20:
            raise ScenarioError(path, f"a d20 shows 1–20, got {die!r}")
        return die

    # --- reading turns -------------------------------------------------------------------------

    def act_from(self, data: Mapping[str, Any], path: str, actor: str,
                 base: _Act | None = None) -> _Act:
        """Reads the action fields of a turn, trigger or readied action."""
        c = self.by_id[actor]
        kind = data.get("action", base.kind if base else None)
        if kind is None:
            kind = "other"
        if not isinstance(kind, str) or kind not in ACTIONS:
            raise ScenarioError(_join(path, "action"),
                                f"unknown action {kind!r} (one of {', '.join(sorted(ACTIONS))})")
        target = data.get("target", base.target if base else None)
        if target is not None and (not isinstance(target, str) or target not in self.by_id):
            raise ScenarioError(_join(path, "target"), f"unknown combatant {target!r}")
        targets = (read_targets(data, path, frozenset(self.by_id))
                   if data.get("targets") is not None else (base.targets if base else ()))
        if targets and kind not in ATTACKS:
            raise ScenarioError(_join(path, "targets"), "several targets are read for attacks "
                                "only (melee or missile): name one target")
        if targets and "target" not in data:
            target = targets[0]
        weapon_name = data.get("weapon")
        if weapon_name is not None and not isinstance(weapon_name, str):
            raise ScenarioError(_join(path, "weapon"),
                                f"expected a weapon name, got {weapon_name!r}")
        weapon = declared_weapon(c, data, path) if weapon_name or base is None else base.weapon
        if weapon_name and c.weapon(weapon_name) is None and c.weapons and data.get(
                "weapon_facts") is None:  # with facts: a weapon picked from the table
            raise ScenarioError(_join(path, "weapon"), f"{actor} has no weapon {weapon_name!r}")
        spell = data.get("spell", base.spell if base else None)
        if spell is not None and not isinstance(spell, str):
            raise ScenarioError(_join(path, "spell"), f"expected a spell name, got {spell!r}")
        outcome = read_outcome(data, path)
        natural = self.naturals(data, path, len(outcome.hits))
        if base is not None and not outcome.hits:
            outcome, natural = base.outcome, base.natural
        move = data.get("move", base.move if base else None)
        if move is True:
            move = "move"
        if move is False:
            move = None
        if move is not None and (not isinstance(move, str) or move not in MOVES):
            raise ScenarioError(_join(path, "move"),
                                f"expected move, withdraw or retreat, got {move!r}")
        effect = read_effect(data, path) if "effect" in data else (base.effect if base else None)
        immune = data.get("immune", base.immune if base else False)
        fails_save = data.get("fails_save", False)
        for key, value in (("immune", immune), ("fails_save", fails_save)):
            if not isinstance(value, bool):
                raise ScenarioError(_join(path, key), f"expected true or false, got {value!r}")
        self.check_attack_limits(data, path, actor, kind, outcome)
        self.check_sight(data, path, kind)
        moved = self.check_moved(data, path, c, move or (kind if kind in MOVES else None))
        self.care_of[path] = read_care(data, path, actor, target, self.by_id.keys())
        return _Act(path, actor, kind, target, weapon, spell, outcome, natural, effect, move,
                    immune, fails_save, moved, targets)

    @staticmethod
    def check_sight(data: Mapping[str, Any], path: str, kind: str) -> None:
        """Refuses a spell at a target the caster cannot see (Spell Casting: Line of sight)."""
        for key in ("target_visible", "sight_needed"):
            if key in data and not isinstance(data[key], bool):
                raise ScenarioError(_join(path, key), f"expected true or false, got {data[key]!r}")
        if (kind == "spell" and data.get("target_visible") is False
                and data.get("sight_needed", True)):
            raise ScenarioError(_join(path, "target_visible"),
                                "a spell's target must be visible to the caster (Spell Casting: "
                                "Line of sight); set sight_needed to false for a spell whose "
                                "description says otherwise")

    @staticmethod
    def check_moved(data: Mapping[str, Any], path: str, c: Combatant,
                    move: str | None) -> int | float | None:
        """Checks a turn's ``moved`` against the encounter rate (half for a withdrawal)."""
        moved = data.get("moved")
        if moved is None:
            return None
        if isinstance(moved, bool) or not isinstance(moved, int | float) or moved < 0:
            raise ScenarioError(_join(path, "moved"), f"expected a distance, got {moved!r}")
        if move is None:
            raise ScenarioError(_join(path, "moved"), "the turn has no movement (move)")
        if c.movement is None:
            return moved
        withdraw = MOVES.get(move, move) == "fighting-withdrawal"
        allowed = c.movement / 2 if withdraw else c.movement
        if moved > allowed:
            how = "a fighting withdrawal at half" if withdraw else "up to"
            raise ScenarioError(_join(path, "moved"),
                                f"{c.label} moves {how} its encounter rate, {allowed:g}, "
                                f"not {moved:g} (Movement)")
        return moved

    def naturals(self, data: Mapping[str, Any], path: str, count: int) -> tuple[int | None, ...]:
        """Reads the unmodified d20 of each attack (``roll``, or ``hits[i].roll``)."""
        raw_hits = data.get("hits")
        if isinstance(raw_hits, list):
            pairs = [(h.get("roll") if isinstance(h, Mapping) else None, f"{path}.hits[{i}]")
                     for i, h in enumerate(raw_hits)]
        else:
            pairs = [(data.get("roll"), path)] * max(count, 1 if "roll" in data else 0)
        out: list[int | None] = []
        for value, where in pairs:
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or not 1 <= value <= 20):
                raise ScenarioError(f"{where}.roll", f"a d20 shows 1–20, got {value!r}")
            out.append(value)
        return tuple(out)

    def check_attack_limits(self, data: Mapping[str, Any], path: str, actor: str, kind: str,
                            outcome: Outcome) -> None:
        """Refuses attacks the attack rules make impossible (per round, range, cover, 1s/20s)."""
        c = self.by_id[actor]
        if outcome.hits and kind not in ATTACKS and kind != "spell":
            raise ScenarioError(_join(path, "hit"), f"a {kind} action makes no attack")
        if kind in ATTACKS and len(outcome.hits) > c.attacks:
            attacks = f"{c.attacks} attack" + ("" if c.attacks == 1 else "s")
            raise ScenarioError(_join(path, "hits"), f"{actor} makes {attacks} a round "
                                f"(Attacks Per Round; a weapon's rate of fire does not count "
                                f"in OSE), not {len(outcome.hits)}")
        rng = data.get("range")
        if rng is not None and (not isinstance(rng, str) or rng not in RANGES):
            raise ScenarioError(_join(path, "range"), f"expected short, medium, long or beyond, "
                                f"got {rng!r}")
        if rng == "beyond" and kind in ATTACKS:
            raise ScenarioError(_join(path, "range"), "no attack is possible beyond long range")
        cover = data.get("cover")
        if cover is not None and (not isinstance(cover, str) or cover not in COVERS):
            raise ScenarioError(_join(path, "cover"), f"expected none, partial or complete, "
                                f"got {cover!r}")
        cover_penalty(data, _join(path, "cover_penalty"))
        if cover == "complete" and any(h.hit for h in outcome.hits):
            raise ScenarioError(_join(path, "cover"), "a target in complete cover cannot be hit")
        distance = data.get("distance")
        if distance is not None:
            if isinstance(distance, bool) or not isinstance(distance, int | float):
                raise ScenarioError(_join(path, "distance"), f"expected feet, got {distance!r}")
            if kind == "attack" and distance > 5:
                raise ScenarioError(_join(path, "distance"),
                                    f"melee needs the foe within 5', got {distance}'")
            if kind == "missile" and distance <= 5:
                raise ScenarioError(_join(path, "distance"),
                                    f"missile attacks need more than 5', got {distance}'")
        for i, (hit, nat) in enumerate(zip(outcome.hits, self.naturals(data, path,
                                                                         len(outcome.hits)),
                                           strict=False)):
            where = f"{path}.hits[{i}].hit" if "hits" in data else f"{path}.hit"
            if nat == 20 and not hit.hit:
                raise ScenarioError(where, "an unmodified 20 always hits")
            if nat == 1 and hit.hit:
                raise ScenarioError(where, "an unmodified 1 always misses")

    def reactions_of(self, data: Mapping[str, Any], path: str) -> list[_Reaction]:
        """Reads a turn's ``triggers``: the readied actions it sets off."""
        raw = data.get("triggers")
        if raw is None:
            return []
        if not isinstance(raw, list):
            raise ScenarioError(_join(path, "triggers"), "expected a list of creatures")
        out: list[_Reaction] = []
        for i, item in enumerate(raw):
            where = f"{path}.triggers[{i}]"
            entry: Mapping[str, Any] = {"actor": item} if isinstance(item, str) else item
            if not isinstance(entry, Mapping):
                raise ScenarioError(where, f"expected a creature id or an object, got {item!r}")
            actor = entry.get("actor")
            if not isinstance(actor, str) or actor not in self.by_id:
                raise ScenarioError(_join(where, "actor") if isinstance(item, Mapping) else where,
                                    f"unknown combatant {actor!r}")
            out.append(_Reaction(where, actor, entry))
        return out

    # --- outcomes ------------------------------------------------------------------------------

    def damage(self, target: str, amount: int, because: Sequence[str]) -> None:
        """Takes hit points off a creature and kills it at 0 or less (Rolling for Damage)."""
        hp = self.hp.get(target)
        if hp is None or amount <= 0:
            return
        self.hp[target] = hp - amount
        if hp - amount > 0 or not self.active(target):
            return
        c = self.by_id[target]
        rule = self.options.pc_zero_hp
        if _is_player(c) and rule == ZeroHp.UNCONSCIOUS:
            self.status[target] = Status.UNCONSCIOUS
        elif c.kind is Kind.PC and rule == ZeroHp.DEATH_SAVES and self.death_saves(c) > 0:
            # Rolling for Damage: "For PCs reduced to 0 hit points, see Death"; "PCs have 3
            # lifetime Death saves": one is spent and the PC is out of the fight, alive.
            self.saves_left[target] = self.death_saves(c) - 1
            self.status[target] = Status.UNCONSCIOUS
            self.mark_death_save(target)
        else:
            self.status[target] = Status.DEAD
            why = [R_DEATH_SAVE] if c.kind is Kind.PC and rule == ZeroHp.DEATH_SAVES else []
            self.emit(target, StepEvent.DIES, [R_DEATH, *why, *because], hp=self.hp[target],
                      death_saves_left=0 if why else None)
        self.remove(target)

    def death_saves(self, c: Combatant) -> int:
        """Gets a PC's lifetime Death saves left (its ``death_saves``; 3 when not given)."""
        if c.id in self.saves_left:
            return self.saves_left[c.id]
        given = c.extra.get("death_saves")
        if given is None:
            return DEATH_SAVES
        if isinstance(given, bool) or not isinstance(given, int) or given < 0:
            where = f"combatants[{self.scenario.combatants.index(c)}].death_saves"
            raise ScenarioError(where, f"expected the Death saves left (0 or more), got "
                                f"{given!r}")
        return given

    def mark_death_save(self, target: str) -> None:
        """Notes on the step that felled ``target`` that it spent a Death save (the results
        lower the roster's count from it)."""
        for i in range(len(self.steps) - 1, -1, -1):
            step = self.steps[i]
            if step.target == target and step.event in (StepEvent.HITS,
                                                        StepEvent.SPELL_TAKES_EFFECT):
                detail = {**step.detail, "death_save": True,
                          "death_saves_left": self.saves_left[target]}
                self.steps[i] = replace(step, because=tuple(dict.fromkeys(
                    (*step.because, R_DEATH_SAVE))), detail=frozen_mapping(detail))
                return

    def hit_damage(self, act: _Act, hit: Hit) -> tuple[int, list[str]]:
        """Gets the damage a recorded hit deals, with the rules that shaped it."""
        if not hit.hit:
            return 0, []
        if act.immune:
            return 0, [R_IMMUNE]
        if self.options.minimum_damage and hit.damage < 1:
            return 1, [R_MIN_DAMAGE]
        return hit.damage, []

    def apply_conditions(self, act: _Act) -> None:
        """Starts or ends the conditions an action names once it has taken effect."""
        care = self.care_of.get(act.path)
        if not care:
            return
        for change in care.conditions:
            if change.ends:
                if self.conditions.end(change.target, change.name):
                    self.emit(change.target, StepEvent.CONDITION_ENDS, [R_CONDITION],
                              same_group=True, condition=change.name, by=act.actor)
                continue
            until = None if change.rounds is None else self.round_no + change.rounds
            self.conditions.start(change.target, change.name, until)
            self.emit(change.target, StepEvent.CONDITION_STARTS, [R_CONDITION],
                      same_group=True, condition=change.name, by=act.actor,
                      rounds=change.rounds)
            if self.conditions.blocking(change.target) is not None:
                self.remove(change.target)  # it takes no turn while the condition lasts

    def start_effect(self, act: _Act, because: Sequence[str]) -> None:
        """Starts the effect an action names (Effect Durations)."""
        self.apply_conditions(act)
        if act.effect is None:
            return
        target = act.effect.target or act.target or act.actor
        if target not in self.by_id:
            raise ScenarioError(f"{act.path}.effect.target", f"unknown combatant {target!r}")
        self.add_effect(_Running(act.effect.name, act.effect.duration, act.actor, target))

    def add_effect(self, effect: _Running) -> None:
        """Starts counting an effect down, indexed by the creature it affects."""
        self.effects.append(effect)
        self.effects_on.setdefault(effect.target, []).append(effect)

    def has_effect(self, cid: str, test: Any) -> bool:
        """Tells whether a running effect on ``cid`` passes ``test``."""
        return any(test(e) for e in self.effects_on.get(cid, ()))

    # --- 2. Take Action ------------------------------------------------------------------------

    def perform(self, act: _Act, because: Sequence[str], reactions: list[_Reaction],
                ) -> None:
        """Resolves one action; readied actions it triggers come right after its first step."""
        pending = list(reactions)

        def after_first_step() -> bool:
            """Runs the triggered readied actions once; tells whether the actor goes on."""
            while pending:
                self.react(pending.pop(0), act)
            return self.active(act.actor)

        kind = act.kind
        if act.move is not None or kind in MOVES:
            move = MOVES.get(act.move or kind, act.move or kind)
            if kind == "spell":
                raise ScenarioError(f"{act.path}.move", "a caster cannot move in the round it "
                                    "casts (Spell Casting)")
            if kind in ATTACKS and move == "retreat":
                raise ScenarioError(f"{act.path}.action", "a retreating creature may not "
                                    "attack (Movement: Retreat)")
            self.moves(act, move, because)
            if not after_first_step():
                return
        if kind in ATTACKS:
            self.attack(act, because, after_first_step)
        elif kind == "spell":
            self.spell(act, because, after_first_step)
        elif kind not in MOVES:
            event = {"flee": StepEvent.FLEES, "parley": StepEvent.PARLEYS}.get(kind, StepEvent.ACTS)
            self.emit(act.actor, event, [*because, R_ACTION], action=kind, target=act.target,
                      turn=act.path)
            if kind == "flee":
                self.status[act.actor] = Status.FLED
                self.remove(act.actor)
            after_first_step()
        if kind != "spell" and self.active(act.actor):
            self.start_effect(act, because)
        after_first_step()

    def moves(self, act: _Act, move: str, because: Sequence[str]) -> None:
        """Moves a creature (Movement: outside of melee, fighting withdrawal, retreat)."""
        if act.actor not in self.moved:
            self.moved.add(act.actor)
            self.move_rounds[act.actor] += 1
            if self.move_rounds[act.actor] > MAX_MOVE_ROUNDS:
                raise ScenarioError(f"{act.path}.action", f"{act.actor} may move at the "
                                    f"encounter rate for at most {MAX_MOVE_ROUNDS} rounds")
        rate: int | float | None = self.by_id[act.actor].movement
        if act.moved is not None:
            rate = act.moved  # what the DM recorded, already checked against the allowance
        if move == "fighting-withdrawal":
            distance = act.moved if act.moved is not None else (
                None if rate is None else int(rate) // 2)
            self.emit(act.actor, StepEvent.MOVES, [*because, R_WITHDRAW], action=act.kind,
                      target=act.target, movement=move, distance=distance, turn=act.path)
        elif move == "retreat":
            self.emit(act.actor, StepEvent.FLEES, [*because, R_RETREAT], action=act.kind,
                      target=act.target, movement=move, distance=rate, turn=act.path)
            # Movement, Retreat: "for a Duration of 1 Round" counts down like any effect.
            self.add_effect(_Running(RETREAT_EFFECT, 1, act.actor, act.actor, retreat=True))
        else:
            self.emit(act.actor, StepEvent.MOVES, [*because, R_MOVE], action=act.kind,
                      target=act.target, movement=move, distance=rate, turn=act.path)

    def attack(self, act: _Act, because: Sequence[str],
               after_first_step: Callable[[], bool]) -> None:
        """Resolves one attack step per recorded attack (or one ``attacks`` step)."""
        if self.has_effect(act.actor, lambda e: e.retreat):
            raise ScenarioError(f"{act.path}.action", f"{act.actor} retreated and may not "
                                "attack for a Duration of 1 round (Movement: Retreat)")
        weapon = act.weapon.name if act.weapon else None
        rules = [*because, R_ACTION]
        if act.outcome.hits and act.target is None:
            raise ScenarioError(f"{act.path}.target", "a recorded attack needs a target")
        if not act.outcome.hits:
            self.emit(act.actor, StepEvent.ATTACKS, rules, action=act.kind, target=act.target,
                      weapon=weapon, turn=act.path)
            after_first_step()
            return
        for i, hit in enumerate(act.outcome.hits):
            if not self.active(act.actor):
                return
            nat = act.natural[i] if i < len(act.natural) else None
            extra = [R_NATURAL] if nat in (1, 20) else []
            if len(act.outcome.hits) > 1:
                extra.append(R_ATTACKS)
            target = act.target
            aimed: dict[str, Any] = {}
            if len(act.targets) > 1:
                # Several attacks split between targets: the i-th at the i-th listed one.
                target, fallen = volley_target(act.targets, i, self.active)
                if target is None:
                    return  # every listed target left has fallen: the attack is not made
                extra.append(R_SPLIT)
                if fallen is not None:
                    aimed["instead_of"] = fallen
            assert target is not None
            if hit.hit:
                amount, why = self.hit_damage(act, hit)
                hp = self.hp.get(target)
                self.emit(act.actor, StepEvent.HITS, [*rules, *extra, *why], action=act.kind,
                          target=target, weapon=weapon, damage=amount, roll=nat,
                          hp=None if hp is None else hp - amount, turn=act.path, **aimed)
                self.disrupt(target, act.actor)
                self.damage(target, amount, [])
            else:
                self.emit(act.actor, StepEvent.MISSES, [*rules, *extra], action=act.kind,
                          target=target, weapon=weapon, roll=nat, turn=act.path, **aimed)
            if i == 0 and not after_first_step():
                return

    def spell(self, act: _Act, because: Sequence[str],
              after_first_step: Callable[[], bool]) -> None:
        """Casts a spell; readied actions that hit the caster first disrupt it."""
        caster = act.actor
        if caster in self.reacted:
            raise ScenarioError(f"{act.path}.action", f"{caster} already took a readied action "
                                "this round; casting is a sole action (Spell Casting)")
        if self.has_effect(caster, lambda e: any(w in e.name.lower() for w in FREEDOM_WORDS)):
            raise ScenarioError(f"{act.path}.action", f"{caster} is gagged, bound or silenced "
                                "and cannot cast (Spell Casting: Freedom)")
        memory = self.memory.get(caster)
        if memory is not None and act.spell is not None:
            if memory[act.spell] < 1:
                raise ScenarioError(f"{act.path}.spell",
                                    f"{caster} has no {act.spell!r} left in memory")
            # Disrupting Spells: a lost spell is gone "as if it had been cast", so either way
            # the memory is spent when casting begins.
            memory[act.spell] -= 1
        self.cast.add(caster)
        self.emit(caster, StepEvent.BEGINS_CASTING, [*because, R_ACTION], action="spell",
                  target=act.target, spell=act.spell, turn=act.path)
        outer = self.casting
        if outer is None:
            self.casting, self.disrupted = act, False
        alive = after_first_step()
        disrupted = self.disrupted
        if outer is None:
            self.casting, self.disrupted = None, False
        if disrupted or not alive:
            return
        amount = act.outcome.damage
        target = act.target
        hp = None if target is None else self.hp.get(target)
        extra: dict[str, Any] = {"hp": None if hp is None or not amount else hp - amount}
        heal = act.outcome.heal
        if heal and target is not None and hp is not None and self.status[target] is not (
                Status.DEAD):
            after = healed(hp, self.by_id[target].max_hp, heal)
            assert after is not None
            self.hp[target] = after
            extra = {"healed": after - hp, "hp": after}
            because = ["popcorn.spell.heals", *because]
        self.emit(caster, StepEvent.SPELL_TAKES_EFFECT, [*because, R_ACTION], action="spell",
                  target=target, spell=act.spell, damage=amount or None, turn=act.path,
                  **extra)
        if target is not None and (amount or act.fails_save):
            self.disrupt(target, caster)
        if target is not None and amount:
            self.damage(target, amount, [])
        self.start_effect(act, because)

    def disrupt(self, target: str, by: str) -> None:
        """Disrupts the spell being cast if its caster was just attacked (Disrupting Spells)."""
        casting = self.casting
        if casting is None or target != casting.actor or by == target or self.disrupted:
            return
        self.disrupted = True
        self.emit(target, StepEvent.SPELL_DISRUPTED, [R_DISRUPT, R_READY], action="spell",
                  target=casting.target, spell=casting.spell, by=by, turn=casting.path)

    # --- Readying an Action --------------------------------------------------------------------

    def react(self, reaction: _Reaction, trigger: _Act) -> None:
        """Takes a readied action set off by the trigger's turn (Readying an Action)."""
        cid, path = reaction.actor, reaction.path
        readied = self.readied.get(cid)
        if readied is None:
            why = ("its readied action lapsed when it was nominated again"
                   if cid in self.lapsed else "it has no readied action")
            raise ScenarioError(path, f"{self.name(cid)} cannot be triggered: {why}")
        if not self.active(cid):
            raise ScenarioError(path, f"{self.name(cid)} is {self.status[cid]} and cannot act")
        if cid in self.cast:
            raise ScenarioError(path,
                                f"{self.name(cid)} cast a spell this round; casting is a "
                                "sole action (Spell Casting)")
        del self.readied[cid]
        act = self.act_from(reaction.data, path, cid, base=readied.act)
        slow = (act.kind in ATTACKS and act.weapon is not None and act.weapon.slow
                and self.options.readied_slow_weapons == ReadiedSlow.WAITS
                and len(self.to_act) > len(self.waiting))
        self.emit(cid, StepEvent.READIED_TRIGGERS, [R_READY, *([R_READY_SLOW] if slow else [])],
                  action=act.kind, target=act.target, trigger=readied.trigger,
                  triggered_by=trigger.actor, turn=path, held=True if slow else None)
        if slow:
            # Slow Weapons: "may only attack after all non-waiting creatures have taken their
            # turn" — a readied blow is no exception; it is held like any slow attack.
            self.reacted.add(cid)
            self.held_slow.append((act, [], [R_SLOW, R_READY_SLOW, R_READY]))
            return
        self.perform(act, [R_READY], [])
        self.reacted.add(cid)
        if act.fails_save and act.target is not None and act.kind != "spell":
            self.disrupt(act.target, cid)

    # --- a whole round -------------------------------------------------------------------------

    def surprised_in(self, rnd: RoundSpec) -> list[str]:
        """Gets the creatures that lose a surprise round (source silent; OSE surprise)."""
        if not rnd.surprise or not self.options.surprised_lose_round:
            return []
        out = []
        for c in self.scenario.combatants:
            d6 = self.scenario.surprise.get(c.side)
            if d6 is not None and not 1 <= d6 <= 6:
                raise ScenarioError(f"surprise.{c.side}", f"a d6 shows 1–6, got {d6}")
            if self.active(c.id) and (c.surprised or (c.surprised is None and d6 is not None
                                                      and d6 <= 2)):
                out.append(c.id)
        return out

    def plays(self, rnd: RoundSpec) -> list[tuple[Turn, list[_Reaction]]]:
        """Groups a round's turns with the readied actions each one triggers."""
        out: list[tuple[Turn, list[_Reaction]]] = []
        for turn in rnd.turns:
            triggered = turn.raw.get("triggered", False)
            if not isinstance(triggered, bool):
                raise ScenarioError(f"{turn.path}.triggered", f"expected true or false, "
                                    f"got {triggered!r}")
            if triggered:
                if not out:
                    raise ScenarioError(f"{turn.path}.triggered", "a triggered readied action "
                                        "must follow the turn that triggers it")
                out[-1][1].append(_Reaction(turn.path, turn.actor, turn.raw))
                continue
            out.append((turn, self.reactions_of(turn.raw, turn.path)))
        return out

    def play_round(self, index: int, rnd: RoundSpec, first: frozenset[str] | None,
                   first_because: tuple[str, ...], first_why: str, last_round: bool,
                   ) -> tuple[frozenset[str] | None, tuple[str, ...], str]:
        """Plays one round of turns; returns who must act first in the next round."""
        self.round_no = index + 1
        self.surprise = rnd.surprise
        if rnd.initiative:
            raise ScenarioError(f"{rnd.path}.initiative", "popcorn rolls initiative once per "
                                "combat: give it in the top-level initiative")
        if rnd.declarations:
            raise ScenarioError(f"{rnd.path}.declarations", "popcorn plays turns in order of "
                                "play: write them as turns")
        surprised = self.surprised_in(rnd)
        for cid in surprised:
            self.emit(cid, StepEvent.SURPRISED, [R_SURPRISE])
        lost = set(surprised)
        for c in self.scenario.combatants:  # asleep, held…: no turn this round
            why = self.conditions.blocking(c.id)
            if why is not None and self.active(c.id) and c.id not in lost:
                self.emit(c.id, StepEvent.CANNOT_ACT, [R_CANNOT_ACT], condition=why)
                lost.add(c.id)
        self.to_act = {c.id for c in self.scenario.combatants
                       if self.active(c.id) and c.id not in lost
                       and self.arrived(c.id, self.round_no, 0)}
        # Newcomers of this round join the creatures still to act before the turn they were
        # added before; the turn they were added after may still name them (3. Pass the
        # Action). One added once every creature has acted joins the next round.
        joining = {cid: at[1] for cid, at in self.arrivals.items()
                   if at[0] == self.round_no and at[1] > 0 and cid not in lost}
        index_of = {t.path: i for i, t in enumerate(rnd.turns)}
        self.waiting = set()
        self.next_round_only = set()
        self.cast, self.reacted, self.moved = set(), set(), set()
        self.held_slow = []
        acted: set[str] = set()
        expected, because, why = first, first_because, first_why
        if expected is not None and not any(self.active(cid) for cid in expected):
            expected = self.fallen(expected, acted)
            if expected is not None:
                why = f"{self.name(self.chooser_was or '')} named who acts first instead"
        next_first: frozenset[str] | None = None
        next_because: tuple[str, ...] = (R_ACTION,)
        next_why = ""
        for turn, reactions in self.plays(rnd):
            cid, path = turn.actor, turn.path
            self.turns_by_path[path] = turn
            index = index_of[path]
            self.join(joining, index)
            if not self.arrived(cid, self.round_no, index):
                raise ScenarioError(f"{path}.actor",
                                    f"{self.name(cid)} has not joined the fight yet")
            if not self.active(cid):
                raise ScenarioError(f"{path}.actor",
                                    f"{self.name(cid)} is {self.status[cid]} and cannot act")
            held = self.conditions.blocking(cid)
            if held is not None:
                raise ScenarioError(f"{path}.actor", f"{self.name(cid)} is {held} and cannot act")
            if cid in lost:
                raise ScenarioError(f"{path}.actor",
                                    f"{self.name(cid)} is surprised and loses this round")
            if cid in acted:
                raise ScenarioError(f"{path}.actor", f"{self.name(cid)} already acted this round")
            if expected is not None and not any(self.active(e) for e in expected):
                expected = self.fallen(expected, acted)
                if expected is not None:
                    why = f"{self.name(self.chooser_was or cid)} named the next creature instead"
            if expected is not None and cid not in expected:
                names = " or ".join(sorted(self.name(e) for e in expected))
                raise ScenarioError(f"{path}.actor",
                                    f"{why}: {names} acts now, not {self.name(cid)}")
            if self.chooser is not None and expected is None:
                # Pass the Action: the nominator of a fallen creature chooses again; the turn
                # that follows is its new choice.
                by, by_path = self.chooser
                if self.status[by] not in (Status.DEAD, Status.UNCONSCIOUS):
                    self.emit(by, StepEvent.NOMINATES, [R_FALLEN, R_NOMINATE], target=cid,
                              turn=by_path, chosen_again=True)
            self.chooser = None
            turn_because = [*because, *self.lapse(cid, path)]
            self.turn(turn, reactions, turn_because)
            acted_now = cid not in self.waiting
            if acted_now:
                acted.add(cid)
            expected, because, why = None, (R_ACTION,), ""
            nominee = turn.nominates
            round_over = not self.to_act
            if self.status[cid] in (Status.DEAD, Status.UNCONSCIOUS):
                # popcorn.pass.fallen-actor: a creature that fled on its own turn has finished
                # its action and still passes it on; one killed during its turn cannot. A name
                # the DM wrote down with the turn, before its readied blow was known, lapses:
                # the DM gives the next turn to any creature still to act.
                nominee = None
            if nominee is not None:
                npath = f"{path}.nominates"
                if not self.active(nominee):
                    if self.options.fallen_nominee == FallenNominee.REFUSE:
                        raise ScenarioError(npath,
                                            f"{self.name(nominee)} is {self.status[nominee]} and "
                                            "cannot be nominated")
                    # The nominee was picked before the blow was known (Pass the Action).
                    self.emit(cid, StepEvent.NOMINATES, [R_NOMINATE, R_FALLEN], target=nominee,
                              turn=path, nominee_fell=str(self.status[nominee]))
                    self.chooser = (cid, path)
                    again = self.named_again(turn, round_over, acted)
                    if again is not None and round_over:
                        next_first, next_because = again, (R_FALLEN, R_NOMINATE)
                        next_why = f"{self.name(cid)} named who acts first instead"
                    elif again is not None:
                        expected, because = again, (R_FALLEN, R_NOMINATE)
                        why = f"{self.name(cid)} named the next creature instead"
                    elif round_over:
                        next_first, next_because, next_why = None, (R_ACTION,), ""
                    self.flush_slow()
                    continue
                held = self.conditions.blocking(nominee)
                if held is not None and (not round_over or self.conditions.lasts_beyond(
                        nominee, self.round_no)):
                    raise ScenarioError(npath, f"{self.name(nominee)} is {held} and cannot be "
                                        "nominated")
                if round_over:
                    self.emit(cid, StepEvent.NOMINATES, [R_LAST, R_NOMINATE, *self.lapse(nominee,
                                                                                     npath)],
                              target=nominee, turn=path)
                    next_first, next_because = frozenset({nominee}), (R_LAST, R_NOMINATE)
                    self.nominated_by = (cid, path)
                    next_why = f"{self.name(cid)} named who acts first this round"
                else:
                    if nominee == cid:
                        raise ScenarioError(npath,
                                            f"{self.name(cid)} cannot nominate itself while others "
                                            "are still to act")
                    if nominee in lost:
                        raise ScenarioError(npath,
                                            f"{self.name(nominee)} is surprised and loses this "
                                            "round")
                    if not self.arrived(nominee, self.round_no, index + 1):
                        raise ScenarioError(npath,
                                            f"{self.name(nominee)} has not joined the fight yet")
                    self.join(joining, index + 1)  # those added after this turn may be named
                    if nominee in acted or nominee not in self.to_act:
                        raise ScenarioError(npath,
                                            f"{self.name(nominee)} already acted this round and "
                                            "cannot be nominated")
                    rules = [R_NOMINATE, R_WAIT] if not acted_now else [R_NOMINATE]
                    if self.held_slow and self.held_slow[-1][0].path == path:
                        rules.append(R_SLOW)
                    rules += self.lapse(nominee, npath) + self.newcomer_because(nominee)
                    self.emit(cid, StepEvent.NOMINATES, rules, target=nominee, turn=path)
                    expected, because = frozenset({nominee}), (R_NOMINATE,)
                    self.nominated_by = (cid, path)
                    why = f"{self.name(cid)} named the next creature"
            elif not acted_now and len(self.to_act) <= 1:
                raise ScenarioError(f"{path}.nominates", "a waiting creature must nominate "
                                    "another creature")
            self.flush_slow()
        self.flush_slow()
        self.join(joining, len(rnd.turns))
        if self.to_act:
            if self.options.require_full_rounds and not last_round:
                names = ", ".join(sorted(self.name(e) for e in self.to_act))
                raise ScenarioError(f"{rnd.path}.turns", f"the round ends before every creature "
                                    f"has acted: {names} still to act (3. Pass the Action)")
            if not self.options.require_full_rounds:
                self.end_of_round(rnd)
        else:
            self.end_of_round(rnd)
        return next_first, next_because, next_why

    def join(self, joining: dict[str, int], index: int) -> None:
        """Adds this round's newcomers due by turn ``index`` to the creatures still to act,
        while the round runs (once every creature has acted they wait for the next round)."""
        for cid, at in list(joining.items()):
            if at <= index:
                del joining[cid]
                if self.active(cid) and self.to_act:
                    self.to_act.add(cid)
                else:
                    self.next_round_only.add(cid)

    def fallen(self, expected: frozenset[str], acted: set[str]) -> frozenset[str] | None:
        """Notes that the nominee fell before its turn; its nominator chooses again (the
        choice its turn saved as ``nominates_again``, if the DM made it already)."""
        if self.options.fallen_nominee == FallenNominee.REFUSE or self.nominated_by is None:
            return None
        by, path = self.nominated_by
        for nominee in sorted(expected):
            self.emit(by, StepEvent.NOMINATES, [R_FALLEN], target=nominee, turn=path,
                      nominee_fell=str(self.status[nominee]))
        self.chooser = (by, path)
        self.chooser_was = by
        turn = self.turns_by_path.get(path)
        return self.named_again(turn, False, acted) if turn is not None else None

    def named_again(self, turn: Turn, round_over: bool,
                    acted: set[str]) -> frozenset[str] | None:
        """Gets the creature ``turn``'s actor names instead of its fallen nominee (its
        ``nominates_again``), with its step; None when the DM has not chosen yet."""
        again = turn.nominates_again
        if again is None or self.chooser is None:
            return None
        path = f"{turn.path}.nominates_again"
        if not self.active(again):
            raise ScenarioError(path, f"{self.name(again)} is {self.status[again]} and cannot "
                                "be nominated")
        if not round_over and (again in acted or again not in self.to_act):
            raise ScenarioError(path, f"{self.name(again)} already acted this round and "
                                "cannot be nominated")
        by, by_path = self.chooser
        self.emit(by, StepEvent.NOMINATES, [R_FALLEN, R_NOMINATE], target=again,
                  turn=by_path, chosen_again=True)
        self.chooser = None
        return frozenset({again})

    def lapse(self, cid: str, path: str) -> list[str]:
        """Drops a readied action whose creature is named again (Readying an Action)."""
        if cid not in self.readied:
            return []
        self.lapsed[cid] = path
        del self.readied[cid]
        return [R_LAPSE]

    def turn(self, turn: Turn, reactions: list[_Reaction], because: list[str]) -> None:
        """Plays one turn: waiting, readying, or taking an action."""
        cid, path = turn.actor, turn.path
        data = turn.raw
        if turn.waits and turn.ready is not None:
            raise ScenarioError(f"{path}.ready", "a creature either waits or readies an action")
        if turn.waits:
            if cid in self.waiting and len(self.to_act) == len(self.waiting):
                raise ScenarioError(f"{path}.waits",
                                    f"{self.name(cid)} was nominated while waiting and "
                                    "every creature still to act is waiting: it must act now")
            if turn.outcome.hits:
                raise ScenarioError(f"{path}.hit", "a waiting creature attacks only when it "
                                    "is nominated again")
            if turn.nominates == cid:
                raise ScenarioError(f"{path}.nominates", "a waiting creature nominates another "
                                    "creature")
            self.emit(cid, StepEvent.WAITS, [*because, R_WAIT], action=turn.action,
                      target=turn.target, turn=path)
            self.waiting.add(cid)
            for reaction in reactions:
                self.react(reaction, self.act_from({}, path, cid))
            return
        if cid in self.waiting and len(self.to_act) == len(self.waiting):
            because.append(R_MUST_ACT)
        act = self.act_from(data, path, cid)
        self.remove(cid)
        if turn.ready is not None:
            self.emit(cid, StepEvent.READIES, [*because, R_READY], action=act.kind,
                      target=act.target, trigger=turn.ready, turn=path)
            self.readied[cid] = _Readied(path, act, turn.ready)
            self.lapsed.pop(cid, None)
            for reaction in reactions:
                self.react(reaction, act)
            return
        if act.kind in ATTACKS and act.weapon is not None and act.weapon.slow:
            # Slow Weapons: the attack waits for every creature that is not waiting.
            if len(self.to_act) > len(self.waiting):
                if self.options.slow_weapons == SlowWeapons.REFUSE:
                    raise ScenarioError(f"{path}.weapon", f"{act.weapon.name} is slow: "
                                        f"{self.name(cid)} may attack only after every non-waiting "
                                        "creature has acted (wait instead)")
                self.held_slow.append((act, reactions, [R_SLOW]))
                return
            because.append(R_SLOW)
        self.perform(act, because, reactions)

    def flush_slow(self) -> None:
        """Resolves held slow-weapon attacks once every non-waiting creature has acted."""
        if not self.held_slow or len(self.to_act) > len(self.waiting):
            return
        held, self.held_slow = self.held_slow, []
        for act, reactions, because in held:
            if self.active(act.actor):
                self.perform(act, because, reactions)

    # --- 4. End of Round -----------------------------------------------------------------------

    def end_of_round(self, rnd: RoundSpec) -> None:
        """Runs the End of Round: monster morale, then effect durations."""
        given = rnd.raw.get("morale", {})
        mpath = f"{rnd.path}.morale"
        if not isinstance(given, Mapping):
            raise ScenarioError(mpath, "expected an object of 2d6 results")
        checks = [c for c in self.scenario.combatants
                  if self.options.morale == MoraleChecks.EVERY_ROUND and not _is_player(c)
                  and c.morale is not None and self.active(c.id)
                  and self.arrived(c.id, self.round_no, len(rnd.turns))
                  and c.id not in self.next_round_only]
        checking = {c.id for c in checks}
        for cid, value in given.items():
            if cid not in self.by_id:
                raise ScenarioError(f"{mpath}.{cid}", f"unknown combatant {cid!r}")
            if isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= 12:
                raise ScenarioError(f"{mpath}.{cid}", f"2d6 shows 2–12, got {value!r}")
            if cid not in checking:
                raise ScenarioError(f"{mpath}.{cid}", f"{cid} makes no morale check (only "
                                    "active monsters with a morale score do)")
        for c in checks:
            assert c.morale is not None
            roll = self.die("2d6", given.get(c.id), f"morale {c.id}")
            fails = roll > c.morale
            self.emit(c.id, StepEvent.MORALE_CHECK, [R_MORALE], roll=roll, morale=c.morale,
                      result="fails" if fails else "holds")
            if fails:
                if self.options.morale_failure == MoraleFailure.SURRENDERS:
                    self.status[c.id] = Status.SURRENDERED
                else:
                    self.status[c.id] = Status.FLED
                    self.emit(c.id, StepEvent.FLEES, [R_MORALE])
        # Effect Durations: one already at 0 expires, every other loses 1 (checked before the
        # countdown, so a 1-round effect lasts through the next round).
        first = True
        kept: list[_Running] = []
        for e in self.effects:
            if e.remaining <= 0:
                self.emit(e.origin, StepEvent.EFFECT_EXPIRES, [R_DURATION], target=e.target,
                          same_group=not first, effect=e.name)
                first = False
            else:
                e.remaining -= 1
                kept.append(e)
        self.effects = kept
        self.effects_on = {}
        for e in kept:
            self.effects_on.setdefault(e.target, []).append(e)
        for n, (cid, name) in enumerate(self.conditions.due(self.round_no)):
            self.emit(cid, StepEvent.CONDITION_ENDS, [R_CONDITION], same_group=n > 0,
                      condition=name)

    # --- the whole combat ----------------------------------------------------------------------

    def run(self) -> Resolution:
        """Resolves every round and gathers the end state."""
        for c in self.scenario.combatants:
            if c.kind is Kind.PC:
                self.death_saves(c)  # a bad count is refused up front, naming its field
        self.roll_initiative()
        rounds = self.scenario.rounds
        expected: frozenset[str] | None = None
        because: tuple[str, ...] = (R_ACTION,)
        why = ""
        for i, rnd in enumerate(rounds):
            if i == 0:
                lost = set(self.surprised_in(rnd))
                # a newcomer added once the first turn is written does not take it
                eligible = [c.id for c in self.scenario.combatants
                            if self.active(c.id) and c.id not in lost
                            and self.arrived(c.id, 1, 0)]
                expected, because = self.winners(eligible)
                best = max((self.initiative.get(cid, 0) for cid in expected), default=0)
                why = f"the initiative winner takes the first turn (total {best})"
            expected, because, why = self.play_round(i, rnd, expected, because, why,
                                                     i == len(rounds) - 1)
        return Resolution(
            system=SYSTEM.id,
            steps=tuple(self.steps),
            combatants={c.id: CombatantResult(self.hp[c.id], self.status[c.id])
                        for c in self.scenario.combatants},
            rolls=tuple(self.rolls),
        )


@dataclass(frozen=True, slots=True)
class InitiativeTotal:
    """One creature's initiative for the combat: the d20, its modifier and the total."""

    actor: str
    d20: int
    modifier: int

    @property
    def total(self) -> int:
        """Gets the d20 plus the modifier."""
        return self.d20 + self.modifier


@dataclass(frozen=True, slots=True)
class InitiativeStanding:
    """The initiative totals, highest first, who opens the combat, and the rules that decided."""

    totals: tuple[InitiativeTotal, ...]
    openers: frozenset[str]
    because: tuple[str, ...]

    @property
    def tied(self) -> bool:
        """Tells whether more than one creature shares the highest total."""
        return len(self.totals) > 1 and self.totals[0].total == self.totals[1].total


def initiative_standing(scenario: Scenario, dice: RollSource) -> InitiativeStanding:
    """Gets every creature's initiative total and who opens (1. Roll Initiative)."""
    engine = _Engine(scenario, parse_options(Options, scenario.options), dice)
    engine.roll_initiative()
    d20s = {r.purpose.removeprefix("initiative "): r.total for r in engine.rolls}
    totals = sorted(
        (InitiativeTotal(cid, d20s[cid], engine.initiative[cid] - d20s[cid])
         for cid in engine.initiative),
        key=lambda t: -t.total)
    openers, because = engine.winners([cid for cid in engine.initiative
                                       if engine.arrived(cid, 1, 0)])
    return InitiativeStanding(tuple(totals), openers, because)


class PopcornSystem:
    """Popcorn initiative (OSE): nominate who acts next."""

    id: ClassVar[str] = "popcorn"
    title: ClassVar[str] = "Popcorn initiative (Old-School Essentials)"
    options_type: ClassVar[type[Any]] = Options
    rules: ClassVar[Mapping[str, Rule]] = RULES

    def phases(self) -> Sequence[Phase]:
        """Gets the procedure the stepper walks through."""
        return PHASES

    def rolls_needed(self, document: Mapping[str, Any]) -> list[RollRequest]:
        """Lists the d20 of every creature whose initiative is not rolled yet (once a combat)."""
        given = document.get("initiative")
        given = given if isinstance(given, Mapping) else {}
        return [
            RollRequest(("initiative", c["id"]), "1d20", f"initiative {c.get('name') or c['id']}")
            for c in document.get("combatants") or []
            if isinstance(c, Mapping) and isinstance(c.get("id"), str) and c["id"] not in given
        ]

    def resolve(self, scenario: Scenario, dice: RollSource) -> Resolution:
        """Resolves a popcorn scenario into ordered steps."""
        options = parse_options(Options, scenario.options)
        return _Engine(scenario, options, dice).run()


SYSTEM = PopcornSystem()
