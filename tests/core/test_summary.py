"""The printable round summary: its facts per system, its escaping, and ``core summary``."""

from __future__ import annotations

import base64
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.cli.commands import load_scenario, resolve_scenario
from core.model.scenario import parse_scenario
from core.printout.html import render_html
from core.printout.summary import SummaryError, build_summary
from core.printout.timeline_svg import render_timeline_svg

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"
EVIL = "<b>Orc</b><script>"
_IMG = re.compile(r'src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"')


def _html(name: str, round_no: int | None = None) -> str:
    scenario = load_scenario(SCENARIOS / name)
    return render_html(build_summary(scenario, resolve_scenario(scenario), round_no))


def _svgs(html: str) -> list[str]:
    return [base64.b64decode(m).decode("utf-8") for m in _IMG.findall(html)]


def _scenario_with(name: str) -> dict[str, Any]:
    """A side-d6 fight whose orc carries ``name`` into every part of the summary."""
    return {
        "format": "combatdesk/scenario-1",
        "system": "side-d6",
        "title": name,
        "description": name,
        "combatants": [
            {
                "id": "hero",
                "name": "Hero",
                "side": "party",
                "hp": 8,
                "spells": [{"name": name, "casting_time": 2}],
            },
            {"id": "orc", "name": name, "side": name, "hp": 5},
        ],
        "rounds": [
            {
                "initiative": {"party": 5, name: 4},
                "declarations": [
                    {
                        "actor": "hero",
                        "action": "spell",
                        "spell": name,
                        "target": "orc",
                        "effect": {"name": name, "duration": 2, "target": "orc"},
                    },
                    {
                        "actor": "orc",
                        "action": "attack",
                        "target": "hero",
                        "hit": True,
                        "damage": 3,
                    },
                ],
            },
        ],
    }


def _render(document: dict[str, Any]) -> str:
    scenario = parse_scenario(document)
    return render_html(build_summary(scenario, resolve_scenario(scenario)))


def test_side_d6_halvaine_order_segments_4_5_6() -> None:
    html = _html("side-d6/halvaine-example.json")
    begin = html.index("begins casting sleep on orc-1")
    miss = html.index("misses Halvaine the Arcane")
    effect = html.index("sleep takes effect on orc-1")
    assert begin < miss < effect
    assert "Segment 4" in html[:begin] and "Segment 6" in html[miss:effect]
    assert "initiative party round 1" in html and "typed in from the table" in html
    appendix = html.index("Appendix: rules and dice")
    # options keep to the appendix, by their labels; nothing differs from the source here
    assert "Spell goes off" in html[appendix:] and "after casting time" in html[appendix:]
    assert "spell_goes_off" not in html and "House rules" not in html


def test_addict_bleeding_and_death() -> None:
    html = _html("addict/bleeding-and-death.json")
    assert "hits gnoll-2 with spear for 14 (gnoll-2 now at -10 hp)" in html
    assert "bleeds, now at -10 hp" in html
    assert "Morale, bleeding, deaths and flight" in html
    assert "<td>-10 / 8</td><td>dead</td>" in html  # the squire at the end


def test_addict_surprise_segments_labelled_and_hp_per_round() -> None:
    html = _html("addict/surprise-segments-spell-carries-over.json")
    assert "Round 1 — surprise segments" in html and "Surprise seg. 2" in html
    round_1 = html[
        : html.index("<h2", html.index("Round 1 — surprise"))
        if "Round 2" not in html
        else html.index("Round 2")
    ]
    # the thief's hp after round 1 comes from the steps, before the end of the encounter
    assert "<td>thief</td><td>party</td><td>3 / 6</td>" in round_1
    svg = _svgs(html)[0]
    assert "surprise segments" in svg and ">S2<" in svg


def test_popcorn_turns_morale_and_death() -> None:
    html = _html("popcorn/death-and-morale.json")
    assert "Turns as played" in html
    assert "checks morale: rolled 9 against 7, fails" in html
    hit = html.index("hits goblin-1 for 3")
    assert hit < html.index("<td>dies at 0 hp</td>", hit)
    assert "<td>goblin-2</td><td>monsters</td><td>3 / 3</td><td>fled</td>" in html
    assert ">T1<" in _svgs(html)[0] and ">End<" in _svgs(html)[0]


def test_popcorn_effect_with_remaining_duration() -> None:
    html = _html("popcorn/effect-durations-alice-example.json", round_no=1)
    assert "round 1 of" in html and "Round 2" not in html
    assert "protection from evil" in html and "1 more round" in html


def test_time_units_spell_lost_and_round_marks() -> None:
    html = _html("time-units/bolog-hit-at-14.json")
    assert "TU 14" in html and "TU 27" in html
    assert "magic missile is lost (disrupted): hit by orc-1" in html
    assert "<b><i>LOST</i></b>" in html
    assert "Round 2 (TU 10–19)" in html
    encounter_svg = _svgs(html)[0]
    assert "round 2" in encounter_svg and "round 3" in encounter_svg
    assert 'stroke-dasharray="4,2"' in encounter_svg  # the lost spell's dashed bar


def test_time_units_effect_counts_down_in_tu() -> None:
    html = _html("time-units/duration-four-rounds.json")
    assert "until TU 49 (39 TU left)" in html


def test_round_out_of_range_is_refused() -> None:
    scenario = load_scenario(SCENARIOS / "side-d6/halvaine-example.json")
    with pytest.raises(SummaryError, match="round 3"):
        build_summary(scenario, resolve_scenario(scenario), 3)


def test_evil_name_is_escaped_everywhere() -> None:
    html = _render(_scenario_with(EVIL))
    assert "<script>" not in html and "<b>Orc</b>" not in html
    assert "&lt;b&gt;Orc&lt;/b&gt;&lt;script&gt;" in html
    for svg in _svgs(html):
        assert "<script>" not in svg and "&lt;script&gt;" in svg


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# The orc's side takes the name too: "party" would put it on the hero's side, another fight.
@given(st.text(min_size=1, max_size=30).filter(lambda s: s.strip() != "" and s != "party"))
def test_any_name_adds_no_markup(name: str) -> None:
    """Whatever a user types, the page (and every picture) has the same tags as for a plain
    name: the text never opens a tag of its own."""
    plain = _render(_scenario_with("Orc"))
    html = _render(_scenario_with(name))
    assert html.count("<") == plain.count("<")
    assert [s.count("<") for s in _svgs(html)] == [s.count("<") for s in _svgs(plain)]


def test_timeline_shapes_differ_by_kind() -> None:
    from core.model.values import StepEvent
    from core.printout.summary import Axis, Combatant, TimelineStep

    people = [Combatant("a", "A", "party"), Combatant("b", "B", "monsters")]
    axis = Axis("segments", 0.5, 10.5, tuple((float(i), str(i)) for i in range(1, 11)))
    steps = [
        TimelineStep(1, "a", StepEvent.BEGINS_CASTING, 2, "a|x", None),
        TimelineStep(2, "b", StepEvent.HITS, 3, None, 4),
        TimelineStep(3, "a", StepEvent.SPELL_DISRUPTED, 3, "a|x", None),
        TimelineStep(4, "b", StepEvent.MISSES, 4, None, None),
        TimelineStep(5, "b", StepEvent.DIES, 5, None, None),
    ]
    svg = render_timeline_svg(people, steps, axis)
    assert "<polygon" in svg and "<circle" in svg  # hit triangle, miss circle
    assert 'stroke-dasharray="4,2"' in svg  # disrupted spell bar
    assert 'fill="black"/>' in svg  # death square
    assert "spell lost" in svg and "death" in svg  # the legend explains the shapes


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "core", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_cli_summary_writes_html(tmp_path: Path) -> None:
    out = tmp_path / "s.html"
    done = _run("summary", str(SCENARIOS / "side-d6/halvaine-example.json"), "--html", str(out))
    assert done.returncode == 0, done.stderr
    html = out.read_text(encoding="utf-8")
    assert "Halvaine the Arcane" in html and "data:image/svg+xml;base64," in html


def test_cli_summary_one_round(tmp_path: Path) -> None:
    out = tmp_path / "r2.html"
    path = SCENARIOS / "addict/surprise-segments-spell-carries-over.json"
    done = _run("summary", str(path), "--html", str(out), "--round", "2")
    assert done.returncode == 0, done.stderr
    html = out.read_text(encoding="utf-8")
    assert "round 2 of 2" in html and "— Round 2</h1>" in html and "Surprise seg." not in html


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{not json", "not valid JSON"),
        (json.dumps({"system": "side-d6", "combatants": [{"id": "x"}]}), "combatants[0].side"),
        (json.dumps({"system": "chess", "combatants": [{"id": "x", "side": "a"}]}), "chess"),
    ],
)
def test_cli_summary_bad_file_one_line(tmp_path: Path, content: str, expected: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    done = _run("summary", str(bad), "--html", str(tmp_path / "o.html"))
    assert done.returncode == 2
    assert expected in done.stderr and "bad.json" in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_cli_summary_bad_round() -> None:
    done = _run("summary", str(SCENARIOS / "side-d6/halvaine-example.json"), "--round", "9")
    assert done.returncode == 2 and "--round" in done.stderr and "Traceback" not in done.stderr


def _round_states(document: dict[str, Any]) -> list[dict[str, str]]:
    scenario = parse_scenario(document)
    summary = build_summary(scenario, resolve_scenario(scenario))
    rows = [{r.name: r.status for r in rnd.states} for rnd in summary.rounds]
    return [*rows, {r.name: r.status for r in summary.final_states}]


def _two_rounds(**extra: Any) -> dict[str, Any]:
    """Pip (short sword) fells Hero in round 1; round 2 is quiet but for a miss."""
    blow = {"actor": "orc", "action": "attack", "target": "hero", "hit": True, "damage": 5}
    return {
        "format": "combatdesk/scenario-1",
        "system": "side-d6",
        "options": {"hp_rule": "adnd-minus-ten"},
        "combatants": [
            {"id": "hero", "name": "Hero", "side": "party", "hp": 3},
            {"id": "pip", "name": "Pip", "side": "party", "hp": 4,
             "weapons": [{"name": "short sword"}]},
            {"id": "orc", "name": "Orc", "side": "monsters", "hp": 6},
        ],
        "rounds": [
            {"initiative": {"party": 2, "monsters": 5}, "declarations": [
                blow, {"actor": "pip", "action": "attack", "target": "orc", "hit": False}]},
            {"initiative": {"party": 2, "monsters": 5}, "declarations": [
                {"actor": "pip", "action": "attack", "target": "orc", "hit": False}]},
        ],
        **extra,
    }


def test_one_word_for_a_fallen_combatant_in_every_round() -> None:
    """Rounds 1–2 said "down (0 hp or less)" and the end "unconscious": one word now."""
    states = _round_states(_two_rounds())
    assert [s["Hero"] for s in states] == ["unconscious", "unconscious", "unconscious"]


def test_a_running_condition_is_shown_beside_the_status() -> None:
    """The sleeping orc read "active" in the hit points and status table."""
    states = _round_states(
        json.loads((SCENARIOS / "side-d6/sleep-keeps-a-creature-from-acting.json").read_text()))
    assert [s["Orc 1"] for s in states] == ["active, asleep", "active", "active", "active"]


def test_the_default_weapon_is_named_in_the_hits_table() -> None:
    """Pip's blow named no weapon: the hits table said "With —"; it names his short sword."""
    scenario = parse_scenario(_two_rounds())
    summary = build_summary(scenario, resolve_scenario(scenario))
    pips = [h.means for rnd in summary.rounds for h in rnd.hits if h.actor == "Pip"]
    assert pips == ["short sword", "short sword"]


# --- issue 25: what the print says, as the screen says it ---------------------------------------


def test_a_bless_lasting_through_round_2_is_shown_running_in_round_2() -> None:
    """popcorn.end.effect-durations: a 1-round effect cast in round 1 is at Duration 0 in
    round 2 and still runs all through it ("It continues through the entire next Round");
    the round-2 summary (which the status column reads) shows it until it expires."""
    doc: dict[str, Any] = {
        "system": "popcorn",
        "combatants": [
            {"id": "ysolde", "name": "Sister Ysolde", "side": "party", "kind": "pc", "hp": 6},
            {"id": "orc", "name": "Orc", "side": "monsters", "kind": "monster", "hp": 6},
        ],
        "initiative": {"ysolde": 15, "orc": 5},
        "rounds": [
            {"turns": [
                {"actor": "ysolde", "action": "spell", "spell": "Bless", "target": "ysolde",
                 "effect": {"name": "Bless", "duration": 1}, "nominates": "orc"},
                {"actor": "orc", "action": "other", "nominates": "ysolde"}]},
            {"turns": [{"actor": "ysolde", "action": "other", "nominates": "orc"}]},
        ],
    }
    scenario = parse_scenario(doc)
    summary = build_summary(scenario, resolve_scenario(scenario))
    assert [(e.name, e.remaining) for e in summary.rounds[-1].effects] == [
        ("Bless", "ends at the end of this round")]
    doc["rounds"][1]["turns"].append({"actor": "orc", "action": "other", "nominates": "orc"})
    scenario = parse_scenario(doc)
    ended = build_summary(scenario, resolve_scenario(scenario))
    assert ended.rounds[-1].effects == ()  # its expiry step came at that End of Round


def test_a_round_with_dice_but_no_step_does_not_say_nothing_happened() -> None:
    """Issue 25, point 6: an addict round whose initiative was rolled but in which no one
    declared prints what the screen shows (words.quiet_round_words), dice included."""
    doc = {"system": "addict",
           "combatants": [{"id": "f", "name": "Fighter", "side": "party", "hp": 8},
                          {"id": "o", "name": "Orc", "side": "monsters", "hp": 5}],
           "rounds": [{"initiative": {"party": 3, "monsters": 5}, "declarations": []}]}
    scenario = parse_scenario(doc)
    html = render_html(build_summary(scenario, resolve_scenario(scenario)))
    assert "Nothing happens" not in html
    assert ("No one acted in this round: no action was declared. Its dice were rolled: "
            "initiative party: 3; initiative monsters: 5.") in html


def test_a_time_unit_d10_the_app_rolled_prints_as_rolled() -> None:
    """Issue 25, point 6: the app asks for "initiative bolog (melee, 2nd action)" and the
    engine reads "initiative bolog (actions[1])" back as given; the appendix must still say
    the app rolled it, and a typed-in die stays typed in."""
    from core.model.values import Roll

    doc = {"system": "time-units",
           "combatants": [{"id": "bolog", "name": "Bolog", "side": "party", "hp": 8},
                          {"id": "orc", "name": "Orc", "side": "monsters", "hp": 5}],
           "actions": [{"actor": "bolog", "action": "melee", "target": "orc", "roll": 7},
                       {"actor": "bolog", "action": "melee", "target": "orc", "roll": 4},
                       {"actor": "orc", "action": "melee", "target": "bolog", "roll": 4}]}
    scenario = parse_scenario(doc)
    recorded = [Roll("1d10", 7, dice=(7,), purpose="initiative bolog (melee)"),
                Roll("1d10", 4, dice=(4,), purpose="initiative bolog (melee, 2nd action)"),
                Roll("1d10", 4, manual=True, purpose="initiative orc (melee)")]
    summary = build_summary(scenario, resolve_scenario(scenario), recorded_rolls=recorded)
    rows = {r.purpose: r.manual for rnd in summary.rounds for r in rnd.rolls}
    rows.update({r.purpose: r.manual for r in summary.encounter_rolls})
    assert rows == {"initiative Bolog (1st action)": False,
                    "initiative Bolog (2nd action)": False,
                    "initiative Orc": True}, rows


def test_addict_print_names_a_spell_area_and_every_target() -> None:
    """A spell cast at an area (Slow at "the ghouls") printed "—" as its target (issue 27)."""
    html = _html("addict/source-fn18-caster-die-five.json")
    assert "<td>mage-6</td><td>D (missile or spell)</td><td>area: the ghouls</td>" in html
    assert "<td>mage-5</td><td>D (missile or spell)</td><td>area: the north door</td>" in html
    html = _html("addict/volley-split-and-area.json")
    assert ("<td>mage</td><td>D (missile or spell)</td><td>kobold-2, kobold-3, kobold-4 "
            "(area: cone)</td>") in html
    assert "<td>elf</td><td>D (missile or spell)</td><td>kobold-1, kobold-2</td>" in html


def test_an_effect_cast_at_an_area_prints_the_area_where_its_target_goes() -> None:
    """Slow on "the ghouls" runs on no one creature: "On" reads the area, not "—"."""
    document = json.loads((SCENARIOS / "addict/source-fn18-caster-die-five.json").read_text(
        encoding="utf-8"))
    slow = next(d for d in document["rounds"][0]["declarations"] if d.get("spell") == "slow")
    slow["effect"] = {"name": "slow", "duration": 3}
    html = _render(document)
    effects = html[html.index("Effects running at the end of the round"):]
    assert "<td>slow</td><td>area: the ghouls</td>" in effects
