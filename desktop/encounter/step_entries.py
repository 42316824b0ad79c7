"""Which declaration, turn or time-unit action a resolved step came from (for its outcome).

Any round's entries can be changed (the log's edit events name the round); a popcorn step of
a readied action set off by another turn records on that turn's ``triggers`` item, a side-d6
fleeing attack or set spear on the ``interrupts`` item of the flight or charge it interrupts
(never on the striker's own declaration, which is another step).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from core.fight.log import EncounterState
from core.model.values import Step
from desktop.resolution.step_identity import step_source

_PATH = re.compile(r"(?:rounds\[(\d+)\]\.(turns|declarations)|(actions))\[(\d+)\]"
                   r"(?:\.(triggers|interrupts)\[(\d+)\])?")


_CONSEQUENCES = frozenset({"dies", "bleeds", "surprised", "flees"})
"""Steps that follow from others; a ``flees`` with a declaration of its own (the creature
declared flight) is found by its path first, a flight after a failed morale check is not."""


@dataclass(frozen=True, slots=True)
class EntryRef:
    """Where a step's outcome is recorded: a list entry, maybe one of its ``triggers``."""

    which: str
    """``declarations``, ``turns`` or ``actions``."""
    index: int
    entry: Mapping[str, Any]
    round_number: int | None = None
    """The 1-based round of an earlier round's entry; None: the current round (or actions)."""
    trigger: int | None = None
    """The index of the ``triggers`` (or ``interrupts``) item the outcome goes on, if any."""
    items: str = "triggers"
    """Which list of the entry ``trigger`` indexes: ``triggers`` (popcorn's readied actions
    set off) or ``interrupts`` (side-d6's fleeing attacks and set spears)."""

    def part(self) -> dict[str, Any]:
        """Gets the object the outcome fields go on (the entry, or its trigger item)."""
        if self.trigger is None:
            return dict(self.entry)
        item = (self.entry.get(self.items) or ())[self.trigger]
        return dict(item) if isinstance(item, Mapping) else {"actor": item}

    def item_words(self) -> str:
        """Gets which ``trigger`` item it is, in the DM's words (``the readied action that
        turn sets off``, ``the 2nd interrupting blow``): a number only when there are more."""
        many = len(self.entry.get(self.items) or ()) > 1
        nth = f"{_ordinal((self.trigger or 0) + 1)} " if many else ""
        return (f"the {nth}readied action that turn sets off" if self.items == "triggers"
                else f"the {nth}interrupting blow")

    def rebuilt(self, part: Mapping[str, Any]) -> dict[str, Any]:
        """Gets the whole entry with ``part`` (from :meth:`part`) changed."""
        if self.trigger is None:
            return dict(part)
        triggers: list[Any] = list(self.entry.get(self.items) or ())
        triggers[self.trigger] = dict(part)
        return {**self.entry, self.items: triggers}

    def describe(self) -> str:
        where = f"{self.which[:-1]} {self.index + 1}"
        if self.trigger is not None:
            where += f", {self.item_words()}"
        if self.round_number is not None:
            where += f" of round {self.round_number}"
        return where


def entry_for_step(state: EncounterState, step: Step) -> EntryRef | str:
    """Gets where a step's outcome is recorded, or the reason it cannot be recorded."""
    if step.event == "morale-check":
        return "a morale check is a 2d6: give it in 'Dice needed' or 'Dice made'"
    quiet = _takes_no_outcome(state, step)
    if quiet:
        return quiet
    round_number: int | None = None
    if state.actions:
        which, entries = "actions", list(state.actions)
    else:
        if not state.rounds:
            return "no round has started"
        if step.round is None or not 1 <= step.round <= len(state.rounds):
            return f"step #{step.seq} belongs to no round of this encounter"
        spec = state.rounds[step.round - 1]
        which = "turns" if spec.get("turns") else "declarations"
        entries = list(spec.get(which) or ())
        if step.round != len(state.rounds):
            round_number = step.round
    found = _exact(step, which, entries, round_number)
    if found is not None:
        return found
    if str(step.event) in _CONSEQUENCES:
        # A death, bleeding, surprise or morale flight follows from other steps; guessing an
        # entry here would put a hit on the creature's own first declaration (another step).
        return (f"step #{step.seq} follows from other steps: record the blow on the attack "
                "that dealt it")
    mine = [(i, e) for i, e in enumerate(entries) if e.get("actor") == step.actor]
    if step.target is not None:
        mine = [(i, e) for i, e in mine if e.get("target") == step.target] or mine
    if step.action is not None:
        mine = [(i, e) for i, e in mine if e.get("action") == step.action] or mine
    if not mine:
        who = state.combatants.get(step.actor)
        name = who.label if who is not None else "this creature"
        return f"step #{step.seq} comes from no declaration of {name} that can be changed"
    return EntryRef(which, mine[0][0], mine[0][1], round_number)


def _exact(step: Step, which: str, entries: list[Mapping[str, Any]],
           round_number: int | None) -> EntryRef | None:
    """Gets the entry the step's own source path names, if it is there and is the actor's."""
    path = _PATH.fullmatch(step_source(step) or "")
    if path is None:
        return None
    if which == "actions":
        if path.group(3) is None:
            return None
    elif path.group(3) is not None or step.round is None \
            or int(path.group(1)) != step.round - 1 or path.group(2) != which:
        return None
    index = int(path.group(4))
    items = path.group(5) or "triggers"
    trigger = int(path.group(6)) if path.group(6) is not None else None
    if not 0 <= index < len(entries):
        return None
    ref = EntryRef(which, index, entries[index], round_number, trigger, items)
    triggers = entries[index].get(items) or ()
    if trigger is not None and not 0 <= trigger < len(triggers):
        return None
    if ref.part().get("actor") != step.actor:
        return None  # another creature's step (a spell it ruined): not this entry's outcome
    return ref


def _takes_no_outcome(state: EncounterState, step: Step) -> str | None:
    """Says, in the DM's words, why a step that deals no blow takes no hit or miss (None: it
    may take one). "Record the blow on the attack that dealt it" was said of a surprise."""
    if step.event == "surprised":
        return "the surprise dice decided this, and no blow was struck: there is no hit or " \
               "miss to record"
    if step.event == "nominates":
        return "naming who acts next is no blow: there is no hit or miss to record here " \
               "(a blow of this turn is recorded on its own step)"
    if step.actor not in state.combatants:  # a side's roll as the encounter begins
        roll = "reaction roll" if step.detail.get("reason") == "reaction" else "encounter roll"
        return f"the {step.actor} side's {roll} deals no blow: there is no hit or miss to " \
               "record"
    return None


_STRIKES = frozenset({"attacks", "hits", "misses"})


class OutcomeOrderError(ValueError):
    """An attack's outcome cannot be recorded before (or cleared before) another's."""


def attack_index(steps: Sequence[Step], step: Step) -> int | None:
    """Gets which attack of its declaration, turn or action ``step`` is (0: the first), when
    that entry makes several; None for a single attack.

    Time units number them (``attack``), volleys their shots (``shot``); otherwise the
    engines give one step an outcome, in the order of the ``hits`` list, so the step's place
    among its entry's strikes tells which outcome is its own.
    """
    if str(step.event) not in _STRIKES:
        return None
    for key in ("attack", "shot"):
        value = step.detail.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
            return value - 1
    source = step_source(step)
    if source is None:
        return None
    mine = [s for s in steps if s.actor == step.actor and step_source(s) == source
            and s.round == step.round and str(s.event) in _STRIKES]
    if len(mine) < 2:
        return None
    return next((i for i, s in enumerate(mine) if s.seq == step.seq), None)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def with_outcome(
    entry: Mapping[str, Any], hit: bool | None, damage: int = 0, another: bool = False,
    index: int | None = None,
) -> dict[str, Any]:
    """Gets the entry with an attack's outcome: ``hit``/``damage``, or one more ``hits`` item.

    ``index`` (from :func:`attack_index`) is which attack of several the outcome is for: it
    goes in that place of the ``hits`` list and every other attack keeps its own. ``hit``
    None clears that attack's outcome (without ``index``: every outcome, a failed save too).
    Raises :class:`OutcomeOrderError` for an attack whose earlier ones have no outcome yet.
    """
    out = dict(entry)
    previous: list[dict[str, Any]] = [dict(h) for h in out.pop("hits", None) or ()]
    if "hit" in out:
        single = {"hit": bool(out.pop("hit"))}
        if "damage" in out:
            single["damage"] = out.pop("damage")
        previous.insert(0, single)
    else:
        out.pop("damage", None)
    new: dict[str, Any] = {"hit": hit, "damage": damage} if hit else {"hit": False}
    if index is not None and not another and (index > 0 or len(previous) > 1):
        return _with_attack(out, previous, new if hit is not None else None, index)
    if hit is None:
        out.pop("fails_save", None)
        return out
    if another and previous:
        out["hits"] = [*previous, new]
    else:
        out.update(new)
    return out


def _with_attack(out: dict[str, Any], previous: list[dict[str, Any]],
                 new: dict[str, Any] | None, index: int) -> dict[str, Any]:
    """Puts (or, ``new`` None, takes off) the outcome of attack ``index`` in ``hits``."""
    hits = list(previous)
    if new is None:
        if index >= len(hits):
            return {**out, "hits": hits} if hits else out  # it had none: nothing to clear
        if index != len(hits) - 1:
            later = _ordinal(len(hits))
            raise OutcomeOrderError(f"the {later} attack has an outcome: clear the later "
                                    "attacks first (outcomes are kept in the order made)")
        hits.pop()
    elif index < len(hits):
        hits[index] = new
    elif index == len(hits):
        hits.append(new)
    else:
        first = _ordinal(len(hits) + 1)
        raise OutcomeOrderError(f"record the {first} attack first: the outcomes of several "
                                "attacks are recorded in the order they are made")
    if hits:
        out["hits"] = hits
    return out


def with_save(entry: Mapping[str, Any], fails: bool) -> dict[str, Any]:
    """Gets the entry with ``fails_save`` set (a failed saving throw) or taken off."""
    out = dict(entry)
    if fails:
        out["fails_save"] = True
    else:
        out.pop("fails_save", None)
    return out
