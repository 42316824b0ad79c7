"""Multi-classed entries: one level a class ("2/2"), read, checked, exported and carried."""

import json
from dataclasses import replace

import pytest

from core.fight.log import Command, EncounterLog, Event, EventKind, add_combatant
from core.model.values import Spell, frozen_mapping
from core.roster.checks import MAX_LEVEL, check_entry
from core.roster.entries import LevelTextError, RosterEntry, level_text, parse_levels, with_levels
from core.roster.files import (
    RosterImportError,
    read_roster_csv,
    read_roster_json,
    write_roster_csv,
    write_roster_json,
)
from core.roster.merge import differences
from core.roster.results import apply_changes, propose_results, roster_combatant

# An AD&D half-elf Fighter/Magic-User (PHB: multi-classed characters advance in each class).
ELWYN = RosterEntry(
    name="Elwyn", id=4, char_class="Fighter/Magic-User", race="Half-elf", level=3,
    class_levels=(3, 2), hp=12, max_hp=14, spells=(Spell("Sleep"), Spell("Shield")),
)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [("", (None, ())), (" 5 ", (5, ())), ("2/2", (2, (2, 2))), ("3 / 4 / 2", (4, (3, 4, 2)))],
)
def test_a_level_reads_as_one_number_or_one_a_class(text: str, expected: object) -> None:
    assert parse_levels(text) == expected


@pytest.mark.parametrize(
    ("text", "words"),
    [("2/x", "“x” where a whole number"), ("2//2", "an empty part"),
     ("1/1/1/1", "at most 3 classes"), ("two", "“two” is not a whole number")],
)  # fmt: skip
def test_a_bad_level_says_what_is_wrong_in_words(text: str, words: str) -> None:
    with pytest.raises(LevelTextError, match=words):
        parse_levels(text)


def test_a_level_is_shown_as_the_dm_wrote_it() -> None:
    assert level_text(ELWYN) == "3/2"
    assert level_text(replace(ELWYN, class_levels=())) == "3"
    assert level_text(RosterEntry(name="Wat")) == ""
    assert with_levels(RosterEntry(name="Wat"), "1/2") == RosterEntry(
        name="Wat", level=2, class_levels=(1, 2)
    )


def test_class_levels_are_checked_beside_the_level() -> None:
    assert check_entry(ELWYN) == {}
    too_high = with_levels(ELWYN, f"2/{MAX_LEVEL + 1}")
    assert check_entry(too_high) == {
        "level": f"Each class level is 1–{MAX_LEVEL}, so 2/{MAX_LEVEL + 1} cannot be saved."
    }
    assert "level" in check_entry(with_levels(ELWYN, "0/2"))
    assert "highest" in check_entry(replace(ELWYN, level=2))["level"]
    assert "2 or 3" in check_entry(replace(ELWYN, level=2, class_levels=(2,)))["level"]


@pytest.mark.parametrize(
    ("write", "read"), [(write_roster_json, read_roster_json), (write_roster_csv, read_roster_csv)]
)
def test_class_levels_round_trip_through_a_roster_file(write, read) -> None:  # type: ignore[no-untyped-def]
    single = RosterEntry(name="Wat", id=5, level=1, hp=3, max_hp=3)
    text = write([ELWYN, single])
    assert read(text) == [replace(ELWYN, id=None), replace(single, id=None)]
    if write is write_roster_json:
        levels = [c["level"] for c in json.loads(text)["combatants"]]
        assert levels == ["3/2", 1]  # one level stays a number, as older files have it
    else:
        assert "3/2" in text.splitlines()[1].split(",")


def test_a_json_level_may_be_a_number_or_text() -> None:
    doc = [{"name": "Elwyn", "level": "2/2"}, {"name": "Wat", "level": 4},
           {"name": "Alda", "level": "6"}]  # fmt: skip
    entries = read_roster_json(json.dumps(doc))
    assert [(e.level, e.class_levels) for e in entries] == [(2, (2, 2)), (4, ()), (6, ())]


@pytest.mark.parametrize(
    ("level", "where", "words"),
    [("2/x", "entry 2 (Elwyn), field level", "“x” where a whole number belongs"),
     ("2/41", "entry 2 (Elwyn), field level", "Each class level is 1–40"),
     ("41", "entry 2 (Elwyn), field level", "Level is 0–40")],
)  # fmt: skip
def test_a_bad_level_in_a_json_file_refuses_it_naming_entry_and_field(
    level: str, where: str, words: str
) -> None:
    doc = [{"name": "Wat", "level": 1}, {"name": "Elwyn", "level": level}]
    with pytest.raises(RosterImportError) as caught:
        read_roster_json(json.dumps(doc))
    assert caught.value.where == where and words in caught.value.message


@pytest.mark.parametrize(
    ("level", "words"),
    [("2/x", "“x” where"), ("abc", "“abc” is not a whole number"), ("9/41", "1–40")],
)
def test_a_bad_level_in_a_csv_file_refuses_it_naming_line_and_column(
    level: str, words: str
) -> None:
    text = f"name,level\nWat,1\nElwyn,{level}\n"
    with pytest.raises(RosterImportError) as caught:
        read_roster_csv(text)
    assert caught.value.where.startswith("line 3")
    assert "level" in caught.value.where and words in caught.value.message


def test_an_import_shows_a_changed_class_level_as_the_dm_writes_it() -> None:
    assert differences(ELWYN, with_levels(ELWYN, "3/3")) == ("level 3/2 → 3/3",)
    single = replace(ELWYN, class_levels=())
    assert differences(single, ELWYN) == ("level 3 → 3/2",)


def test_results_after_a_fight_carry_class_levels_through() -> None:
    log = EncounterLog()
    fighter = roster_combatant(ELWYN)
    assert fighter.level == 3  # the engine reads the highest level
    log.execute(add_combatant(replace(fighter, spells=(Spell("Shield"),))))
    log.execute(Command("hit", (Event(EventKind.HP_CHANGED, frozen_mapping(
        {"id": "roster-4", "delta": -5})),)))  # fmt: skip
    changes = propose_results([ELWYN], log.state)
    (changed,) = apply_changes([ELWYN], changes)
    assert changed == replace(ELWYN, hp=7, spent_spells=(0,))
    assert (changed.level, changed.class_levels) == (3, (3, 2))


def test_a_bad_csv_level_and_ac_are_said_in_plain_words() -> None:
    """No Python literal ('abc') and no "-10–10" range: what a DM reads in the import box."""
    with pytest.raises(RosterImportError) as caught:
        read_roster_csv("name,level,ac\nWat,abc,15\n")
    text = " ".join(message for _where, message in caught.value.problems)
    assert "“abc” is not a whole number; write 2, or one level a class like 2/2" in text
    assert "'abc'" not in text
    assert "AC runs from −10 to 10 (descending: the lower, the better)." in text
