"""Roster import and export: JSON in the scenario combatant shape (DESIGN §6) and CSV.

A file is read whole before anything is stored: the first problem refuses it, naming the line
or JSON path and the field, so a campaign never holds half an import.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from core.model import Combatant, Kind
from core.results import START_KEYS, roster_combatant
from core.roster import RosterEntry, RosterStatus
from core.roster_checks import check_entry
from core.scenario import ScenarioError, combatant_to_json, read_combatant

ROSTER_FORMAT = "combatdesk/roster-1"
MAX_ROWS = 100_000
PROGRESS_EVERY = 250

Progress = Callable[[int, int], None]
"""Called with (rows read, rows in the file) while a large file is read."""

_ROSTER_ONLY = ("char_class", "class", "str_score", "str", "notes", "status")
"""Roster fields the scenario shape lacks (status: the roster has "retired", not "surrendered")."""


class RosterImportError(ValueError):
    """A roster file that cannot be imported; ``where`` is the line or JSON path of the culprit."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


def _refuse_problems(entry: RosterEntry, where: str) -> None:
    problems = check_entry(entry)
    if problems:
        field, reason = next(iter(problems.items()))
        raise RosterImportError(f"{where}, field {field}", reason)


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


def entry_from_json(value: Any, where: str) -> RosterEntry:
    """Reads one roster entry from a scenario-shaped combatant object (id and side optional)."""
    if not isinstance(value, dict):
        raise RosterImportError(where, f"expected an object, got {type(value).__name__}")
    data = {k: v for k, v in value.items() if k not in _ROSTER_ONLY}
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
        notes=_opt_str(value, "notes", where=where),
    )
    _refuse_problems(entry, where)
    return entry


def _tick(progress: Progress | None, done: int, total: int) -> None:
    if progress is not None and (done % PROGRESS_EVERY == 0 or done == total):
        progress(done, total)


def read_roster_json(text: str, progress: Progress | None = None) -> list[RosterEntry]:
    """Reads a roster (or scenario) JSON document: ``{"combatants": [...]}`` or a bare list."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RosterImportError(f"line {exc.lineno}, column {exc.colno}", exc.msg) from None
    except RecursionError:
        raise RosterImportError("line 1", "the JSON is nested too deeply") from None
    if isinstance(document, dict):
        items = document.get("combatants")
        if not isinstance(items, list):
            raise RosterImportError("combatants", "expected a list of combatants")
    elif isinstance(document, list):
        items = document
    else:
        raise RosterImportError("document", "expected an object with 'combatants' or a list")
    if len(items) > MAX_ROWS:
        raise RosterImportError("combatants", f"at most {MAX_ROWS} entries a file")
    entries = []
    for i, item in enumerate(items):
        entries.append(entry_from_json(item, f"combatants[{i}]"))
        _tick(progress, i + 1, len(items))
    return entries


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
    return out


def write_roster_json(entries: Sequence[RosterEntry]) -> str:
    """Gets the roster as a ``combatdesk/roster-1`` JSON document."""
    document = {"format": ROSTER_FORMAT, "combatants": [entry_to_json(e) for e in entries]}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


# --- CSV ------------------------------------------------------------------------------------

CSV_COLUMNS = (
    "name", "kind", "side", "status", "level", "class", "race", "hp", "max_hp", "ac",
    "str", "dex", "wis", "initiative_adj", "surprise_adj", "missile_adj", "reaction_adj",
    "movement", "morale", "attack_routines", "attacks", "weapons", "spells", "notes",
)  # fmt: skip
_CSV_INTS = {
    "level": "level", "hp": "hp", "max_hp": "max_hp", "ac": "ac", "str": "str_score",
    "dex": "dex", "wis": "wis", "initiative_adj": "initiative_adj",
    "surprise_adj": "surprise_adj", "missile_adj": "missile_adj", "reaction_adj": "reaction_adj",
    "movement": "movement", "morale": "morale",
}  # fmt: skip


def _csv_int(text: str, where: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise RosterImportError(where, f"{text!r} is not a whole number") from None


def _csv_list(text: str, where: str, key: str) -> Combatant:
    """Reads a JSON list cell (weapons or spells) with the scenario reader's own checks."""
    text = text.strip()
    if not text:
        return Combatant(id="row", side="party")
    try:
        items = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        example = '[{"name": "Dagger"}]'
        raise RosterImportError(where, f"expected a JSON list, e.g. {example}") from None
    if not isinstance(items, list):
        raise RosterImportError(where, "expected a JSON list")
    try:
        return read_combatant({"id": "row", "side": "party", key: items}, where)
    except ScenarioError as exc:
        raise RosterImportError(exc.field, exc.message) from None


def _entry_from_row(row: Mapping[str, str], line: int) -> RosterEntry:
    def where(column: str) -> str:
        return f"line {line}, column {column}"

    ints: dict[str, Any] = {
        field: _csv_int(row.get(col) or "", where(col)) for col, field in _CSV_INTS.items()
    }
    kind_text = (row.get("kind") or "pc").strip().casefold()
    try:
        kind = Kind(kind_text)
    except ValueError:
        allowed = ", ".join(k.value for k in Kind)
        raise RosterImportError(where("kind"), f"{kind_text!r} is not one of {allowed}") from None
    routines = _csv_int(row.get("attack_routines") or "", where("attack_routines"))
    attacks = _csv_int(row.get("attacks") or "", where("attacks"))
    weapons = _csv_list(row.get("weapons") or "", where("weapons"), "weapons").weapons
    spells = _csv_list(row.get("spells") or "", where("spells"), "spells").spells
    entry = RosterEntry(
        name=(row.get("name") or "").strip(),
        kind=kind,
        side=(row.get("side") or "").strip() or "party",
        status=_status((row.get("status") or "").strip().casefold(), f"line {line}"),
        char_class=(row.get("class") or "").strip(),
        race=(row.get("race") or "").strip(),
        attack_routines=1 if routines is None else routines,
        attacks=1 if attacks is None else attacks,
        weapons=weapons,
        spells=spells,
        notes=row.get("notes") or "",
        **ints,
    )
    _refuse_problems(entry, f"line {line}")
    return entry


def read_roster_csv(text: str, progress: Progress | None = None) -> list[RosterEntry]:
    """Reads a roster CSV (a header row naming columns of :data:`CSV_COLUMNS`, ``name`` needed)."""
    try:
        reader = csv.DictReader(io.StringIO(text, newline=""), restkey="\0extra")
        header = reader.fieldnames
        if not header:
            raise RosterImportError("line 1", "the file is empty; expected a header row")
        unknown = [c for c in header if c not in CSV_COLUMNS]
        if unknown:
            raise RosterImportError(
                "line 1", f"unknown column {unknown[0]!r}; columns are {', '.join(CSV_COLUMNS)}"
            )
        if "name" not in header:
            raise RosterImportError("line 1", "a 'name' column is needed")
        total = max(0, text.count("\n") - 1)
        entries = []
        for row in reader:
            if "\0extra" in row:
                raise RosterImportError(f"line {reader.line_num}", "more values than columns")
            entries.append(_entry_from_row(row, reader.line_num))
            if len(entries) > MAX_ROWS:
                raise RosterImportError(f"line {reader.line_num}", f"at most {MAX_ROWS} rows")
            _tick(progress, len(entries), max(total, len(entries)))
        return entries
    except csv.Error as exc:
        raise RosterImportError("CSV", str(exc)) from None


def write_roster_csv(entries: Sequence[RosterEntry]) -> str:
    """Gets the roster as CSV (weapons and spells as JSON lists in their cells)."""
    out = io.StringIO(newline="")
    writer = csv.DictWriter(out, CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for e in entries:
        data = entry_to_json(e)
        row: dict[str, Any] = {col: "" for col in CSV_COLUMNS}
        row.update(
            name=e.name, kind=str(e.kind), side=e.side, status=str(e.status),
            race=e.race, notes=e.notes, attack_routines=e.attack_routines, attacks=e.attacks,
            weapons=json.dumps(data["weapons"]) if e.weapons else "",
            spells=json.dumps(data["spells"]) if e.spells else "",
        )  # fmt: skip
        row["class"] = e.char_class
        for col, field in _CSV_INTS.items():
            value = getattr(e, field)
            row[col] = "" if value is None else value
        writer.writerow(row)
    return out.getvalue()


def read_roster_file(name: str, text: str, progress: Progress | None = None) -> list[RosterEntry]:
    """Reads a roster file by its extension (``.csv``; anything else as JSON)."""
    if name.casefold().endswith(".csv"):
        return read_roster_csv(text, progress)
    return read_roster_json(text, progress)
