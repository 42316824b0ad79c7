"""F1: the DM's help (``resources/help/``), with an index, a search field, opened at a phase.

The pages are HTML in our own words. ``[[key]]`` in a page names a control of the screen; its
text comes from ``resources/help/controls.txt`` (one place to edit when a button is renamed)
and is shown bold. Each phase of a system has an anchor ``phase-<phase id>``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from PySide6.QtCore import Qt, QUrl
from PySide6.QtWidgets import (
    QDialog,
    QLineEdit,
    QSplitter,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.model.resources import resource
from core.rules import Phase

# The pages in the order of the index: (file, title).
PAGES = (
    ("start.html", "Getting started"),
    ("addict.html", "ADDICT (AD&D 1e side initiative)"),
    ("side-d6.html", "Side initiative on d6"),
    ("popcorn.html", "Popcorn initiative (OSE)"),
    ("time-units.html", "Time-unit combat"),
    ("roster.html", "The Roster tab"),
    ("import-export.html", "Importing and exporting"),
    ("ending.html", "Ending an encounter"),
    ("printing.html", "Printing"),
    ("players.html", "The players' screen (TV)"),
)
ROSTER_PAGE = "roster.html"
_CONTROL = re.compile(r"\[\[([a-z0-9-]+)\]\]")
_HEADING = re.compile(r'<h2><a name="([^"]+)"></a>(.*?)</h2>', re.S)
_TAGS = re.compile(r"<[^>]+>")


def help_dir() -> str:
    return str(resource("help"))


@cache
def controls() -> dict[str, str]:
    """Gets the control texts by key from ``controls.txt`` (``key = Text`` a line)."""
    found: dict[str, str] = {}
    for line in resource("help/controls.txt").read_text(encoding="utf-8").splitlines():
        if "=" in line and not line.lstrip().startswith("#"):
            key, text = line.split("=", 1)
            found[key.strip()] = text.strip()
    return found


def control_keys(raw: str) -> list[str]:
    """Gets the control keys a page source names, in order."""
    return _CONTROL.findall(raw)


def expand(raw: str) -> str:
    """Turns ``[[key]]`` into the control's text, bold."""
    names = controls()
    return _CONTROL.sub(lambda m: f'<b class="control">{names[m.group(1)]}</b>', raw)


@cache
def page_html(name: str) -> str:
    return expand(resource(f"help/{name}").read_text(encoding="utf-8"))


def phase_anchor(phase: Phase) -> str:
    """Gets the anchor of a phase's "What to do now" section (``phase-addict-phase-6``)."""
    return "phase-" + re.sub(r"[^a-z0-9]+", "-", phase.id.lower()).strip("-")


def system_page(system_id: str) -> str:
    return f"{system_id}.html"


@dataclass(frozen=True)
class Section:
    page: str
    anchor: str
    title: str
    text: str  # plain text, for the search


@cache
def sections() -> tuple[Section, ...]:
    """Gets every section (an ``<h2>`` with an anchor) of every page, in index order."""
    found = []
    for page, _title in PAGES:
        html = page_html(page)
        heads = list(_HEADING.finditer(html))
        for i, head in enumerate(heads):
            end = heads[i + 1].start() if i + 1 < len(heads) else len(html)
            text = _TAGS.sub(" ", html[head.end():end])
            title = _TAGS.sub("", head.group(2)).replace("— what to do now", "").strip()
            found.append(Section(page, head.group(1), title, text))
    return tuple(found)


class HelpWindow(QDialog):
    """Combat Desk Help: the index and search on the left, the page on the right."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("combatDeskHelp")
        self.setWindowTitle("Combat Desk Help")
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search the help")
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._filter)
        self.index = QTreeWidget()
        self.index.setHeaderHidden(True)
        self.index.itemActivated.connect(self._open_item)
        self.index.itemClicked.connect(self._open_item)
        self.browser = QTextBrowser()
        self.browser.setOpenLinks(False)  # links between pages go through open_page
        self.browser.anchorClicked.connect(self._follow)
        self.browser.setSearchPaths([help_dir()])
        self.browser.document().setDefaultStyleSheet(
            "b.control { color: #1a4f8b; } p.rules { color: #555; font-size: small; }")
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.search)
        left_layout.addWidget(self.index)
        splitter = QSplitter()
        splitter.addWidget(left)
        splitter.addWidget(self.browser)
        splitter.setSizes([260, 700])
        layout = QVBoxLayout(self)
        layout.addWidget(splitter)
        self.resize(1000, 660)
        self._fill_index()
        self.open_page("start.html")

    def _fill_index(self) -> None:
        titles = dict(PAGES)
        pages: dict[str, QTreeWidgetItem] = {}
        for section in sections():
            parent = pages.get(section.page)
            if parent is None:
                parent = QTreeWidgetItem(self.index, [titles[section.page]])
                parent.setData(0, 256, (section.page, ""))
                pages[section.page] = parent
            item = QTreeWidgetItem(parent, [section.title])
            item.setData(0, 256, (section.page, section.anchor))

    def _filter(self, query: str) -> None:
        """Shows only the sections whose title or text holds every word typed."""
        words = query.lower().split()
        by_key = {(s.page, s.anchor): s for s in sections()}
        for i in range(self.index.topLevelItemCount()):
            page = self.index.topLevelItem(i)
            shown = 0
            for j in range(page.childCount()):
                item = page.child(j)
                section = by_key[tuple(item.data(0, 256))]
                text = f"{section.title} {section.text}".lower()
                hide = not all(w in text for w in words)
                item.setHidden(hide)
                shown += not hide
            page.setHidden(shown == 0)
            page.setExpanded(bool(words))

    def _open_item(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        page, anchor = item.data(0, 256)
        self.open_page(page, anchor or None)

    def open_page(self, page: str, anchor: str | None = None) -> None:
        """Shows a page, scrolled to the section ``anchor`` when given."""
        if getattr(self, "_page", None) != page:
            self.browser.setHtml(page_html(page))  # images resolve through the search path
        self._page = page
        self.anchor = anchor
        if anchor:
            # Room below the last section, so that any section can come to the top.
            root = self.browser.document().rootFrame()
            frame = root.frameFormat()
            frame.setBottomMargin(max(200, self.browser.viewport().height()))
            root.setFrameFormat(frame)
            self.browser.scrollToAnchor(anchor)
        else:
            self.browser.verticalScrollBar().setValue(0)
        flags = Qt.MatchFlag.MatchWildcard | Qt.MatchFlag.MatchRecursive
        for item in self.index.findItems("*", flags, 0):
            if tuple(item.data(0, 256)) == (page, anchor or ""):
                self.index.setCurrentItem(item)

    def _follow(self, url: QUrl) -> None:
        page = url.fileName() or self._page
        if page in dict(PAGES):
            self.open_page(page, url.fragment() or None)

    @property
    def page(self) -> str:
        return self._page

    def show_phase(self, system_id: str, phase: Phase) -> None:
        self.open_page(system_page(system_id), phase_anchor(phase))

    def top_text(self) -> str:
        """Gets the text of the first line shown at the top of the page (what the DM reads)."""
        cursor = self.browser.cursorForPosition(self.browser.viewport().rect().topLeft())
        return cursor.block().text()

