"""Runs every ``tests/scenarios/<system>/<name>.json`` through the scenario CLI.

Beside each scenario, ``<name>.expected.json`` holds either the expected resolution
(``steps``: every step, listing the keys that matter; ``combatants``: end states) or, for a
file that breaks a rule, ``{"error": "<text the message must contain>"}``.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from core.cli.commands import main
from core.rules import find_system

HERE = Path(__file__).parent
CASES = sorted(p for p in HERE.glob("*/*.json") if not p.name.endswith(".expected.json"))


def _expected(path: Path) -> dict[str, Any]:
    expected_path = path.with_name(path.stem + ".expected.json")
    assert expected_path.exists(), f"{path.name} has no {expected_path.name}"
    data: dict[str, Any] = json.loads(expected_path.read_text())
    return data


def _check_steps(actual: list[dict[str, Any]], expected: list[dict[str, Any]]) -> None:
    def brief(steps: list[dict[str, Any]]) -> list[str]:
        return [
            f"{s.get('seq')}: r{s.get('round')} seg{s.get('segment')} tu{s.get('tu')} "
            f"g{s.get('group')} {s.get('actor')} {s.get('event')} {s.get('target') or ''}"
            for s in steps
        ]

    assert len(actual) == len(expected), "step count differs:\n" + "\n".join(brief(actual))
    for i, (got, want) in enumerate(zip(actual, expected, strict=True)):
        for key, value in want.items():
            if key == "because":
                missing = set(value) - set(got["because"])
                assert not missing, f"step {i + 1} lacks rules {missing}: {got}"
            else:
                assert got.get(key) == value, (
                    f"step {i + 1} {key}: got {got.get(key)!r}, want {value!r}\n"
                    + "\n".join(brief(actual))
                )


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_scenario(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    expected = _expected(path)
    out = io.StringIO()
    code = main(["simulate", str(path), "--json"], out=out)
    if "error" in expected:
        err = capsys.readouterr().err
        assert code != 0
        assert expected["error"] in err, err
        assert "Traceback" not in err
        return
    assert code == 0, capsys.readouterr().err
    resolution = json.loads(out.getvalue())
    assert resolution["format"] == "combatdesk/resolution-1"
    assert resolution["system"] == path.parent.name
    _check_steps(resolution["steps"], expected["steps"])
    catalogue = find_system(path.parent.name).rules
    for step in resolution["steps"]:
        assert step["because"], f"step {step['seq']} gives no rule"
        unknown = set(step["because"]) - set(catalogue)
        assert not unknown, f"step {step['seq']} cites rules not in the catalogue: {unknown}"
    for cid, state in expected.get("combatants", {}).items():
        assert resolution["combatants"][cid] == {**resolution["combatants"][cid], **state}, cid


def test_cli_runs_as_a_program_and_prints_a_readable_account() -> None:
    """The fixed interface is the real command, not just the function."""
    case = next((p for p in CASES if "error" not in _expected(p)), None)
    if case is None:
        pytest.skip("no scenario files yet")
    proc = subprocess.run(
        [sys.executable, "-m", "core", "simulate", str(case)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "System:" in proc.stdout and "End state:" in proc.stdout


def test_bad_file_gives_one_line_and_no_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "combatdesk/scenario-1", "system": "side-d6", "combatants": [')
    proc = subprocess.run(
        [sys.executable, "-m", "core", "simulate", str(bad), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2
    assert "not valid JSON" in proc.stderr and "Traceback" not in proc.stderr
