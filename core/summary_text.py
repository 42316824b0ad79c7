"""Plain-text wording of the summary: declarations and steps in a DM's words.

Kept apart from :mod:`core.summary` so the wording can change without touching the facts.
The text is as the user typed it; escaping is the HTML renderer's job.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from core.model import Step, StepEvent
from core.scenario import Declaration, Outcome, Scenario, TimedAction, Turn

BOOKKEEPING_KEYS = frozenset({"declaration", "turn"})
"""Keys of a step's detail that only point back into the scenario file."""


def plain(value: Any) -> str:
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "—"
    return str(value)


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


class Names:
    """Turns ids into the names to print (sides and unknown ids print as they are)."""

    def __init__(self, scenario: Scenario) -> None:
        self._names = {c.id: c.label for c in scenario.combatants}

    def __call__(self, cid: str | None) -> str:
        if cid is None:
            return ""
        return self._names.get(cid, cid)


def _outcome_text(outcome: Outcome) -> str:
    if not outcome.hits:
        return ""
    parts = [f"hit for {h.damage}" if h.hit else "miss" for h in outcome.hits]
    return "outcome: " + ", ".join(parts)


def declaration_parts(
    item: Declaration | Turn | TimedAction, names: Names
) -> tuple[str, str, str, str]:
    """Gets who, action, target and the other details of a declaration, turn or action."""
    details: list[str] = []
    action = item.action or ""
    if isinstance(item, Declaration):
        if item.weapon:
            details.append(f"weapon {item.weapon}")
        if item.spell:
            details.append(f"spell {item.spell}")
        if item.charge:
            details.append("charging")
        if item.prepared:
            details.append(f"prepared: {item.prepared}")
    elif isinstance(item, Turn):
        if item.waits:
            action = action or "wait"
            details.append("waits")
        if item.ready:
            details.append(f"ready: {item.ready}")
        spell = item.raw.get("spell")
        if isinstance(spell, str):
            details.append(f"spell {spell}")
        if item.nominates:
            details.append(f"names {names(item.nominates)} next")
    else:
        if item.spell:
            details.append(f"spell {item.spell}")
        if item.attacks:
            details.append(plural(item.attacks, "attack"))
        if item.roll is not None:
            details.append(f"d10 {item.roll}")
    if item.effect:
        target = f" on {names(item.effect.target)}" if item.effect.target else ""
        details.append(
            f"effect {item.effect.name}{target}, {plural(item.effect.duration, 'round')}"
        )
    outcome = _outcome_text(item.outcome)
    if outcome:
        details.append(outcome)
    return names(item.actor), action or "—", names(item.target), "; ".join(details)


def step_text(step: Step, names: Names) -> str:
    d = dict(step.detail)
    used: set[str] = set(BOOKKEEPING_KEYS)
    target = names(step.target)

    def take(key: str) -> Any:
        used.add(key)
        return d.get(key)

    weapon, spell, damage, hp = take("weapon"), take("spell"), take("damage"), take("hp")
    with_weapon = f" with {weapon}" if weapon else ""
    on_target = f" on {target}" if target else ""
    hp_text = f" ({target or names(step.actor)} now at {hp} hp)" if hp is not None else ""
    event = step.event
    if event == StepEvent.HITS:
        text = f"hits {target}{with_weapon}" + (f" for {damage}" if damage is not None else "")
        text += hp_text
    elif event == StepEvent.MISSES:
        text = f"misses {target}{with_weapon}"
    elif event == StepEvent.ATTACKS:
        text = f"attacks {target}{with_weapon} (no outcome recorded)"
    elif event == StepEvent.BEGINS_CASTING:
        ct = take("casting_time")
        text = f"begins casting {spell or 'a spell'}{on_target}"
        text += f" ({plural(ct, 'segment')})" if isinstance(ct, int) else ""
    elif event == StepEvent.SPELL_TAKES_EFFECT:
        take("casting_time")
        text = f"{spell or 'spell'} takes effect{on_target}"
        text += (f", {damage} damage" if damage is not None else "") + hp_text
    elif event == StepEvent.SPELL_DISRUPTED:
        reason, by = take("reason"), take("by")
        text = f"{spell or 'spell'} is lost (disrupted)"
        text += (f": {reason}" if reason else "") + (f" by {names(by)}" if by else "")
    elif event == StepEvent.DIES:
        take("by")
        text = "dies" + (f" at {hp} hp" if hp is not None else "")
        if d.get("by"):
            text += f" (felled by {names(d['by'])})"
    elif event == StepEvent.BLEEDS:
        text = "bleeds" + (f", now at {hp} hp" if hp is not None else "")
    elif event == StepEvent.MORALE_CHECK:
        roll, morale, result = take("roll"), take("morale"), take("result")
        text = f"checks morale: rolled {plain(roll)} against {plain(morale)}, {plain(result)}"
    elif event == StepEvent.SURPRISED:
        segs = take("segments")
        text = "is surprised"
        text += f" for {plural(segs, 'segment')}" if isinstance(segs, int) else ""
    elif event == StepEvent.NOMINATES:
        text = f"names {target} to act next"
    elif event == StepEvent.READIES:
        text = f"readies an action: {plain(take('trigger'))}"
    elif event == StepEvent.READIED_TRIGGERS:
        take("trigger")
        text = f"readied action set off by {names(take('triggered_by'))}"
    elif event == StepEvent.EFFECT_EXPIRES:
        text = f"effect {plain(take('effect'))} ends{on_target}"
    elif event in (StepEvent.MOVES, StepEvent.CHARGES, StepEvent.FLEES):
        text = str(event) + (f" toward {target}" if target else "") + with_weapon
    else:
        text = str(event).replace("-", " ") + (f" → {target}" if target else "")
    extra = [f"{k.replace('_', ' ')} {plain(v)}" for k, v in d.items() if k not in used]
    if step.action and event not in (StepEvent.NOMINATES,):
        extra.insert(0, f"action {step.action}")
    return text + (f" [{'; '.join(extra)}]" if extra else "")
