"""The encounter log: the source of truth for a fight in progress.

Every DM command appends a :class:`Command` holding one or more :class:`Event` values; the
encounter state is a fold of :func:`apply_event` over every event of every live command. Undo
drops the last command, and replaying the remaining commands rebuilds the state exactly.
Event payloads are plain JSON values so that the store can keep them as they are.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any
from uuid import uuid4

from core.model.scenario import ScenarioError, combatant_to_json, read_combatant
from core.model.values import Combatant, Roll, Status, frozen_mapping


class LogError(ValueError):
    """A command that the encounter's current state cannot take (nothing is appended)."""


_NOT_FIELDS = frozenset({"format", "system", "options", "seed", "combatants", "rounds", "actions"})


class EventKind(StrEnum):
    """The kinds of event a command can append."""

    COMBATANT_ADDED = "combatant-added"
    """``{"combatant": {scenario combatant}}``."""
    COMBATANT_REMOVED = "combatant-removed"
    """``{"id": ...}``."""
    ROLL_RECORDED = "roll-recorded"
    """``{"purpose", "expression", "total", "dice", "manual", "where"?, "replaces"?}``.

    ``where`` is the scenario path the total went to; ``replaces`` the index (in
    :attr:`EncounterState.rolls`) of an earlier roll this one was made instead of."""
    ROUND_STARTED = "round-started"
    """``{"round": n}``."""
    PHASE_ENTERED = "phase-entered"
    """``{"phase": id}``."""
    DECLARED = "declared"
    """``{"actor", "action", ...}``: replaces the actor's declaration this round."""
    DECLARATION_CANCELLED = "declaration-cancelled"
    """``{"actor"}``."""
    ENCOUNTER_CONFIGURED = "encounter-configured"
    """``{"system", "options", "seed"}``: the system and house rules of the encounter."""
    SCENARIO_FIELD_SET = "scenario-field-set"
    """``{"name", "value"}``: an encounter-wide fact such as ``surprise`` or ``reaction``."""
    ROUND_ENTRY_ADDED = "round-entry-added"
    """``{"list": "declarations" | "turns", "entry"}``: appended to the current round."""
    TIMED_ACTION_ADDED = "timed-action-added"
    """``{"entry"}``: a time-unit action, in declaration order."""
    ROUND_FIELD_SET = "round-field-set"
    """``{"name", "value", "round"?}``: a field of a round, e.g. its ``initiative`` dice.

    ``round`` (1-based, as ``round-started`` numbers it) defaults to the current round, so a
    log written before it existed replays unchanged."""
    ENTRY_REPLACED = "entry-replaced"
    """``{"list", "index", "entry", "round"?}``: changes a declaration or turn of a round (the
    current one unless ``round`` names an earlier one), or a time-unit action
    (``list: "actions"``)."""
    ENTRY_REMOVED = "entry-removed"
    """``{"list", "index", "round"?}``: takes a declaration, turn or time-unit action back."""
    HP_CHANGED = "hp-changed"
    """``{"id", "delta"}``."""
    STATUS_CHANGED = "status-changed"
    """``{"id", "status"}``."""
    SURPRISE_MARKED = "surprise-marked"
    """``{"id", "surprised": true | null}``: the DM marks one creature surprised at the table
    (its ``surprised`` field), or leaves it to its side's surprise die again (null)."""
    HIDDEN_FROM_PLAYERS = "hidden-from-players"
    """``{"ids": [...], "hidden": bool}``: the DM hides creatures from the players' screen (not
    seen yet, surprising) or reveals them. Only what the table is shown changes: the scenario,
    and so every resolution, stays the same."""
    CLOCK_ADVANCED = "clock-advanced"
    """``{"tu", "actor", "source", "moment", "attack", "occurrence"}``: the time-unit clock
    moved on to one step of the resolution, named by what stays the same when the engine
    resolves again (its TU, actor, declaration, kind of moment, attack and which occurrence
    of those it is). The scenario, and so the resolution, stays the same."""


@dataclass(frozen=True, slots=True)
class Event:
    """One fact appended to the log."""

    kind: EventKind
    data: Mapping[str, Any] = field(default_factory=frozen_mapping)

    def to_json(self) -> dict[str, Any]:
        """Gets the event as a JSON object."""
        return {"kind": str(self.kind), "data": dict(self.data)}

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> Event:
        """Reads an event written by :meth:`to_json`."""
        try:
            kind = EventKind(value["kind"])
        except (KeyError, ValueError):
            raise LogError(f"unknown event kind {value.get('kind')!r}") from None
        return cls(kind, frozen_mapping(value.get("data") or {}))


def new_command_id() -> str:
    """Makes a fresh command id (random, so two windows never make the same one)."""
    return uuid4().hex


@dataclass(frozen=True, slots=True)
class Command:
    """A DM command: a name for the undo menu and the events it appended.

    ``id`` is made by the client when the command is made; the store keeps a command once per
    id, so a save retried after an unknown outcome (a server that died at commit) never
    stores it twice. Two commands with the same events are equal whatever their ids.
    """

    name: str
    events: tuple[Event, ...]
    id: str = field(default_factory=new_command_id, compare=False)


@dataclass(frozen=True, slots=True)
class EncounterState:
    """The encounter as the fold of its events."""

    combatants: Mapping[str, Combatant] = field(default_factory=frozen_mapping)
    round: int = 0
    phase: str | None = None
    rolls: tuple[Roll, ...] = ()
    declarations: Mapping[str, Mapping[str, Any]] = field(default_factory=frozen_mapping)
    config: Mapping[str, Any] = field(default_factory=frozen_mapping)
    """The system, options and seed (``encounter-configured``)."""
    fields: Mapping[str, Any] = field(default_factory=frozen_mapping)
    """Encounter-wide scenario fields: ``surprise``, ``reaction``, ``initiative``, …"""
    rounds: tuple[Mapping[str, Any], ...] = ()
    """Each round's fields with its ``declarations`` and ``turns`` lists, as in a scenario."""
    actions: tuple[Mapping[str, Any], ...] = ()
    """Time-unit actions in declaration order."""
    replaced_rolls: frozenset[int] = frozenset()
    """Indices of :attr:`rolls` that a later roll was made instead of (kept as history)."""
    hidden: frozenset[str] = frozenset()
    """Combatants the players' screen leaves out until the DM reveals them."""
    clock: Mapping[str, Any] | None = None
    """Where the DM moved the time-unit clock (``clock-advanced``); None: TU 0, not started."""


ROUND_LISTS = ("declarations", "turns")


def _combatant(state: EncounterState, cid: Any) -> Combatant:
    if cid not in state.combatants:
        raise LogError(f"no combatant {cid!r} in this encounter")
    return state.combatants[cid]


def _with_combatant(state: EncounterState, combatant: Combatant) -> EncounterState:
    return replace(state, combatants=frozen_mapping({**state.combatants, combatant.id: combatant}))


def apply_event(state: EncounterState, event: Event) -> EncounterState:
    """Gets the state after one event; raises :class:`LogError` if the event cannot apply."""
    data = event.data
    match event.kind:
        case EventKind.COMBATANT_ADDED:
            try:
                combatant = read_combatant(data.get("combatant"), "combatant")
            except ScenarioError as exc:
                raise LogError(str(exc)) from None
            if combatant.id in state.combatants:
                raise LogError(f"combatant {combatant.id!r} is already in the encounter")
            return _with_combatant(state, combatant)
        case EventKind.COMBATANT_REMOVED:
            cid = _combatant(state, data.get("id")).id
            rest = {k: v for k, v in state.combatants.items() if k != cid}
            decls = {k: v for k, v in state.declarations.items() if k != cid}
            return replace(
                state, combatants=frozen_mapping(rest), declarations=frozen_mapping(decls),
                hidden=state.hidden - {cid},
            )
        case EventKind.ROLL_RECORDED:
            roll = Roll(
                expression=str(data.get("expression", "")),
                total=int(data.get("total", 0)),
                dice=tuple(int(d) for d in data.get("dice", ())),
                manual=bool(data.get("manual", False)),
                purpose=str(data.get("purpose", "")),
            )
            replaced = data.get("replaces")
            if replaced is None:
                return replace(state, rolls=(*state.rolls, roll))
            if (not isinstance(replaced, int) or isinstance(replaced, bool)
                    or not 0 <= replaced < len(state.rolls)):
                raise LogError(f"there is no roll {replaced!r} to replace")
            return replace(state, rolls=(*state.rolls, roll),
                           replaced_rolls=state.replaced_rolls | {replaced})
        case EventKind.ROUND_STARTED:
            number = data.get("round")
            if not isinstance(number, int) or number != state.round + 1:
                raise LogError(f"round {number!r} cannot follow round {state.round}")
            fields = data.get("fields") or {}
            if not isinstance(fields, Mapping):
                raise LogError(f"round fields must be an object, got {fields!r}")
            new_round = frozen_mapping({**fields, **{name: () for name in ROUND_LISTS}})
            return replace(
                state, round=number, declarations=frozen_mapping(),
                rounds=(*state.rounds, new_round),
            )
        case EventKind.ENCOUNTER_CONFIGURED:
            return replace(state, config=frozen_mapping(data))
        case EventKind.SCENARIO_FIELD_SET:
            name = data.get("name")
            if not isinstance(name, str) or name in _NOT_FIELDS:
                raise LogError(f"{name!r} cannot be set as an encounter field")
            return replace(state, fields=frozen_mapping({**state.fields, name: data.get("value")}))
        case EventKind.ROUND_ENTRY_ADDED:
            which = data.get("list")
            if which not in ROUND_LISTS:
                raise LogError(f"a round has no list {which!r}")
            if not state.rounds:
                raise LogError("no round has started")
            last = state.rounds[-1]
            entry = frozen_mapping(data.get("entry") or {})
            updated = frozen_mapping({**last, which: (*last[which], entry)})
            return replace(state, rounds=(*state.rounds[:-1], updated))
        case EventKind.TIMED_ACTION_ADDED:
            entry = frozen_mapping(data.get("entry") or {})
            return replace(state, actions=(*state.actions, entry))
        case EventKind.ROUND_FIELD_SET:
            name = data.get("name")
            at = _round_index(state, data)
            if not isinstance(name, str) or name in ROUND_LISTS:
                raise LogError(f"{name!r} cannot be set as a round field")
            changed = frozen_mapping({**state.rounds[at], name: data.get("value")})
            return _with_round(state, at, changed)
        case EventKind.ENTRY_REPLACED | EventKind.ENTRY_REMOVED:
            return _edit_entry(state, event)
        case EventKind.PHASE_ENTERED:
            return replace(state, phase=str(data.get("phase")))
        case EventKind.DECLARED:
            actor = _combatant(state, data.get("actor")).id
            decls = {**state.declarations, actor: frozen_mapping(data)}
            return replace(state, declarations=frozen_mapping(decls))
        case EventKind.DECLARATION_CANCELLED:
            actor = _combatant(state, data.get("actor")).id
            if actor not in state.declarations:
                raise LogError(f"{actor} has declared nothing to cancel")
            decls = {k: v for k, v in state.declarations.items() if k != actor}
            return replace(state, declarations=frozen_mapping(decls))
        case EventKind.HP_CHANGED:
            combatant = _combatant(state, data.get("id"))
            delta = data.get("delta")
            if not isinstance(delta, int) or isinstance(delta, bool):
                raise LogError(f"hp change must be a whole number, got {delta!r}")
            hp = (combatant.hp or 0) + delta
            return _with_combatant(state, replace(combatant, hp=hp))
        case EventKind.STATUS_CHANGED:
            combatant = _combatant(state, data.get("id"))
            try:
                status = Status(str(data.get("status")))
            except ValueError:
                raise LogError(f"unknown status {data.get('status')!r}") from None
            return _with_combatant(state, replace(combatant, status=status))
        case EventKind.SURPRISE_MARKED:
            combatant = _combatant(state, data.get("id"))
            surprised = data.get("surprised")
            if surprised is not None and not isinstance(surprised, bool):
                raise LogError(f"surprised must be yes, no or unsaid, got {surprised!r}")
            if surprised == combatant.surprised:  # every command means something
                raise LogError(f"{combatant.id} is already marked so")
            return _with_combatant(state, replace(combatant, surprised=surprised))
        case EventKind.HIDDEN_FROM_PLAYERS:
            return _hide(state, data)
        case EventKind.CLOCK_ADVANCED:
            tu = data.get("tu")
            if isinstance(tu, bool) or not isinstance(tu, int) or tu < 0:
                raise LogError(f"the clock must stand at a TU of 0 or more, not {tu!r}")
            return replace(state, clock=frozen_mapping(data))
    raise LogError(f"unhandled event kind {event.kind}")  # pragma: no cover - enum is closed


def _hide(state: EncounterState, data: Mapping[str, Any]) -> EncounterState:
    """Hides creatures from the players' screen, or reveals them; a change that changes
    nothing (hiding the hidden) is refused, so every such command means something."""
    ids, hidden = data.get("ids"), data.get("hidden")
    if not isinstance(hidden, bool):
        raise LogError(f"hidden must be yes or no, got {hidden!r}")
    if not isinstance(ids, list | tuple) or not ids:
        raise LogError("name at least one combatant to hide or reveal")
    chosen = [_combatant(state, cid).id for cid in ids]
    if hidden:
        already = [cid for cid in chosen if cid in state.hidden]
        if already:
            raise LogError(f"{already[0]} is already hidden from the players")
        return replace(state, hidden=state.hidden | set(chosen))
    shown = [cid for cid in chosen if cid not in state.hidden]
    if shown:
        raise LogError(f"{shown[0]} is not hidden from the players")
    return replace(state, hidden=state.hidden - set(chosen))


def _round_index(state: EncounterState, data: Mapping[str, Any]) -> int:
    """Gets the position in :attr:`EncounterState.rounds` of the event's ``round`` (default:
    the current round)."""
    if not state.rounds:
        raise LogError("no round has started")
    number = data.get("round")
    if number is None:
        return len(state.rounds) - 1
    if isinstance(number, bool) or not isinstance(number, int) or not (
            1 <= number <= len(state.rounds)):
        raise LogError(f"there is no round {number!r} (rounds so far: {len(state.rounds)})")
    return number - 1


def _with_round(state: EncounterState, at: int, spec: Mapping[str, Any]) -> EncounterState:
    return replace(state, rounds=(*state.rounds[:at], spec, *state.rounds[at + 1:]))


def _edit_entry(state: EncounterState, event: Event) -> EncounterState:
    which, index = event.data.get("list"), event.data.get("index")
    at = -1
    if which == "actions":
        entries = list(state.actions)
    elif which in ROUND_LISTS and state.rounds:
        at = _round_index(state, event.data)
        entries = list(state.rounds[at][which])
    else:
        raise LogError(f"there is no list {which!r} to change")
    if not isinstance(index, int) or not 0 <= index < len(entries):
        raise LogError(f"{which} has no entry {index!r}")
    if event.kind is EventKind.ENTRY_REMOVED:
        del entries[index]
    else:
        entries[index] = frozen_mapping(event.data.get("entry") or {})
    if which == "actions":
        return replace(state, actions=tuple(entries))
    return _with_round(state, at, frozen_mapping({**state.rounds[at], which: tuple(entries)}))


def replay(commands: Iterable[Command], start: EncounterState | None = None) -> EncounterState:
    """Folds every event of ``commands`` over ``start`` (an empty encounter by default)."""
    state = start or EncounterState()
    for command in commands:
        for event in command.events:
            state = apply_event(state, event)
    return state


class EncounterLog:
    """The commands of one encounter, with the state they fold to.

    A snapshot is kept every :attr:`CHECKPOINT_EVERY` commands, so undo and "state after n
    commands" replay at most that many commands while memory stays linear in the log.
    """

    CHECKPOINT_EVERY = 64

    def __init__(self, commands: Sequence[Command] = ()) -> None:
        self._commands: list[Command] = []
        self._checkpoints: dict[int, EncounterState] = {0: EncounterState()}
        self._state = EncounterState()
        for command in commands:
            self.execute(command)

    @property
    def commands(self) -> tuple[Command, ...]:
        """Gets the live commands, oldest first."""
        return tuple(self._commands)

    @property
    def state(self) -> EncounterState:
        """Gets the current state."""
        return self._state

    def state_after(self, count: int) -> EncounterState:
        """Gets the state after the first ``count`` commands."""
        if not 0 <= count <= len(self._commands):
            raise LogError(f"the log has {len(self._commands)} commands, not {count}")
        base = count - count % self.CHECKPOINT_EVERY
        return replay(self._commands[base:count], self._checkpoints[base])

    def execute(self, command: Command) -> EncounterState:
        """Applies and appends a command; a command that cannot apply changes nothing."""
        if not command.events:
            raise LogError(f"command {command.name!r} has no events")
        state = replay([command], self._state)
        self._commands.append(command)
        self._state = state
        if len(self._commands) % self.CHECKPOINT_EVERY == 0:
            self._checkpoints[len(self._commands)] = state
        return state

    def undo(self) -> Command:
        """Removes the last command and returns it."""
        if not self._commands:
            raise LogError("nothing to undo")
        self._checkpoints.pop(len(self._commands), None)
        command = self._commands.pop()
        self._state = self.state_after(len(self._commands))
        return command


def add_combatant(combatant: Combatant) -> Command:
    """Makes the command that brings a combatant into the encounter."""
    return Command(
        f"Add {combatant.label}",
        (
            Event(
                EventKind.COMBATANT_ADDED,
                frozen_mapping({"combatant": combatant_to_json(combatant)}),
            ),
        ),
    )


def hide_from_players(ids: Sequence[str], hidden: bool = True) -> Command:
    """Makes the command that hides creatures from the players' screen (``hidden=False``:
    reveals them). One command however many: one Ctrl+Z takes it back."""
    verb = "Hide" if hidden else "Reveal"
    return Command(
        f"{verb} {', '.join(ids)}",
        (Event(EventKind.HIDDEN_FROM_PLAYERS,
               frozen_mapping({"ids": list(ids), "hidden": hidden})),),
    )


def advance_clock(mark: Mapping[str, Any]) -> Command:
    """Makes the command that moves the time-unit clock on to the step ``mark`` names (see
    :attr:`EventKind.CLOCK_ADVANCED`): saved like any command, so a restarted app shows the
    same clock, and one Ctrl+Z moves it back."""
    return Command(f"Advance the clock to TU {mark.get('tu')}",
                   (Event(EventKind.CLOCK_ADVANCED, frozen_mapping(dict(mark))),))


def mark_surprised(cid: str, surprised: bool | None = True) -> Command:
    """Makes the command that marks one creature surprised (``None``: its side's surprise die
    says again), as a scenario's ``surprised: true`` does."""
    verb = "Mark" if surprised else "Unmark"
    return Command(f"{verb} {cid} surprised",
                   (Event(EventKind.SURPRISE_MARKED,
                          frozen_mapping({"id": cid, "surprised": surprised})),))


def record_roll(roll: Roll) -> Command:
    """Makes the command that records a die roll (rolled or typed in)."""
    payload = {
        "purpose": roll.purpose,
        "expression": roll.expression,
        "total": roll.total,
        "dice": list(roll.dice),
        "manual": roll.manual,
    }
    how = "entered" if roll.manual else "rolled"
    return Command(
        f"Roll {roll.purpose or roll.expression} ({how} {roll.total})",
        (Event(EventKind.ROLL_RECORDED, frozen_mapping(payload)),),
    )
