"""The sample campaign a newcomer finds on first start (data in resources/)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from core.model.resources import resource
from core.model.values import Kind, Spell, Weapon
from core.roster.entries import MonsterTemplate, RosterEntry

SAMPLE_FILE = "sample_campaign.json"


def _weapons(items: Sequence[Mapping[str, Any]]) -> tuple[Weapon, ...]:
    return tuple(Weapon(**item) for item in items)


def load_sample(path: Path | None = None) -> tuple[str, list[RosterEntry], list[MonsterTemplate]]:
    """Reads the sample campaign: its name, roster and monster templates."""
    data = json.loads((path or resource(SAMPLE_FILE)).read_text(encoding="utf-8"))
    roster = [
        RosterEntry(
            **{k: v for k, v in item.items() if k not in ("kind", "weapons", "spells")},
            kind=Kind(item.get("kind", "pc")),
            weapons=_weapons(item.get("weapons", [])),
            spells=tuple(Spell(**s) for s in item.get("spells", [])),
        )
        for item in data["roster"]
    ]
    templates = [
        MonsterTemplate(
            **{k: v for k, v in item.items() if k != "weapons"},
            weapons=_weapons(item.get("weapons", [])),
        )
        for item in data["monster_templates"]
    ]
    return str(data["name"]), roster, templates
