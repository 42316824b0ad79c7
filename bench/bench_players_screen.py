"""Time from a DM's command to the players' screen showing it, 40 combatants, each system.

Run by hand: ``.venv/bin/python bench/bench_players_screen.py`` (offscreen). A campaign file in
a temporary folder holds one fight per system (20 PCs against 20 monsters, two rounds played:
about 80–160 steps). The main window opens it with the players' screen at 1920×1080. Each
sample is one DM command through the workspace's controller — hiding a monster from the
players, then revealing it again, so that every command changes what the players see — timed
from the call until the players' window has been redrawn and repainted (``processEvents`` and
a forced ``grab()``); each sample checks that the window shows the change. The same commands
with the players' screen closed give what the DM's window costs alone: the difference is what
the players' screen adds. Target: at most 100 ms from command to players' screen. Prints
medians and maxima; asserts nothing but that the window showed each change.
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

from core.fight.encounter import commands_for_scenario, replace_entry
from core.fight.log import Command, hide_from_players
from core.play.session import EncounterSession
from core.store import Store
from desktop.encounter.workspace import EncounterWorkspace
from desktop.main_window import MainWindow

PER_SIDE = 20
SAMPLES = 30
SIZE = (1920, 1080)
TARGET_MS = 100.0


def _fighters() -> list[dict[str, Any]]:
    party = [{"id": f"pc-{i}", "name": f"Hero {i}", "side": "party", "kind": "pc", "hp": 40,
              "max_hp": 40, "dex": 12, "weapons": [{"name": "sword", "speed_factor": 5}]}
             for i in range(PER_SIDE)]
    foes = [{"id": f"orc-{i}", "name": f"Orc {i}", "side": "monsters", "kind": "monster",
             "hp": 40, "max_hp": 40, "ac": 6, "morale": 12, "dex": 10,
             "weapons": [{"name": "axe", "speed_factor": 7}]} for i in range(PER_SIDE)]
    return [*party, *foes]


def _pairs() -> list[tuple[str, str]]:
    return [(f"pc-{i}", f"orc-{i}") for i in range(PER_SIDE)] + [
        (f"orc-{i}", f"pc-{i}") for i in range(PER_SIDE)]


def fight(system: str) -> dict[str, Any]:
    """Gets a two-round fight of 40 in ``system``, every blow's outcome recorded."""
    document: dict[str, Any] = {"format": "combatdesk/scenario-1", "system": system,
                                "seed": 1, "combatants": _fighters()}
    if system in ("addict", "side-d6"):
        action = "G" if system == "addict" else "attack"
        document["rounds"] = [
            {"initiative": {"party": 4 - n, "monsters": 2 + n},
             "declarations": [{"actor": a, "action": action, "target": t, "hit": True,
                               "damage": 1} for a, t in _pairs()]}
            for n in range(2)]
    elif system == "popcorn":
        order = [cid for i in range(PER_SIDE) for cid in (f"pc-{i}", f"orc-{i}")]
        document["initiative"] = {cid: 20 - i // 2 for i, cid in enumerate(order)}
        targets = dict(_pairs())
        rounds = []
        for _ in range(2):
            turns = []
            for i, cid in enumerate(order):
                turn: dict[str, Any] = {"actor": cid, "action": "attack",
                                        "target": targets[cid], "hit": True, "damage": 1}
                if i + 1 < len(order):
                    turn["nominates"] = order[i + 1]
                turns.append(turn)
            rounds.append({"turns": turns})
        document["rounds"] = rounds
    else:
        document["actions"] = [
            {"actor": a, "action": "melee", "target": t, "roll": 1 + (i + n) % 10, "hit": True,
             "damage": 1}
            for n in range(2) for i, (a, t) in enumerate(_pairs())]
    return document


def _store(folder: Path) -> Store:
    store = Store.open(f"sqlite:///{folder / 'bench.sqlite'}")
    campaign = store.campaigns.create("Benchmark")
    for system in ("addict", "side-d6", "popcorn", "time-units"):
        document = fight(system)
        EncounterSession.create(store, campaign.id, f"Forty ({system})", system, None,
                                document["seed"], commands_for_scenario(document)[1:])
    return store


def _outcome(workspace: EncounterWorkspace, n: int) -> tuple[Command, str]:
    """Gets a command that changes a recorded blow's damage (1 or 2): the engine resolves
    the fight again. Returns it with the line the players' screen must then show."""
    state = workspace.controller.state
    damage = 2 if n % 2 == 0 else 1
    if state.actions:
        entry = {**state.actions[0], "damage": damage}
        return replace_entry("actions", 0, entry), f"for {damage}"
    which = "turns" if state.rounds[0].get("turns") else "declarations"
    entry = {**state.rounds[0][which][0], "damage": damage}
    return replace_entry(which, 0, entry, round_number=1), f"for {damage}"


def _timed(app: QApplication, window: MainWindow, system: str, kind: str,
           players_open: bool) -> tuple[list[float], list[float], list[float], list[float]]:
    """Times SAMPLES commands of ``kind``; returns (command → players' screen painted, the
    players' screen's own redraw, command → the DM's window redrawn too, and the processor
    time of the first: what it costs on a machine nobody else is using)."""
    workspace = next(w for w in window.encounter_actions.workspaces
                     if w.controller.system_id == system)
    window.tabs.setCurrentWidget(workspace)
    players = window.players
    if players_open and not players.show_action.isChecked():
        players.show_action.trigger()
        assert players.players_window is not None
        players.players_window.set_full_screen(False)
        players.players_window.resize(*SIZE)
    elif not players_open and players.show_action.isChecked():
        players.show_action.trigger()
    app.processEvents()
    screen = players.players_window
    redraws: list[float] = []
    painted: list[float] = []
    painted_cpu: list[float] = []
    plain_refresh = players.refresh

    def timed_refresh(paint: bool = False) -> None:
        began = time.perf_counter()
        plain_refresh(paint)
        if players_open:
            painted_cpu.append(time.process_time())
            painted.append(time.perf_counter())
            redraws.append((painted[-1] - began) * 1000)

    players.refresh = timed_refresh  # type: ignore[method-assign]
    times: list[float] = []
    cpu: list[float] = []
    dm_done: list[float] = []
    try:
        for n in range(SAMPLES):
            hidden = n % 2 == 0
            if kind == "hide":
                command, expected = hide_from_players(["orc-1"], hidden), ""
            else:
                command, expected = _outcome(workspace, n)
            start_cpu = time.process_time()
            start = time.perf_counter()
            assert workspace.controller.run(command, check=False)
            app.processEvents()
            if players_open:
                assert screen is not None
                # Shown: the players' window was painted in the command's own event, before
                # the DM's window redrew (the DM's window is done once processEvents returns).
                times.append((painted[-1] - start) * 1000)
                cpu.append((painted_cpu[-1] - start_cpu) * 1000)
                dm_done.append((time.perf_counter() - start) * 1000)
                names = [screen.monsters.item(r).text().split(" — ")[0]
                         for r in range(screen.monsters.count())]
                if kind == "hide":
                    assert ("Orc 1" in names) is not hidden, names  # the change shows
                else:
                    lines = [screen.play.item(r).text() for r in range(screen.play.count())]
                    assert any("Hero 0 hits Orc 0" in line and line.endswith(expected)
                               for line in lines), expected
            else:
                times.append((time.perf_counter() - start) * 1000)
    finally:
        players.refresh = plain_refresh  # type: ignore[method-assign]
    return times, redraws, dm_done, cpu


def main() -> None:
    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as folder:
        store = _store(Path(folder))
        settings = QSettings(str(Path(folder) / "settings.ini"), QSettings.Format.IniFormat)
        window = MainWindow(store, settings)
        window.resize(1280, 720)
        window.show()
        for info in store.encounters.all(window.campaign.id if window.campaign else 0):
            window.encounter_actions.open_encounter(info)
        print(f"players' screen: command → shown, {2 * PER_SIDE} combatants, window "
              f"{SIZE[0]}×{SIZE[1]}, {SAMPLES} commands each; median / max in ms "
              f"(load average {load:.1f} on {os.cpu_count()} cores when it began)")
        print("  hide = hide / reveal a monster (the fight is not resolved again); "
              "outcome = change a blow's damage (the engine resolves the fight again)")
        print(f"  {'system':<10} {'steps':>5} {'command':<8} {'to players':>15} "
              f"{'cpu':>6} {'DM done, with':>15} {'DM alone':>15} {'added':>7} "
              f"{'players':>7}")
        worst = 0.0
        for system in ("addict", "side-d6", "popcorn", "time-units"):
            workspace = next(w for w in window.encounter_actions.workspaces
                             if w.controller.system_id == system)
            resolution = workspace.controller.resolution
            steps = len(resolution.steps) if resolution is not None else 0
            _timed(app, window, system, "hide", True)  # warm-up
            for kind in ("hide", "outcome"):
                alone, _, _, _ = _timed(app, window, system, kind, False)
                shown, redraws, dm_done, cpu = _timed(app, window, system, kind, True)
                worst = max(worst, statistics.median(shown))
                print(f"  {system:<10} {steps:>5} {kind:<8} "
                      f"{statistics.median(shown):7.1f} /{max(shown):6.1f} "
                      f"{statistics.median(cpu):6.1f} "
                      f"{statistics.median(dm_done):7.1f} /{max(dm_done):6.1f} "
                      f"{statistics.median(alone):7.1f} /{max(alone):6.1f} "
                      f"{statistics.median(dm_done) - statistics.median(alone):+7.1f} "
                      f"{statistics.median(redraws):7.1f}")
        verdict = "within" if worst <= TARGET_MS else "OVER"
        print(f"  command → players' screen, worst median {worst:.1f} ms: {verdict} the "
              f"{TARGET_MS:.0f} ms target")
        window.close()
        store.close()


if __name__ == "__main__":
    main()
