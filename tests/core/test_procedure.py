"""The stepper's phase is read from the encounter: the phase the engine waits for, per system."""

from __future__ import annotations

from typing import Any

from core.dice import Roller, manual_roll
from core.encounter import (
    add_entry,
    commands_for_scenario,
    configure,
    resolve_state,
    roll_command,
    rolls_needed,
    set_field,
    set_round_field,
    start_round,
)
from core.log import Command, EncounterLog, EncounterState
from core.procedure import current_phase
from core.rules import find_system

PARTY = {"id": "brannoc", "name": "Brannoc", "side": "party", "hp": 9, "dex": 12}
ORC = {"id": "orc-1", "name": "Orc 1", "side": "monsters", "kind": "monster", "hp": 5,
       "morale": 8}


class Table:
    """An encounter driven by the commands a DM gives, with the phase after each."""

    def __init__(self, system: str, options: dict[str, Any] | None = None) -> None:
        document = {"system": system, "options": options or {}, "seed": 7,
                    "combatants": [PARTY, ORC]}
        self.log = EncounterLog(commands_for_scenario(document))
        assert configure(system).events  # the first command configures the system

    @property
    def state(self) -> EncounterState:
        return self.log.state

    def do(self, command: Command) -> Table:
        self.log.execute(command)
        return self

    def die(self, purpose: str, total: int) -> Table:
        request = next(r for r in rolls_needed(self.state) + _morale(self.state)
                       if r.purpose == purpose)
        roll = manual_roll(request.expression, total, request.purpose)
        return self.do(roll_command(self.state, request, roll))

    def phase(self) -> str:
        resolution = resolve_state(self.state, Roller.seeded(7))
        phase = current_phase(self.state, resolution)
        assert phase in {p.id for p in find_system(str(self.state.config["system"])).phases()}
        return phase


def _morale(state: EncounterState) -> list[Any]:
    from core.encounter import morale_dice
    return morale_dice(state, resolve_state(state, Roller.seeded(7)))


def test_addict_follows_play_from_surprise_to_round_two() -> None:
    """addict.surprise.check, addict.surprise.resolution, addict.declare.action-letters,
    addict.initiative.side-d6, addict.resolve.winner-first: the eleven phases as play moves."""
    table = Table("addict")
    assert table.phase() == "addict.phase-1"  # nothing yet: the procedure's start
    table.do(set_field("surprise", {}))
    assert table.phase() == "addict.phase-2"  # surprise dice asked for
    table.die("surprise party", 5)
    assert table.phase() == "addict.phase-2"
    table.die("surprise monsters", 1)
    assert table.phase() == "addict.phase-5"  # the orcs are surprised: surprise segments
    table.do(start_round(1, {"surprise": True}))
    table.do(add_entry("declarations", {"actor": "brannoc", "action": "G", "target": "orc-1"}))
    assert table.phase() == "addict.phase-5"
    table.do(start_round(2))
    assert table.phase() == "addict.phase-6"  # round 2 opens on declarations, not Phase 11
    table.do(add_entry("declarations", {"actor": "brannoc", "action": "G", "target": "orc-1"}))
    assert table.phase() == "addict.phase-7"  # the side d6s are still needed
    table.die("initiative party", 4).die("initiative monsters", 2)
    assert table.phase() == "addict.phase-8"  # outcomes next
    table.do(start_round(3))
    assert table.phase() == "addict.phase-6"


def test_addict_opening_morale_waits_in_phase_four() -> None:
    """addict.morale.opening: a morale check asked for before the first round is Phase 4."""
    table = Table("addict")
    table.do(set_field("opening_morale", {"monsters": None}))
    assert table.phase() == "addict.phase-4"
    table.die("opening morale monsters", 6)
    assert table.phase() == "addict.phase-1"


def test_addict_round_morale_does_not_hide_the_initiative_dice() -> None:
    """addict.oos.morale-avoid: a round's morale die is asked at its side's turn (Phase 8)."""
    table = Table("addict")
    table.do(start_round(1))
    table.do(add_entry("declarations", {"actor": "orc-1", "action": "G", "target": "brannoc"}))
    table.do(set_round_field("morale", {"monsters": None}))
    assert table.phase() == "addict.phase-7"
    table.die("initiative party", 3).die("initiative monsters", 5)
    assert table.phase() == "addict.phase-8"


def test_side_d6_follows_play() -> None:
    """side-d6.surprise.d6-per-side, side-d6.declare.spell-before-initiative,
    side-d6.initiative.d6-per-side: surprise, declare, initiative, play the segments."""
    table = Table("side-d6")
    assert table.phase() == "surprise"
    table.do(set_field("surprise", {}))
    table.die("surprise party", 4).die("surprise monsters", 5)
    assert table.phase() == "declare"  # nobody surprised
    table.do(start_round(1))
    assert table.phase() == "declare"
    table.do(add_entry("declarations", {"actor": "orc-1", "action": "melee",
                                        "target": "brannoc"}))
    assert table.phase() == "initiative"
    table.die("initiative party", 3).die("initiative monsters", 5)
    assert table.phase() == "act"
    table.do(start_round(2))
    assert table.phase() == "declare"


def test_popcorn_moves_past_roll_initiative() -> None:
    """popcorn.initiative.d20-plus-modifier, popcorn.turn.take-action,
    popcorn.pass.nominate-next, popcorn.end.morale-check: the phase follows the turns."""
    table = Table("popcorn")
    assert table.phase() == "roll-initiative"
    table.die("initiative Brannoc", 15)
    assert table.phase() == "roll-initiative"
    table.die("initiative Orc 1", 3)
    assert table.phase() == "take-action"
    table.do(start_round(1))
    table.do(add_entry("turns", {"actor": "brannoc", "action": "attack", "target": "orc-1"}))
    assert table.phase() == "pass-action"  # Brannoc still has to name who acts next
    entry = {"actor": "brannoc", "action": "attack", "target": "orc-1", "nominates": "orc-1"}
    from core.encounter import replace_entry
    table.do(replace_entry("turns", 0, entry))
    assert table.phase() == "take-action"
    table.do(add_entry("turns", {"actor": "orc-1", "action": "attack", "target": "brannoc"}))
    assert table.phase() == "end-of-round"  # everyone acted: the orc's morale die is due
    table.die("morale orc-1 (round 1)", 4)
    assert table.phase() == "end-of-round"
    table.do(start_round(2))
    assert table.phase() == "take-action"


def test_time_units_follow_the_d10s() -> None:
    """time-units.encounter.d6-per-side, time-units.initiative.d10, time-units.clock.count-up:
    encounter dice, declarations with their d10, then the clock."""
    table = Table("time-units")
    assert table.phase() == "encounter"
    table.do(set_field("initiative", {}))
    table.die("encounter initiative party", 4)
    assert table.phase() == "encounter"
    table.die("encounter initiative monsters", 2)
    assert table.phase() == "declare"
    table.do(add_entry("actions", {"actor": "brannoc", "action": "melee", "target": "orc-1"}))
    assert table.phase() == "declare"  # its d10 is still needed
    table.die("initiative brannoc (melee)", 6)
    assert table.phase() == "clock"


def test_phase_without_a_resolution_is_read_from_the_log_alone() -> None:
    table = Table("addict")
    table.do(start_round(1))
    assert current_phase(table.state) == "addict.phase-6"
    assert current_phase(EncounterState()) == ""
