"""Dice and morale checks in a DM's words: names instead of ids, places instead of paths.

A die's ``purpose`` stays in the log as the engine wrote it (``morale orc-1 (round 2)``); these
functions only change how it reads on screen (``Morale: Orc 1 (round 2)``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from core.log import EncounterState
from core.model import Resolution, Step, StepEvent
from core.rules.base import RollRequest

_TOKEN = re.compile(r"[^\s()]+")
_PATH = re.compile(r"\(?actions\[(\d+)\]\)?")
_KINDS = ("opening morale", "morale", "initiative reroll", "initiative", "surprise",
          "encounter initiative", "reaction", "encounter distance")


def labels_of(state: EncounterState) -> dict[str, str]:
    """Gets each combatant's name by id (the id when it has no name)."""
    return {cid: c.label for cid, c in state.combatants.items()}


def _named(text: str, labels: Mapping[str, str]) -> str:
    text = _PATH.sub(lambda m: f"(action {int(m.group(1)) + 1})", text)
    return _TOKEN.sub(lambda m: labels.get(m.group(0), m.group(0)), text)


_ROUND_FIRST = re.compile(r"^(.+?) (\(round \d+\)) (.+)$")


def roll_label(purpose: str, labels: Mapping[str, str]) -> str:
    """Gets ``Morale: Orc 1 (round 2)`` from ``morale orc-1 (round 2)``."""
    text = purpose.strip()
    moved = _ROUND_FIRST.match(text)
    if moved is not None:  # addict writes ``morale (round 1) kobolds``
        text = f"{moved.group(1)} {moved.group(3)} {moved.group(2)}"
    for kind in sorted(_KINDS, key=len, reverse=True):
        if text == kind or text.startswith(kind + " ") or text.startswith(kind + " ("):
            rest = text[len(kind):].strip()
            head = kind[0].upper() + kind[1:]
            return f"{head}: {_named(rest, labels)}" if rest else head
    named = _named(text, labels)
    return named[:1].upper() + named[1:]


def where_words(where: Sequence[str | int], state: EncounterState) -> str:
    """Gets where a die's total goes, in words (``round 2's initiative of the party``)."""
    labels = labels_of(state)
    parts = list(where)
    if parts and parts[0] == "rounds" and len(parts) >= 3:
        index = int(parts[1])
        number = index + len(state.rounds) + 1 if index < 0 else index + 1
        field = str(parts[2]).replace("_", " ")
        who = " ".join(labels.get(str(p), str(p)) for p in parts[3:])
        return f"round {number}, {field}" + (f" of {who}" if who else "")
    if parts and parts[0] == "actions" and len(parts) >= 2:
        index = int(parts[1])
        entry: Mapping[str, Any] = state.actions[index] if 0 <= index < len(state.actions) \
            else {}
        actor = labels.get(str(entry.get("actor")), "")
        return f"the initiative of time-unit action {index + 1}" + (
            f" ({actor}: {entry.get('action')})" if actor else "")
    field = str(parts[0]).replace("_", " ") if parts else "the encounter"
    who = " ".join(labels.get(str(p), str(p)) for p in parts[1:])
    return field + (f" of {who}" if who else "")


def request_label(request: RollRequest, state: EncounterState) -> str:
    """Gets the label of a die the engine asks for, with names (``Initiative: party``)."""
    return roll_label(request.purpose, labels_of(state))


# --- morale checks ---------------------------------------------------------------------------

_FAILS = {"fail", "fails"}


def morale_words(step: Step) -> str:
    """Gets ``rolled 9 against morale 8: fails`` from a morale-check step's detail."""
    roll, morale, result = (step.detail.get("roll"), step.detail.get("morale"),
                            step.detail.get("result"))
    verdict = "fails" if str(result) in _FAILS else "holds" if result is not None else ""
    if roll is None:
        return "no roll"
    text = f"rolled {roll}"
    if morale is not None:
        text += f" against morale {morale}"
    return f"{text}: {verdict}" if verdict else text


def morale_die_needed(state: EncounterState, step: Step) -> bool:
    """Tells whether a morale-check step's die is still to be given by the DM.

    The engine rolls such a die from the encounter's seed so that play can go on; the screen
    must say that the real die is still needed rather than show that roll as the result.
    """
    if step.event is not StepEvent.MORALE_CHECK or step.round is None:
        return False
    system = str(state.config.get("system"))
    index = step.round - 1
    spec: Mapping[str, Any] = state.rounds[index] if 0 <= index < len(state.rounds) else {}
    if system == "addict":
        combatant = state.combatants.get(step.actor)
        who = {step.actor, combatant.side if combatant is not None else step.actor}
        opening = "addict.morale.opening" in step.because
        checks = state.fields.get("opening_morale") if opening else spec.get("morale")
        if not isinstance(checks, Mapping):
            return False
        for name in who & set(checks):
            value = checks[name]
            return value is None or (isinstance(value, Mapping) and value.get("roll") is None)
        return False
    given = spec.get("morale")
    return not (isinstance(given, Mapping) and step.actor in given)


def pending_morale_steps(state: EncounterState, resolution: Resolution | None) -> frozenset[int]:
    """Gets the seqs of morale-check steps whose die the DM has not given yet."""
    if resolution is None:
        return frozenset()
    return frozenset(s.seq for s in resolution.steps if morale_die_needed(state, s))


def morale_row_text(step: Step, pending: bool) -> str:
    """Gets the resolution list's text for a morale check: its roll and result, or the die
    still needed."""
    if pending:
        return "morale check: die still needed (give it under 'Dice needed')"
    return f"morale check: {morale_words(step)}"
