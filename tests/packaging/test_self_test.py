"""The self-test the built program runs in CI, exercised from source (fast) and kept honest."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SELFTEST = ROOT / "resources" / "selftest"
SOURCES = {
    "addict": "addict/source-fn18-caster-die-five",
    "side-d6": "side-d6/halvaine-example",
    "popcorn": "popcorn/effect-durations-alice-example",
    "time-units": "time-units/bolog",
}


@pytest.mark.parametrize("system", list(SOURCES))
def test_the_bundled_encounters_are_the_tested_scenarios(system: str) -> None:
    """The self-test checks the same worked examples the scenario suite checks, not copies that
    drifted: refresh resources/selftest from tests/scenarios when an expectation changes."""
    source = ROOT / "tests" / "scenarios" / SOURCES[system]
    for suffix in (".json", ".expected.json"):
        bundled = (SELFTEST / f"{system}{suffix}").read_text()
        assert bundled == source.with_name(source.name + suffix).read_text()


def test_self_test_passes_from_source_and_reports_each_check() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "desktop", "--self-test"],
        capture_output=True, text=True, timeout=180, check=False,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    checks = [line.split(":")[0] for line in lines[:3]]
    assert checks == ["ok   store", "ok   engine", "ok   summary"]
    assert lines[-1] == "self-test passed"


def test_self_test_fails_loudly_when_an_expectation_breaks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    import desktop.self_test as self_test

    real = self_test._expected_steps

    def wrong(system: str) -> list[dict[str, object]]:
        steps = real(system)
        steps[0] = {**steps[0], "actor": "somebody-else"}
        return steps

    monkeypatch.setattr(self_test, "_expected_steps", wrong)
    out = io.StringIO()
    assert self_test.run_self_test(out, []) == 1
    assert "FAIL engine" in out.getvalue() and "somebody-else" in out.getvalue()
