"""Results flowing back from an encounter to the roster: proposed, reviewed, then applied.

An encounter's combatants carry ``extra["roster_id"]`` when they came from the roster (see
:func:`roster_combatant`); a combatant without it is matched by name. Monsters stamped from
templates match nothing and propose nothing.

Results are *changes*: what the fight did to an entry since it began (HP lost or gained, a
death, spells spent), applied to the entry as the roster holds it now. Two fights sharing a
PC therefore both count. The roster's version when the fight began rides along with the
combatant, so an entry changed since then (another fight, another window, an edit) is flagged
for the DM to choose, never silently replaced.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from core.fight.log import EncounterState
from core.model.values import Combatant, Status, Step, StepEvent, frozen_mapping
from core.roster.checks import MIN_HP
from core.roster.entries import RosterEntry, RosterStatus, available_spells, spend_spells

ROSTER_ID_KEY = "roster_id"
DEATH_SAVES_KEY = "death_saves"
"""The combatant field holding a PC's lifetime Death saves left (popcorn reads it)."""
START_KEYS = ("roster_version", "roster_hp", "roster_status", "roster_spells",
              "roster_death_saves")
"""The combatant's ``extra`` keys holding its roster entry as the fight began."""

_STATUS = {
    Status.ACTIVE: RosterStatus.ACTIVE,
    Status.UNCONSCIOUS: RosterStatus.UNCONSCIOUS,
    Status.DEAD: RosterStatus.DEAD,
    Status.FLED: RosterStatus.FLED,
}  # a surrender ends the fight, not the career: it proposes nothing
_FIGHT_STATUS = {RosterStatus.DEAD: Status.DEAD, RosterStatus.UNCONSCIOUS: Status.UNCONSCIOUS}
"""How an entry that is down in the roster enters a fight (any other status: active)."""
DEFEATED_KEY = "defeated"
"""A reopened encounter's baseline marks a monster whose defeat was logged with this key."""


class ChangeField(StrEnum):
    """What a proposed change alters."""

    HP = "hp"
    STATUS = "status"
    SPELLS = "spells"
    DEATH_SAVES = "death_saves"
    """Lifetime Death saves left (popcorn): a fight in which the PC spent one lowers it."""


class Choice(StrEnum):
    """What the DM does with a change to an entry that was changed since the fight began."""

    ON_TOP = "on-top"
    """Adds this fight's change to the entry as it is now (both changes count)."""
    FIGHT_END = "fight-end"
    """Sets the entry to what this fight ended with (the other change is lost)."""
    KEEP = "keep"
    """Keeps the entry as it is now (this fight's change is dropped)."""


@dataclass(frozen=True, slots=True)
class ProposedChange:
    """One change the encounter suggests for one roster entry; the DM accepts it or not.

    ``old`` is the entry's value now, ``new`` what it becomes; ``start`` and ``end`` are the
    values when the fight began and ended. ``changed_since`` tells that the entry was saved
    since the fight began, so ``old`` may differ from ``start``.
    """

    entry_id: int
    entry_name: str
    field: ChangeField
    old: object
    new: object
    description: str
    start: object = None
    end: object = None
    changed_since: bool = False
    gone: bool = False
    """The entry was deleted from the roster during the fight: the change is only logged."""
    lost: tuple[str, ...] = ()
    """Of the spells used (``new``), those lost to a blow rather than cast."""

    def chosen(self, choice: Choice) -> ProposedChange | None:
        """Gets the change to write for the DM's ``choice`` (None: write nothing)."""
        if choice is Choice.KEEP:
            return None
        if choice is Choice.FIGHT_END and self.field is not ChangeField.SPELLS:
            if self.end == self.old:
                return None
            return replace(self, new=self.end,
                           description=f"{self.entry_name}: {_label(self.field)} "
                           f"{_text(self.old)} → {_text(self.end)} (this fight's end)")
        return self


@dataclass(frozen=True, slots=True)
class Baseline:
    """A linked entry as a fight began (or as a reopened fight's results left it)."""

    hp: int | None
    status: RosterStatus
    spells: tuple[str, ...]
    version: int | None
    death_saves: int | None = None
    """Lifetime Death saves (None: a log or baseline written before they were kept)."""
    cast: tuple[str, ...] = ()
    """The spells it had cast (or lost) when the fight was reopened: the earlier End counted
    them, so the next End counts only those cast since (a second Sleep memorised was taken as
    spent too, the first cast counted again)."""

    def to_json(self) -> dict[str, object]:
        return {"hp": self.hp, "status": str(self.status), "spells": list(self.spells),
                "version": self.version, "death_saves": self.death_saves,
                "cast": list(self.cast)}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Baseline:
        hp, version, spells = data.get("hp"), data.get("version"), data.get("spells")
        saves = data.get("death_saves")
        return cls(
            hp if isinstance(hp, int) else None,
            RosterStatus(str(data.get("status", RosterStatus.ACTIVE))),
            tuple(str(s) for s in spells) if isinstance(spells, list | tuple) else (),
            version if isinstance(version, int) else None,
            saves if isinstance(saves, int) and not isinstance(saves, bool) else None,
            tuple(str(c) for c in cast) if isinstance(cast := data.get("cast"), list) else (),
        )


def _label(field: ChangeField) -> str:
    return {ChangeField.HP: "HP", ChangeField.STATUS: "status",
            ChangeField.DEATH_SAVES: "Death saves"}.get(field, "spells")


def _text(value: object) -> str:
    if value is None:
        return "?"
    if isinstance(value, tuple):
        return ", ".join(str(v) for v in value) or "none"
    return str(value)


def roster_combatant(entry: RosterEntry, cid: str | None = None) -> Combatant:
    """Makes the combatant that brings a roster entry into an encounter (linked back by id)."""
    if entry.id is None:
        raise ValueError(f"{entry.name} must be saved before it can fight")
    return Combatant(
        # The fight begins from the roster as it is: the dead and the unconscious do not act.
        status=_FIGHT_STATUS.get(entry.status, Status.ACTIVE),
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
        extra=frozen_mapping({
            ROSTER_ID_KEY: entry.id,
            # The entry as the fight begins: results are changes from here.
            "roster_version": entry.version,
            "roster_hp": entry.hp,
            "roster_status": str(entry.status),
            "roster_spells": [s.name for s in available_spells(entry)],
            # popcorn reads the lifetime Death saves left (popcorn.death.death-saves)
            DEATH_SAVES_KEY: entry.death_saves,
            "roster_death_saves": entry.death_saves,
        }),
    )


def death_saves_left(steps: Sequence[Step]) -> dict[str, int]:
    """Gets, by combatant id, the Death saves a PC has left after the fight's steps (only for
    those the resolution says spent one or ran out: popcorn.death.death-saves)."""
    out: dict[str, int] = {}
    for step in steps:
        left = step.detail.get("death_saves_left")
        if isinstance(left, int) and not isinstance(left, bool):
            who = step.actor if step.event is StepEvent.DIES else step.target
            if who is not None:
                out[who] = left
    return out


def with_death_saves(combatant: Combatant, left: Mapping[str, int]) -> Combatant:
    """Gets the combatant carrying the Death saves the fight left it (for the results)."""
    if combatant.id not in left:
        return combatant
    return replace(combatant, extra=frozen_mapping({**combatant.extra,
                                                    DEATH_SAVES_KEY: left[combatant.id]}))


def _start(combatant: Combatant, entry: RosterEntry) -> Baseline:
    """Gets the entry as this combatant's fight began (the entry itself for older logs)."""
    extra = combatant.extra
    if "roster_version" not in extra:
        spells = tuple(s.name for s in available_spells(entry))
        return Baseline(entry.hp, entry.status, spells, None)
    return Baseline.from_json({
        "hp": extra.get("roster_hp"), "status": extra.get("roster_status", "active"),
        "spells": extra.get("roster_spells", []), "version": extra.get("roster_version"),
        "death_saves": extra.get("roster_death_saves"),
    })


def _match(
    combatant: Combatant, by_id: Mapping[int, RosterEntry], by_name: Mapping[str, RosterEntry]
) -> RosterEntry | None:
    linked = combatant.extra.get(ROSTER_ID_KEY)
    if isinstance(linked, int) and not isinstance(linked, bool):
        return by_id.get(linked)
    return by_name.get(combatant.name) if combatant.name else None


def _all_cast(spells_cast: Mapping[str, Sequence[str]] | None, cid: str) -> tuple[str, ...]:
    return tuple((spells_cast or {}).get(cid, ()))


def _cast_since(
    spells_cast: Mapping[str, Sequence[str]] | None, cid: str, start: Baseline
) -> tuple[str, ...]:
    """Gets the spells a combatant cast (or lost) since ``start``: a reopened fight's
    baseline took away those an earlier End had counted."""
    counted = Counter(start.cast)
    out: list[str] = []
    for name in _all_cast(spells_cast, cid):
        if counted[name] > 0:
            counted[name] -= 1
        else:
            out.append(name)
    return tuple(out)


def _spells_spent(
    memorised_names: Sequence[str], combatant: Combatant, cast: Sequence[str]
) -> tuple[str, ...]:
    """Gets the memorised spells spent: those cast, or gone from a linked combatant."""
    memorised = Counter(memorised_names)
    spent = Counter(name for name in cast if name in memorised)
    if ROSTER_ID_KEY in combatant.extra:  # it carried the roster's spell list into the fight
        spent |= memorised - Counter(s.name for s in combatant.spells)
    spent &= memorised
    out: list[str] = []
    for name in memorised_names:  # in the entry's own order
        if spent[name] > 0:
            spent[name] -= 1
            out.append(name)
    return tuple(out)


def _held(hp: int) -> int:
    """Gets HP as the roster holds it: a fight may go below −10 (a blow of 20 on 4 HP), the
    roster does not (core.roster.checks.MIN_HP); such a PC is dead, which its status says, so
    the results write the lowest HP the roster holds and the entry still opens and saves."""
    return max(hp, MIN_HP)


def _end_hp(combatant: Combatant, entry: RosterEntry) -> int | None:
    hp = combatant.hp
    if hp is not None and entry.max_hp is not None:
        hp = min(hp, entry.max_hp)
    return _held(hp) if hp is not None else None


def _hp_change(entry: RosterEntry, start: Baseline, end: int | None) -> int | None:
    """Gets the entry's HP after adding the fight's gain or loss to what it holds now."""
    if end is None:
        return None
    if start.hp is None or entry.hp is None:
        return end if end != entry.hp else None
    new = _held(entry.hp + (end - start.hp))
    if entry.max_hp is not None:
        new = min(new, entry.max_hp)
    return new if end != start.hp and new != entry.hp else None


def _lost_of(spent: Sequence[str], lost: Sequence[str]) -> tuple[str, ...]:
    """Gets which of the ``spent`` spells were lost (each lost one counted once)."""
    left = Counter(lost)
    return tuple(n for n in spent if _take(left, n))


def spent_words(spent: Sequence[str], lost: Sequence[str]) -> str:
    """Says which spells a fight used, the lost ones named so: "Bless, Web (lost)"."""
    left = Counter(lost)
    return ", ".join(f"{n} (lost)" if _take(left, n) else n for n in spent)


def propose_results(
    roster: Sequence[RosterEntry],
    state: EncounterState,
    spells_cast: Mapping[str, Sequence[str]] | None = None,
    baseline: Mapping[str, Mapping[str, object]] | None = None,
    spells_lost: Mapping[str, Sequence[str]] | None = None,
) -> list[ProposedChange]:
    """Lists what the encounter changed in each linked entry, as changes to the roster now.

    ``roster`` is the roster as it is now; each combatant's start comes from the log (or from
    ``baseline``, by combatant id, when a reopened encounter recorded one). ``spells_cast``
    maps a combatant id to the spells it cast or lost, ``spells_lost`` those of them it lost
    (named so in the change); spells missing from a combatant's end-state list count as used
    as well.
    """
    by_id = {e.id: e for e in roster if e.id is not None}
    names = Counter(e.name for e in roster)
    by_name = {e.name: e for e in roster if names[e.name] == 1 and e.id is not None}
    changes: list[ProposedChange] = []
    for combatant in state.combatants.values():
        entry = _match(combatant, by_id, by_name)
        if entry is None:
            changes += _gone_changes(combatant, spells_cast, baseline)
            continue
        if entry.id is None:
            continue
        recorded = _recorded(baseline, combatant.id)
        start = Baseline.from_json(recorded) if recorded else _start(combatant, entry)
        since = start.version is not None and start.version != entry.version
        note = " (changed since the fight began)" if since else ""

        def change(field: ChangeField, new: object, text: str, first: object, last: object,
                   entry: RosterEntry = entry, since: bool = since,
                   note: str = note) -> ProposedChange:
            now = _now(entry, field)
            # the entry was saved since, but this value may be the same as at the start:
            # only a value that really moved on needs the DM's choice
            moved = since and _differs(field, now, first)
            return ProposedChange(entry.id or 0, entry.name, field, now, new,
                                  text.replace(note, "") if not moved else text,
                                  first, last, moved)

        end = _end_hp(combatant, entry)
        hp = _hp_change(entry, start, end)
        if hp is not None:
            changes.append(change(ChangeField.HP, hp,
                                  f"{entry.name}: HP {_text(entry.hp)} → {hp}{note}",
                                  start.hp, end))
        status = _STATUS.get(combatant.status)
        if status is not None and status != start.status and status != entry.status:
            changes.append(change(ChangeField.STATUS, status,
                                  f"{entry.name}: {entry.status} → {status}{note}",
                                  start.status, status))
        saves = _death_saves_change(combatant, start)
        if saves is not None:
            first, last = saves
            left = max(0, entry.death_saves - (first - last))
            changes.append(change(ChangeField.DEATH_SAVES, left,
                                  f"{entry.name}: Death saves {entry.death_saves} → {left} "
                                  f"({first - last} spent in this fight){note}", first, last))
        cast = _cast_since(spells_cast, combatant.id, start)
        spent = _spells_spent(start.spells, combatant, cast)
        held = Counter(s.name for s in available_spells(entry))  # what it still holds now
        spent = tuple(n for n in spent if _take(held, n))
        if spent:
            lost = _lost_of(spent, (spells_lost or {}).get(combatant.id, ()))
            changes.append(replace(change(
                ChangeField.SPELLS, spent,
                f"{entry.name}: spells used — {spent_words(spent, lost)}{note}",
                start.spells, spent), lost=lost))
    return changes


def _recorded(baseline: Mapping[str, Mapping[str, object]] | None,
              cid: str) -> Mapping[str, object] | None:
    """Gets the baseline a reopening recorded for a linked combatant (None: none recorded)."""
    recorded = (baseline or {}).get(cid)
    return recorded if recorded and "status" in recorded else None


def _gone_changes(
    combatant: Combatant,
    spells_cast: Mapping[str, Sequence[str]] | None,
    baseline: Mapping[str, Mapping[str, object]] | None,
) -> list[ProposedChange]:
    """Gets what the fight did to an entry deleted from the roster since it began.

    Nothing can be written to it, but the DM sees it at End and the session log keeps it:
    a result never vanishes because the entry went.
    """
    linked = _linked(combatant)
    if linked is None:
        return []
    start = _gone_start(combatant, baseline)
    name = combatant.label
    out: list[ProposedChange] = []
    gone = " (no longer in the roster: logged only)"

    def add(field: ChangeField, old: object, new: object, text: str) -> None:
        out.append(ProposedChange(linked, name, field, old, new, text + gone, old, new,
                                  gone=True))

    end = _gone_end_hp(combatant)
    if end is not None and end != start.hp:
        add(ChangeField.HP, start.hp, end, f"{name}: HP {_text(start.hp)} → {end}")
    status = _STATUS.get(combatant.status)
    if status is not None and status != start.status:
        add(ChangeField.STATUS, start.status, status, f"{name}: {start.status} → {status}")
    spent = _spells_spent(start.spells, combatant,
                          _cast_since(spells_cast, combatant.id, start))
    if spent:
        add(ChangeField.SPELLS, start.spells, spent,
            f"{name}: spells used — {', '.join(spent)}")
    return out


def _linked(combatant: Combatant) -> int | None:
    """Gets the roster entry id a combatant came from (None: it did not come from the roster)."""
    linked = combatant.extra.get(ROSTER_ID_KEY)
    return linked if isinstance(linked, int) and not isinstance(linked, bool) else None


def _gone_start(
    combatant: Combatant, baseline: Mapping[str, Mapping[str, object]] | None
) -> Baseline:
    """Gets a deleted entry's start: a reopening's baseline, else what it brought to the fight."""
    recorded = _recorded(baseline, combatant.id)
    return Baseline.from_json(recorded) if recorded else Baseline.from_json({
        "hp": combatant.extra.get("roster_hp"),
        "status": combatant.extra.get("roster_status", "active"),
        "spells": combatant.extra.get("roster_spells", []), "version": None})


def _gone_end_hp(combatant: Combatant) -> int | None:
    end = combatant.hp
    if combatant.max_hp is not None and end is not None:
        end = min(end, combatant.max_hp)
    return end


def _death_saves_change(combatant: Combatant, start: Baseline) -> tuple[int, int] | None:
    """Gets (Death saves as the fight began, as it ended) when the PC spent one, else None.

    The end value is the combatant's ``death_saves`` as the resolution left it (the end state
    carries it); the start is the count brought into the fight (or a reopening's baseline)."""
    end = combatant.extra.get(DEATH_SAVES_KEY)
    if start.death_saves is None or not isinstance(end, int) or end >= start.death_saves:
        return None
    return start.death_saves, end


def _differs(field: ChangeField, now: object, start: object) -> bool:
    """Tells whether a value in the roster now differs from the same value as the fight began."""
    if field is ChangeField.SPELLS and isinstance(now, tuple) and isinstance(start, tuple):
        return Counter(str(s) for s in now) != Counter(str(s) for s in start)
    return now != start


def _take(counter: Counter[str], name: str) -> bool:
    """Takes one ``name`` from ``counter``; False when there was none left."""
    if counter[name] <= 0:
        return False
    counter[name] -= 1
    return True


def _now(entry: RosterEntry, field: ChangeField) -> object:
    if field is ChangeField.HP:
        return entry.hp
    if field is ChangeField.STATUS:
        return entry.status
    if field is ChangeField.DEATH_SAVES:
        return entry.death_saves
    return tuple(s.name for s in available_spells(entry))


def reopen_baseline(
    roster: Sequence[RosterEntry],
    state: EncounterState,
    spells_cast: Mapping[str, Sequence[str]] | None = None,
    baseline: Mapping[str, Mapping[str, object]] | None = None,
    defeated: Sequence[str] = (),
) -> dict[str, dict[str, object]]:
    """Gets, by combatant id, where an ended encounter's results left each linked entry.

    Recorded when the encounter is reopened, so that ending it again proposes only what
    changes after the reopening (what was applied stays applied, and is not applied twice).
    An entry deleted from the roster is recorded too, from the fight's end: its results were
    logged (or written before it went) and must not be logged again.
    ``defeated``: the monsters whose defeat (kill and XP) the session log holds already; they
    are marked so that ending again does not log them twice.
    """
    by_id = {e.id: e for e in roster if e.id is not None}
    names = Counter(e.name for e in roster)
    by_name = {e.name: e for e in roster if names[e.name] == 1 and e.id is not None}
    out: dict[str, dict[str, object]] = {
        cid: {DEFEATED_KEY: True} for cid in defeated_in(baseline)}
    for cid in defeated:
        out[cid] = {DEFEATED_KEY: True}
    for combatant in state.combatants.values():
        entry = _match(combatant, by_id, by_name)
        if entry is None:
            if _linked(combatant) is not None:
                # deleted from the roster (during the fight or since): its results went to the
                # log only (or were written before it went); ending again must not log them twice
                out[combatant.id] = _gone_baseline(combatant, spells_cast, baseline).to_json()
            continue
        recorded = _recorded(baseline, combatant.id)
        start = Baseline.from_json(recorded) if recorded else _start(combatant, entry)
        spent = Counter(_spells_spent(start.spells, combatant,
                                      _cast_since(spells_cast, combatant.id, start)))
        left = [n for n in start.spells if not _take(spent, n)]
        saves = combatant.extra.get(DEATH_SAVES_KEY)
        out[combatant.id] = Baseline(
            _end_hp(combatant, entry), _STATUS.get(combatant.status, start.status),
            tuple(left), entry.version,
            saves if isinstance(saves, int) else start.death_saves,
            _all_cast(spells_cast, combatant.id),
        ).to_json()
    return out


def _gone_baseline(
    combatant: Combatant,
    spells_cast: Mapping[str, Sequence[str]] | None,
    baseline: Mapping[str, Mapping[str, object]] | None,
) -> Baseline:
    """Gets where the logged results left an entry deleted during the fight (its end)."""
    start = _gone_start(combatant, baseline)
    spent = Counter(_spells_spent(start.spells, combatant,
                                  _cast_since(spells_cast, combatant.id, start)))
    saves = combatant.extra.get(DEATH_SAVES_KEY)
    return Baseline(
        _gone_end_hp(combatant), _STATUS.get(combatant.status, start.status),
        tuple(n for n in start.spells if not _take(spent, n)), None,
        saves if isinstance(saves, int) and not isinstance(saves, bool) else start.death_saves,
        _all_cast(spells_cast, combatant.id),
    )


def defeated_in(baseline: Mapping[str, Mapping[str, object]] | None) -> frozenset[str]:
    """Gets the combatants a reopened encounter's baseline marks as defeated and logged."""
    return frozenset(cid for cid, value in (baseline or {}).items()
                     if isinstance(value, Mapping) and value.get(DEFEATED_KEY) is True)


def apply_changes(
    roster: Sequence[RosterEntry], changes: Sequence[ProposedChange]
) -> list[RosterEntry]:
    """Gets the roster entries the accepted ``changes`` alter, changed (others left out)."""
    by_id = {e.id: e for e in roster}
    changed: dict[int, RosterEntry] = {}
    for change in changes:
        if change.gone:
            continue  # its entry was deleted: the change is logged, not written
        entry = changed.get(change.entry_id) or by_id.get(change.entry_id)
        if entry is None:
            raise ValueError(f"{change.entry_name} is no longer in the roster")
        if change.field is ChangeField.HP:
            entry = replace(entry, hp=change.new if isinstance(change.new, int) else None)
        elif change.field is ChangeField.STATUS:
            entry = replace(entry, status=RosterStatus(str(change.new)))
        elif change.field is ChangeField.DEATH_SAVES:
            entry = replace(entry, death_saves=int(str(change.new)))
        else:  # spent, not forgotten: the memorised list stays for the next rest
            entry = spend_spells(entry, change.new if isinstance(change.new, tuple) else ())
        changed[change.entry_id] = entry
    return list(changed.values())
