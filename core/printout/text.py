"""Plain-text wording of the summary: declarations and steps in a DM's words.

Kept apart from :mod:`core.printout.summary` so the wording can change without touching the facts.
The text is as the user typed it; escaping is the HTML renderer's job.
"""

from __future__ import annotations

from typing import Any

from core.model.scenario import Declaration, Outcome, Scenario, TimedAction, Turn
from core.model.values import Step
from core.printout.words import Names as WordNames
from core.printout.words import action_words, plural, step_words, value_words

__all__ = ["Names", "declaration_parts", "plain", "plural", "step_text"]



def plain(value: Any) -> str:
    """Gets a value in words (kept for callers of the old name)."""
    return value_words(value)


class Names(WordNames):
    """A scenario's names of combatants, entries and actions (:class:`.words.Names`)."""

    @classmethod
    def of_scenario(cls, scenario: Scenario) -> Names:
        base = WordNames.from_document(scenario.raw)
        labels = {**base.labels, **{c.id: c.label for c in scenario.combatants}}
        return cls(labels, base.rounds, base.actions)


def _outcome_text(outcome: Outcome) -> str:
    if not outcome.hits:
        return ""
    parts = [f"hit for {h.damage}" if h.hit else "miss" for h in outcome.hits]
    return "outcome: " + ", ".join(parts)


def declaration_parts(
    item: Declaration | Turn | TimedAction, names: WordNames
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
    shown = action_words(action) if action else "—"
    # every target named (a split volley, an area's victims), then the area a spell fills:
    # a Sleep or a Slow cast at an area names no creature and read as "—"
    targets = ", ".join(names(t) for t in item.targets) if item.targets else names(item.target)
    area = item.raw.get("area")
    if isinstance(area, str) and area.strip():
        targets = f"{targets} (area: {area})" if targets else f"area: {area}"
    return names(item.actor), shown, targets, "; ".join(details)


def step_text(step: Step, names: WordNames) -> str:
    """Gets what happens in a step, in words (see :func:`core.printout.words.step_words`)."""
    return step_words(step, names)
