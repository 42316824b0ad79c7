"""Merging an imported roster file into a campaign: duplicates found, the DM's choices applied.

An imported entry is a duplicate of a campaign entry with the same name (ignoring case and
surrounding spaces) and the same kind; an imported template, of a template with the same name.
A duplicate equal in every field is already there: importing it changes nothing, so the
re-import of an export is a no-op. The others the DM skips, updates or adds as new. A file
that leaves a field out (a CSV without a weapons column) gives nothing for it: the duplicate
is compared, and updated, on the fields the file gives only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import TypeVar

from core.roster.entries import MonsterTemplate, RosterEntry, level_text

Record = RosterEntry | MonsterTemplate
_R = TypeVar("_R", RosterEntry, MonsterTemplate)


class Choice(StrEnum):
    """What to do with an imported record that matches one already in the campaign."""

    SKIP = "skip"
    """Keep the campaign's record; the file's is dropped."""
    UPDATE = "update"
    """Overwrite the campaign's record with the file's values."""
    ADD = "add"
    """Add the file's record as a second one of the same name."""


_LABELS = {
    "name": "name", "kind": "kind", "side": "side", "status": "status", "level": "level",
    "char_class": "class", "race": "race", "hp": "HP", "max_hp": "max HP", "ac": "AC",
    "str_score": "Str", "dex": "Dex", "wis": "Wis", "initiative_adj": "initiative adj.",
    "surprise_adj": "surprise adj.", "missile_adj": "missile adj.",
    "reaction_adj": "reaction adj.", "movement": "movement", "morale": "morale",
    "attack_routines": "attack routines", "attacks": "attacks", "weapons": "weapons",
    "spells": "spells", "spent_spells": "spent spells", "notes": "notes",
    "hit_dice": "hit dice", "surprises_on": "surprises on", "xp": "XP",
}  # fmt: skip
_SHOWN_AS_VALUES = {"name", "kind", "side", "status", "level", "char_class", "race", "hp", "max_hp",
                    "ac", "str_score", "dex", "wis", "initiative_adj", "surprise_adj",
                    "missile_adj", "reaction_adj", "movement", "morale", "attack_routines",
                    "attacks", "hit_dice", "surprises_on", "xp"}  # fmt: skip


def _key(record: Record) -> tuple[str, str]:
    kind = "template" if isinstance(record, MonsterTemplate) else str(record.kind)
    return (" ".join(record.name.split()).casefold(), kind)


def _bare(record: _R) -> _R:
    return replace(record, id=None, version=0)


def _shown(value: object) -> str:
    return "blank" if value is None or value == "" else str(value)


def _names(items: object) -> str:
    names = [str(getattr(i, "name", i)) for i in items] if isinstance(items, tuple) else []
    text = ", ".join(names) or "none"
    return text if len(text) <= 60 else text[:59] + "…"


def differences(existing: Record, incoming: Record) -> tuple[str, ...]:
    """Gets, in plain words, how ``incoming`` differs from ``existing`` ("HP 24 → 20")."""
    out: list[str] = []
    for f in fields(existing):
        if f.name in ("id", "version"):
            continue
        old, new = getattr(existing, f.name), getattr(incoming, f.name)
        if f.name == "class_levels":
            continue  # shown with the level, as the DM writes it ("level 2 → 2/2")
        if (
            f.name == "level"
            and isinstance(existing, RosterEntry)
            and isinstance(incoming, RosterEntry)
        ):
            old, new = level_text(existing) or None, level_text(incoming) or None
        if old == new:
            continue
        label = _LABELS.get(f.name, f.name.replace("_", " "))
        if f.name in _SHOWN_AS_VALUES:
            out.append(f"{label} {_shown(old)} → {_shown(new)}")
        elif f.name in ("weapons", "spells"):  # by name: "weapons Long sword, Dagger → none"
            out.append(f"{label} {_names(old)} → {_names(new)}")
        elif f.name == "notes" and not new:
            out.append("notes cleared")
        else:
            out.append(f"{label} differ" if label.endswith("s") else f"{label} differs")
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Duplicate:
    """An imported record matching one in the campaign, with how the two differ."""

    existing: Record
    incoming: Record
    differences: tuple[str, ...]

    @property
    def label(self) -> str:
        """Gets the name and kind a DM reads ("Orc (monster template)")."""
        if isinstance(self.incoming, MonsterTemplate):
            return f"{self.incoming.name} (monster template)"
        return f"{self.incoming.name} ({_KIND_WORDS.get(str(self.incoming.kind), 'entry')})"


_KIND_WORDS = {"pc": "PC", "henchman": "henchman", "hireling": "hireling", "monster": "monster"}


@dataclass(frozen=True, slots=True)
class ImportPlan:
    """What a file would do to the campaign before the DM chooses about its duplicates."""

    new_entries: tuple[RosterEntry, ...]
    new_templates: tuple[MonsterTemplate, ...]
    duplicates: tuple[Duplicate, ...]
    unchanged: tuple[Record, ...]
    """Records already in the campaign exactly as the file has them: nothing to do."""

    @property
    def nothing_to_do(self) -> bool:
        """Tells whether importing the file would change nothing."""
        return not (self.new_entries or self.new_templates or self.duplicates)


@dataclass(frozen=True, slots=True)
class ImportChanges:
    """What one import writes: records to add, and (saved, new values) pairs to update.

    An added record without an id gets a new one; with an id (a redo after an undo), it is
    put back under that id and version.
    """

    added_entries: tuple[RosterEntry, ...] = ()
    updated_entries: tuple[tuple[RosterEntry, RosterEntry], ...] = ()
    added_templates: tuple[MonsterTemplate, ...] = ()
    updated_templates: tuple[tuple[MonsterTemplate, MonsterTemplate], ...] = ()

    @property
    def is_empty(self) -> bool:
        """Tells whether the import writes nothing."""
        return not (
            self.added_entries
            or self.updated_entries
            or self.added_templates
            or self.updated_templates
        )

    def summary(self, source: str) -> str:
        """Gets the session-log and undo text ("Import party.json: 2 added, 1 updated")."""
        added = len(self.added_entries) + len(self.added_templates)
        updated = len(self.updated_entries) + len(self.updated_templates)
        parts = [f"{added} added"] if added else []
        if updated:
            parts.append(f"{updated} updated")
        return f"Import {source}: {', '.join(parts) or 'nothing changed'}"

    def details(self) -> list[str]:
        """Gets one line a record, by name, for the session log."""
        lines = [f"Added {e.name}" for e in self.added_entries]
        lines += [f"Updated {after.name}" for _, after in self.updated_entries]
        lines += [f"Added the {t.name} template" for t in self.added_templates]
        lines += [f"Updated the {after.name} template" for _, after in self.updated_templates]
        return lines


Given = frozenset[str] | None
"""The fields a file gives for one record (None: every field)."""


def _over(existing: _R, incoming: _R, given: Given) -> _R:
    """Gets ``existing`` with the fields the file gives taken from ``incoming``, unsaved."""
    if given is None:
        return _bare(incoming)
    names = {f.name for f in fields(existing)} & set(given)
    return _bare(replace(existing, **{n: getattr(incoming, n) for n in names}))


def _match(
    existing: Sequence[_R], incoming: Sequence[_R], given: Sequence[Given] | None = None,
) -> tuple[list[_R], list[Duplicate], list[Record]]:
    free: dict[tuple[str, str], list[_R]] = {}
    for record in existing:
        free.setdefault(_key(record), []).append(record)
    new: list[_R] = []
    duplicates: list[Duplicate] = []
    unchanged: list[Record] = []
    for i, record in enumerate(incoming):
        candidates = free.get(_key(record))
        if not candidates:
            new.append(record)
            continue
        fields_given = given[i] if given is not None and i < len(given) else None
        # Pair in order: a file with two "Orc" rows against one in the campaign adds the second.
        same = next((c for c in candidates
                     if _bare(c) == _over(c, record, fields_given)), None)
        match = same if same is not None else candidates[0]
        candidates.remove(match)
        if same is not None:
            unchanged.append(match)
        else:
            merged = _over(match, record, fields_given)
            duplicates.append(Duplicate(match, merged, differences(match, merged)))
    return new, duplicates, unchanged


def plan_import(
    entries: Sequence[RosterEntry],
    templates: Sequence[MonsterTemplate],
    incoming_entries: Sequence[RosterEntry],
    incoming_templates: Sequence[MonsterTemplate] = (),
    entry_fields: Sequence[Given] | None = None,
    template_fields: Sequence[Given] | None = None,
) -> ImportPlan:
    """Compares a file's records with the campaign's: new ones, duplicates, unchanged ones.

    ``entry_fields`` / ``template_fields``: record by record, the fields the file gives
    (:class:`core.roster.files.RosterDocument`); a duplicate changes only those.
    """
    new_entries, entry_dups, same_entries = _match(
        entries, [_bare(e) for e in incoming_entries], entry_fields)
    new_templates, template_dups, same_templates = _match(
        templates, [_bare(t) for t in incoming_templates], template_fields
    )
    return ImportPlan(
        tuple(new_entries),
        tuple(new_templates),
        tuple(entry_dups + template_dups),
        tuple(same_entries + same_templates),
    )


def resolve(plan: ImportPlan, choices: Sequence[Choice]) -> ImportChanges:
    """Gets what to write, given one choice for each of the plan's duplicates, in order."""
    if len(choices) != len(plan.duplicates):
        raise ValueError(f"{len(plan.duplicates)} choices are needed, got {len(choices)}")
    added_entries = list(plan.new_entries)
    added_templates = list(plan.new_templates)
    updated_entries: list[tuple[RosterEntry, RosterEntry]] = []
    updated_templates: list[tuple[MonsterTemplate, MonsterTemplate]] = []
    for dup, choice in zip(plan.duplicates, choices, strict=True):
        existing, incoming = dup.existing, dup.incoming
        if choice is Choice.SKIP:
            continue
        if isinstance(existing, RosterEntry) and isinstance(incoming, RosterEntry):
            if choice is Choice.ADD:
                added_entries.append(incoming)
            else:
                after = replace(incoming, id=existing.id, version=existing.version)
                updated_entries.append((existing, after))
        elif isinstance(existing, MonsterTemplate) and isinstance(incoming, MonsterTemplate):
            if choice is Choice.ADD:
                added_templates.append(incoming)
            else:
                after_t = replace(incoming, id=existing.id, version=existing.version)
                updated_templates.append((existing, after_t))
    return ImportChanges(
        tuple(added_entries), tuple(updated_entries), tuple(added_templates),
        tuple(updated_templates),
    )  # fmt: skip
