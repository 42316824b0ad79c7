"""The bridge between an encounter log and the rules engine.

An encounter is built by commands (configure, add combatants, record dice, start rounds,
declare…); :func:`scenario_document` turns the folded state back into a scenario, so the app,
the store and the command line all resolve an encounter the same way. A scenario file can be
split into the commands a DM would have given (:func:`commands_for_scenario`), which is how the
tests prove that a replayed log gives the same resolution.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from core.fight.log import (
    ROUND_LISTS,
    Command,
    EncounterState,
    Event,
    EventKind,
    LogError,
    record_roll,
)
from core.model.scenario import SCENARIO_FORMAT, Scenario, combatant_to_json, parse_scenario
from core.model.values import Combatant, Resolution, Roll, frozen_mapping
from core.rules import RollSource, find_system
from core.rules.base import RollRequest
from core.rules.popcorn import ARRIVES

_STRUCTURE = frozenset({"format", "system", "options", "seed", "combatants", "rounds", "actions"})


def _command(name: str, kind: EventKind, data: Mapping[str, Any]) -> Command:
    return Command(name, (Event(kind, frozen_mapping(data)),))


def configure(system: str, options: Mapping[str, Any] | None = None,
              seed: int | None = None) -> Command:
    """Makes the command that sets the encounter's system, options and dice seed."""
    return _command(f"Use {system}", EventKind.ENCOUNTER_CONFIGURED,
                    {"system": system, "options": dict(options or {}), "seed": seed})


def commands_for_scenario(document: Mapping[str, Any]) -> list[Command]:
    """Splits a scenario document into the commands that would build it, in order."""
    commands = [configure(str(document.get("system")), document.get("options") or {},
                          document.get("seed"))]
    for combatant in document.get("combatants") or []:
        label = combatant.get("name") or combatant.get("id")
        commands.append(_command(f"Add {label}", EventKind.COMBATANT_ADDED,
                                 {"combatant": combatant}))
    for name, value in document.items():
        if name not in _STRUCTURE:
            commands.append(_command(f"Set {name}", EventKind.SCENARIO_FIELD_SET,
                                     {"name": name, "value": value}))
    for number, round_spec in enumerate(document.get("rounds") or [], start=1):
        fields = {k: v for k, v in round_spec.items() if k not in ROUND_LISTS}
        commands.append(_command(f"Start round {number}", EventKind.ROUND_STARTED,
                                 {"round": number, "fields": fields}))
        for which in ROUND_LISTS:
            for entry in round_spec.get(which) or []:
                commands.append(_command(f"{entry.get('actor')}: {entry.get('action')}",
                                         EventKind.ROUND_ENTRY_ADDED,
                                         {"list": which, "entry": entry}))
    for entry in document.get("actions") or []:
        commands.append(_command(f"{entry.get('actor')}: {entry.get('action')}",
                                 EventKind.TIMED_ACTION_ADDED, {"entry": entry}))
    return commands


def _plain(value: Any) -> Any:
    """Gets a JSON-shaped copy of a value made of read-only mappings and tuples."""
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def scenario_document(state: EncounterState) -> dict[str, Any]:
    """Gets the scenario the encounter's state describes (``combatdesk/scenario-1``)."""
    document: dict[str, Any] = {
        "format": SCENARIO_FORMAT,
        "system": state.config.get("system"),
        "options": _plain(state.config.get("options") or {}),
        "combatants": [combatant_to_json(c) for c in state.combatants.values()],
    }
    if state.config.get("seed") is not None:
        document["seed"] = state.config["seed"]
    document.update(_plain(state.fields))
    if state.rounds:
        document["rounds"] = _plain(state.rounds)
    if state.actions:
        document["actions"] = _plain(state.actions)
    return document


def arriving(state: EncounterState, combatants: Sequence[Combatant]) -> list[Combatant]:
    """Marks creatures added to a running popcorn fight with where they arrive: they roll
    initiative on arrival and wait to be named instead of taking the first turn."""
    if state.config.get("system") != "popcorn" or not state.rounds:
        return list(combatants)
    turns = state.rounds[-1].get("turns") or ()
    arrival = {"round": len(state.rounds), "after_turns": len(turns)}
    return [replace(c, extra=frozen_mapping({**c.extra, ARRIVES: arrival})) for c in combatants]


def rolls_needed(state: EncounterState,
                 document: Mapping[str, Any] | None = None) -> list[RollRequest]:
    """Lists the dice the encounter still needs, as its system says; ``document`` is the
    state's scenario_document when the caller has made it already."""
    system = find_system(str(state.config.get("system")))
    return system.rolls_needed(dict(document) if document is not None
                               else scenario_document(state))


def _current_where(state: EncounterState, where: tuple[str | int, ...]) -> tuple[str | int, ...]:
    """Gets ``where`` with a round index of -1 (the current round) made absolute."""
    if where and where[0] == "rounds":
        if not state.rounds:
            raise LogError("no round has started")
        index = int(where[1])
        index = index + len(state.rounds) if index < 0 else index
        if not 0 <= index < len(state.rounds):
            raise LogError(f"there is no round {index + 1}")
        return ("rounds", index, *where[2:])
    return where


def _placement(state: EncounterState, where: tuple[str | int, ...], total: int) -> Event:
    """Gets the event that puts a die's total at ``where`` in the scenario the state makes."""
    if where[0] == "rounds":
        index = int(where[1])
        name, key = str(where[2]), str(where[3])
        current = state.rounds[index].get(name) or {}
        data: dict[str, Any] = {"name": name, "value": {**current, key: _with_roll(
            current.get(key), total)}}
        if index != len(state.rounds) - 1:
            data["round"] = index + 1
        return Event(EventKind.ROUND_FIELD_SET, frozen_mapping(data))
    if where[0] == "actions":
        index = int(where[1])
        if not 0 <= index < len(state.actions):
            raise LogError(f"there is no time-unit action {index}")
        entry = {**state.actions[index], str(where[2]): total}
        return Event(EventKind.ENTRY_REPLACED,
                     frozen_mapping({"list": "actions", "index": index, "entry": entry}))
    name, key = str(where[0]), str(where[1])
    current = state.fields.get(name) or {}
    return Event(EventKind.SCENARIO_FIELD_SET, frozen_mapping(
        {"name": name, "value": {**current, key: _with_roll(current.get(key), total)}}))


def _with_roll(entry: Any, total: int) -> Any:
    """Gets what a die's total makes of an entry: the total, or an object's ``roll`` set (a
    morale check's ``{"after": …}`` keeps when it was set off)."""
    if isinstance(entry, Mapping):
        return {**entry, "roll": total}
    return total


def roll_command(state: EncounterState, request: RollRequest, roll: Roll,
                 replaces: int | None = None) -> Command:
    """Makes one command that records ``roll`` and puts its total where ``request`` says.

    Rolled or typed in, the die is one undoable command: the record and the scenario field.
    ``replaces`` names an earlier roll (its index in ``state.rolls``) this one is made
    instead of; the earlier one stays in the history.
    """
    where = _current_where(state, request.where)
    record = record_roll(replace(roll, purpose=roll.purpose or request.purpose)).events[0]
    payload: dict[str, Any] = {**record.data, "where": list(where)}
    if replaces is not None:
        payload["replaces"] = replaces
    placed = _placement(state, where, roll.total)
    how = "typed in" if roll.manual else "rolled"
    verb = "instead" if replaces is not None else ""
    name = f"{request.purpose}: {roll.total} ({how}{' ' + verb if verb else ''})"
    return Command(name, (Event(EventKind.ROLL_RECORDED, frozen_mapping(payload)), placed))


def _inferred_where(event: Event, purpose: str, total: int,
                    current_round: int) -> tuple[str | int, ...] | None:
    """Gets where an old roll (recorded before ``where`` was kept) put its total."""
    data = event.data
    if event.kind is EventKind.ENTRY_REPLACED and data.get("list") == "actions":
        return ("actions", int(data.get("index", 0)), "roll")
    value = data.get("value")
    if event.kind not in (EventKind.SCENARIO_FIELD_SET, EventKind.ROUND_FIELD_SET) or not (
            isinstance(value, Mapping)):
        return None
    keys = [k for k, v in value.items() if v == total and purpose.endswith(str(k))]
    if not keys:
        return None
    if event.kind is EventKind.SCENARIO_FIELD_SET:
        return (str(data.get("name")), str(keys[0]))
    number = data.get("round")
    index = int(number) - 1 if isinstance(number, int) else current_round - 1
    return ("rounds", index, str(data.get("name")), str(keys[0]))


def roll_request_of(commands: Sequence[Command], index: int) -> RollRequest | None:
    """Gets what the ``index``-th recorded roll was for (None: it went to no scenario field)."""
    seen, rounds = -1, 0
    for command in commands:
        for position, event in enumerate(command.events):
            if event.kind is EventKind.ROUND_STARTED:
                rounds += 1
            if event.kind is not EventKind.ROLL_RECORDED:
                continue
            seen += 1
            if seen != index:
                continue
            data = event.data
            purpose, expression = str(data.get("purpose", "")), str(data.get("expression", ""))
            stored = data.get("where")
            if isinstance(stored, list | tuple) and stored:
                return RollRequest(tuple(stored), expression, purpose)
            following = command.events[position + 1:position + 2]
            if not following:
                return None
            where = _inferred_where(following[0], purpose, int(data.get("total", 0)), rounds)
            return None if where is None else RollRequest(where, expression, purpose)
    return None


def change_roll(commands: Sequence[Command], state: EncounterState, index: int,
                roll: Roll) -> Command:
    """Makes the command that records ``roll`` instead of the ``index``-th roll made.

    One command: the new roll (naming the one it replaces) and the scenario field set to its
    total. The old roll stays in the log, so undo brings it back.
    """
    if not 0 <= index < len(state.rolls):
        raise LogError(f"there is no roll {index + 1} to change")
    if index in state.replaced_rolls:
        raise LogError("that roll was already replaced; change the newer one")
    request = roll_request_of(commands, index)
    if request is None:
        raise LogError(f"{state.rolls[index].purpose or 'that roll'} went to no scenario field")
    return roll_command(state, request, replace(roll, purpose=request.purpose), replaces=index)


def morale_dice(state: EncounterState, resolution: Resolution | None) -> list[RollRequest]:
    """Lists the morale dice the engine would roll from the seed, so the DM can give them.

    These are the scenario fields the systems already read: popcorn's round ``morale``
    (``{id: 2d6}``; one die for every ``morale-check`` step the engine made without one) and
    addict's ``opening_morale`` / round ``morale`` entries left ``null`` (or without ``roll``).
    """
    system = str(state.config.get("system"))
    needed: list[RollRequest] = []
    if system == "popcorn" and resolution is not None:
        for step in resolution.steps:
            if step.event != "morale-check" or step.round is None:
                continue
            index = step.round - 1
            if not 0 <= index < len(state.rounds):
                continue
            given = state.rounds[index].get("morale") or {}
            if isinstance(given, Mapping) and step.actor not in given:
                needed.append(RollRequest(("rounds", index, "morale", step.actor), "2d6",
                                          f"morale {step.actor} (round {step.round})"))
    elif system == "addict":
        options = state.config.get("options") or {}
        dice = str(options.get("morale_dice") or find_system(system).options_type().morale_dice)
        places: list[tuple[tuple[str | int, ...], Any, str]] = [
            (("opening_morale",), state.fields.get("opening_morale"), "opening morale")]
        places += [(("rounds", i, "morale"), spec.get("morale"), f"morale (round {i + 1})")
                   for i, spec in enumerate(state.rounds)]
        for where, checks, what in places:
            if not isinstance(checks, Mapping):
                continue
            for who, value in checks.items():
                # null, or {"after": …} without its roll (a check set off by a blow)
                if value is None or (isinstance(value, Mapping) and value.get("roll") is None):
                    needed.append(RollRequest((*where, str(who)), dice, f"{what} {who}"))
    return needed


def set_field(name: str, value: Any) -> Command:
    """Makes the command that sets an encounter-wide field (``surprise``, ``reaction``…)."""
    return _command(f"Set {name}", EventKind.SCENARIO_FIELD_SET, {"name": name, "value": value})


def enter_phase(phase_id: str, title: str = "") -> Command:
    """Makes the command that moves the procedure stepper to a phase (no scenario change)."""
    return _command(f"Phase: {title or phase_id}", EventKind.PHASE_ENTERED, {"phase": phase_id})


def start_round(number: int, fields: Mapping[str, Any] | None = None) -> Command:
    """Makes the command that opens round ``number`` (``{"surprise": true}`` for surprise)."""
    return _command(f"Start round {number}", EventKind.ROUND_STARTED,
                    {"round": number, "fields": dict(fields or {})})


def add_entry(which: str, entry: Mapping[str, Any]) -> Command:
    """Makes the command that adds a declaration or turn (current round) or a TU action."""
    label = f"{entry.get('actor')}: {entry.get('action') or 'turn'}"
    if which == "actions":
        return _command(label, EventKind.TIMED_ACTION_ADDED, {"entry": dict(entry)})
    return _command(label, EventKind.ROUND_ENTRY_ADDED, {"list": which, "entry": dict(entry)})


def _in_round(data: dict[str, Any], round_number: int | None) -> dict[str, Any]:
    if round_number is not None:
        data["round"] = round_number
    return data


def replace_entry(which: str, index: int, entry: Mapping[str, Any],
                  round_number: int | None = None) -> Command:
    """Makes the command that changes a declaration, turn or TU action.

    ``round_number`` (1-based) names an earlier round; None is the current round.
    """
    where = f" (round {round_number})" if round_number is not None else ""
    return _command(f"Change {entry.get('actor')}: {entry.get('action') or 'turn'}{where}",
                    EventKind.ENTRY_REPLACED,
                    _in_round({"list": which, "index": index, "entry": dict(entry)},
                              round_number))


def remove_entry(which: str, index: int, round_number: int | None = None) -> Command:
    """Makes the command that takes a declaration, turn or TU action back."""
    return _command(f"Take back {which} {index + 1}", EventKind.ENTRY_REMOVED,
                    _in_round({"list": which, "index": index}, round_number))


def set_round_field(name: str, value: Any, round_number: int | None = None) -> Command:
    """Makes the command that sets a field of a round (``morale``…; default: the current one)."""
    where = f" (round {round_number})" if round_number is not None else ""
    return _command(f"Set {name}{where}", EventKind.ROUND_FIELD_SET,
                    _in_round({"name": name, "value": value}, round_number))


def resolve_state(state: EncounterState, dice: RollSource) -> Resolution:
    """Resolves the encounter as its log stands (ScenarioError names what is wrong)."""
    return resolve_document(scenario_document(state), dice)[1]


def resolve_document(document: Mapping[str, Any],
                     dice: RollSource) -> tuple[Scenario, Resolution]:
    """Resolves a scenario document (``scenario_document``); gets the scenario read from it
    too, for a caller that needs both (the app's status panel)."""
    scenario = parse_scenario(document)
    resolution: Resolution = find_system(scenario.system).resolve(scenario, dice)
    return scenario, resolution
