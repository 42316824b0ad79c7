"""Roster import and export: JSON in the scenario combatant shape (DESIGN §6) and CSV.

A file is read whole before anything is stored: every problem in it is named at once (its line
or entry and the field), and any problem refuses the whole file, so a campaign never holds
half an import. What a file gives is told apart from what it leaves out (a CSV without a
weapons column, an entry without ``hp``): an update from the file changes only what it gives.
In a CSV, weapons and spells read as a DM writes them (``Long sword (speed factor 5); Dagger``,
:mod:`core.roster.cells`); the JSON lists older exports held there are still read.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from core.model.scenario import ScenarioError, combatant_to_json, read_combatant
from core.model.values import Combatant, Kind, Weapon
from core.roster.cells import (
    MAX_DIGITS,
    CellError,
    read_spells,
    read_weapons,
    spells_text,
    weapons_text,
    writable,
)
from core.roster.checks import check_entry, check_template
from core.roster.entries import (
    DEATH_SAVES,
    LevelTextError,
    MonsterTemplate,
    RosterEntry,
    RosterStatus,
    level_text,
    parse_levels,
)
from core.roster.results import START_KEYS, roster_combatant

ROSTER_FORMAT = "combatdesk/roster-1"
MAX_ROWS = 100_000
PROGRESS_EVERY = 250

Progress = Callable[[int, int], None]
"""Called with (rows read, rows in the file) while a large file is read."""

_ROSTER_ONLY = ("char_class", "class", "str_score", "str", "notes", "status", "death_saves")
"""Roster fields the scenario shape lacks (status: the roster has "retired", not "surrendered")."""


_PATH_PARTS = (
    (re.compile(r"^combatants\[(\d+)\]"), "entry"),
    (re.compile(r"^templates\[(\d+)\]"), "template"),
)


def plain_place(where: str, name: str = "") -> str:
    """Turns a JSON path ("combatants[3].spells[0].level") into words ("entry 4 (Borin), spell
    1, field level"): a DM reads names and numbers from 1, not field paths."""
    out = where
    for pattern, noun in _PATH_PARTS:
        match = pattern.match(out)
        if match:
            label = f"{noun} {int(match.group(1)) + 1}" + (f" ({name})" if name else "")
            out = label + out[match.end():]
    out = re.sub(r"(^|\.)(spells|weapons)\[(\d+)\]",
                 lambda m: f"{', ' if m.group(1) else ''}{m.group(2)[:-1]} {int(m.group(3)) + 1}",
                 out)
    out = re.sub(r"\.(\w+)$", r", field \1", out)
    return out


MAX_LISTED = 40
"""A refusal lists at most this many problems (then says how many more there are)."""


class RosterImportError(ValueError):
    """A roster file that cannot be imported; ``where`` is the line or JSON path of the (first)
    culprit, ``problems`` every (where, message) found."""

    def __init__(self, where: str, message: str,
                 problems: Sequence[tuple[str, str]] = ()) -> None:
        self.problems = tuple(problems) or ((where, message),)
        self.where, self.message = self.problems[0]
        if len(self.problems) == 1:
            text = f"{self.where}: {self.message}"
        else:
            shown = [f"{w}: {m}" for w, m in self.problems[:MAX_LISTED]]
            more = len(self.problems) - MAX_LISTED
            text = f"{len(self.problems)} problems:\n" + "\n".join(shown) + (
                f"\n… and {more} more" if more > 0 else "")
        super().__init__(text)


def _refuse_all(problems: Sequence[tuple[str, str]]) -> None:
    if problems:
        raise RosterImportError("", "", problems)


def _refuse_problems(entry: RosterEntry, where: str, skip: Collection[str] = ()) -> None:
    """Refuses an entry the roster's checks find fault with, naming every faulty field
    (``skip``: fields whose cell was already refused)."""
    _refuse_all([(f"{where}, field {field}", reason)
                 for field, reason in check_entry(entry).items() if field not in skip])


def _levels(text: str, where: str) -> tuple[int | None, tuple[int, ...]]:
    """Reads a level written as text ("5", "2/2"); the message names the place in words."""
    try:
        return parse_levels(text)
    except LevelTextError as exc:
        raise RosterImportError(where, str(exc)) from None


def _status(value: Any, where: str) -> RosterStatus:
    try:
        return RosterStatus(value if value not in (None, "") else "active")
    except ValueError:
        allowed = ", ".join(s.value for s in RosterStatus)
        message = f"{value!r} is not one of {allowed}"
        raise RosterImportError(f"{where}, field status", message) from None


def _opt_int(data: Mapping[str, Any], *keys: str, where: str) -> int | None:
    for key in keys:
        value = data.get(key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            message = f"expected a whole number, got {value!r}"
            raise RosterImportError(f"{where}, field {key}", message)
        return value
    return None


def _opt_str(data: Mapping[str, Any], *keys: str, where: str) -> str:
    for key in keys:
        value = data.get(key)
        if value is None:
            continue
        if not isinstance(value, str):
            raise RosterImportError(f"{where}, field {key}", f"expected text, got {value!r}")
        return value
    return ""


def _spent_marks(value: Any, where: str) -> tuple[Any, tuple[int, ...]]:
    """Splits a spells list into the scenario shape and the positions marked ``"spent": true``."""
    if not isinstance(value, list):
        return value, ()
    spent: list[int] = []
    plain_list: list[Any] = []
    for i, spell in enumerate(value):
        if isinstance(spell, dict) and "spent" in spell:
            flag = spell["spent"]
            if not isinstance(flag, bool):
                raise RosterImportError(
                    f"{where}.spells[{i}].spent", f"expected true or false, got {flag!r}"
                )
            if flag:
                spent.append(i)
            spell = {k: v for k, v in spell.items() if k != "spent"}
        plain_list.append(spell)
    return plain_list, tuple(spent)


def entry_from_json(value: Any, where: str) -> RosterEntry:
    """Reads one roster entry from a scenario-shaped combatant object (id and side optional)."""
    if not isinstance(value, dict):
        raise RosterImportError(where, f"expected an object, got {type(value).__name__}")
    data = {k: v for k, v in value.items() if k not in _ROSTER_ONLY}
    class_levels: tuple[int, ...] = ()
    if isinstance(data.get("level"), str):  # "2/2": one level a class (a number reads as ever)
        data["level"], class_levels = _levels(data["level"], f"{where}, field level")
    data["spells"], spent = _spent_marks(data.get("spells", []), where)
    data.setdefault("id", "imported")
    data.setdefault("side", "party")
    if data.get("kind") is None and isinstance(value.get("side", "party"), str):
        data["kind"] = "pc" if value.get("side", "party") == "party" else "monster"
    try:
        combatant = read_combatant(data, where)
    except ScenarioError as exc:
        raise RosterImportError(exc.field, exc.message) from None
    name = combatant.name or (str(value["id"]) if "id" in value else "")
    entry = RosterEntry(
        name=name,
        kind=combatant.kind,
        side=combatant.side,
        status=_status(value.get("status"), where),
        level=combatant.level,
        char_class=_opt_str(value, "char_class", "class", where=where),
        race=combatant.race or "",
        hp=combatant.hp,
        max_hp=combatant.max_hp,
        ac=combatant.ac,
        str_score=_opt_int(value, "str_score", "str", where=where),
        dex=combatant.dex,
        wis=combatant.wis,
        initiative_adj=combatant.initiative_adj,
        surprise_adj=combatant.surprise_adj,
        missile_adj=combatant.missile_adj,
        reaction_adj=combatant.reaction_adj,
        movement=combatant.movement,
        morale=combatant.morale,
        attack_routines=combatant.attack_routines,
        attacks=combatant.attacks,
        weapons=combatant.weapons,
        spells=combatant.spells,
        spent_spells=spent,
        notes=_opt_str(value, "notes", where=where),
        class_levels=class_levels,
        death_saves=_death_saves(_opt_int(value, "death_saves", where=where)),
    )
    _refuse_problems(entry, where)
    return entry


def _death_saves(value: int | None) -> int:
    """Gets the lifetime Death saves a file gives (none given: the full count)."""
    return DEATH_SAVES if value is None else value


def _tick(progress: Progress | None, done: int, total: int) -> None:
    if progress is not None and (done % PROGRESS_EVERY == 0 or done == total):
        progress(done, total)


def read_roster_json(text: str, progress: Progress | None = None) -> list[RosterEntry]:
    """Reads a roster (or scenario) JSON document: ``{"combatants": [...]}`` or a bare list."""
    return list(read_roster_json_document(text, progress).entries)


def _item_name(item: Any) -> str:
    name = item.get("name") if isinstance(item, dict) else None
    if not isinstance(name, str):
        return ""
    # A broken character (a lone surrogate) is shown as � so the message itself can be shown.
    return "".join("�" if 0xD800 <= ord(c) <= 0xDFFF else c for c in name.strip()[:60])


def read_roster_json_document(text: str, progress: Progress | None = None) -> RosterDocument:
    """Reads a roster JSON document whole: its entries and its ``templates`` list, if any.

    A problem is reported in words ("entry 4 (Borin), field dex"), never as a JSON path.
    """
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RosterImportError(f"line {exc.lineno}, column {exc.colno}", exc.msg) from None
    except RecursionError:
        raise RosterImportError("line 1", "the JSON is nested too deeply") from None
    except ValueError:  # Python refuses to read a number of more than 4,300 digits
        raise RosterImportError("the file", "a number is longer than 4,300 digits") from None
    templates_value: Any = []
    if isinstance(document, dict):
        items = document.get("combatants", [] if "templates" in document else None)
        if not isinstance(items, list):
            raise RosterImportError("combatants", "expected a list of combatants")
        templates_value = document.get("templates") or []
        if not isinstance(templates_value, list):
            raise RosterImportError("templates", "expected a list of monster templates")
    elif isinstance(document, list):
        items = document
    else:
        raise RosterImportError("document", "expected an object with 'combatants' or a list")
    if len(items) + len(templates_value) > MAX_ROWS:
        raise RosterImportError("combatants", f"at most {MAX_ROWS} entries a file")
    entries, templates = [], []
    problems: list[tuple[str, str]] = []
    total = len(items) + len(templates_value)
    for i, item in enumerate(items):
        try:
            entries.append(entry_from_json(item, f"combatants[{i}]"))
        except RosterImportError as exc:
            problems += [(plain_place(w, _item_name(item)), m) for w, m in exc.problems]
        _tick(progress, i + 1, total)
    for i, item in enumerate(templates_value):
        try:
            templates.append(template_from_json(item, f"templates[{i}]"))
        except RosterImportError as exc:
            problems += [(plain_place(w, _item_name(item)), m) for w, m in exc.problems]
        _tick(progress, len(items) + i + 1, total)
    _refuse_all(problems)
    return RosterDocument(
        tuple(entries), tuple(templates),
        tuple(_json_fields(item, _ENTRY_KEYS) for item in items),
        tuple(_json_fields(item, _TEMPLATE_FIELDS) for item in templates_value))


def entry_to_json(entry: RosterEntry) -> dict[str, Any]:
    """Gets an entry in the scenario combatant shape, with the roster's own fields added."""
    combatant = (
        roster_combatant(entry)
        if entry.id is not None
        else Combatant(id="new", side=entry.side)
    )
    out = combatant_to_json(combatant)
    out.pop("roster_id", None)
    for key in START_KEYS:  # where the entry stood when a fight began: not part of an export
        out.pop(key, None)
    out["id"] = f"roster-{entry.id}" if entry.id is not None else out["id"]
    out.update(
        name=entry.name,
        side=entry.side,
        kind=str(entry.kind),
        status=str(entry.status),
        char_class=entry.char_class,
        notes=entry.notes,
    )
    if entry.str_score is not None:
        out["str_score"] = entry.str_score
    out["death_saves"] = entry.death_saves
    if entry.class_levels:  # a multi-class writes its levels as the DM does; one level, a number
        out["level"] = level_text(entry)
    out["spells"] = _spells_json(entry)  # every memorised spell, the spent ones marked
    return out


def _spells_json(entry: RosterEntry) -> list[dict[str, Any]]:
    spent = set(entry.spent_spells)
    return [
        {"name": s.name, "level": s.level, "casting_time": s.casting_time}
        | ({"spent": True} if i in spent else {})
        for i, s in enumerate(entry.spells)
    ]


def template_to_json(template: MonsterTemplate) -> dict[str, Any]:
    """Gets a monster template as a JSON object (``xp`` only when the template gives one)."""
    out: dict[str, Any] = {"name": template.name, "hit_dice": template.hit_dice}
    for key in ("ac", "movement", "morale", "surprises_on", "xp"):
        value = getattr(template, key)
        if value is not None:
            out[key] = value
    out["attacks"] = template.attacks
    out["weapons"] = combatant_to_json(
        Combatant(id="t", side="monsters", weapons=template.weapons)
    )["weapons"]
    out["notes"] = template.notes
    return out


_TEMPLATE_KEYS = {"name", "hit_dice", "ac", "movement", "morale", "surprises_on", "xp",
                  "attacks", "weapons", "notes"}  # fmt: skip


def template_from_json(value: Any, where: str) -> MonsterTemplate:
    """Reads one monster template object, with the checks the template form makes."""
    if not isinstance(value, dict):
        raise RosterImportError(where, f"expected an object, got {type(value).__name__}")
    unknown = sorted(k for k in value if k not in _TEMPLATE_KEYS)
    if unknown:
        known = ", ".join(sorted(_TEMPLATE_KEYS))
        raise RosterImportError(f"{where}.{unknown[0]}", f"unknown field; fields are {known}")
    name = _opt_str(value, "name", where=where).strip()
    hit_dice = _opt_str(value, "hit_dice", where=where).strip() or "1d8"
    weapons_value = value.get("weapons") or []
    try:
        weapons = read_combatant(
            {"id": "t", "side": "monsters", "weapons": weapons_value}, where
        ).weapons
    except ScenarioError as exc:
        raise RosterImportError(exc.field, exc.message) from None
    attacks = _opt_int(value, "attacks", where=where)
    template = MonsterTemplate(
        name=name,
        hit_dice=hit_dice,
        ac=_opt_int(value, "ac", where=where),
        movement=_opt_int(value, "movement", where=where),
        morale=_opt_int(value, "morale", where=where),
        attacks=1 if attacks is None else attacks,
        surprises_on=_opt_int(value, "surprises_on", where=where),
        weapons=weapons,
        notes=_opt_str(value, "notes", where=where),
        xp=_opt_int(value, "xp", where=where),
    )
    _refuse_all([(f"{where}, field {field}", reason)
                 for field, reason in check_template(template).items()])
    return template


@dataclass(frozen=True, slots=True)
class RosterDocument:
    """What one roster file holds: roster entries and monster templates.

    ``entry_fields`` and ``template_fields`` say, record by record, which fields the file
    gives (None: all of them); an update from the file changes only those.
    """

    entries: tuple[RosterEntry, ...] = ()
    templates: tuple[MonsterTemplate, ...] = ()
    entry_fields: tuple[frozenset[str] | None, ...] | None = None
    template_fields: tuple[frozenset[str] | None, ...] | None = None


_ENTRY_KEYS: Mapping[str, tuple[str, ...]] = {
    "name": ("name",), "kind": ("kind",), "side": ("side",), "status": ("status",),
    "level": ("level", "class_levels"), "char_class": ("char_class",),
    "class": ("char_class",), "race": ("race",), "hp": ("hp",), "max_hp": ("max_hp",),
    "ac": ("ac",), "str_score": ("str_score",), "str": ("str_score",), "dex": ("dex",),
    "wis": ("wis",), "initiative_adj": ("initiative_adj",), "surprise_adj": ("surprise_adj",),
    "missile_adj": ("missile_adj",), "reaction_adj": ("reaction_adj",),
    "movement": ("movement",), "morale": ("morale",), "attack_routines": ("attack_routines",),
    "attacks": ("attacks",), "weapons": ("weapons",), "spells": ("spells", "spent_spells"),
    "notes": ("notes",), "death_saves": ("death_saves",),
}  # fmt: skip
"""The roster entry's fields each key (JSON) or column (CSV) of a file gives."""
_TEMPLATE_FIELDS: Mapping[str, tuple[str, ...]] = {
    key: (key,) for key in ("name", "hit_dice", "ac", "movement", "morale", "surprises_on",
                            "xp", "attacks", "weapons", "notes")}


def _json_fields(item: Any, keys: Mapping[str, tuple[str, ...]]) -> frozenset[str] | None:
    if not isinstance(item, dict):
        return None
    return frozenset(f for key in item if key in keys for f in keys[key])


def write_roster_json(
    entries: Sequence[RosterEntry], templates: Sequence[MonsterTemplate] = ()
) -> str:
    """Gets the roster (and monster templates) as a ``combatdesk/roster-1`` JSON document."""
    document: dict[str, Any] = {
        "format": ROSTER_FORMAT, "combatants": [entry_to_json(e) for e in entries],
    }  # fmt: skip
    if templates:
        document["templates"] = [template_to_json(t) for t in templates]
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


# --- CSV ------------------------------------------------------------------------------------

CSV_COLUMNS = (
    "name", "kind", "side", "status", "level", "class", "race", "hp", "max_hp", "ac",
    "str", "dex", "wis", "initiative_adj", "surprise_adj", "missile_adj", "reaction_adj",
    "movement", "morale", "attack_routines", "attacks", "weapons", "spells", "notes",
    "hit_dice", "surprises_on", "xp", "death_saves",
)  # fmt: skip
TEMPLATE_KIND = "template"
"""The ``kind`` of a CSV row holding a monster template (hit_dice, surprises_on, xp are theirs)."""
_CSV_INTS = {
    "hp": "hp", "max_hp": "max_hp", "ac": "ac", "str": "str_score",
    "dex": "dex", "wis": "wis", "initiative_adj": "initiative_adj",
    "surprise_adj": "surprise_adj", "missile_adj": "missile_adj", "reaction_adj": "reaction_adj",
    "movement": "movement", "morale": "morale",
}  # fmt: skip


def _csv_int(text: str, where: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    digits = text.lstrip("+-")
    if digits.isdigit() and len(digits) > MAX_DIGITS:
        raise RosterImportError(where, f"a number of {len(digits):,} digits; at most {MAX_DIGITS}")
    try:
        return int(text)
    except ValueError:
        raise RosterImportError(where, f"{text!r} is not a whole number") from None


def _csv_list(text: str, where: str, key: str) -> tuple[Combatant, tuple[int, ...]]:
    """Reads a weapons or spells cell: as a DM writes it (``Long sword (speed factor 5);
    Dagger``), or the JSON list older exports wrote; also gets the places of spells spent."""
    text = text.strip()
    if not text:
        return Combatant(id="row", side="party"), ()
    if not text.startswith("["):
        try:
            if key == "weapons":
                return Combatant(id="row", side="party", weapons=read_weapons(text)), ()
            spells, marks = read_spells(text)
            return Combatant(id="row", side="party", spells=spells), marks
        except CellError as exc:
            raise RosterImportError(where, str(exc)) from None
    try:
        items = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        example = "Long sword (speed factor 5); Dagger" if key == "weapons" else \
            "Bless (level 1, casting time 10); Sleep"
        raise RosterImportError(where, f"cannot be read; write it as e.g. {example}") from None
    except ValueError:  # Python refuses to read a number of more than 4,300 digits
        raise RosterImportError(where, "a number in it is thousands of digits long") from None
    if not isinstance(items, list):
        raise RosterImportError(where, "expected a JSON list")
    spent: tuple[int, ...] = ()
    if key == "spells":
        try:
            items, spent = _spent_marks(items, "row")
        except RosterImportError as exc:
            place = plain_place(exc.where.replace("row.", ""))
            raise RosterImportError(where, f"{place}: {exc.message}") from None
    try:
        return read_combatant({"id": "row", "side": "party", key: items}, where), spent
    except ScenarioError as exc:
        raise RosterImportError(plain_place(exc.field), exc.message) from None


_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_TEXT_COLUMNS = ("name", "kind", "side", "status", "class", "race", "notes", "hit_dice")


def _neutral_cell(text: str) -> str:
    """Gets a text cell a spreadsheet will not run: ``=HYPERLINK(…)`` becomes ``'=HYPERLINK(…)``.

    A spreadsheet shows the quote-prefixed cell as text; reading the CSV back removes the quote,
    so an export re-imports unchanged (OWASP's advice on CSV injection).
    """
    return f"'{text}" if text.startswith(_FORMULA_STARTS) else text


def _restored_cells(row: Mapping[str, str]) -> dict[str, str]:
    out = dict(row)
    for col in _TEXT_COLUMNS:
        text = out.get(col)
        if isinstance(text, str) and text.startswith("'") and text[1:].startswith(
                _FORMULA_STARTS):
            out[col] = text[1:]
    return out


class _Cells:
    """Reads one CSV row's cells, keeping every problem instead of stopping at the first."""

    def __init__(self, row: Mapping[str, str], line: int) -> None:
        self.row = _restored_cells(row)
        self.line = line
        self.problems: list[tuple[str, str]] = []
        self.failed: set[str] = set()

    def where(self, column: str) -> str:
        return f"line {self.line}, column {column}"

    def text(self, column: str) -> str:
        return self.row.get(column) or ""

    def take(self, column: str, read: Callable[[], Any], default: Any) -> Any:
        try:
            return read()
        except RosterImportError as exc:
            self.problems += exc.problems
            self.failed.add(column)
            return default

    def int(self, column: str) -> int | None:
        value: int | None = self.take(
            column, lambda: _csv_int(self.text(column), self.where(column)), None)
        return value


def _template_from_row(row: Mapping[str, str], line: int) -> MonsterTemplate:
    cells = _Cells(row, line)
    value: dict[str, Any] = {
        "name": cells.text("name").strip(),
        "hit_dice": cells.text("hit_dice").strip(),
        "notes": cells.text("notes"),
    }
    for col in ("ac", "movement", "morale", "attacks", "surprises_on", "xp"):
        value[col] = cells.int(col)
    weapons = cells.take("weapons", lambda: _csv_list(
        cells.text("weapons"), cells.where("weapons"), "weapons")[0].weapons, ())
    value["weapons"] = combatant_to_json(
        Combatant(id="t", side="monsters", weapons=weapons)
    )["weapons"]
    _refuse_all(cells.problems)
    try:
        return template_from_json(value, f"line {line}")
    except RosterImportError as exc:
        raise RosterImportError("", "", [(w.replace(".", ", field "), m)
                                         for w, m in exc.problems]) from None


_CHECKED_COLUMN = {"str_score": "str", "char_class": "class"}


def _entry_from_row(row: Mapping[str, str], line: int) -> RosterEntry:
    cells = _Cells(row, line)
    ints: dict[str, Any] = {field: cells.int(col) for col, field in _CSV_INTS.items()}
    kind_text = cells.text("kind").strip().casefold() or "pc"

    def kind_of() -> Kind:
        try:
            return Kind(kind_text)
        except ValueError:
            allowed = ", ".join([*(k.value for k in Kind), TEMPLATE_KIND])
            raise RosterImportError(cells.where("kind"),
                                    f"{kind_text!r} is not one of {allowed}") from None

    kind = cells.take("kind", kind_of, Kind.PC)
    ints["level"], class_levels = cells.take(
        "level", lambda: _levels(cells.text("level"), cells.where("level")), (None, ()))
    routines = cells.int("attack_routines")
    attacks = cells.int("attacks")
    weapons = cells.take("weapons", lambda: _csv_list(
        cells.text("weapons"), cells.where("weapons"), "weapons")[0].weapons, ())
    with_spells, spent = cells.take("spells", lambda: _csv_list(
        cells.text("spells"), cells.where("spells"), "spells"),
        (Combatant(id="row", side="party"), ()))
    status = cells.take("status", lambda: _status(
        cells.text("status").strip().casefold(), f"line {line}"), RosterStatus.ACTIVE)
    entry = RosterEntry(
        name=cells.text("name").strip(),
        kind=kind,
        side=cells.text("side").strip() or "party",
        status=status,
        char_class=cells.text("class").strip(),
        race=cells.text("race").strip(),
        attack_routines=1 if routines is None else routines,
        attacks=1 if attacks is None else attacks,
        weapons=weapons,
        spells=with_spells.spells,
        spent_spells=spent,
        notes=cells.text("notes"),
        class_levels=class_levels,
        death_saves=_death_saves(cells.int("death_saves")),
        **ints,
    )
    failed = {field for col, field in _CSV_INTS.items() if col in cells.failed} | {
        c for c in cells.failed}
    checks = [(f"line {line}, field {field}", reason)
              for field, reason in check_entry(entry).items()
              if field not in failed and _CHECKED_COLUMN.get(field, field) not in failed]
    _refuse_all([*cells.problems, *checks])
    return entry


def read_roster_csv(text: str, progress: Progress | None = None) -> list[RosterEntry]:
    """Reads a roster CSV (a header row naming columns of :data:`CSV_COLUMNS`, ``name`` needed)."""
    return list(read_roster_csv_document(text, progress).entries)


def read_roster_csv_document(text: str, progress: Progress | None = None) -> RosterDocument:
    """Reads a roster CSV whole: entry rows, and rows of kind ``template``."""
    try:
        # strict: an unclosed quote is an error, not one entry swallowing the rest of the file
        reader = csv.DictReader(io.StringIO(text, newline=""), restkey="\0extra", strict=True)
        header = reader.fieldnames
        if not header:
            raise RosterImportError("line 1", "the file is empty; expected a header row")
        # "Max HP" or "max hp" in a DM's own header is the max_hp column
        header = reader.fieldnames = [" ".join(h.split()).casefold().replace(" ", "_")
                                      for h in header]
        unknown = [c for c in header if c not in CSV_COLUMNS]
        if unknown:
            raise RosterImportError(
                "line 1", f"unknown column {unknown[0]!r}; columns are {', '.join(CSV_COLUMNS)}"
            )
        if "name" not in header:
            raise RosterImportError("line 1", "a 'name' column is needed")
        total = max(0, text.count("\n") - 1)
        entries = []
        templates = []
        problems: list[tuple[str, str]] = []
        done = 0
        for row in reader:
            done += 1
            if "\0extra" in row:
                problems.append((f"line {reader.line_num}", "more values than columns"))
                continue
            try:
                if (row.get("kind") or "").strip().casefold() == TEMPLATE_KIND:
                    templates.append(_template_from_row(row, reader.line_num))
                else:
                    entries.append(_entry_from_row(row, reader.line_num))
            except RosterImportError as exc:
                problems += exc.problems
            if done > MAX_ROWS:
                raise RosterImportError(f"line {reader.line_num}", f"at most {MAX_ROWS} rows")
            _tick(progress, done, max(total, done))
        _refuse_all(problems)
        given = frozenset(f for col in header if col in _ENTRY_KEYS for f in _ENTRY_KEYS[col])
        template_given = frozenset(
            f for col in header if col in _TEMPLATE_FIELDS for f in _TEMPLATE_FIELDS[col])
        return RosterDocument(tuple(entries), tuple(templates), (given,) * len(entries),
                              (template_given,) * len(templates))
    except csv.Error as exc:
        if "unexpected end of data" in str(exc):
            raise RosterImportError(
                "the file", 'a quoted value is never closed (a " without its partner)') from None
        raise RosterImportError("CSV", str(exc)) from None


def _neutral_row(row: dict[str, Any]) -> dict[str, Any]:
    return {k: _neutral_cell(v) if k in _TEXT_COLUMNS and isinstance(v, str) else v
            for k, v in row.items()}


def _weapons_cell(weapons: Sequence[Weapon], as_json: Any) -> str:
    """Gets a weapons cell as a DM reads it (JSON only for a name the text cannot hold)."""
    if not weapons:
        return ""
    return weapons_text(weapons) if writable([w.name for w in weapons]) else json.dumps(as_json)


def _spells_cell(entry: RosterEntry, as_json: Any) -> str:
    if not entry.spells:
        return ""
    if writable([s.name for s in entry.spells]):
        return spells_text(entry.spells, entry.spent_spells)
    return json.dumps(as_json)


def write_roster_csv(
    entries: Sequence[RosterEntry], templates: Sequence[MonsterTemplate] = ()
) -> str:
    """Gets the roster as CSV (weapons and spells written as a DM reads them, e.g.
    ``Long sword (speed factor 5, length 3.5); Dagger``); templates follow as rows of kind
    ``template``."""
    out = io.StringIO(newline="")
    writer = csv.DictWriter(out, CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for e in entries:
        data = entry_to_json(e)
        row: dict[str, Any] = {col: "" for col in CSV_COLUMNS}
        row.update(
            name=e.name, kind=str(e.kind), side=e.side, status=str(e.status),
            race=e.race, notes=e.notes, attack_routines=e.attack_routines, attacks=e.attacks,
            weapons=_weapons_cell(e.weapons, data["weapons"]),
            spells=_spells_cell(e, data["spells"]),
        )  # fmt: skip
        row["class"] = e.char_class
        row["level"] = level_text(e)
        row["death_saves"] = e.death_saves
        for col, field in _CSV_INTS.items():
            value = getattr(e, field)
            row[col] = "" if value is None else value
        writer.writerow(_neutral_row(row))
    for t in templates:
        data = template_to_json(t)
        row = {col: "" for col in CSV_COLUMNS}
        row.update(
            name=t.name, kind=TEMPLATE_KIND, side="monsters", hit_dice=t.hit_dice,
            attacks=t.attacks, notes=t.notes,
            weapons=_weapons_cell(t.weapons, data["weapons"]),
        )  # fmt: skip
        for col in ("ac", "movement", "morale", "surprises_on", "xp"):
            value = getattr(t, col)
            row[col] = "" if value is None else value
        writer.writerow(_neutral_row(row))
    return out.getvalue()


def read_roster_file(name: str, text: str, progress: Progress | None = None) -> list[RosterEntry]:
    """Reads a roster file's entries by its extension (``.csv``; anything else as JSON)."""
    return list(read_roster_document(name, text, progress).entries)


def read_roster_document(
    name: str, text: str, progress: Progress | None = None
) -> RosterDocument:
    """Reads a roster file whole (entries and templates) by its extension."""
    if name.casefold().endswith(".csv"):
        return read_roster_csv_document(text, progress)
    return read_roster_json_document(text, progress)
