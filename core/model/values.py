"""Domain values shared by the engine, the store and the app.

Every value here is frozen: the encounter state is a fold over events, so nothing may change a
value in place behind the log's back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any

PARTY_SIDE = "party"
"""The side the players run. Sides are free-form strings; this one is the default for PCs."""


def frozen_mapping(data: Mapping[str, Any] | None = None) -> Mapping[str, Any]:
    """Returns a read-only copy of ``data`` (an empty mapping for None)."""
    return MappingProxyType(dict(data or {}))


class Kind(StrEnum):
    """What a roster entry or combatant is."""

    PC = "pc"
    """A player character."""
    HENCHMAN = "henchman"
    """A henchman: a loyal NPC follower run by a player or the DM."""
    HIRELING = "hireling"
    """A hireling: paid help, usually 0-level."""
    MONSTER = "monster"
    """A monster or any creature run by the DM."""


class Status(StrEnum):
    """How a combatant stands (the resolution format's ``status``)."""

    ACTIVE = "active"
    UNCONSCIOUS = "unconscious"
    DEAD = "dead"
    FLED = "fled"
    SURRENDERED = "surrendered"


class StepEvent(StrEnum):
    """What happens in one step of the resolved order (the resolution format's ``event``)."""

    SURPRISED = "surprised"
    ACTS = "acts"
    ATTACKS = "attacks"
    HITS = "hits"
    MISSES = "misses"
    BEGINS_CASTING = "begins-casting"
    SPELL_TAKES_EFFECT = "spell-takes-effect"
    SPELL_DISRUPTED = "spell-disrupted"
    MOVES = "moves"
    CHARGES = "charges"
    FLEES = "flees"
    PARLEYS = "parleys"
    WAITS = "waits"
    READIES = "readies"
    READIED_TRIGGERS = "readied-triggers"
    NOMINATES = "nominates"
    MORALE_CHECK = "morale-check"
    BLEEDS = "bleeds"
    DIES = "dies"
    EFFECT_EXPIRES = "effect-expires"
    CONDITION_STARTS = "condition-starts"
    """A condition starts on the actor (detail ``condition``, ``by``, ``rounds``)."""
    CONDITION_ENDS = "condition-ends"
    """A condition on the actor ends: its time ran out, or an entry ended it (``by``)."""
    CANNOT_ACT = "cannot-act"
    """The actor's action does not happen: a condition keeps it from acting (``condition``)."""


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon as the initiative systems see it."""

    name: str
    speed_factor: int | None = None
    """AD&D speed factor (lower is quicker); None for attacks that have none (claws, bites)."""
    length: float | None = None
    """Weapon length in feet (AD&D): decides who strikes first against a charge."""
    missile: bool = False
    slow: bool = False
    """OSE slow weapon: acts after every creature that is not waiting."""
    rate_of_fire: int | None = None


@dataclass(frozen=True, slots=True)
class Spell:
    """A memorised spell."""

    name: str
    level: int = 1
    casting_time: int = 1
    """Casting time in segments (addict, side-d6); the time-unit system uses ``level``."""


@dataclass(frozen=True, slots=True)
class Combatant:
    """A character or monster as it stands in one encounter.

    Adjustments are bonuses as the sources state them (``initiative_adj=1`` is quicker);
    None means "derive from the ability score if the system has a table for it".
    """

    id: str
    side: str
    name: str = ""
    kind: Kind = Kind.PC
    hp: int | None = None
    max_hp: int | None = None
    ac: int | None = None
    dex: int | None = None
    wis: int | None = None
    race: str | None = None
    level: int | None = None
    initiative_adj: int | None = None
    surprise_adj: int | None = None
    missile_adj: int | None = None
    reaction_adj: int | None = None
    attack_routines: int = 1
    attacks: int = 1
    movement: int | None = None
    morale: int | None = None
    surprises_on: int | None = None
    """Surprises others on 1..N in 6 (None: the usual 2)."""
    surprised_on: int | None = None
    """Is surprised on 1..N in 6 (None: the usual 2; 0 means cannot be surprised)."""
    surprised: bool | None = None
    """Forced surprise state from the scenario (None: decided by the dice)."""
    status: Status = Status.ACTIVE
    weapons: tuple[Weapon, ...] = ()
    spells: tuple[Spell, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=frozen_mapping)
    """Fields beyond the common ones (system-specific), read-only."""

    @property
    def label(self) -> str:
        """Gets the name to show, falling back to the id."""
        return self.name or self.id

    def weapon(self, name: str | None) -> Weapon | None:
        """Gets the named weapon, or the first one when ``name`` is None."""
        if name is None:
            return self.weapons[0] if self.weapons else None
        return next((w for w in self.weapons if w.name == name), None)

    def spell(self, name: str | None) -> Spell | None:
        """Gets the named memorised spell."""
        return next((s for s in self.spells if s.name == name), None)


@dataclass(frozen=True, slots=True)
class Roll:
    """One die roll (or group of dice) as a value: rolled by the app or typed in by the DM."""

    expression: str
    """Canonical dice notation, e.g. ``2d6`` or ``1d10+4``."""
    total: int
    dice: tuple[int, ...] = ()
    """The faces rolled; empty when the DM typed only the total."""
    manual: bool = False
    """True when the DM entered the result from physical dice."""
    purpose: str = ""
    """What the roll decides, e.g. ``initiative party``."""


@dataclass(frozen=True, slots=True)
class Hit:
    """One attack's recorded outcome."""

    hit: bool
    damage: int = 0


@dataclass(frozen=True, slots=True)
class Effect:
    """A timed effect started by an action (duration in rounds)."""

    name: str
    duration: int
    target: str | None = None


@dataclass(frozen=True, slots=True)
class Step:
    """One entry of the resolved order.

    ``group`` numbers rise with time; steps sharing a group resolve simultaneously. ``because``
    names the rules (ids in ``docs/rules.md``) that placed the step where it is.
    """

    seq: int
    actor: str
    event: StepEvent
    round: int | None = None
    segment: int | None = None
    surprise: bool = False
    tu: int | None = None
    action: str | None = None
    target: str | None = None
    group: int | None = None
    because: tuple[str, ...] = ()
    detail: Mapping[str, Any] = field(default_factory=frozen_mapping)
    """Extra facts for the summary (damage, spell name, roll, …)."""
    source: str | None = field(default=None, compare=False)
    """The scenario path of the declaration, turn or action that produced the step
    (``rounds[0].declarations[2]``, ``actions[5]``), where the system does not already name it
    in ``detail``; never part of the resolution JSON, so the output format is unchanged."""

    def to_json(self) -> dict[str, Any]:
        """Gets the step in the ``combatdesk/resolution-1`` shape."""
        out: dict[str, Any] = {
            "seq": self.seq,
            "round": self.round,
            "segment": self.segment,
            "surprise": self.surprise,
            "tu": self.tu,
            "actor": self.actor,
            "event": str(self.event),
            "action": self.action,
            "target": self.target,
            "group": self.group,
            "because": list(self.because),
        }
        out.update(self.detail)
        return out


@dataclass(frozen=True, slots=True)
class CombatantResult:
    """How a combatant ends the resolved encounter."""

    hp: int | None
    status: Status


@dataclass(frozen=True, slots=True)
class Resolution:
    """The engine's answer for a scenario: the ordered steps and where everyone ends up."""

    system: str
    steps: tuple[Step, ...]
    combatants: Mapping[str, CombatantResult]
    rolls: tuple[Roll, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """Gets the resolution in the ``combatdesk/resolution-1`` shape."""
        return {
            "format": "combatdesk/resolution-1",
            "system": self.system,
            "steps": [s.to_json() for s in self.steps],
            "combatants": {
                cid: {"hp": r.hp, "status": str(r.status)} for cid, r in self.combatants.items()
            },
            "rolls": [
                {
                    "purpose": r.purpose,
                    "expression": r.expression,
                    "dice": list(r.dice),
                    "total": r.total,
                    "manual": r.manual,
                }
                for r in self.rolls
            ],
        }
