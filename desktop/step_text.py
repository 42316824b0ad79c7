"""How a step reads to the DM: when it happens, what happens, and why it is there (plain words).

Shared by the resolution list, the timeline and the encounter's boards so all say exactly the
same thing; it sits beside them, not inside one, so that none has to import another for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from html import escape

from core.model.values import Step
from core.printout import words
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


def step_when_short(step: Step) -> str:
    """Gets when the step happens in a narrow column: ``rd 1 · seg 4``, ``TU 14`` or
    ``round 2`` (the list's # column gives a popcorn step's place)."""
    if step.tu is not None:
        return f"TU {step.tu}"
    if step.segment is None:
        return f"round {step.round}" if step.round is not None else ""
    segment = f"{'surprise ' if step.surprise else ''}seg {step.segment}"
    return f"rd {step.round} · {segment}" if step.round is not None else segment


def step_sentence(step: Step, labels: Mapping[str, str], brief: bool = False) -> str:
    """Gets ``Halvaine begins casting sleep on Orc 1 (2 segments)`` from a step (the words the
    printout uses too: :func:`core.printout.words.step_sentence`); ``brief`` drops the bracketed
    figures."""
    return words.step_sentence(step, words.Names(dict(labels)), brief)


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


def step_tooltip(step: Step, system_id: str, labels: Mapping[str, str]) -> str:
    """Gets a rich-text tooltip: the step, its actor and target, and the rules in plain words."""
    rules = "".join(
        f"<li>{escape(rule_in_words(system_id, rule_id))}</li>"
        for rule_id in step.because
    )
    why = words.step_why(step, words.Names(dict(labels)), system_id)  # the printout's words
    return (
        f"<b>#{step.seq} · {escape(step_when(step))}</b><br>"
        f"{escape(step_sentence(step, labels))}"
        + (f"<br><i>Why then:</i> {escape(why)}" if why else "")
        + f"<br><i>Placed here because:</i><ul style='margin:0'>{rules}</ul>"
    )
