"""The round summary printed to PDF offscreen, read back with poppler's pdftotext."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from core.cli.commands import load_scenario, resolve_scenario
from core.printout.html import render_html
from core.printout.summary import build_summary
from desktop.printing import export_pdf, summary_document

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"

needs_pdftotext = pytest.mark.skipif(
    shutil.which("pdftotext") is None,
    reason="pdftotext (poppler-utils) is not installed: cannot read the PDF back",
)


def _pdf_text(pdf: Path) -> str:
    done = subprocess.run(
        ["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True, check=True, timeout=60
    )
    # NFKC undoes the fi/ff ligatures; tables wrap text, so compare with single spaces
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", done.stdout))


def _render(qapp: QApplication, scenario_file: Path, pdf: Path, page: str = "a4") -> str:
    scenario = load_scenario(scenario_file)
    html = render_html(build_summary(scenario, resolve_scenario(scenario)))
    export_pdf(html, pdf, page)
    return _pdf_text(pdf)


def _in_order(text: str, *parts: str) -> None:
    at = 0
    for part in parts:
        found = text.find(part, at)
        assert found >= 0, f"{part!r} not found after position {at} in: {text[at : at + 400]!r}"
        at = found + len(part)


@needs_pdftotext
def test_side_d6_halvaine_segments_4_5_6(qapp: QApplication, tmp_path: Path) -> None:
    text = _render(qapp, SCENARIOS / "side-d6/halvaine-example.json", tmp_path / "s.pdf")
    _in_order(
        text,
        "Order of play",
        "Segment 4",
        "Halvaine the Arcane",
        "begins casting sleep on orc-1",
        "Segment 5",
        "orc-1",
        "misses Halvaine the Arcane",
        "Segment 6",
        "Halvaine the Arcane",
        "sleep takes effect on orc-1",
    )
    assert "1 initiative party round 1 1d6 — 5 typed in from the table" in text
    assert "Spell goes off after casting time (as the source)" in text


@needs_pdftotext
def test_addict_hits_bleeding_and_death(qapp: QApplication, tmp_path: Path) -> None:
    text = _render(qapp, SCENARIOS / "addict/bleeding-and-death.json", tmp_path / "a.pdf")
    _in_order(
        text,
        "Order of play",
        "Segment 1",
        "guard",
        "hits gnoll-2 with spear for 14",
        "gnoll-2",
        "dies at -10 hp",
        "Segment 10",
        "squire",
        "bleeds, now at -10 hp",
        "End of the encounter",
        "squire party -10 / 8 dead",
    )
    assert "initiative party 1d6 — 6 typed in from the table" in text


@needs_pdftotext
def test_popcorn_turns_and_morale(qapp: QApplication, tmp_path: Path) -> None:
    text = _render(qapp, SCENARIOS / "popcorn/death-and-morale.json", tmp_path / "p.pdf")
    _in_order(
        text,
        "Order of play",
        "Turn 1",
        "hala",
        "hits goblin-1 for 3",
        "goblin-1",
        "dies at 0 hp",
        "Turn 2",
        "goblin-2",
        "hits hala for 2",
        "Turn 3",
        "hobgoblin",
        "misses hala",
        "End of round",
        "goblin-2",
        "checks morale: rolled 9 against 7, fails",
    )
    assert "initiative hala 1d20 14 14 typed in from the table" in text
    assert "goblin-2 monsters 3 / 3 fled" in text


@needs_pdftotext
def test_time_units_spell_lost_at_tu_14(qapp: QApplication, tmp_path: Path) -> None:
    text = _render(qapp, SCENARIOS / "time-units/bolog-hit-at-14.json", tmp_path / "t.pdf")
    _in_order(
        text,
        "Round 2 (TU 10–19)",
        "TU 14",
        "bolog",
        "begins casting magic missile on orc-1",
        "TU 14",
        "orc-1",
        "hits bolog for 2",
        "TU 14",
        "bolog",
        "magic missile is lost (disrupted)",
        "Round 3 (TU 20–29)",
        "TU 27",
        "bolog",
        "misses orc-2",
    )
    assert "bolog party 4 / 6 active" in text


def _page_size_pt(pdf: Path) -> tuple[float, float]:
    if shutil.which("pdfinfo"):
        info = subprocess.run(
            ["pdfinfo", str(pdf)], capture_output=True, text=True, check=True, timeout=60
        ).stdout
        found = re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", info)
        assert found, info
        return float(found.group(1)), float(found.group(2))
    box = re.search(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", pdf.read_bytes())
    assert box, "no MediaBox in the PDF"
    return float(box.group(1)), float(box.group(2))


@pytest.mark.parametrize(("page", "size"), [("a4", (595, 842)), ("letter", (612, 792))])
def test_page_sizes(qapp: QApplication, tmp_path: Path, page: str, size: tuple[int, int]) -> None:
    pdf = tmp_path / f"{page}.pdf"
    scenario = load_scenario(SCENARIOS / "side-d6/halvaine-example.json")
    export_pdf(render_html(build_summary(scenario, resolve_scenario(scenario))), pdf, page)
    width, height = _page_size_pt(pdf)
    assert (round(width), round(height)) == size


def test_pictures_become_document_resources(qapp: QApplication) -> None:
    scenario = load_scenario(SCENARIOS / "addict/surprise-segments-spell-carries-over.json")
    html = render_html(build_summary(scenario, resolve_scenario(scenario)))
    document = summary_document(html)
    assert "data:image" not in document.toHtml()
    from PySide6.QtCore import QUrl
    from PySide6.QtGui import QImage, QTextDocument

    image = document.resource(
        QTextDocument.ResourceType.ImageResource, QUrl("summary-picture-1.png")
    )
    assert isinstance(image, QImage) and image.width() > 1000  # rendered for print, not 1×1


@needs_pdftotext
def test_evil_name_prints_literally(qapp: QApplication, tmp_path: Path) -> None:
    evil = "<b>Orc</b><script>"
    document = {
        "format": "combatdesk/scenario-1",
        "system": "side-d6",
        "combatants": [
            {"id": "hero", "name": "Hero", "side": "party", "hp": 8},
            {"id": "orc", "name": evil, "side": "monsters", "hp": 5},
        ],
        "rounds": [
            {
                "initiative": {"party": 5, "monsters": 4},
                "declarations": [
                    {
                        "actor": "hero",
                        "action": "attack",
                        "target": "orc",
                        "hit": True,
                        "damage": 2,
                    },
                    {"actor": "orc", "action": "attack", "target": "hero", "hit": False},
                ],
            }
        ],
    }
    path = tmp_path / "evil.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    text = _render(qapp, path, tmp_path / "evil.pdf")
    assert f"hits {evil} for 2" in text
    _in_order(text, "Order of play", evil, "misses Hero")
    assert f"{evil} monsters 3 / 5 active" in text


def _app(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run(
        [sys.executable, "-m", "desktop", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@needs_pdftotext
def test_app_pdf_option(tmp_path: Path) -> None:
    out = tmp_path / "out.pdf"
    done = _app(
        "--pdf", str(out), str(SCENARIOS / "popcorn/death-and-morale.json"), "--page-size", "letter"
    )
    assert done.returncode == 0, done.stderr
    assert _page_size_pt(out) == (612, 792)
    assert "checks morale: rolled 9 against 7, fails" in _pdf_text(out)


def test_app_pdf_bad_scenario(tmp_path: Path) -> None:
    out = tmp_path / "out.pdf"
    done = _app("--pdf", str(out), str(SCENARIOS / "side-d6/refused-d6-of-seven.json"))
    assert done.returncode == 2
    assert "refused-d6-of-seven.json" in done.stderr and "initiative.party" in done.stderr
    assert "Traceback" not in done.stderr and not out.exists()
    missing = _app("--pdf", str(out), str(tmp_path / "nope.json"))
    assert missing.returncode == 2 and "nope.json: no such file" in missing.stderr


def test_a_printout_too_big_to_lay_out_is_refused_with_how_to_print_it(tmp_path: Path) -> None:
    """6,000 fighters in one round: the PDF is refused in words within seconds (Qt's layout
    would run for minutes), and the message says to print fewer rounds; nothing is written."""
    fighters = [{"id": f"c{i}", "name": f"Fighter {i}", "side": "party" if i % 2 else "monsters",
                 "hp": 8} for i in range(6000)]
    blows = [{"actor": f"c{i}", "action": "attack", "target": f"c{i + 1 if i % 2 == 0 else i - 1}"}
             for i in range(6000)]
    path = tmp_path / "huge.json"
    path.write_text(json.dumps({
        "format": "combatdesk/scenario-1", "system": "side-d6", "seed": 1,
        "combatants": fighters,
        "rounds": [{"initiative": {"party": 3, "monsters": 4}, "declarations": blows}]}))
    out = tmp_path / "huge.pdf"
    done = _app("--pdf", str(out), str(path))
    assert done.returncode == 2, done.stderr
    assert "at most 5,000 are printed at once" in done.stderr and "--round" in done.stderr
    assert "Traceback" not in done.stderr and not out.exists()



def test_app_pdf_with_a_lone_surrogate_in_a_name(tmp_path: Path) -> None:
    from tests.reliability.test_cli_limits import LONE_SURROGATE_SCENARIO

    scenario = tmp_path / "surrogate.json"
    scenario.write_text(LONE_SURROGATE_SCENARIO, encoding="utf-8")
    out = tmp_path / "out.pdf"
    done = _app("--pdf", str(out), str(scenario))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and out.stat().st_size > 0
    if shutil.which("pdftotext"):
        assert "Gob\ufffdlin" in _pdf_text(out)
