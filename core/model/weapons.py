"""The weapon table: facts per weapon from the published lists, looked up by name.

The facts (speed factor, length, rate of fire, slow, two-handed) come from the books each list
names (``resources/weapons.json``); a DM picks "long sword" instead of typing its numbers. This
module only reads an already-parsed document: the file is opened by
:func:`core.model.resources.load_weapon_table`, so the engine never touches the disk through it.

A value the DM typed always wins: :func:`fill_missing` only supplies facts a weapon lacks.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from core.model.values import Weapon

FORMAT = "combatdesk/weapons-1"

# A weapon's qualities in the OSE list that the engine reads as flags.
SLOW = "slow"
TWO_HANDED = "two-handed"
MISSILE = "missile"
MELEE = "melee"

_LIST_KEYS = {"title", "source", "systems", "weapons"}
_WEAPON_KEYS = {
    "name", "aliases", "speed_factor", "speed_factor_range", "length", "length_range",
    "book_length", "missile", "rate_of_fire", "damage", "qualities", "note",
}  # fmt: skip
_FOLD = re.compile(r"[\s\-'’.]+")


class WeaponTableError(ValueError):
    """A weapon table file that cannot be read; ``where`` names the place in the file."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where
        self.message = message


def fold(name: str) -> str:
    """Gets the form names are compared in: case, spaces, hyphens and apostrophes ignored,
    so "Long sword", "longsword" and "long-sword" are one name."""
    return _FOLD.sub("", name.casefold())


@dataclass(frozen=True, slots=True)
class TableWeapon:
    """One weapon of one published list."""

    name: str
    list_id: str
    aliases: tuple[str, ...] = ()
    speed_factor: int | None = None
    speed_factor_range: tuple[int, int] | None = None
    """The book's range where it gives one (spear 6-8); ``speed_factor`` is then its middle."""
    length: float | None = None
    """Length in feet; for a range, its middle (see ``length_range``)."""
    length_range: tuple[float, float] | None = None
    book_length: str | None = None
    """The length as the book prints it ("c. 3½'", "8'+")."""
    missile: bool = False
    rate_of_fire: Fraction | None = None
    """Shots a round (1/2: one every second round)."""
    damage: str | None = None
    qualities: tuple[str, ...] = ()
    note: str = ""

    @property
    def slow(self) -> bool:
        """Tells whether the list marks the weapon slow (OSE)."""
        return SLOW in self.qualities

    @property
    def two_handed(self) -> bool:
        """Tells whether the list marks the weapon two-handed (OSE)."""
        return TWO_HANDED in self.qualities

    @property
    def whole_rate_of_fire(self) -> int | None:
        """Gets the rate of fire when it is a whole number of shots (None for 1/2)."""
        rof = self.rate_of_fire
        return int(rof) if rof is not None and rof.denominator == 1 else None

    def as_weapon(self, name: str | None = None) -> Weapon:
        """Gets the weapon as a combatant carries it (named ``name`` if given)."""
        return Weapon(
            name=name or self.name,
            speed_factor=self.speed_factor,
            length=self.length,
            missile=self.missile,
            slow=self.slow,
            rate_of_fire=self.whole_rate_of_fire,
        )


@dataclass(frozen=True)
class WeaponList:
    """One published list (AD&D 1e, OSE) and the systems that use it."""

    id: str
    title: str
    source: str
    systems: tuple[str, ...]
    weapons: tuple[TableWeapon, ...]
    _index: Mapping[str, TableWeapon] = field(default_factory=dict, repr=False, compare=False)

    def find(self, name: str | None) -> TableWeapon | None:
        """Gets the weapon called ``name`` (or one of its aliases), None if the list lacks it."""
        return self._index.get(fold(name)) if name else None

    def names(self) -> tuple[str, ...]:
        """Gets the weapons' names in the list's order."""
        return tuple(w.name for w in self.weapons)


@dataclass(frozen=True)
class WeaponTable:
    """Every list of the weapon table."""

    lists: tuple[WeaponList, ...]

    def list_for(self, system_id: str | None) -> WeaponList | None:
        """Gets the list a system uses (None for an unknown system or None)."""
        return next((wl for wl in self.lists if system_id in wl.systems), None)

    def find(self, name: str | None, system_id: str | None = None) -> TableWeapon | None:
        """Gets ``name`` from the system's list, or from the first list that has it."""
        lists = self._lists(system_id)
        return next((w for wl in lists if (w := wl.find(name)) is not None), None)

    def find_all(self, name: str | None) -> tuple[TableWeapon, ...]:
        """Gets ``name`` from every list that has it, in the table's order."""
        return tuple(w for wl in self.lists if (w := wl.find(name)) is not None)

    def names(self, system_id: str | None = None) -> tuple[str, ...]:
        """Gets the names to offer, sorted: the system's list, or every list with each weapon
        once (a later list's name is left out when an earlier list already knows it)."""
        names: list[str] = []
        done: list[WeaponList] = []
        for wl in self._lists(system_id):
            names.extend(w.name for w in wl.weapons if not any(p.find(w.name) for p in done))
            done.append(wl)
        return tuple(sorted(names, key=str.casefold))

    def facts(self, name: str | None, system_id: str | None = None) -> Weapon | None:
        """Gets the facts for ``name`` as a weapon: from the system's list, or, without a
        system, every list's facts together (AD&D speed factor and length, OSE slow flag), so
        that one roster entry serves encounters of either family."""
        if system_id is not None:
            found = self.find(name, system_id)
            return found.as_weapon() if found is not None else None
        matches = self.find_all(name)
        if not matches:
            return None
        out = matches[0].as_weapon()
        for other in matches[1:]:
            out = fill_missing(out, other.as_weapon())
            out = replace(out, slow=out.slow or other.slow)
        return out

    def _lists(self, system_id: str | None) -> Sequence[WeaponList]:
        chosen = self.list_for(system_id) if system_id is not None else None
        return (chosen,) if chosen is not None else self.lists


def fill_missing(weapon: Weapon, facts: Weapon) -> Weapon:
    """Gets ``weapon`` with each number it lacks (None) taken from ``facts``; what it has stays.

    Flags (missile, slow) are not filled: ``False`` cannot be told from "not given", and a DM
    who cleared one meant it.
    """
    return replace(
        weapon,
        speed_factor=weapon.speed_factor if weapon.speed_factor is not None
        else facts.speed_factor,
        length=weapon.length if weapon.length is not None else facts.length,
        rate_of_fire=weapon.rate_of_fire if weapon.rate_of_fire is not None
        else facts.rate_of_fire,
    )  # fmt: skip


def feet(value: float | None) -> str:
    """Gets a length as a DM reads it: ``3½ ft``, ``1¼ ft``, ``—`` when unknown."""
    if value is None:
        return "—"
    whole, part = divmod(value, 1)
    frac = {0.25: "¼", 0.5: "½", 0.75: "¾"}.get(round(part, 2))
    if part == 0:
        return f"{int(whole)} ft"
    if frac is not None:
        return f"{int(whole) or ''}{frac} ft"
    return f"{value:g} ft"


def facts_words(weapon: Weapon | TableWeapon) -> str:
    """Gets a weapon's facts in words: ``speed factor 5, 3½ ft``; empty when it has none."""
    parts: list[str] = []
    sf_range = weapon.speed_factor_range if isinstance(weapon, TableWeapon) else None
    length_range = weapon.length_range if isinstance(weapon, TableWeapon) else None
    if weapon.speed_factor is not None:
        parts.append(f"speed factor {weapon.speed_factor}")
        if sf_range is not None:  # the book's range; the value is its middle
            parts[-1] += f" (the book: {sf_range[0]}–{sf_range[1]})"
    if weapon.length is not None:
        parts.append(feet(weapon.length))
        if length_range is not None:
            low, high = (feet(v).removesuffix(" ft") for v in length_range)
            parts[-1] += f" (the book: {low}–{high} ft)"
    if weapon.rate_of_fire is not None:
        parts.append(f"rate of fire {weapon.rate_of_fire}")
    elif weapon.missile:
        parts.append("missile")
    if weapon.slow:
        parts.append("slow")
    if isinstance(weapon, TableWeapon) and weapon.two_handed:
        parts.append("two-handed")
    return ", ".join(parts)


# --- reading -------------------------------------------------------------------------------------


def _obj(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise WeaponTableError(where, f"expected an object, got {type(value).__name__}")
    return value


def _text(data: Mapping[str, Any], key: str, where: str, required: bool = False) -> str | None:
    value = data.get(key)
    if value is None:
        if required:
            raise WeaponTableError(f"{where}.{key}", "missing")
        return None
    if not isinstance(value, str) or (required and not value.strip()):
        raise WeaponTableError(f"{where}.{key}", f"expected text, got {value!r}")
    return value.strip()


def _texts(data: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise WeaponTableError(f"{where}.{key}", f"expected a list of names, got {value!r}")
    return tuple(v.strip() for v in value)


def _number(data: Mapping[str, Any], key: str, where: str, whole: bool) -> Any:
    value = data.get(key)
    if value is None:
        return None
    ok = isinstance(value, int) if whole else isinstance(value, int | float)
    if isinstance(value, bool) or not ok or value < 0:
        kind = "a whole number" if whole else "a number of feet"
        raise WeaponTableError(f"{where}.{key}", f"expected {kind}, got {value!r}")
    return value


def _range(data: Mapping[str, Any], key: str, where: str, whole: bool) -> Any:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 2:
        raise WeaponTableError(f"{where}.{key}", f"expected [low, high], got {value!r}")
    low = _number({"low": value[0]}, "low", f"{where}.{key}", whole)
    high = _number({"high": value[1]}, "high", f"{where}.{key}", whole)
    if low is None or high is None or low > high:
        raise WeaponTableError(f"{where}.{key}", f"expected [low, high], got {value!r}")
    return (low, high)


def _rate(data: Mapping[str, Any], where: str) -> Fraction | None:
    value = data.get("rate_of_fire")
    if value is None:
        return None
    try:
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise ValueError
        rate = Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise WeaponTableError(
            f"{where}.rate_of_fire", f'expected shots a round such as 2 or "1/2", got {value!r}'
        ) from None
    if rate <= 0:
        raise WeaponTableError(f"{where}.rate_of_fire", f"must be above 0, got {value!r}")
    return rate


def _weapon(value: Any, list_id: str, where: str) -> TableWeapon:
    data = _obj(value, where)
    unknown = sorted(set(data) - _WEAPON_KEYS)
    if unknown:
        raise WeaponTableError(f"{where}.{unknown[0]}", "unknown field")
    name = _text(data, "name", where, required=True)
    assert name is not None
    sf = _number(data, "speed_factor", where, whole=True)
    sf_range = _range(data, "speed_factor_range", where, whole=True)
    length = _number(data, "length", where, whole=False)
    length_range = _range(data, "length_range", where, whole=False)
    if sf_range is not None and (sf is None or not sf_range[0] <= sf <= sf_range[1]):
        raise WeaponTableError(f"{where}.speed_factor", f"{sf!r} is outside {list(sf_range)}")
    if length_range is not None and (
        length is None or not length_range[0] <= length <= length_range[1]
    ):
        raise WeaponTableError(f"{where}.length", f"{length!r} is outside {list(length_range)}")
    qualities = tuple(q.casefold() for q in _texts(data, "qualities", where))
    missile = data.get("missile", MISSILE in qualities and MELEE not in qualities)
    if not isinstance(missile, bool):
        raise WeaponTableError(f"{where}.missile", f"expected true or false, got {missile!r}")
    return TableWeapon(
        name=name,
        list_id=list_id,
        aliases=_texts(data, "aliases", where),
        speed_factor=sf,
        speed_factor_range=sf_range,
        length=None if length is None else float(length),
        length_range=None
        if length_range is None
        else (float(length_range[0]), float(length_range[1])),
        book_length=_text(data, "book_length", where),
        missile=missile,
        rate_of_fire=_rate(data, where),
        damage=_text(data, "damage", where),
        qualities=qualities,
        note=_text(data, "note", where) or "",
    )


def _list(list_id: str, value: Any, where: str) -> WeaponList:
    data = _obj(value, where)
    unknown = sorted(set(data) - _LIST_KEYS)
    if unknown:
        raise WeaponTableError(f"{where}.{unknown[0]}", "unknown field")
    raw = data.get("weapons")
    if not isinstance(raw, list) or not raw:
        raise WeaponTableError(f"{where}.weapons", "expected a non-empty list of weapons")
    weapons = tuple(_weapon(w, list_id, f"{where}.weapons[{i}]") for i, w in enumerate(raw))
    index: dict[str, TableWeapon] = {}
    for i, w in enumerate(weapons):
        for name in (w.name, *w.aliases):
            key = fold(name)
            other = index.get(key)
            if other is not None and other is not w:
                raise WeaponTableError(
                    f"{where}.weapons[{i}]",
                    f"the name {name!r} is already used by {other.name!r}",
                )
            index[key] = w
    return WeaponList(
        id=list_id,
        title=_text(data, "title", where, required=True) or list_id,
        source=_text(data, "source", where, required=True) or "",
        systems=_texts(data, "systems", where),
        weapons=weapons,
        _index=index,
    )


def parse_weapon_table(document: Any) -> WeaponTable:
    """Reads a ``combatdesk/weapons-1`` document; raises WeaponTableError saying where."""
    data = _obj(document, "")
    if data.get("format") != FORMAT:
        raise WeaponTableError("format", f"expected {FORMAT!r}, got {data.get('format')!r}")
    lists = _obj(data.get("lists"), "lists")
    if not lists:
        raise WeaponTableError("lists", "no weapon lists")
    parsed = tuple(_list(str(k), v, f"lists.{k}") for k, v in lists.items())
    _no_shared_systems(parsed)
    return WeaponTable(parsed)


def _no_shared_systems(lists: Iterable[WeaponList]) -> None:
    owner: dict[str, str] = {}
    for wl in lists:
        for system in wl.systems:
            if system in owner:
                raise WeaponTableError(
                    f"lists.{wl.id}.systems", f"{system!r} already uses the {owner[system]} list"
                )
            owner[system] = wl.id


# --- a declared weapon ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DeclaredWeapon:
    """What a declaration form writes for a weapon choice, and what it tells the DM."""

    name: str | None
    """The ``weapon`` to write (None: leave it out, the engine takes the first weapon)."""
    facts: Mapping[str, Any]
    """The ``weapon_facts`` to write (empty: leave them out)."""
    words: str
    """The weapon's facts in words, saying which came from the table."""


def _fact_values(weapon: Weapon) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in ("speed_factor", "length", "rate_of_fire"):
        if getattr(weapon, key) is not None:
            out[key] = getattr(weapon, key)
    for key in ("missile", "slow"):
        if getattr(weapon, key):
            out[key] = True
    return out


def declare_weapon(
    carried: Sequence[Weapon], name: str | None, table: WeaponTable | None, system_id: str | None
) -> DeclaredWeapon:
    """Works out the weapon a declaration uses when the DM picks or types ``name`` (None: the
    default, the first carried weapon).

    A carried weapon keeps every fact it has; the numbers it lacks come from the system's
    list. A weapon the combatant does not carry takes all its facts from the list.
    """
    named = name.strip() if name and name.strip() else None
    own = (
        next((w for w in carried if fold(w.name) == fold(named)), None)
        if named
        else (carried[0] if carried else None)
    )
    wl = table.list_for(system_id) if table is not None else None
    found = wl.find(named or (own.name if own else None)) if wl is not None else None
    book = f"the {wl.title} weapon table" if wl is not None else "the weapon table"
    if own is None and named is None:
        return DeclaredWeapon(None, {}, "no weapon: a natural attack (claw, bite)")
    if own is None:
        assert named is not None
        if found is None:
            return DeclaredWeapon(named, {}, f"{named}: not carried, and not in {book}")
        facts = _fact_values(found.as_weapon())
        words = facts_words(found) or "no facts recorded"
        return DeclaredWeapon(found.name, facts, f"{found.name} ({book}): {words}")
    assert own is not None
    shown = own
    filled: dict[str, Any] = {}
    if found is not None:
        shown = fill_missing(own, found.as_weapon())
        filled = {k: v for k, v in _fact_values(shown).items() if getattr(own, k) is None}
    words = f"{own.name}: {facts_words(shown) or 'no facts recorded'}"
    if filled:
        taken = " and ".join(k.replace("_", " ") for k in filled)
        words += f" ({taken} from {book})"
    if found is not None and found.slow and not own.slow:
        words += f"; {book} marks it slow, this combatant's entry does not"
    # the carried weapon's own spelling: the engine matches names exactly
    return DeclaredWeapon(own.name if filled or named else None, filled, words)
