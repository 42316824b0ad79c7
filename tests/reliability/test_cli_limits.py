"""The command line refuses absurd files with one line and exit code 2, never a traceback."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from core.cli.commands import main
from core.model.limits import MAX_COMBATANTS, MAX_ROUNDS

BASE = {"format": "combatdesk/scenario-1", "system": "side-d6",
        "combatants": [{"id": "a", "side": "party"}, {"id": "b", "side": "monsters"}]}


@pytest.mark.parametrize(("text", "message"), [
    ('{"format": "combatdesk/scenario-1", "seed": ' + "9" * 5000 + "}", "number too long"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    (json.dumps({**BASE, "seed": 10**45}), "seed: at most 40 digits"),
    (json.dumps({**BASE, "combatants": [{"id": f"c{i}", "side": "x"}
                                        for i in range(MAX_COMBATANTS + 1)]}),
     "at most 10,000 are accepted"),
    (json.dumps({**BASE, "rounds": [{}] * (MAX_ROUNDS + 1)}), "rounds: 2,001 given"),
], ids=["5000-digit-seed", "deep-nesting", "long-seed", "too-many-combatants", "too-many-rounds"])
def test_an_absurd_scenario_is_refused_with_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str) -> None:
    path = tmp_path / "absurd.json"
    path.write_text(text)
    for command in ("simulate", "summary"):
        assert main([command, str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and message in err and "Traceback" not in err


LONE_SURROGATE_SCENARIO = (
    '{"format": "combatdesk/scenario-1", "system": "side-d6", "combatants": ['
    '{"id": "fighter", "side": "party", "hp": 10},'
    '{"id": "goblin", "name": "Gob\\ud800lin", "side": "monsters", "hp": 4}],'
    '"rounds": [{"initiative": {"party": 6, "monsters": 5}, "declarations": ['
    '{"actor": "goblin", "action": "attack", "target": "fighter", "hit": true, "damage": 2},'
    '{"actor": "fighter", "action": "attack", "target": "goblin", "hit": true, "damage": 6}'
    ']}]}'
)
"""A scenario whose goblin's name holds half of a character (JSON can spell one)."""


def test_a_lone_surrogate_in_a_name_prints_as_a_replacement_mark(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``summary`` to a file and to the terminal: the page is written, the broken character
    shown as U+FFFD, no traceback (it was a UnicodeEncodeError in the timeline picture)."""
    scenario = tmp_path / "surrogate.json"
    scenario.write_text(LONE_SURROGATE_SCENARIO, encoding="utf-8")
    page = tmp_path / "page.html"
    assert main(["summary", str(scenario), "--html", str(page)]) == 0
    text = page.read_text(encoding="utf-8")
    assert "Gob\ufffdlin" in text and "\ud800" not in text
    out = io.StringIO()
    assert main(["summary", str(scenario)], out) == 0
    assert "Gob\ufffdlin" in out.getvalue()
    out.getvalue().encode("utf-8")  # whole characters only
    assert capsys.readouterr().err == ""
