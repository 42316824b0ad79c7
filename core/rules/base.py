"""What every initiative system provides, and the rule catalogue entries it cites.

A system is a plain object with an ``id``, its ``rules`` (catalogue entries quoted in
``docs/rules.md``), its ``phases`` (the procedure the app's stepper walks through) and a
``resolve`` that turns a scenario into ordered :class:`~core.model.values.Step` values. Dice the
scenario does not give come from the injected :class:`RollSource`; the rules never roll.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any, ClassVar, Protocol, TypeVar

from core.model.scenario import Scenario, ScenarioError
from core.model.values import Roll


class RollSource(Protocol):
    """Anything that turns dice notation into a :class:`Roll` (the app's seeded roller)."""

    def roll(self, expression: str, purpose: str = "") -> Roll: ...


@dataclass(frozen=True, slots=True)
class Rule:
    """One catalogue entry: a rule the engine applies, and where it comes from."""

    id: str
    source: str
    """Source file under ``shared/rules``."""
    heading: str
    """Heading (or paragraph title) in the source file."""
    summary: str
    """What the rule does, in our own words."""
    option: str | None = None
    """The house-rule option that changes it, if any."""


@dataclass(frozen=True, slots=True)
class Phase:
    """One phase of a system's procedure, as the stepper shows it."""

    id: str
    title: str
    rule_ids: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RollRequest:
    """A die the encounter still needs, and where in the scenario its result goes.

    ``where`` is a path into the scenario document: ``("surprise", "party")``,
    ``("rounds", -1, "initiative", "monsters")`` (the current round),
    ``("initiative", "orc-1")`` or ``("actions", 3, "roll")``.
    """

    where: tuple[str | int, ...]
    expression: str
    purpose: str


def missing_side_dice(
    document: Mapping[str, Any], where: tuple[str | int, ...], given: Any, what: str,
    expression: str = "1d6", skip: frozenset[str] = frozenset(),
) -> list[RollRequest]:
    """Lists a die for every side of the scenario that ``given`` (a side → result map) lacks."""
    given = given if isinstance(given, Mapping) else {}
    sides = dict.fromkeys(
        c.get("side") for c in document.get("combatants") or [] if isinstance(c, Mapping)
    )
    return [
        RollRequest((*where, side), expression, f"{what} {side}")
        for side in sides
        if isinstance(side, str) and side not in given and side not in skip
    ]


class InitiativeSystem(Protocol):
    """The protocol every system module's ``SYSTEM`` object follows."""

    id: ClassVar[str]
    title: ClassVar[str]
    options_type: ClassVar[type[Any]]
    rules: ClassVar[Mapping[str, Rule]]

    def phases(self) -> Sequence[Phase]: ...

    def resolve(self, scenario: Scenario, dice: RollSource) -> Any: ...

    def rolls_needed(self, document: Mapping[str, Any]) -> list[RollRequest]: ...


OptionsT = TypeVar("OptionsT")


def parse_options(options_type: type[OptionsT], raw: Mapping[str, Any]) -> OptionsT:
    """Builds a frozen options dataclass from a scenario's ``options`` object.

    Unknown names and values of the wrong type raise :class:`ScenarioError` naming the option.
    """
    known = {f.name for f in fields(options_type)}  # type: ignore[arg-type]
    defaults = options_type()
    values: dict[str, Any] = {}
    for name, value in raw.items():
        if name not in known:
            allowed = ", ".join(sorted(known)) or "none"
            raise ScenarioError(f"options.{name}", f"unknown option (known: {allowed})")
        values[name] = _coerce_option(name, value, getattr(defaults, name))
    return options_type(**values)


def _coerce_option(name: str, value: Any, default: Any) -> Any:
    if isinstance(default, Enum):
        try:
            return type(default)(value)
        except ValueError:
            allowed = ", ".join(str(m.value) for m in type(default))
            raise ScenarioError(f"options.{name}", f"{value!r} is not one of {allowed}") from None
    if default is None:
        return value
    if isinstance(default, bool) or isinstance(value, bool):
        ok = isinstance(value, bool) and isinstance(default, bool)
    else:
        ok = isinstance(value, type(default))
    if not ok:
        raise ScenarioError(f"options.{name}", f"expected {type(default).__name__}, got {value!r}")
    return value


def rule_table(*rules: Rule) -> Mapping[str, Rule]:
    """Builds a catalogue mapping, refusing duplicate ids."""
    table: dict[str, Rule] = {}
    for rule in rules:
        if rule.id in table:
            raise ValueError(f"duplicate rule id {rule.id}")
        table[rule.id] = rule
    return table


def healed(hp: int | None, max_hp: int | None, heal: int) -> int | None:
    """Gets hit points after healing: up by ``heal``, never above the maximum (if known)."""
    if hp is None or heal <= 0:
        return hp
    return hp + heal if max_hp is None else max(hp, min(hp + heal, max_hp))


def volley_target(targets: Sequence[str], shot: int,
                  standing: Callable[[str], bool]) -> tuple[str | None, str | None]:
    """Gets whom shot ``shot`` (from 0) of a split volley goes at, and whom it was meant for.

    Shot *i* goes at the *i*-th listed target, every shot past the list at the last one. A
    shot whose target has fallen goes at the next listed target still standing (the second
    value then names the fallen one); with none left after it, the shot is not taken
    (``None``). Shared by every system that reads ``targets`` for several attacks.
    """
    place = min(shot, len(targets) - 1)
    aimed = targets[place]
    if standing(aimed):
        return aimed, None
    return next((t for t in targets[place + 1:] if standing(t)), None), aimed
