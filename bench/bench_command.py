"""Time from a DM command to the encounter workspace fully redrawn, 10, 40 and 200 combatants.

Run by hand: ``.venv/bin/python bench/bench_command.py [SYSTEM…]`` (offscreen; default every
system). A campaign file in a temporary folder holds a fight of N/2 PCs against N/2 monsters:
one round declared, every blow recorded but the last one of each side. The main window shows
it at 1280×720. Each sample is what a DM does at the table: the last waiting blow selected in
the resolution list, Damage 1, Hit pressed (the outcome panel's real button) — timed from the
click until the workspace is redrawn and repainted (list, status, board, timeline:
``processEvents`` and a forced ``grab()``); the sample checks that the list shows the hit.
Ctrl+Z (untimed) takes it back for the next sample. The same with the players' screen open
shows what it adds. Target: at most 50 ms at 40 combatants. Prints medians and maxima.

In the default layout the resolution list, the timeline and the status share one place as
tabs, the list in front: the timeline and status are brought up to date at each command but
not painted. ``--front timelineDock`` (or ``statusDock``, ``procedureDock``) brings that panel
forward in every workspace instead, so that its painting is measured too.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from core.fight.encounter import commands_for_scenario
from core.play.session import EncounterSession
from core.store import Store
from desktop.encounter.workspace import EncounterWorkspace
from desktop.main_window import MainWindow

SIZES = (10, 40, 200)
SYSTEMS = ("addict", "side-d6", "popcorn", "time-units")
SAMPLES = 15
TARGET_MS = 50.0


def _fighters(n: int) -> list[dict[str, Any]]:
    half = n // 2
    party = [{"id": f"pc-{i}", "name": f"Hero {i}", "side": "party", "kind": "pc", "hp": 400,
              "max_hp": 400, "dex": 12, "weapons": [{"name": "sword", "speed_factor": 5}]}
             for i in range(half)]
    foes = [{"id": f"orc-{i}", "name": f"Orc {i}", "side": "monsters", "kind": "monster",
             "hp": 400, "max_hp": 400, "ac": 6, "morale": 12, "dex": 10,
             "weapons": [{"name": "axe", "speed_factor": 7}]} for i in range(half)]
    return [*party, *foes]


def fight(system: str, n: int) -> dict[str, Any]:
    """Gets a one-round fight of ``n`` in ``system``, the last blow of each side waiting."""
    half = n // 2
    pairs = [(f"pc-{i}", f"orc-{i}") for i in range(half)] + [
        (f"orc-{i}", f"pc-{i}") for i in range(half)]
    waiting = {f"pc-{half - 1}", f"orc-{half - 1}"}

    def outcome(actor: str) -> dict[str, Any]:
        return {} if actor in waiting else {"hit": True, "damage": 1}

    document: dict[str, Any] = {"format": "combatdesk/scenario-1", "system": system,
                                "seed": 1, "combatants": _fighters(n)}
    if system in ("addict", "side-d6"):
        action = "G" if system == "addict" else "attack"
        document["rounds"] = [{"initiative": {"party": 4, "monsters": 2}, "declarations": [
            {"actor": a, "action": action, "target": t, **outcome(a)} for a, t in pairs]}]
    elif system == "popcorn":
        order = [cid for i in range(half) for cid in (f"pc-{i}", f"orc-{i}")]
        document["initiative"] = {cid: 20 - (i // 2) % 20 for i, cid in enumerate(order)}
        targets = dict(pairs)
        turns = []
        for i, cid in enumerate(order):
            turn = {"actor": cid, "action": "attack", "target": targets[cid]}
            if i + 1 < len(order):
                turn.update(hit=True, damage=1, nominates=order[i + 1])
            turns.append(turn)
        document["rounds"] = [{"turns": turns}]
    else:
        document["actions"] = [{"actor": a, "action": "melee", "target": t,
                                "roll": 1 + k % 10, **outcome(a)}
                               for k, (a, t) in enumerate(pairs)]
    return document


def _open(store: Store, window: MainWindow, system: str, n: int) -> EncounterWorkspace:
    campaign = window.campaign
    assert campaign is not None
    document = fight(system, n)
    session = EncounterSession.start(store, campaign.id, f"{system} {n}", system, None, 1)
    for command in commands_for_scenario(document):
        session.execute(command)
    session.release()
    window.encounter_actions._listed = None
    action = next(a for a in window.encounter_actions.open_menu_actions()
                  if a.text().startswith(f"{system} {n}"))
    action.trigger()
    workspace = window.encounter_actions.current()
    assert workspace is not None
    return workspace


def _samples(app: QApplication, ws: EncounterWorkspace) -> list[float]:
    times = []
    for _ in range(SAMPLES):
        shown = ws.controller.known_resolution()
        assert shown is not None
        waiting = [s for s in shown.steps if str(s.event) == "attacks"]
        assert waiting, "no blow waiting for its outcome"
        step = waiting[-1]
        ws.select_step(step.seq)
        ws.outcome.damage.setValue(1)
        app.processEvents()
        begin = time.perf_counter()
        ws.outcome.hit_button.click()
        app.processEvents()
        ws.grab()
        times.append((time.perf_counter() - begin) * 1000)
        after = ws.controller.known_resolution()
        assert after is not None and len([s for s in after.steps
                                          if str(s.event) == "attacks"]) == len(waiting) - 1
        ws.controller.stack.undo()
        app.processEvents()
    return times


def main() -> None:
    args = sys.argv[1:]
    front = None
    if "--front" in args:  # a panel brought forward in every workspace (see the docstring)
        at = args.index("--front")
        front = args[at + 1]
        del args[at:at + 2]
    systems = tuple(args) or SYSTEMS
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    folder = Path(tempfile.mkdtemp())
    store = Store.open(f"sqlite:///{folder / 'bench.sqlite'}")
    campaign = store.campaigns.create("Bench")
    del campaign
    print(f"{'system':<11} {'fighters':>8} {'players':>8} {'median ms':>10} {'max ms':>8}")
    for players in (False, True):
        settings = QSettings(str(folder / f"settings-{players}.ini"),
                             QSettings.Format.IniFormat)
        window = MainWindow(store, settings)
        window.resize(1280, 720)
        window.show()
        if players:
            window.players.show_action.setChecked(True)
        for system in systems:
            for n in SIZES:
                ws = _open(store, window, system, n)
                if front is not None:
                    ws.panels.bring_forward(front)
                app.processEvents()
                times = _samples(app, ws)
                flag = "  over target" if n == 40 and statistics.median(times) > TARGET_MS \
                    else ""
                print(f"{system:<11} {n:>8} {'open' if players else 'closed':>8} "
                      f"{statistics.median(times):>10.1f} {max(times):>8.1f}{flag}", flush=True)
                window.encounter_actions.close_workspace(ws)
        window.players.show_action.setChecked(False)
        window.close()
    store.close()


if __name__ == "__main__":
    main()
