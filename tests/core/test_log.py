"""The encounter log: commands append events, state is a fold, undo and replay agree."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.fight.log import (
    Command,
    EncounterLog,
    EncounterState,
    Event,
    EventKind,
    LogError,
    add_combatant,
    advance_clock,
    mark_surprised,
    record_roll,
    replay,
)
from core.model.values import Combatant, Roll, Status, Weapon

ORC = Combatant(
    id="orc-1", side="monsters", name="Orc 1", hp=6, max_hp=6, weapons=(Weapon("Scimitar", 4, 3.0),)
)
PC = Combatant(id="brannoc", side="party", name="Brannoc", hp=24, max_hp=24)


def _hp(cid: str, delta: int) -> Command:
    return Command(
        f"{cid} {delta:+d} hp", (Event(EventKind.HP_CHANGED, {"id": cid, "delta": delta}),)
    )


def test_state_is_the_fold_of_the_events() -> None:
    log = EncounterLog()
    log.execute(add_combatant(ORC))
    log.execute(add_combatant(PC))
    log.execute(_hp("orc-1", -4))
    log.execute(record_roll(Roll("1d6", 5, (5,), purpose="initiative party")))
    assert log.state.combatants["orc-1"].hp == 2
    assert log.state.rolls[-1].total == 5
    assert replay(log.commands) == log.state


def test_undo_removes_the_last_commands_events() -> None:
    log = EncounterLog()
    log.execute(add_combatant(ORC))
    before = log.state
    log.execute(_hp("orc-1", -6))
    undone = log.undo()
    assert undone.name == "orc-1 -6 hp"
    assert log.state == before


def test_a_command_that_cannot_apply_leaves_the_log_untouched() -> None:
    log = EncounterLog()
    log.execute(add_combatant(ORC))
    bad = Command(
        "two things",
        (
            Event(EventKind.HP_CHANGED, {"id": "orc-1", "delta": -1}),
            Event(EventKind.HP_CHANGED, {"id": "nobody", "delta": -1}),
        ),
    )
    with pytest.raises(LogError, match="no combatant 'nobody'"):
        log.execute(bad)
    assert len(log.commands) == 1 and log.state.combatants["orc-1"].hp == 6
    with pytest.raises(LogError, match="already in the encounter"):
        log.execute(add_combatant(ORC))
    with pytest.raises(LogError, match="round 3 cannot follow round 0"):
        log.execute(Command("r", (Event(EventKind.ROUND_STARTED, {"round": 3}),)))


def test_undo_on_an_empty_log_says_so() -> None:
    with pytest.raises(LogError, match="nothing to undo"):
        EncounterLog().undo()


def test_events_survive_a_json_round_trip() -> None:
    command = add_combatant(replace(ORC, status=Status.FLED))
    events = tuple(Event.from_json(e.to_json()) for e in command.events)
    assert replay([Command(command.name, events)]) == replay([command])


# --- property: any sequence of commands and undos; undo and replay always agree --------------

IDS = ["a", "b", "c"]
command_st = st.one_of(
    st.sampled_from(IDS).map(lambda i: add_combatant(Combatant(id=i, side="party", hp=10))),
    st.tuples(st.sampled_from(IDS), st.integers(-12, 12)).map(lambda t: _hp(*t)),
    st.tuples(st.sampled_from(IDS), st.sampled_from(list(Status))).map(
        lambda t: Command(
            "status", (Event(EventKind.STATUS_CHANGED, {"id": t[0], "status": t[1]}),)
        )
    ),
    st.tuples(st.sampled_from(IDS), st.sampled_from(["A", "C", "D"])).map(
        lambda t: Command("declare", (Event(EventKind.DECLARED, {"actor": t[0], "action": t[1]}),))
    ),
    st.integers(1, 6).map(lambda n: record_roll(Roll("1d6", n, (n,), purpose="init"))),
    st.just("undo"),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(command_st, max_size=150))
def test_undo_and_replay_rebuild_exactly_the_same_state(steps: list[object]) -> None:
    log = EncounterLog()
    log.CHECKPOINT_EVERY = 8  # exercise checkpoints inside short sequences
    history: list[EncounterState] = [log.state]
    for step in steps:
        if step == "undo":
            if log.commands:
                log.undo()
                history.pop()
                assert log.state == history[-1]
            continue
        assert isinstance(step, Command)
        try:
            log.execute(step)
        except LogError:
            assert log.state == history[-1]  # refused: nothing changed
            continue
        history.append(log.state)
    assert replay(log.commands) == log.state
    assert EncounterLog(log.commands).state == log.state
    for count in range(len(log.commands) + 1):
        assert log.state_after(count) == history[count]


def test_the_current_round_can_be_edited_and_edits_undo() -> None:
    log = EncounterLog()
    log.execute(add_combatant(ORC))
    log.execute(Command("r1", (Event(EventKind.ROUND_STARTED, {"round": 1, "fields": {}}),)))
    declare = {"list": "declarations", "entry": {"actor": "orc-1", "action": "G"}}
    log.execute(Command("declare", (Event(EventKind.ROUND_ENTRY_ADDED, declare),)))
    log.execute(Command("init", (Event(EventKind.ROUND_FIELD_SET,
                                       {"name": "initiative", "value": {"monsters": 4}}),)))
    change = {"list": "declarations", "index": 0, "entry": {"actor": "orc-1", "action": "A"}}
    log.execute(Command("change", (Event(EventKind.ENTRY_REPLACED, change),)))
    assert log.state.rounds[-1]["declarations"][0]["action"] == "A"
    assert log.state.rounds[-1]["initiative"] == {"monsters": 4}
    log.execute(Command("take back", (Event(EventKind.ENTRY_REMOVED,
                                            {"list": "declarations", "index": 0}),)))
    assert log.state.rounds[-1]["declarations"] == ()
    log.undo()
    log.undo()
    assert log.state.rounds[-1]["declarations"][0]["action"] == "G"
    with pytest.raises(LogError, match="declarations has no entry 5"):
        log.execute(Command("bad", (Event(EventKind.ENTRY_REMOVED,
                                          {"list": "declarations", "index": 5}),)))
    with pytest.raises(LogError, match="cannot be set as a round field"):
        log.execute(Command("bad", (Event(EventKind.ROUND_FIELD_SET,
                                          {"name": "declarations", "value": []}),)))


def _two_rounds() -> EncounterLog:
    log = EncounterLog()
    log.execute(add_combatant(ORC))
    for number, action in ((1, "G"), (2, "D")):
        log.execute(Command(f"r{number}", (Event(EventKind.ROUND_STARTED,
                                                 {"round": number, "fields": {}}),)))
        log.execute(Command("declare", (Event(EventKind.ROUND_ENTRY_ADDED, {
            "list": "declarations", "entry": {"actor": "orc-1", "action": action}}),)))
    return log


def test_an_earlier_round_can_be_edited_by_its_number_and_edits_undo() -> None:
    log = _two_rounds()
    before = log.state
    change = {"list": "declarations", "index": 0, "round": 1,
              "entry": {"actor": "orc-1", "action": "G", "hit": True, "damage": 3}}
    log.execute(Command("outcome r1", (Event(EventKind.ENTRY_REPLACED, change),)))
    log.execute(Command("morale r1", (Event(EventKind.ROUND_FIELD_SET, {
        "name": "morale", "value": {"monsters": 9}, "round": 1}),)))
    assert log.state.rounds[0]["declarations"][0]["damage"] == 3
    assert log.state.rounds[0]["morale"] == {"monsters": 9}
    assert log.state.rounds[1]["declarations"][0] == {"actor": "orc-1", "action": "D"}
    assert "morale" not in log.state.rounds[1]
    log.execute(Command("take back r1", (Event(EventKind.ENTRY_REMOVED, {
        "list": "declarations", "index": 0, "round": 1}),)))
    assert log.state.rounds[0]["declarations"] == ()
    assert replay(log.commands) == log.state
    for _ in range(3):
        log.undo()
    assert log.state == before


def test_without_a_round_the_edit_events_act_on_the_current_round_as_before() -> None:
    log = _two_rounds()
    log.execute(Command("current", (Event(EventKind.ENTRY_REPLACED, {
        "list": "declarations", "index": 0, "entry": {"actor": "orc-1", "action": "A"}}),)))
    assert log.state.rounds[1]["declarations"][0]["action"] == "A"
    assert log.state.rounds[0]["declarations"][0]["action"] == "G"
    for bad in (0, 3, "1", True):
        with pytest.raises(LogError, match="there is no round"):
            log.execute(Command("bad", (Event(EventKind.ROUND_FIELD_SET, {
                "name": "morale", "value": {}, "round": bad}),)))


def test_a_roll_made_instead_of_another_keeps_the_old_one_as_replaced_history() -> None:
    log = EncounterLog()
    log.execute(record_roll(Roll("1d6", 2, (2,), purpose="initiative party")))
    again = Event(EventKind.ROLL_RECORDED, {"purpose": "initiative party", "expression": "1d6",
                                            "total": 5, "manual": True, "replaces": 0})
    log.execute(Command("instead", (again,)))
    assert [r.total for r in log.state.rolls] == [2, 5]
    assert log.state.replaced_rolls == frozenset({0})
    log.undo()
    assert log.state.replaced_rolls == frozenset()
    with pytest.raises(LogError, match="no roll 4 to replace"):
        log.execute(Command("bad", (Event(EventKind.ROLL_RECORDED, {"total": 1, "replaces": 4}),)))


def test_any_recorded_roll_even_of_an_earlier_round_is_changed_by_one_command() -> None:
    """change_roll: the new roll names the old one and lands where the old one went."""
    from core.fight.encounter import change_roll, configure, roll_command, start_round
    from core.rules.base import RollRequest

    log = EncounterLog()
    log.execute(configure("side-d6"))
    log.execute(add_combatant(ORC))
    log.execute(add_combatant(PC))
    log.execute(start_round(1))
    party = RollRequest(("rounds", -1, "initiative", "party"), "1d6", "initiative party")
    log.execute(roll_command(log.state, party, Roll("1d6", 2, (2,))))
    log.execute(start_round(2))
    log.execute(roll_command(log.state, party, Roll("1d6", 4, (4,))))
    command = change_roll(log.commands, log.state, 0, Roll("1d6", 6, manual=True))
    assert [e.kind for e in command.events] == [EventKind.ROLL_RECORDED,
                                                 EventKind.ROUND_FIELD_SET]
    log.execute(command)
    assert log.state.rounds[0]["initiative"] == {"party": 6}
    assert log.state.rounds[1]["initiative"] == {"party": 4}
    assert [r.total for r in log.state.rolls] == [2, 4, 6]
    assert log.state.replaced_rolls == frozenset({0})
    with pytest.raises(LogError, match="already replaced"):
        change_roll(log.commands, log.state, 0, Roll("1d6", 1, manual=True))
    log.undo()
    assert log.state.rounds[0]["initiative"] == {"party": 2}
    assert [r.total for r in log.state.rolls] == [2, 4]


def test_one_creature_is_marked_surprised_and_left_to_its_side_again() -> None:
    """time-units.surprise.d6: "a combatant may be marked surprised on its own", at the table
    as in a scenario file; a mark that changes nothing, or a value neither yes nor unsaid, is
    refused and the log is untouched."""
    log = EncounterLog()
    log.execute(add_combatant(ORC))
    log.execute(mark_surprised("orc-1"))
    assert log.state.combatants["orc-1"].surprised is True
    with pytest.raises(LogError, match="already marked so"):
        log.execute(mark_surprised("orc-1"))
    log.execute(mark_surprised("orc-1", None))
    assert log.state.combatants["orc-1"].surprised is None
    bad = Command("odd", (Event(EventKind.SURPRISE_MARKED, {"id": "orc-1", "surprised": "yes"}),))
    with pytest.raises(LogError, match="surprised must be yes, no or unsaid"):
        log.execute(bad)
    assert len(log.commands) == 3 and replay(log.commands) == log.state


def test_the_time_unit_clock_is_kept_in_the_log_and_undone_with_it() -> None:
    """The clock is a logged command (so a restarted app shows it); a TU below 0 is refused."""
    log = EncounterLog()
    log.execute(add_combatant(ORC))
    assert log.state.clock is None
    log.execute(advance_clock({"tu": 14, "actor": "orc-1", "occurrence": 0}))
    assert log.state.clock is not None and log.state.clock["tu"] == 14
    assert replay(log.commands) == log.state
    with pytest.raises(LogError, match="TU of 0 or more"):
        log.execute(advance_clock({"tu": -1, "actor": "orc-1"}))
    log.undo()
    assert log.state.clock is None
