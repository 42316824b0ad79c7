"""The printout reads like a DM's notes: names, words, no orphaned headings (one fight a system).

Each fight is a sample scenario whose combatants get roster-style ids (``roster-3``) and real
names, as encounters started from the roster have. The HTML and the PDF (the real print path,
read back page by page with pdftotext) must show neither ids nor Python values nor option keys
outside the appendix, and no page may end with a heading.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import unicodedata
from dataclasses import fields
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication

from core.cli.commands import resolve_scenario
from core.model.scenario import Scenario, parse_scenario
from core.model.values import Roll
from core.printout.html import render_html
from core.printout.summary import build_summary
from core.rules import find_system
from desktop.printing import PrintChoiceDialog, export_pdf

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"
FIGHTS = {
    "addict": ("addict/source-phase4-footmen-and-dragon.json", {"death_at": -5}),
    "side-d6": ("side-d6/surprise-spell-begins-then-round.json", {}),
    "popcorn": ("popcorn/effect-duration-zero.json", {}),
    "time-units": ("time-units/fighters-several-attacks.json", {}),
}
IDS_AND_PYTHON = re.compile(r"roster-\d|actions\[|turns\[|declarations\[|\{'|\bNone\b|\bTrue\b")

needs_poppler = pytest.mark.skipif(
    shutil.which("pdftotext") is None, reason="pdftotext (poppler-utils) is not installed"
)


def _named(system: str) -> Scenario:
    """Gets the system's fight with roster ids and names, as the app's encounters have."""
    path, options = FIGHTS[system]
    text = (SCENARIOS / path).read_text(encoding="utf-8")
    document: dict[str, Any] = json.loads(text)
    for number, combatant in enumerate(document["combatants"], start=1):
        old = combatant["id"]
        text = re.sub(rf'"{re.escape(old)}"', f'"roster-{number}"', text)
    document = json.loads(text)
    for number, combatant in enumerate(document["combatants"], start=1):
        old = json.loads((SCENARIOS / path).read_text())["combatants"][number - 1]["id"]
        combatant["name"] = old.replace("-", " ").title() + " the Named"
    document["options"] = {**document.get("options", {}), **options}
    document.pop("title", None)
    return parse_scenario(document)


def _visible(html: str) -> str:
    html = re.sub(r"<style>.*?</style>|<title>.*?</title>|<!--.*?-->", "", html, flags=re.S)
    return unescape(re.sub(r"<[^>]+>", " ", html))


def _headings(html: str) -> list[str]:
    found = re.findall(r"<h[1-3][^>]*>(.*?)</h[1-3]>", html, flags=re.S)
    return [re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", "", h))).strip() for h in found]


def _option_keys(system: str) -> list[str]:
    return [f.name for f in fields(find_system(system).options_type) if "_" in f.name]


def _pages(pdf: Path) -> list[str]:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    count = int(re.search(r"Pages:\s+(\d+)", info.stdout).group(1))  # type: ignore[union-attr]
    pages = []
    for page in range(1, count + 1):
        done = subprocess.run(
            ["pdftotext", "-layout", "-f", str(page), "-l", str(page), str(pdf), "-"],
            capture_output=True, text=True, check=True, timeout=60,
        )
        pages.append(unicodedata.normalize("NFKC", done.stdout))
    return pages


def _check_words(system: str, html: str, text: str) -> None:
    leak = IDS_AND_PYTHON.search(text)
    assert leak is None, f"{system}: {text[max(0, leak.start() - 80):leak.end() + 40]!r}"
    before_appendix = text.split("Appendix: rules and dice")[0]
    for key in _option_keys(system):
        assert key not in before_appendix, f"{system}: option key {key} outside the appendix"
    assert "the Named" in text


@pytest.mark.parametrize("system", sorted(FIGHTS))
def test_html_has_names_words_and_the_order_of_play_first(system: str) -> None:
    scenario = _named(system)
    summary = build_summary(
        scenario, resolve_scenario(scenario), campaign="The Keep", encounter="Kobold cave"
    )
    html = render_html(summary)
    text = _visible(html)
    _check_words(system, html, text)
    headings = _headings(html)
    assert headings[0].startswith("The Keep — Kobold cave")
    assert find_system(system).title not in headings[0]
    first_round = headings.index(next(h for h in headings if h.startswith("Round ")))
    assert headings[first_round + 1] == "Order of play"
    assert headings[-1] != "Options" or "Appendix: rules and dice" in headings
    no_appendix = _visible(render_html(summary, appendix=False))
    assert "Appendix" not in no_appendix and not re.search(r"\b[a-z]+\.[a-z-]+\.[a-z-]+", (
        no_appendix)), "rule ids only in the appendix"


def test_house_rules_print_in_words_on_the_first_page() -> None:
    scenario = _named("addict")
    text = _visible(render_html(build_summary(scenario, resolve_scenario(scenario))))
    assert "House rules in play" in text and "Death at: -5 (the source: -10" in text
    side = _named("side-d6")
    assert "House rules" not in _visible(render_html(build_summary(side, resolve_scenario(side))))


def test_a_running_fight_prints_no_end_and_rounds_carry_their_numbers() -> None:
    scenario = _named("addict")
    resolution = resolve_scenario(scenario)
    running = render_html(build_summary(scenario, resolution, running=True))
    assert "End of the encounter" not in running
    ended = render_html(build_summary(scenario, resolution))
    assert "End of the encounter" in ended
    some = build_summary(scenario, resolution, 2, last_round=3, encounter="Cave")
    assert [r.number for r in some.rounds] == [2, 3] and some.title == "Cave — Rounds 2–3"
    assert "End of the encounter" not in render_html(build_summary(scenario, resolution, 2))


def test_a_die_the_app_rolled_prints_as_rolled() -> None:
    scenario = _named("side-d6")
    resolution = resolve_scenario(scenario)
    first = resolution.rolls[0]
    assert first.manual  # the engine reads every die back from the scenario as given
    app = Roll(first.expression, first.total, manual=False, purpose=first.purpose)
    summary = build_summary(scenario, resolution, recorded_rolls=[app])
    rows = [*summary.encounter_rolls, *(r for rnd in summary.rounds for r in rnd.rolls)]
    assert [r.manual for r in rows].count(False) == 1
    assert "rolled by the app" in render_html(summary)


def test_spell_lost_never_reads_round_none() -> None:
    scenario = _named("time-units")
    html = render_html(build_summary(scenario, resolve_scenario(scenario)))
    assert "round None" not in html and "(round )" not in html


@needs_poppler
@pytest.mark.parametrize("system", sorted(FIGHTS))
def test_pdf_pages_have_no_ids_and_no_heading_at_a_page_foot(
    system: str, qapp: QApplication, tmp_path: Path
) -> None:
    scenario = _named(system)
    html = render_html(
        build_summary(
            scenario, resolve_scenario(scenario), campaign="The Keep on the Borderlands",
            encounter="Caves of Chaos",
        )
    )
    headings = set(_headings(html))
    for page_size in ("a4", "letter"):
        pdf = tmp_path / f"{system}-{page_size}.pdf"
        export_pdf(html, pdf, page_size)
        pages = _pages(pdf)
        text = re.sub(r"\s+", " ", " ".join(pages))
        _check_words(system, html, text)
        missing = [h for h in headings if h not in text]
        assert not missing, f"{system} {page_size}: headings not printed: {missing}"
        for number, page in enumerate(pages, start=1):
            lines = [re.sub(r"\s+", " ", line).strip() for line in page.splitlines()]
            lines = [line for line in lines if line]
            assert lines, f"{system} {page_size}: page {number} is empty"
            assert lines[-1] not in headings, (
                f"{system} {page_size}: page {number} ends with the heading {lines[-1]!r}"
            )


def test_print_dialog_offers_this_round_some_rounds_or_all(qapp: QApplication) -> None:
    dialog = PrintChoiceDialog(3, 4)
    assert dialog.this_round.isChecked()
    assert (dialog.choice().first, dialog.choice().last) == (3, 3)
    dialog.first.setValue(2)
    assert dialog.some_rounds.isChecked()
    assert (dialog.choice().first, dialog.choice().last) == (2, 4)
    dialog.last.setValue(1)  # the range stays a range
    assert (dialog.choice().first, dialog.choice().last) == (1, 1)
    dialog.whole.setChecked(True)
    dialog.appendix.setChecked(False)
    dialog.paper.setCurrentIndex(1)
    choice = dialog.choice()
    assert (choice.first, choice.last, choice.appendix, choice.page) == (1, 4, False, "letter")
