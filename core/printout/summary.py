"""The round summary as data: what a DM prints after a round or at the end of an encounter.

Built from a scenario and its resolution only (no Qt, no store), so the command line, the app
and the tests all print the same facts. :mod:`core.printout.html` turns it into HTML.
Everything here is plain text as the user typed it; escaping is the renderer's job.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import NamedTuple

from core.model.scenario import Declaration, Scenario, TimedAction, Turn
from core.model.values import Resolution, Roll, Status, Step, StepEvent
from core.printout.effects import SEGMENT_SYSTEMS, effect_rows, effects_note, effects_started
from core.printout.rows import (
    Axis,
    Combatant,
    DeclarationRow,
    EffectRow,
    HitRow,
    NoteRow,
    OptionRow,
    PlayRow,
    RollRow,
    RoundSummary,
    SpellRow,
    StateRow,
    StepRow,
    Summary,
    TimelineStep,
)
from core.printout.text import Names, declaration_parts, plain, plural, step_text
from core.printout.words import (
    house_rules,
    option_label,
    option_meanings,
    purpose_words,
    quiet_round_words,
    round_title,
    step_sentence,
    step_why,
)
from core.rules import find_system
from core.rules.base import parse_options

ATTACK_EVENTS = frozenset({StepEvent.HITS, StepEvent.MISSES, StepEvent.ATTACKS})


class SummaryError(ValueError):
    """The summary cannot be built as asked (e.g. a round the encounter does not have)."""


# --- options and rolls --------------------------------------------------------------------------


def _options(scenario: Scenario) -> tuple[OptionRow, ...]:
    system = find_system(scenario.system)
    chosen = parse_options(system.options_type, scenario.options)
    defaults = system.options_type()
    meanings = option_meanings(system)
    rows = []
    for f in fields(chosen):
        value, default = getattr(chosen, f.name), getattr(defaults, f.name)
        rows.append(
            OptionRow(
                name=option_label(f.name),
                value=plain(value),
                default=plain(default),
                is_default=value == default,
                meaning=meanings.get(f.name, ""),
            )
        )
    return tuple(rows)


_ROUND_IN_PURPOSE = re.compile(r"\bround (\d+)\b")
_ACTION_IN_PURPOSE = re.compile(r"\((actions\[\d+\])\)")


def _roll_round(roll: Roll, action_rounds: Mapping[str, int]) -> int | None:
    found = _ROUND_IN_PURPOSE.search(roll.purpose)
    if found:
        return int(found.group(1))
    action = _ACTION_IN_PURPOSE.search(roll.purpose)
    if action:
        return action_rounds.get(action.group(1))
    return None


# --- rounds -------------------------------------------------------------------------------------


def _when(step: Step, system: str, turn_index: Mapping[int, str]) -> str:
    if step.tu is not None:
        return f"TU {step.tu}"
    if step.segment is not None:
        return f"Surprise seg. {step.segment}" if step.surprise else f"Segment {step.segment}"
    return turn_index.get(step.seq, f"#{step.seq}")


# Steps without a turn of their own that a turn's blow causes at once (not End of Round ones).
_FOLLOWS_A_TURN = frozenset(
    {StepEvent.DIES, StepEvent.SPELL_DISRUPTED, StepEvent.READIED_TRIGGERS, StepEvent.BLEEDS}
)


def _popcorn_turns(steps: Sequence[Step]) -> dict[int, str]:
    """Labels popcorn steps by turn number in their round ("End" for end-of-round steps)."""
    labels: dict[int, str] = {}
    seen: dict[int | None, dict[str, int]] = {}
    previous: Step | None = None
    for step in steps:
        turn = step.detail.get("turn")
        per_round = seen.setdefault(step.round, {})
        if isinstance(turn, str):
            key = turn.split(".triggers")[0]
            number = per_round.setdefault(key, len(per_round) + 1)
            labels[step.seq] = f"Turn {number}"
        elif (
            step.event in _FOLLOWS_A_TURN
            and previous is not None
            and previous.round == step.round
            and labels[previous.seq] != "End of round"
        ):
            labels[step.seq] = labels[previous.seq]  # a death or lost spell the turn caused
        else:
            labels[step.seq] = "End of round"
        previous = step
    return labels


@dataclass
class _Track:
    """Follows one combatant's hp and status along the steps."""

    hp: int | None
    status: str
    known: bool = True
    conditions: list[str] = field(default_factory=list)
    """Conditions running on the combatant (asleep, held…), in the order they started."""


def _hp_owner(step: Step) -> str:
    if step.event in (StepEvent.BLEEDS, StepEvent.DIES) or step.target is None:
        return step.actor
    return step.target


def _follow(track: dict[str, _Track], step: Step) -> None:
    owner = _hp_owner(step)
    if owner in track:
        hp, damage = step.detail.get("hp"), step.detail.get("damage")
        if isinstance(hp, int):
            track[owner].hp = hp
        elif isinstance(damage, int) and damage:
            track[owner].known = False  # damage landed but the system did not say the new hp
    if step.actor in track:
        t = track[step.actor]
        condition = step.detail.get("condition")
        if step.event == StepEvent.DIES:
            t.status = Status.DEAD
            t.conditions.clear()
        elif step.event == StepEvent.FLEES:
            t.status = Status.FLED
        elif step.event == StepEvent.CONDITION_STARTS and isinstance(condition, str):
            if condition not in t.conditions:
                t.conditions.append(condition)
        elif step.event == StepEvent.CONDITION_ENDS and condition in t.conditions:
            t.conditions.remove(condition)


def _state_rows(
    scenario: Scenario, track: Mapping[str, _Track], final: bool, resolution: Resolution
) -> tuple[StateRow, ...]:
    rows = []
    for c in scenario.combatants:
        t = track[c.id]
        if final and c.id in resolution.combatants:
            result = resolution.combatants[c.id]
            hp, status = result.hp, str(result.status)
        else:
            hp = t.hp if t.known else None
            status = t.status
            if status == Status.ACTIVE and hp is not None and hp <= 0:
                status = _down_word(resolution, c.id)
        max_hp = f" / {c.max_hp}" if c.max_hp is not None and hp is not None else ""
        hp_text = "?" if hp is None else f"{hp}{max_hp}"
        words = [str(status)]
        if str(status) not in (Status.DEAD, Status.FLED):
            words += [plain(n).replace("_", " ").replace("-", " ") for n in t.conditions]
        rows.append(StateRow(name=c.label, side=c.side, hp=hp_text, status=", ".join(words)))
    return tuple(rows)


def _down_word(resolution: Resolution, cid: str) -> str:
    """Gets the status of a combatant at 0 hp or less that neither died nor fled (yet).

    The steps report deaths but not falling unconscious, so this is the word the end of the
    encounter uses for it: ``unconscious``, one word for one state in every round. Only a
    system that lets a creature fight on below 0 (it ends the fight active at 0 or less)
    keeps it ``active``.
    """
    end = resolution.combatants.get(cid)
    if end is not None and end.status is Status.ACTIVE and end.hp is not None and end.hp <= 0:
        return str(Status.ACTIVE)
    return str(Status.UNCONSCIOUS)


def _axis(
    system: str,
    steps: Sequence[Step],
    surprise: bool,
    tu_range: tuple[int, int],
    round_tu: int,
) -> Axis:
    if system in SEGMENT_SYSTEMS:
        if surprise:
            last = max([s.segment or 1 for s in steps] + [1])
            labels = tuple((float(i), f"S{i}") for i in range(1, last + 1))
            return Axis("segments", 0.5, last + 0.5, labels, shaded=((0.5, last + 0.5),))
        labels = tuple((float(i), str(i)) for i in range(1, 11))
        return Axis("segments", 0.5, 10.5, labels)
    if system == "time-units":
        lo, hi = tu_range
        step = 1 if hi - lo <= 20 else 5
        labels = tuple((float(t), str(t)) for t in range(lo, hi + 1) if t % step == 0)
        marks = tuple(
            (float(t), f"round {t // round_tu + 1}")
            for t in range(lo, hi + 1)
            if t % round_tu == 0 and t > 0
        )
        return Axis("tu", lo - 0.5, hi + 0.5, labels, marks=marks)
    return Axis("turns", 0.5, 1.5, ((1.0, "1"),))


def _span_key(step: Step) -> str | None:
    if step.event not in (
        StepEvent.BEGINS_CASTING,
        StepEvent.SPELL_TAKES_EFFECT,
        StepEvent.SPELL_DISRUPTED,
    ):
        return None
    ref = step.detail.get("declaration") or step.detail.get("turn") or step.detail.get("spell")
    return f"{step.actor}|{ref}"


def _timeline(
    system: str,
    steps: Sequence[Step],
    turn_index: Mapping[int, str],
    begun_earlier: frozenset[str] = frozenset(),
) -> tuple[tuple[TimelineStep, ...], Axis | None]:
    """Places a round's steps on its x axis (popcorn: its turns, then End of round)."""
    out = []
    popcorn_x: dict[str, float] = {}
    for step in steps:
        if system == "popcorn":
            label = turn_index.get(step.seq, "")
            x = popcorn_x.setdefault(label, float(len(popcorn_x) + 1))
        elif step.tu is not None:
            x = float(step.tu)
        else:
            x = float(step.segment or 1)
        damage = step.detail.get("damage")
        out.append(
            TimelineStep(
                seq=step.seq,
                actor=step.actor,
                event=step.event,
                x=x,
                span_key=_span_key(step),
                damage=damage if isinstance(damage, int) else None,
                continued=step.event != StepEvent.BEGINS_CASTING
                and _span_key(step) in begun_earlier,
            )
        )
    if system == "popcorn":
        count = max(len(popcorn_x), 1)
        labels = tuple(
            (x, label.replace("Turn ", "T").replace("End of round", "End"))
            for label, x in popcorn_x.items()
        )
        return tuple(out), Axis("turns", 0.5, count + 0.5, labels or ((1.0, "—"),))
    return tuple(out), None


def _round_tu(scenario: Scenario) -> int:
    """Gets how many TU a printed round spans (time units; 10 for the other systems)."""
    if scenario.system != "time-units":
        return 10
    chosen = parse_options(find_system(scenario.system).options_type, scenario.options)
    return int(getattr(chosen, "round_tu", 10)) or 10


def _round_of(steps: Sequence[Step], round_tu: int) -> dict[int, int]:
    """Gets the round each step belongs to: the resolution says so, except on the TU clock."""
    return {s.seq: s.tu // round_tu + 1 if s.tu is not None else s.round or 1 for s in steps}


def _action_rounds(steps: Sequence[Step], round_of: Mapping[int, int]) -> dict[str, int]:
    """Gets the round of each time-units action: where its first step falls."""
    action_rounds: dict[str, int] = {}
    for s in steps:
        ref = s.detail.get("declaration")
        if isinstance(ref, str) and ref.startswith("actions["):
            action_rounds.setdefault(ref, round_of[s.seq])
    return action_rounds


def _roll_rows(scenario: Scenario, resolution: Resolution, names: Names,
               action_rounds: Mapping[str, int], rolled_by_app: frozenset[int]) -> list[RollRow]:
    seen: dict[str, int] = {}
    rolls = []
    for i, r in enumerate(resolution.rolls):
        seen[r.purpose] = seen.get(r.purpose, 0) + 1
        rolls.append(
            RollRow(
                round=_roll_round(r, action_rounds)
                or _nth_round(scenario, r.purpose, seen[r.purpose]),
                purpose=purpose_words(r.purpose, names),
                expression=r.expression,
                dice=r.dice,
                total=r.total,
                manual=r.manual and i not in rolled_by_app,
            )
        )
    return rolls


class LatestRound(NamedTuple):
    """What the last round the summary prints says beside its steps (see latest_round)."""

    effects: tuple[EffectRow, ...]
    quiet: str
    """Its words when nothing happened in it (RoundSummary.quiet)."""
    rolled: bool
    """Some of its dice are in (RoundSummary.rolls is not empty)."""


def latest_round(scenario: Scenario, resolution: Resolution) -> LatestRound:
    """Gets the effects still running in the last round the summary prints, its words when
    nothing happened in it and whether its dice are in, as the last of
    ``build_summary(scenario, resolution).rounds`` has them, without building the rest of the
    summary (the app's status panel asks at every redraw, bench/bench_command.py)."""
    names = Names.of_scenario(scenario)
    round_tu = _round_tu(scenario)
    steps = list(resolution.steps)
    round_of = _round_of(steps, round_tu)
    round_count = max([len(scenario.rounds), *round_of.values(), 1])
    played = set(round_of.values())
    number = round_count
    if round_count > 1 and scenario.system == "time-units":
        # build_summary leaves out the quiet stretches of the TU clock
        number = max((n for n in played if n <= round_count), default=0)
        if number == 0:
            return LatestRound((), "", False)
    started = effects_started(scenario, steps, round_of, round_tu)
    effects = effect_rows(started, steps, number, round_of, scenario.system, round_tu, names)
    action_rounds = _action_rounds(steps, round_of)
    seen: dict[str, int] = {}
    rolls = []  # the round's, as _roll_rows places them; only they are put in words
    for r in resolution.rolls:
        seen[r.purpose] = seen.get(r.purpose, 0) + 1
        if (_roll_round(r, action_rounds)
                or _nth_round(scenario, r.purpose, seen[r.purpose])) == number:
            rolls.append(r)
    quiet = "" if number in played else quiet_round_words(
        len(_declared_items(scenario, number, action_rounds)),
        [f"{purpose_words(r.purpose, names)}: {r.total}" for r in rolls])
    return LatestRound(effects, quiet, bool(rolls))


def _round_title(system: str, number: int, surprise: bool, round_tu: int,
                 after_surprise: bool = False) -> str:
    if system == "time-units":
        lo = (number - 1) * round_tu
        return f"Round {number} (TU {lo}–{lo + round_tu - 1})"
    return round_title(number, surprise, after_surprise)  # the screen's words too


def build_summary(
    scenario: Scenario,
    resolution: Resolution,
    round_no: int | None = None,
    *,
    last_round: int | None = None,
    campaign: str = "",
    encounter: str = "",
    recorded_rolls: Sequence[Roll] | None = None,
    running: bool = False,
) -> Summary:
    """Builds the summary of the whole encounter, of round ``round_no`` only (from 1), or of
    rounds ``round_no``–``last_round``.

    ``campaign`` and ``encounter`` name the printout; ``recorded_rolls`` are the dice as the
    encounter log recorded them (so a die the app rolled prints as rolled, although the
    engine reads it back as given); ``running`` leaves out the end of the encounter.
    """
    system = find_system(scenario.system)
    names = Names.of_scenario(scenario)
    options = _options(scenario)
    round_tu = _round_tu(scenario)
    steps = list(resolution.steps)
    round_of = _round_of(steps, round_tu)
    round_count = max([len(scenario.rounds), *round_of.values(), 1])
    first = round_no if round_no is not None else 1
    last = last_round if last_round is not None else (round_no or round_count)
    for asked in (first, last):
        if not 1 <= asked <= round_count:
            raise SummaryError(
                f"round {asked}: the encounter has rounds 1–{round_count}"
                if round_count > 1
                else f"round {asked}: the encounter has one round (1)"
            )
    if last < first:
        raise SummaryError(f"rounds {first}–{last}: the first round comes after the last")

    action_rounds = _action_rounds(steps, round_of)
    rolled_by_app = _rolled_by_app(resolution.rolls, recorded_rolls, names,
                                   [a.actor for a in scenario.actions])
    rolls = _roll_rows(scenario, resolution, names, action_rounds, rolled_by_app)
    turn_index = _popcorn_turns(steps) if scenario.system == "popcorn" else {}
    started = effects_started(scenario, steps, round_of, round_tu)
    tus = [s.tu for s in steps if s.tu is not None]

    track = {c.id: _Track(hp=c.hp, status=str(c.status), known=True) for c in scenario.combatants}
    rounds: list[RoundSummary] = []
    surprised_before = False  # the round before was the surprise segments
    for number in range(1, round_count + 1):
        own = [s for s in steps if round_of[s.seq] == number]
        for s in own:
            _follow(track, s)
        spec = scenario.rounds[number - 1] if number <= len(scenario.rounds) else None
        surprise = bool(spec and spec.surprise) or any(s.surprise for s in own)
        after_surprise, surprised_before = surprised_before and not surprise, surprise
        if not first <= number <= last:
            continue
        if first != last and scenario.system == "time-units" and not own:
            continue  # a quiet stretch of the TU clock: nothing to print
        rounds.append(
            _round_summary(
                scenario,
                resolution,
                number,
                own,
                spec_items=_declared_items(scenario, number, action_rounds),
                declarations_title="Turns as played"
                if scenario.system == "popcorn"
                else "Declarations",
                rolls=tuple(r for r in rolls if r.round == number),
                surprise=surprise,
                after_surprise=after_surprise,
                names=names,
                turn_index=turn_index,
                track=track,
                final=number == round_count,
                effects=effect_rows(
                    started, steps, number, round_of, scenario.system, round_tu, names
                ),
                round_tu=round_tu,
                tu_range=(
                    (number - 1) * round_tu,
                    number * round_tu - 1,
                ),
            )
        )

    notes: list[str] = []
    unknown = [c.label for c in scenario.combatants if not track[c.id].known]
    if unknown:
        notes.append(
            "Hit points of "
            + ", ".join(unknown)
            + " cannot be followed round by round (this system reported damage without the "
            "new total); they show as ? until the end of the encounter, which comes from the "
            "resolution."
        )
    if scenario.system == "time-units":
        notes.append(
            f"Time units have no rounds; a round here is a stretch of {round_tu} TU "
            f"(TU 0–{round_tu - 1}, {round_tu}–{2 * round_tu - 1}, …)."
        )
    track_final = {c.id: track[c.id] for c in scenario.combatants}
    final_states = _state_rows(scenario, track_final, True, resolution)
    title = ""
    for key in ("title", "name"):
        value = scenario.raw.get(key)
        if isinstance(value, str) and value.strip():
            title = value.strip()
            break
    note = ""
    for key in ("description", "comment"):
        value = scenario.raw.get(key)
        if isinstance(value, str) and value.strip():
            note = value.strip()
            break
    encounter_timeline: tuple[TimelineStep, ...] = ()
    encounter_axis = None
    if scenario.system == "time-units" and first != last and round_count > 1 and tus:
        encounter_timeline, _ = _timeline(scenario.system, steps, turn_index)
        encounter_axis = _axis(scenario.system, steps, False, (min(0, *tus), max(tus)), round_tu)
    return Summary(
        round_count=round_count,
        encounter_timeline=encounter_timeline,
        encounter_axis=encounter_axis,
        title=_title(campaign, encounter or title, first, last, round_count),
        house_rules=house_rules(system, scenario.options),
        running=running,
        first_round=first,
        last_round=last,
        scenario_note=note,
        system_id=scenario.system,
        system_title=system.title,
        scope=_scope(first, last, round_count),
        options=options,
        encounter_rolls=tuple(r for r in rolls if r.round is None),
        rounds=tuple(rounds),
        final_states=final_states,
        combatants=tuple(Combatant(c.id, c.label, c.side) for c in scenario.combatants),
        notes=tuple(notes),
    )


def _title(campaign: str, encounter: str, first: int, last: int, count: int) -> str:
    parts = [p for p in (campaign.strip(), encounter.strip() or "Encounter") if p]
    if first == last:
        parts.append(f"Round {first}")
    elif (first, last) != (1, count):
        parts.append(f"Rounds {first}–{last}")
    return " — ".join(parts)


def _scope(first: int, last: int, count: int) -> str:
    if first == last:
        return f"round {first} of {count}"
    if (first, last) == (1, count):
        return f"the whole encounter ({plural(count, 'round')})"
    return f"rounds {first}–{last} of {count}"


def _tokens(text: str, names: Names) -> frozenset[str]:
    return frozenset(names.text(text).lower().split())


_ENGINE_TU = re.compile(r"initiative (.+) \(actions\[(\d+)\]\)")
_ASKED_TU = re.compile(r"initiative (.+) \([^,()]+(?:, (\d+)(?:st|nd|rd|th) action)?\)")


def _tu_action_key(purpose: str, actors: Sequence[str]) -> tuple[str, int] | None:
    """Gets (actor, n-th action of that actor) from a time-unit d10's purpose, as the engine
    words it (``initiative bolog (actions[3])``) or as the app asked for it (``initiative
    bolog (melee, 2nd action)``): the two name one die in different words."""
    engine = _ENGINE_TU.fullmatch(purpose)
    if engine is not None:
        index = int(engine.group(2))
        if index >= len(actors):
            return None
        actor = engine.group(1)
        return actor, sum(1 for a in actors[: index + 1] if a == actor)
    asked = _ASKED_TU.fullmatch(purpose)
    if asked is not None:
        return asked.group(1), int(asked.group(2) or 1)
    return None


def _rolled_by_app(
    rolls: Sequence[Roll], recorded: Sequence[Roll] | None, names: Names,
    actors: Sequence[str] = (),
) -> frozenset[int]:
    """Finds the engine's "given" dice that the app rolled (the log knows; the scenario not).

    ``actors``: the actor of each time-unit action, so a d10 is matched to the action it was
    rolled for (issue 25: app-rolled d10s printed as typed in)."""
    if not recorded:
        return frozenset()
    pool = [r for r in recorded if not r.manual]
    found = set()
    for i, roll in enumerate(rolls):
        if not roll.manual:
            continue
        mine = _tokens(roll.purpose, names)
        key = _tu_action_key(roll.purpose, actors) if actors else None
        for j, candidate in enumerate(pool):
            theirs = _tokens(candidate.purpose, names)
            same = (key is not None and key == _tu_action_key(candidate.purpose, actors)) or (
                mine <= theirs or theirs <= mine)
            if (
                candidate.total == roll.total
                and candidate.expression == roll.expression
                and same
            ):
                found.add(i)
                del pool[j]
                break
    return frozenset(found)


def _nth_round(scenario: Scenario, purpose: str, nth: int) -> int | None:
    """Places a round-by-round die whose purpose names no round (addict's ``initiative
    party``): the n-th such die belongs to the n-th round that can roll it."""
    if scenario.system not in SEGMENT_SYSTEMS:
        return None
    what = purpose.split()[:1]
    if what == ["initiative"]:
        rounds = [i + 1 for i, spec in enumerate(scenario.rounds) if not spec.surprise]
    elif what == ["morale"]:
        rounds = [i + 1 for i, spec in enumerate(scenario.rounds) if spec.raw.get("morale")]
    else:
        return None
    return rounds[nth - 1] if nth <= len(rounds) else None


def _declared_items(
    scenario: Scenario, number: int, action_rounds: Mapping[str, int]
) -> list[Declaration | Turn | TimedAction]:
    if scenario.system == "time-units":
        # An action belongs to the round where its first step falls; a dropped one to round 1
        # only if nothing else places it (its actor fell before it could start).
        return [a for a in scenario.actions if action_rounds.get(a.path, 1) == number]
    if number > len(scenario.rounds):
        return []
    spec = scenario.rounds[number - 1]
    return [*spec.declarations, *spec.turns]


def _round_summary(
    scenario: Scenario,
    resolution: Resolution,
    number: int,
    own: Sequence[Step],
    *,
    spec_items: Sequence[Declaration | Turn | TimedAction],
    declarations_title: str,
    rolls: tuple[RollRow, ...],
    surprise: bool,
    after_surprise: bool = False,
    names: Names,
    turn_index: Mapping[int, str],
    track: Mapping[str, _Track],
    final: bool,
    effects: tuple[EffectRow, ...],
    round_tu: int,
    tu_range: tuple[int, int],
) -> RoundSummary:
    system = scenario.system
    groups: dict[int | None, int] = {}
    for s in own:
        groups[s.group] = groups.get(s.group, 0) + 1
    step_rows = []
    play: list[PlayRow] = []
    hits, spells, notes = [], [], []
    for s in own:
        when = _when(s, system, turn_index)
        play.append(
                PlayRow(
                when=when,
                text=step_sentence(s, names, brief=True),
                why=step_why(s, names, system),
                simultaneous=s.group is not None and groups[s.group] > 1,
            )
        )
        step_rows.append(
            StepRow(
                seq=s.seq,
                when=when,
                group=s.group,
                simultaneous=s.group is not None and groups[s.group] > 1,
                actor=names(s.actor),
                event=str(s.event),
                text=step_text(s, names),
                because=s.because,
            )
        )
        if s.event in ATTACK_EVENTS:
            result = {StepEvent.HITS: "hit", StepEvent.MISSES: "miss"}.get(s.event, "attack")
            weapon = s.detail.get("weapon") or _default_weapon(scenario, s.actor)
            hits.append(_hit_row(s, when, names, result, plain(weapon) if weapon else ""))
        elif s.event == StepEvent.SPELL_TAKES_EFFECT and "damage" in s.detail:
            hits.append(_hit_row(s, when, names, "hit", f"spell {plain(s.detail.get('spell'))}"))
        if s.event in (
            StepEvent.BEGINS_CASTING,
            StepEvent.SPELL_TAKES_EFFECT,
            StepEvent.SPELL_DISRUPTED,
        ):
            outcome = {
                StepEvent.BEGINS_CASTING: "begun",
                StepEvent.SPELL_TAKES_EFFECT: "cast",
                StepEvent.SPELL_DISRUPTED: "lost",
            }[s.event]
            spells.append(
                SpellRow(
                    when=when,
                    caster=names(s.actor),
                    spell=plain(s.detail.get("spell")),
                    outcome=outcome,
                    details=step_text(s, names),
                )
            )
        if s.event in (
            StepEvent.MORALE_CHECK,
            StepEvent.BLEEDS,
            StepEvent.DIES,
            StepEvent.FLEES,
        ):
            notes.append(NoteRow(when=when, actor=names(s.actor), text=step_text(s, names)))
    states = _state_rows(scenario, track, final, resolution)
    states_note = (
        "Hit points as the steps report them; at 0 hp or less a combatant that neither died "
        "nor fled is unconscious; conditions running (asleep, held…) follow the status."
    )
    first = own[0].seq if own else 0
    begun_earlier = frozenset(
        key
        for s in resolution.steps
        if s.seq < first and s.event == StepEvent.BEGINS_CASTING
        for key in [_span_key(s)]
        if key is not None
    )
    timeline, popcorn_axis = _timeline(system, own, turn_index, begun_earlier)
    if system == "time-units" and own:
        lo = min(tu_range[0], *(s.tu for s in own if s.tu is not None))
        hi = max(tu_range[1], *(s.tu for s in own if s.tu is not None))
        tu_range = (lo, hi)
    axis = popcorn_axis or _axis(system, own, surprise, tu_range, round_tu)
    quiet = "" if own else quiet_round_words(
        len(spec_items), [f"{r.purpose}: {r.total}" for r in rolls])
    return RoundSummary(
        quiet=quiet,
        number=number,
        title=_round_title(system, number, surprise, round_tu, after_surprise),
        surprise=surprise,
        declarations_title=declarations_title,
        declarations=tuple(DeclarationRow(*declaration_parts(item, names)) for item in spec_items),
        rolls=rolls,
        play=tuple(play),
        steps=tuple(step_rows),
        hits=tuple(hits),
        spells=tuple(spells),
        notes=tuple(notes),
        effects=effects,
        effects_note=effects_note(system),
        states=states,
        states_note=states_note,
        timeline=timeline,
        axis=axis,
    )


def _default_weapon(scenario: Scenario, cid: str) -> str:
    """Gets the weapon an attack uses when its entry names none: the combatant's first."""
    combatant = next((c for c in scenario.combatants if c.id == cid), None)
    weapon = combatant.weapon(None) if combatant is not None else None
    return weapon.name if weapon is not None else ""


def _hit_row(step: Step, when: str, names: Names, result: str, means: str) -> HitRow:
    damage, hp = step.detail.get("damage"), step.detail.get("hp")
    return HitRow(
        when=when,
        actor=names(step.actor),
        target=names(step.target),
        result=result,
        means=means,
        damage=damage if isinstance(damage, int) else None,
        hp_after=hp if isinstance(hp, int) else None,
    )
