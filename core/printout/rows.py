"""The round summary's rows: the facts a printout is made of, one frozen value per line.

:mod:`core.printout.summary` builds them from a scenario and its resolution;
:mod:`core.printout.html` and :mod:`core.printout.timeline_svg` draw them.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.model.values import StepEvent
from core.printout.words import HouseRule


@dataclass(frozen=True, slots=True)
class OptionRow:
    name: str
    value: str
    default: str
    is_default: bool
    meaning: str


@dataclass(frozen=True, slots=True)
class RollRow:
    round: int | None
    """The round the roll belongs to, when its purpose says so; None for encounter rolls."""
    purpose: str
    expression: str
    dice: tuple[int, ...]
    total: int
    manual: bool
    """True when the DM typed the die in from the table; False when the app rolled it."""


@dataclass(frozen=True, slots=True)
class PlayRow:
    """One line of the order of play: when, who did what, and why it came there."""

    when: str
    text: str
    why: str
    simultaneous: bool


@dataclass(frozen=True, slots=True)
class DeclarationRow:
    actor: str
    action: str
    target: str
    details: str


@dataclass(frozen=True, slots=True)
class StepRow:
    seq: int
    when: str
    group: int | None
    simultaneous: bool
    actor: str
    event: str
    text: str
    because: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class HitRow:
    when: str
    actor: str
    target: str
    result: str
    """``hit``, ``miss`` or ``attack`` (no outcome recorded)."""
    means: str
    damage: int | None
    hp_after: int | None


@dataclass(frozen=True, slots=True)
class SpellRow:
    when: str
    caster: str
    spell: str
    outcome: str
    """``begun``, ``cast`` or ``lost``."""
    details: str


@dataclass(frozen=True, slots=True)
class NoteRow:
    """A morale check, a bleeding step or a death: who, and what happened."""

    when: str
    actor: str
    text: str


@dataclass(frozen=True, slots=True)
class EffectRow:
    name: str
    target: str
    source: str
    started: str
    remaining: str


@dataclass(frozen=True, slots=True)
class StateRow:
    name: str
    side: str
    hp: str
    status: str


@dataclass(frozen=True, slots=True)
class TimelineStep:
    """What the timeline picture needs of a step (kept apart from the printed rows)."""

    seq: int
    actor: str
    event: StepEvent
    x: float
    span_key: str | None
    """Pairs a spell's begin with its end (caster + declaration or spell name)."""
    damage: int | None
    continued: bool = False
    """A spell's end whose casting began in an earlier round (its bar starts at the edge)."""


@dataclass(frozen=True, slots=True)
class RoundSummary:
    number: int
    title: str
    surprise: bool
    declarations_title: str
    declarations: tuple[DeclarationRow, ...]
    rolls: tuple[RollRow, ...]
    play: tuple[PlayRow, ...]
    steps: tuple[StepRow, ...]
    hits: tuple[HitRow, ...]
    spells: tuple[SpellRow, ...]
    notes: tuple[NoteRow, ...]
    effects: tuple[EffectRow, ...]
    effects_note: str
    states: tuple[StateRow, ...]
    states_note: str
    timeline: tuple[TimelineStep, ...]
    axis: Axis
    quiet: str = ""
    """What the round says when no step happened in it (words.quiet_round_words)."""


@dataclass(frozen=True, slots=True)
class Axis:
    """The x axis of a timeline picture."""

    kind: str
    """``segments``, ``tu`` or ``turns``."""
    start: float
    end: float
    labels: tuple[tuple[float, str], ...]
    marks: tuple[tuple[float, str], ...] = ()
    """Where heavier lines start a round on the TU clock, with their labels."""
    shaded: tuple[tuple[float, float], ...] = ()
    """Ranges to mark (surprise segments)."""


@dataclass(frozen=True, slots=True)
class Combatant:
    cid: str
    name: str
    side: str


@dataclass(frozen=True, slots=True)
class Summary:
    title: str
    scenario_note: str
    system_id: str
    system_title: str
    scope: str
    options: tuple[OptionRow, ...]
    encounter_rolls: tuple[RollRow, ...]
    rounds: tuple[RoundSummary, ...]
    final_states: tuple[StateRow, ...]
    combatants: tuple[Combatant, ...]
    notes: tuple[str, ...]
    round_count: int = 1
    house_rules: tuple[HouseRule, ...] = ()
    """Options that differ from the source, in words (the options table is the appendix's)."""
    running: bool = False
    """The fight goes on: no "end of the encounter" is printed."""
    first_round: int = 1
    last_round: int = 1
    encounter_timeline: tuple[TimelineStep, ...] = ()
    encounter_axis: Axis | None = None
    """The whole TU clock in one picture (time units, whole encounter of several rounds)."""
