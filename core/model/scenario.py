"""Reads ``combatdesk/scenario-1`` documents (DESIGN §6) into typed, validated values.

Only the shape shared by every system is checked here; each system validates the fields it
uses (a d6 of 7, an unknown nomination) and raises :class:`ScenarioError` naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from core.model.values import Combatant, Effect, Hit, Kind, Spell, Status, Weapon, frozen_mapping

SCENARIO_FORMAT = "combatdesk/scenario-1"


class ScenarioError(ValueError):
    """A scenario breaks the format or a rule; ``field`` is the JSON path of the culprit."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True, slots=True)
class Outcome:
    """Recorded results of an action's attacks (empty when the scenario gives none)."""

    hits: tuple[Hit, ...] = ()
    heal: int = 0
    """Hit points a spell (cure light wounds…) gives its target back, up to its maximum."""

    @property
    def damage(self) -> int:
        """Gets the total damage dealt by the hits."""
        return sum(h.damage for h in self.hits if h.hit)


@dataclass(frozen=True, slots=True)
class Declaration:
    """A declaration (addict, side-d6) as written in a scenario round."""

    path: str
    actor: str
    action: str
    target: str | None = None
    targets: tuple[str, ...] = ()
    """Every target named (``targets: [a, b, …]``): a split volley or an area's victims, in
    order; empty when the file names one ``target`` only (which is then ``targets[0]``)."""
    weapon: str | None = None
    spell: str | None = None
    charge: bool = False
    prepared: str | None = None
    """The trigger of a prepared action; ``"yes"`` when the file says only ``true``."""
    effect: Effect | None = None
    outcome: Outcome = Outcome()
    raw: Mapping[str, Any] = field(default_factory=frozen_mapping)


@dataclass(frozen=True, slots=True)
class Turn:
    """One popcorn turn in order of play."""

    path: str
    actor: str
    action: str | None = None
    target: str | None = None
    targets: tuple[str, ...] = ()
    """Every target named, in order (see :attr:`Declaration.targets`)."""
    waits: bool = False
    ready: str | None = None
    """The trigger of a readied action."""
    nominates: str | None = None
    nominates_again: str | None = None
    """Whom the creature names instead when its nominee fell before acting (popcorn)."""
    effect: Effect | None = None
    outcome: Outcome = Outcome()
    raw: Mapping[str, Any] = field(default_factory=frozen_mapping)


@dataclass(frozen=True, slots=True)
class RoundSpec:
    """One round of a segment or popcorn scenario."""

    path: str
    surprise: bool = False
    initiative: Mapping[str, int] = field(default_factory=frozen_mapping)
    declarations: tuple[Declaration, ...] = ()
    turns: tuple[Turn, ...] = ()
    raw: Mapping[str, Any] = field(default_factory=frozen_mapping)


@dataclass(frozen=True, slots=True)
class TimedAction:
    """One time-unit action, in declaration order, with its d10 ``roll`` when given."""

    path: str
    actor: str
    action: str
    target: str | None = None
    targets: tuple[str, ...] = ()
    """Every target named, in order (see :attr:`Declaration.targets`)."""
    spell: str | None = None
    attacks: int | None = None
    roll: int | None = None
    effect: Effect | None = None
    outcome: Outcome = Outcome()
    raw: Mapping[str, Any] = field(default_factory=frozen_mapping)


@dataclass(frozen=True)  # no slots: cached_property needs the instance __dict__
class Scenario:
    """A whole scenario file, validated for shape."""

    system: str
    combatants: tuple[Combatant, ...]
    options: Mapping[str, Any] = field(default_factory=frozen_mapping)
    seed: int | None = None
    surprise: Mapping[str, int] = field(default_factory=frozen_mapping)
    reaction: Any = None
    distance: Any = None
    initiative: Mapping[str, int] = field(default_factory=frozen_mapping)
    rounds: tuple[RoundSpec, ...] = ()
    actions: tuple[TimedAction, ...] = ()
    raw: Mapping[str, Any] = field(default_factory=frozen_mapping)

    @cached_property
    def _by_id(self) -> Mapping[str, Combatant]:
        return {c.id: c for c in self.combatants}

    def combatant(self, cid: str) -> Combatant:
        """Gets the combatant with id ``cid`` (KeyError if absent)."""
        return self._by_id[cid]

    @cached_property
    def ids(self) -> frozenset[str]:
        """Gets every combatant id."""
        return frozenset(c.id for c in self.combatants)

    @cached_property
    def sides(self) -> tuple[str, ...]:
        """Gets the sides in order of first appearance."""
        return tuple(dict.fromkeys(c.side for c in self.combatants))


# --- small typed readers: each names the field it complains about -----------------------------


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _type_name(value: object) -> str:
    return "null" if value is None else type(value).__name__


def read_int(
    data: Mapping[str, Any], key: str, path: str, default: int | None = None
) -> int | None:
    """Reads an optional integer field (booleans are refused: ``true`` is not a number)."""
    value = data.get(key, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(_join(path, key), f"expected a whole number, got {value!r}")
    return value


def read_str(
    data: Mapping[str, Any], key: str, path: str, default: str | None = None
) -> str | None:
    """Reads an optional string field."""
    value = data.get(key, default)
    if value is None:
        return default
    if not isinstance(value, str):
        raise ScenarioError(_join(path, key), f"expected text, got {_type_name(value)} {value!r}")
    return value


def read_bool(data: Mapping[str, Any], key: str, path: str, default: bool = False) -> bool:
    """Reads an optional true/false field."""
    value = data.get(key, default)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise ScenarioError(_join(path, key), f"expected true or false, got {value!r}")
    return value


def read_object(data: Mapping[str, Any], key: str, path: str) -> Mapping[str, Any]:
    """Reads an optional JSON object field (empty when absent)."""
    value = data.get(key)
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ScenarioError(_join(path, key), f"expected an object, got {_type_name(value)}")
    return value


def read_list(data: Mapping[str, Any], key: str, path: str) -> Sequence[Any]:
    """Reads an optional JSON array field (empty when absent)."""
    value = data.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise ScenarioError(_join(path, key), f"expected a list, got {_type_name(value)}")
    return value


def _obj(value: Any, path: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ScenarioError(path, f"expected an object, got {_type_name(value)}")
    return value


def _int_map(data: Mapping[str, Any], key: str, path: str) -> Mapping[str, int]:
    obj = read_object(data, key, path)
    out: dict[str, int] = {}
    for name in obj:
        value = read_int(obj, name, _join(path, key))
        assert value is not None or obj[name] is None
        if value is not None:
            out[name] = value
    return frozen_mapping(out)


def _weapon(value: Any, path: str) -> Weapon:
    data = _obj(value, path)
    name = read_str(data, "name", path)
    if not name:
        raise ScenarioError(f"{path}.name", "a weapon needs a name")
    length = data.get("length")
    if length is not None and (isinstance(length, bool) or not isinstance(length, int | float)):
        raise ScenarioError(f"{path}.length", f"expected a length in feet, got {length!r}")
    return Weapon(
        name=name,
        speed_factor=read_int(data, "speed_factor", path),
        length=None if length is None else float(length),
        missile=read_bool(data, "missile", path),
        slow=read_bool(data, "slow", path),
        rate_of_fire=read_int(data, "rate_of_fire", path),
    )


_FACT_KEYS = ("speed_factor", "length", "missile", "slow", "rate_of_fire")


def _weapon_facts(data: Mapping[str, Any], path: str) -> Mapping[str, Any] | None:
    """Reads an entry's optional ``weapon_facts``: facts for the named weapon in this action
    only (the desktop writes them when the DM picks a weapon from the weapon table)."""
    if data.get("weapon_facts") is None:
        return None
    facts = read_object(data, "weapon_facts", path)
    where = _join(path, "weapon_facts")
    unknown = sorted(k for k in facts if k not in _FACT_KEYS)
    if unknown:
        raise ScenarioError(
            _join(where, unknown[0]), f"unknown weapon fact (one of {', '.join(_FACT_KEYS)})"
        )
    _weapon({"name": "checked", **facts}, where)  # the same checks as a carried weapon's
    return facts


def declared_weapon(actor: Combatant, data: Mapping[str, Any], path: str) -> Weapon | None:
    """Gets the weapon a declaration, turn or action uses: the one it names (the first one
    when it names none), with any ``weapon_facts`` it gives laid over the combatant's own.

    With ``weapon_facts`` an entry may name a weapon the combatant does not carry; without
    them an unknown name gives None, as :meth:`Combatant.weapon` does.
    """
    name = data.get("weapon") if isinstance(data.get("weapon"), str) else None
    own = actor.weapon(name)
    facts = _weapon_facts(data, path)
    if facts is None:
        return own
    base = own if own is not None else Weapon(name=name or "")
    if not base.name:
        raise ScenarioError(_join(path, "weapon_facts"), "the facts need a weapon name")
    given = _weapon({"name": base.name, **facts}, _join(path, "weapon_facts"))
    return replace(base, **{key: getattr(given, key) for key in facts})


def _spell(value: Any, path: str) -> Spell:
    data = _obj(value, path)
    name = read_str(data, "name", path)
    if not name:
        raise ScenarioError(f"{path}.name", "a spell needs a name")
    level = read_int(data, "level", path, 1)
    casting_time = read_int(data, "casting_time", path, 1)
    assert level is not None and casting_time is not None
    if level < 0:
        raise ScenarioError(f"{path}.level", f"a spell level cannot be negative, got {level}")
    if casting_time < 0:
        raise ScenarioError(f"{path}.casting_time", f"cannot be negative, got {casting_time}")
    return Spell(name=name, level=level, casting_time=casting_time)


_COMBATANT_KEYS = {
    "id",
    "side",
    "name",
    "kind",
    "hp",
    "max_hp",
    "ac",
    "dex",
    "wis",
    "race",
    "level",
    "initiative_adj",
    "surprise_adj",
    "missile_adj",
    "reaction_adj",
    "attack_routines",
    "attacks",
    "movement",
    "morale",
    "surprises_on",
    "surprised_on",
    "surprised",
    "status",
    "weapons",
    "spells",
}


def read_combatant(value: Any, path: str) -> Combatant:
    """Reads one combatant object (only ``id`` and ``side`` are required)."""
    data = _obj(value, path)
    cid = read_str(data, "id", path)
    if not cid:
        raise ScenarioError(f"{path}.id", "every combatant needs an id")
    side = read_str(data, "side", path)
    if not side:
        raise ScenarioError(f"{path}.side", f"combatant {cid!r} needs a side")
    kind_text = read_str(data, "kind", path)
    try:
        kind = Kind(kind_text) if kind_text else (Kind.PC if side == "party" else Kind.MONSTER)
    except ValueError:
        allowed = ", ".join(k.value for k in Kind)
        raise ScenarioError(
            f"{path}.kind", f"unknown kind {kind_text!r} (one of {allowed})"
        ) from None
    status_text = read_str(data, "status", path, "active") or "active"
    try:
        status = Status(status_text)
    except ValueError:
        allowed = ", ".join(s.value for s in Status)
        raise ScenarioError(
            f"{path}.status", f"unknown status {status_text!r} ({allowed})"
        ) from None
    surprised = data.get("surprised")
    if surprised is not None and not isinstance(surprised, bool):
        raise ScenarioError(f"{path}.surprised", f"expected true or false, got {surprised!r}")
    hp = read_int(data, "hp", path)
    max_hp = read_int(data, "max_hp", path) if "max_hp" in data else hp
    routines = read_int(data, "attack_routines", path, 1)
    attacks = read_int(data, "attacks", path, 1)
    assert routines is not None and attacks is not None
    if routines < 1:
        raise ScenarioError(f"{path}.attack_routines", f"must be at least 1, got {routines}")
    if attacks < 0:
        raise ScenarioError(f"{path}.attacks", f"cannot be negative, got {attacks}")
    return Combatant(
        id=cid,
        side=side,
        name=read_str(data, "name", path, "") or "",
        kind=kind,
        hp=hp,
        max_hp=max_hp,
        ac=read_int(data, "ac", path),
        dex=read_int(data, "dex", path),
        wis=read_int(data, "wis", path),
        race=read_str(data, "race", path),
        level=read_int(data, "level", path),
        initiative_adj=read_int(data, "initiative_adj", path),
        surprise_adj=read_int(data, "surprise_adj", path),
        missile_adj=read_int(data, "missile_adj", path),
        reaction_adj=read_int(data, "reaction_adj", path),
        attack_routines=routines,
        attacks=attacks,
        movement=read_int(data, "movement", path),
        morale=read_int(data, "morale", path),
        surprises_on=read_int(data, "surprises_on", path),
        surprised_on=read_int(data, "surprised_on", path),
        surprised=surprised,
        status=status,
        weapons=tuple(
            _weapon(w, f"{path}.weapons[{i}]")
            for i, w in enumerate(read_list(data, "weapons", path))
        ),
        spells=tuple(
            _spell(s, f"{path}.spells[{i}]") for i, s in enumerate(read_list(data, "spells", path))
        ),
        extra=frozen_mapping({k: v for k, v in data.items() if k not in _COMBATANT_KEYS}),
    )


def combatant_to_json(combatant: Combatant) -> dict[str, Any]:
    """Gets a combatant in the scenario shape; :func:`read_combatant` reads it back equal."""
    out: dict[str, Any] = dict(combatant.extra)
    out.update(
        id=combatant.id,
        side=combatant.side,
        name=combatant.name,
        kind=str(combatant.kind),
        status=str(combatant.status),
        attack_routines=combatant.attack_routines,
        attacks=combatant.attacks,
    )
    for key in (
        "hp",
        "max_hp",
        "ac",
        "dex",
        "wis",
        "race",
        "level",
        "initiative_adj",
        "surprise_adj",
        "missile_adj",
        "reaction_adj",
        "movement",
        "morale",
        "surprises_on",
        "surprised_on",
        "surprised",
    ):
        value = getattr(combatant, key)
        if value is not None:
            out[key] = value
    if "max_hp" not in out:
        out["max_hp"] = None  # keep "unknown" distinct from "same as hp" on the way back
    out["weapons"] = [
        {
            k: v
            for k, v in {
                "name": w.name,
                "speed_factor": w.speed_factor,
                "length": w.length,
                "missile": w.missile,
                "slow": w.slow,
                "rate_of_fire": w.rate_of_fire,
            }.items()
            if v is not None
        }
        for w in combatant.weapons
    ]
    out["spells"] = [
        {"name": s.name, "level": s.level, "casting_time": s.casting_time} for s in combatant.spells
    ]
    return out


def read_outcome(data: Mapping[str, Any], path: str) -> Outcome:
    """Reads ``hit``/``damage`` or ``hits: [{hit, damage}]``, and ``heal``, from an action."""
    heal = read_int(data, "heal", path, 0) if "heal" in data else 0
    assert heal is not None
    if heal < 0:
        raise ScenarioError(f"{path}.heal", f"cannot be negative, got {heal}")
    outcome = _read_hits(data, path)
    return Outcome(outcome.hits, heal) if heal else outcome


def _read_hits(data: Mapping[str, Any], path: str) -> Outcome:
    if "hits" in data:
        hits = []
        for i, item in enumerate(read_list(data, "hits", path)):
            hpath = f"{path}.hits[{i}]"
            obj = _obj(item, hpath)
            damage = read_int(obj, "damage", hpath, 0)
            assert damage is not None
            if damage < 0:
                raise ScenarioError(f"{hpath}.damage", f"cannot be negative, got {damage}")
            hits.append(Hit(hit=read_bool(obj, "hit", hpath, damage > 0), damage=damage))
        return Outcome(tuple(hits))
    if "hit" in data or "damage" in data:
        damage = read_int(data, "damage", path, 0)
        assert damage is not None
        if damage < 0:
            raise ScenarioError(f"{path}.damage", f"cannot be negative, got {damage}")
        return Outcome((Hit(hit=read_bool(data, "hit", path, damage > 0), damage=damage),))
    return Outcome()


def read_effect(data: Mapping[str, Any], path: str) -> Effect | None:
    """Reads an optional ``effect: {name, duration, target}``."""
    if data.get("effect") is None:
        return None
    obj = read_object(data, "effect", path)
    epath = f"{path}.effect"
    duration = read_int(obj, "duration", epath)
    if duration is None or duration < 0:
        raise ScenarioError(f"{epath}.duration", f"expected rounds (0 or more), got {duration!r}")
    return Effect(
        name=read_str(obj, "name", epath, "effect") or "effect",
        duration=duration,
        target=read_str(obj, "target", epath),
    )


def _trigger(data: Mapping[str, Any], key: str, path: str) -> str | None:
    value = data.get(key)
    if value is None or value is False:
        return None
    if value is True:
        return "yes"
    if isinstance(value, str):
        return value
    raise ScenarioError(_join(path, key), f"expected a trigger text or true, got {value!r}")


def _actor(data: Mapping[str, Any], path: str, ids: frozenset[str]) -> str:
    actor = read_str(data, "actor", path)
    if not actor:
        raise ScenarioError(f"{path}.actor", "missing")
    if actor not in ids:
        raise ScenarioError(f"{path}.actor", f"unknown combatant {actor!r}")
    return actor


def _target(data: Mapping[str, Any], path: str, ids: frozenset[str]) -> str | None:
    target = read_str(data, "target", path)
    if target is not None and target not in ids:
        raise ScenarioError(f"{path}.target", f"unknown combatant {target!r}")
    if target is None and data.get("targets") is not None:
        targets = read_targets(data, path, ids)
        return targets[0] if targets else None
    return target


def read_targets(data: Mapping[str, Any], path: str, ids: frozenset[str]) -> tuple[str, ...]:
    """Reads the optional ``targets: [a, b, …]`` (a split volley, an area's victims).

    ``target`` may still be given; it must then be the first one listed, so the two never
    disagree about whom the action is aimed at.
    """
    if data.get("targets") is None:
        return ()
    out: list[str] = []
    for i, value in enumerate(read_list(data, "targets", path)):
        tpath = f"{path}.targets[{i}]"
        if not isinstance(value, str) or not value:
            raise ScenarioError(tpath, f"expected a combatant, got {value!r}")
        if value not in ids:
            raise ScenarioError(tpath, f"unknown combatant {value!r}")
        if value in out:
            raise ScenarioError(tpath, f"{value!r} is listed twice")
        out.append(value)
    if not out:
        raise ScenarioError(f"{path}.targets", "names no one: list at least one target")
    first = data.get("target")
    if first is not None and first != out[0]:
        raise ScenarioError(
            f"{path}.target", f"must be the first of targets ({out[0]!r}) when both are given"
        )
    return tuple(out)


def _declaration(value: Any, path: str, ids: frozenset[str]) -> Declaration:
    data = _obj(value, path)
    action = read_str(data, "action", path)
    if not action:
        raise ScenarioError(f"{path}.action", "missing")
    _weapon_facts(data, path)
    return Declaration(
        path=path,
        actor=_actor(data, path, ids),
        action=action,
        target=_target(data, path, ids),
        targets=read_targets(data, path, ids),
        weapon=read_str(data, "weapon", path),
        spell=read_str(data, "spell", path),
        charge=read_bool(data, "charge", path),
        prepared=_trigger(data, "prepared", path),
        effect=read_effect(data, path),
        outcome=read_outcome(data, path),
        raw=frozen_mapping(data),
    )


def _turn(value: Any, path: str, ids: frozenset[str]) -> Turn:
    data = _obj(value, path)
    nominates = read_str(data, "nominates", path)
    if nominates is not None and nominates not in ids:
        raise ScenarioError(f"{path}.nominates", f"unknown combatant {nominates!r}")
    again = read_str(data, "nominates_again", path)
    if again is not None and again not in ids:
        raise ScenarioError(f"{path}.nominates_again", f"unknown combatant {again!r}")
    _weapon_facts(data, path)
    return Turn(
        path=path,
        actor=_actor(data, path, ids),
        action=read_str(data, "action", path),
        target=_target(data, path, ids),
        targets=read_targets(data, path, ids),
        waits=read_bool(data, "waits", path),
        ready=_trigger(data, "ready", path),
        nominates=nominates,
        nominates_again=again,
        effect=read_effect(data, path),
        outcome=read_outcome(data, path),
        raw=frozen_mapping(data),
    )


def _round(value: Any, path: str, ids: frozenset[str]) -> RoundSpec:
    data = _obj(value, path)
    return RoundSpec(
        path=path,
        surprise=read_bool(data, "surprise", path),
        initiative=_int_map(data, "initiative", path),
        declarations=tuple(
            _declaration(d, f"{path}.declarations[{i}]", ids)
            for i, d in enumerate(read_list(data, "declarations", path))
        ),
        turns=tuple(
            _turn(t, f"{path}.turns[{i}]", ids)
            for i, t in enumerate(read_list(data, "turns", path))
        ),
        raw=frozen_mapping(data),
    )


def _action(value: Any, path: str, ids: frozenset[str]) -> TimedAction:
    data = _obj(value, path)
    action = read_str(data, "action", path)
    if not action:
        raise ScenarioError(f"{path}.action", "missing")
    attacks = read_int(data, "attacks", path)
    if attacks is not None and attacks < 1:
        raise ScenarioError(f"{path}.attacks", f"must be at least 1, got {attacks}")
    _weapon_facts(data, path)
    return TimedAction(
        path=path,
        actor=_actor(data, path, ids),
        action=action,
        target=_target(data, path, ids),
        targets=read_targets(data, path, ids),
        spell=read_str(data, "spell", path),
        attacks=attacks,
        roll=read_int(data, "roll", path),
        effect=read_effect(data, path),
        outcome=read_outcome(data, path),
        raw=frozen_mapping(data),
    )


def parse_scenario(document: Any) -> Scenario:
    """Validates a decoded JSON document and returns the scenario it describes."""
    data = _obj(document, "")
    fmt = data.get("format", SCENARIO_FORMAT)
    if fmt != SCENARIO_FORMAT:
        raise ScenarioError("format", f"expected {SCENARIO_FORMAT!r}, got {fmt!r}")
    system = read_str(data, "system", "")
    if not system:
        raise ScenarioError("system", "missing: one of addict, side-d6, popcorn, time-units")
    combatants = tuple(
        read_combatant(c, f"combatants[{i}]")
        for i, c in enumerate(read_list(data, "combatants", ""))
    )
    if not combatants:
        raise ScenarioError("combatants", "a scenario needs at least one combatant")
    seen: set[str] = set()
    for i, c in enumerate(combatants):
        if c.id in seen:
            raise ScenarioError(f"combatants[{i}].id", f"duplicate id {c.id!r}")
        seen.add(c.id)
    ids = frozenset(seen)
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ScenarioError("seed", f"expected a whole number, got {seed!r}")
    return Scenario(
        system=system,
        combatants=combatants,
        options=frozen_mapping(read_object(data, "options", "")),
        seed=seed,
        surprise=_int_map(data, "surprise", ""),
        reaction=data.get("reaction"),
        distance=data.get("distance"),
        initiative=_int_map(data, "initiative", ""),
        rounds=tuple(
            _round(r, f"rounds[{i}]", ids) for i, r in enumerate(read_list(data, "rounds", ""))
        ),
        actions=tuple(
            _action(a, f"actions[{i}]", ids) for i, a in enumerate(read_list(data, "actions", ""))
        ),
        raw=frozen_mapping(data),
    )
