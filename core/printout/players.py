"""The players' screen as data: what the table may know of a fight, and nothing more.

The DM's screen shows everything; the screen turned to the players (a second monitor, a TV)
shows only what the players could know at the table. Every secrecy rule lives here, in pure
Python, so that it is tested without Qt and the window only draws what it is given:

- Play so far only: the steps before the first attack still waiting for its outcome. What
  the engine has already placed after it (a monster's declared flight in segment 6, the spell
  that goes off if the caster is not hit first) stays unsaid until play reaches it.
- Monsters by name and state as seen across the table ("down", "fled"): never their HP, AC,
  hit dice, morale, notes or XP. A monster's death reads "goes down"; morale checks are left
  out (the flight that follows shows).
- A creature the DM hides (``hidden-from-players`` in the log) is not there: not in a list,
  not on the timeline, not in any step as actor or target, not named as who did something.
- The party's HP only when the DM asks for it (``show_party_hp``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from core.fight.encounter import scenario_document
from core.fight.log import EncounterState
from core.model.dice import Roller
from core.model.scenario import Scenario, ScenarioError, parse_scenario
from core.model.values import (
    Combatant,
    Kind,
    Resolution,
    Status,
    Step,
    StepEvent,
    frozen_mapping,
)
from core.printout.summary import _popcorn_turns
from core.printout.words import Names, plural, step_sentence, value_words
from core.rules import UnknownSystemError, find_system
from core.rules.base import parse_options
from core.rules.popcorn import initiative_standing

SAFE_DETAIL = frozenset({
    "weapon", "spell", "damage", "casting_time", "also", "shot", "shots", "instead_of",
    "reason", "by", "condition", "rounds", "segments", "nominee_fell", "chosen_again",
    "trigger", "triggered_by", "effect", "movement", "distance", "routine", "attack", "area",
    "retrieval", "fallen_target",
})
"""A step's facts the players may read; any other (hp, morale, rolls, the engine's
reckoning) is dropped before the step is worded. A list of what may show, not of what may
not: a fact a system adds later stays off the players' screen until someone adds it here."""

_NAMING_DETAIL = ("instead_of", "by", "triggered_by", "fallen_target")
"""Facts that name a creature: dropped when it is hidden."""

_FOES_PLANS = {
    StepEvent.BEGINS_CASTING: ("spell", "casting_time"),
    StepEvent.SPELL_DISRUPTED: ("spell",),
    StepEvent.READIES: ("trigger",),
    StepEvent.READIED_TRIGGERS: ("trigger",),
}
"""What a foe's step would tell of its plans: the table sees a monster start casting, not
which spell (until it goes off), and sees it ready an action, not what it waits for."""

_MONSTER_WORDS = {
    Status.DEAD: "down",
    Status.UNCONSCIOUS: "down",
    Status.FLED: "fled",
    Status.SURRENDERED: "surrendered",
}
"""How a monster's state reads across the table: dead or only knocked out, it is down."""

MONSTERS_SIDE = "monsters"
"""The side stamped monsters fight on (core.roster.stamping's MONSTER_SIDE, which this layer
may not import): never the party's."""


@dataclass(frozen=True, slots=True)
class PlayLine:
    """One line of the order of play: when, and what happened in words."""

    seq: int
    when: str
    text: str


@dataclass(frozen=True, slots=True)
class PartyLine:
    """A PC, henchman or hireling as the players see their own."""

    name: str
    hp: str
    """``7 / 12`` when the DM shows the party's HP, else empty."""
    state: str
    """Empty while fighting; ``unconscious``, ``dead``, ``fled``…"""
    effects: tuple[str, ...]
    """Conditions and effects on it with the time left: ``bless: 2 more rounds``."""


@dataclass(frozen=True, slots=True)
class MonsterLine:
    """A monster as the table sees it: a name, and down, fled or surrendered."""

    name: str
    state: str
    effects: tuple[str, ...]
    """Conditions the table can see on it (asleep, held)."""


@dataclass(frozen=True, slots=True)
class PlayersView:
    """Everything the players' screen shows, already cleared of what they may not know."""

    heading: str
    """The fight's name, or the campaign's when no fight is open."""
    system: str
    """The initiative system's title (empty when no fight is open)."""
    clock: str
    """``Round 2 · segment 4``, ``Round 1 · surprise segment 2``, ``Round 3 · turn 2``,
    ``TU 17``."""
    last: str
    """The last step played, as a sentence (empty before the first)."""
    turn: tuple[str, ...] = ()
    """Popcorn: who acts next and who has acted; time units: who acts at which TU."""
    play: tuple[PlayLine, ...] = ()
    party: tuple[PartyLine, ...] = ()
    monsters: tuple[MonsterLine, ...] = ()
    resolution: Resolution | None = None
    """The steps played, cleared: what the timeline draws."""
    combatants: tuple[Combatant, ...] = ()
    """The creatures the players see, with names and sides only (the timeline's rows)."""


def campaign_view(campaign: str) -> PlayersView:
    """Gets the screen shown when no fight is open: the campaign's name."""
    return PlayersView(heading=campaign, system="", clock="", last="")


def party_of(combatants: Iterable[Combatant]) -> set[str]:
    """Gets who the players know as their own: PCs, and the henchmen and hirelings on a side
    a PC fights on. A monster never is, nor a roster NPC on a side without a PC (a rival
    party): the table sees those as it sees monsters."""
    every = list(combatants)
    # The monsters' side is never the party's, whatever a scenario left its creatures' kind.
    sides = {c.side for c in every if c.kind is Kind.PC} - {MONSTERS_SIDE}
    return {c.id for c in every if c.kind is not Kind.MONSTER and c.side in sides}


def _played(steps: Sequence[Step]) -> tuple[tuple[Step, ...], Step | None]:
    """Splits the steps at the first attack still waiting for its outcome: the steps before
    it have happened at the table; that one is where play stands (None: all have happened)."""
    for at, step in enumerate(steps):
        if step.event is StepEvent.ATTACKS:
            return tuple(steps[:at]), step
    return tuple(steps), None


def _cleared(step: Step, visible: set[str], hp_shown: set[str],
             party: set[str]) -> Step | None:
    """Gets the step as the players may read it, or None when it would give away a hidden
    creature or is the DM's alone (a morale check)."""
    if step.event is StepEvent.MORALE_CHECK:
        return None
    if step.actor not in visible or (step.target is not None and step.target not in visible):
        return None
    detail: dict[str, Any] = {}
    for key, value in step.detail.items():
        if key in SAFE_DETAIL or (key == "hp" and _hp_owner(step) in hp_shown):
            detail[key] = value
    for key in _NAMING_DETAIL:
        if key in detail and str(detail[key]) not in visible:
            del detail[key]
    if step.actor not in party:
        for key in _FOES_PLANS.get(step.event, ()):
            detail.pop(key, None)
    also = detail.get("also")
    if isinstance(also, list | tuple):
        detail["also"] = [t for t in also if str(t) in visible]
    return replace(step, detail=frozen_mapping(detail), because=())


def _hp_owner(step: Step) -> str:
    if step.event in (StepEvent.BLEEDS, StepEvent.DIES) or step.target is None:
        return step.actor
    return step.target


def _sentence(step: Step, names: Names, party: set[str]) -> str:
    if step.event is StepEvent.DIES and step.actor not in party:
        by = step.detail.get("by")
        return f"{names(step.actor)} goes down" + (f" (felled by {names(by)})" if by else "")
    return step_sentence(step, names, brief=True)


def _when(step: Step, turns: Mapping[int, str]) -> str:
    if step.tu is not None:
        return f"TU {step.tu}"
    parts = [f"Round {step.round}"] if step.round is not None else []
    if step.segment is not None:
        parts.append(f"{'surprise ' if step.surprise else ''}segment {step.segment}")
    elif step.seq in turns:
        parts.append(turns[step.seq].lower())
    return " · ".join(parts)


@dataclass
class _Standing:
    hp: int | None
    status: Status
    conditions: dict[str, tuple[int | None, int | None]]
    """Condition → (round it started, rounds it lasts after that one; None: until ended)."""


def _standings(state: EncounterState, played: Sequence[Step], resolution: Resolution,
               all_played: bool) -> dict[str, _Standing]:
    """Follows HP, state and conditions along the steps played (the resolution's own end
    state only once every step has been played: it knows what is still to come)."""
    out = {cid: _Standing(c.hp, c.status, {}) for cid, c in state.combatants.items()}
    for step in played:
        owner = out.get(_hp_owner(step))
        hp = step.detail.get("hp")
        if owner is not None and isinstance(hp, int) and not isinstance(hp, bool):
            owner.hp = hp
        actor = out.get(step.actor)
        if actor is None:
            continue
        condition = step.detail.get("condition")
        if step.event is StepEvent.DIES:
            actor.status = Status.DEAD
            actor.conditions.clear()
        elif step.event is StepEvent.FLEES:
            actor.status = Status.FLED
        elif step.event is StepEvent.CONDITION_STARTS and isinstance(condition, str):
            rounds = step.detail.get("rounds")
            actor.conditions[condition] = (
                step.round, rounds if isinstance(rounds, int) else None)
        elif step.event is StepEvent.CONDITION_ENDS and isinstance(condition, str):
            actor.conditions.pop(condition, None)
    if all_played:
        for cid, result in resolution.combatants.items():
            if cid in out:
                out[cid].hp, out[cid].status = result.hp, result.status
    return out


def _condition_words(name: str, since: int | None, lasts: int | None, now: int) -> str:
    shown = value_words(name)
    if since is None or lasts is None:
        return shown
    left = since + lasts - now
    if left > 0:
        return f"{shown}: {plural(left, 'more round')}"
    return f"{shown}: ends at the end of this round" if left == 0 else shown


def _round_tu(scenario: Scenario) -> int:
    try:
        chosen = parse_options(find_system(scenario.system).options_type, scenario.options)
    except (UnknownSystemError, ValueError):
        return 10
    return int(getattr(chosen, "round_tu", 10)) or 10


def _effects(scenario: Scenario, played: Sequence[Step], now_round: int, clock_tu: int | None,
             visible: set[str], party: set[str]) -> dict[str, list[str]]:
    """Gets the timed effects running now, by the creature they are on, with the time left.

    An effect counts from the step that started it being played (a declared effect is not
    known before); it is gone once its expiry is played or its time is out. Effects on
    monsters show only when the party started them (the players know their own spells).
    """
    starts: dict[str, Step] = {}
    for step in played:
        for ref in (step.detail.get("declaration"), step.detail.get("turn"), step.source):
            if isinstance(ref, str):
                starts[ref] = step  # the last step of the item: a spell's takes-effect
    expired = {(str(s.detail.get("effect")), s.target) for s in played
               if s.event is StepEvent.EFFECT_EXPIRES}
    out: dict[str, list[str]] = {}
    items: list[tuple[Any, int]] = [
        (item, number) for number, spec in enumerate(scenario.rounds, start=1)
        for item in (*spec.declarations, *spec.turns)]
    items += [(action, 0) for action in scenario.actions]
    round_tu = _round_tu(scenario)
    for item, number in items:
        effect = item.effect
        began = starts.get(item.path)
        if effect is None or began is None:
            continue
        on = effect.target or item.target or item.actor
        if on not in visible or (on not in party and item.actor not in party):
            continue
        if (effect.name, effect.target) in expired or (effect.name, on) in expired:
            continue
        if began.tu is not None and clock_tu is not None:
            end = began.tu + effect.duration * round_tu
            if end <= clock_tu:
                continue
            text = f"{effect.name}: until TU {end} ({end - clock_tu} TU left)"
        else:
            left = (began.round or number) + effect.duration - now_round
            if left < 0 or (left == 0 and scenario.system == "popcorn"):
                continue
            text = f"{effect.name}: " + (
                "ends at the end of this round" if left == 0 else plural(left, "more round"))
        out.setdefault(on, []).append(text)
    return out


def _popcorn_opener(state: EncounterState, visible: set[str], names: Names) -> str | None:
    """Gets who takes the first turn once every initiative d20 is in (popcorn.initiative.
    highest-first), as the DM's board names it; None while a die is awaited or for a tie
    the players' side settles among themselves."""
    try:
        scenario = parse_scenario(scenario_document(state))
        given = scenario.raw.get("initiative")
        if not isinstance(given, Mapping) or any(c.id not in given
                                                 for c in scenario.combatants):
            return None
        standing = initiative_standing(scenario, Roller.seeded(state.config.get("seed")))
    except (ScenarioError, KeyError, ValueError):
        return None
    openers = [cid for cid in standing.openers if cid in visible]
    return names(openers[0]) if len(openers) == 1 == len(standing.openers) else None


def _popcorn_turn(state: EncounterState, visible: set[str], names: Names,
                  resolution: Resolution, at: Step | None) -> tuple[str, tuple[str, ...]]:
    """Gets popcorn's ``turn n`` and its lines: who acts now or next, who has acted."""
    if not state.rounds:
        opener = _popcorn_opener(state, visible, names)
        return "", ((f"Acts first: {opener}",) if opener else ("Waiting for the first turn",))
    turns = list(state.rounds[-1].get("turns") or ())
    pending = at.detail.get("turn") if at is not None else None
    number = len(state.rounds) - 1
    done = [t for i, t in enumerate(turns) if isinstance(t, Mapping)
            and not t.get("triggered") and str(t.get("actor")) in visible
            and f"rounds[{number}].turns[{i}]" != pending]
    acted = list(dict.fromkeys(names(t.get("actor")) for t in done if not t.get("waits")))
    lines: list[str] = []
    if at is not None:
        if at.actor in visible:
            lines.append(f"Acting now: {names(at.actor)}")
    else:
        last = next((t for t in reversed(turns)
                     if isinstance(t, Mapping) and not t.get("triggered")), None)
        nominee = last.get("nominates") if last is not None else None
        actor = last.get("actor") if last is not None else None
        if isinstance(actor, str) and actor in resolution.combatants and \
                resolution.combatants[actor].status in (Status.DEAD, Status.UNCONSCIOUS):
            nominee = None  # popcorn.pass.fallen-actor: a name written before the blow lapsed
        fallen = (isinstance(nominee, str) and nominee in resolution.combatants
                  and resolution.combatants[nominee].status is not Status.ACTIVE)
        if fallen and last is not None:
            # popcorn.pass.fallen-nominee: the nominator's new choice, saved on its turn.
            nominee = last.get("nominates_again")
            fallen = not (isinstance(nominee, str) and nominee in resolution.combatants
                          and resolution.combatants[nominee].status is Status.ACTIVE)
        if isinstance(nominee, str) and nominee in visible and not fallen:
            lines.append(f"Acts next: {names(nominee)}")
        elif last is not None:
            lines.append("Acts next: to be named")
    lines.append(f"Has acted: {', '.join(acted)}" if acted else "Nobody has acted yet")
    return f"turn {len(done) + 1}", tuple(lines)


_ACTION_EVENTS = frozenset({
    StepEvent.ACTS, StepEvent.ATTACKS, StepEvent.HITS, StepEvent.MISSES,
    StepEvent.BEGINS_CASTING, StepEvent.MOVES, StepEvent.CHARGES, StepEvent.FLEES,
    StepEvent.PARLEYS, StepEvent.WAITS, StepEvent.READIES})
"""Steps that are someone's own action on the TU clock (not a spell going off, an effect
running out or a fall that follows from another's blow)."""


def _time_units_turn(rest: Sequence[Step], visible: set[str], names: Names,
                     standing: Mapping[str, _Standing]) -> tuple[str, ...]:
    """Gets who acts at which TU next, from the steps still to come."""
    upcoming: dict[str, int] = {}
    for step in rest:
        if (step.tu is not None and step.event in _ACTION_EVENTS and step.actor in visible
                and step.actor not in upcoming and standing[step.actor].status is Status.ACTIVE):
            upcoming[step.actor] = step.tu
    if not upcoming:
        return ("Waiting for the next actions",)
    return tuple(f"TU {tu}: {names(cid)}" for cid, tu in upcoming.items())


def players_view(state: EncounterState, resolution: Resolution | None, *, heading: str,
                 show_party_hp: bool = False) -> PlayersView:
    """Gets what the players may see of a fight as its log stands.

    ``resolution`` is the one the DM's screen shows as known (no step hangs on a die not yet
    given); ``heading`` names the fight.
    """
    system_id = str(state.config.get("system"))
    try:
        system_title = find_system(system_id).title
    except UnknownSystemError:
        system_title = ""
    visible = {cid for cid in state.combatants if cid not in state.hidden}
    party = party_of(state.combatants[cid] for cid in visible)
    names = Names({cid: state.combatants[cid].label for cid in visible})
    shown_combatants = tuple(
        Combatant(id=c.id, side=c.side, name=c.label, kind=c.kind)
        for c in state.combatants.values() if c.id in visible)
    steps = resolution.steps if resolution is not None else ()
    played, at = _played(steps)
    rest = steps[len(played):]
    hp_shown = party if show_party_hp else set()
    pairs = [(s, readable) for s in played
             if (readable := _cleared(s, visible, hp_shown, party)) is not None]
    # Turns are numbered among the turns the players saw: a hidden creature's leaves no gap.
    turns = _popcorn_turns([s for s, _ in pairs]) if system_id == "popcorn" else {}
    # Numbered anew, 1, 2, 3…: popcorn's timeline is drawn by number, where a gap would show
    # that a hidden creature acted there.
    cleared = [replace(c, seq=n) for n, (_, c) in enumerate(pairs, start=1)]
    play = tuple(PlayLine(c.seq, _when(s, turns), _sentence(c, names, party))
                 for (s, _), c in zip(pairs, cleared, strict=True))

    try:
        scenario: Scenario | None = parse_scenario(scenario_document(state))
    except ScenarioError:
        scenario = None
    empty = Resolution(system_id, (), frozen_mapping())
    standing = _standings(state, played, resolution or empty, at is None)
    now_round = max(state.round, 1)
    clock_tu: int | None = None
    if system_id == "time-units":
        clock_tu = at.tu if at is not None else next(
            (s.tu for s in reversed(played) if s.tu is not None), 0)
        clock = f"TU {clock_tu}"
        turn_lines = _time_units_turn(rest, visible, names, standing)
    elif system_id == "popcorn":
        count, turn_lines = _popcorn_turn(state, visible, names, resolution or empty, at)
        clock = f"Round {now_round}" + (f" · {count}" if count else "")
    else:
        clock, turn_lines = _segment_clock(state, played, at), ()
    if clock_tu is not None:
        now_round = clock_tu // (_round_tu(scenario) if scenario is not None else 10) + 1
    effects = _effects(scenario, played, now_round, clock_tu, visible, party) if (
        scenario is not None) else {}

    party_lines: list[PartyLine] = []
    monster_lines: list[MonsterLine] = []
    for c in shown_combatants:
        own = standing[c.id]
        running = [_condition_words(name, since, lasts, now_round)
                   for name, (since, lasts) in own.conditions.items()]
        running += effects.get(c.id, [])
        if c.id in party:
            maximum = state.combatants[c.id].max_hp
            hp = "" if not show_party_hp or own.hp is None else (
                f"{own.hp} / {maximum}" if maximum is not None else str(own.hp))
            status = "" if own.status is Status.ACTIVE else value_words(own.status)
            if not status and own.hp is not None and own.hp <= 0 and show_party_hp:
                status = "down"
            party_lines.append(PartyLine(c.label, hp, status, tuple(running)))
        else:
            down = own.status is Status.ACTIVE and own.hp is not None and own.hp <= 0
            state_word = "down" if down else _MONSTER_WORDS.get(own.status, "")
            monster_lines.append(MonsterLine(c.label, state_word, tuple(running)))
    shown = Resolution(system_id, tuple(cleared), frozen_mapping())
    return PlayersView(
        heading=heading,
        system=system_title,
        clock=clock,
        last=play[-1].text if play else "",
        turn=turn_lines,
        play=play,
        party=tuple(party_lines),
        monsters=tuple(monster_lines),
        resolution=shown,
        combatants=shown_combatants,
    )


def _segment_clock(state: EncounterState, played: Sequence[Step], at: Step | None) -> str:
    """Gets ``Round 2 · segment 4`` (where play stands), ``Round 1 · surprise segments``."""
    surprise_round = bool(state.rounds and state.rounds[-1].get("surprise"))
    number = max(state.round, 1)
    where = at if at is not None else next(
        (s for s in reversed(played) if s.segment is not None and (s.round or 1) >= number),
        None)
    if where is not None and where.segment is not None:
        kind = "surprise segment" if where.surprise else "segment"
        return f"Round {where.round or number} · {kind} {where.segment}"
    if surprise_round:
        return f"Round {number} · surprise segments"
    return f"Round {number}" if state.rounds else "Before the first round"
