"""F1 help for the DM: opened at the phase shown or at the roster page, naming only controls
that exist, in words without ids; the quick-reference cards print on one page each."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QAbstractButton, QApplication

from core.model.resources import resource
from core.rules import find_system
from desktop.encounter.help_browser import (
    PAGES,
    control_keys,
    controls,
    page_html,
    phase_anchor,
    system_page,
)
from desktop.encounter.quickref import CARDS, print_card_pdf
from desktop.main_window import MainWindow
from tests.desktop.encounter.conftest import drop_card, fill_and_declare
from tests.desktop.table.conftest import LEAKS, action, visible_texts
from tests.desktop.table.help_helpers import new_encounter

SYSTEMS = ("addict", "side-d6", "popcorn", "time-units")
HELP = resource("help")


def _sources() -> dict[str, str]:
    files = [HELP / p for p, _t in PAGES] + list((HELP / "quickref").glob("*.html"))
    return {f.name if f.parent == HELP else f"quickref/{f.name}": f.read_text() for f in files}


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_f1_opens_at_every_phase_of_the_system(table: MainWindow, system_id: str) -> None:
    workspace = new_encounter(table, system_id)
    phases = find_system(system_id).phases()
    assert [p.id for p in workspace.stepper.phases] == [p.id for p in phases]
    for index, phase in enumerate(phases):
        workspace.stepper.go_to_phase(index)
        QApplication.processEvents()
        action(table, "Combat Desk Help").trigger()  # what F1 triggers
        help_window = table.encounter_actions.help_window
        assert help_window is not None and help_window.isVisible()
        assert help_window.page == system_page(system_id)
        assert help_window.anchor == phase_anchor(phase)
        # The section's heading is the first line the DM reads.
        assert "what to do now" in help_window.top_text(), (phase.title, help_window.top_text())
        item = help_window.index.currentItem()
        assert item is not None and item.text(0) in help_window.top_text()
    _no_ids_in(table)


def test_f1_on_the_roster_tab_opens_the_roster_page(table: MainWindow) -> None:
    table.tabs.setCurrentIndex(0)
    help_action = action(table, "Combat Desk Help")
    assert help_action.isEnabled()  # no longer greyed out on the Roster tab
    assert "F1" in [k.toString() for k in help_action.shortcuts()]
    help_action.trigger()
    help_window = table.encounter_actions.help_window
    assert help_window is not None and help_window.page == "roster.html"
    assert help_window.top_text() == "The Roster tab"
    _no_ids_in(table)


def test_search_keeps_only_the_sections_that_mention_the_words(table: MainWindow) -> None:
    help_window = table.encounter_actions.help_current()
    help_window.search.setText("speed factor")
    shown = [help_window.index.topLevelItem(i).child(j).text(0)
             for i in range(help_window.index.topLevelItemCount())
             for j in range(help_window.index.topLevelItem(i).childCount())
             if not help_window.index.topLevelItem(i).child(j).isHidden()]
    assert shown and all(s for s in shown)
    assert "Phase 8: Action resolution" in shown
    assert "Phase 1: Reaction check" not in shown
    help_window.search.setText("")
    assert not help_window.index.topLevelItem(0).isHidden()


def _no_ids_in(table: MainWindow) -> None:
    """The help window itself shows no ids (the rest of the screen is other tests' business)."""
    help_window = table.encounter_actions.help_window
    assert help_window is not None
    texts = [t for _w, t in visible_texts(help_window)] + [help_window.browser.toPlainText()]
    assert not [t for t in texts if LEAKS.search(t)]


def _screen_texts(window: MainWindow) -> set[str]:
    texts = set()
    for where, text in visible_texts(window):
        if "row" in where or "tooltip" in where:  # list rows and hover texts are not controls
            continue
        clean = re.sub(r"<[^>]+>", "", text).replace("&&", "\0").replace("&", "")
        texts.add(clean.replace("\0", "&").strip())
    return texts


def _on_screen(name: str, texts: set[str]) -> bool:
    """A control's text, or a label starting with it ("TU clock: 12", "Combatants — drop…")."""
    return any(re.match(re.escape(name.rstrip("…")) + r"(\W|$)", text) for text in texts)


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_every_control_the_help_names_is_on_the_screen(table: MainWindow,
                                                       system_id: str) -> None:
    """The system's page and the general pages name controls a DM can find in the window."""
    roster_texts = _screen_texts(table)
    workspace = new_encounter(table, system_id)
    texts = set(roster_texts)
    # A declaration, so that the initiative dice show.
    lanes = getattr(workspace.board, "lanes", {})
    lane = "attack" if "attack" in lanes else "G" if "G" in lanes else None
    if lane is not None:
        orc = next(c for c in workspace.controller.state.combatants if c.startswith("orc"))
        foe = next(c for c in workspace.controller.state.combatants if not c.startswith("orc"))
        drop_card(workspace.board, lanes[lane].model, orc)
        fill_and_declare(workspace.board, target=foe)
    for index in range(len(workspace.stepper.phases)):  # some controls show in one phase only
        workspace.stepper.go_to_phase(index)
        QApplication.processEvents()
        texts |= _screen_texts(table)
    surprise = [b for b in workspace.findChildren(QAbstractButton)
                if b.text() == "Check &Surprise" and b.isVisibleTo(workspace)]
    if surprise:  # its dice rows bring their Roll buttons
        surprise[0].click()
        QApplication.processEvents()
        texts |= _screen_texts(table)
    pages = [system_page(system_id)] + [p for p, _t in PAGES if p not in
                                        {system_page(s) for s in SYSTEMS}]
    missing = {controls()[key] for page in pages
               for key in control_keys((HELP / page).read_text()) if
               not _on_screen(controls()[key], texts)}
    assert not missing, f"named in the help, not on the {system_id} screen: {sorted(missing)}"


def test_every_control_key_is_defined_and_marked_bold() -> None:
    for name, raw in _sources().items():
        for key in control_keys(raw):
            assert key in controls(), (name, key)
    assert '<b class="control">Next Phase</b>' in page_html("addict.html")


def test_help_text_has_no_ids_option_keys_or_json() -> None:
    leaks = re.compile(r"roster-\d+|template-\d+|orc-\d+|actions\[|\{'|\{\"|\bNone\b|"
                       r"\b[a-z]+_[a-z_]+\b")
    for name, raw in _sources().items():
        text = re.sub(r"<[^>]+>", " ", raw)
        found = leaks.findall(text)
        assert not found, (name, found)


def test_rule_links_come_last_in_each_section() -> None:
    """A section's rule ids sit in its closing paragraph, never in the middle of the text."""
    for page, _title in PAGES:
        for section in re.split(r"<h2>", page_html(page))[1:]:
            paragraphs = re.findall(r"<p[^>]*>.*?</p>", section, re.S)
            for p in paragraphs[:-1]:
                assert not re.search(r"\b[a-z0-9-]+\.[a-z-]+\.[a-z0-9.-]+\b", p), (page, p)


@pytest.mark.parametrize("system_id", [s for s, _t in CARDS])
def test_quick_reference_card_prints_on_one_page(qapp: Any, tmp_path: Path,
                                                  system_id: str) -> None:
    # qapp: a printer is a paint device, which Qt refuses (abort) before an application exists;
    # run first in its worker, this test had none.
    pdf = tmp_path / f"{system_id}.pdf"
    print_card_pdf(system_id, pdf)
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    assert re.search(r"^Pages:\s+1$", info.stdout, re.M), info.stdout
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    assert "quick reference" in text and "Ties" in text


def test_help_menu_offers_the_cards(table: MainWindow) -> None:
    for _system_id, title in CARDS:
        assert action(table, title).isEnabled()


def test_every_menu_path_in_the_help_is_the_real_menu(table: MainWindow) -> None:
    """The roster page said Campaign › Back up… while Back up… is in the File menu."""

    def clean(text: str) -> str:
        return text.replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip("…").strip()

    menus = {clean(a.text()): a.menu() for a in table.menuBar().actions() if a.menu()}
    for menu in menus.values():
        menu.aboutToShow.emit()  # menus filled on opening
    paths = 0
    for name, raw in _sources().items():
        text = re.sub(r"\s+", " ", raw)
        for menu_name, key in re.findall(r"\b([A-Z][a-z]+) › \[\[([a-z-]+)\]\]", text):
            paths += 1
            assert menu_name in menus, (name, menu_name)
            items = {clean(a.text()) for a in menus[menu_name].actions()}
            items |= {clean(a.text()) for a in menus[menu_name].actions() if a.menu()}
            assert clean(controls()[key]) in items, (name, f"{menu_name} › {controls()[key]}")
    assert paths >= 5


def test_the_help_names_no_tab_that_is_not_there(table: MainWindow) -> None:
    """ADDICT phase 5 said "use the Opening tab of the board": Opening is a morale button."""
    tabs = {table.tabs.tabText(i).replace("&", "") for i in range(table.tabs.count())}
    for name, raw in _sources().items():
        for key in re.findall(r"\[\[([a-z-]+)\]\] tab\b", raw):
            assert controls()[key] in tabs, (name, controls()[key])
