"""The command line refuses absurd files with one line and exit code 2, never a traceback."""

from __future__ import annotations

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
