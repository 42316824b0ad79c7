"""The bridge between an encounter log and the rules engine.

An encounter is built by commands (configure, add combatants, record dice, start rounds,
declare…); :func:`scenario_document` turns the folded state back into a scenario, so the app,
the store and the command line all resolve an encounter the same way. A scenario file can be
split into the commands a DM would have given (:func:`commands_for_scenario`), which is how the
tests prove that a replayed log gives the same resolution.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from core.log import ROUND_LISTS, Command, EncounterState, Event, EventKind, LogError, record_roll
from core.model import Resolution, Roll, frozen_mapping
from core.rules import RollSource, find_system
from core.rules.base import RollRequest
from core.scenario import SCENARIO_FORMAT, combatant_to_json, parse_scenario

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


def rolls_needed(state: EncounterState) -> list[RollRequest]:
    """Lists the dice the encounter still needs, as its system says."""
    system = find_system(str(state.config.get("system")))
    return system.rolls_needed(scenario_document(state))


def roll_command(state: EncounterState, request: RollRequest, roll: Roll) -> Command:
    """Makes one command that records ``roll`` and puts its total where ``request`` says.

    Rolled or typed in, the die is one undoable command: the record and the scenario field.
    """
    where = request.where
    record = record_roll(replace(roll, purpose=roll.purpose or request.purpose)).events[0]
    if where[0] == "rounds":
        if not state.rounds:
            raise LogError("no round has started")
        name, key = str(where[2]), str(where[3])
        current = state.rounds[-1].get(name) or {}
        placed = Event(EventKind.ROUND_FIELD_SET,
                       frozen_mapping({"name": name, "value": {**current, key: roll.total}}))
    elif where[0] == "actions":
        index = int(where[1])
        if not 0 <= index < len(state.actions):
            raise LogError(f"there is no time-unit action {index}")
        entry = {**state.actions[index], str(where[2]): roll.total}
        placed = Event(EventKind.ENTRY_REPLACED,
                       frozen_mapping({"list": "actions", "index": index, "entry": entry}))
    else:
        name, key = str(where[0]), str(where[1])
        current = state.fields.get(name) or {}
        placed = Event(EventKind.SCENARIO_FIELD_SET,
                       frozen_mapping({"name": name, "value": {**current, key: roll.total}}))
    how = "typed in" if roll.manual else "rolled"
    return Command(f"{request.purpose}: {roll.total} ({how})", (record, placed))


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


def replace_entry(which: str, index: int, entry: Mapping[str, Any]) -> Command:
    """Makes the command that changes a declaration, turn or TU action."""
    return _command(f"Change {entry.get('actor')}: {entry.get('action') or 'turn'}",
                    EventKind.ENTRY_REPLACED, {"list": which, "index": index, "entry": dict(entry)})


def remove_entry(which: str, index: int) -> Command:
    """Makes the command that takes a declaration, turn or TU action back."""
    return _command(f"Take back {which} {index + 1}", EventKind.ENTRY_REMOVED,
                    {"list": which, "index": index})


def resolve_state(state: EncounterState, dice: RollSource) -> Resolution:
    """Resolves the encounter as its log stands (ScenarioError names what is wrong)."""
    scenario = parse_scenario(scenario_document(state))
    resolution: Resolution = find_system(scenario.system).resolve(scenario, dice)
    return resolution
