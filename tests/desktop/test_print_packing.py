"""The summary's pages are packed (issue 24): rounds follow one another and the appendix
follows the fight, instead of each starting a page (three short rounds made three near-empty
pages, the appendix a page holding three rows); a heading still never ends a page."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from core.cli.commands import load_scenario, resolve_scenario
from core.printout.html import render_html
from core.printout.summary import build_summary
from desktop.printing import export_pdf

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def _pages(pdf: Path) -> list[str]:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    count = int(re.search(r"Pages:\s+(\d+)", info.stdout).group(1))  # type: ignore[union-attr]
    return [subprocess.run(["pdftotext", "-layout", "-f", str(n), "-l", str(n), str(pdf), "-"],
                           capture_output=True, text=True, check=True).stdout
            for n in range(1, count + 1)]


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")
def test_three_short_rounds_and_the_appendix_share_pages(qapp: QApplication,
                                                         tmp_path: Path) -> None:
    scenario = load_scenario(SCENARIOS / "side-d6/sleep-keeps-a-creature-from-acting.json")
    html = render_html(build_summary(scenario, resolve_scenario(scenario)))
    assert "page-break-before" not in html
    pdf = tmp_path / "summary.pdf"
    export_pdf(html, pdf)
    pages = _pages(pdf)
    starts = [next((n for n, text in enumerate(pages) if heading in text), None)
              for heading in ("Round 1", "Round 2", "Round 3", "Appendix: rules and dice")]
    assert None not in starts, starts
    # Some round shares its page with the one before, and the appendix is not alone.
    assert len(set(starts)) < len(starts), starts
    for text in pages:  # no page ends on a heading
        last = [line.strip() for line in text.splitlines() if line.strip()][-1:]
        assert not last or not re.fullmatch(r"Round \d+.*|Order of play|Timeline", last[0]), last
