"""How a step reads to the DM: when it happens, what happens, and why it is there (plain words).

Shared by the resolution list and the timeline so both say exactly the same thing.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from html import escape

from core.dice_words import morale_words
from core.model import Step
from core.rules import UnknownSystemError, find_system


def step_when(step: Step) -> str:
    """Gets when the step happens: ``round 1, segment 4``, ``TU 14`` or ``round 2, #8``."""
    if step.tu is not None:
        return f"TU {step.tu}"
    parts = [f"round {step.round}"] if step.round is not None else []
    if step.segment is not None:
        parts.append(f"{'surprise ' if step.surprise else ''}segment {step.segment}")
    else:
        parts.append(f"#{step.seq}")
    return ", ".join(parts)


def step_sentence(step: Step, labels: Mapping[str, str]) -> str:
    """Gets ``Halvaine begins casting sleep → orc-1 (3 damage)`` from a step."""
    actor = labels.get(step.actor, step.actor)
    text = f"{actor} {str(step.event).replace('-', ' ')}"
    what = step.detail.get("spell") or step.detail.get("weapon") or step.detail.get("condition")
    if what:
        text += f" ({what})"
    if step.target:
        text += f" → {labels.get(step.target, step.target)}"
    damage = step.detail.get("damage")
    if damage:
        text += f", {damage} damage"
    healed = step.detail.get("healed")
    if healed:
        text += f", {healed} hp healed"
    if step.event == "morale-check":
        text += f": {morale_words(step)}"
    return text


@cache
def _summaries(system_id: str) -> Mapping[str, str]:
    try:
        rules = find_system(system_id).rules
    except UnknownSystemError:
        return {}
    return {rule_id: rule.summary for rule_id, rule in rules.items()}


def rule_in_words(system_id: str, rule_id: str) -> str:
    """Gets the catalogue's plain-words summary of a rule (the id itself when unknown)."""
    return _summaries(system_id).get(rule_id, rule_id)


def short_rule_ids(step: Step, system_id: str) -> str:
    """Gets the step's rule ids without the system prefix, for a narrow table column."""
    prefix = f"{system_id}."
    return ", ".join(r.removeprefix(prefix) for r in step.because)


def step_tooltip(step: Step, system_id: str, labels: Mapping[str, str]) -> str:
    """Gets a rich-text tooltip: the step, its actor and target, and the rules in plain words."""
    rules = "".join(
        f"<li>{escape(rule_in_words(system_id, rule_id))} <small>({escape(rule_id)})</small></li>"
        for rule_id in step.because
    )
    return (
        f"<b>#{step.seq} · {escape(step_when(step))}</b><br>"
        f"{escape(step_sentence(step, labels))}"
        f"<br><i>Placed here because:</i><ul style='margin:0'>{rules}</ul>"
    )
