"""Rule summaries are printed to the DM (appendix, rule lists): plain words, no field names."""

from __future__ import annotations

import re

import pytest

from core.rules import all_systems

# a scenario field or option key leaking into the text: ``hold``, (field conditions),
# casting_time, retrieve_segments
_TECHNICAL = re.compile(r"``|\(field\b|\bfield [a-z_]+\b|\b[a-z]+_[a-z_]+\b")


@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.id)
def test_every_rule_summary_is_in_plain_words(system: object) -> None:
    rules = system.rules.values()  # type: ignore[attr-defined]
    technical = [f"{r.id}: {r.summary}" for r in rules if _TECHNICAL.search(r.summary)]
    assert technical == []


@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.id)
def test_every_option_says_what_it_decides(system: object) -> None:
    """The appendix had an empty "What it decides" for MAR slot before, Morale dice…"""
    from dataclasses import fields

    from core.printout.words import option_meanings

    meanings = option_meanings(system)
    options = fields(system.options_type)  # type: ignore[attr-defined]
    missing = [f.name for f in options if not meanings.get(f.name, "").strip()]
    assert missing == []
    technical = [m for m in meanings.values() if _TECHNICAL.search(m)]
    assert technical == []
