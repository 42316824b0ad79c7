"""A season of play, as a new DM runs it: three nights on one campaign file.

Only what a DM touches is used (menus, buttons, the roster form, New Encounter, the boards'
drops with their own MIME data, the outcome panel, End / Reopen, Rest, Remove, Ctrl+Z through
Edit › Undo); after each night every roster value and session-log line a DM would check is
asserted. The points of issue 22 each have their own test beside this one.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog

from desktop.main_window import MainWindow
from desktop.roster.kills_table import KillsBox
from tests.desktop.season.helpers import (
    edit_entry,
    end,
    letter_blow,
    log_lines,
    new_encounter,
    new_round,
    results_table,
    select,
    type_field,
)
from tests.desktop.table import letter_helpers as letters
from tests.desktop.table.conftest import IdWatch, action, button
from tests.desktop.table.roster_io_helpers import Questions
from tests.desktop.table.tu_helpers import choose, drop_action, type_next_d10


def roster(window: MainWindow) -> dict[str, tuple[str, int | None, int | None, tuple[str, ...]]]:
    """Gets every entry as the DM checks it: status, HP, max HP, spells still memorised."""
    campaign = window.campaign
    assert campaign is not None
    out = {}
    for e in window.store.roster.entries(campaign.id):
        spent = set(e.spent_spells)
        left = tuple(s.name for i, s in enumerate(e.spells) if i not in spent)
        out[e.name] = (str(e.status), e.hp, e.max_hp, left)
    return out


SAMPLE = {
    "Brannoc the Bold": ("active", 24, 24, ()),
    "Sister Ysolde": ("active", 17, 17, ("Cure light wounds", "Bless", "Hold person")),
    "Halvaine the Arcane": ("active", 9, 9, ("Magic missile", "Sleep", "Web")),
    "Pip Underbough": ("active", 12, 12, ()),
    "Garrick": ("active", 8, 8, ()),
    "Torchbearer Wat": ("active", 3, 3, ()),
}

BAD_FILE = "\n".join((
    "name,kind,class,hp,max_hp,dex,weapons,spells",
    ",pc,Fighter,6,6,10,,",
    "Borin,pc,Fighter,abc,8,12,Battle axe (speed factor 7),",
    "Elwyn,pc,Magic-User,4,4,30,Dagger,Sleep (level one)",
    "Mirela,pc,Cleric,11,11,9,Footman's mace (speed factor 7),"
    '"Cure light wounds (level 1, casting time 5); Bless (level 1, casting time 10)"',
)) + "\n"


def new_pc(window: MainWindow, name: str, char_class: str, level: str, hp: str,
           ac: str) -> None:
    """Roster › New Entry…, the form filled in, Save."""
    action(window, "New Entry").trigger()
    for field, text in (("name", name), ("char_class", char_class), ("level", level),
                        ("hp", hp), ("max_hp", hp), ("ac", ac)):
        type_field(window, field, text)
    assert window.editor.save_button.isEnabled(), window.editor.reasons
    window.editor.save_button.click()


def undo(window: MainWindow) -> None:
    """Edit › Undo on the roster (what Ctrl+Z does there)."""
    window.tabs.setCurrentWidget(window.roster_panel)
    window.undo_action.trigger()


def choose_file(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *_a: (str(path), "")))


def spell_hit(ws: object, caster: str, spell: str, damage: int) -> None:
    """Clicks the spell's step in the resolution list, types its damage, Hit."""
    state = ws.controller.state  # type: ignore[attr-defined]
    names = {c.id: c.label for c in state.combatants.values()}
    resolution = ws.controller.resolution  # type: ignore[attr-defined]
    step = next(s for s in resolution.steps if names[s.actor] == caster
                and s.event in ("spell-takes-effect", "begins-casting")
                and s.detail.get("spell") == spell)
    ws.select_step(step.seq)  # type: ignore[attr-defined]
    ws.outcome.damage.setValue(damage)  # type: ignore[attr-defined]
    button(ws.outcome, "Hit").click()  # type: ignore[attr-defined]
    assert ws.outcome.error.text() == "", ws.outcome.error.text()  # type: ignore[attr-defined]


def night_one(table: MainWindow, questions: Questions, tmp_path: Path,
              monkeypatch: pytest.MonkeyPatch) -> None:
    # --- the party: a new fighter from the form -----------------------------------------------
    new_pc(table, "Corwin", "Fighter", "2", "14", "5")
    assert roster(table)["Corwin"] == ("active", 14, 14, ())

    # --- an import with three bad rows and a good one: all named at once, nothing taken -----
    path = tmp_path / "recruits.csv"
    path.write_text(BAD_FILE, encoding="utf-8")
    choose_file(monkeypatch, path)
    action(table, "Import").trigger()
    (message,) = questions.warned
    assert message.startswith("recruits.csv was not imported (nothing was added). 4 problems:")
    for line in ("line 2, field name: A name is needed.",
                 "line 3, column hp: 'abc' is not a whole number",
                 "line 4, column spells: Sleep: level is a whole number, not 'one'",
                 "line 4, field dex: "):
        assert line in message, (line, message)
    assert "Mirela" not in message and "Mirela" not in roster(table)
    # fixed in the spreadsheet: the bad rows taken out, the good one imported, then undone
    path.write_text("\n".join(BAD_FILE.splitlines()[:1] + BAD_FILE.splitlines()[4:]) + "\n",
                    encoding="utf-8")
    action(table, "Import").trigger()
    assert roster(table)["Mirela"] == ("active", 11, 11, ("Cure light wounds", "Bless"))
    undo(table)
    assert "Mirela" not in roster(table)

    # --- the orc cave (AD&D): a PC dies, a spell is spent, an orc killed and one down --------
    ws = new_encounter(table, "Orc cave", "addict",
                       ("Corwin", "Brannoc the Bold", "Halvaine the Arcane"),
                       {"Orc": "3:5, 6, 7"})
    letter_blow(ws, "Orc 3", "Corwin", 9)
    letters.drop_card(ws.board, "Halvaine the Arcane", "D · missile, spell [D]")  # type: ignore[arg-type]
    letters.fill(ws.board, Target="Orc 2", Spell="Magic missile")  # type: ignore[arg-type]
    spell_hit(ws, "Halvaine the Arcane", "Magic missile", 6)  # Orc 2 at 0: down
    letter_blow(ws, "Brannoc the Bold", "Orc 1", 15)  # Orc 1 at -10: dead
    new_round(ws)
    letter_blow(ws, "Orc 3", "Corwin", 15)  # Corwin at -10: dead
    letter_blow(ws, "Brannoc the Bold", "Orc 3", 4)
    dialog = end(table)
    assert results_table(dialog) == [  # in the roster's order; Brannoc was not hit
        ["Halvaine the Arcane", "Spells used", "memorised Magic missile, Sleep, Web",
         "Magic missile, Sleep, Web", "cast Magic missile",
         "mark spent until a rest: Magic missile"],
        ["Corwin", "HP", "14", "14", "-10", "14 → -10"],
        ["Corwin", "Status", "active", "active", "dead", "active → dead"],
    ]
    box = dialog.findChild(KillsBox)
    assert box is not None and [k.name for k in box.kills] == ["Orc 1", "Orc 2"]
    box.spins[0].setValue(10)
    box.spins[1].setValue(10)
    button(dialog, "Apply").click()
    assert ws.session.ended
    action(table, "Rest the Party").trigger()
    rest = table.roster_actions.dialog
    rest.hp_box.setChecked(True)  # type: ignore[attr-defined]
    button(rest, "Rest").click()  # type: ignore[arg-type]


NIGHT_ONE_LOG = [  # the import Ctrl+Z took back took its line with it
    ("Results of Orc cave", [
        "Halvaine the Arcane: spells used — Magic missile",
        "Corwin: HP 14 → -10", "Corwin: active → dead",
        "Killed Orc 1: 10 XP", "Killed Orc 2: 10 XP", "XP for kills: 20"]),
    ("Rest the party", ["Halvaine the Arcane: 1 spell back"]),
]


def assert_log(table: MainWindow, expected: list[tuple[str, list[str] | None]]) -> None:
    got = log_lines(table)
    assert [s for s, _ in got] == [s for s, _ in expected], got
    for (summary, lines), (_, want) in zip(got, expected, strict=True):
        if want is not None:
            assert lines == want, (summary, lines)


def night_two(table: MainWindow, questions: Questions) -> None:
    # --- two fights sharing Brannoc, a hand edit between, ended in the reverse order ---------
    bridge = new_encounter(table, "Goblin bridge", "side-d6",
                           ("Brannoc the Bold", "Pip Underbough"), {"Goblin": "2:4, 5"})
    # side-d6: the party's d6 (2) is the monsters' segment, theirs (5) the party's
    letter_blow(bridge, "Goblin 1", "Brannoc the Bold", 5, dice=(2, 5))
    letter_blow(bridge, "Brannoc the Bold", "Goblin 1", 6)
    pit = new_encounter(table, "Kobold pit", "side-d6", ("Brannoc the Bold", "Garrick"),
                        {"Kobold": "1:3"})
    assert "Brannoc the Bold is also in Goblin bridge, which is still open." in questions.asked[-1]
    letter_blow(pit, "Kobold 1", "Brannoc the Bold", 3, dice=(2, 5))
    letter_blow(pit, "Garrick", "Kobold 1", 4)
    edit_entry(table, "Brannoc the Bold", hp="22")  # a dart trap between the fights

    table.tabs.setCurrentWidget(pit)
    dialog = end(table)
    assert dialog.warning.isVisibleTo(dialog)
    assert results_table(dialog) == [
        ["Brannoc the Bold", "HP", "24", "22", "21", "Add this fight's change: 22 → 19"]]
    box = dialog.findChild(KillsBox)
    assert box is not None and [k.name for k in box.kills] == ["Kobold 1"]
    box.spins[0].setValue(5)
    button(dialog, "Apply").click()

    table.tabs.setCurrentWidget(bridge)
    dialog = end(table)
    assert results_table(dialog) == [
        ["Brannoc the Bold", "HP", "24", "19", "19", "Add this fight's change: 19 → 14"]]
    box = dialog.findChild(KillsBox)
    assert box is not None and [k.name for k in box.kills] == ["Goblin 1"]
    box.spins[0].setValue(6)
    button(dialog, "Apply").click()

    # --- the goblins rally: Goblin bridge reopened, played on and ended again ---------------
    action(table, "Goblin bridge — Side initiative on d6, segment rounds (ended)").trigger()
    action(table, "Reopen Encounter").trigger()
    assert "Results already applied to the roster stay" in questions.asked[-1]
    bridge = table.encounter_actions.current()
    assert bridge is not None and not bridge.session.ended
    new_round(bridge)
    letter_blow(bridge, "Goblin 2", "Pip Underbough", 4, dice=(2, 5))
    letter_blow(bridge, "Brannoc the Bold", "Goblin 2", 5)
    dialog = end(table)
    assert results_table(dialog) == [["Pip Underbough", "HP", "12", "12", "8", "12 → 8"]]
    box = dialog.findChild(KillsBox)
    assert box is not None and [k.name for k in box.kills] == ["Goblin 2"]  # not Goblin 1
    box.spins[0].setValue(6)
    button(dialog, "Apply").click()


NIGHT_TWO_LOG = [
    ("Results of Kobold pit", [
        "Brannoc the Bold: HP 22 → 19 (changed since the fight began)",
        "Killed Kobold 1: 5 XP", "XP for kills: 5"]),
    ("Results of Goblin bridge", [
        "Brannoc the Bold: HP 19 → 14 (changed since the fight began)",
        "Killed Goblin 1: 6 XP", "XP for kills: 6"]),
    ("Results of Goblin bridge", [
        "Pip Underbough: HP 12 → 8", "Killed Goblin 2: 6 XP", "XP for kills: 6"]),
]


def tu_declare(ws: object, actor: str, kind: str, target: str, d10: int, attacks: int = 0,
               spell: str | None = None) -> None:
    """Drops ``kind`` from the palette on the actor's card, fills the form, Enter, the d10."""
    board = ws.board  # type: ignore[attr-defined]
    drop_action(board, kind, actor)
    if attacks:
        board.editor.attacks.setValue(attacks)
    if spell is not None:
        choose(board.editor.spell, spell)
    choose(board.editor.target, target)
    QTest.keyClick(board.editor.target, Qt.Key.Key_Return)
    assert board.editor.isHidden(), board.editor.problem.text()
    type_next_d10(ws, d10)  # type: ignore[arg-type]


def strikes(ws: object, actor: str) -> list[int]:
    """Gets the resolution list's attack steps of ``actor`` (their numbers), in order."""
    names = {c.id: c.label for c in ws.controller.state.combatants.values()}  # type: ignore[attr-defined]
    return [s.seq for s in ws.controller.resolution.steps  # type: ignore[attr-defined]
            if names[s.actor] == actor and s.event in ("attacks", "hits", "misses")]


def hit(ws: object, seq: int, damage: int) -> None:
    ws.select_step(seq)  # type: ignore[attr-defined]
    ws.outcome.damage.setValue(damage)  # type: ignore[attr-defined]
    button(ws.outcome, "Hit").click()  # type: ignore[attr-defined]
    assert ws.outcome.error.text() == "", ws.outcome.error.text()  # type: ignore[attr-defined]


def night_three(table: MainWindow, questions: Questions) -> None:
    # --- the bugbear lair (time units): two attacks, a cure, Halvaine removed mid-fight -----
    ws = new_encounter(table, "Bugbear lair", "time-units",
                       ("Pip Underbough", "Halvaine the Arcane", "Sister Ysolde"),
                       {"Bugbear": "1:14"})
    tu_declare(ws, "Pip Underbough", "melee", "Bugbear 1", 3, attacks=2)
    tu_declare(ws, "Bugbear 1", "melee", "Halvaine the Arcane", 5)
    tu_declare(ws, "Sister Ysolde", "spell", "Pip Underbough", 6, spell="Cure light wounds")
    first, _second = strikes(ws, "Pip Underbough")
    hit(ws, first, 4)
    hit(ws, strikes(ws, "Pip Underbough")[1], 6)  # the [2nd attack] keeps the 1st's 4
    (blow,) = strikes(ws, "Bugbear 1")
    hit(ws, blow, 5)
    names = {c.id: c.label for c in ws.controller.state.combatants.values()}
    cure = next(s for s in ws.controller.resolution.steps if names[s.actor] == "Sister Ysolde"
                and s.event == "spell-takes-effect")
    ws.select_step(cure.seq)
    ws.outcome.damage.setValue(3)
    button(ws.outcome, "Heals").click()
    hp = {names[c]: r.hp for c, r in ws.controller.resolution.combatants.items()}
    assert (hp["Bugbear 1"], hp["Halvaine the Arcane"], hp["Pip Underbough"]) == (4, 4, 11)

    select(table, "Halvaine the Arcane")
    action(table, "Remove").trigger()
    assert "Halvaine the Arcane is fighting in Bugbear lair, which is still open." in \
        questions.asked[-1]
    assert "Halvaine the Arcane" not in roster(table)
    table.tabs.setCurrentWidget(ws)
    dialog = end(table)
    assert results_table(dialog) == [
        ["Sister Ysolde", "Spells used", "memorised Cure light wounds, Bless, Hold person",
         "Cure light wounds, Bless, Hold person", "cast Cure light wounds",
         "mark spent until a rest: Cure light wounds"],
        ["Halvaine the Arcane", "HP", "9", "deleted from the roster", "4",
         "log it (deleted from the roster)"],
        ["Pip Underbough", "HP", "8", "8", "11", "8 → 11"],
    ]
    assert dialog.findChild(KillsBox) is None  # the bugbear stands at 4 hp
    button(dialog, "Apply").click()


NIGHT_THREE_LOG = [
    ("Results of Bugbear lair", [
        "Sister Ysolde: spells used — Cure light wounds",
        "Halvaine the Arcane: HP 9 → 4 (no longer in the roster: logged only)",
        "Pip Underbough: HP 8 → 11"]),
]


def test_a_season_of_three_nights_writes_the_roster_and_the_log_right(
    table: MainWindow, ids: IdWatch, questions: Questions, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    night_one(table, questions, tmp_path, monkeypatch)
    assert roster(table) == {**SAMPLE, "Corwin": ("dead", -10, 14, ())}
    assert_log(table, NIGHT_ONE_LOG)

    night_two(table, questions)
    assert roster(table) == {**SAMPLE, "Corwin": ("dead", -10, 14, ()),
                             "Brannoc the Bold": ("active", 14, 24, ()),
                             "Pip Underbough": ("active", 8, 12, ())}
    assert_log(table, NIGHT_ONE_LOG + NIGHT_TWO_LOG)

    night_three(table, questions)
    assert roster(table) == {
        **{k: v for k, v in SAMPLE.items() if k != "Halvaine the Arcane"},
        "Corwin": ("dead", -10, 14, ()), "Brannoc the Bold": ("active", 14, 24, ()),
        "Pip Underbough": ("active", 11, 12, ()),
        "Sister Ysolde": ("active", 17, 17, ("Bless", "Hold person"))}
    assert_log(table, NIGHT_ONE_LOG + NIGHT_TWO_LOG + NIGHT_THREE_LOG)
    ids.check()
