"""The players' screen as data (core.printout.players): what the table may know, and the DM's
hide / reveal command in the encounter log."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from core.fight.encounter import commands_for_scenario, resolve_state
from core.fight.log import (
    EncounterLog,
    EventKind,
    LogError,
    apply_event,
    hide_from_players,
)
from core.model.dice import Roller
from core.printout.players import PlayersView, campaign_view, players_view
from core.printout.words import Names, command_words

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def _fight(document: dict[str, Any], *hidden: str) -> EncounterLog:
    log = EncounterLog(commands_for_scenario(document))
    if hidden:
        log.execute(hide_from_players(list(hidden)))
    return log


def _view(log: EncounterLog, show_hp: bool = False) -> PlayersView:
    state = log.state
    resolution = resolve_state(state, Roller.seeded(state.config.get("seed")))
    return players_view(state, resolution, heading="Goblin Bridge", show_party_hp=show_hp)


def _texts(view: PlayersView) -> str:
    lines = [view.heading, view.system, view.clock, view.last, *view.turn]
    lines += [f"{p.when} {p.text}" for p in view.play]
    lines += [f"{p.name} {p.hp} {p.state} {' '.join(p.effects)}" for p in view.party]
    lines += [f"{m.name} {m.state} {' '.join(m.effects)}" for m in view.monsters]
    lines += [c.name for c in view.combatants]
    return "\n".join(lines)


SIDE_D6: dict[str, Any] = {
    "format": "combatdesk/scenario-1",
    "system": "side-d6",
    "combatants": [
        {"id": "halvaine", "name": "Halvaine", "side": "party", "kind": "pc", "hp": 9,
         "max_hp": 9, "spells": [{"name": "sleep", "level": 1, "casting_time": 2}]},
        {"id": "garrick", "name": "Garrick", "side": "party", "kind": "pc", "hp": 12,
         "max_hp": 12},
        {"id": "orc-1", "name": "Orc 1", "side": "monsters", "kind": "monster", "hp": 71,
         "max_hp": 71, "ac": -6, "morale": 11, "notes": "carries the vault key", "xp": 1234},
        {"id": "shaman", "name": "Orc Shaman", "side": "monsters", "kind": "monster",
         "hp": 23, "ac": 5},
    ],
    "rounds": [
        {"initiative": {"party": 5, "monsters": 4},
         "declarations": [
             {"actor": "halvaine", "action": "spell", "spell": "sleep", "target": "orc-1"},
             {"actor": "garrick", "action": "attack", "target": "orc-1", "hit": True,
              "damage": 4},
             {"actor": "shaman", "action": "attack", "target": "garrick", "hit": True,
              "damage": 3},
             {"actor": "orc-1", "action": "attack", "target": "halvaine"},
         ]}
    ],
}


def test_hiding_is_a_log_event_that_changes_no_resolution() -> None:
    plain = _fight(SIDE_D6)
    hidden = _fight(SIDE_D6, "shaman")
    assert hidden.state.hidden == {"shaman"}
    seed = plain.state.config.get("seed")
    assert (resolve_state(hidden.state, Roller.seeded(seed))
            == resolve_state(plain.state, Roller.seeded(seed)))
    hidden.execute(hide_from_players(["shaman"], hidden=False))
    assert hidden.state.hidden == frozenset()
    hidden.undo()  # Ctrl+Z: hidden again
    assert hidden.state.hidden == {"shaman"}
    hidden.undo()
    assert hidden.state.hidden == frozenset()


@pytest.mark.parametrize(("data", "message"), [
    ({"ids": ["shaman"], "hidden": True}, "shaman is already hidden"),
    ({"ids": ["orc-1"], "hidden": False}, "orc-1 is not hidden"),
    ({"ids": ["nobody"], "hidden": True}, "no combatant 'nobody'"),
    ({"ids": [], "hidden": True}, "at least one combatant"),
    ({"ids": ["orc-1"], "hidden": "yes"}, "hidden must be yes or no"),
])
def test_a_hide_that_changes_nothing_is_refused(data: dict[str, Any], message: str) -> None:
    log = _fight(SIDE_D6, "shaman")
    event = hide_from_players(["orc-1"]).events[0]
    with pytest.raises(LogError, match=message):
        apply_event(log.state, type(event)(EventKind.HIDDEN_FROM_PLAYERS, data))


def test_removing_a_hidden_combatant_forgets_it_was_hidden() -> None:
    log = _fight(SIDE_D6, "shaman")
    removed = type(hide_from_players(["x"]).events[0])(
        EventKind.COMBATANT_REMOVED, {"id": "shaman"})
    assert apply_event(log.state, removed).hidden == frozenset()


def test_the_undo_text_names_who_is_hidden_or_revealed() -> None:
    names = Names({"orc-1": "Orc 1", "shaman": "Orc Shaman", "wolf": "Wolf"})
    assert command_words(hide_from_players(["shaman"]), names) == (
        "Hide Orc Shaman from the players")
    assert command_words(hide_from_players(["orc-1", "shaman", "wolf"], False), names) == (
        "Reveal Orc 1, Orc Shaman and Wolf to the players")


def test_monsters_show_by_name_and_state_never_their_numbers_or_notes() -> None:
    text = _texts(_view(_fight(SIDE_D6)))
    for secret in ("71", "67", "-6", "AC", "11", "morale", "vault key", "1234", "xp", "23"):
        assert secret not in text, secret
    assert "Orc 1" in text and "Garrick" in text and "Halvaine" in text


def test_a_hidden_creature_is_nowhere_nor_any_step_it_takes() -> None:
    view = _view(_fight(SIDE_D6, "shaman"))
    text = _texts(view)
    assert "Shaman" not in text and "shaman" not in text
    assert [c.id for c in view.combatants] == ["halvaine", "garrick", "orc-1"]
    assert view.resolution is not None
    assert all("shaman" not in (s.actor, s.target) for s in view.resolution.steps)
    # Garrick still shows what happened to him, without saying who did it.
    revealed = _texts(_view(_fight(SIDE_D6)))
    assert "Orc Shaman hits Garrick" in revealed


def test_play_stops_at_the_first_attack_waiting_for_its_outcome() -> None:
    log = _fight(SIDE_D6)
    view = _view(log)
    full = resolve_state(log.state, Roller.seeded(None))
    waiting = next(s for s in full.steps if s.event == "attacks")
    assert waiting.actor == "orc-1"
    # Orc 1's attack (no outcome yet) is where play stands: what the engine placed after it
    # (the sleep taking effect) is not shown, the steps before it are.
    assert view.clock == f"Round 1 · segment {waiting.segment}"
    assert [line.seq for line in view.play] == [
        s.seq for s in full.steps[:full.steps.index(waiting)]]
    assert any(s.event == "spell-takes-effect" for s in full.steps[full.steps.index(waiting):])
    assert not any("takes effect" in line.text for line in view.play)
    assert view.last == view.play[-1].text


def test_the_party_hp_shows_only_when_the_dm_asks() -> None:
    log = _fight(SIDE_D6)
    hidden_hp = _view(log)
    assert all(p.hp == "" for p in hidden_hp.party)
    assert "hp" not in _texts(hidden_hp)
    shown = _view(log, show_hp=True)
    garrick = next(p for p in shown.party if p.name == "Garrick")
    assert garrick.hp == "9 / 12"  # the shaman's 3
    assert "71" not in _texts(shown)  # never a monster's


def test_a_rival_npc_on_a_side_without_a_pc_is_seen_as_a_monster() -> None:
    document = copy.deepcopy(SIDE_D6)
    document["combatants"].append({"id": "black-knight", "name": "Black Knight",
                                   "side": "rivals", "kind": "henchman", "hp": 44})
    view = _view(_fight(document), show_hp=True)
    assert "Black Knight" in [m.name for m in view.monsters]
    assert "44" not in _texts(view)


POPCORN: dict[str, Any] = {
    "format": "combatdesk/scenario-1",
    "system": "popcorn",
    "seed": 3,
    "combatants": [
        {"id": "hala", "name": "Hala", "side": "party", "kind": "pc", "hp": 8, "max_hp": 8},
        {"id": "bob", "name": "Bob", "side": "party", "kind": "pc", "hp": 9},
        {"id": "goblin", "name": "Goblin", "side": "monsters", "kind": "monster", "hp": 37,
         "morale": 7},
        {"id": "lurker", "name": "Lurker", "side": "monsters", "kind": "monster", "hp": 19},
    ],
    "initiative": {"hala": 18, "goblin": 12, "bob": 9, "lurker": 4},
    "rounds": [
        {"turns": [
            {"actor": "hala", "action": "attack", "target": "goblin", "hit": True, "damage": 3,
             "nominates": "lurker"},
            {"actor": "lurker", "action": "attack", "target": "bob", "hit": True, "damage": 2,
             "nominates": "goblin"},
            {"actor": "goblin", "action": "attack", "target": "hala", "hit": False,
             "nominates": "bob"},
        ]}
    ],
}


def test_popcorn_says_whose_turn_comes_and_who_has_acted() -> None:
    view = _view(_fight(POPCORN))
    assert view.clock == "Round 1 · turn 4"
    assert view.turn == ("Acts next: Bob", "Has acted: Hala, Lurker, Goblin")
    assert [line.when for line in view.play][:2] == ["Round 1 · turn 1"] * 2


def test_popcorn_names_who_acts_first_once_initiative_is_in() -> None:
    """popcorn.initiative.highest-first: before the first turn, the players' screen names the
    creature the DM's board names (Hala, 18), not "Waiting for the first turn"."""
    before = {k: v for k, v in POPCORN.items() if k != "rounds"}
    assert _view(_fight(before)).turn == ("Acts first: Hala",)
    unknown = {**before, "initiative": {"hala": 18, "goblin": 12}}  # two d20s still awaited
    assert _view(_fight(unknown)).turn == ("Waiting for the first turn",)
    assert _view(_fight(before, "hala")).turn == ("Waiting for the first turn",)


def test_popcorn_hides_a_hidden_creature_s_turn_and_its_nomination() -> None:
    view = _view(_fight(POPCORN, "lurker"))
    text = _texts(view)
    assert "Lurker" not in text
    assert view.turn == ("Acts next: Bob", "Has acted: Hala, Goblin")
    # The goblin's turn is the players' second: no gap where the hidden one acted.
    assert {line.when for line in view.play} == {"Round 1 · turn 1", "Round 1 · turn 2"}
    assert view.clock == "Round 1 · turn 3"


TIME_UNITS: dict[str, Any] = {
    "format": "combatdesk/scenario-1",
    "system": "time-units",
    "combatants": [
        {"id": "elf", "name": "Elowen", "side": "party", "kind": "pc", "hp": 7, "dex": 12,
         "spells": [{"name": "sleep", "level": 1}]},
        {"id": "gnoll", "name": "Gnoll", "side": "monsters", "kind": "monster", "hp": 29,
         "dex": 9},
    ],
    "actions": [
        {"actor": "elf", "action": "spell", "spell": "sleep", "target": "gnoll", "roll": 3,
         "effect": {"name": "asleep", "duration": 4}},
        {"actor": "gnoll", "action": "attack", "target": "elf", "roll": 7},
    ],
}


def test_time_units_show_the_clock_and_who_acts_at_which_tu() -> None:
    view = _view(_fight(TIME_UNITS))
    assert view.clock.startswith("TU ")
    clock = int(view.clock.split()[1])
    assert view.turn and view.turn[0] == f"TU {clock}: Gnoll"
    assert all(line.when.startswith("TU ") for line in view.play)
    gnoll = next(m for m in view.monsters if m.name == "Gnoll")
    assert any(e.startswith("asleep: until TU ") for e in gnoll.effects)  # Elowen's spell
    assert "29" not in _texts(view)


def test_with_no_fight_the_screen_names_the_campaign() -> None:
    view = campaign_view("The Keep on the Borderlands")
    assert view.heading == "The Keep on the Borderlands"
    assert view.play == () and view.clock == ""


def test_a_morale_check_is_the_dm_s_alone_the_flight_shows() -> None:
    document = json.loads((SCENARIOS / "popcorn" / "death-and-morale.json").read_text())
    view = _view(_fight(document), show_hp=True)
    text = _texts(view)
    assert "morale" not in text.lower()
    states = {m.name: m.state for m in view.monsters}
    assert states["goblin-2"] == "fled" and states["goblin-1"] == "down"
    assert "goblin-2 flees" in text
    assert "dies" not in text  # a monster goes down: dead or knocked out is not the players'


def test_the_monsters_side_is_the_one_stamped_monsters_fight_on() -> None:
    from core.printout.players import MONSTERS_SIDE
    from core.roster.stamping import MONSTER_SIDE

    assert MONSTERS_SIDE == MONSTER_SIDE


def test_a_foe_s_spell_is_not_named_before_it_goes_off() -> None:
    document = copy.deepcopy(SIDE_D6)
    document["combatants"][3]["spells"] = [
        {"name": "hold person", "level": 2, "casting_time": 1}]
    declarations = document["rounds"][0]["declarations"]
    declarations[2] = {"actor": "shaman", "action": "spell", "spell": "hold person",
                       "target": "garrick"}
    view = _view(_fight(document))
    cast = [line.text for line in view.play if line.text.startswith("Orc Shaman")]
    assert "Orc Shaman begins casting a spell on Garrick" in cast
    assert "begins casting hold person" not in _texts(view)
    # The party's own casting reads in full.
    assert any(line.text.startswith("Halvaine begins casting sleep") for line in view.play)
