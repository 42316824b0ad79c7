"""``combatdesk --self-test``: proves a built program works end to end, without a window.

Opens a temporary campaign database (running the shipped migrations), plays one scripted
encounter of each system through the encounter log and the store, checks the resolution against
the expected one shipped beside it, renders a round summary PDF, and reports each step.
"""

from __future__ import annotations

import json
import os
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from core.fight.encounter import commands_for_scenario, resolve_state
from core.fight.log import EncounterLog
from core.model.dice import Roller
from core.model.resources import load_weapon_table, resource
from core.model.scenario import parse_scenario
from core.rules import SYSTEM_MODULES, find_system
from core.store import Store

STEP_KEYS = ("seq", "round", "segment", "surprise", "tu", "actor", "event", "target", "group")


class SelfTestFailure(Exception):
    """One check of the self-test failed; the message says which and how."""


def _expected_steps(system: str) -> list[dict[str, Any]]:
    data: dict[str, Any] = json.loads(resource(f"selftest/{system}.expected.json").read_text())
    steps: list[dict[str, Any]] = data["steps"]
    return steps


def _check_store(folder: Path) -> str:
    store = Store.open(f"sqlite:///{folder / 'self-test.sqlite'}")
    try:
        campaign = store.campaigns.create("Self-test")
        for system in SYSTEM_MODULES:
            document = json.loads(resource(f"selftest/{system}.json").read_text())
            encounter = store.encounters.create(campaign.id, f"self-test {system}", system)
            for command in commands_for_scenario(document):
                store.commands.append(encounter.id, command)
        return f"campaign database created and migrated ({store.label})"
    finally:
        store.close()


def _check_encounters(folder: Path) -> str:
    store = Store.open(f"sqlite:///{folder / 'self-test.sqlite'}")
    try:
        campaign = store.campaigns.all()[0]
        del campaign
        for encounter_id, system in enumerate(SYSTEM_MODULES, start=1):
            log = EncounterLog(store.commands.load(encounter_id))
            resolution = resolve_state(log.state, Roller.seeded(log.state.config.get("seed")))
            got = [s.to_json() for s in resolution.steps]
            want = _expected_steps(system)
            if len(got) != len(want):
                raise SelfTestFailure(f"{system}: {len(got)} steps, expected {len(want)}")
            for g, w in zip(got, want, strict=True):
                for key in STEP_KEYS:
                    if key in w and g.get(key) != w[key]:
                        raise SelfTestFailure(
                            f"{system} step {w.get('seq')}: {key} is {g.get(key)!r}, "
                            f"expected {w[key]!r}"
                        )
        return f"{len(SYSTEM_MODULES)} scripted encounters replayed from the store and resolved"
    finally:
        store.close()


def summary_pdf_check(folder: Path) -> str:
    """Renders one round summary to PDF offscreen and checks the file is a real PDF."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # no window is ever shown
    from PySide6.QtWidgets import QApplication

    from core.printout.html import render_html
    from core.printout.summary import build_summary
    from desktop.printing import export_pdf

    _app = QApplication.instance() or QApplication(["combatdesk-self-test"])
    scenario = parse_scenario(json.loads(resource("selftest/side-d6.json").read_text()))
    resolution = find_system(scenario.system).resolve(scenario, Roller.seeded(scenario.seed))
    out = folder / "summary.pdf"
    export_pdf(render_html(build_summary(scenario, resolution, None)), out, "a4")
    data = out.read_bytes()
    if not data.startswith(b"%PDF") or len(data) < 2000:
        raise SelfTestFailure(f"the summary PDF is not a PDF ({len(data)} bytes)")
    return f"round summary rendered to PDF ({len(data) // 1024} KiB)"


def _check_weapons(_folder: Path) -> str:
    """The weapon table ships and reads (a frozen build that left it out fails here)."""
    table = load_weapon_table()
    found = table.find("long sword", "addict")
    if found is None or found.speed_factor != 5:
        raise SelfTestFailure(f"the weapon table gives {found!r} for a long sword")
    return ", ".join(f"{wl.title} {len(wl.weapons)} weapons" for wl in table.lists)


def run_self_test(out: TextIO, extra_checks: list[tuple[str, Callable[[Path], str]]]) -> int:
    """Runs every check, printing one line each; returns the exit code (0: all passed)."""
    checks: list[tuple[str, Callable[[Path], str]]] = [
        ("store", _check_store),
        ("engine", _check_encounters),
        *extra_checks,
        ("weapons", _check_weapons),
    ]
    with tempfile.TemporaryDirectory(prefix="combatdesk-selftest-") as tmp:
        folder = Path(tmp)
        for name, check in checks:
            try:
                detail = check(folder)
            except SelfTestFailure as exc:
                print(f"FAIL {name}: {exc}", file=out)
                return 1
            except Exception as exc:  # a self-test reports every failure, whatever it is
                print(f"FAIL {name}: {exc.__class__.__name__}: {exc}", file=out)
                traceback.print_exc(file=out)
                return 1
            print(f"ok   {name}: {detail}", file=out)
    print("self-test passed", file=out)
    return 0
