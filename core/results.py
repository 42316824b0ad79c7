"""Results flowing back from an encounter to the roster: proposed, reviewed, then applied.

An encounter's combatants carry ``extra["roster_id"]`` when they came from the roster (see
:func:`roster_combatant`); a combatant without it is matched by name. Monsters stamped from
templates match nothing and propose nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from core.log import EncounterState
from core.model import Combatant, Status, frozen_mapping
from core.roster import RosterEntry, RosterStatus, available_spells, spend_spells

ROSTER_ID_KEY = "roster_id"

_STATUS = {
    Status.ACTIVE: RosterStatus.ACTIVE,
    Status.UNCONSCIOUS: RosterStatus.UNCONSCIOUS,
    Status.DEAD: RosterStatus.DEAD,
    Status.FLED: RosterStatus.FLED,
}  # a surrender ends the fight, not the career: it proposes nothing


class ChangeField(StrEnum):
    """What a proposed change alters."""

    HP = "hp"
    STATUS = "status"
    SPELLS = "spells"


@dataclass(frozen=True, slots=True)
class ProposedChange:
    """One change the encounter suggests for one roster entry; the DM accepts it or not."""

    entry_id: int
    entry_name: str
    field: ChangeField
    old: object
    new: object
    description: str


def roster_combatant(entry: RosterEntry, cid: str | None = None) -> Combatant:
    """Makes the combatant that brings a roster entry into an encounter (linked back by id)."""
    if entry.id is None:
        raise ValueError(f"{entry.name} must be saved before it can fight")
    return Combatant(
        id=cid or f"roster-{entry.id}",
        side=entry.side,
        name=entry.name,
        kind=entry.kind,
        hp=entry.hp,
        max_hp=entry.max_hp,
        ac=entry.ac,
        dex=entry.dex,
        wis=entry.wis,
        race=entry.race or None,
        level=entry.level,
        initiative_adj=entry.initiative_adj,
        surprise_adj=entry.surprise_adj,
        missile_adj=entry.missile_adj,
        reaction_adj=entry.reaction_adj,
        attack_routines=entry.attack_routines,
        attacks=entry.attacks,
        movement=entry.movement,
        morale=entry.morale,
        weapons=entry.weapons,
        spells=available_spells(entry),  # spent ones stay spent until the next rest
        extra=frozen_mapping({ROSTER_ID_KEY: entry.id}),
    )


def _match(
    combatant: Combatant, by_id: Mapping[int, RosterEntry], by_name: Mapping[str, RosterEntry]
) -> RosterEntry | None:
    linked = combatant.extra.get(ROSTER_ID_KEY)
    if isinstance(linked, int) and not isinstance(linked, bool):
        return by_id.get(linked)
    return by_name.get(combatant.name) if combatant.name else None


def _spells_spent(
    entry: RosterEntry, combatant: Combatant, cast: Sequence[str]
) -> tuple[str, ...]:
    """Gets the available spells ``entry`` spent: those cast, or gone from a linked combatant."""
    memorised = Counter(s.name for s in available_spells(entry))
    spent = Counter(name for name in cast if name in memorised)
    if ROSTER_ID_KEY in combatant.extra:  # it carried the roster's spell list into the fight
        spent |= memorised - Counter(s.name for s in combatant.spells)
    spent &= memorised
    out: list[str] = []
    for spell in available_spells(entry):  # in the entry's own order
        if spent[spell.name] > 0:
            spent[spell.name] -= 1
            out.append(spell.name)
    return tuple(out)


def propose_results(
    roster: Sequence[RosterEntry],
    state: EncounterState,
    spells_cast: Mapping[str, Sequence[str]] | None = None,
) -> list[ProposedChange]:
    """Compares the encounter's end state with the roster and lists what should change.

    ``spells_cast`` maps a combatant id to the spells it cast or lost; spells missing from a
    combatant's end-state list count as used as well.
    """
    by_id = {e.id: e for e in roster if e.id is not None}
    names = Counter(e.name for e in roster)
    by_name = {e.name: e for e in roster if names[e.name] == 1 and e.id is not None}
    changes: list[ProposedChange] = []
    for combatant in state.combatants.values():
        entry = _match(combatant, by_id, by_name)
        if entry is None or entry.id is None:
            continue
        hp = combatant.hp
        if hp is not None and entry.max_hp is not None:
            hp = min(hp, entry.max_hp)
        if hp is not None and hp != entry.hp:
            changes.append(
                ProposedChange(
                    entry.id, entry.name, ChangeField.HP, entry.hp, hp,
                    f"{entry.name}: HP {entry.hp if entry.hp is not None else '?'} → {hp}",
                )
            )  # fmt: skip
        status = _STATUS.get(combatant.status)
        if status is not None and status != entry.status:
            changes.append(
                ProposedChange(
                    entry.id, entry.name, ChangeField.STATUS, entry.status, status,
                    f"{entry.name}: {entry.status} → {status}",
                )
            )  # fmt: skip
        spent = _spells_spent(entry, combatant, (spells_cast or {}).get(combatant.id, ()))
        if spent:
            changes.append(
                ProposedChange(
                    entry.id, entry.name, ChangeField.SPELLS,
                    tuple(s.name for s in available_spells(entry)),
                    spent, f"{entry.name}: spells used — {', '.join(spent)}",
                )
            )  # fmt: skip
    return changes


def apply_changes(
    roster: Sequence[RosterEntry], changes: Sequence[ProposedChange]
) -> list[RosterEntry]:
    """Gets the roster entries the accepted ``changes`` alter, changed (others left out)."""
    by_id = {e.id: e for e in roster}
    changed: dict[int, RosterEntry] = {}
    for change in changes:
        entry = changed.get(change.entry_id) or by_id.get(change.entry_id)
        if entry is None:
            raise ValueError(f"{change.entry_name} is no longer in the roster")
        if change.field is ChangeField.HP:
            entry = replace(entry, hp=change.new if isinstance(change.new, int) else None)
        elif change.field is ChangeField.STATUS:
            entry = replace(entry, status=RosterStatus(str(change.new)))
        else:  # spent, not forgotten: the memorised list stays for the next rest
            entry = spend_spells(entry, change.new if isinstance(change.new, tuple) else ())
        changed[change.entry_id] = entry
    return list(changed.values())
