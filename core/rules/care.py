"""Conditions: what a declaration, turn or action can do to a creature besides damage.

Every system reads the same outcome field (``docs/scenario-format.md``; healing is the
``heal`` field of the outcome, read by ``core.model.scenario``):

- ``conditions: [{name, target?, rounds?, ends?}]`` — a condition starts on the target (the
  entry's target, else the actor) when the entry takes effect, and lasts the rest of that round
  and ``rounds`` more (time units: ``rounds`` × the round's TU), or until a later entry ends it
  with ``ends: true``. Asleep, held, paralysed, stunned and helpless creatures take no action
  while the condition lasts; any other name (prone, blinded, charmed…) is shown and timed only.

The sources are silent on conditions; each system lists these rules under its own ids
(``<system>.care.*``) with the heading the rule sits closest to.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from core.model.scenario import ScenarioError
from core.rules.base import Rule

INCAPACITATING = frozenset({"asleep", "held", "paralysed", "paralyzed", "stunned", "helpless"})
"""Conditions under which a creature takes no action."""

CONDITION_NAMES = ("asleep", "held", "paralysed", "stunned", "helpless", "prone", "blinded",
                   "charmed", "frightened", "deafened", "silenced", "invisible")
"""The names the app offers (a scenario may use any other name)."""


@dataclass(frozen=True, slots=True)
class ConditionChange:
    """One condition an entry starts (or ends) on one creature."""

    name: str
    target: str
    rounds: int | None = None
    """Rounds after the one it starts in; None: until ended."""
    ends: bool = False


@dataclass(frozen=True, slots=True)
class Care:
    """Which conditions an entry starts or ends."""

    conditions: tuple[ConditionChange, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.conditions)


def _whole(value: Any, where: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(where, f"expected a whole number, got {value!r}")
    if value < low:
        raise ScenarioError(where, f"must be at least {low}, got {value}")
    return value


def read_care(raw: Mapping[str, Any], path: str, actor: str, target: str | None,
              ids: Collection[str]) -> Care:
    """Reads ``conditions`` from an entry; refuses bad fields by their path."""
    changes: list[ConditionChange] = []
    listed = raw.get("conditions")
    if listed is not None:
        if not isinstance(listed, list):
            raise ScenarioError(f"{path}.conditions", "expected a list of conditions")
        for i, item in enumerate(listed):
            where = f"{path}.conditions[{i}]"
            if isinstance(item, str):
                item = {"name": item}
            if not isinstance(item, Mapping):
                raise ScenarioError(where, f"expected a condition object, got {item!r}")
            name = item.get("name")
            if not isinstance(name, str) or not name.strip():
                raise ScenarioError(f"{where}.name", "a condition needs a name (e.g. asleep)")
            who = item.get("target", target or actor)
            if not isinstance(who, str) or who not in ids:
                raise ScenarioError(f"{where}.target", f"unknown combatant {who!r}")
            rounds = item.get("rounds")
            if rounds is not None:
                rounds = _whole(rounds, f"{where}.rounds", 0)
            ends = item.get("ends", False)
            if not isinstance(ends, bool):
                raise ScenarioError(f"{where}.ends", f"expected true or false, got {ends!r}")
            changes.append(ConditionChange(name.strip().lower(), who, rounds, ends))
    return Care(tuple(changes))


@dataclass(slots=True)
class Conditions:
    """The conditions running on each creature, with the time each ends (engine units)."""

    on: dict[str, dict[str, int | None]] = field(default_factory=dict)

    def start(self, cid: str, name: str, until: int | None) -> None:
        """Starts (or renews) a condition; ``until`` None lasts until ended."""
        self.on.setdefault(cid, {})[name] = until

    def end(self, cid: str, name: str) -> bool:
        """Ends a condition; tells whether it was running."""
        running = self.on.get(cid, {})
        if name not in running:
            return False
        del running[name]
        return True

    def blocking(self, cid: str) -> str | None:
        """Gets the first running condition that keeps ``cid`` from acting."""
        return next((n for n in self.on.get(cid, {}) if n in INCAPACITATING), None)

    def lasts_beyond(self, cid: str, now: int) -> bool:
        """Tells whether a condition keeping ``cid`` from acting runs on after ``now``."""
        return any(name in INCAPACITATING and (until is None or until > now)
                   for name, until in self.on.get(cid, {}).items())

    def due(self, now: int) -> list[tuple[str, str]]:
        """Ends and lists (creature, condition) of every condition ending at ``now`` or before."""
        out = [(cid, name) for cid, names in self.on.items()
               for name, until in names.items() if until is not None and until <= now]
        for cid, name in out:
            del self.on[cid][name]
        return out

    def names(self, cid: str) -> tuple[str, ...]:
        """Gets the conditions running on ``cid``."""
        return tuple(self.on.get(cid, {}))


def care_rule_ids(system_id: str) -> tuple[str, str]:
    """Gets the ids of the condition and cannot-act rules of a system."""
    return f"{system_id}.care.condition", f"{system_id}.care.cannot-act"


def care_rules(system_id: str, source: str, heading: str) -> tuple[Rule, ...]:
    """Gets the catalogue entries of conditions for one system."""
    condition, cannot_act = care_rule_ids(system_id)
    return (
        Rule(condition, source, heading,
             "Source silent: a condition such as asleep or held starts when the action that "
             "causes it takes effect, and lasts the rest of that round and the number of "
             "rounds given, or until the DM ends it."),
        Rule(cannot_act, source, heading,
             "Source silent: an asleep, held, paralysed, stunned or helpless creature takes "
             "no action while the condition lasts."),
    )
