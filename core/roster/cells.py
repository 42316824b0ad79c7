"""Weapons and spells as a DM writes them in a spreadsheet cell, read and written.

``Long sword (speed factor 5, length 3.5); Long bow (speed factor 8, missile, rate of fire 2)``
and ``Bless (level 1, casting time 10, spent); Sleep``: items separated by ``;``, each a name
with its facts in brackets, any of them left out. Older exports held a JSON list in the cell
(``[{"name": "Dagger"}]``); a cell starting with ``[`` is still read that way.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from core.model.values import Spell, Weapon

MAX_DIGITS = 9
"""A figure in a cell has at most this many digits (a longer one is a typing slip)."""
_ITEM = re.compile(r"^\s*(?P<name>[^()]*?)\s*(?:\((?P<facts>[^()]*)\)\s*)?$")
_SPECIAL = re.compile(r"[;()\[\]]")
"""Characters a name cannot hold in the readable form (it is written as JSON then)."""


class CellError(ValueError):
    """A cell that cannot be read; the message says what is wrong in a DM's words."""


@dataclass(frozen=True, slots=True)
class _Fact:
    key: str
    words: tuple[str, ...]
    """How a DM may write it (the first is how it is written)."""
    flag: bool = False
    decimal: bool = False


_WEAPON_FACTS = (
    _Fact("speed_factor", ("speed factor", "speed", "sf")),
    _Fact("length", ("length",), decimal=True),
    _Fact("missile", ("missile",), flag=True),
    _Fact("slow", ("slow",), flag=True),
    _Fact("rate_of_fire", ("rate of fire", "rof")),
)
_SPELL_FACTS = (
    _Fact("level", ("level",)),
    _Fact("casting_time", ("casting time", "ct")),
    _Fact("spent", ("spent",), flag=True),
)


def _number(text: str, what: str, decimal: bool) -> float | int:
    digits = text.replace(".", "", 1).lstrip("-")
    if not digits.isdigit() or (not decimal and "." in text):
        kind = "a number" if decimal else "a whole number"
        raise CellError(f"{what} is {kind}, not {text!r}")
    if len(digits) > MAX_DIGITS:
        raise CellError(f"{what} has {len(digits):,} digits; at most {MAX_DIGITS}")
    return float(text) if decimal else int(text)


def _facts(text: str, known: Sequence[_Fact], item: str) -> dict[str, object]:
    out: dict[str, object] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        lowered = " ".join(part.casefold().split())
        for fact in known:
            word = next((w for w in fact.words if lowered == w or lowered.startswith(w + " ")),
                        None)
            if word is None:
                continue
            if fact.flag:
                if lowered != word:
                    raise CellError(f"{item}: write {word!r} alone, not {part!r}")
                out[fact.key] = True
            else:
                value = lowered[len(word):].strip()
                if not value:
                    raise CellError(f"{item}: {word} needs a figure, e.g. '{word} 5'")
                out[fact.key] = _number(value, f"{item}: {word}", fact.decimal)
            break
        else:
            allowed = ", ".join(f.words[0] for f in known)
            raise CellError(f"{item}: {part!r} is not one of {allowed}")
    return out


def _items(cell: str, noun: str, known: Sequence[_Fact]) -> list[tuple[str, dict[str, object]]]:
    out = []
    for number, raw in enumerate((p for p in cell.split(";") if p.strip()), start=1):
        match = _ITEM.match(raw)
        if match is None:
            raise CellError(f"{noun} {number} ({raw.strip()!r}): write a name, then its facts "
                            "in one pair of brackets")
        name = match.group("name").strip()
        if not name:
            raise CellError(f"{noun} {number} needs a name")
        out.append((name, _facts(match.group("facts") or "", known, name)))
    return out


def read_weapons(cell: str) -> tuple[Weapon, ...]:
    """Reads ``Long sword (speed factor 5, length 3.5); Dagger`` (CellError if it cannot)."""
    weapons = []
    for name, facts in _items(cell, "weapon", _WEAPON_FACTS):
        speed, rof, length = facts.get("speed_factor"), facts.get("rate_of_fire"), facts.get(
            "length")
        weapons.append(Weapon(
            name=name, speed_factor=speed if isinstance(speed, int) else None,
            length=float(length) if isinstance(length, int | float) else None,
            missile=bool(facts.get("missile")), slow=bool(facts.get("slow")),
            rate_of_fire=rof if isinstance(rof, int) else None))
    return tuple(weapons)


def read_spells(cell: str) -> tuple[tuple[Spell, ...], tuple[int, ...]]:
    """Reads ``Bless (level 1, casting time 10, spent); Sleep``: the spells and the places of
    those marked spent (CellError if it cannot)."""
    spells, spent = [], []
    for i, (name, facts) in enumerate(_items(cell, "spell", _SPELL_FACTS)):
        level, time = facts.get("level", 1), facts.get("casting_time", 1)
        assert isinstance(level, int) and isinstance(time, int)
        spells.append(Spell(name=name, level=level, casting_time=time))
        if facts.get("spent"):
            spent.append(i)
    return tuple(spells), tuple(spent)


def _number_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _written(name: str, facts: list[str]) -> str:
    return f"{name} ({', '.join(facts)})" if facts else name


def writable(names: Sequence[str]) -> bool:
    """Tells whether every name can be written in the readable form."""
    return not any(_SPECIAL.search(n) or n != n.strip() for n in names)


def weapons_text(weapons: Sequence[Weapon]) -> str:
    """Gets ``Long sword (speed factor 5, length 3.5); Dagger``."""
    parts = []
    for w in weapons:
        facts = [*([f"speed factor {w.speed_factor}"] if w.speed_factor is not None else []),
                 *([f"length {_number_text(w.length)}"] if w.length is not None else []),
                 *(["missile"] if w.missile else []), *(["slow"] if w.slow else []),
                 *([f"rate of fire {w.rate_of_fire}"] if w.rate_of_fire is not None else [])]
        parts.append(_written(w.name, facts))
    return "; ".join(parts)


def spells_text(spells: Sequence[Spell], spent: Sequence[int] = ()) -> str:
    """Gets ``Bless (level 1, casting time 10, spent); Sleep (level 1, casting time 1)``."""
    marked = set(spent)
    return "; ".join(
        _written(s.name, [f"level {s.level}", f"casting time {s.casting_time}",
                          *(["spent"] if i in marked else [])])
        for i, s in enumerate(spells))


