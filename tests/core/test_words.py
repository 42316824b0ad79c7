"""The DM's words: ids become names, scenario paths become places, values become words."""

from __future__ import annotations

import re

import pytest

from core.fight.encounter import add_entry, remove_entry, replace_entry, start_round
from core.fight.log import Command, Event, EventKind, replay
from core.model.values import Combatant, Roll, Step, StepEvent, frozen_mapping
from core.printout.words import (
    Names,
    action_words,
    command_words,
    house_rules,
    option_label,
    ordinal,
    purpose_words,
    roll_words,
    step_sentence,
    step_why,
    value_words,
)
from core.rules import find_system

NAMES = Names(
    {"kobold-1": "Kobold 1", "kobold-2": "Kobold 2", "orc-1": "Orc 1", "roster-7": "Brannoc"},
    ({"declarations": ("roster-7", "orc-1"), "turns": ("orc-1", "kobold-2", "kobold-1")},),
    ("roster-7", "kobold-2", "orc-1", "kobold-2", "kobold-1", "kobold-2"),
)
LEAKS = re.compile(r"roster-\d|orc-\d|kobold-\d|actions\[|turns\[|\{'|None|True|False")


def test_engine_message_names_the_turn_and_the_dead() -> None:
    text = NAMES.text("rounds[0].turns[2].nominates: kobold-1 is dead")
    assert text == "who acts next in Kobold 1's turn (round 1): Kobold 1 is dead"


def test_time_unit_action_is_the_actors_nth_action() -> None:
    assert NAMES.text("actions[5]") == "Kobold 2's 3rd action"
    assert NAMES.text("actions[0].roll") == "die in Brannoc's action"
    assert NAMES.text("initiative orc-1 (actions[2])") == "initiative Orc 1 (Orc 1's action)"
    assert purpose_words("initiative kobold-2 (actions[3])", NAMES) == (
        "initiative Kobold 2 (2nd action)"
    )


def test_declaration_trigger_and_option_paths() -> None:
    assert NAMES.path_words("rounds[0].declarations[1].target") == (
        "target in Orc 1's declaration (round 1)"
    )
    assert NAMES.path_words("rounds[0].turns[1].triggers[0]") == (
        "readied action 1 in Kobold 2's turn (round 1)"
    )
    assert NAMES.text("options.death_at: expected a whole number") == (
        "the option “Death at”: expected a whole number"
    )


def test_ids_inside_words_are_left_alone() -> None:
    # "orc-10" and "orc-1x" are other things; only whole ids are names
    assert NAMES.text("orc-10 and orc-1x and orc-1.") == "orc-10 and orc-1x and Orc 1."


def test_values_never_print_as_python() -> None:
    assert value_words({"casting": 2, "against": 4}) == "casting 2, against 4"
    assert value_words(None) == "—" and value_words(True) == "yes" and value_words(2.0) == "2"
    assert value_words(["a", None]) == "a, —"
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st",
    ]


def test_action_letters_and_option_labels() -> None:
    assert action_words("G") == "G (strike blows)" and action_words("melee") == "melee"
    assert action_words(None) == "turn"
    assert option_label("spell_lost_on_any_damage") == "Spell lost on any damage"
    assert option_label("round_tu") == "Round TU"


def test_attack_on_a_caster_says_why_in_segments() -> None:
    step = Step(
        5, "orc-1", StepEvent.HITS, round=1, segment=2, target="roster-7",
        because=("addict.oos.g-vs-d",),
        detail=frozen_mapping(
            {"weapon": "scimitar", "damage": 3, "hp": 4,
             "compared": {"casting": 3, "against": 2}, "declaration": "rounds[0].declarations[1]"}
        ),
    )
    sentence = step_sentence(step, NAMES)
    assert sentence.startswith("Orc 1 hits Brannoc with scimitar for 3 (Brannoc now at 4 hp)")
    assert "the spell completes in segment 3, this comes in segment 2" in sentence
    assert step_sentence(step, NAMES, brief=True) == (
        "Orc 1 hits Brannoc with scimitar for 3 (Brannoc now at 4 hp)"
    )
    why = step_why(step, NAMES, "addict")
    assert why == "Brannoc's spell completes in segment 3; this came in segment 2, before it"
    assert not LEAKS.search(sentence + why)


def test_why_falls_back_on_the_rule_in_words() -> None:
    step = Step(1, "roster-7", StepEvent.MISSES, round=1, segment=4, target="orc-1",
                because=("side-d6.initiative.other-sides-die",))
    why = step_why(step, NAMES, "side-d6")
    assert why and why[0].islower() and "side-d6" not in why


def test_every_step_of_every_sample_reads_without_ids_or_python() -> None:
    from pathlib import Path

    from core.cli.commands import load_scenario, resolve_scenario
    from core.model.scenario import ScenarioError

    root = Path(__file__).resolve().parents[1] / "scenarios"
    checked = 0
    for path in sorted(root.glob("*/*.json")):
        if path.name.endswith(".expected.json"):
            continue
        scenario = load_scenario(path)
        try:
            resolution = resolve_scenario(scenario)
        except ScenarioError:
            continue
        names = Names.from_document(scenario.raw)
        for step in resolution.steps:
            text = step_sentence(step, names) + step_why(step, names, scenario.system)
            assert not re.search(r"actions\[|turns\[|\{'|None\b|\b[a-z]+_[a-z_]+\b", text), (
                path.name, text)
            checked += 1
    assert checked > 200


def test_roll_words() -> None:
    rolled = Roll("1d10", 7, (7,), manual=False, purpose="initiative orc-1 (actions[2])")
    assert roll_words(rolled, NAMES) == (
        "initiative Orc 1: 7 on 1d10 (rolled by the app)"
    )
    typed = Roll("1d6", 5, manual=True, purpose="initiative party")
    assert roll_words(typed, NAMES).endswith("(typed in from the table)")


def _state() -> object:
    commands = [
        Command("add", (Event(EventKind.ENCOUNTER_CONFIGURED,
                              frozen_mapping({"system": "side-d6", "options": {}})),)),
    ]
    state = replay(commands)
    for cid, name in (("roster-7", "Brannoc"), ("orc-1", "Orc 1")):
        from core.fight.log import add_combatant

        state = replay([add_combatant(Combatant(cid, "party" if cid[0] == "r" else "monsters",
                                                name))], state)
    state = replay([start_round(1)], state)
    state = replay([add_entry("declarations", {"actor": "roster-7", "action": "G",
                                               "target": "orc-1"})], state)
    return replay([add_entry("declarations", {"actor": "orc-1", "action": "attack"})], state)


def test_undo_texts_name_combatants() -> None:
    state = _state()
    names = Names.from_state(state)  # type: ignore[arg-type]
    add = add_entry("declarations", {"actor": "orc-1", "action": "attack"})
    assert add.name == "orc-1: attack"  # the log keeps ids; the Edit menu reads words
    assert command_words(add, names) == "Orc 1: attack"
    assert command_words(remove_entry("declarations", 0), names) == (
        "Take back Brannoc's declaration"
    )
    assert command_words(remove_entry("declarations", 1, 1), names) == (
        "Take back Orc 1's declaration (round 1)"
    )
    change = replace_entry("declarations", 0, {"actor": "roster-7", "action": "G"})
    assert command_words(change, names) == "Change Brannoc: G (strike blows)"
    roll = Command("r", (Event(EventKind.ROLL_RECORDED, frozen_mapping(
        {"purpose": "initiative orc-1", "total": 4, "manual": False, "expression": "1d6"})),))
    assert command_words(roll, names) == "initiative Orc 1: 4 (rolled)"
    assert command_words(Command("Use side-d6", ()), names) == "Use side-d6"


def test_house_rules_only_when_they_differ() -> None:
    system = find_system("addict")
    assert house_rules(system, {}) == ()
    rules = house_rules(system, {"death_at": -5, "same_letter_simultaneous": False})
    assert [r.label for r in rules] == ["Same letter simultaneous", "Death at"]
    sentence = rules[1].sentence()
    assert sentence.startswith("Death at: -5 (the source: -10, “")
    assert "_" not in "".join(r.sentence() for r in rules)


@pytest.mark.parametrize("text", ["", "plain words", "Orc 1 is fine"])
def test_text_without_ids_is_unchanged(text: str) -> None:
    assert NAMES.text(text) == text


def test_interrupt_and_contact_details_read_with_names() -> None:
    """side-d6.interrupt.set-against-charge and side-d6.move.contact-segment in words."""
    from core.model.dice import Roller
    from core.model.scenario import parse_scenario

    doc = {"system": "side-d6", "options": {"set_weapon_double_damage": True},
           "combatants": [{"id": "k-1", "name": "Sir Brannoc", "side": "raiders", "hp": 12,
                           "movement": 120},
                          {"id": "p-1", "name": "Old Tom", "side": "militia", "hp": 7}],
           "rounds": [{"initiative": {"raiders": 1, "militia": 3}, "declarations": [
               {"actor": "p-1", "action": "set"},
               {"actor": "k-1", "action": "charge", "target": "p-1", "distance": 60,
                "interrupts": [{"actor": "p-1", "hit": True, "damage": 3}]}]}]}
    resolution = find_system("side-d6").resolve(parse_scenario(doc), Roller.seeded(1))
    names = Names.from_document(doc)
    texts = [step_sentence(s, names) for s in resolution.steps]
    assert "reaches in segment 7" in texts[1] and "may be interrupted by Old Tom" in texts[1]
    assert "an interrupt: set against a charge" in texts[2]
    assert "double damage" in texts[2] and "3 rolled" in texts[2]
    assert not any(re.search(r"k-1|p-1|rounds\[|declarations\[", t) for t in texts), texts


def test_a_volley_shot_says_which_shot_and_whom_it_was_meant_for() -> None:
    """A shot of a volley reads "shot 2 of 3" and names the fallen target it moved from."""
    step = Step(
        3, "roster-7", StepEvent.HITS, round=1, segment=1, target="kobold-2",
        because=("addict.missile.next-target",),
        detail=frozen_mapping({"weapon": "short bow", "damage": 2, "hp": 1, "shot": 2,
                               "shots": 3, "instead_of": "kobold-1"}),
    )
    sentence = step_sentence(step, NAMES)
    assert sentence.startswith(
        "Brannoc hits Kobold 2 instead of Kobold 1, who had fallen, with short bow, shot 2 of 3 "
        "for 2")
    assert not LEAKS.search(sentence)


def test_an_area_spell_names_every_target_when_casting_begins() -> None:
    """Casting an area spell at several targets names them all, never by id."""
    step = Step(1, "roster-7", StepEvent.BEGINS_CASTING, round=1, segment=1, target="orc-1",
                detail=frozen_mapping({"spell": "burning hands", "casting_time": 1,
                                       "also": ["kobold-1", "kobold-2"]}))
    sentence = step_sentence(step, NAMES)
    assert sentence.startswith(
        "Brannoc begins casting burning hands on Orc 1, Kobold 1, Kobold 2 (1 segment)")
    assert not LEAKS.search(sentence)


def test_a_round_field_without_an_entry_reads_as_the_rounds() -> None:
    """A refusal began "turns (round 2): …"; it reads "round 2's turns: …"."""
    assert NAMES.text("rounds[1].turns: a turn is missing") == "round 2's turns: a turn is missing"
    assert NAMES.path_words("rounds[0]") == "round 1"


@pytest.mark.parametrize(("event", "action", "detail", "said"), [
    (StepEvent.BEGINS_CASTING, "spell", {"spell": "sleep"}, False),
    (StepEvent.FLEES, "flee", {}, False),
    (StepEvent.MOVES, "retreat", {"movement": "retreat"}, False),
    (StepEvent.HITS, "G", {}, True),  # a DMG letter is kept: it names the table's row
    (StepEvent.MISSES, "missile", {}, True),
])
def test_the_action_is_named_only_when_the_sentence_does_not_say_it(
    event: StepEvent, action: str, detail: dict[str, object], said: bool
) -> None:
    step = Step(1, "roster-7", event, round=1, target="orc-1", action=action,
                detail=frozen_mapping(detail))
    sentence = step_sentence(step, NAMES)
    assert ("[action " in sentence) is said, sentence
