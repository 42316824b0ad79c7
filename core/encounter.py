"""The bridge between an encounter log and the rules engine.

An encounter is built by commands (configure, add combatants, record dice, start rounds,
declare…); :func:`scenario_document` turns the folded state back into a scenario, so the app,
the store and the command line all resolve an encounter the same way. A scenario file can be
split into the commands a DM would have given (:func:`commands_for_scenario`), which is how the
tests prove that a replayed log gives the same resolution.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.log import ROUND_LISTS, Command, EncounterState, Event, EventKind
from core.model import Resolution, frozen_mapping
from core.rules import RollSource, find_system
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


def resolve_state(state: EncounterState, dice: RollSource) -> Resolution:
    """Resolves the encounter as its log stands (ScenarioError names what is wrong)."""
    scenario = parse_scenario(scenario_document(state))
    resolution: Resolution = find_system(scenario.system).resolve(scenario, dice)
    return resolution
