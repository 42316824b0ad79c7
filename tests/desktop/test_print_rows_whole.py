"""No table row is cut by a page end (issue 24), in the PDF and the print preview alike (both
print through ``desktop.printing.print_document``), for every system's summary and the
quick-reference cards.

Qt's own pagination cut a row whose cells wrap line by line: its first lines at the foot of one
page, the rest under the repeated header on the next, the DM reading half a row twice over.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QApplication

from core.cli.commands import load_scenario, resolve_scenario
from core.printout.html import render_html
from core.printout.summary import build_summary
from desktop.encounter.quickref import CARDS, card_document
from desktop.page_breaks import Page, cut_rows, page_plan, pieces, row_text
from desktop.printing import export_pdf, summary_document

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
TEXT_WIDTH = 680.0  # A4 and Letter with 15 mm margins, in document pixels
PAGE_HEIGHTS = (250.0, 420.0, 700.0, 1010.0)  # short pages cut tables often; A4 is ~1010

needs_pdftotext = pytest.mark.skipif(shutil.which("pdftotext") is None,
                                     reason="needs poppler-utils")


def _pages(pdf: Path) -> list[str]:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    count = int(re.search(r"Pages:\s+(\d+)", info.stdout).group(1))  # type: ignore[union-attr]
    return [subprocess.run(["pdftotext", "-layout", "-f", str(n), "-l", str(n), str(pdf), "-"],
                           capture_output=True, text=True, check=True).stdout
            for n in range(1, count + 1)]


def _fight(per_side: int) -> dict[str, Any]:
    """A side-d6 round of ``per_side`` blows each way: every row of its order of play wraps."""
    party = [{"id": f"pc-{i}", "name": f"Hero of the Vale {i}", "side": "party", "hp": 60}
             for i in range(per_side)]
    foes = [{"id": f"orc-{i}", "name": f"Orc of the Red Hand {i}", "side": "monsters", "hp": 60}
            for i in range(per_side)]
    blows = [{"actor": f"pc-{i}", "action": "attack", "target": f"orc-{i}", "hit": i % 3 != 0,
              "damage": 4} for i in range(per_side)]
    blows += [{"actor": f"orc-{i}", "action": "attack", "target": f"pc-{i}", "hit": i % 2 == 0,
               "damage": 3} for i in range(per_side)]
    return {"format": "combatdesk/scenario-1", "system": "side-d6", "seed": 40,
            "combatants": [*party, *foes],
            "rounds": [{"initiative": {"party": 2, "monsters": 5}, "declarations": blows}]}


def _summary_html(scenario_file: Path) -> str:
    scenario = load_scenario(scenario_file)
    return render_html(build_summary(scenario, resolve_scenario(scenario)))


@needs_pdftotext
def test_wrapping_rows_print_whole_on_one_page(qapp: QApplication, tmp_path: Path) -> None:
    """Rows of one to ten lines in a table many pages long: each row's first and last words
    are on the same page, and its label is printed once."""
    rows = "".join(
        f"<tr><td>Row {i}</td><td>begin{i} {'word ' * (3 + (i * 37) % 90)}end{i}</td>"
        f"<td>note</td></tr>"
        for i in range(120))
    html = ("<h2>Long table</h2><table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" "
            "width=\"100%\"><thead><tr><th>Label</th><th>Text</th><th>Note</th></tr></thead>"
            f"<tbody>{rows}</tbody></table><h3>After it</h3><p>The end.</p>")
    pdf = tmp_path / "rows.pdf"
    export_pdf(html, pdf)
    pages = _pages(pdf)
    assert len(pages) > 5
    for i in range(120):
        begins = [n for n, text in enumerate(pages, 1) if re.search(rf"\bbegin{i}\b", text)]
        ends = [n for n, text in enumerate(pages, 1) if re.search(rf"\bend{i}\b", text)]
        labels = [n for n, text in enumerate(pages, 1)
                  for _ in re.finditer(rf"\bRow {i}\b", text)]
        assert begins == ends == labels and len(labels) == 1, (i, begins, ends, labels)
    for text in pages[1:]:  # each page goes on with the header, then a whole row
        lines = [line.split()[0] for line in text.splitlines() if line.strip()]
        assert lines[:2] == ["Label", "Row"] or "After" in lines[:2] or lines[0] == "Long", lines


@needs_pdftotext
def test_order_of_play_pages_start_with_a_whole_row(qapp: QApplication,
                                                    tmp_path: Path) -> None:
    """A 60-a-side round (every row two lines): each page of the order of play goes on with
    the header and a row's "Segment" label, never with the second line of a row."""
    scenario_file = tmp_path / "fight.json"
    scenario_file.write_text(json.dumps(_fight(60)), encoding="utf-8")
    pdf = tmp_path / "fight.pdf"
    export_pdf(_summary_html(scenario_file), pdf)
    pages = _pages(pdf)
    continued = 0
    for text in pages[1:]:  # the order of play starts on page 1
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        if any(line.startswith("When") and "What happens" in line for line in lines):
            continued += 1
            # Qt printed the cut row's last lines above the repeated header
            assert lines[0].startswith("When") and "What happens" in lines[0], lines[:3]
            assert lines[1].startswith("Segment"), lines[:3]
    assert continued >= 2
    whole = " ".join(" ".join(text.split()) for text in pages)
    for i in range(60):  # and no row went missing at a cut
        assert f"Hero of the Vale {i} hits Orc of the Red Hand {i}" in whole or \
            f"Hero of the Vale {i} misses Orc of the Red Hand {i}" in whole, i


def _plans(document: Any) -> list[list[Page]]:
    document.setTextWidth(TEXT_WIDTH)
    return [page_plan(document, height) for height in PAGE_HEIGHTS]


def _largest_scenarios(system: str, count: int = 2) -> list[Path]:
    files = [f for f in (SCENARIOS / system).glob("*.json") if ".expected." not in f.name]
    return sorted(files, key=lambda f: f.stat().st_size, reverse=True)[:count]


@pytest.mark.parametrize(
    "scenario_file",
    [f for system in ("addict", "side-d6", "popcorn", "time-units")
     for f in _largest_scenarios(system)],
    ids=lambda f: f"{f.parent.name}/{f.stem}")
def test_every_system_summary_is_cut_between_rows(qapp: QApplication,
                                                  scenario_file: Path) -> None:
    document = summary_document(_summary_html(scenario_file))
    for height, plan in zip(PAGE_HEIGHTS, _plans(document), strict=True):
        assert cut_rows(document, plan) == [], height
        assert all(page.bottom - page.top + page.body_at <= height for page in plan), height
    # not vacuous: on short pages some table goes on from one page to the next
    assert any(page.header is not None for page in page_plan(document, PAGE_HEIGHTS[0]))


@pytest.mark.parametrize("system_id", [s for s, _t in CARDS])
def test_quick_reference_cards_are_cut_between_rows(qapp: QApplication,
                                                    system_id: str) -> None:
    document = card_document(system_id)
    for height, plan in zip(PAGE_HEIGHTS, _plans(document), strict=True):
        assert cut_rows(document, plan) == [], height


def test_a_heading_never_ends_a_page(qapp: QApplication, tmp_path: Path) -> None:
    """Each heading shares its page with the line or the first table row after it."""
    scenario_file = tmp_path / "fight.json"
    scenario_file.write_text(json.dumps(_fight(12)), encoding="utf-8")
    document = summary_document(_summary_html(scenario_file))
    layout = document.documentLayout()
    headings = 0
    for height, plan in zip(PAGE_HEIGHTS, _plans(document), strict=True):
        block = document.begin()
        while block.isValid():
            if block.blockFormat().headingLevel() > 0:
                headings += 1
                top = layout.blockBoundingRect(block).top()
                page = next(p for p in plan if p.top <= top < p.bottom)
                following = block.next()
                table = QTextCursor(following).currentTable()
                if table is not None:  # the first row under the table's header
                    after = row_text(layout, table, table.format().headerRowCount())
                else:
                    line = following.layout().lineAt(0)
                    after_top = layout.blockBoundingRect(following).top() + line.y()
                    after = (after_top, after_top + line.height())
                # what is taller than a page (a big fight's timeline) starts on it at least
                taller = after[1] - top > height
                assert after[1] <= page.bottom or (taller and after[0] < page.bottom), (
                    block.text(), page)
            block = block.next()
    assert headings > 10


@needs_pdftotext
def test_the_preview_shows_the_pages_the_pdf_gets(qapp: QApplication, tmp_path: Path) -> None:
    """The print preview paints through print_document too: the same pages as the PDF."""
    from PySide6.QtPrintSupport import QPrintPreviewWidget

    from desktop.printing import make_printer, print_document

    scenario_file = tmp_path / "fight.json"
    scenario_file.write_text(json.dumps(_fight(30)), encoding="utf-8")
    html = _summary_html(scenario_file)
    pdf = tmp_path / "fight.pdf"
    export_pdf(html, pdf)
    printer = make_printer("a4")
    preview = QPrintPreviewWidget(printer)
    document = summary_document(html)
    printed: list[int] = []
    preview.paintRequested.connect(lambda p: printed.append(print_document(document, p)))
    preview.updatePreview()
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    pages = int(re.search(r"Pages:\s+(\d+)", info.stdout).group(1))  # type: ignore[union-attr]
    assert printed == [pages] and preview.pageCount() == pages > 2
    preview.deleteLater()


@needs_pdftotext
def test_pages_chosen_in_the_print_dialog_are_the_ones_printed(qapp: QApplication,
                                                               tmp_path: Path) -> None:
    from desktop.printing import make_printer, print_document

    html = _summary_html(SCENARIOS / "addict/bleeding-and-death.json")
    whole, part = tmp_path / "whole.pdf", tmp_path / "part.pdf"
    export_pdf(html, whole)
    printer = make_printer("a4", part)
    printer.setFromTo(2, 3)
    assert print_document(summary_document(html), printer) == 3
    assert _pages(part) == _pages(whole)[1:3]


@pytest.mark.parametrize("per_side", [30, 60])
def test_a_table_header_is_repeated_only_above_its_own_rows(qapp: QApplication, tmp_path: Path,
                                                           per_side: int) -> None:
    """A timeline picture cut across pages after the order of play got the order of play's
    header on each of its pages."""
    scenario_file = tmp_path / "fight.json"
    scenario_file.write_text(json.dumps(_fight(per_side)), encoding="utf-8")
    document = summary_document(_summary_html(scenario_file))
    for plan in _plans(document):
        rows = [piece for piece in pieces(document) if piece.header is not None]
        for page in plan:
            if page.header is not None:
                assert any(row.header == page.header and page.top <= row.top < page.bottom
                           for row in rows), page
