"""Dice and morale checks read with names: the log keeps its purposes, the screen says names."""

from __future__ import annotations

from core.dice import Roller
from core.dice_words import (
    morale_row_text,
    morale_words,
    pending_morale_steps,
    roll_label,
    where_words,
)
from core.encounter import add_entry, commands_for_scenario, resolve_state, start_round
from core.log import EncounterLog
from core.model import StepEvent

LABELS = {"orc-1": "Orc 1", "brannoc": "Brannoc"}


def test_purposes_read_with_names() -> None:
    assert roll_label("morale orc-1 (round 2)", LABELS) == "Morale: Orc 1 (round 2)"
    assert roll_label("initiative party", LABELS) == "Initiative: party"
    assert roll_label("opening morale orc-1", LABELS) == "Opening morale: Orc 1"
    assert roll_label("initiative brannoc (actions[3])", LABELS) == \
        "Initiative: Brannoc (action 4)"
    assert roll_label("morale (round 1) kobolds", LABELS) == "Morale: kobolds (round 1)"
    assert roll_label("reaction", LABELS) == "Reaction"


def _popcorn_fight() -> EncounterLog:
    document = {"system": "popcorn", "seed": 3, "initiative": {"brannoc": 18, "orc-1": 2},
                "combatants": [
                    {"id": "brannoc", "name": "Brannoc", "side": "party", "hp": 9},
                    {"id": "orc-1", "name": "Orc 1", "side": "monsters", "kind": "monster",
                     "hp": 5, "morale": 8}]}
    log = EncounterLog(commands_for_scenario(document))
    log.execute(start_round(1))
    log.execute(add_entry("turns", {"actor": "brannoc", "action": "attack", "target": "orc-1",
                                    "nominates": "orc-1"}))
    log.execute(add_entry("turns", {"actor": "orc-1", "action": "attack",
                                    "target": "brannoc"}))
    return log


def test_a_morale_check_shows_its_die_still_needed_then_its_roll_and_result() -> None:
    """popcorn.end.morale-check: until the DM gives the 2d6 the row says the die is needed."""
    log = _popcorn_fight()
    resolution = resolve_state(log.state, Roller.seeded(3))
    check = next(s for s in resolution.steps if s.event is StepEvent.MORALE_CHECK)
    assert pending_morale_steps(log.state, resolution) == {check.seq}
    assert "die still needed" in morale_row_text(check, True)
    from core.encounter import set_round_field
    log.execute(set_round_field("morale", {"orc-1": 11}))
    resolution = resolve_state(log.state, Roller.seeded(3))
    check = next(s for s in resolution.steps if s.event is StepEvent.MORALE_CHECK)
    assert pending_morale_steps(log.state, resolution) == frozenset()
    assert morale_words(check) == "rolled 11 against morale 8: fails"
    assert morale_row_text(check, False) == "morale check: rolled 11 against morale 8: fails"


def test_where_a_die_goes_reads_as_words() -> None:
    log = _popcorn_fight()
    assert where_words(("rounds", 0, "morale", "orc-1"), log.state) == "round 1, morale of Orc 1"
    assert where_words(("initiative", "brannoc"), log.state) == "initiative of Brannoc"


def test_an_addict_morale_check_asked_without_its_die_says_so() -> None:
    """addict.morale.opening: a check named with a null roll is rolled from the seed until the
    DM gives the die; the row says the die is still needed."""
    from core.encounter import set_field
    document = {"system": "addict", "seed": 5, "combatants": [
        {"id": "brannoc", "side": "party", "hp": 9},
        {"id": "kob-1", "name": "Kobold 1", "side": "kobolds", "kind": "monster", "hp": 3,
         "morale": 6}]}
    log = EncounterLog(commands_for_scenario(document))
    log.execute(set_field("opening_morale", {"kobolds": None}))
    resolution = resolve_state(log.state, Roller.seeded(5))
    check = next(s for s in resolution.steps if s.event is StepEvent.MORALE_CHECK)
    assert pending_morale_steps(log.state, resolution) == {check.seq}
    log.execute(set_field("opening_morale", {"kobolds": 9}))
    resolution = resolve_state(log.state, Roller.seeded(5))
    check = next(s for s in resolution.steps if s.event is StepEvent.MORALE_CHECK)
    assert not pending_morale_steps(log.state, resolution)
    assert morale_words(check) == "rolled 9 against morale 6: fails"
