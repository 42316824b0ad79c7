"""F1: the system's procedure in our own words (docs/systems/<id>.md), opened at a phase."""

from __future__ import annotations

from PySide6.QtGui import QTextCursor, QTextDocument
from PySide6.QtWidgets import QDialog, QTextBrowser, QVBoxLayout, QWidget

from core.resources import docs_dir
from core.rules import Phase


def _search_terms(phase: Phase) -> list[str]:
    """Gets what to look for in the page, most precise first (``Phase 6``, the title…)."""
    title = phase.title
    terms = []
    if ":" in title:
        terms += [title.split(":")[0].strip(), title.split(":", 1)[1].strip()]
    terms.append(title.split("(")[0].strip())
    words = title.replace(":", " ").split()
    terms += [" ".join(words[:2]), words[0]] if words else []
    return [t for t in terms if t]


class ProcedureHelp(QDialog):
    """A non-modal window showing one system's page, scrolled to the current phase."""

    def __init__(self, system_id: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("procedureHelp")
        self.browser = QTextBrowser()
        self.browser.setOpenExternalLinks(True)
        path = docs_dir() / "systems" / f"{system_id}.md"
        try:
            self.browser.setMarkdown(path.read_text(encoding="utf-8"))
        except OSError as exc:
            self.browser.setPlainText(f"The help page {path} cannot be read: {exc}")
        self.setWindowTitle(f"How {system_id} works")
        self.resize(760, 680)
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)

    def show_phase(self, phase: Phase) -> str | None:
        """Scrolls to the first passage naming the phase; returns the text found."""
        for term in _search_terms(phase):
            self.browser.moveCursor(QTextCursor.MoveOperation.Start)
            if self.browser.find(term, QTextDocument.FindFlag(0)):
                cursor = self.browser.textCursor()
                top = self.browser.cursorRect(cursor).top()
                bar = self.browser.verticalScrollBar()
                bar.setValue(bar.value() + top - 8)
                return cursor.selectedText()
        return None
