"""The timeline picture keeps every letter in the print preview and the PDF.

It was printed as a 3× raster image: the preview at 93 % drew the page shrunk without
smoothing and thin strokes fell between the pixels it kept ("Halva ne the Arcane", "spe l
takes effect"). It is now drawn from its SVG: its words are text on the page, whole at any
zoom, and a PDF reader finds them.
"""

from __future__ import annotations

import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication

from core.cli.commands import load_scenario, resolve_scenario
from core.printout.html import render_html
from core.printout.summary import build_summary
from desktop.printing import export_pdf, summary_document
from desktop.svg_picture import SVG_OBJECT

SCENARIO = Path(__file__).resolve().parents[1] / "scenarios/side-d6/halvaine-example.json"


def _html() -> str:
    scenario = load_scenario(SCENARIO)
    return render_html(build_summary(scenario, resolve_scenario(scenario)))


def _objects(document: QTextDocument) -> tuple[int, int]:
    """Gets (pictures drawn from SVG, raster images) laid out in the document."""
    vectors = images = 0
    block = document.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fmt = it.fragment().charFormat()
            vectors += fmt.objectType() == SVG_OBJECT
            images += fmt.isImageFormat()
            it += 1
        block = block.next()
    return vectors, images


def test_the_timeline_is_drawn_from_its_svg_not_a_shrunk_raster(qapp: QApplication) -> None:
    document = summary_document(_html())
    assert _objects(document) == (1, 0)


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs pdftotext")
def test_the_pictures_words_are_text_in_the_pdf(qapp: QApplication, tmp_path: Path) -> None:
    pdf = tmp_path / "summary.pdf"
    export_pdf(_html(), pdf)
    text = unicodedata.normalize("NFKC", subprocess.run(  # "ﬀ" ligatures → "ff"
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
        check=True).stdout)
    legend = text[text.index("Timeline"):text.index("Hits and damage")]
    for words in ("Halvaine the Arcane", "begins casting", "spell takes effect", "segment"):
        assert words in legend, legend
